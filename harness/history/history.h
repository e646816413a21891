// The run history: every `wavebench run` recorded in an SQLite or PostgreSQL database (docs/history.md),
// where it lives, and the runs that `compare` and `report` take from it by
// id or by name (latest, previous, baseline) in place of results files.
#pragma once

#include "harness/report/results_reader.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace wb {

class history_store;

/// Each argument, in order: an existing file is a results file (parsed as JSON, checked to be an
/// object with a "results" array, "suite", "device" and "platform"; errors name the file);
/// otherwise a history reference: a run id (digits), `latest` (the newest run overall),
/// `previous` (the run before the newest run of the same suite, platform and device as the other
/// argument(s) resolved so far, or as `latest`), `baseline` (the marked baseline of the same
/// suite, platform and device as the other argument). Concrete ones (files, ids, latest) are
/// resolved first, then relative ones against them. `db_option` is --db ("" = WAVEBENCH_DB or
/// the default). Throws std::invalid_argument with a message that says what to do for anything
/// that cannot be resolved; a name that is neither an existing file nor a history reference says
/// both.
std::vector<run_input> load_run_inputs(const std::vector<std::string>& args, const std::string& db_option);

/// The runs of the history of one suite, platform and device, oldest first (for trends in the
/// report), at most `limit` (the newest `limit` of them; 0: all). None where there is no history yet.
std::vector<run_input> history_runs(const std::string& db_option, const std::string& suite, const std::string& platform,
                                    const std::string& device, size_t limit);

/// Records the results document `doc` of a run in the history named by `db_option` (see
/// history_path). Never throws: a failure is a warning on stderr that says the results are still in
/// `results_file`. Returns the id of the new run, if it was recorded.
std::optional<int64_t> record_run(const std::string& db_option, const nlohmann::json& doc,
                                  const std::string& results_file);

/// Where the history is: `db_option` (--db), else $WAVEBENCH_DB, else
/// $XDG_DATA_HOME/wavebench/history.db, else $HOME/.local/share/wavebench/history.db: a file or a
/// PostgreSQL URL (with its password: never print it, history_shown is for messages). Throws
/// std::invalid_argument when no location is known.
std::string history_path(const std::string& db_option);

/// history_path for messages: the password of a URL redacted, printable and bounded.
std::string history_shown(const std::string& db_option);

/// The history's store (SQLite or PostgreSQL by history_path); with `create` false, nullptr where
/// it does not exist yet.
std::unique_ptr<history_store> open_history(const std::string& db_option, bool create);

} // namespace wb
