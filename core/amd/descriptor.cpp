// The AMD code-object reader's kernel descriptors (<kernel>.kd, amdhsa's kernel_descriptor_t):
// found through the symbol table, and checked against each kernel's metadata.
#include "core/amd/reader.h"

#include <map>

namespace wb::amd_inspect {

namespace {

/// A kernel descriptor (amdhsa's kernel_descriptor_t, 64 bytes): the fields checked against the
/// kernel's metadata.
struct descriptor {
    uint32_t group_segment_fixed_size; // offset 0
    uint32_t private_segment_fixed_size;
    uint32_t kernarg_size;
    uint32_t compute_pgm_rsrc3; // offset 44
    uint32_t compute_pgm_rsrc1;
    uint16_t kernel_code_properties; // offset 56
};
constexpr uint64_t descriptor_size = 64;

/// The kernel descriptors of `co` by symbol name: each STT_OBJECT symbol of its symbol table named
/// "<kernel>.kd".
std::map<std::string, descriptor> descriptors_of(span co)
{
    const elf_ptr owner = open_elf(co);
    Elf* elf = owner.get();
    if (!elf) throw bad_input("ELF header", std::string("libelf cannot read its code object: ") + elf_errmsg(-1));
    std::map<std::string, descriptor> out;
    bool symtab = false;
    for (Elf_Scn* scn = nullptr; (scn = elf_nextscn(elf, scn));) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB) continue;
        symtab = true;
        Elf_Data* syms = elf_getdata(scn, nullptr);
        for (size_t i = 0; syms && i < sh.sh_size / sizeof(Elf64_Sym); ++i) {
            GElf_Sym sym;
            if (!gelf_getsym(syms, int(i), &sym) || GELF_ST_TYPE(sym.st_info) != STT_OBJECT) continue;
            const char* found = elf_strptr(elf, sh.sh_link, sym.st_name);
            const std::string_view name = found ? found : "";
            if (!name.ends_with(".kd")) continue;
            if (!printable(name, max_name + 3))
                throw bad_input("symbol table", "a kernel descriptor's symbol name is not printable ASCII");
            const std::string what = "the kernel descriptor " + std::string(name);
            if (sym.st_size != descriptor_size)
                throw bad_input("st_size", what + " is " + std::to_string(sym.st_size) + " bytes, not 64");
            // Its section's bounds checked here: check_code_object leaves SHT_NULL's unchecked.
            GElf_Shdr in;
            if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE ||
                !gelf_getshdr(elf_getscn(elf, sym.st_shndx), &in) || in.sh_type != SHT_PROGBITS ||
                !within(in.sh_offset, in.sh_size, co.size) || sym.st_value < in.sh_addr ||
                !within(sym.st_value - in.sh_addr, descriptor_size, in.sh_size))
                throw bad_input("st_value", what + " lies outside the section it names");
            const char* p = co.data + in.sh_offset + (sym.st_value - in.sh_addr);
            descriptor d;
            std::memcpy(&d.group_segment_fixed_size, p, 4);
            std::memcpy(&d.private_segment_fixed_size, p + 4, 4);
            std::memcpy(&d.kernarg_size, p + 8, 4);
            std::memcpy(&d.compute_pgm_rsrc3, p + 44, 4);
            std::memcpy(&d.compute_pgm_rsrc1, p + 48, 4);
            std::memcpy(&d.kernel_code_properties, p + 56, 2);
            if (!out.emplace(name, d).second) throw bad_input("symbol table", what + " is in it twice");
        }
    }
    if (!symtab)
        throw bad_input("symbol table", "its code object has no symbol table: its kernel descriptors cannot be found");
    return out;
}

/// What a descriptor encodes for `count` registers allocated in granules of `granule`: the
/// granules, at least one, less one.
int64_t granules(int64_t count, int granule) { return std::max<int64_t>((count + granule - 1) / granule, 1) - 1; }

/// Throws unless kernel `k`'s metadata agrees with its descriptor `d` on processor `p`: each rule
/// as LLVM 15 to 22 write both (AMDGPUAsmPrinter), and held by every kernel of the plugins' builds.
/// What no second source records (spill counts, the max flat workgroup size, the low bits of the
/// register counts within their granule, and how many more registers than it uses LLVM 22 gives a
/// kernel) cannot be checked.
void check_descriptor(const kernel& k, const descriptor& d, const gpu::processor& p)
{
    const std::string who = "kernel " + k.name + ": ";
    auto differ = [&](const char* field, int64_t meta, int64_t desc, const std::string& what) {
        throw bad_input(field, who + field + " is " + std::to_string(meta) + " in the metadata, " + what + " " +
                                   std::to_string(desc) + " in its descriptor " + k.symbol);
    };
    if (k.lds != d.group_segment_fixed_size)
        differ(".group_segment_fixed_size", k.lds, d.group_segment_fixed_size, "group_segment_fixed_size");
    if (k.scratch != d.private_segment_fixed_size)
        differ(".private_segment_fixed_size", k.scratch, d.private_segment_fixed_size, "private_segment_fixed_size");
    if (k.kernarg_size != d.kernarg_size)
        differ(".kernarg_segment_size", k.kernarg_size, d.kernarg_size, "kernarg_size");
    const bool wave32 = d.kernel_code_properties & (1u << 10); // ENABLE_WAVEFRONT_SIZE32
    if (k.warp_size != (wave32 ? 32 : 64)) differ(".wavefront_size", k.warp_size, wave32 ? 32 : 64, "wavefront size");
    if (wave32 && p.major < 10)
        throw bad_input(".wavefront_size",
                        who + "it is built for wave32 on " + std::string(p.name) + ", which runs wave64 only");
    // compute_pgm_rsrc1: GRANULATED_WORKITEM_VGPR_COUNT (bits 0-5) and, in granules of 8,
    // GRANULATED_WAVEFRONT_SGPR_COUNT (bits 6-9; 0 allowed from gfx10, where it is reserved).
    const bool unified = p.agpr == gpu::agprs::unified;
    const int vgpr_granule = wave32 ? p.vgpr_encoding32 : unified ? 8 : 4;
    const int64_t vgpr_bits = d.compute_pgm_rsrc1 & 0x3f, sgpr_bits = (d.compute_pgm_rsrc1 >> 6) & 0xf;
    // LLVM 22 may allocate more registers than the kernel uses, up to what keeps the occupancy it
    // computed (a kernel of 24 VGPRs and 8 SGPRs in 576-item work-groups on gfx942 is given 72 and
    // 88): never fewer.
    if (granules(k.vgprs, vgpr_granule) > vgpr_bits)
        differ(".vgpr_count", k.vgprs, vgpr_bits,
               "more than it allocates, granulated (of " + std::to_string(vgpr_granule) + ") as");
    if (granules(k.sgprs, 8) > sgpr_bits && !(sgpr_bits == 0 && p.major >= 10))
        differ(".sgpr_count", k.sgprs, sgpr_bits, "more than it allocates, granulated (of 8) as");
    // AGPRs: in a file of their own (gfx908) .vgpr_count is the larger count; in one file with the
    // VGPRs (gfx90a) they start at ACCUM_OFFSET (compute_pgm_rsrc3 bits 0-5, in 4s, less 1), after
    // the VGPRs rounded up to 4, and .vgpr_count counts both.
    const int64_t agprs = k.agprs.value_or(0);
    if (p.agpr == gpu::agprs::none && agprs != 0)
        throw bad_input(".agpr_count",
                        who + ".agpr_count is " + std::to_string(agprs) + " on " + p.name + ", which has none");
    if (p.agpr != gpu::agprs::none && !k.agprs) throw bad_input(".agpr_count", who + "the metadata has no .agpr_count");
    if (agprs > k.vgprs)
        throw bad_input(".agpr_count", who + ".agpr_count (" + std::to_string(agprs) + ") is more than .vgpr_count (" +
                                           std::to_string(k.vgprs) + "), which includes them");
    if (unified) {
        const int64_t accum = d.compute_pgm_rsrc3 & 0x3f, vgprs = k.vgprs - agprs;
        const bool ok =
            agprs > 0 ? vgprs == 4 * (accum + 1) || (vgprs == 0 && accum == 0) : granules(vgprs, 4) == accum;
        if (!ok)
            throw bad_input(".agpr_count", who + ".agpr_count " + std::to_string(agprs) + " and .vgpr_count " +
                                               std::to_string(k.vgprs) +
                                               " in the metadata disagree with ACCUM_OFFSET " + std::to_string(accum) +
                                               " in its descriptor " + k.symbol);
    }
}

} // namespace

void check_descriptors(span co, std::vector<kernel>& kernels, const gpu::processor& p)
{
    std::map<std::string, descriptor> descriptors = descriptors_of(co);
    for (kernel& k : kernels) {
        const auto it = descriptors.find(k.symbol);
        if (it == descriptors.end())
            throw bad_input(".symbol", "kernel " + k.name + ": its code object has no kernel descriptor " + k.symbol +
                                           " (an STT_OBJECT of 64 bytes)");
        check_descriptor(k, it->second, p);
        if (p.major >= 10) k.wgp_mode = (it->second.compute_pgm_rsrc1 >> 29) & 1; // WGP_MODE
        descriptors.erase(it);
    }
    if (!descriptors.empty())
        throw bad_input("amdhsa.kernels",
                        "the kernel descriptor " + descriptors.begin()->first + " has no kernel in the metadata");
}

} // namespace wb::amd_inspect
