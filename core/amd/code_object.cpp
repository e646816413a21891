// The AMD code-object reader, one code object at a time: its ELF headers, sections and notes
// checked, its target read from e_flags, then its kernels from the metadata (metadata.cpp), their
// descriptors checked (descriptor.cpp) and, when asked, their disassembly (disassembly.cpp). The
// offload bundles that hold code objects are read in bundle.cpp.
#include "core/amd/reader.h"

#include <map>

namespace wb::amd_inspect {

namespace {

/// Throws unless the note segments and the sections of `co` lie within it, its notes hold metadata
/// comgr can take and its symbol tables have entries of the size they should. ROCm 5.2's comgr
/// (its LLVM) checks where a note segment ends by adding its offset and size from the file, which
/// wraps: one claiming to end past 2^64 is read out of bounds; and a metadata map keyed by maps
/// stops it (check_metadata).
void check_code_object(span co)
{
    Elf64_Ehdr eh;
    if (co.size < sizeof eh || std::memcmp(co.data, elf_magic, 4) != 0 || co.data[EI_CLASS] != ELFCLASS64 ||
        co.data[EI_DATA] != ELFDATA2LSB)
        throw bad_input("ELF header", "its code object is not a 64-bit little-endian ELF file");
    std::memcpy(&eh, co.data, sizeof eh);
    if (eh.e_machine != em_amdgpu)
        throw bad_input("e_machine",
                        "its code object is for machine " + std::to_string(eh.e_machine) + ", not AMDGPU (224)");
    const uint64_t phdrs = eh.e_phnum * sizeof(Elf64_Phdr);
    if (eh.e_phnum && (eh.e_phentsize != sizeof(Elf64_Phdr) || !within(eh.e_phoff, phdrs, co.size)))
        throw bad_input("e_phoff", "its code object's program headers run past its end");
    for (size_t i = 0; i < eh.e_phnum; ++i) {
        Elf64_Phdr ph;
        std::memcpy(&ph, co.data + eh.e_phoff + i * sizeof ph, sizeof ph);
        if (ph.p_type != PT_NOTE) continue;
        if (!within(ph.p_offset, ph.p_filesz, co.size))
            throw bad_input("p_offset", "its code object's note segment runs past its end");
        check_notes({co.data + ph.p_offset, ph.p_filesz});
    }
    if (eh.e_shoff == 0) return; // no sections
    Elf64_Shdr sh;
    if (eh.e_shentsize != sizeof sh || !within(eh.e_shoff, sizeof sh, co.size))
        throw bad_input("e_shoff", "its code object's section headers run past its end");
    std::memcpy(&sh, co.data + eh.e_shoff, sizeof sh);
    const uint64_t sections = eh.e_shnum ? eh.e_shnum : sh.sh_size; // more than e_shnum holds: in section 0
    if (sections > (co.size - eh.e_shoff) / sizeof sh)
        throw bad_input("e_shnum", "its code object's section headers run past its end");
    for (uint64_t i = 0; i < sections; ++i) {
        std::memcpy(&sh, co.data + eh.e_shoff + i * sizeof sh, sizeof sh);
        const std::string section = "its code object's section " + std::to_string(i);
        // llvm-objdump (the disassembly's fallback) reads a symbol table as its header says and
        // warns for every symbol it cannot read: millions of lines, minutes, for a few kilobytes.
        if (sh.sh_type != SHT_NULL && sh.sh_type != SHT_NOBITS && !within(sh.sh_offset, sh.sh_size, co.size))
            throw bad_input("sh_offset", section + " runs past its end");
        if ((sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM) && sh.sh_entsize != sizeof(Elf64_Sym))
            throw bad_input("sh_entsize", section + " is a symbol table of entries of " +
                                              std::to_string(sh.sh_entsize) + " bytes, not " +
                                              std::to_string(sizeof(Elf64_Sym)));
        if (sh.sh_type == SHT_NOTE) check_notes({co.data + sh.sh_offset, sh.sh_size});
    }
}

/// A target ID, read: the processor, and the features named ("xnack" -> '+' or '-'; "any" is left
/// out, as LLVM's target IDs do).
struct target_id {
    const gpu::processor* processor;
    std::map<std::string, char> features;
};

std::string to_string(const target_id& t)
{
    std::string s = t.processor->name;
    for (const auto& [name, on] : t.features) s += ":" + name + on; // in name order, as LLVM writes them
    return s;
}

/// The target a bundle entry's ID names ("gfx90a:xnack-", of is_target_id's form).
target_id parse_target(const std::string& id)
{
    const size_t colon = id.find(':');
    target_id t{gpu::find_processor(std::string_view(id).substr(0, colon)), {}};
    if (!t.processor) throw bad_input("target", "'" + id.substr(0, colon) + "' is no processor LLVM knows");
    for (size_t at = colon; at != std::string::npos;) { // ":name+" or ":name-"
        const size_t next = id.find(':', at + 1), end = next == std::string::npos ? id.size() : next;
        const std::string f = id.substr(at + 1, end - at - 2);
        if (f != "xnack" && f != "sramecc")
            throw bad_input("target", "'" + f + "' is no feature a code object records");
        if (!t.features.emplace(f, id[end - 1]).second) throw bad_input("target", "it names " + f + " twice");
        at = next;
    }
    return t;
}

/// The code object version of `co`: its EI_ABIVERSION (AMDHSA: 0 for v2 ... 4 for v6) plus 2.
int code_object_version(span co) { return static_cast<unsigned char>(co.data[EI_ABIVERSION]) + 2; }

/// The target a code object's e_flags name: the processor (EF_AMDGPU_MACH, the low byte) and, from
/// code object v4, sramecc and xnack where the processor has them (each unsupported, any, off or
/// on); from v6, a generic target's EF_AMDGPU_GENERIC_VERSION (bits 24-31: 0 for any other
/// processor). Of v2 and v3 code objects, only the processor.
target_id target_of(span co, int& generic_version)
{
    Elf64_Ehdr eh;
    std::memcpy(&eh, co.data, sizeof eh); // check_code_object saw the whole header
    const uint32_t flags = eh.e_flags;
    const int version = code_object_version(co);
    if (version > 6)
        throw bad_input("EI_ABIVERSION", "its code object is v" + std::to_string(version) + " (EI_ABIVERSION " +
                                             std::to_string(version - 2) +
                                             "), newer than this reader knows (v2 to v6)");
    target_id t{gpu::find_processor(uint8_t(flags & 0xff)), {}};
    if (!t.processor)
        throw bad_input("e_flags", "its code object's e_flags (" + hex(flags) + ") name no processor LLVM knows");
    generic_version = int(flags >> 24);
    const std::string says = "its code object's e_flags (" + hex(flags) + ")";
    if (t.processor->generic && (version < 6 || generic_version == 0))
        throw bad_input("e_flags",
                        says + " name the generic target " + t.processor->name +
                            (version < 6 ? " in a code object v" + std::to_string(version) + ": generic targets need v6"
                                         : " with no generic version (bits 24-31)"));
    if (!t.processor->generic && generic_version != 0)
        throw bad_input("e_flags", says + " give " + t.processor->name +
                                       ", which is no generic target, a generic version (bits 24-31)");
    if (version < 4) return t;
    auto feature = [&](const char* name, bool has, uint32_t mask) {
        const uint32_t v = (flags & mask) / (mask & ~(mask << 1)); // 0 unsupported, 1 any, 2 off, 3 on
        if ((v == 0) == has)
            throw bad_input("e_flags", says + " record " + name + (has ? " as unsupported on " : " on ") +
                                           t.processor->name + (has ? ", which has it" : ", which has none"));
        if (v >= 2) t.features[name] = v == 3 ? '+' : '-';
    };
    feature("sramecc", t.processor->sramecc, 0xc00); // EF_AMDGPU_FEATURE_SRAMECC_V4
    feature("xnack", t.processor->xnack, 0x300);     // EF_AMDGPU_FEATURE_XNACK_V4
    return t;
}

/// The target of the code object `co`: its e_flags', which must agree with `label`, its bundle
/// entry's target ID ("gfx90a:xnack-"), if it has one. Its name is `label`, or else the e_flags'.
std::string checked_target(span co, const std::string& label, target_id& t, int& generic_version)
{
    const std::optional<target_id> named = label.empty() ? std::nullopt : std::optional(parse_target(label));
    check_code_object(co);
    t = target_of(co, generic_version);
    const bool v4 = code_object_version(co) >= 4;
    if (named && (named->processor != t.processor || (v4 && named->features != t.features)))
        throw bad_input("e_flags", "the bundle entry is for " + label + ", its code object (e_flags " +
                                       hex(u32(co.data + offsetof(Elf64_Ehdr, e_flags))) + ") for " + to_string(t));
    return named ? label : to_string(t);
}

/// The ISA comgr names for the code object `data` ("amdgcn-amd-amdhsa--gfx90a:xnack-"), or "" when
/// it names none or one not of that form.
std::string isa_name(const comgr_data& data)
{
    size_t isa_size = 0; // comgr 2.4 answers an empty name for some code objects: then it is unknown
    std::string isa;
    if (amd_comgr_get_data_isa_name(data.get(), &isa_size, nullptr) == AMD_COMGR_STATUS_SUCCESS && isa_size > 1) {
        isa.resize(isa_size);
        comgr_data::check(amd_comgr_get_data_isa_name(data.get(), &isa_size, isa.data()), "ISA name");
        isa.resize(std::strlen(isa.c_str()));
    }
    const std::string triple = "amdgcn-amd-amdhsa--";
    if (!isa.starts_with(triple) || !gpu::is_target_id(std::string_view(isa).substr(triple.size()))) isa.clear();
    return isa;
}

/// The kernels' figures as the reader's answer gives them.
json kernels_json(const std::vector<kernel>& kernels)
{
    json out = json::array();
    for (const kernel& k : kernels)
        out.push_back({{"name", k.name},
                       {"symbol", k.symbol},
                       {"vgpr_count", k.vgprs},
                       {"agpr_count", k.agprs ? json(*k.agprs) : json(nullptr)},
                       {"sgpr_count", k.sgprs},
                       {"group_segment_fixed_size", k.lds},
                       {"private_segment_fixed_size", k.scratch},
                       {"vgpr_spill_count", k.vgpr_spills},
                       {"sgpr_spill_count", k.sgpr_spills},
                       {"wavefront_size", k.warp_size},
                       {"max_flat_workgroup_size", k.max_workgroup},
                       {"kernarg_segment_size", k.kernarg_size},
                       {"wgp_mode", k.wgp_mode ? json(*k.wgp_mode) : json(nullptr)}});
    return out;
}

/// The kernels of one code object, checked against it; `label` is its bundle entry's target ID
/// ("gfx90a:xnack-", checked against the e_flags), or "" for a bare code object (the e_flags
/// name it). Each kernel with its disassembly when `with_instructions`.
json read_code_object(span co, const std::string& label, bool with_instructions)
{
    target_id t{};
    int generic_version = 0;
    const std::string target = checked_target(co, label, t, generic_version);
    const comgr_data data(co);
    const std::string isa = isa_name(data);
    std::vector<kernel> kernels = read_kernels(data);
    check_descriptors(co, kernels, *t.processor);
    json out = kernels_json(kernels);
    if (with_instructions && !kernels.empty()) add_instructions(out, co, kernels, isa, target);
    return {{"isa", isa.empty() ? json(nullptr) : json(isa)},
            {"target", target},
            {"code_object_version", code_object_version(co)},
            {"generic_version", t.processor->generic ? json(generic_version) : json(nullptr)},
            {"kernels", out}};
}

} // namespace

void read_one(span co, const json& entry, const std::string& label, bool with_instructions, findings& out)
{
    try {
        json c = read_code_object(co, label, with_instructions);
        c["bundle_entry"] = entry;
        out.code_objects.push_back(std::move(c));
    } catch (const bad_input& e) {
        out.error(entry, e.field, e.what());
    } catch (const std::exception& e) { // no check's: the entry still fails alone
        out.error(entry, "code object", e.what());
    }
}

} // namespace wb::amd_inspect
