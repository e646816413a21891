// Suites: TOML files describing what to run. Every list is an axis; a benchmark runs the
// cartesian product of its axes. Errors name the file, line and column.
#pragma once

#include "core/family.h"
#include "harness/plan/settings.h"

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace wb {

struct source_pos {
    std::string file;
    int line = 0;
    int column = 0;
};

/// "file:line:column"
std::string to_string(const source_pos& p);

/// A bad suite: what() is "file:line:column: <message>".
struct suite_error : std::runtime_error {
    suite_error(const source_pos& p, const std::string& msg)
        : std::runtime_error(p.file.empty() ? msg : to_string(p) + ": " + msg), pos(p)
    {
    }
    source_pos pos;
};

struct axis_value {
    value v;
    source_pos pos;
};

struct axis {
    std::string name;
    std::vector<axis_value> values;
    source_pos pos; // of the key
};

struct benchmark_spec {
    const family* fam = nullptr;
    std::vector<std::string> variants; // globs
    std::vector<source_pos> variant_pos;
    std::vector<axis> family_axes;  // family parameters (each one present: defaults filled)
    std::vector<axis> tunable_axes; // every other key: checked against the plugins when planning
    source_pos pos;
};

struct suite {
    std::string name;
    std::string description;
    std::filesystem::path file;
    run_settings settings; // the [suite] table's values, the defaults for the keys it leaves out
    std::vector<benchmark_spec> benchmarks;
};

suite parse_suite_file(const std::filesystem::path& file);
/// Parses TOML text; `file` names it in messages.
suite parse_suite(std::string_view text, const std::string& file);

} // namespace wb
