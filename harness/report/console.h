// What `wavebench run` shows while it measures: the table of results, a row as each configuration
// finishes (on a terminal, or as markdown, CSV or JSON Lines), and on a terminal the progress line.
#pragma once

#include "harness/measure/result.h"
#include "harness/plan/plan.h"

#include <chrono>
#include <iosfwd>
#include <string>
#include <vector>

namespace wb {

/// --format: how `run` prints the table on stdout. markdown, csv and json carry only the table.
enum class table_format { table, markdown, csv, json };

/// The widest a console table's line may be (a failed row's message line aside).
inline constexpr size_t console_width = 120;

/// The table of a run, printed a row at a time as results arrive. Consecutive configurations of a
/// family share a table while its columns fit console_width; each table shows the parameters
/// that vary in it as columns, and those with one value in its heading line.
class console_table {
public:
    /// `known`: the machine's ceilings (a family without its ceiling gets no %ceil column);
    /// `devices`: how many the run uses (more than one: a `dev` column, each row's device);
    /// `counters`: the run reads hardware counters (--counters: `simt` and `occ` columns).
    console_table(std::ostream& os, const std::vector<config>& planned, table_format f, const ceilings& known,
                  size_t devices = 1, bool counters = false);
    ~console_table();
    /// The result of planned[index]; a table's heading and header come before its first row.
    void row(size_t index, const result& r);

    /// The columns of a table of configurations (defined in report/console.cpp).
    struct layout;

private:
    /// The lines before a table's first row.
    std::string heading(const layout& l) const;

    std::ostream& os_;
    table_format format_;
    std::vector<layout> tables_;
    std::vector<size_t> table_of_;        // per configuration, its table
    std::vector<std::string> csv_params_; // csv: the union of the parameter names
    size_t current_ = size_t(-1);
};

/// On a terminal, the line "[3/44] 0:12 elapsed, ~0:40 left: reduce/tree n=1024 ..." on stderr,
/// rewritten in place as each configuration starts. Whatever else is printed to the terminal
/// clears it first (clear()); the next start() draws it again.
class progress_line {
public:
    /// Shown only where `shown` (stderr is a terminal).
    progress_line(std::ostream& os, const std::vector<config>& planned, bool shown);
    ~progress_line() { clear(); }
    progress_line(const progress_line&) = delete;
    progress_line& operator=(const progress_line&) = delete;

    /// planned[index] starts: the configurations before it are done.
    void start(size_t index);
    void clear();

private:
    using clock = std::chrono::steady_clock;
    std::ostream& os_;
    const std::vector<config>& planned_;
    bool shown_, drawn_ = false;
    clock::time_point began_ = clock::now();
};

/// "1:05", "1:02:03": a duration in seconds as a clock shows it.
std::string clock_text(double seconds);

} // namespace wb
