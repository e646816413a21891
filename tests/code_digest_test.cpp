// harness/plugins/code_digest.h: a plugin file's code digest is the same for a copy and for a copy
// whose sections that are not loaded changed (a section added, symbols stripped), and differs for
// another plugin and for one changed byte of code; the device code's digest is there for the GPU
// builds and not for cpu plugins. And compare's `same-code` verdict (report/compare_code.cpp) on
// results built here: what it replaces, what it keeps, --ignore-code-digest.
#include <boost/test/unit_test.hpp>

#include "results_docs.h"

#include "harness/common/files.h"
#include "harness/platform/platform.h"
#include "harness/plugins/code_digest.h"
#include "harness/plugins/plugin_file.h"
#include "harness/plugins/plugins.h"
#include "harness/report/compare.h"

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

BOOST_AUTO_TEST_SUITE(code_digest_test)

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

fs::path plugin_of(const std::string& platform, const std::string& name)
{
    return wb::platform::build_dir() / "plugins" / platform / (name + ".so");
}

struct scratch_dir {
    scratch_dir()
    {
        char tmpl[] = "/tmp/wavebench-code-digest-XXXXXX";
        path = mkdtemp(tmpl);
    }
    ~scratch_dir() { fs::remove_all(path); }
    fs::path path;
};

std::string bytes_of(const fs::path& f) { return wb::read_input(f, "test file", wb::plugin_file_limit); }

void write_bytes(const fs::path& f, const std::string& bytes) { std::ofstream(f, std::ios::binary) << bytes; }

/// Runs a program from its argument vector (no shell), its output discarded: its exit status, or -1.
int run_quietly(std::vector<std::string> args)
{
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    const int err = posix_spawnp(&pid, argv[0], &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    int st = 0;
    if (err || waitpid(pid, &st, 0) < 0) return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/// Whether binutils' objcopy and strip run here, or why the test that uses them is skipped.
boost::test_tools::assertion_result binutils(boost::unit_test::test_unit_id)
{
    boost::test_tools::assertion_result r(run_quietly({"objcopy", "--version"}) == 0 &&
                                          run_quietly({"strip", "--version"}) == 0);
    r.message() << "binutils' objcopy and strip are not here: no copy with other sections to digest";
    return r;
}

/// Built GPU plugins to read, or why the test of them is skipped.
boost::test_tools::assertion_result built(const std::string& platform)
{
    boost::test_tools::assertion_result r(fs::exists(plugin_of(platform, "reduce_tree")));
    r.message() << "no " << platform << " plugins in this build (" << plugin_of(platform, "reduce_tree").string()
                << "): its device code is not checked";
    return r;
}

/// A copy of `from` in `dir` with one byte of section `section` changed.
fs::path with_byte_changed(const fs::path& from, const fs::path& dir, const std::string& section)
{
    std::string image = bytes_of(from);
    for (const auto& s : wb::elf_sections(image))
        if (s.name == section && !s.contents.empty()) {
            const size_t at = size_t(s.contents.data() - image.data()) + s.contents.size() / 2;
            image[at] = char(image[at] ^ 0x01);
            const fs::path out = dir / ("changed_" + from.filename().string());
            write_bytes(out, image);
            return out;
        }
    BOOST_FAIL("no section " << section << " in " << from);
    return {};
}

} // namespace

BOOST_AUTO_TEST_CASE(a_copy_has_the_digest_and_another_plugin_another)
{
    scratch_dir d;
    const fs::path tree = plugin_of("cpu", "reduce_tree"), copy = d.path / "copy.so";
    fs::copy_file(tree, copy);
    const wb::code_digests a = wb::code_digests_of(tree);
    BOOST_TEST(a.code.size() == 40u);
    BOOST_TEST(a.code.find_first_not_of("0123456789abcdef") == std::string::npos);
    BOOST_TEST(wb::code_digest(copy) == a.code);
    BOOST_TEST(wb::code_digest(plugin_of("cpu", "reduce_atomic")) != a.code);
    BOOST_TEST(a.device.empty()); // cpu plugins carry no device code
    BOOST_TEST(wb::device_code_digest(tree).empty());
}

BOOST_AUTO_TEST_CASE(sections_that_are_not_loaded_do_not_count, *boost::unit_test::precondition(binutils))
{
    scratch_dir d;
    const fs::path tree = plugin_of("cpu", "reduce_tree");
    const std::string code = wb::code_digest(tree);
    write_bytes(d.path / "extra.txt", "not loaded");
    const fs::path added = d.path / "added.so", stripped = d.path / "stripped.so";
    BOOST_REQUIRE(run_quietly({"objcopy", "--add-section", ".comment2=" + (d.path / "extra.txt").string(),
                               tree.string(), added.string()}) == 0);
    BOOST_REQUIRE(run_quietly({"strip", "--strip-all", "-o", stripped.string(), tree.string()}) == 0);
    for (const fs::path& f : {added, stripped}) {
        BOOST_TEST_INFO(f);
        BOOST_TEST(bytes_of(f) != bytes_of(tree)); // the file did change
        BOOST_TEST(wb::code_digest(f) == code);
    }
}

BOOST_AUTO_TEST_CASE(a_byte_of_code_changes_the_digest)
{
    scratch_dir d;
    const fs::path tree = plugin_of("cpu", "reduce_tree");
    BOOST_TEST(wb::code_digest(with_byte_changed(tree, d.path, ".text")) != wb::code_digest(tree));
    BOOST_TEST(wb::code_digest(with_byte_changed(tree, d.path, ".rodata")) != wb::code_digest(tree));
    // The build-id note is loaded but left out: it changes with debug information and paths.
    BOOST_TEST(wb::code_digest(with_byte_changed(tree, d.path, ".note.gnu.build-id")) == wb::code_digest(tree));
}

BOOST_AUTO_TEST_CASE(nvidia_plugins_digest_their_device_code,
                     *boost::unit_test::precondition([](boost::unit_test::test_unit_id) { return built("nvidia"); }))
{
    scratch_dir d;
    const fs::path tree = plugin_of("nvidia", "reduce_tree");
    const wb::code_digests a = wb::code_digests_of(tree);
    BOOST_TEST(a.device.size() == 40u);
    BOOST_TEST(a.device != a.code);
    BOOST_TEST(wb::device_code_digest(plugin_of("nvidia", "reduce_atomic")) != a.device);
    // The device code is part of the code; host code alone leaves the device digest.
    const wb::code_digests device_changed = wb::code_digests_of(with_byte_changed(tree, d.path, ".nv_fatbin"));
    BOOST_TEST(device_changed.code != a.code);
    BOOST_TEST(device_changed.device != a.device);
    const wb::code_digests host_changed = wb::code_digests_of(with_byte_changed(tree, d.path, ".text"));
    BOOST_TEST(host_changed.code != a.code);
    BOOST_TEST(host_changed.device == a.device);
}

BOOST_AUTO_TEST_CASE(amd_plugins_digest_their_device_code,
                     *boost::unit_test::precondition([](boost::unit_test::test_unit_id) { return built("amd"); }))
{
    scratch_dir d;
    const fs::path tree = plugin_of("amd", "reduce_tree");
    const wb::code_digests a = wb::code_digests_of(tree);
    BOOST_TEST(a.device.size() == 40u);
    BOOST_TEST(wb::device_code_digest(plugin_of("amd", "reduce_atomic")) != a.device);
    const wb::code_digests device_changed = wb::code_digests_of(with_byte_changed(tree, d.path, ".hip_fatbin"));
    BOOST_TEST(device_changed.code != a.code);
    BOOST_TEST(device_changed.device != a.device);
}

BOOST_AUTO_TEST_CASE(what_is_no_elf_file_is_refused)
{
    BOOST_CHECK_THROW(wb::code_digests_of_image("not an ELF file"), std::invalid_argument);
    const std::string image = bytes_of(plugin_of("cpu", "reduce_tree"));
    // Cut before its section headers (at the file's end): they are not within the bytes.
    BOOST_CHECK_THROW(wb::code_digests_of_image(image.substr(0, image.size() - 100)), std::invalid_argument);
    BOOST_CHECK_THROW(wb::code_digests_of("/nonexistent/plugin.so"), wb::file_error);
}

BOOST_AUTO_TEST_CASE(the_registry_digests_each_plugin)
{
    wb::plugin_registry reg(wb::platform_kind::cpu), without(wb::platform_kind::cpu, false);
    reg.add_file(plugin_of("cpu", "reduce_tree"));
    without.add_file(plugin_of("cpu", "reduce_tree"));
    BOOST_REQUIRE_EQUAL(reg.plugins().size(), 1u);
    BOOST_TEST(reg.plugins()[0].code_digest == wb::code_digest(plugin_of("cpu", "reduce_tree")));
    BOOST_TEST(reg.plugins()[0].device_code_digest.empty());
    BOOST_REQUIRE_EQUAL(without.plugins().size(), 1u);
    BOOST_TEST(without.plugins()[0].code_digest.empty()); // a worker's: the harness digests the files
}

namespace {

/// A result of reduce/`variant` with `samples` and the code digest `digest` ("" for none).
json coded(const std::string& variant, const std::string& status, const std::vector<double>& samples,
           const std::string& digest)
{
    json r{{"family", "reduce"},
           {"variant", variant},
           {"params", {{"n", 1024}}},
           {"status", status},
           {"samples_ms", samples}};
    if (!digest.empty()) r["code_digest"] = digest;
    return r;
}

wb::run_input coded_run(const std::string& label, const std::vector<json>& results)
{
    return wb_test::results_run(label, results);
}

std::vector<double> around(double ms)
{
    std::vector<double> x;
    for (int i = 0; i < 25; ++i) x.push_back(ms * (1 + 0.001 * i));
    return x;
}

const json& row_of(const json& cmp, const std::string& variant)
{
    for (const json& e : cmp["configurations"])
        if (e["variant"] == variant) return e;
    BOOST_FAIL("no row " << variant);
    return cmp;
}

} // namespace

BOOST_AUTO_TEST_CASE(the_same_code_is_never_a_regression)
{
    const std::string a(40, 'a'), b(40, 'b');
    // 30% slower: with the same code it is noise, kept as what the times alone would say.
    const auto base =
        coded_run("base", {coded("tree", "verified", around(1.0), a), coded("atomic", "verified", around(1.0), a),
                           coded("strided", "verified", around(1.0), a), coded("chunked", "skipped", {}, a),
                           coded("unrolled", "verified", around(1.0), b)});
    const auto now = coded_run("new", {coded("tree", "verified", around(1.3), a), coded("atomic", "failed", {}, a),
                                       coded("strided", "verified", around(1.0), a), coded("chunked", "skipped", {}, a),
                                       coded("unrolled", "verified", around(1.3), "")});
    const json cmp = wb::compare_runs(base, now, {});
    const json& tree = row_of(cmp, "tree");
    BOOST_TEST(tree["verdict"] == "same-code");
    BOOST_TEST(tree["would_be"] == "slower");
    BOOST_TEST(tree["change"].get<double>() > 0.25); // the times are still there to see
    BOOST_TEST(tree["new"]["code_digest"] == a);
    BOOST_TEST(row_of(cmp, "strided")["would_be"] == "same");
    BOOST_TEST(row_of(cmp, "chunked")["verdict"] == "same-code"); // skipped in both: nothing measured
    BOOST_TEST(!row_of(cmp, "chunked").contains("would_be"));
    BOOST_TEST(row_of(cmp, "atomic")["verdict"] == "failed");   // a flaky kernel is news
    BOOST_TEST(row_of(cmp, "unrolled")["verdict"] == "slower"); // no digest in NEW: its times decide
    BOOST_TEST(cmp["counts"]["same-code"] == 3);
    BOOST_TEST(cmp["same_code_false_alarms"] == 1);
    BOOST_TEST((cmp["regressions"] == json::array({"slower", "failed"})));

    // --ignore-code-digest: the times' verdicts, as before there were digests.
    wb::compare_options ignore;
    ignore.ignore_code_digest = true;
    const json plain = wb::compare_runs(base, now, ignore);
    BOOST_TEST(row_of(plain, "tree")["verdict"] == "slower");
    BOOST_TEST(row_of(plain, "chunked")["verdict"] == "skipped");
    BOOST_TEST(plain["counts"]["same-code"] == 0);
    BOOST_TEST(plain["options"]["ignore_code_digest"] == true);
}

BOOST_AUTO_TEST_CASE(a_digest_that_is_no_digest_names_no_code)
{
    const std::string odd = "same\x1b[31m";
    const auto base = coded_run("base", {coded("tree", "verified", around(1.0), odd)});
    const auto now = coded_run("new", {coded("tree", "verified", around(1.3), odd)});
    const json cmp = wb::compare_runs(base, now, {});
    BOOST_TEST(row_of(cmp, "tree")["verdict"] == "slower");
    BOOST_TEST(row_of(cmp, "tree")["new"]["code_digest"].is_null());
}

BOOST_AUTO_TEST_SUITE_END()
