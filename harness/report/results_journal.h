// A run's results written as they come (docs/results-schema.md, "The journal"): each result appended
// as one line to a journal beside the results file (OUT.journal), the whole document rewritten now
// and then (rarely enough that a run writes bytes in proportion to its results, not their square)
// and at the end, when the journal is removed. A run killed outright (SIGKILL, a power cut) leaves
// its journal, which the results reader reads as the run, incomplete.
#pragma once

#include "harness/measure/result.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace wb {

/// The journal of results file `out`: "OUT.journal".
std::filesystem::path journal_of(const std::filesystem::path& out);

/// Whether `text` is a journal: it starts as a journal's first line does (a prefix compared, so
/// results documents are read as fast as before).
bool is_journal(std::string_view text);

/// The run journal `text` holds, as a results document: its first line's document with the results
/// of the lines after it (a later line of a plan_index in place of the earlier one; in plan order),
/// `complete` false. A last line without its newline (the run killed while writing it) is left out.
/// Throws std::invalid_argument naming `label` and the line.
nlohmann::json journal_document(std::string_view text, const std::string& label);

/// Writes a run's results file and its journal as the results come.
class results_writer {
public:
    using document_fn = std::function<nlohmann::json()>; // the whole document so far (complete: false)

    using warning_fn = std::function<void(const std::string&)>;

    /// Writes `first` (the document without results) to `out` and starts the journal with it.
    /// Throws file_error where either cannot be written, and where a journal is there already (a
    /// killed run's results: never overwritten). Later a write that fails is a warning ("warning:
    /// cannot write ...") to `warn`, and the next one tries again: measuring goes on.
    results_writer(std::filesystem::path out, const nlohmann::json& first, warning_fn warn);
    ~results_writer();
    results_writer(const results_writer&) = delete;
    results_writer& operator=(const results_writer&) = delete;

    /// all.back(), just handed on, appended to the journal, with the results of its group (from
    /// `group_begin`) whose speedups it changed; the document rewritten when it is due (`doc` builds
    /// it then).
    void add(const std::vector<result>& all, size_t group_begin, const document_fn& doc);
    /// A result measured but not handed on yet (runner::on_waiting): in the journal only.
    void add_waiting(const result& r);
    /// Writes the final document, then removes the journal. Throws file_error (the journal stays).
    void finish(const nlohmann::json& doc);

    /// How many times the whole document was written, the first and the final included.
    size_t documents_written() const { return documents_; }

private:
    void append(const nlohmann::json& row);
    void write_line(const std::string& line);
    void warn(const std::exception& e) const;
    void rewrite(const nlohmann::json& doc, size_t results);

    using clock = std::chrono::steady_clock;
    std::filesystem::path out_, journal_;
    warning_fn warn_;
    int fd_ = -1;
    bool journal_failed_ = false; // then the document is rewritten after every result, as it holds them
    std::vector<std::pair<std::optional<double>, std::optional<double>>> journaled_; // speedups as appended
    size_t doc_results_ = 0;                                                         // in the last document
    clock::time_point last_end_;
    clock::duration last_took_{};
    size_t documents_ = 0;
};

} // namespace wb
