// What every command's options share: the validators of numbers and paths (strict, with a message
// that says what was expected), and the way a command registers itself with the command line.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
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
/// command line is parsed; main.cpp turns what it throws into the exit status.
struct command_entry {
    CLI::App* sub = nullptr;
    std::function<int()> body;
};
using command_list = std::vector<command_entry>;

/// Registers `wavebench merge` (commands/merge_command.cpp).
void add_merge_command(CLI::App& app, command_list& commands);
/// Registers `wavebench compare` (commands/compare_command.cpp).
void add_compare_command(CLI::App& app, command_list& commands);
/// Registers `wavebench report` (commands/report_command.cpp).
void add_report_command(CLI::App& app, command_list& commands);
/// Registers `wavebench history` (commands/history_command.cpp).
void add_history_command(CLI::App& app, command_list& commands);

} // namespace wb
