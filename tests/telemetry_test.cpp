// Telemetry (harness/telemetry/): NVML through a fake libnvidia-ml (tests/fake_nvml/), the device
// found by its PCI bus id, throttled runs marked, energy from the counter, clocks locked and
// restored; the cpu's frequency and RAPL from a folder of fake Linux files, or the reason there are
// none; a result's telemetry on the wire and in the results JSON.
#include <boost/test/unit_test.hpp>

#include "harness/telemetry/clock_lock.h"
#include "harness/telemetry/record.h"
#include "harness/telemetry/sensors.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>
#include <unistd.h>

BOOST_AUTO_TEST_SUITE(telemetry_test)

namespace fs = std::filesystem;
using namespace wb;

namespace {

/// The fake NVML, and a state file it writes what was locked into.
struct fake_nvml {
    fake_nvml()
    {
        ::setenv("WAVEBENCH_NVML_LIBRARY", FAKE_NVML, 1);
        ::setenv("WAVEBENCH_FAKE_NVML_STATE", state.c_str(), 1);
        ::unsetenv("WAVEBENCH_FAKE_NVML_REASONS");
        ::unsetenv("WAVEBENCH_FAKE_NVML_DENY");
    }
    ~fake_nvml() { fs::remove(state); }
    std::string read_state() const
    {
        std::ifstream f(state);
        std::string line;
        std::getline(f, line);
        return line;
    }
    std::string state = (fs::temp_directory_path() / ("wb-fake-nvml-" + std::to_string(::getpid()))).string();
};

wb_device_info device_at(const char* pci)
{
    wb_device_info info{};
    std::strncpy(info.pci_bus_id, pci, sizeof info.pci_bus_id - 1);
    return info;
}

/// A folder of fake Linux files (WAVEBENCH_TELEMETRY_ROOT), removed at the end.
struct fake_linux {
    using files = std::vector<std::pair<std::string, std::string>>;
    explicit fake_linux(const files& files)
    {
        for (const auto& [path, text] : files) {
            fs::create_directories((root / path.substr(1)).parent_path());
            std::ofstream(root / path.substr(1)) << text;
        }
        ::setenv("WAVEBENCH_TELEMETRY_ROOT", root.c_str(), 1);
    }
    ~fake_linux()
    {
        ::unsetenv("WAVEBENCH_TELEMETRY_ROOT");
        fs::remove_all(root);
    }
    fs::path root = fs::temp_directory_path() / ("wb-fake-linux-" + std::to_string(::getpid()));
};

} // namespace

BOOST_AUTO_TEST_CASE(nvml_finds_the_device_by_its_pci_bus_id)
{
    fake_nvml fake;
    std::string why;
    auto second = open_nvml_sensors(device_at("0000:2a:00.0"), why);
    BOOST_REQUIRE_MESSAGE(second, why);
    BOOST_TEST(second->source() == "nvml");
    const reading r = second->read();
    BOOST_TEST(r.sm_mhz == 1410);
    BOOST_TEST(r.mem_mhz == 1593);
    BOOST_TEST(r.temp_c == 37);
    BOOST_TEST(r.power_w == 90.0, boost::test_tools::tolerance(1e-9));
    auto first = open_nvml_sensors(device_at("0000:1B:00.0"), why);
    BOOST_REQUIRE(first);
    BOOST_TEST(first->read().sm_mhz == 1980);
    BOOST_TEST(!open_nvml_sensors(device_at("0000:99:00.0"), why));
    BOOST_TEST(why.find("0000:99:00.0") != std::string::npos);
    BOOST_TEST(why.find("Not Found") != std::string::npos);
    BOOST_TEST(!open_nvml_sensors(device_at(""), why));
    BOOST_TEST(why.find("no PCI bus id") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(idle_and_set_clocks_are_no_throttling_the_rest_is)
{
    fake_nvml fake;
    std::string why;
    auto s = open_nvml_sensors(device_at("0000:1b:00.0"), why);
    BOOST_REQUIRE(s);
    for (const char* bits : {"0", "1", "2", "3"}) {
        ::setenv("WAVEBENCH_FAKE_NVML_REASONS", bits, 1);
        BOOST_TEST(!s->read().throttled, bits);
    }
    ::setenv("WAVEBENCH_FAKE_NVML_REASONS", "44", 1); // sw power cap, hw thermal slowdown
    const reading r = s->read();
    BOOST_TEST(r.throttled);
    BOOST_TEST(s->reasons_text(r.reasons) == "sw_power_cap, hw_thermal_slowdown");
}

BOOST_AUTO_TEST_CASE(a_sampler_marks_and_counts_the_throttled_runs)
{
    fake_nvml fake;
    telemetry_record rec;
    telemetry_sampler sampler(platform_kind::nvidia, device_at("0000:1b:00.0"), rec);
    BOOST_REQUIRE_MESSAGE(sampler.sensors(), rec.unavailable);
    sampler.after_run();
    ::setenv("WAVEBENCH_FAKE_NVML_REASONS", "4", 1);
    sampler.after_run();
    ::setenv("WAVEBENCH_FAKE_NVML_REASONS", "0", 1);
    sampler.after_run();
    BOOST_TEST(rec.sm_mhz.size() == 3u);
    BOOST_TEST(rec.throttled == std::vector<int>{1});
    BOOST_TEST(rec.throttle_reasons == "sw_power_cap");
    BOOST_TEST(throttle_marker(rec) == "throttled 1/3");
    const auto j = telemetry_json(rec);
    BOOST_TEST(j["throttled"] == 1);
    BOOST_TEST(j["sm_mhz"]["median"] == 1980.0);
    BOOST_TEST(j["per_run"]["throttled_runs"] == nlohmann::json::array({1}));
    const telemetry_record back = telemetry_from_wire(telemetry_wire(rec));
    BOOST_TEST(back.sm_mhz == rec.sm_mhz);
    BOOST_TEST(back.throttled == rec.throttled);
    BOOST_TEST(back.reasons == rec.reasons);
    BOOST_TEST(telemetry_from_wire(nlohmann::json()).source.empty());
}

BOOST_AUTO_TEST_CASE(energy_over_a_loop_between_moves_of_the_counter)
{
    fake_nvml fake;
    std::string why;
    auto s = open_nvml_sensors(device_at("0000:1b:00.0"), why); // 300 W
    BOOST_REQUIRE(s);
    telemetry_record rec;
    measure_energy(
        s.get(), [] { std::this_thread::sleep_for(std::chrono::milliseconds(2)); }, 1e6, "B", rec);
    BOOST_REQUIRE_MESSAGE(rec.energy_j > 0, rec.energy_unavailable);
    BOOST_TEST(rec.energy_s >= energy_loop_s);
    BOOST_TEST(rec.energy_j / rec.energy_s == 300.0, boost::test_tools::tolerance(0.05));
    BOOST_TEST(rec.energy_resolution_j == 1e-3);
    BOOST_TEST(rec.energy_per_unit_j == rec.energy_j / rec.energy_runs / 1e6, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(energy_json(rec)["unit"] == "B");
    telemetry_record none;
    measure_energy(
        nullptr, [] {}, 1, "B", none);
    BOOST_TEST(none.energy_j < 0);
    BOOST_TEST(energy_json(none)["joules"].is_null());
}

BOOST_AUTO_TEST_CASE(clocks_locked_and_restored_or_the_rights_named)
{
    fake_nvml fake;
    std::string why;
    auto l = nvml_locker_for("0000:1b:00.0", why);
    BOOST_REQUIRE_MESSAGE(l, why);
    BOOST_TEST(l->lock(0).find("1755 MHz (the default application clock)") != std::string::npos);
    BOOST_TEST(fake.read_state() == "locked 0000:1b:00.0 1755 1755");
    BOOST_TEST(l->restore() == "");
    BOOST_TEST(fake.read_state() == "reset 0000:1b:00.0");
    BOOST_TEST(l->lock(1410).find("1410 MHz (as asked)") != std::string::npos); // --lock-clocks=1410
    BOOST_TEST(fake.read_state() == "locked 0000:1b:00.0 1410 1410");
    BOOST_TEST(l->restore() == "");
    BOOST_TEST(fake.read_state() == "reset 0000:1b:00.0");
    ::setenv("WAVEBENCH_FAKE_NVML_DENY", "1", 1);
    auto denied = nvml_locker_for("0000:2a:00.0", why);
    BOOST_REQUIRE(denied);
    try {
        denied->lock(0);
        BOOST_FAIL("locked without the rights");
    } catch (const std::runtime_error& e) {
        BOOST_TEST(std::string(e.what()).find("Insufficient Permissions") != std::string::npos);
        BOOST_TEST(std::string(e.what()).find("needs root") != std::string::npos);
    }
}

BOOST_AUTO_TEST_CASE(the_cpu_frequency_from_cpufreq_or_proc_cpuinfo_or_why_not)
{
    std::string why;
    {
        fake_linux fl(fake_linux::files{{"/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "2400000\n"}});
        auto s = open_cpu_sensors(why);
        BOOST_REQUIRE(s);
        BOOST_TEST(s->source() == "cpufreq");
        // The core the thread is on may not be cpu0: its file is missing, so no figure, not a wrong one.
        const double mhz = s->read().sm_mhz;
        BOOST_TEST((mhz == 2400 || mhz < 0));
    }
    {
        fake_linux fl(fake_linux::files{{"/proc/cpuinfo", "processor\t: 0\ncpu MHz\t\t: 2999.5\n"}});
        auto s = open_cpu_sensors(why);
        BOOST_REQUIRE(s);
        BOOST_TEST(s->source() == "proc-cpuinfo");
        BOOST_TEST(s->read().sm_mhz == 2999.5);
        BOOST_TEST(!s->energy());
        BOOST_TEST(s->energy_unavailable().find("RAPL") != std::string::npos);
    }
    {
        fake_linux fl(fake_linux::files{{"/nothing", ""}});
        BOOST_TEST(!open_cpu_sensors(why));
        BOOST_TEST(why.find("Linux gives no frequency") != std::string::npos);
    }
}

BOOST_AUTO_TEST_CASE(rapl_energy_where_readable)
{
    fake_linux fl(fake_linux::files{{"/proc/cpuinfo", "cpu MHz\t: 2000\n"},
                                    {"/sys/class/powercap/intel-rapl:0/energy_uj", "5000000\n"}});
    std::string why;
    auto s = open_cpu_sensors(why);
    BOOST_REQUIRE(s);
    const auto e = s->energy();
    BOOST_REQUIRE(e);
    BOOST_TEST(e->joules == 5.0);
    BOOST_TEST(e->resolution_j == 1e-6);
    telemetry_record rec; // a counter that never moves: said so, no figure
    measure_energy(
        s.get(), [] {}, 1, "B", rec);
    BOOST_TEST(rec.energy_j < 0);
    BOOST_TEST(rec.energy_unavailable.find("did not move") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(units_of_work_and_energy_text)
{
    BOOST_TEST(work_unit("GB/s") == "B");
    BOOST_TEST(work_unit("GMAC/s") == "MAC");
    BOOST_TEST(work_unit("Gelem/s") == "elem");
    telemetry_record t;
    t.work_unit = "B";
    BOOST_TEST(energy_text(t) == "");
    t.energy_per_unit_j = 12.3e-12;
    BOOST_TEST(energy_text(t) == "12.3 pJ/B");
    t.energy_per_unit_j = 0.25e-9;
    BOOST_TEST(energy_text(t) == "250 pJ/B");
}

BOOST_AUTO_TEST_SUITE_END()
