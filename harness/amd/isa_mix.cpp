#include "harness/amd/isa_mix.h"

#include <cstdio>
#include <utility>

namespace wb {

namespace {

/// Mnemonic prefixes, first match wins: the one table of instruction classes, for gfx9 (GCN, CDNA)
/// and gfx10-gfx12 (RDNA 1-4). Waits: gfx9/10's s_waitcnt*, gfx11's s_delay_alu (a wait on an
/// earlier ALU result), gfx12's s_wait_* (loadcnt, storecnt, dscnt, kmcnt, alu...). gfx11's
/// v_dual_* (two VALU operations in one instruction) counts once, as VALU.
constexpr std::pair<std::string_view, isa_class> rules[] = {
    {"s_cbranch_", isa_class::branch},
    {"s_branch", isa_class::branch},
    {"s_setpc_", isa_class::branch},
    {"s_swappc_", isa_class::branch},
    {"s_call_", isa_class::branch},
    {"s_waitcnt", isa_class::waitcnt},
    {"s_wait_", isa_class::waitcnt},
    {"s_delay_alu", isa_class::waitcnt},
    {"s_load_", isa_class::smem},
    {"s_buffer_load_", isa_class::smem},
    {"s_store_", isa_class::smem},
    {"s_buffer_store_", isa_class::smem},
    {"s_scratch_", isa_class::smem},
    {"s_atomic_", isa_class::smem},
    {"s_buffer_atomic_", isa_class::smem},
    {"s_dcache_", isa_class::smem},
    {"s_memtime", isa_class::smem},
    {"s_memrealtime", isa_class::smem},
    {"s_prefetch_", isa_class::smem}, // gfx12
    {"s_atc_probe", isa_class::smem},
    {"s_gl1_inv", isa_class::smem}, // gfx10+
    {"s_", isa_class::salu},
    {"v_", isa_class::valu},
    {"ds_", isa_class::lds},
    {"lds_", isa_class::lds}, // gfx11's lds_param_load, lds_direct_load
    {"buffer_", isa_class::vmem},
    {"tbuffer_", isa_class::vmem},
    {"global_", isa_class::vmem},
    {"flat_", isa_class::vmem},
    {"scratch_", isa_class::vmem},
    {"image_", isa_class::vmem},
};

std::string_view mnemonic(std::string_view instruction)
{
    const size_t b = instruction.find_first_not_of(" \t");
    if (b == std::string_view::npos) return {};
    instruction.remove_prefix(b);
    return instruction.substr(0, instruction.find_first_of(" \t"));
}

} // namespace

const char* to_string(isa_class c)
{
    static const char* const names[] = {"VALU", "SALU", "VMEM", "SMEM", "LDS", "branch", "waitcnt", "other"};
    return names[size_t(c)];
}

isa_class classify(std::string_view instruction)
{
    const std::string_view m = mnemonic(instruction);
    for (const auto& [prefix, c] : rules)
        if (m.substr(0, prefix.size()) == prefix) return c;
    return isa_class::other;
}

bool writes_exec(std::string_view instruction)
{
    const std::string_view m = mnemonic(instruction);
    if (m.find("saveexec") != std::string_view::npos || m.find("wrexec") != std::string_view::npos ||
        m.substr(0, 6) == "v_cmpx")
        return true;
    std::string_view rest = instruction.substr(instruction.find(m) + m.size());
    const size_t b = rest.find_first_not_of(" \t");
    if (b == std::string_view::npos) return false;
    rest.remove_prefix(b);
    const std::string_view dest = rest.substr(0, rest.find_first_of(", \t"));
    return dest == "exec" || dest == "exec_lo" || dest == "exec_hi";
}

isa_counts& isa_counts::operator+=(const isa_counts& o)
{
    for (size_t i = 0; i < isa_classes; ++i) by_class[i] += o.by_class[i];
    exec_writes += o.exec_writes;
    total += o.total;
    return *this;
}

isa_counts count_mix(const std::vector<std::string>& instructions)
{
    isa_counts c;
    for (const auto& i : instructions) {
        ++c.by_class[size_t(classify(i))];
        c.exec_writes += writes_exec(i);
        ++c.total;
    }
    return c;
}

std::string mix_header(const char* first, const char* second)
{
    char line[256];
    std::snprintf(line, sizeof line, "  %-9s %-30s", first, second);
    std::string h = line;
    for (size_t c = 0; c < isa_classes; ++c) {
        std::snprintf(line, sizeof line, " %7s", to_string(isa_class(c)));
        h += line;
    }
    std::snprintf(line, sizeof line, " %7s %7s", "exec", "total");
    return h + line;
}

std::string mix_row(const std::string& target, const std::string& what, const isa_counts& m, bool sign)
{
    char line[256];
    const std::string w = what.size() <= 30 ? what : what.substr(0, 29) + "~";
    std::snprintf(line, sizeof line, "  %-9s %-30s", target.c_str(), w.c_str());
    std::string r = line;
    const char* f = sign ? " %+7lld" : " %7lld";
    for (size_t c = 0; c < isa_classes; ++c) {
        std::snprintf(line, sizeof line, f, m.by_class[c]);
        r += line;
    }
    std::snprintf(line, sizeof line, f, m.exec_writes);
    r += line;
    std::snprintf(line, sizeof line, f, m.total);
    return r + line;
}

nlohmann::json mix_json(const isa_counts& m)
{
    nlohmann::json j;
    for (size_t c = 0; c < isa_classes; ++c) j[to_string(isa_class(c))] = m.by_class[c];
    j["exec_writes"] = m.exec_writes;
    j["total"] = m.total;
    return j;
}

} // namespace wb
