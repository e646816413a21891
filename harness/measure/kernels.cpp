// A configuration's kernels: launch, resources, occupancy and AMD static figures (measure/kernels.h).
#include "harness/measure/kernels.h"

#include "core/occupancy.h"
#include "harness/plugins/launch.h"

#include <algorithm>

namespace wb {

namespace {

/// Resident warps (waves) per multiprocessor over the maximum, and what limits them: the runtime's
/// figure, with the occupancy model of the platform's vendor naming the limit.
occupancy describe_occupancy(platform_kind kind, const wb_device_info& d, const wb_kernel_resources& r, int block,
                             int64_t dynamic_lds)
{
    occupancy o;
    o.blocks = r.active_blocks;
    if (kind == platform_kind::cpu) {
        o.value = r.active_blocks;
        o.max = 1;
        o.unit = "blocks per worker";
        o.limiter = r.active_blocks ? "one block per worker thread" : "block size";
        return o;
    }
    const int warps_per_block = (block + d.warp_size - 1) / d.warp_size;
    const int64_t lds = std::max<int64_t>(r.static_shared_bytes, 0) + dynamic_lds;
    o.value = double(r.active_blocks * warps_per_block);
    o.max = double(d.max_threads_per_multiprocessor / d.warp_size);
    if (kind == platform_kind::amd) {
        o.unit = "waves per CU";
        const amd_target* t = find_amd_target(d.arch);
        if (!t) return o; // a target the table lacks: waves per CU, as the runtime counts them
        // The runtime counts whole work-groups per CU (per WGP on gfx10+); the model spreads them
        // over the SIMDs by the same rule as `inspect`, and names the limiter where it agrees.
        const auto e = amd_occupancy(*t, {r.registers, 0, 0, lds, block, d.warp_size});
        o.value = amd_waves_per_simd(e, r.active_blocks);
        o.max = t->r.max_waves;
        o.unit = "waves per SIMD";
        o.limiter = e.workgroups == r.active_blocks
                        ? e.limiter
                        : "unknown (the model says " + std::to_string(e.workgroups) +
                              " work-groups per CU, the runtime " + std::to_string(r.active_blocks) + ")";
        return o;
    }
    o.unit = "warps per SM"; // nvidia
    if (d.max_blocks_per_multiprocessor > 0) {
        nvidia_sm sm;
        sm.max_threads = d.max_threads_per_multiprocessor;
        sm.max_blocks = d.max_blocks_per_multiprocessor;
        sm.registers = d.regs_per_multiprocessor;
        sm.shared_bytes = d.shared_per_multiprocessor;
        sm.reserved_shared = d.reserved_shared_per_block;
        sm.warp_size = d.warp_size;
        const auto e = nvidia_occupancy(sm, {block, r.registers, lds});
        // The runtime's figure is the truth; the model only names what limits it.
        o.limiter = e.blocks == r.active_blocks ? e.limiter
                                                : "unknown (the model says " + std::to_string(e.blocks) +
                                                      " blocks, the runtime " + std::to_string(r.active_blocks) + ")";
    }
    return o;
}

} // namespace

std::vector<kernel_report> kernels_of(const platform& p, const config& c, const wb_args& args)
{
    std::vector<kernel_report> out;
    const wb_plugin& d = *c.plug->desc;
    for (uint32_t i = 0; i < d.n_kernels; ++i) {
        const wb_kernel& k = d.kernels[i];
        if (k.when_param) { // an instance for another value of a tunable: it does not run here
            const auto it = c.tunables.find(k.when_param);
            if (it == c.tunables.end() || std::get<int64_t>(it->second) != k.when_value) continue;
        }
        kernel_report r;
        r.name = k.name ? k.name : "?";
        const kernel_launch launch = resolve_launch(*c.plug, i, c.tunables, &args);
        r.block_size = launch.block_size;
        r.dynamic_lds_bytes = launch.dynamic_lds;
        if (!p.api().kernel_resources(k.fn, r.block_size, uint64_t(r.dynamic_lds_bytes), &r.resources))
            r.occ = describe_occupancy(p.kind(), p.device(), r.resources, r.block_size, r.dynamic_lds_bytes);
        out.push_back(std::move(r));
    }
    return out;
}

void amd_static_figures::attach(const config& c, std::vector<kernel_report>& kernels)
{
    const auto twin = amd_twin(c.plug->path);
    std::string why;
    const std::vector<amd_kernel_figures>* figures = nullptr;
    if (!twin) {
        why = "no amd build of " + c.plug->path.filename().string() + " (the amd platform needs hipcc)";
    } else if (auto it = files_.find(twin->string()); it != files_.end()) {
        figures = &it->second;
    } else {
        try {
            figures = &(files_[twin->string()] = read_amd_kernels(*twin));
        } catch (const std::exception& e) {
            why = e.what();
        }
    }
    for (auto& k : kernels) {
        if (!figures) {
            k.amd_missing = why;
            continue;
        }
        k.amd.emplace();
        for (const auto& f : *figures)
            if (f.name == k.name) k.amd->push_back(judge(f, k.block_size, k.dynamic_lds_bytes, "this configuration"));
    }
}

void describe_counters(counter_readings& c, const std::vector<kernel_report>& kernels, const wb_device_info& d)
{
    std::vector<std::string> names;
    for (const auto& k : kernels) names.push_back(k.name);
    name_launches(c, names);
    for (auto& l : c.launches)
        for (const auto& k : kernels)
            if (k.name == l.kernel && k.occ && k.occ->max > 0 && k.occ->unit == "warps per SM")
                explain_occupancy(l, k.occ->value / k.occ->max, k.occ->blocks, d.multiprocessors, k.occ->limiter);
}

} // namespace wb
