// A kernel's launch in a configuration, asked of the plugin or read from its declaration (launch.h).
#include "harness/plugins/launch.h"

namespace wb {

namespace {

/// The launch as the kernel's declaration gives it: the one fallback, for plugins that cannot be asked.
kernel_launch declared_launch(const plugin& p, const kernel_decl& k, const param_map& tunables)
{
    kernel_launch l;
    if (k.block_size_param.empty()) {
        l.block_size = k.fixed_block_size;
        l.from = "fixed " + std::to_string(k.fixed_block_size);
    } else if (auto it = tunables.find(k.block_size_param); it != tunables.end()) {
        l.block_size = int(std::get<int64_t>(it->second));
        l.from = k.block_size_param + "=" + std::to_string(l.block_size);
    } else {
        if (const tunable_decl* t = p.tunable(k.block_size_param)) l.block_size = int(t->default_value);
        l.from = k.block_size_param + "=" + std::to_string(l.block_size) + " (default)";
    }
    l.dynamic_lds = int64_t(k.lds_bytes_per_thread) * l.block_size;
    return l;
}

} // namespace

kernel_launch resolve_launch(const plugin& p, size_t index, const param_map& tunables, const wb_args* args)
{
    kernel_launch l = declared_launch(p, p.kernels.at(index), tunables);
    const wb_plugin* d = p.desc;
    if (!d || !args) return l;
    if (WB_PLUGIN_HAS(d, launch) && d->launch) {
        wb_launch answer{};
        if (d->launch(args, uint32_t(index), &answer) == WB_OK) {
            l.block_size = answer.block_size;
            l.dynamic_lds = answer.dynamic_lds;
            return l;
        }
    }
    if (d->dynamic_lds) // SDK 2.0: the dynamic LDS of a kernel that computes it
        if (const int64_t bytes = d->dynamic_lds(args, uint32_t(index)); bytes >= 0) l.dynamic_lds = bytes;
    return l;
}

} // namespace wb
