// Suites: every kind of bad input is an error naming the file, line and column; planning
// against the loaded plugins checks variants and tunables the same way.
#include <boost/test/unit_test.hpp>

#include "harness/measure/runner.h"
#include "harness/plan/suite.h"
#include "harness/platform/platform.h"
#include "harness/plugins/plugins.h"

BOOST_AUTO_TEST_SUITE(suite_test)

namespace {

using wb::parse_suite;
using wb::suite_error;

/// The error a suite text raises, as "line:column: message" (the file name is "s.toml").
std::string error_of(const std::string& text)
{
    try {
        parse_suite(text, "s.toml");
    } catch (const suite_error& e) {
        BOOST_CHECK_EQUAL(std::string(e.what()).rfind("s.toml:", 0), 0u);
        return std::string(e.what()).substr(7);
    }
    return "no error";
}

bool starts(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

#define CHECK_ERROR(text, where, words)                                                                                \
    do {                                                                                                               \
        const std::string e = error_of(text);                                                                          \
        BOOST_TEST_INFO("error: " << e);                                                                               \
        BOOST_CHECK(starts(e, where));                                                                                 \
        BOOST_CHECK_NE(e.find(words), std::string::npos);                                                              \
    } while (0)

const std::string bench = "[[benchmark]]\nfamily = \"reduce\"\n";

BOOST_AUTO_TEST_CASE(a_good_suite_parses_with_defaults_filled)
{
    const auto s = parse_suite("[suite]\nname = \"x\"\nrepetitions = 5\n" + bench + "n = [1, 2]\n", "s.toml");
    BOOST_CHECK_EQUAL(s.name, "x");
    BOOST_CHECK_EQUAL(s.settings.repetitions, 5);
    BOOST_CHECK_EQUAL(s.settings.warmup, 3); // the default
    BOOST_REQUIRE_EQUAL(s.benchmarks.size(), 1u);
    BOOST_CHECK_EQUAL(s.benchmarks[0].variants.front(), "*");
    BOOST_REQUIRE_EQUAL(s.benchmarks[0].family_axes.size(), 1u);
    BOOST_CHECK_EQUAL(s.benchmarks[0].family_axes[0].values.size(), 2u);
    // Without n, the family's default.
    const auto d = parse_suite(bench, "s.toml");
    BOOST_CHECK_EQUAL(std::get<int64_t>(d.benchmarks[0].family_axes[0].values[0].v), int64_t(1) << 20);
}

BOOST_AUTO_TEST_CASE(command_line_overrides_go_on_top_of_the_suite)
{
    const auto s = parse_suite("[suite]\nrepetitions = 5\nverify_every = 4\nseed = 11\n" + bench, "s.toml");
    wb::settings_overrides o;
    BOOST_CHECK_EQUAL(wb::with_overrides(s.settings, o).repetitions, 5); // nothing given: the suite's
    o.repetitions = 7;
    o.warmup = 0;
    o.min_time_s = 0.5;
    const wb::run_settings r = wb::with_overrides(s.settings, o);
    BOOST_CHECK_EQUAL(r.repetitions, 7);
    BOOST_CHECK_EQUAL(r.warmup, 0);
    BOOST_CHECK_EQUAL(r.min_time_s, 0.5);
    BOOST_CHECK_EQUAL(r.verify_every, 4); // the suite's, not overridden
    BOOST_CHECK_EQUAL(r.seed, 11u);
    BOOST_CHECK_EQUAL(r.max_samples, wb::run_settings{}.max_samples); // the default, the suite leaves it out
}

BOOST_AUTO_TEST_CASE(syntax_errors_name_line_and_column)
{
    CHECK_ERROR("[suite]\nname = \"x\"\nrepetitions = = 3\n", "3:", "");
    CHECK_ERROR("[suite\n", "1:", "");
}

BOOST_AUTO_TEST_CASE(unknown_keys_are_errors)
{
    CHECK_ERROR("[suite]\nrepetitons = 3\n" + bench, "2:1:", "unknown key 'repetitons' in [suite]");
    CHECK_ERROR("[suites]\nname = \"x\"\n" + bench, "1:", "unknown key 'suites'");
}

BOOST_AUTO_TEST_CASE(wrong_types_and_impossible_values_are_errors)
{
    CHECK_ERROR("[suite]\nrepetitions = \"many\"\n" + bench, "2:15:", "'repetitions' must be an integer");
    CHECK_ERROR("[suite]\nrepetitions = 0\n" + bench, "2:15:", "out of range");
    CHECK_ERROR("[suite]\nwarmup = -1\n" + bench, "2:10:", "out of range");
    CHECK_ERROR(bench + "n = 1.5\n", "3:5:", "'n' must be an integer");
    CHECK_ERROR(bench + "n = [4, -1]\n", "3:9:", "'n' = -1 is out of range");
    CHECK_ERROR(bench + "n = []\n", "3:5:", "empty list");
    CHECK_ERROR(bench + "n = [1, \"two\"]\n", "3:9:", "mixes kinds of values");
    CHECK_ERROR(bench + "variants = []\n", "3:12:", "'variants' is an empty list");
    CHECK_ERROR(bench + "variants = [3]\n", "3:13:", "'variants' must be a string");
}

BOOST_AUTO_TEST_CASE(text_that_tomlplusplus_3_3_cannot_take_is_an_error)
{
    CHECK_ERROR("[{\n" + bench, "1:2:", "expected bare key starting character");
    CHECK_ERROR(bench + "[[[x]]]\n", "3:3:", "expected bare key starting character");
    CHECK_ERROR(bench + "n = [5,}\n", "3:", "");
    CHECK_ERROR(bench + "t = 1979-05-27T+7:3\n", "3:", "");
    CHECK_ERROR(bench + "n\u00a7 = 1\n", "3:2:", "a non-ASCII character outside a string or a comment");
    CHECK_ERROR(bench + "n = 1.'\u00e9'\n", "3:8:", "a non-ASCII character in a number or another unquoted value");
    CHECK_ERROR("[suite]\ndescription = \"\"\"a \\\n\u00e9\"\"\"\n" + bench, "3:1:", "continued by a backslash");
    CHECK_ERROR("[suite]\ndescription = \"\"\"\\\u00e9\"\"\"\n" + bench, "2:19:", "no escape sequence");
    // The same characters in strings and comments, after a byte-order mark, are read.
    const std::string text = "\xEF\xBB\xBF# caf\u00e9 [{\n[suite]\n"
                             "description = \"\"\"r\u00e9duction \\\n  [{ and\n[+1]\"\"\"\nname = 'q' # \u00e9\n" +
                             bench + "n = [\n  1, # [{\n  2]\n";
    const auto s = parse_suite(text, "s.toml");
    BOOST_CHECK_EQUAL(s.description, "r\u00e9duction [{ and\n[+1]");
    BOOST_CHECK_EQUAL(s.name, "q");
}

BOOST_AUTO_TEST_CASE(families_must_exist)
{
    CHECK_ERROR("[[benchmark]]\nfamily = \"sort\"\n",
                "2:10:", "unknown family 'sort' (known: branch, conv, converge, reduce, vgpr)");
    CHECK_ERROR("[[benchmark]]\nn = 3\n", "1:", "needs a 'family'");
    CHECK_ERROR("[suite]\nname = \"empty\"\n", "1:1:", "no [[benchmark]]");
}

BOOST_AUTO_TEST_CASE(an_unreadable_file_is_named)
{
    try {
        wb::parse_suite_file("/nonexistent/suite.toml");
        BOOST_FAIL("no error");
    } catch (const suite_error& e) {
        BOOST_CHECK_EQUAL(std::string(e.what()),
                          "cannot read the suite file '/nonexistent/suite.toml': No such file or directory");
    }
}

// ---- planning against the plugins ---------------------------------------------------------------

struct with_plugins {
    with_plugins() : reg(wb::platform_kind::cpu)
    {
        p = wb::platform::load(wb::platform_kind::cpu);
        p->init(0, 0);
        reg.add_directory(wb::platform::build_dir() / "plugins");
        reg.add_directory(wb::platform::build_dir() / "tests" / "plugins");
    }
    std::string plan_error(const std::string& text, const std::string& filter = "")
    {
        try {
            wb::plan_suite(parse_suite(text, "s.toml"), reg, filter);
        } catch (const suite_error& e) {
            return std::string(e.what()).substr(7);
        } catch (const std::exception& e) {
            return e.what();
        }
        return "no error";
    }
    std::shared_ptr<wb::platform> p;
    wb::plugin_registry reg;
};

BOOST_FIXTURE_TEST_CASE(a_suite_is_counted_against_the_limit_before_it_expands, with_plugins)
{
    // 3 sizes x (2 block sizes of atomic + 2 of tree) = 12 configurations.
    const auto s =
        parse_suite(bench + "variants = [\"atomic\", \"tree\"]\nn = [1, 2, 3]\nblock_size = [64, 128]\n", "s.toml");
    BOOST_CHECK_EQUAL(wb::plan_suite(s, reg, "", 12).size(), 12u);
    try {
        wb::plan_suite(s, reg, "", 11);
        BOOST_FAIL("no error");
    } catch (const suite_error& e) {
        BOOST_CHECK_NE(std::string(e.what()).find("expands to 12 configurations, more than the limit of 11"),
                       std::string::npos);
    }
    BOOST_CHECK_EQUAL(wb::plan_suite(s, reg, "reduce/atomic", 6).size(), 6u); // the filter counts
}

BOOST_FIXTURE_TEST_CASE(planning_checks_variants_and_tunables, with_plugins)
{
    auto e = plan_error(bench + "variants = [\"atomic\", \"nope*\"]\n");
    BOOST_CHECK(starts(e, "3:23:"));
    BOOST_CHECK_NE(e.find("no cpu plugin of family reduce matches 'nope*'"), std::string::npos);
    e = plan_error(bench + "blok_size = 64\n");
    BOOST_CHECK(starts(e, "3:1:"));
    BOOST_CHECK_NE(e.find("'blok_size' is neither a parameter of family reduce (n) nor a tunable"), std::string::npos);
    e = plan_error(bench + "variants = [\"atomic\"]\nblock_size = [64, 300]\n");
    BOOST_CHECK(starts(e, "4:19:"));
    BOOST_CHECK_NE(e.find("block_size = 300 is allowed by no selected variant"), std::string::npos);
    BOOST_CHECK_NE(e.find("powers of two"), std::string::npos);
    e = plan_error(bench + "variants = [\"chunked\"]\nitems = 4\n"); // a tunable of other variants only
    BOOST_CHECK(starts(e, "4:1:"));
    e = plan_error(bench + "n = 5\n", "nothing/*");
    BOOST_CHECK_NE(e.find("--filter 'nothing/*' matches no configuration"), std::string::npos);
}

BOOST_FIXTURE_TEST_CASE(the_cartesian_product_with_the_baseline_first, with_plugins)
{
    const auto s = parse_suite(bench + "variants = [\"tree\", \"atomic\", \"blocked_*\"]\nn = [10, 20]\n"
                                       "block_size = [64, 128]\nitems = [1, 2, 3]\n",
                               "s.toml");
    const auto configs = wb::plan_suite(s, reg);
    // per n: atomic 2 + tree 2 + three blocked variants x 2 x 3
    BOOST_REQUIRE_EQUAL(configs.size(), 2u * (2 + 2 + 3 * 6));
    BOOST_CHECK_EQUAL(configs.front().plug->name(), "reduce/atomic");
    BOOST_CHECK_EQUAL(configs[22].plug->name(), "reduce/atomic");
    BOOST_CHECK_NE(configs.front().group, configs[22].group);
    for (const auto& c : configs) {
        BOOST_CHECK(c.skip.empty());
        BOOST_CHECK_EQUAL(c.tunables.count("items"), c.plug->tunable("items") ? 1u : 0u);
    }
    const auto filtered = wb::plan_suite(s, reg, "reduce/tree");
    BOOST_CHECK_EQUAL(filtered.size(), 4u);
}

BOOST_FIXTURE_TEST_CASE(a_value_one_variant_rejects_is_a_skip_with_the_reason, with_plugins)
{
    const auto configs = wb::plan_suite(
        parse_suite(bench + "variants = [\"atomic\", \"test_errors\"]\nblock_size = 256\n", "s.toml"), reg);
    BOOST_REQUIRE_EQUAL(configs.size(), 2u); // atomic, and test_errors (which allows only 128)
    size_t skipped = 0;
    for (const auto& c : configs)
        if (!c.skip.empty()) {
            ++skipped;
            BOOST_CHECK_EQUAL(c.plug->name(), "reduce/test_errors");
            BOOST_CHECK_NE(c.skip.find("block_size = 256 is not allowed"), std::string::npos);
        }
    BOOST_CHECK_EQUAL(skipped, 1u);
}

} // namespace

#undef CHECK_ERROR

BOOST_AUTO_TEST_SUITE_END()
