// Planning: a suite expands into the cartesian product of its axes over the variants its globs
// select, and a value that no selected plugin accepts is an error naming the file and line.
#include <boost/test/unit_test.hpp>

#include "harness/plan/plan.h"
#include "harness/platform/platform.h"
#include "harness/plugins/plugins.h"

#include <set>

BOOST_AUTO_TEST_SUITE(plan_test)

namespace {

struct cpu_plugins {
    cpu_plugins() : reg("cpu") { reg.add_directory(wb::platform::build_dir() / "plugins"); }
    std::vector<wb::config> plan(const std::string& text, const std::string& filter = "")
    {
        return wb::plan_suite(wb::parse_suite(text, "p.toml"), reg, filter);
    }
    /// The error planning `text` raises, "" when it plans.
    std::string error_of(const std::string& text)
    {
        try {
            plan(text);
        } catch (const wb::suite_error& e) {
            return e.what();
        }
        return "";
    }
    wb::plugin_registry reg;
};

const std::string tree = "[[benchmark]]\nfamily = \"reduce\"\nvariants = [\"tree\"]\n";

} // namespace

BOOST_FIXTURE_TEST_CASE(family_and_tunable_axes_expand_to_their_cartesian_product, cpu_plugins)
{
    const auto plan = this->plan(tree + "n = [1000, 2000, 3000]\nblock_size = [64, 128]\n");
    BOOST_REQUIRE_EQUAL(plan.size(), 6u);
    std::set<std::pair<int64_t, int64_t>> seen;
    for (const auto& c : plan)
        seen.insert({std::get<int64_t>(c.family_params.at("n")), std::get<int64_t>(c.tunables.at("block_size"))});
    BOOST_CHECK_EQUAL(seen.size(), 6u);
    // Configurations at the same family parameters share their inputs: one group per n.
    std::set<size_t> groups;
    for (const auto& c : plan) groups.insert(c.group);
    BOOST_CHECK_EQUAL(groups.size(), 3u);
    for (size_t i = 0; i < plan.size(); ++i) BOOST_CHECK_EQUAL(plan[i].index, i);
}

BOOST_FIXTURE_TEST_CASE(a_variant_glob_selects_every_matching_plugin_baseline_first, cpu_plugins)
{
    const auto plan = this->plan("[[benchmark]]\nfamily = \"reduce\"\nvariants = [\"tree*\", \"atomic\"]\nn = 1000\n");
    std::set<std::string> variants;
    for (const auto& c : plan) variants.insert(c.plug->variant);
    BOOST_CHECK(variants.count("tree"));
    BOOST_CHECK(variants.count("tree_two_stage"));
    BOOST_CHECK(variants.count("atomic"));
    BOOST_CHECK(!variants.count("unrolled"));
    BOOST_REQUIRE(!plan.empty());
    BOOST_CHECK_EQUAL(plan.front().plug->variant, plan.front().plug->fam->baseline);
}

BOOST_FIXTURE_TEST_CASE(a_tunable_value_no_selected_plugin_accepts_is_an_error_at_its_line, cpu_plugins)
{
    const std::string what = error_of(tree + "n = 1000\nblock_size = [64, 100]\n");
    BOOST_TEST_INFO(what);
    BOOST_CHECK_EQUAL(what.rfind("p.toml:5:", 0), 0u);
    BOOST_CHECK_NE(what.find("is allowed by no selected variant"), std::string::npos);
}

BOOST_FIXTURE_TEST_CASE(a_glob_that_matches_no_plugin_is_an_error_at_its_line, cpu_plugins)
{
    const std::string what = error_of("[[benchmark]]\nfamily = \"reduce\"\nvariants = [\"no_such_*\"]\n");
    BOOST_TEST_INFO(what);
    BOOST_CHECK_EQUAL(what.rfind("p.toml:3:", 0), 0u);
    BOOST_CHECK_NE(what.find("matches 'no_such_*'"), std::string::npos);
}

BOOST_FIXTURE_TEST_CASE(a_suite_over_the_limit_is_refused_before_any_configuration_is_made, cpu_plugins)
{
    BOOST_CHECK_THROW(wb::plan_suite(wb::parse_suite(tree + "n = [1, 2, 3]\n", "p.toml"), reg, "", 2), wb::suite_error);
}

BOOST_FIXTURE_TEST_CASE(a_combination_a_constraint_rules_out_is_a_skip_with_the_reason, cpu_plugins)
{
    // conv/tiled: block_size × outputs ≤ 8192 (its tile in LDS).
    const auto plan = this->plan("[[benchmark]]\nfamily = \"conv\"\nvariants = [\"tiled\"]\nn = 1000\nm = 3\n"
                                 "block_size = [256, 512, 1024]\noutputs = [4, 8, 16]\n");
    BOOST_REQUIRE_EQUAL(plan.size(), 9u);
    size_t skipped = 0;
    for (const auto& c : plan) {
        const int64_t block = std::get<int64_t>(c.tunables.at("block_size")),
                      r = std::get<int64_t>(c.tunables.at("outputs"));
        BOOST_TEST_INFO("block_size " << block << ", outputs " << r << ": " << c.skip);
        if (block * r <= 8192) {
            BOOST_CHECK_EQUAL(c.skip, "");
            continue;
        }
        ++skipped;
        BOOST_CHECK_EQUAL(c.skip, "block_size × outputs = " + std::to_string(block * r) +
                                      " is over 8192 (a work-group's tile must fit in 64 KiB of LDS)");
    }
    BOOST_CHECK_EQUAL(skipped, 1u); // 1024 × 16
}

BOOST_AUTO_TEST_SUITE_END()
