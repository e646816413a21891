// Where the run history is kept, behind a small interface: the SQLite database of
// history/sqlite.cpp, or a PostgreSQL database through history/postgres.cpp, a module of its own
// (docs/history.md has the schema). history/history.cpp and commands/history_command.cpp use only this.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace wb {

/// A recorded run, without its results.
struct run_summary {
    int64_t id = 0;
    std::string recorded, started; // UTC, ISO 8601
    std::string suite, suite_file, platform, device, arch, toolchain, tool_version;
    bool complete = false;
    bool baseline = false; // the marked baseline of its suite, platform and device
    int64_t configs = 0;   // results recorded
    int64_t verified = 0, failed = 0, errors = 0, crashed = 0, timeouts = 0, skipped = 0;
};

/// Which runs list() gives; empty strings match everything.
struct run_filter {
    std::string suite, platform;
    std::string device;        // a substring of the device's name
    bool exact_device = false; // device is the whole name
    bool baseline_only = false;
    size_t limit = 20; // 0: no limit
};

class history_store {
public:
    virtual ~history_store() = default;
    /// The file or URL, for messages.
    virtual const std::string& where() const = 0;
    /// Records a results document (docs/results-schema.md) with one row per result; returns its id.
    virtual int64_t record(const nlohmann::json& doc) = 0;
    /// The runs that match, newest first.
    virtual std::vector<run_summary> list(const run_filter& f) = 0;
    virtual std::optional<run_summary> find(int64_t id) = 0;
    /// The results document of run `id`; throws when there is no such run.
    virtual nlohmann::json load(int64_t id) = 0;
    /// Makes run `id` the baseline of its suite, platform and device (the previous one no longer
    /// is), or with mark false makes it no baseline. Throws when there is no such run.
    virtual void mark_baseline(int64_t id, bool mark) = 0;
};

/// How a store is opened: `read` for the commands that only read (history, compare, report): a
/// file the user may only read is read, nothing is written, no schema is made (a database without it
/// is no history: nullptr); `write` an existing database (marking a baseline); `create` makes the
/// file and its folder, or the schema, where missing (recording a run).
enum class open_mode { read, write, create };

/// Thrown where a history holds what wavebench did not put there and could run code in it: a view,
/// a trigger, a rule, a table or index of another shape. The message names them and says what to do.
struct hostile_history : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// The SQLite history in `path` (a missing file: nullptr, but with `create`). Throws
/// std::runtime_error naming the file for a file that is no SQLite database, a database of another
/// program or of a newer schema, a statement that runs longer than history_timeout_s();
/// hostile_history for objects not of wavebench's schema.
std::unique_ptr<history_store> open_sqlite_history(const std::string& path, open_mode mode);

/// The PostgreSQL history at `url` (postgresql://... or postgres://...), through the module
/// lib/libwavebench_history_postgres.so, loaded on first use (the wavebench binary does not link
/// libpq). With `create`, the schema is made where missing; otherwise a database without it gives
/// nullptr (no runs). Throws std::runtime_error where the module is not built, the server refuses,
/// or the database is of another program or a newer schema, hostile_history for triggers, rules or
/// row security on wavebench's tables; no message holds the password.
std::unique_ptr<history_store> open_postgres_history(const std::string& url, open_mode mode);

/// How long one statement of a history may run, in seconds: WAVEBENCH_DB_TIMEOUT (decimal seconds,
/// for tests and slow disks), else 30. Throws std::invalid_argument for a value that is no positive number.
double history_timeout_s();

/// The module's entry (C linkage, found by name): history_store* (const std::string& url, open_mode mode),
/// open_postgres_history's work; the caller owns the store.
#define WB_HISTORY_POSTGRES_ENTRY "wavebench_open_postgres_history"
#define WB_HISTORY_POSTGRES_MODULE "libwavebench_history_postgres.so"

} // namespace wb
