// A comparison (report/compare.h) printed: a console table, or markdown for a pull-request comment,
// each followed by the notes that say why a configuration is noisy, failed, new or missing.
#include "harness/report/compare.h"

#include "harness/common/files.h"
#include "harness/common/json.h"
#include "harness/report/results_json.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <iomanip>
#include <map>
#include <ostream>
#include <set>
#include <sstream>

namespace wb {

namespace {

using json = nlohmann::json;
using row_cells = std::array<std::string, 8>;

/// Per family, the parameters with one value wherever they appear ("block_size=256"; a tunable
/// only some variants have counts too): said once under the console table, so the column keeps
/// what tells the rows apart.
std::map<std::string, json> common_params(const json& rows)
{
    std::map<std::string, std::map<std::string, std::set<std::string>>> values; // family, key: values
    std::map<std::string, json> first;                                          // family, key: a value
    for (const auto& e : rows)
        if (e["params"].is_object())
            for (const auto& [k, v] : e["params"].items()) {
                values[e["family"]][k].insert(v.dump());
                first[e["family"]][k] = v;
            }
    std::map<std::string, json> common;
    for (const auto& e : rows) common[e["family"]] = json::object();
    for (const auto& [family, keys] : values)
        for (const auto& [k, v] : keys)
            if (v.size() == 1) common[family][k] = first[family][k];
    return common;
}

std::string ms_or_dash(const json& side)
{
    return side.is_object() && side["median_ms"].is_number() ? format_ms(side["median_ms"].get<double>()) : "-";
}

std::string ci_text(const json& e)
{
    return e["ci"].is_array() ? "[" + percent_text(e["ci"][0].get<double>(), true, true) + ", " +
                                    percent_text(e["ci"][1].get<double>(), true, true) + "]"
                              : "-";
}

std::string resource_text(const json& c)
{
    std::string s = shown(c["kernel"].get<std::string>(), 120);
    if (c["target"].is_string()) s += " " + shown(c["target"].get<std::string>(), 40);
    return s + " " + c["field"].get<std::string>() + " " + value_text(c["base"]) + " -> " + value_text(c["new"]) +
           (c["worse"].get<bool>() ? " (worse)" : "");
}

/// "2 same, 1 missing; NEW incomplete; regressed: incomplete, missing".
std::string summary_line(const json& cmp)
{
    std::string s;
    for (const auto& [k, v] : cmp["counts"].items())
        if (v.get<int>() > 0) s += (s.empty() ? "" : ", ") + std::to_string(v.get<int>()) + " " + k;
    if (cmp["resource_regressions"].get<size_t>() > 0)
        s += "; " + std::to_string(cmp["resource_regressions"].get<size_t>()) + " resource regressions";
    if (cmp.value("other_clocks", size_t(0)) > 0)
        s += "; " + std::to_string(cmp["other_clocks"].get<size_t>()) + " ran at other clocks";
    if (cmp.value("same_code_false_alarms", size_t(0)) > 0)
        s += "; " + std::to_string(cmp["same_code_false_alarms"].get<size_t>()) +
             " same-code the times alone call slower or faster";
    s = s.empty() ? "no configurations" : s;
    if (const json fdr = cmp["options"].value("fdr", json()); fdr.is_number()) {
        const auto& rows = cmp["configurations"];
        const auto tests =
            std::count_if(rows.begin(), rows.end(), [](const json& e) { return e["q_value"].is_number(); });
        s += "; significance at false discovery rate " + p_text(fdr.get<double>()) + " over " + std::to_string(tests) +
             " tests";
    }
    if (cmp["matched"].get<size_t>() == 0) s += "; nothing matched";
    for (const char* side : {"base", "new"})
        if (!cmp[side]["complete"].get<bool>())
            s += std::string("; ") + (*side == 'b' ? "BASE" : "NEW") + " incomplete";
    std::string r;
    for (const auto& x : cmp["regressions"]) r += (r.empty() ? "" : ", ") + x.get<std::string>();
    return s + (r.empty() ? "; no regression" : "; regressed: " + r);
}

/// The comparison's warnings (an input that stopped early, nothing matched), each on a line.
std::string warning_lines(const json& cmp, bool markdown)
{
    std::string s;
    for (const auto& w : cmp["warnings"])
        s += (markdown ? "> **warning:** " : "warning: ") + w.get<std::string>() + "\n";
    return s;
}

/// Whether a row says nothing changed: the same times, or the same code (not judged by its times).
bool unchanged(const json& e) { return e["verdict"] == "same" || e["verdict"] == "same-code"; }

/// The comparison as a markdown table of the configurations that changed, and one of all.
void print_markdown(std::ostream& os, const json& cmp, const row_cells& head, const std::vector<row_cells>& cells)
{
    const json& rows = cmp["configurations"];
    os << "### wavebench compare: " << shown(cmp["base"]["label"].get<std::string>(), 200) << " → "
       << shown(cmp["new"]["label"].get<std::string>(), 200) << "\n\n"
       << summary_line(cmp) << "\n\n";
    if (!cmp["warnings"].empty()) os << warning_lines(cmp, true) << "\n";
    auto line = [&](const row_cells& c) {
        os << "|";
        for (const auto& x : c) {
            std::string cell; // a '|' from a results file must not end the cell
            for (char ch : x) cell += ch == '|' ? "\\|" : std::string(1, ch);
            os << " " << cell << " |";
        }
        os << "\n";
    };
    auto table = [&](bool all) {
        line(head);
        os << "|---|---|---|--:|--:|--:|--:|--:|\n";
        for (size_t i = 0; i < rows.size(); ++i)
            if (all || !unchanged(rows[i])) line(cells[i]);
    };
    const bool changes = !std::all_of(rows.begin(), rows.end(), unchanged);
    if (changes)
        table(false);
    else
        os << (cmp["counts"].value("same-code", 0) > 0 ? "Every configuration is the same, or the same code.\n"
                                                       : "Every configuration is the same.\n");
    os << "\n<details><summary>all " << rows.size() << " configurations</summary>\n\n";
    table(true);
    os << "\n</details>\n";
}

/// The comparison as a console table in 120 columns, and the parameters every row of a family shares.
void print_table(std::ostream& os, const json& cmp, const row_cells& head, const std::vector<row_cells>& cells,
                 const std::map<std::string, json>& common)
{
    std::array<size_t, 8> w{};
    for (size_t c = 0; c < 8; ++c) {
        w[c] = head[c].size();
        for (const auto& r : cells) w[c] = std::max(w[c], r[c].size());
    }
    // The parameters take what 120 columns leave (at least 12).
    size_t others = 2 * 7;
    for (size_t c = 0; c < 8; ++c) others += c == 2 ? 0 : w[c];
    w[2] = std::min(w[2], std::max<size_t>(12, 120 - std::min<size_t>(others, 108)));
    os << "BASE " << shown(cmp["base"]["label"].get<std::string>(), 200) << "\nNEW  "
       << shown(cmp["new"]["label"].get<std::string>(), 200) << "\n\n";
    auto line = [&](const row_cells& c) {
        std::string s;
        for (size_t i = 0; i < 8; ++i) {
            const std::string x = i == 2 && c[i].size() > w[i] ? c[i].substr(0, w[i] - 3) + "..." : c[i];
            const std::string pad(w[i] - x.size(), ' ');
            s += (i ? "  " : "") + (i >= 3 ? pad + x : x + pad); // the figures to the right
        }
        while (!s.empty() && s.back() == ' ') s.pop_back();
        os << s << "\n";
    };
    line(head);
    size_t total = 0;
    for (size_t c : w) total += c + 2;
    os << std::string(total - 2, '-') << "\n";
    for (const auto& r : cells) line(r);
    std::string same_everywhere;
    for (const auto& [family, params] : common)
        if (!params.empty())
            same_everywhere += "  " + shown(family, 80) + ": " + shown(params_text(params), 400) + "\n";
    if (!same_everywhere.empty()) os << "\nin every row of the family:\n" << same_everywhere;
}

/// Why a configuration is noisy, failed, new, missing..., each resource change, and how the runs differed.
void print_notes(std::ostream& os, const json& cmp, const std::vector<row_cells>& cells, bool markdown)
{
    const json& rows = cmp["configurations"];
    std::string notes;
    for (size_t i = 0; i < rows.size(); ++i) {
        const json& e = rows[i];
        const std::string v = e["verdict"];
        // same-code: only where the times alone would have given a verdict that counts.
        const bool quiet =
            v == "same-code" && e.value("would_be", "") != "slower" && e.value("would_be", "") != "faster";
        std::string what = v != "same" && v != "slower" && v != "faster" && !quiet ? e["reason"].get<std::string>()
                                                                                   : ""; // those: in the table
        for (const auto& c : e["resources"]) what += (what.empty() ? "" : "; ") + resource_text(c);
        if (const std::string c = conditions_text(e["conditions"]); !c.empty()) what += (what.empty() ? "" : "; ") + c;
        if (!what.empty())
            notes +=
                (markdown ? "- " : "  ") + cells[i][1] + " " + cells[i][2] + ": " + cells[i][0] + ": " + what + "\n";
    }
    for (const auto& d : cmp["differences"])
        notes += std::string(markdown ? "- " : "  ") + "ran differently: " + d.get<std::string>() + "\n";
    if (!notes.empty()) os << "\n" << (markdown ? "" : "notes:\n") << notes;
}

} // namespace

std::string percent_text(double x, bool sign, bool whole)
{
    std::ostringstream o;
    o << std::fixed << std::setprecision(whole && std::abs(x) >= 0.1 ? 0 : 1) << (sign && x >= 0 ? "+" : "") << 100 * x
      << "%";
    return o.str();
}

std::string p_text(double p)
{
    std::ostringstream o;
    o << std::setprecision(2) << p;
    return o.str();
}

void print_comparison(std::ostream& os, const json& cmp, bool markdown)
{
    const json& rows = cmp["configurations"];
    const std::string interval =
        std::to_string(int(std::round(100 * (1 - cmp["options"]["alpha"].get<double>())))) + "% CI";
    const auto common = common_params(rows);
    const bool fdr = cmp["options"].value("fdr", json()).is_number(); // the q-value beside each p
    auto keys_of = [&](const json& e) {
        std::set<std::string> k;
        if (!markdown)
            for (const auto& [key, v] : common.at(e["family"].get<std::string>()).items()) k.insert(key);
        return k;
    };
    std::vector<row_cells> cells;
    for (const auto& e : rows)
        cells.push_back({e["verdict"].get<std::string>(),
                         shown(e["family"].get<std::string>() + "/" + e["variant"].get<std::string>(), 80),
                         shown(params_text(e["params"], keys_of(e)), 400), ms_or_dash(e["base"]), ms_or_dash(e["new"]),
                         e["change"].is_number() ? percent_text(e["change"].get<double>()) : "-", ci_text(e),
                         (e["p_value"].is_number() ? p_text(e["p_value"].get<double>()) : "-") +
                             (fdr && e["q_value"].is_number() ? " (" + p_text(e["q_value"].get<double>()) + ")" : "")});
    const row_cells head{"verdict", "benchmark", "params", "base", "new", "change", interval, fdr ? "p (q)" : "p"};
    if (markdown)
        print_markdown(os, cmp, head, cells);
    else
        print_table(os, cmp, head, cells, common);
    print_notes(os, cmp, cells, markdown);
    if (!markdown) os << "\n" << warning_lines(cmp, false) << summary_line(cmp) << "\n";
}

} // namespace wb
