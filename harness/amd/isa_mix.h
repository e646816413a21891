// Instruction mix of AMDGPU disassembly: each instruction in one class, by its mnemonic, from one
// table (amd/isa_mix.cpp). Backs `wavebench inspect --isa` and `--pair`.
#pragma once

#include <nlohmann/json.hpp>

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

/// Disjoint classes: branches and waits (s_waitcnt*, gfx12's s_wait_*, gfx11's s_delay_alu) are taken
/// out of the scalar ALU; `other` holds what no rule names (exports; s_endpgm counts as SALU).
enum class isa_class { valu, salu, vmem, smem, lds, branch, waitcnt, other };
constexpr size_t isa_classes = 8;
const char* to_string(isa_class c);

/// The class of one disassembled instruction ("v_add_f32_e32 v0, v1, v2").
isa_class classify(std::string_view instruction);

/// Whether the instruction writes the exec mask: any *saveexec* or *wrexec* instruction, v_cmpx_*
/// (which writes it implicitly), or one whose destination (first operand) is exec, exec_lo or exec_hi.
bool writes_exec(std::string_view instruction);

struct isa_counts {
    std::array<long long, isa_classes> by_class{};
    long long exec_writes = 0, total = 0;
    long long operator[](isa_class c) const { return by_class[size_t(c)]; }
    isa_counts& operator+=(const isa_counts& o);
};

isa_counts count_mix(const std::vector<std::string>& instructions);

/// The mix as table text: the header line (the first two columns named `first` and `second`), and
/// one row (with `sign`, every count with its sign: a difference).
std::string mix_header(const char* first, const char* second);
std::string mix_row(const std::string& target, const std::string& what, const isa_counts& m, bool sign = false);
/// The mix as JSON: {<class>: count, ..., exec_writes, total}.
nlohmann::json mix_json(const isa_counts& m);

} // namespace wb
