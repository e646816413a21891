// The machine's ceilings, measured by the platform's kind (ceilings/probe.h): cpu_ceilings.cpp and
// gpu_ceilings.cpp measure, cache.cpp keeps them, levels.cpp adds the cpu's read bandwidth at the
// working sets results need.
#include "harness/ceilings/probe.h"

namespace wb {

probe_report probe(const std::shared_ptr<platform>& p, size_t bytes)
{
    if (p->kind() == platform_kind::cpu) {
        probe_report r = probe_cpu(bytes ? bytes : size_t(256) << 20);
        // The read bandwidth at other working sets, measured when a result needs it.
        r.values.on_demand = cpu_levels_on_demand(ceiling_cache_path(*p), r.values.at("read_bandwidth").measured,
                                                  r.details.at("bytes").get<int64_t>(), {});
        return r;
    }
    return probe_gpu(p, bytes ? bytes : size_t(1) << 30);
}

} // namespace wb
