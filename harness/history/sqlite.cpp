// The run history in an SQLite database (the C API of libsqlite3): the schema of history/rows.cpp
// with its version in PRAGMA user_version (docs/history.md), WAL mode and a busy timeout so that
// two runs may record at once, and statements with bound parameters only: no SQL is ever made
// from input. A history is a file someone may hand over: the commands that only read open it
// read-only, its schema is checked for objects wavebench did not make (views, triggers) before
// anything else reads it, and every statement has a deadline (a progress handler).
#include "harness/history/store.h"

#include "harness/common/files.h"
#include "harness/common/utc_time.h"
#include "harness/history/rows.h"
#include "harness/history/sqlite_schema.h"

#include <sqlite3.h>

#include <cctype>
#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <system_error>
#include <thread>

namespace wb {

namespace {

using steady = std::chrono::steady_clock;

class sqlite_history;

/// A prepared statement: bind(), then step() until it gives no row.
class statement {
public:
    statement(sqlite_history& h, const char* sql);
    ~statement() { sqlite3_finalize(s_); }
    statement(const statement&) = delete;
    statement& operator=(const statement&) = delete;

    statement& bind(int i, const std::string& v);
    statement& bind(int i, int64_t v);
    statement& bind(int i, std::optional<double> v); // null where none
    /// Binds `v...` to ?1, ?2, ...
    template <typename... T> statement& bind_all(const T&... v)
    {
        int i = 0;
        (bind(++i, v), ...);
        return *this;
    }
    bool step(); // true: a row is there
    void reset() { sqlite3_reset(s_); }
    int64_t integer(int col) { return sqlite3_column_int64(s_, col); }
    std::string text(int col)
    {
        const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(s_, col));
        return p ? std::string(p, size_t(sqlite3_column_bytes(s_, col))) : "";
    }

private:
    void check(int rc);
    sqlite_history& h_;
    sqlite3_stmt* s_ = nullptr;
};

class sqlite_history final : public history_store {
public:
    /// Takes `db` over (closed with the store); `timeout_s` bounds each statement.
    sqlite_history(std::string path, sqlite3* db, double timeout_s)
        : path_(std::move(path)), db_(db),
          timeout_(std::chrono::duration_cast<steady::duration>(std::chrono::duration<double>(timeout_s)))
    {
        arm();
        // Every step of a statement (and the triggers and views it runs) checks the deadline.
        sqlite3_progress_handler(
            db_, 1000, [](void* h) { return int(steady::now() > static_cast<sqlite_history*>(h)->deadline_); }, this);
        // No function with side effects in views and triggers; no writing of the schema's internals.
        sqlite3_db_config(db_, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
        sqlite3_db_config(db_, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    }
    ~sqlite_history() override { sqlite3_close_v2(db_); }

    const std::string& where() const override { return path_; }
    int64_t record(const nlohmann::json& doc) override;
    std::vector<run_summary> list(const run_filter& f) override;
    std::optional<run_summary> find(int64_t id) override;
    nlohmann::json load(int64_t id) override;
    void mark_baseline(int64_t id, bool mark) override;

    /// The schema made on a new database (but in `read` mode), WAL mode (for writing); throws for a
    /// file that is no history or holds foreign objects. False: no schema (read mode only).
    bool open(open_mode mode);
    /// Throws hostile_history where sqlite_master holds anything but wavebench's schema.
    void check_schema();
    /// Throws the error the last call gave, naming the file.
    [[noreturn]] void fail(int rc) const;
    sqlite3* db() const { return db_; }
    /// The deadline of the statement about to run.
    void arm() { deadline_ = steady::now() + timeout_; }
    /// `sql` run (armed); its result code.
    int try_exec(const char* sql)
    {
        arm();
        return sqlite3_exec(db_, sql, nullptr, nullptr, nullptr);
    }
    void exec(const char* sql)
    {
        if (int rc = try_exec(sql); rc != SQLITE_OK) fail(rc);
    }

private:
    /// BEGIN IMMEDIATE (the write lock first: no deadlock between two writers); rolled back
    /// unless commit() is reached.
    struct transaction {
        explicit transaction(sqlite_history& h) : h_(h) { h_.exec("BEGIN IMMEDIATE"); }
        ~transaction()
        {
            if (!done_) h_.try_exec("ROLLBACK");
        }
        void commit()
        {
            h_.exec("COMMIT");
            done_ = true;
        }
        sqlite_history& h_;
        bool done_ = false;
    };
    run_summary summary(statement& s);

    std::string path_;
    sqlite3* db_;
    steady::duration timeout_;
    steady::time_point deadline_;
};

statement::statement(sqlite_history& h, const char* sql) : h_(h)
{
    h.arm(); // the first statement reads the schema
    check(sqlite3_prepare_v2(h.db(), sql, -1, &s_, nullptr));
}

void statement::check(int rc)
{
    if (rc != SQLITE_OK) h_.fail(rc);
}

statement& statement::bind(int i, const std::string& v)
{
    check(sqlite3_bind_text(s_, i, v.data(), int(v.size()), SQLITE_TRANSIENT));
    return *this;
}

statement& statement::bind(int i, int64_t v)
{
    check(sqlite3_bind_int64(s_, i, v));
    return *this;
}

statement& statement::bind(int i, std::optional<double> v)
{
    check(v ? sqlite3_bind_double(s_, i, *v) : sqlite3_bind_null(s_, i));
    return *this;
}

bool statement::step()
{
    h_.arm();
    const int rc = sqlite3_step(s_);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) h_.fail(rc);
    return false;
}

void sqlite_history::fail(int rc) const
{
    const int primary = rc & 0xff;
    if (primary == SQLITE_INTERRUPT) throw std::runtime_error(timeout_message(path_));
    // SQLite's message may quote the file's schema: names someone else wrote.
    std::string what = "the history database " + shown(path_, 200) + ": " + shown(sqlite3_errmsg(db_), 400);
    if (primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT)
        what += ": the file is not an SQLite database or is damaged; give --db (or WAVEBENCH_DB) another file, or "
                "move this one away";
    else if (primary == SQLITE_BUSY)
        what += ": another process holds it locked; try again";
    throw std::runtime_error(what);
}

bool sqlite_history::open(open_mode mode)
{
    // The schema version and the number of tables, read in one statement: one snapshot.
    auto state = [&] {
        statement s(*this,
                    "SELECT (SELECT user_version FROM pragma_user_version), (SELECT count(*) FROM sqlite_master)");
        s.step();
        const int64_t version = s.integer(0), tables = s.integer(1);
        if (version > schema_version)
            throw std::runtime_error("the history database " + shown(path_, 200) + " has schema version " +
                                     std::to_string(version) + ", newer than this wavebench knows (" +
                                     std::to_string(schema_version) + "): use a newer wavebench, or another --db");
        if (version == 0 && tables != 0)
            throw std::runtime_error("the history database " + shown(path_, 200) +
                                     " is an SQLite database of something else (it has tables but no wavebench schema "
                                     "version): give --db (or WAVEBENCH_DB) another file");
        return version;
    };
    const int64_t version = state();               // the first read: a file that is no database fails here
    if (version == schema_version) check_schema(); // before any statement touches a table
    if (mode == open_mode::read) return version == schema_version;
    // Another process may be switching the file to WAL at this moment: a lock the busy timeout
    // does not always wait for.
    for (int tries = 0;; ++tries) {
        const int rc = try_exec("PRAGMA journal_mode = WAL");
        if (rc == SQLITE_OK) break;
        if ((rc & 0xff) != SQLITE_BUSY || tries == 200) fail(rc);
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (version == schema_version) return true;
    transaction t(*this);
    if (state() == schema_version) return true; // another process made it meanwhile
    exec(sqlite_schema_sql().c_str());
    exec(("PRAGMA user_version = " + std::to_string(schema_version)).c_str());
    t.commit();
    return true;
}

void sqlite_history::check_schema()
{
    int rc = SQLITE_OK;
    arm();
    const auto foreign = foreign_objects(db_, rc);
    if (rc != SQLITE_OK) fail(rc);
    if (!foreign.empty())
        throw hostile_history(hostile_message(
            path_, foreign, "if you trust the rest of it, remove them (sqlite3 FILE 'DROP TRIGGER NAME' ...)"));
}

int64_t sqlite_history::record(const nlohmann::json& doc)
{
    const run_rows rows = rows_of(doc);
    const run_summary& r = rows.run;
    transaction t(*this);
    check_schema(); // again, under the write lock: what was planted since the store was opened
    statement run(*this,
                  "INSERT INTO runs (suite, suite_file, device, arch, platform, toolchain, tool_version, started, "
                  "recorded, complete, configs, verified, failed, errors, crashed, timeouts, skipped, document) "
                  "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)");
    run.bind_all(r.suite, r.suite_file, r.device, r.arch, r.platform, r.toolchain, r.tool_version, r.started, utc_now(),
                 int64_t(r.complete), r.configs, r.verified, r.failed, r.errors, r.crashed, r.timeouts, r.skipped,
                 rows.document);
    run.step();
    const int64_t id = sqlite3_last_insert_rowid(db_);

    statement row(*this, "INSERT INTO results (run_id, position, family, variant, params, status, time_ms, samples_ms, "
                         "wall_samples_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
    int64_t position = 0;
    for (const auto& x : rows.results) {
        row.bind_all(id, position++, x.family, x.variant, x.params, x.status, x.time_ms, x.samples_ms,
                     x.wall_samples_ms);
        row.step();
        row.reset();
    }
    t.commit();
    return id;
}

run_summary sqlite_history::summary(statement& s)
{
    return summary_of([&](int col) { return s.text(col); });
}

std::vector<run_summary> sqlite_history::list(const run_filter& f)
{
    static const std::string sql = std::string("SELECT ") + summary_columns +
                                   " FROM runs WHERE (?1 = '' OR suite = ?1) AND (?2 = '' OR platform = ?2)"
                                   " AND (?3 = '' OR CASE WHEN ?4 THEN device = ?3"
                                   " ELSE instr(lower(device), lower(?3)) > 0 END)"
                                   " AND (NOT ?5 OR baseline) ORDER BY id DESC LIMIT ?6";
    statement s(*this, sql.c_str());
    s.bind(1, f.suite)
        .bind(2, f.platform)
        .bind(3, f.device)
        .bind(4, int64_t(f.exact_device))
        .bind(5, int64_t(f.baseline_only))
        .bind(6, f.limit ? int64_t(f.limit) : int64_t(-1));
    std::vector<run_summary> runs;
    while (s.step()) runs.push_back(summary(s));
    return runs;
}

std::optional<run_summary> sqlite_history::find(int64_t id)
{
    static const std::string sql = std::string("SELECT ") + summary_columns + " FROM runs WHERE id = ?1";
    statement s(*this, sql.c_str());
    s.bind(1, id);
    if (!s.step()) return std::nullopt;
    return summary(s);
}

nlohmann::json sqlite_history::load(int64_t id)
{
    statement s(*this, "SELECT document FROM runs WHERE id = ?1");
    s.bind(1, id);
    if (!s.step()) throw no_such_run(id, path_);
    return run_document(id, s.text(0), path_);
}

void sqlite_history::mark_baseline(int64_t id, bool mark)
{
    transaction t(*this);
    check_schema();
    const auto run = find(id);
    if (!run) throw no_such_run(id, path_);
    if (mark) {
        statement clear(*this, "UPDATE runs SET baseline = 0 WHERE suite = ?1 AND platform = ?2 AND device = ?3");
        clear.bind(1, run->suite).bind(2, run->platform).bind(3, run->device).step();
    }
    statement set(*this, "UPDATE runs SET baseline = ?2 WHERE id = ?1");
    set.bind(1, id).bind(2, int64_t(mark)).step();
    t.commit();
}

/// `path` as an SQLite URI that opens it read-only and immutable: for a file in a folder this user
/// may not write, where SQLite cannot make the -shm file a WAL database is read through.
std::string immutable_uri(const std::string& path)
{
    std::string uri = "file:";
    for (const unsigned char c : path) {
        if (std::isalnum(c) || std::string_view("-._~/").find(char(c)) != std::string_view::npos) {
            uri += char(c);
        } else {
            static const char digits[] = "0123456789ABCDEF";
            uri += {'%', digits[c >> 4], digits[c & 15]};
        }
    }
    return uri + "?mode=ro&immutable=1";
}

std::unique_ptr<sqlite_history> connect(const std::string& path, const std::string& name, int flags)
{
    const double timeout_s = history_timeout_s(); // a bad WAVEBENCH_DB_TIMEOUT: before anything is opened
    sqlite3* db = nullptr;
    const int rc = sqlite3_open_v2(name.c_str(), &db, flags, nullptr);
    auto h = std::make_unique<sqlite_history>(path, db, timeout_s); // closes db, which SQLite gives even on failure
    if (rc != SQLITE_OK) h->fail(rc);
    sqlite3_extended_result_codes(db, 1);
    sqlite3_busy_timeout(db, 30000);
    return h;
}

} // namespace

std::unique_ptr<history_store> open_sqlite_history(const std::string& path, open_mode mode)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const auto st = fs::status(path, ec);
    if (!fs::exists(st)) {
        if (mode != open_mode::create) return nullptr;
        const fs::path dir = fs::path(path).parent_path();
        if (!dir.empty() && (fs::create_directories(dir, ec), ec))
            throw std::runtime_error("cannot make the folder " + shown(dir.string(), 200) +
                                     " of the history database: " + ec.message());
    } else if (!fs::is_regular_file(st)) {
        throw std::runtime_error("the history database " + shown(path, 200) +
                                 " is not a regular file: give --db (or WAVEBENCH_DB) a file");
    }
    const bool read = mode == open_mode::read;
    auto h = connect(path, path,
                     read ? SQLITE_OPEN_READONLY
                          : SQLITE_OPEN_READWRITE | (mode == open_mode::create ? SQLITE_OPEN_CREATE : 0));
    if (read && h->try_exec("SELECT count(*) FROM sqlite_master") == SQLITE_READONLY_DIRECTORY) {
        // A WAL database in a folder this user may not write: read as it is, unless its -wal holds
        // changes (which immutable would not see).
        if (fs::file_size(path + "-wal", ec) > 0 && !ec)
            throw std::runtime_error(
                "the history database " + shown(path, 200) +
                " cannot be read: its folder cannot be written and its -wal file holds changes; ask its owner to "
                "run sqlite3 FILE 'PRAGMA wal_checkpoint(TRUNCATE)', or copy both files to a folder of yours");
        h = connect(path, immutable_uri(path), SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
    }
    if (!h->open(mode)) return nullptr;
    return h;
}

} // namespace wb
