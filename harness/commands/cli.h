// What every command's options share: the validators of numbers and paths (strict, with a message
// that says what was expected), and the one way a command registers itself with the command line.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace wb {

/// An integer from lo to hi, written in decimal with nothing after it.
CLI::Validator integer(long long lo, long long hi);
/// A finite decimal number from lo to hi.
CLI::Validator real(double lo, double hi);
/// One of these integers.
CLI::Validator one_of(std::vector<long long> allowed);
/// A non-empty path.
extern const CLI::Validator a_path;

/// A command that registers itself (its subcommand, options and help) and what runs it once the
/// command line is parsed; main.cpp turns what it throws into the exit status. Each command is
/// one file, commands/<name>_command.cpp, with an add_<name>_command that registers it.
struct command_entry {
    CLI::App* sub = nullptr;
    std::function<int()> body;
};
using command_list = std::vector<command_entry>;

/// The command line as given, every password in it redacted (redact_command_line: each argument
/// judged as a whole): what a run records in its results and the history. main.cpp sets it before a
/// command runs.
const std::string& command_line();
void set_command_line(int argc, char** argv);

/// Register `wavebench list`, `run`, `probe`, `inspect`, `merge` and the hidden `worker`
/// (commands/<name>_command.cpp); compare, history and report are registered likewise.
void add_list_command(CLI::App& app, command_list& commands);
void add_run_command(CLI::App& app, command_list& commands);
void add_probe_command(CLI::App& app, command_list& commands);
void add_inspect_command(CLI::App& app, command_list& commands);
void add_merge_command(CLI::App& app, command_list& commands);
void add_worker_command(CLI::App& app, command_list& commands);
/// Registers `wavebench compare` (commands/compare_command.cpp).
void add_compare_command(CLI::App& app, command_list& commands);
/// Registers `wavebench report` (commands/report_command.cpp).
void add_report_command(CLI::App& app, command_list& commands);
/// Registers `wavebench history` (commands/history_command.cpp).
void add_history_command(CLI::App& app, command_list& commands);
/// Registers `wavebench tune` (commands/tune_command.cpp).
void add_tune_command(CLI::App& app, command_list& commands);
/// Registers `wavebench calibrate` (commands/calibrate_command.cpp).
void add_calibrate_command(CLI::App& app, command_list& commands);

/// --db's check: a non-empty path or URL, no connection string that is no postgresql:// URL
/// (refused_history).
extern const CLI::Validator history_db;

/// Adds --db to a command: `what` the database is for ("record the run in", "run ids and names
/// from"), the default said once here.
void add_db_option(CLI::App* cmd, std::string& db, const std::string& what);

} // namespace wb
