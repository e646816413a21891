// What an AMD plugin was built for: a code object's target against the GPU's arch name (features,
// generic targets), the left-out list the build writes beside a plugin, and the skip a run gives a
// configuration whose plugin has no code object for the GPU. Reads the amd plugins where the amd
// platform is built here.
#include <boost/test/unit_test.hpp>

#include "harness/amd/amd_build.h"
#include "harness/platform/platform.h"

#include <fstream>
#include <unistd.h>

BOOST_AUTO_TEST_SUITE(amd_build_test)

namespace {

namespace fs = std::filesystem;

BOOST_AUTO_TEST_CASE(a_code_object_loads_on_its_processor_with_matching_features)
{
    BOOST_CHECK(wb::amd_target_loads_on("gfx942", "gfx942:sramecc+:xnack-"));
    BOOST_CHECK(wb::amd_target_loads_on("gfx942:xnack-", "gfx942:sramecc+:xnack-"));
    BOOST_CHECK(!wb::amd_target_loads_on("gfx942:xnack+", "gfx942:sramecc+:xnack-"));
    BOOST_CHECK(!wb::amd_target_loads_on("gfx940", "gfx942:sramecc+:xnack-")); // a pre-production target
    BOOST_CHECK(!wb::amd_target_loads_on("gfx1100", "gfx1101"));
    BOOST_CHECK(wb::amd_target_loads_on("gfx1201", "gfx1201"));
    // Generic targets cover their family, and only it.
    BOOST_CHECK(wb::amd_target_loads_on("gfx11-generic", "gfx1151"));
    BOOST_CHECK(wb::amd_target_loads_on("gfx12-generic", "gfx1200"));
    BOOST_CHECK(wb::amd_target_loads_on("gfx9-4-generic:xnack-", "gfx950:sramecc+:xnack-"));
    BOOST_CHECK(!wb::amd_target_loads_on("gfx9-generic", "gfx90a"));
    BOOST_CHECK(!wb::amd_target_loads_on("gfx11-generic", "gfx1201"));
}

BOOST_AUTO_TEST_CASE(the_reason_names_the_gpu_the_targets_built_and_what_to_do)
{
    wb::amd_build_info b;
    b.targets = {"gfx90a", "gfx942"};
    BOOST_CHECK_EQUAL(wb::amd_unbuilt_reason(b, "gfx942:sramecc+:xnack-"), "");
    const std::string r = wb::amd_unbuilt_reason(b, "gfx1100");
    BOOST_CHECK_NE(r.find("no code object for this GPU (gfx1100)"), std::string::npos);
    BOOST_CHECK_NE(r.find("built for gfx90a, gfx942"), std::string::npos);
    BOOST_CHECK_NE(r.find("-DWAVEBENCH_AMD_TARGETS"), std::string::npos);
    b.left_out = {{"gfx1100", "error: broadcasts are not supported on GFX10+"}};
    const std::string left = wb::amd_unbuilt_reason(b, "gfx1100");
    BOOST_CHECK_NE(left.find("the build left gfx1100 out: error: broadcasts"), std::string::npos);
    b.problem = "not an ELF file";
    BOOST_CHECK_EQUAL(wb::amd_unbuilt_reason(b, "gfx1100"), ""); // loading it will say what is wrong
}

BOOST_AUTO_TEST_CASE(the_left_out_list_is_read_bounded_and_malformed_lines_skipped)
{
    const fs::path dir = fs::temp_directory_path() / ("wb_amd_build_" + std::to_string(getpid()));
    fs::create_directories(dir);
    const fs::path so = dir / "x.so";
    BOOST_CHECK(wb::read_left_out(so).empty()); // no sidecar: nothing left out
    std::ofstream(dir / "x.so.omitted") << "gfx1100\terror: one\nno tab here\n\tempty target\ngfx 1\tspace\n"
                                        << "gfx1201\tbad \x1b[31m escape\n";
    const auto l = wb::read_left_out(so);
    BOOST_REQUIRE_EQUAL(l.size(), 2u);
    BOOST_CHECK_EQUAL(l[0].target, "gfx1100");
    BOOST_CHECK_EQUAL(l[0].reason, "error: one");
    BOOST_CHECK_EQUAL(l[1].target, "gfx1201");
    BOOST_CHECK_EQUAL(l[1].reason.find('\x1b'), std::string::npos); // shown printable
    fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(a_run_skips_plugins_with_no_code_object_for_the_gpu)
{
    const fs::path so = wb::platform::build_dir() / "plugins" / "amd" / "reduce_tree.so";
    if (!fs::exists(so) || !fs::exists(wb::platform::build_dir() / "lib" / "libwavebench_amd_inspect.so")) {
        BOOST_TEST_MESSAGE("skipped: the amd platform is not built here");
        return;
    }
    const wb::amd_build_info b = wb::amd_build_of(so);
    BOOST_REQUIRE(b.problem.empty());
    BOOST_REQUIRE(!b.targets.empty());
    wb::family fam;
    fam.name = "reduce";
    wb::plugin pl;
    pl.fam = &fam;
    pl.variant = "tree";
    pl.path = so;
    std::vector<wb::config> plan(3);
    for (auto& c : plan) c.plug = &pl;
    plan[2].skip = "a value the plugin does not allow";
    BOOST_CHECK_EQUAL(wb::skip_unbuilt_targets(plan, b.targets.front()), 0u); // built for it: runs
    BOOST_CHECK(plan[0].skip.empty());
    BOOST_CHECK_EQUAL(wb::skip_unbuilt_targets(plan, "gfx1036"), 2u); // a GPU no default target covers
    BOOST_CHECK_NE(plan[0].skip.find("no code object for this GPU (gfx1036)"), std::string::npos);
    BOOST_CHECK_EQUAL(plan[2].skip, "a value the plugin does not allow"); // an earlier reason stays
}

} // namespace

BOOST_AUTO_TEST_SUITE_END()
