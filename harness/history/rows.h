// What the history stores of a results document, the same in every store (history/sqlite.cpp,
// history/postgres.cpp): the schema, in one place with its version, the run's row with its counts,
// one row per result, and a run's summary read back from the columns summary_columns names.
#pragma once

#include "harness/history/store.h"

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace wb {

/// The version of history_schema: PRAGMA user_version in SQLite, wavebench_schema in PostgreSQL.
/// A database of a higher one is refused.
inline constexpr int schema_version = 1;

/// The SQL types a store writes the schema in.
struct sql_types {
    const char* id;      // the runs' key, ascending, never reused
    const char* integer; // 64 bits
    const char* boolean;
    const char* real; // a double
};

/// The history's tables and indexes (docs/history.md), as CREATE ... IF NOT EXISTS statements in
/// `t`'s types: one schema for every store.
std::string history_schema(const sql_types& t);

/// The columns of runs that make a run_summary, in the order summary_of reads them.
inline constexpr const char* summary_columns =
    "id, recorded, started, suite, suite_file, platform, device, arch, toolchain, tool_version, complete, baseline, "
    "configs, verified, failed, errors, crashed, timeouts, skipped";

/// A result's row in the results table.
struct stored_result {
    std::string family, variant;
    std::string params; // JSON, keys sorted: canonical
    std::string status;
    std::optional<double> time_ms;
    std::string samples_ms, wall_samples_ms; // JSON arrays
};

/// A results document as the history stores it: `run` without id, recorded and baseline (the
/// store sets them), the whole document as text, and a row per result.
struct run_rows {
    run_summary run;
    std::string document;
    std::vector<stored_result> results;
};

/// The rows of results document `doc` (docs/results-schema.md); throws nlohmann::json::exception
/// where it has no results, suite or device.
run_rows rows_of(const nlohmann::json& doc);

/// The summary whose columns (summary_columns) `column(i)` gives as text: integers in decimal,
/// booleans as 1/0 or t/f.
run_summary summary_of(const std::function<std::string(int)>& column);

/// The error for run `id` missing from the history `where`.
std::invalid_argument no_such_run(int64_t id, const std::string& where);

/// The results document of run `id` of the history `where` from the text it stores: parsed with the
/// depth limit (parse_json); std::invalid_argument naming the run and the history where it is no
/// JSON or nests too deep.
nlohmann::json run_document(int64_t id, const std::string& text, const std::string& where);

/// The message for a statement of the history `where` that ran past history_timeout_s().
std::string timeout_message(const std::string& where);

/// The message of hostile_history for what the history `where` holds that wavebench did not put
/// there (`objects`: "trigger t on runs"), with how to remove them (`remedy`).
std::string hostile_message(const std::string& where, const std::vector<std::string>& objects,
                            const std::string& remedy);

} // namespace wb
