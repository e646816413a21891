// An SQLite history's schema against wavebench's (history/sqlite_schema.h): both read from
// sqlite_master, wavebench's from an in-memory database it is made in.
#include "harness/history/sqlite_schema.h"

#include "harness/common/files.h"
#include "harness/history/rows.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <stdexcept>
#include <tuple>

namespace wb {

namespace {

/// An object of the schema as sqlite_master holds it: type, name, table, and its SQL without white
/// space, in lower case (what wavebench wrote, however it was laid out).
using schema_object = std::tuple<std::string, std::string, std::string, std::string>;

std::string normalized(std::string sql)
{
    std::string out;
    for (const char c : sql)
        if (!std::isspace(static_cast<unsigned char>(c))) out += char(std::tolower(static_cast<unsigned char>(c)));
    // The first schema wrote the baseline's default as 0.
    if (const size_t p = out.find("baselineintegernotnulldefault0,"); p != std::string::npos)
        out.replace(p, std::string("baselineintegernotnulldefault0").size(), "baselineintegernotnulldefaultfalse");
    return out;
}

/// The objects of `db`'s schema, or the result code of the statement that failed.
int read_schema(sqlite3* db, std::set<schema_object>& out)
{
    sqlite3_stmt* s = nullptr;
    int rc = sqlite3_prepare_v2(db, "SELECT type, name, tbl_name, sql FROM sqlite_master", -1, &s, nullptr);
    auto text = [&](int col) {
        const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(s, col));
        return p ? std::string(p, size_t(sqlite3_column_bytes(s, col))) : std::string();
    };
    while (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        out.emplace(text(0), text(1), text(2), normalized(text(3)));
        rc = SQLITE_OK;
    }
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/// The schema wavebench makes (history_schema in an in-memory database).
const std::set<schema_object>& wavebench_schema()
{
    static const std::set<schema_object> objects = [] {
        sqlite3* db = nullptr;
        std::set<schema_object> out;
        if (sqlite3_open(":memory:", &db) != SQLITE_OK ||
            sqlite3_exec(db, sqlite_schema_sql().c_str(), nullptr, nullptr, nullptr) != SQLITE_OK ||
            read_schema(db, out) != SQLITE_OK)
            throw std::logic_error("the history's schema: " + std::string(db ? sqlite3_errmsg(db) : "no memory"));
        sqlite3_close(db);
        return out;
    }();
    return objects;
}

} // namespace

std::string sqlite_schema_sql()
{
    return history_schema({"INTEGER PRIMARY KEY AUTOINCREMENT", "INTEGER", "INTEGER", "REAL"});
}

std::vector<std::string> foreign_objects(sqlite3* db, int& rc)
{
    std::set<schema_object> found;
    rc = read_schema(db, found);
    if (rc != SQLITE_OK) return {};
    const auto& ours = wavebench_schema();
    auto named = [](const std::set<schema_object>& in, const schema_object& o) {
        return std::any_of(in.begin(), in.end(), [&](const schema_object& x) {
            return std::get<0>(x) == std::get<0>(o) && std::get<1>(x) == std::get<1>(o);
        });
    };
    std::vector<std::string> foreign;
    for (const auto& o : found) {
        const auto& [type, name, table, sql] = o;
        if (ours.count(o) || (type == "table" && (name == "sqlite_stat1" || name == "sqlite_stat4"))) continue;
        const std::string where = named(ours, o)  ? " (not as wavebench makes it)"
                                  : table != name ? " on " + shown(table, 64)
                                                  : "";
        foreign.push_back(shown(type, 16) + " " + shown(name, 64) + where);
    }
    for (const auto& o : ours)
        if (!named(found, o)) foreign.push_back("no " + std::get<0>(o) + " " + std::get<1>(o));
    return foreign;
}

} // namespace wb
