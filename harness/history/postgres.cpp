// The run history in a PostgreSQL database, through libpq: a module of its own
// (lib/libwavebench_history_postgres.so) that the harness loads only for a postgresql:// --db, so
// that the wavebench binary runs where there is no libpq. The schema is the SQLite store's
// (docs/history.md), made under an advisory lock so that processes starting at once do not race;
// every statement takes its values as bound parameters, never as SQL text; every message has the
// URL's password redacted (libpq's may echo the connection string). A history's database may be
// someone else's: triggers, rules, row security or another kind of relation on wavebench's tables
// are refused before use, and every statement has a deadline (statement_timeout).
#include "harness/common/files.h"
#include "harness/history/db_url.h"
#include "harness/history/rows.h"
#include "harness/history/store.h"

#include <libpq-fe.h>

#include <charconv>
#include <memory>
#include <stdexcept>

namespace wb {

namespace {

/// The key of the advisory lock that makes schema creation and baseline marking one at a time.
constexpr const char* lock = "SELECT pg_advisory_xact_lock(7795806338127512064)";

/// The schema (history/rows.cpp) in PostgreSQL's types, and its version's table.
constexpr sql_types types{"BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY", "BIGINT", "BOOLEAN", "DOUBLE PRECISION"};
constexpr const char* version_table = "CREATE TABLE IF NOT EXISTS wavebench_schema (version INTEGER NOT NULL)";

/// A parameter: text, or NULL.
using param = std::optional<std::string>;

std::string number(int64_t v) { return std::to_string(v); }

param number(std::optional<double> v)
{
    if (!v) return std::nullopt;
    char buf[32];
    return std::string(buf, std::to_chars(buf, buf + sizeof buf, *v).ptr); // shortest that reads back the same
}

std::string boolean(bool v) { return v ? "t" : "f"; }

using result = std::unique_ptr<PGresult, decltype(&PQclear)>;

class postgres_history final : public history_store {
public:
    explicit postgres_history(const std::string& url)
        : url_(url), where_(redact_argument(url)), conn_(nullptr, &PQfinish)
    {
        // connect_timeout first: the URL's own, where it has one, wins.
        const char* keys[] = {"connect_timeout", "fallback_application_name", "dbname", nullptr};
        const char* values[] = {"15", "wavebench", url.c_str(), nullptr};
        conn_.reset(PQconnectdbParams(keys, values, 1));
        if (!conn_) throw std::runtime_error("the history database " + where_ + ": out of memory");
        if (PQstatus(conn_.get()) != CONNECTION_OK)
            fail("cannot connect (check the URL, that the server runs, and the password: PGPASSWORD or ~/.pgpass)");
        // The server's notices (NOTICE, WARNING) are not the user's business: libpq would print them.
        PQsetNoticeProcessor(
            conn_.get(), [](void*, const char*) {}, nullptr);
        // Every statement bounded in time, whatever the server or the role would have it.
        exec("SELECT set_config('statement_timeout', $1, false)",
             {std::to_string(int64_t(history_timeout_s() * 1000 + 0.5)) + "ms"});
    }

    const std::string& where() const override { return where_; }
    int64_t record(const nlohmann::json& doc) override;
    std::vector<run_summary> list(const run_filter& f) override;
    std::optional<run_summary> find(int64_t id) override;
    nlohmann::json load(int64_t id) override;
    void mark_baseline(int64_t id, bool mark) override;

    /// Makes the schema where `mode` is create and it is missing; false: no schema (and none made).
    bool open(open_mode mode);
    /// Throws hostile_history where wavebench's tables have triggers, rules, row security,
    /// inheritors, or are no plain tables.
    void check_schema();

private:
    /// Throws the connection's last error, `what` first, with the password redacted.
    [[noreturn]] void fail(const std::string& what, const PGresult* r = nullptr) const
    {
        const char* state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
        if (state && std::string_view(state) == "57014") throw std::runtime_error(timeout_message(where_));
        std::string why = r ? PQresultErrorMessage(r) : PQerrorMessage(conn_.get());
        while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
        // The server's message may hold what a trigger or a hostile server wrote: shown escaped.
        throw std::runtime_error("the history database " + where_ + ": " + what + ": " +
                                 shown(redacted(why, url_), 1000));
    }

    /// `sql` with `params` bound ($1, $2, ...); throws unless it succeeded.
    result exec(const char* sql, const std::vector<param>& params = {})
    {
        std::vector<const char*> values;
        for (const auto& p : params) values.push_back(p ? p->c_str() : nullptr);
        result r(PQexecParams(conn_.get(), sql, int(values.size()), nullptr, values.data(), nullptr, nullptr, 0),
                 &PQclear);
        const auto status = r ? PQresultStatus(r.get()) : PGRES_FATAL_ERROR;
        if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) fail("a statement failed", r.get());
        return r;
    }

    /// A transaction: rolled back unless commit() is reached.
    struct transaction {
        explicit transaction(postgres_history& h) : h_(h) { h_.exec("BEGIN"); }
        ~transaction()
        {
            if (!done_) PQclear(PQexec(h_.conn_.get(), "ROLLBACK"));
        }
        void commit()
        {
            h_.exec("COMMIT");
            done_ = true;
        }
        postgres_history& h_;
        bool done_ = false;
    };

    static std::vector<run_summary> summaries(const result& r)
    {
        std::vector<run_summary> runs;
        for (int row = 0; row < PQntuples(r.get()); ++row)
            runs.push_back(summary_of([&](int col) { return std::string(PQgetvalue(r.get(), row, col)); }));
        return runs;
    }

    std::string url_, where_;
    std::unique_ptr<PGconn, decltype(&PQfinish)> conn_;
};

bool postgres_history::open(open_mode mode)
{
    if (mode == open_mode::read) exec("SELECT set_config('default_transaction_read_only', 'on', false)");
    transaction t(*this);
    exec(lock); // one process makes the schema; the others wait and find it made
    const result tables = exec("SELECT to_regclass('wavebench_schema') IS NOT NULL, to_regclass('runs') IS NOT NULL");
    const bool ours = PQgetvalue(tables.get(), 0, 0)[0] == 't', runs = PQgetvalue(tables.get(), 0, 1)[0] == 't';
    if (ours) {
        const result v = exec("SELECT coalesce(max(version), 0) FROM wavebench_schema");
        if (const int64_t version = std::stoll(PQgetvalue(v.get(), 0, 0)); version > schema_version)
            throw std::runtime_error("the history database " + where_ + " has schema version " +
                                     std::to_string(version) + ", newer than this wavebench knows (" +
                                     std::to_string(schema_version) + "): use a newer wavebench, or another --db");
        check_schema();
        return true;
    }
    if (runs)
        throw std::runtime_error("the history database " + where_ +
                                 " has a table runs of something else (no wavebench_schema table): give --db (or "
                                 "WAVEBENCH_DB) another database");
    if (mode != open_mode::create) return false;
    const std::string schema = version_table + std::string(";") + history_schema(types);
    result made(PQexec(conn_.get(), schema.c_str()), &PQclear); // no values: constant SQL, several statements
    if (!made || PQresultStatus(made.get()) != PGRES_COMMAND_OK) fail("cannot make the schema", made.get());
    exec("INSERT INTO wavebench_schema (version) VALUES ($1)", {number(schema_version)});
    t.commit();
    return true;
}

void postgres_history::check_schema()
{
    // What may run code or change rows on wavebench's tables: (what, its name, its table).
    static const char* sql = R"sql(
WITH ours(oid) AS (SELECT unnest(ARRAY[to_regclass('runs'), to_regclass('results'), to_regclass('wavebench_schema')]))
SELECT 'trigger', t.tgname::text, c.relname::text FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
  WHERE NOT t.tgisinternal AND t.tgrelid IN (SELECT oid FROM ours)
UNION ALL SELECT 'rule', r.rulename::text, c.relname::text FROM pg_rewrite r JOIN pg_class c ON c.oid = r.ev_class
  WHERE r.ev_class IN (SELECT oid FROM ours) AND r.rulename <> '_RETURN'
UNION ALL SELECT 'policy', p.polname::text, c.relname::text FROM pg_policy p JOIN pg_class c ON c.oid = p.polrelid
  WHERE p.polrelid IN (SELECT oid FROM ours)
UNION ALL SELECT 'row security', '', c.relname::text FROM pg_class c
  WHERE c.oid IN (SELECT oid FROM ours) AND c.relrowsecurity
UNION ALL SELECT CASE c.relkind WHEN 'v' THEN 'view' WHEN 'm' THEN 'materialized view' WHEN 'f' THEN 'foreign table'
  WHEN 'p' THEN 'partitioned table' ELSE 'relation of kind ' || c.relkind::text END, c.relname::text, '' FROM pg_class c
  WHERE c.oid IN (SELECT oid FROM ours) AND c.relkind <> 'r'
UNION ALL SELECT 'inheritor', c.relname::text, p.relname::text FROM pg_inherits i
  JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
  WHERE i.inhparent IN (SELECT oid FROM ours) OR i.inhrelid IN (SELECT oid FROM ours))sql";
    const result r = exec(sql);
    std::vector<std::string> found;
    for (int row = 0; row < PQntuples(r.get()); ++row) {
        std::string what = PQgetvalue(r.get(), row, 0);
        if (const std::string name = PQgetvalue(r.get(), row, 1); !name.empty())
            what.append(" ").append(shown(name, 64));
        if (const std::string table = PQgetvalue(r.get(), row, 2); !table.empty())
            what.append(" on ").append(shown(table, 64));
        found.push_back(std::move(what));
    }
    if (!found.empty())
        throw hostile_history(hostile_message(
            where_, found, "if you trust the rest of it, remove them (DROP TRIGGER NAME ON TABLE, DROP RULE ...)"));
}

int64_t postgres_history::record(const nlohmann::json& doc)
{
    const run_rows rows = rows_of(doc);
    const run_summary& r = rows.run;
    transaction t(*this);
    check_schema(); // again: what was made since the store was opened
    // recorded: the server's clock, one for every machine that records into it.
    const result run = exec(
        "INSERT INTO runs (suite, suite_file, device, arch, platform, toolchain, tool_version, started, recorded, "
        "complete, configs, verified, failed, errors, crashed, timeouts, skipped, document) VALUES ($1, $2, $3, $4, "
        "$5, $6, $7, $8, to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), $9, $10, $11, $12, "
        "$13, $14, $15, $16, $17) RETURNING id",
        {r.suite, r.suite_file, r.device, r.arch, r.platform, r.toolchain, r.tool_version, r.started,
         boolean(r.complete), number(r.configs), number(r.verified), number(r.failed), number(r.errors),
         number(r.crashed), number(r.timeouts), number(r.skipped), rows.document});
    const std::string id = PQgetvalue(run.get(), 0, 0);
    int64_t position = 0;
    for (const auto& x : rows.results)
        exec("INSERT INTO results (run_id, position, family, variant, params, status, time_ms, samples_ms, "
             "wall_samples_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
             {id, number(position++), x.family, x.variant, x.params, x.status, number(x.time_ms), x.samples_ms,
              x.wall_samples_ms});
    t.commit();
    return std::stoll(id);
}

std::vector<run_summary> postgres_history::list(const run_filter& f)
{
    static const std::string sql = std::string("SELECT ") + summary_columns +
                                   " FROM runs WHERE ($1 = '' OR suite = $1) AND ($2 = '' OR platform = $2)"
                                   " AND ($3 = '' OR CASE WHEN $4::boolean THEN device = $3"
                                   " ELSE strpos(lower(device), lower($3)) > 0 END)"
                                   " AND (NOT $5::boolean OR baseline) ORDER BY id DESC LIMIT $6::bigint";
    return summaries(
        exec(sql.c_str(), {f.suite, f.platform, f.device, boolean(f.exact_device), boolean(f.baseline_only),
                           f.limit ? param(number(int64_t(f.limit))) : std::nullopt}));
}

std::optional<run_summary> postgres_history::find(int64_t id)
{
    static const std::string sql = std::string("SELECT ") + summary_columns + " FROM runs WHERE id = $1";
    auto runs = summaries(exec(sql.c_str(), {number(id)}));
    if (runs.empty()) return std::nullopt;
    return runs.front();
}

nlohmann::json postgres_history::load(int64_t id)
{
    const result r = exec("SELECT document FROM runs WHERE id = $1", {number(id)});
    if (PQntuples(r.get()) == 0) throw no_such_run(id, where_);
    return run_document(id, PQgetvalue(r.get(), 0, 0), where_);
}

void postgres_history::mark_baseline(int64_t id, bool mark)
{
    transaction t(*this);
    exec(lock); // two marks at once: the second sees the first's baseline, and clears it
    const auto run = find(id);
    if (!run) throw no_such_run(id, where_);
    if (mark)
        exec("UPDATE runs SET baseline = false WHERE suite = $1 AND platform = $2 AND device = $3 AND baseline",
             {run->suite, run->platform, run->device});
    exec("UPDATE runs SET baseline = $2 WHERE id = $1", {number(id), boolean(mark)});
    t.commit();
}

} // namespace

} // namespace wb

/// WB_HISTORY_POSTGRES_ENTRY (history/store.h).
extern "C" __attribute__((visibility("default"))) wb::history_store*
wavebench_open_postgres_history(const std::string& url, wb::open_mode mode)
{
    auto h = std::make_unique<wb::postgres_history>(url);
    return h->open(mode) ? h.release() : nullptr;
}
