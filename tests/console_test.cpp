// The console table: every shipped suite's table fits 120 columns with the widest figures a result
// can have, parameters that vary are columns and the others are said once above the table.
#include <boost/test/unit_test.hpp>

#include "cpu_run.h"
#include "harness/report/console.h"

#include <algorithm>
#include <filesystem>
#include <sstream>

BOOST_AUTO_TEST_SUITE(console_test)

namespace {

/// Characters on the screen, as a terminal counts them ("±" is one).
size_t width_of(const std::string& s)
{
    return size_t(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

std::vector<std::string> lines_of(const std::string& text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
}

/// A result of `c` with the widest figures there can be: four digits of milliseconds, a relative
/// stddev of 9999%, 999999 of the metric, 9999% of the ceiling, speedups of 9999x, registers of two
/// kernels, a full SM, and noisy; or, with `failed`, a timeout with a long message.
wb::result widest(const wb::config& c, bool failed)
{
    wb::result r;
    r.family = c.plug->fam->name;
    r.variant = c.plug->variant;
    r.family_params = c.family_params;
    r.tunables = c.tunables;
    if (failed) {
        r.st = wb::status::timeout;
        r.message = std::string(300, 'x');
        return r;
    }
    r.st = wb::status::verified;
    r.time_ms = {999.9, 999.9, 999.9, 999.9, 99.99, 3};
    r.wall_ms = r.time_ms;
    r.metric_value = 999999;
    r.fraction_of_ceiling = 99.99;
    r.speedup_vs_baseline = r.speedup_vs_library = r.model_speedup = r.model_issue_speedup = 9999;
    wb::kernel_report k;
    k.resources.registers = 255;
    k.occ = wb::occupancy{64, 64, "warps per SM", 2, "warps"};
    r.kernels = {k, k};
    r.noisy = true;
    return r;
}

/// Every family's ceiling, so that every table has its %ceil column.
wb::ceilings every_ceiling()
{
    wb::ceilings c;
    for (const auto& f : wb::families())
        if (!f.metric.ceiling.empty()) c[f.metric.ceiling] = {1, f.metric.unit, "test", "today"};
    return c;
}

/// The table of a suite's configurations, every one with the widest (or a failed) result.
std::string table_of(const std::vector<wb::config>& planned, bool failed)
{
    std::ostringstream out;
    wb::console_table t(out, planned, wb::table_format::table, every_ceiling());
    for (size_t i = 0; i < planned.size(); ++i) t.row(i, widest(planned[i], failed));
    return out.str();
}

const std::filesystem::path suites = std::filesystem::path(WAVEBENCH_SOURCE_DIR) / "suites";

} // namespace

BOOST_AUTO_TEST_CASE(every_shipped_suite_fits_120_columns)
{
    cpu_run cpu(64, false);
    size_t files = 0;
    for (const auto& e : std::filesystem::directory_iterator(suites)) {
        if (e.path().extension() != ".toml") continue;
        ++files;
        const auto planned = wb::plan_suite(wb::parse_suite_file(e.path()), cpu.reg);
        BOOST_REQUIRE(!planned.empty());
        for (bool failed : {false, true}) {
            const auto lines = lines_of(table_of(planned, failed));
            BOOST_CHECK_GE(lines.size(), planned.size());
            for (const auto& l : lines) {
                // A failed row's message is on the next line, indented, as long as it is.
                if (l.rfind("    timeout: ", 0) == 0) continue;
                BOOST_TEST_INFO(e.path().filename().string() << ": " << l);
                BOOST_CHECK_LE(width_of(l), wb::console_width);
            }
            if (failed)
                BOOST_CHECK_EQUAL(std::count(lines.begin(), lines.end(), "    timeout: " + std::string(300, 'x')),
                                  long(planned.size()));
        }
    }
    BOOST_CHECK_GE(files, 9u);
}

namespace {

/// The table of a shipped suite's configurations, a line each.
std::vector<std::string> table_lines(const std::string& suite_file)
{
    cpu_run cpu(64, false);
    return lines_of(table_of(wb::plan_suite(wb::parse_suite_file(suites / suite_file), cpu.reg), false));
}

/// The index of the first line that starts with `start`, or lines.size().
size_t line_of(const std::vector<std::string>& lines, const std::string& start, size_t from = 0)
{
    size_t i = from;
    while (i < lines.size() && lines[i].rfind(start, 0) != 0) ++i;
    BOOST_CHECK_MESSAGE(i < lines.size(), "no line starts with '" << start << "'");
    return i;
}

bool starts(const std::string& s, const std::string& start) { return s.rfind(start, 0) == 0; }

} // namespace

BOOST_AUTO_TEST_CASE(throttled_runs_and_energy_are_said_under_the_row)
{
    cpu_run cpu(64, false);
    const auto planned = wb::plan_suite(wb::parse_suite_file(suites / "quick.toml"), cpu.reg);
    std::ostringstream out;
    wb::console_table t(out, planned, wb::table_format::table, every_ceiling());
    wb::result r = widest(planned[0], false);
    r.telemetry.sm_mhz.assign(20, 1980);
    r.telemetry.throttled = {4, 5, 6};
    r.telemetry.throttle_reasons = "sw_power_cap";
    t.row(0, r);
    r.telemetry.throttled.clear();
    r.telemetry.energy_j = 4.5;
    r.telemetry.energy_runs = 900;
    r.telemetry.energy_per_unit_j = 12.3e-12;
    r.telemetry.work_unit = "B";
    t.row(1, r);
    t.row(2, widest(planned[2], false)); // neither: no line under it
    const auto lines = lines_of(out.str());
    for (const auto& l : lines) BOOST_TEST_MESSAGE(l);
    BOOST_REQUIRE_EQUAL(lines.size(), 3u + 5u);
    BOOST_CHECK_EQUAL(lines[4], "    throttled 3/20 runs (sw_power_cap)");
    BOOST_CHECK_EQUAL(lines[6], "    energy 12.3 pJ/B (4.5 J over 900 runs)");
    BOOST_CHECK(!starts(lines[7], "    "));
}

BOOST_AUTO_TEST_CASE(parameters_that_vary_are_columns_the_others_are_said_once)
{
    const auto lines = table_lines("quick.toml");
    // reduce: n varies, the tunables have one value each.
    const size_t reduce = line_of(lines, "reduce:");
    BOOST_REQUIRE_LT(reduce + 3, lines.size());
    BOOST_CHECK_EQUAL(lines[reduce], "reduce: block_size=256 items=16 batch=256 way=1 work_items=0 groups_per_mp=0");
    BOOST_CHECK(starts(lines[reduce + 1], "variant               n      time     ±   GB/s %ceil x base x lib regs"));
    BOOST_CHECK_EQUAL(lines[reduce + 2], std::string(width_of(lines[reduce + 3]), '-'));
    BOOST_CHECK(starts(lines[reduce + 3], "atomic          1000003  999.9 ms 9999% 999999 9999%  9999x"));
    // branch: four benchmarks in one table, the kernel a column.
    const size_t branch = line_of(lines, "branch:");
    BOOST_REQUIRE_LT(branch + 10, lines.size());
    BOOST_CHECK_EQUAL(lines[branch], "branch: n=100003 distribution=divergent block_size=256");
    BOOST_CHECK(starts(lines[branch + 1], "variant       kernel      time"));
    BOOST_CHECK(starts(lines[branch + 3], "call_ifelse   call    999.9 ms"));
    BOOST_CHECK(starts(lines[branch + 10], "subd_switch   subd    999.9 ms"));
    // Columns that say nothing are left out: branch has no baseline, converge no library and no ceiling.
    BOOST_CHECK_EQUAL(lines[branch + 1].find("x base"), std::string::npos);
    const size_t converge = line_of(lines, "converge:");
    BOOST_REQUIRE_LT(converge + 1, lines.size());
    BOOST_CHECK(
        starts(lines[converge + 1], "variant                  time     ± GFMA/s x base model issue regs occupancy"));
}

BOOST_AUTO_TEST_CASE(a_table_too_wide_is_split_at_a_benchmark_and_trimmed)
{
    // converge-edges: its two benchmarks in one table would need relief as a column too; the
    // first alone needs its block size's head cut.
    const auto lines = table_lines("converge-edges.toml");
    const size_t first = line_of(lines, "converge:"), second = line_of(lines, "converge:", first + 1);
    BOOST_REQUIRE_LT(second + 1, lines.size());
    BOOST_CHECK_EQUAL(lines[first], "converge: branch_len=3 nonbranch_len=2 p=0.3 relief=8");
    BOOST_CHECK(starts(lines[first + 1], "variant               lanes iterations pattern     block      time"));
    BOOST_CHECK_NE(lines[first + 3].find(" 64/64 warps "), std::string::npos);
    BOOST_CHECK(starts(lines[second], "converge: lanes=100003 iterations=128 branch_len=3 nonbranch_len=2 p=0.3 "
                                      "block_size=256"));
    BOOST_CHECK(starts(lines[second + 1], "variant            pattern relief      time"));
}

BOOST_AUTO_TEST_CASE(clock_text_reads_as_a_clock)
{
    BOOST_CHECK_EQUAL(wb::clock_text(0), "0:00");
    BOOST_CHECK_EQUAL(wb::clock_text(65.4), "1:05");
    BOOST_CHECK_EQUAL(wb::clock_text(3723), "1:02:03");
}

BOOST_AUTO_TEST_SUITE_END()
