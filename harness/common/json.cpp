// A configuration's parameters as text (common/json.h).
#include "harness/common/json.h"

#include "harness/common/files.h"

namespace wb {

namespace {

void append_param(std::string& s, const std::string& key, const std::string& text)
{
    s += (s.empty() ? "" : " ") + key + "=" + text;
}

} // namespace

std::string value_text(const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

std::string params_text(const param_map& family_params, const param_map& tunables)
{
    std::string s;
    for (const auto* m : {&family_params, &tunables})
        for (const auto& [k, v] : *m) append_param(s, k, to_string(v));
    return s;
}

std::string params_text(const nlohmann::json& params, const std::set<std::string>& leave_out)
{
    std::string s;
    if (params.is_object())
        for (const auto& [k, v] : params.items())
            if (!leave_out.count(k)) append_param(s, k, value_text(v));
    return s;
}

std::string json_error_text(const std::exception& e)
{
    std::string_view what = e.what();
    if (what.rfind("[json.exception.", 0) == 0 && what.find("] ") != std::string_view::npos)
        what.remove_prefix(what.find("] ") + 2);
    return shown(what, 300);
}

std::string json_text(const nlohmann::json& doc)
{
    // Plugins' messages are not promised to be UTF-8: replace what is not, never give up.
    return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

void write_json(const std::filesystem::path& path, const nlohmann::json& doc) { write_output(path, json_text(doc)); }

} // namespace wb
