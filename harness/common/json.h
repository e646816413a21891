// Small pieces of JSON that several parts write the same way: a parameter's value, an optional
// figure (null when absent), and a configuration's parameters as one line of text; and (from
// common/json_parse.h) the one parse of JSON wavebench did not build.
#pragma once

#include "core/family.h"
#include "harness/common/json_parse.h" // parse_json: every JSON read goes through it

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>

namespace wb {

/// A parameter's value as a JSON number or string (`J`: nlohmann::json or ordered_json).
template <class J = nlohmann::json> J value_json(const value& v)
{
    if (auto i = std::get_if<int64_t>(&v)) return *i;
    if (auto d = std::get_if<double>(&v)) return *d;
    return std::get<std::string>(v);
}

/// A configuration's parameters as one JSON object: the family's, then the tunables.
template <class J = nlohmann::json> J params_json(const param_map& family_params, const param_map& tunables)
{
    J j = J::object();
    for (const auto* m : {&family_params, &tunables})
        for (const auto& [k, v] : *m) j[k] = value_json<J>(v);
    return j;
}

/// The value, or null where there is none.
template <class J = nlohmann::json, class T> J or_null(const std::optional<T>& v) { return v ? J(*v) : J(); }

/// A JSON value as a cell shows it: a string as it is, anything else as JSON.
std::string value_text(const nlohmann::json& v);

/// "n=1000 block=256": the family's parameters, then the tunables.
std::string params_text(const param_map& family_params, const param_map& tunables);
/// "n=1000 block=256" of a results document's `params` object, without the ones named in `leave_out`.
std::string params_text(const nlohmann::json& params, const std::set<std::string>& leave_out = {});

/// What went wrong in parse_json (json_too_deep, or the library's parse_error) as a message may
/// quote it: without the library's "[json.exception...]" prefix, printable and bounded.
std::string json_error_text(const std::exception& e);

/// `doc` as write_json writes it: indented, text that is not UTF-8 replaced, a newline at the end.
std::string json_text(const nlohmann::json& doc);

/// Writes through a temporary file and a rename: a reader never sees half a document.
void write_json(const std::filesystem::path& path, const nlohmann::json& doc);

} // namespace wb
