// An SQLite history's schema against the one wavebench makes: what history/sqlite.cpp checks before
// it reads or writes a file someone may have handed over (a view over an endless query, a trigger
// that rewrites what is recorded).
#pragma once

#include <sqlite3.h>

#include <string>
#include <vector>

namespace wb {

/// The history's schema (history/rows.cpp) in SQLite's types.
std::string sqlite_schema_sql();

/// What `db`'s schema holds that wavebench's does not, each shown bounded and escaped ("trigger t on
/// runs", "view runs", "table results (not as wavebench makes it)", "no index results_by_config"):
/// empty for wavebench's own schema, however it was laid out (and ANALYZE's statistics). `rc` is
/// SQLITE_OK, or the result code of the statement that failed.
std::vector<std::string> foreign_objects(sqlite3* db, int& rc);

} // namespace wb
