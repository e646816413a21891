// history/sqlite as a store of a file someone may hand over: a store opened for reading writes
// nothing (its writes fail, as root too; the journal mode and the bytes are as they were), a
// schema with anything wavebench did not make is refused naming it (also when planted after the
// store was opened, before a run is recorded), wavebench's own schema however laid out is not, a
// document nested too deep is refused, and a statement past its deadline is stopped.
#include <boost/test/unit_test.hpp>

#include "harness/history/store.h"

#include <sqlite3.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <unistd.h>

BOOST_AUTO_TEST_SUITE(history_store_test)

namespace fs = std::filesystem;
using nlohmann::json;
using wb::open_mode;
using wb::open_sqlite_history;

namespace {

struct temp_dir {
    fs::path path = fs::temp_directory_path() / ("wavebench-store-" + std::to_string(getpid()));
    temp_dir() { fs::create_directories(path); }
    ~temp_dir() { fs::remove_all(path); }
};

/// Runs `sql` on `db` through a connection of its own; the first column of the first row.
std::string sql(const fs::path& db, const std::string& sql)
{
    sqlite3* h = nullptr;
    sqlite3_open(db.c_str(), &h);
    std::string first;
    char* err = nullptr;
    const int rc = sqlite3_exec(
        h, sql.c_str(),
        [](void* out, int, char** v, char**) {
            auto& s = *static_cast<std::string*>(out);
            if (s.empty() && v[0]) s = v[0];
            return 0;
        },
        &first, &err);
    const std::string why = err ? err : "";
    sqlite3_free(err);
    sqlite3_close(h);
    BOOST_REQUIRE_MESSAGE(rc == SQLITE_OK, sql + ": " + why);
    return first;
}

std::string bytes(const fs::path& p)
{
    std::ifstream f(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), {}};
}

json doc(const std::string& suite)
{
    return {{"suite", {{"name", suite}, {"file", "s.toml"}}},
            {"device", {{"name", "cpu"}, {"arch", "x86_64"}}},
            {"platform", "cpu"},
            {"complete", true},
            {"results", json::array({{{"family", "reduce"},
                                      {"variant", "tree"},
                                      {"params", {{"n", 1000}}},
                                      {"status", "verified"},
                                      {"time_ms", 1.5},
                                      {"samples_ms", {1.5, 1.6}}}})}};
}

/// A history of one run, made by the store.
fs::path history(const temp_dir& d, const std::string& name)
{
    const fs::path db = d.path / name;
    BOOST_TEST(open_sqlite_history(db, open_mode::create)->record(doc("a")) == 1);
    return db;
}

/// The message of the hostile_history that opening `db` gives, "" where it gives none.
std::string refusal(const fs::path& db, open_mode mode = open_mode::read)
{
    try {
        open_sqlite_history(db, mode);
    } catch (const wb::hostile_history& e) {
        return e.what();
    }
    return "";
}

} // namespace

BOOST_AUTO_TEST_CASE(a_store_opened_for_reading_writes_nothing)
{
    temp_dir d;
    const fs::path db = history(d, "h.db");
    sql(db, "PRAGMA journal_mode = DELETE");
    const std::string before = bytes(db);
    {
        auto store = open_sqlite_history(db, open_mode::read);
        BOOST_TEST(store->list({}).size() == 1U);
        BOOST_TEST(store->load(1)["suite"]["name"] == "a");
        // Opened read-only: SQLite refuses its writes whoever runs it (root included).
        BOOST_CHECK_THROW(store->record(doc("b")), std::runtime_error);
        BOOST_CHECK_THROW(store->mark_baseline(1, true), std::runtime_error);
    }
    BOOST_TEST(sql(db, "PRAGMA journal_mode") == "delete"); // no WAL switched on
    BOOST_TEST(bytes(db) == before);
    BOOST_TEST(sql(db, "SELECT count(*) FROM runs") == "1");
    // An empty file is no history, and reading makes none in it.
    std::ofstream(d.path / "empty.db").close();
    BOOST_TEST(!open_sqlite_history(d.path / "empty.db", open_mode::read));
    BOOST_TEST(fs::file_size(d.path / "empty.db") == 0U);
    BOOST_TEST(!open_sqlite_history(d.path / "missing.db", open_mode::read));
    BOOST_TEST(!fs::exists(d.path / "missing.db"));
}

BOOST_AUTO_TEST_CASE(what_wavebench_did_not_make_is_refused_naming_it)
{
    temp_dir d;
    const std::vector<std::pair<std::string, std::string>> planted = {
        {"CREATE VIEW v AS SELECT 1", "view v"},
        {"CREATE TRIGGER t AFTER INSERT ON runs BEGIN UPDATE runs SET document = NEW.document; END",
         "trigger t on runs"},
        {"CREATE TABLE extra (a)", "table extra"},
        {"CREATE INDEX runs_by_suite ON runs (suite)", "index runs_by_suite on runs"},
        {"DROP INDEX results_by_config", "no index results_by_config"},
        {"ALTER TABLE runs ADD COLUMN x AS (1)", "table runs (not as wavebench makes it)"},
        {"ALTER TABLE runs RENAME TO old; CREATE VIEW runs AS SELECT * FROM old", "view runs"},
        {"CREATE TRIGGER \"\x1b[2J\" AFTER INSERT ON results BEGIN SELECT 1; END", "trigger \\x1b[2J on results"}};
    int n = 0;
    for (const auto& [plant, named] : planted) {
        const fs::path db = history(d, "h" + std::to_string(++n) + ".db");
        sql(db, plant);
        for (const open_mode mode : {open_mode::read, open_mode::write, open_mode::create}) {
            const std::string why = refusal(db, mode);
            BOOST_TEST(why.find(named) != std::string::npos, plant << ": " << why);
            BOOST_TEST(why.find(db.string()) != std::string::npos, why);
        }
    }
}

BOOST_AUTO_TEST_CASE(wavebench_schema_however_laid_out_is_taken)
{
    temp_dir d;
    const fs::path db = history(d, "h.db");
    sql(db, "ANALYZE"); // statistics of SQLite's own
    BOOST_TEST(refusal(db).empty());
    // The first schema's text: another layout, the baseline's default written 0.
    const fs::path old = d.path / "old.db";
    std::string schema = sql(db, "SELECT group_concat(sql, ';') FROM sqlite_master WHERE sql IS NOT NULL AND name NOT "
                                 "LIKE 'sqlite_%'");
    schema.replace(schema.find("DEFAULT false"), 13, "DEFAULT 0");
    for (size_t p = 0; (p = schema.find(",\n", p)) != std::string::npos;) schema.replace(p, 2, " ,  ");
    sql(old, schema + "; PRAGMA user_version = 1");
    BOOST_TEST(refusal(old).empty());
    BOOST_TEST(open_sqlite_history(old, open_mode::create)->record(doc("b")) == 1);
}

BOOST_AUTO_TEST_CASE(a_trigger_planted_after_the_store_was_opened_is_refused_when_recording)
{
    temp_dir d;
    const fs::path db = history(d, "h.db");
    auto store = open_sqlite_history(db, open_mode::create);
    sql(db, "CREATE TRIGGER t AFTER INSERT ON runs BEGIN UPDATE runs SET document = NEW.document; END");
    BOOST_CHECK_THROW(store->record(doc("b")), wb::hostile_history);
    BOOST_CHECK_THROW(store->mark_baseline(1, true), wb::hostile_history);
    store.reset();
    BOOST_TEST(sql(db, "SELECT count(*) FROM runs") == "1");
    BOOST_TEST(sql(db, "SELECT count(*) FROM runs WHERE baseline") == "0");
}

BOOST_AUTO_TEST_CASE(a_document_nested_too_deep_is_refused)
{
    temp_dir d;
    const fs::path db = history(d, "h.db");
    sql(db, "UPDATE runs SET document = printf('%.*c', 100000, '[') || printf('%.*c', 100000, ']')");
    auto store = open_sqlite_history(db, open_mode::read);
    try {
        store->load(1);
        BOOST_FAIL("a document nested 100000 levels was read");
    } catch (const std::invalid_argument& e) {
        BOOST_TEST(std::string(e.what()).find("nested deeper than 256") != std::string::npos, e.what());
        BOOST_TEST(std::string(e.what()).find("run 1 of the history") != std::string::npos, e.what());
    }
}

BOOST_AUTO_TEST_CASE(a_statement_past_its_deadline_is_stopped)
{
    temp_dir d;
    const fs::path db = history(d, "h.db");
    // Enough runs that looking for a device among them takes a while.
    sql(db, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200000) "
            "INSERT INTO runs (suite, suite_file, device, arch, platform, toolchain, tool_version, started, recorded, "
            "complete, configs, verified, failed, errors, crashed, timeouts, skipped, document) SELECT suite, "
            "suite_file, device || x, arch, platform, toolchain, tool_version, started, recorded, complete, configs, "
            "verified, failed, errors, crashed, timeouts, skipped, '{}' FROM runs, c");
    wb::run_filter f;
    f.device = "no such device";
    f.limit = 0;
    BOOST_TEST(open_sqlite_history(db, open_mode::read)->list(f).empty());
    setenv("WAVEBENCH_DB_TIMEOUT", "0.001", 1);
    try {
        open_sqlite_history(db, open_mode::read)->list(f);
        BOOST_FAIL("a statement ran past its deadline");
    } catch (const std::runtime_error& e) {
        BOOST_TEST(std::string(e.what()).find("ran longer than 0.001 s") != std::string::npos, e.what());
        BOOST_TEST(std::string(e.what()).find(db.string()) != std::string::npos, e.what());
    }
    setenv("WAVEBENCH_DB_TIMEOUT", "soon", 1);
    BOOST_CHECK_THROW(open_sqlite_history(db, open_mode::read), std::invalid_argument);
    unsetenv("WAVEBENCH_DB_TIMEOUT");
}

BOOST_AUTO_TEST_SUITE_END()
