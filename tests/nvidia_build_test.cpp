// The nvidia platform as CI builds it, without a GPU: every plugin source compiled through the
// HIP-on-CUDA header, each .so loads, declares platform nvidia, and the set matches the cpu one.
#define BOOST_TEST_MODULE nvidia_build
#include <boost/test/unit_test.hpp>

#include "harness/platform/platform.h"
#include "harness/plugins/plugins.h"

namespace {

std::vector<std::string> names(const wb::plugin_registry& reg)
{
    std::vector<std::string> n;
    for (const auto& p : reg.plugins()) n.push_back(p.name());
    return n;
}

BOOST_AUTO_TEST_CASE(every_plugin_is_built_for_nvidia_and_loads)
{
    const auto build = wb::platform::build_dir();
    wb::plugin_registry cpu("cpu"), nvidia("nvidia");
    cpu.add_directory(build / "plugins" / "cpu");
    nvidia.add_directory(build / "plugins" / "nvidia");
    for (const auto& r : nvidia.rejections()) BOOST_ERROR(r.path.string() + " " + r.reason);
    BOOST_CHECK_GE(nvidia.plugins().size(), 11u);
    const auto a = names(cpu), b = names(nvidia);
    BOOST_CHECK_EQUAL_COLLECTIONS(a.begin(), a.end(), b.begin(), b.end());
    for (const auto& p : nvidia.plugins()) BOOST_CHECK_EQUAL(std::string(p.desc->platform), "nvidia");
}

BOOST_AUTO_TEST_CASE(the_platform_library_loads_and_says_when_there_is_no_gpu)
{
    auto p = wb::platform::load("nvidia");
    BOOST_CHECK_EQUAL(p->name(), "nvidia");
    try {
        p->init(0, 0);
        BOOST_TEST_MESSAGE("a GPU is present: " << p->device().name);
        BOOST_CHECK_EQUAL(p->device().warp_size, 32);
        BOOST_CHECK_THROW(p->init(0, 64), wb::platform_unavailable); // fixed at 32 on NVIDIA
    } catch (const wb::no_device& e) {
        BOOST_CHECK_NE(std::string(e.what()).find("no NVIDIA GPU found"), std::string::npos);
    }
}

} // namespace
