// The same code in both runs (report/compare.h): a configuration whose two results name the same
// plugin code digest (plugins/code_digest.h) is `same-code`, whatever its times say. Two copies of
// one build differ by the machine's noise alone, and on a GPU that noise crosses the threshold at
// p < alpha now and then: such a row is a false alarm the digest can rule out.
#include "harness/report/compare.h"

#include "harness/common/files.h"

#include <algorithm>

namespace wb {

using json = nlohmann::json;

namespace {

/// The verdicts that come from the times of two verified results.
bool time_verdict_of(const std::string& v)
{
    return v == "faster" || v == "slower" || v == "same" || v == "noisy" || v == "untested";
}

/// A row side's code digest (brief), or "".
std::string digest_of(const json& side)
{
    if (!side.is_object()) return "";
    const auto it = side.find("code_digest");
    return it != side.end() && it->is_string() ? it->get<std::string>() : "";
}

} // namespace

json code_digest_field(const json& result)
{
    const auto it = result.is_object() ? result.find("code_digest") : result.end();
    // A digest is hex digits; anything else (or nothing: an older results file) names no code.
    if (it == result.end() || !it->is_string()) return nullptr;
    const std::string& d = it->get_ref<const std::string&>();
    const bool hex = !d.empty() && d.size() <= 128 && std::all_of(d.begin(), d.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    });
    return hex ? json(d) : json();
}

void same_code_verdicts(json& rows, const compare_options& o)
{
    if (o.ignore_code_digest) return;
    for (json& e : rows) {
        const std::string digest = digest_of(e["base"]);
        if (digest.empty() || digest != digest_of(e["new"])) continue;
        const std::string v = e["verdict"];
        const bool timed = time_verdict_of(v);
        // Skipped in both (--skip-same-code skips both sides); skipped in one build only, or a
        // status that changed (failed, fixed) or stays bad (not verified), is news with the same code.
        const bool both_skipped = e["base"]["status"] == "skipped" && e["new"]["status"] == "skipped";
        if (!timed && !(v == "skipped" && both_skipped)) continue;
        std::string reason =
            "the same code in both builds (code_digest " + digest.substr(0, 12) + "): not judged by its times";
        if (timed) {
            e["would_be"] = v;
            reason += "; by the times alone " + v + ": " + e["reason"].get<std::string>();
        }
        e["verdict"] = "same-code";
        e["reason"] = reason;
    }
}

size_t same_code_false_alarms(const json& rows)
{
    return size_t(std::count_if(rows.begin(), rows.end(), [](const json& e) {
        return e["verdict"] == "same-code" &&
               (e.value("would_be", "") == "slower" || e.value("would_be", "") == "faster");
    }));
}

} // namespace wb
