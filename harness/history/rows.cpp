#include "harness/history/rows.h"

#include "harness/common/files.h"
#include "harness/common/json_parse.h"
#include "harness/measure/status.h" // header only: the PostgreSQL module compiles this file too

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>

namespace wb {

namespace {

/// JSON as stored: compact, and what is not UTF-8 (a plugin's message) replaced, never refused.
std::string json_text(const nlohmann::json& j)
{
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

/// doc[key] where it is a string, else "".
std::string text_of(const nlohmann::json& doc, const char* key)
{
    const auto it = doc.is_object() ? doc.find(key) : doc.end();
    return it != doc.end() && it->is_string() ? it->get<std::string>() : "";
}

} // namespace

std::string history_schema(const sql_types& t)
{
    const std::string integer = std::string(t.integer) + " NOT NULL", boolean = std::string(t.boolean) + " NOT NULL";
    return R"sql(
CREATE TABLE IF NOT EXISTS runs (
    id           )sql" +
           std::string(t.id) + R"sql(,
    suite        TEXT NOT NULL,
    suite_file   TEXT NOT NULL,
    device       TEXT NOT NULL,
    arch         TEXT NOT NULL,
    platform     TEXT NOT NULL,
    toolchain    TEXT NOT NULL,
    tool_version TEXT NOT NULL,
    started      TEXT NOT NULL,
    recorded     TEXT NOT NULL,
    complete     )sql" +
           boolean + R"sql(,
    configs      )sql" +
           integer + R"sql(,
    verified     )sql" +
           integer + R"sql(,
    failed       )sql" +
           integer + R"sql(,
    errors       )sql" +
           integer + R"sql(,
    crashed      )sql" +
           integer + R"sql(,
    timeouts     )sql" +
           integer + R"sql(,
    skipped      )sql" +
           integer + R"sql(,
    baseline     )sql" +
           boolean + R"sql( DEFAULT false,
    document     TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_by_group ON runs (suite, platform, device, id);
CREATE UNIQUE INDEX IF NOT EXISTS runs_one_baseline ON runs (suite, platform, device) WHERE baseline;
CREATE TABLE IF NOT EXISTS results (
    run_id          )sql" +
           integer + R"sql( REFERENCES runs (id) ON DELETE CASCADE,
    position        )sql" +
           integer + R"sql(,
    family          TEXT NOT NULL,
    variant         TEXT NOT NULL,
    params          TEXT NOT NULL,
    status          TEXT NOT NULL,
    time_ms         )sql" +
           t.real + R"sql(,
    samples_ms      TEXT NOT NULL,
    wall_samples_ms TEXT NOT NULL,
    PRIMARY KEY (run_id, position)
);
CREATE INDEX IF NOT EXISTS results_by_config ON results (family, variant, params);
)sql";
}

run_rows rows_of(const nlohmann::json& doc)
{
    const nlohmann::json& results = doc.at("results");
    const nlohmann::json& suite = doc.at("suite");
    const nlohmann::json& device = doc.at("device");
    run_rows out;
    std::map<status, int64_t> counts; // a status that is none counts nowhere
    for (const auto& r : results) {
        if (const auto st = parse_status(text_of(r, "status"))) ++counts[*st];
        const auto time = r.value("time_ms", nlohmann::json());
        auto array = [&](const char* key) { return json_text(r.value(key, nlohmann::json::array())); };
        out.results.push_back({text_of(r, "family"), text_of(r, "variant"),
                               json_text(r.value("params", nlohmann::json::object())), text_of(r, "status"),
                               time.is_number() ? std::optional(time.get<double>()) : std::nullopt, array("samples_ms"),
                               array("wall_samples_ms")});
    }
    run_summary& s = out.run;
    s.suite = text_of(suite, "name");
    s.suite_file = text_of(suite, "file");
    s.device = text_of(device, "name");
    s.arch = text_of(device, "arch");
    s.platform = text_of(doc, "platform");
    s.toolchain = text_of(doc, "toolchain");
    s.tool_version = text_of(doc, "tool_version");
    s.started = text_of(doc, "started");
    s.complete = doc.value("complete", false);
    s.configs = int64_t(results.size());
    s.verified = counts[status::verified];
    s.failed = counts[status::failed];
    s.errors = counts[status::error];
    s.crashed = counts[status::crashed];
    s.timeouts = counts[status::timeout];
    s.skipped = counts[status::skipped];
    out.document = json_text(doc);
    return out;
}

run_summary summary_of(const std::function<std::string(int)>& column)
{
    auto integer = [&](int i) { return std::stoll(column(i)); };
    auto boolean = [&](int i) {
        const std::string v = column(i);
        return v == "1" || v == "t";
    };
    run_summary r;
    r.id = integer(0);
    r.recorded = column(1);
    r.started = column(2);
    r.suite = column(3);
    r.suite_file = column(4);
    r.platform = column(5);
    r.device = column(6);
    r.arch = column(7);
    r.toolchain = column(8);
    r.tool_version = column(9);
    r.complete = boolean(10);
    r.baseline = boolean(11);
    r.configs = integer(12);
    r.verified = integer(13);
    r.failed = integer(14);
    r.errors = integer(15);
    r.crashed = integer(16);
    r.timeouts = integer(17);
    r.skipped = integer(18);
    return r;
}

std::invalid_argument no_such_run(int64_t id, const std::string& where)
{
    return std::invalid_argument("no run " + std::to_string(id) + " in the history " + shown(where, 200) +
                                 ": `wavebench history` lists the runs");
}

nlohmann::json run_document(int64_t id, const std::string& text, const std::string& where)
{
    const std::string run = "run " + std::to_string(id) + " of the history " + shown(where, 200);
    try {
        return parse_json(text);
    } catch (const json_too_deep& e) {
        throw std::invalid_argument(run + ": its results document is refused: " + e.what() +
                                    "; wavebench writes none so deep (a damaged or hostile history: give --db "
                                    "another one)");
    } catch (const nlohmann::json::parse_error& e) { // where, not the library's text
        throw std::invalid_argument(run + " is damaged: its results document is not JSON (at its byte " +
                                    std::to_string(e.byte) + ")");
    }
}

double history_timeout_s()
{
    const char* v = std::getenv("WAVEBENCH_DB_TIMEOUT");
    if (!v || !*v) return 30;
    const std::string_view s(v);
    double x = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
    if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(x) || x <= 0 || x > 1e6)
        throw std::invalid_argument("WAVEBENCH_DB_TIMEOUT '" + shown(s, 40) +
                                    "' is not a number of seconds from 0 to 1000000 (the most one statement of "
                                    "the history may take; default 30)");
    return x;
}

std::string timeout_message(const std::string& where)
{
    std::string limit = std::to_string(history_timeout_s());
    limit.erase(limit.find_last_not_of('0') + 1);
    if (limit.back() == '.') limit.pop_back();
    return "the history database " + shown(where, 200) + ": a statement ran longer than " + limit +
           " s and was stopped: a damaged or hostile history (or a very slow disk or server: WAVEBENCH_DB_TIMEOUT "
           "gives the seconds a statement may take); give --db (or WAVEBENCH_DB) another one";
}

std::string hostile_message(const std::string& where, const std::vector<std::string>& objects,
                            const std::string& remedy)
{
    std::string list;
    for (size_t i = 0; i < objects.size() && i < 10; ++i) list += (i ? ", " : "") + objects[i];
    if (objects.size() > 10) list += " and " + std::to_string(objects.size() - 10) + " more";
    return "the history database " + shown(where, 200) + " holds what wavebench did not put there: " + list +
           ". They could run code of whoever made the history, or change what is recorded and read, so wavebench "
           "does not use it: " +
           remedy + ", or give --db (or WAVEBENCH_DB) another history";
}

} // namespace wb
