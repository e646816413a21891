// Loading plugins: every refusal names the file and the reason, the rest load, and a plugin's
// library stays loaded as long as anything from it is held.
#define BOOST_TEST_MODULE loader
#include <boost/test/unit_test.hpp>

#include "harness/platform.h"
#include "harness/plugins.h"

#include <fstream>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

fs::path build() { return wb::platform::build_dir(); }
fs::path fixture(const std::string& name) { return build() / "tests" / "plugins" / "malformed" / (name + ".so"); }
fs::path atomic_plugin() { return build() / "plugins" / "cpu" / "reduce_atomic.so"; }

/// The reason `file` is refused for, or "" if it loads.
std::string refusal(const fs::path& file)
{
    wb::plugin_registry reg(wb::platform_kind::cpu);
    reg.add_file(file);
    BOOST_REQUIRE_EQUAL(reg.plugins().size() + reg.rejections().size(), 1u);
    if (reg.rejections().empty()) return "";
    BOOST_CHECK_EQUAL(reg.rejections()[0].path, file);
    return reg.rejections()[0].reason;
}

#define CHECK_REFUSED(file, words)                                                                 \
    do {                                                                                           \
        const std::string why = refusal(file);                                                     \
        BOOST_TEST_INFO("reason: " << why);                                                        \
        BOOST_CHECK_NE(why.find(words), std::string::npos);                                        \
    } while (0)

struct temp_dir {
    temp_dir()
    {
        char tmpl[] = "/tmp/wavebench-loader-XXXXXX";
        path = mkdtemp(tmpl);
    }
    ~temp_dir() { fs::remove_all(path); }
    fs::path path;
};

BOOST_AUTO_TEST_CASE(a_good_plugin_loads)
{
    BOOST_CHECK_EQUAL(refusal(atomic_plugin()), "");
}

BOOST_AUTO_TEST_CASE(missing_files_and_non_libraries_are_refused)
{
    CHECK_REFUSED(build() / "no-such-plugin.so", "does not exist");
    temp_dir d;
    std::ofstream(d.path / "garbage.so") << "not an ELF file\n";
    CHECK_REFUSED(d.path / "garbage.so", "cannot be loaded");
}

BOOST_AUTO_TEST_CASE(a_library_without_the_entry_point_is_refused)
{
    CHECK_REFUSED(fixture("no_entry"), "no 'wavebench_plugin' entry point");
}

BOOST_AUTO_TEST_CASE(abi_mismatches_are_refused)
{
    const std::string v = std::to_string(WB_PLUGIN_ABI_VERSION);
    CHECK_REFUSED(fixture("declines_abi"), "declined plugin ABI version " + v);
    CHECK_REFUSED(fixture("wrong_abi_version"), "plugin ABI version 99; this wavebench speaks version " + v);
}

BOOST_AUTO_TEST_CASE(a_plugin_for_another_platform_is_refused_with_what_to_do)
{
    CHECK_REFUSED(fixture("wrong_platform"), "built for platform 'nvidia', not 'cpu' (run it with --platform nvidia)");
    wb::plugin_registry nvidia(wb::platform_kind::nvidia);
    nvidia.add_file(atomic_plugin());
    BOOST_REQUIRE_EQUAL(nvidia.rejections().size(), 1u);
    BOOST_CHECK_NE(nvidia.rejections()[0].reason.find("built for platform 'cpu'"), std::string::npos);
}

BOOST_AUTO_TEST_CASE(platform_names_are_read_in_one_place)
{
    for (auto k : wb::platform_kinds) BOOST_CHECK(wb::parse_platform(wb::to_string(k)) == k);
    BOOST_CHECK(!wb::parse_platform("metal"));
    BOOST_CHECK(!wb::parse_platform("CPU"));
    BOOST_CHECK(wb::plugin_registry("nvidia").platform() == wb::platform_kind::nvidia);
    BOOST_CHECK_THROW(wb::plugin_registry("metal"), std::invalid_argument);
    BOOST_CHECK_THROW(wb::platform::load("metal"), wb::platform_unavailable);
}

BOOST_AUTO_TEST_CASE(unknown_families_and_incomplete_descriptors_are_refused)
{
    CHECK_REFUSED(fixture("unknown_family"), "family 'sort', which this wavebench does not know");
    CHECK_REFUSED(fixture("incomplete"), "incomplete descriptor");
}

BOOST_AUTO_TEST_CASE(in_a_directory_the_bad_ones_are_listed_and_the_rest_load)
{
    temp_dir d;
    fs::create_symlink(atomic_plugin(), d.path / "reduce_atomic.so");
    for (const char* f : {"no_entry", "declines_abi", "wrong_abi_version", "wrong_platform", "unknown_family"})
        fs::create_symlink(fixture(f), d.path / (std::string(f) + ".so"));
    std::ofstream(d.path / "README.txt") << "not a plugin, and not a .so: ignored\n";
    wb::plugin_registry reg(wb::platform_kind::cpu);
    reg.add_directory(d.path);
    BOOST_REQUIRE_EQUAL(reg.plugins().size(), 1u);
    BOOST_CHECK_EQUAL(reg.plugins()[0].name(), "reduce/atomic");
    BOOST_CHECK_EQUAL(reg.rejections().size(), 5u);
    reg.add_directory(d.path / "missing");
    BOOST_CHECK_NE(reg.rejections().back().reason.find("is not a directory"), std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_same_variant_twice_is_refused)
{
    temp_dir d;
    fs::copy_file(atomic_plugin(), d.path / "copy.so");
    wb::plugin_registry reg(wb::platform_kind::cpu);
    reg.add_file(atomic_plugin());
    reg.add_file(d.path / "copy.so");
    BOOST_REQUIRE_EQUAL(reg.plugins().size(), 1u);
    BOOST_REQUIRE_EQUAL(reg.rejections().size(), 1u);
    BOOST_CHECK_NE(reg.rejections()[0].reason.find("is a second reduce/atomic"), std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_plugin_outlives_its_registry)
{
    wb::plugin kept;
    {
        wb::plugin_registry reg(wb::platform_kind::cpu);
        reg.add_file(atomic_plugin());
        BOOST_REQUIRE_EQUAL(reg.plugins().size(), 1u);
        kept = reg.plugins()[0];
    }
    // The registry is gone; the copy holds the library, so the descriptor is still mapped.
    BOOST_CHECK_EQUAL(std::string(kept.desc->variant), "atomic");
    BOOST_CHECK(kept.library->is_loaded());
}

BOOST_AUTO_TEST_CASE(plugin_path_environment_adds_directories)
{
    setenv("WAVEBENCH_PLUGIN_PATH", "/a:/b::/c", 1);
    const auto dirs = wb::plugin_directories(wb::to_string(wb::platform_kind::cpu), {"/x"});
    unsetenv("WAVEBENCH_PLUGIN_PATH");
    BOOST_REQUIRE_EQUAL(dirs.size(), 5u);
    BOOST_CHECK_EQUAL(dirs[0], build() / "plugins" / "cpu");
    BOOST_CHECK_EQUAL(dirs[1], "/x");
    BOOST_CHECK_EQUAL(dirs[4], "/c");
}

} // namespace
