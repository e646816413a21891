// The ceiling a result is set against (ceiling_for): on cpu the read bandwidth at its working set's
// own size, not the next size the probe measured (issue 32); DRAM's where the data is in DRAM; the
// sizes levels are measured at; and the levels measured on demand kept in the cache.
#include <boost/test/unit_test.hpp>

#include "harness/ceilings/probe.h"
#include "harness/common/files.h"
#include "harness/common/json.h"

#include <cmath>
#include <filesystem>
#include <functional>
#include <unistd.h>

BOOST_AUTO_TEST_SUITE(ceilings_test)

namespace {

constexpr int64_t MiB = int64_t(1) << 20;

/// Levels on demand at rates a test gives, counting what it was asked.
struct fake_levels : wb::ceiling_levels_on_demand {
    std::function<double(int64_t)> gbs;
    std::vector<int64_t> asked;
    std::map<std::string, wb::ceiling> handed;

    int64_t max_bytes() const override { return 256 * MiB; }
    std::optional<wb::named_ceiling> level(const std::string& name, int64_t bytes, double) override
    {
        asked.push_back(bytes);
        wb::named_ceiling l{wb::level_name(name, bytes), {gbs(bytes), "GB/s", "fake", "now"}};
        handed.insert(l);
        return l;
    }
    std::map<std::string, wb::ceiling> handed_out() const override { return handed; }
};

/// The probe's ceilings on a cpu like this one: DRAM 30 GB/s, the caches faster at 1 to 16 MiB,
/// 64 MiB about DRAM's; levels on demand from `gbs`.
wb::ceilings cpu_ceilings(std::shared_ptr<fake_levels> on_demand)
{
    wb::ceilings c{
        {"read_bandwidth", {30, "GB/s", "read, 256 MiB", "t"}},  {"read_bandwidth@1MiB", {150, "GB/s", "1 MiB", "t"}},
        {"read_bandwidth@4MiB", {60, "GB/s", "4 MiB", "t"}},     {"read_bandwidth@16MiB", {55, "GB/s", "16 MiB", "t"}},
        {"read_bandwidth@64MiB", {30.5, "GB/s", "64 MiB", "t"}}, {"imad_rate", {40, "GMAC/s", "imad", "t"}}};
    c.on_demand = std::move(on_demand);
    return c;
}

/// A reduce's working set on a host without a known cache: two copies of n ints and the output.
int64_t reduce_bytes(int64_t n) { return 2 * n * 4 + 4; }

nlohmann::json read(const std::filesystem::path& f)
{
    return wb::parse_json(wb::read_input(f, "test cache", wb::text_input_limit));
}

std::string chosen(const wb::ceilings& c, int64_t bytes, const std::string& name = "read_bandwidth")
{
    const auto got = wb::ceiling_for(c, name, bytes);
    return got ? got->first : "none";
}

} // namespace

BOOST_AUTO_TEST_CASE(level_sizes_are_4_percent_apart_and_hold_the_probes_own)
{
    for (int64_t mib : {1, 4, 16, 64}) BOOST_TEST(wb::level_bytes(mib * MiB) == mib * MiB);
    BOOST_TEST(wb::level_bytes(4 * MiB + 4) == 4 * MiB); // just above a probed size: that size
    BOOST_TEST(wb::level_bytes(reduce_bytes(4194304)) == 32 * MiB);
    BOOST_TEST(wb::level_name("read_bandwidth", wb::level_bytes(reduce_bytes(3000000))) == "read_bandwidth@22.6MiB");
    BOOST_TEST(wb::level_name("read_bandwidth", 4 * MiB) == "read_bandwidth@4MiB");
    BOOST_TEST(wb::level_bytes(1000) == 64 * 1024); // the smallest level
    for (int64_t bytes = 100000; bytes < 300 * MiB; bytes = bytes * 21 / 20) {
        const int64_t at = wb::level_bytes(bytes);
        BOOST_TEST(std::abs(std::log2(double(at) / double(bytes))) <= 1.0 / 32 + 1e-6); // within 2.2%
        BOOST_TEST(wb::level_bytes(at) == at);
        BOOST_TEST(at % 64 == 0);
    }
    BOOST_TEST(wb::level_bytes(23 * MiB) == wb::level_bytes(23 * MiB + MiB / 10)); // one bucket
    BOOST_TEST(wb::level_bytes(23 * MiB) != wb::level_bytes(24 * MiB));
}

BOOST_AUTO_TEST_CASE(a_working_set_just_above_a_probed_size_is_set_against_its_own_size)
{
    // Issue 32: 22.9 MiB was set against the 64 MiB level (DRAM's rate) though the caches serve it.
    auto levels = std::make_shared<fake_levels>();
    levels->gbs = [](int64_t bytes) { return bytes < 40 * MiB ? 45.0 : 30.0; };
    const wb::ceilings c = cpu_ceilings(levels);
    BOOST_TEST(chosen(c, reduce_bytes(3000000)) == "read_bandwidth@22.6MiB");
    BOOST_TEST(levels->asked == std::vector<int64_t>{wb::level_bytes(reduce_bytes(3000000))});
    BOOST_TEST(wb::ceiling_for(c, "read_bandwidth", reduce_bytes(3000000))->second.value == 45);
    // 4 MiB and 4 bytes: the probe's 4 MiB level, not 16 MiB's, and nothing measured again.
    BOOST_TEST(chosen(c, 4 * MiB + 4) == "read_bandwidth@4MiB");
    BOOST_TEST(levels->asked.size() == 2u); // the 22.6 MiB level again: asked, kept by the source
    BOOST_TEST(chosen(c, reduce_bytes(4194304)) == "read_bandwidth@32MiB");
    // The results' ceilings name every level a result was set against.
    const nlohmann::json j = wb::ceilings_json(c);
    BOOST_TEST(j.contains("read_bandwidth@22.6MiB"));
    BOOST_TEST(j.contains("read_bandwidth@32MiB"));
    BOOST_TEST(j.contains("read_bandwidth@64MiB"));
    BOOST_TEST(j["read_bandwidth@22.6MiB"]["value"].get<double>() == 45);
}

BOOST_AUTO_TEST_CASE(data_in_dram_is_set_against_drams_own_ceiling)
{
    auto levels = std::make_shared<fake_levels>();
    levels->gbs = [](int64_t bytes) { return bytes < 40 * MiB ? 45.0 : 31.4; };
    const wb::ceilings c = cpu_ceilings(levels);
    BOOST_TEST(chosen(c, reduce_bytes(5000000)) == "read_bandwidth@38.1MiB"); // still 1.5x DRAM
    BOOST_TEST(chosen(c, reduce_bytes(6000000)) == "read_bandwidth");         // 31.4: within 5% of DRAM
    levels->gbs = [](int64_t) { return 28.0; };
    BOOST_TEST(chosen(c, reduce_bytes(7000000)) == "read_bandwidth"); // slower than DRAM: noise
    // From the probe's 64 MiB on, which reads like DRAM (30.5), all is DRAM's: nothing measured.
    const size_t asked = levels->asked.size();
    BOOST_TEST(chosen(c, 63 * MiB) == "read_bandwidth");
    BOOST_TEST(chosen(c, reduce_bytes(20000000)) == "read_bandwidth");
    BOOST_TEST(chosen(c, 300 * MiB) == "read_bandwidth");
    BOOST_TEST(levels->asked.size() == asked);
}

BOOST_AUTO_TEST_CASE(where_the_caches_raise_every_probed_size_only_the_probes_own_is_drams)
{
    // A last-level cache of 260 MiB: 64 MiB still reads faster than DRAM.
    auto levels = std::make_shared<fake_levels>();
    levels->gbs = [](int64_t bytes) { return bytes < 200 * MiB ? 35.0 : 24.0; };
    wb::ceilings c = cpu_ceilings(levels);
    c["read_bandwidth@64MiB"].value = 42.5;
    BOOST_TEST(chosen(c, reduce_bytes(20000000)) == "read_bandwidth@152MiB");
    BOOST_TEST(chosen(c, 250 * MiB) == "read_bandwidth");     // its level, 245 MiB, reads like DRAM
    BOOST_TEST(chosen(c, 256 * MiB + 4) == "read_bandwidth"); // 16 copies of 4,194,304 ints and the output
    BOOST_TEST(levels->asked.size() == 2u);                   // 256 MiB and 4 bytes: the probe's own size, not asked
}

BOOST_AUTO_TEST_CASE(ceilings_without_levels_or_without_levels_on_demand)
{
    auto levels = std::make_shared<fake_levels>();
    levels->gbs = [](int64_t) { return 99.0; };
    wb::ceilings c = cpu_ceilings(levels);
    BOOST_TEST(chosen(c, 123456789, "imad_rate") == "imad_rate"); // no levels: the ceiling itself
    BOOST_TEST(chosen(c, 1000, "copy_bandwidth") == "none");
    BOOST_TEST(levels->asked.empty());
    c.on_demand.reset(); // the probe's levels alone: the smallest that holds the working set
    BOOST_TEST(chosen(c, 4 * MiB + 4) == "read_bandwidth@16MiB");
    BOOST_TEST(chosen(c, 100) == "read_bandwidth@1MiB");
    BOOST_TEST(chosen(c, 65 * MiB) == "read_bandwidth");
    c["read_bandwidth@2.5MiB"] = {80, "GB/s", "2.5 MiB", "t"};
    BOOST_TEST(chosen(c, 2 * MiB) == "read_bandwidth@2.5MiB");
    // A level on demand that could not be measured: the same.
    auto failing = std::make_shared<fake_levels>();
    failing->gbs = [](int64_t) { return 0.0; };
    c = cpu_ceilings(failing);
    BOOST_TEST(chosen(c, 4 * MiB + MiB / 2) == "read_bandwidth@16MiB");
}

BOOST_AUTO_TEST_CASE(levels_measured_on_demand_are_kept_in_the_probes_cache_only)
{
    const auto dir = std::filesystem::temp_directory_path() / ("wb-ceilings-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto cache = dir / "ceilings.json";
    auto write_cache = [&](const std::string& stamp) {
        wb::write_json(cache, {{"probe_version", wb::probe_version},
                               {"ceilings", {{"read_bandwidth", {{"value", 30}, {"measured", stamp}}}}}});
    };
    write_cache("probe-1");
    auto levels = wb::cpu_levels_on_demand(cache, "probe-1", 8 * MiB, {});
    BOOST_TEST(!levels->level("copy_bandwidth", MiB, 0));     // only the read bandwidth has levels
    BOOST_TEST(!levels->level("read_bandwidth", 8 * MiB, 0)); // the probe's own size: DRAM's
    const std::string name = wb::level_name("read_bandwidth", wb::level_bytes(3 * MiB));
    BOOST_TEST(name == "read_bandwidth@2.95MiB");
    const auto l = levels->level("read_bandwidth", wb::level_bytes(3 * MiB), 0);
    BOOST_REQUIRE(l);
    BOOST_TEST(l->first == name);
    BOOST_TEST(l->second.value > 0);
    BOOST_TEST(l->second.unit == "GB/s");
    BOOST_TEST(read(cache)["levels_on_demand"][name]["value"].get<double>() == l->second.value);
    BOOST_TEST(levels->handed_out().size() == 1u);
    // Asked again: the level kept, not measured again.
    BOOST_TEST(levels->level("read_bandwidth", wb::level_bytes(3 * MiB), 0)->second.measured == l->second.measured);
    // A result read faster than the level: it is measured once more, and the higher kept.
    const double again = levels->level("read_bandwidth", wb::level_bytes(3 * MiB), 1e9)->second.value;
    BOOST_TEST(again >= l->second.value);
    BOOST_TEST(read(cache)["levels_on_demand"][name]["value"].get<double>() == again);
    // Another probe since: its cache gets none of the old probe's levels.
    write_cache("probe-2");
    BOOST_TEST(levels->level("read_bandwidth", 2 * MiB, 0).has_value());
    BOOST_TEST(!read(cache).contains("levels_on_demand"));
    std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
