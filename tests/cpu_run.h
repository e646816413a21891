// A cpu-platform run of suite text against the build's plugins (and the test plugins), for the
// families' tests.
#pragma once

#include "harness/measure/runner.h"
#include "harness/platform/platform.h"
#include "harness/plugins/plugins.h"

#include <boost/test/unit_test.hpp>

struct cpu_run {
    cpu_run(int warp_size, bool with_test_plugins) : reg("cpu")
    {
        p = wb::platform::load("cpu");
        p->init(0, warp_size);
        reg.add_directory(wb::platform::build_dir() / "plugins");
        if (with_test_plugins) reg.add_directory(wb::platform::build_dir() / "tests" / "plugins");
        BOOST_REQUIRE(reg.rejections().empty());
    }
    std::vector<wb::result> run(const std::string& text, int repetitions = 2, int verify_every = 10)
    {
        wb::local_executor e(p);
        wb::runner r(e, {});
        return r.run(wb::plan_suite(wb::parse_suite(text, "test.toml"), reg),
                     {repetitions, 1, 7, 0, 100000, 60, verify_every}, [](const std::vector<wb::result>&, size_t) {});
    }
    std::string variants(const std::string& family) const
    {
        std::string names;
        for (const auto* v : reg.of_family(family)) names += (names.empty() ? "" : ",") + v->variant;
        return names;
    }
    std::shared_ptr<wb::platform> p;
    wb::plugin_registry reg;
};

inline std::string describe(const wb::result& r)
{
    return r.family + "/" + r.variant + " " + wb::params_text(r.family_params, r.tunables) + ": " + r.message;
}
