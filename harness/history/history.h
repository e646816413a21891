// The run history: every `wavebench run` recorded in an SQLite or PostgreSQL database (docs/history.md),
// where it lives, and the runs that `compare` and `report` take from it by
// id or by name (latest, previous, baseline) in place of results files.
#pragma once

#include "harness/report/results_reader.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace wb {

class history_store;
enum class open_mode;

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

/// Gives `visit` the runs of the history of one suite, platform and device one at a time, oldest
/// first (for trends in the report: only one run's document is held at a time), at most `limit` (the
/// newest `limit` of them; 0: all); returns how many. None where there is no history yet. Each
/// document is checked as results_input checks it.
size_t for_each_history_run(const std::string& db_option, const std::string& suite, const std::string& platform,
                            const std::string& device, size_t limit, const std::function<void(run_input)>& visit);

/// Records the results document `doc` of a run in the history named by `db_option` (see
/// history_path). Never throws: a failure is a warning on stderr that says the results are still in
/// `results_file`. Returns the id of the new run, if it was recorded.
std::optional<int64_t> record_run(const std::string& db_option, const nlohmann::json& doc,
                                  const std::string& results_file);

/// Where the history is: `db_option` (--db), else $WAVEBENCH_DB, else
/// $XDG_DATA_HOME/wavebench/history.db, else $HOME/.local/share/wavebench/history.db: a file or a
/// PostgreSQL URL (with its password: never print it, history_shown is for messages). Throws
/// std::invalid_argument when no location is known, or for one that looks like a connection string
/// but is no postgresql:// URL (refused_history: it would be taken for a file's name).
std::string history_path(const std::string& db_option);

/// history_path for messages: the password of a URL redacted, printable and bounded.
std::string history_shown(const std::string& db_option);

/// The history's store (SQLite or PostgreSQL by history_path), opened as `mode` says
/// (history/store.h); nullptr where it does not exist yet (but with open_mode::create).
std::unique_ptr<history_store> open_history(const std::string& db_option, open_mode mode);

/// For the commands that record (run, merge), before they start: throws where the history named by
/// `db_option` is refused (history_path) or holds what wavebench did not put there
/// (hostile_history); anything else it may give (no server, a damaged file) waits for the end, where
/// record_run warns and the results are kept.
void check_history(const std::string& db_option);

} // namespace wb
