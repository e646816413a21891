// The machine's ceilings, measured by the platform's kind (ceilings/probe.h): cpu_ceilings.cpp and
// gpu_ceilings.cpp measure, cache.cpp keeps them.
#include "harness/ceilings/probe.h"

namespace wb {

probe_report probe(const std::shared_ptr<platform>& p, size_t bytes)
{
    if (p->kind() == platform_kind::cpu) return probe_cpu(bytes ? bytes : size_t(256) << 20);
    return probe_gpu(p, bytes ? bytes : size_t(1) << 30);
}

} // namespace wb
