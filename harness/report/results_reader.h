// The one reader of results documents (docs/results-schema.md), from a file or from a run of the
// history: the document's shape checked as it is read, and checked access to what is in it, every
// error naming the input and the place. compare, report, merge and history read through it.
#pragma once

#include "harness/measure/status.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wb {

/// What a results file may weigh: every sample of every configuration. The readers (compare,
/// report, merge) refuse a larger file, and merge refuses to write one.
inline constexpr uint64_t results_file_limit = uint64_t(256) << 20;

/// One run given on the command line: a results file, or a run of the history.
struct run_input {
    std::string label;         // "results.json", or "run 12 (latest)"
    nlohmann::json doc;        // the results document (schema_version >= 3 has samples)
    std::optional<int64_t> id; // the history's id, for a run of the history
};

/// The results document `doc` of input `label`, checked to be an object with a "results" array,
/// "suite" and "device" objects and a "platform"; std::invalid_argument says what it lacks.
run_input results_input(nlohmann::json doc, const std::string& label, std::optional<int64_t> id);

/// Results file `path` ("-": standard input) parsed and checked as results_input does; errors name
/// the file. A run's journal (report/results_journal.h) is read as the run it holds.
run_input read_results_file(const std::string& path);

/// Checked access to one input's document; every error names the input (`who`) and where in it.
struct results_reader {
    std::string who; // "results.json", "run 12 (latest)", "BASE (results.json)"

    [[noreturn]] void fail(const std::string& where, const std::string& what) const;
    /// o[key], or null where it is absent (or `o` is no object).
    const nlohmann::json& field(const nlohmann::json& o, const char* key) const;
    /// A number or null (also when absent).
    nlohmann::json number(const nlohmann::json& o, const char* key, const std::string& where) const;
    /// A string or null (also when absent).
    nlohmann::json text(const nlohmann::json& o, const char* key, const std::string& where) const;
    /// A string that must be there.
    std::string name(const nlohmann::json& o, const char* key, const std::string& where) const;
    /// An object or null (also when absent).
    const nlohmann::json& object(const nlohmann::json& o, const char* key, const std::string& where) const;
    /// The results array of the document.
    const nlohmann::json& results(const nlohmann::json& doc) const;
    /// A result's kernel times (samples_ms): finite and not negative; nullopt where it has none.
    std::optional<std::vector<double>> samples(const nlohmann::json& r, const std::string& where) const;
};

/// When the run started (ISO time), "" where the document does not say.
std::string started_of(const run_input& in);

/// "result 3": where the result at `index` of the results array is, for messages.
std::string result_place(size_t index);

/// A result's status; nullopt where it has none or one that is no status (it did not verify).
std::optional<status> status_of(const nlohmann::json& r);
/// A result's status as written, "?" where it has no string.
std::string status_text(const nlohmann::json& r);

} // namespace wb
