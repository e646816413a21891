// libwavebench_amd_inspect.so: the AMDGPU code objects a file holds, and their kernels' metadata.
// This file holds its entry point and finds the code objects (ELF sections, offload bundles);
// code_object.cpp reads each one.
//
// A hipcc-built shared object keeps its device code in the .hip_fatbin section as clang offload
// bundles (one code object per target); libelf finds the section, the bundle's index (a magic,
// the entry count, then offset, size and ID of each entry) says where each code object is, and
// libamd_comgr reads each code object's AMDGPU metadata note. The harness loads this module only
// when asked for AMD figures: libamd_comgr brings LLVM with it.
//
// Nothing read is trusted. Every offset, size and count is checked against the bytes; every name
// against its grammar before it is used; each code object's e_flags against its bundle entry's
// target; each kernel's metadata against its kernel descriptor (<symbol>.kd). A part that fails is
// an error naming the bundle entry and the field, and the other entries are still read. The
// harness reads the file (harness/common/files.h) and hands the bytes over; tests/fuzz fuzzes this entry.
#include "core/amd/inspect_abi.h"
#include "core/amd/reader.h"

#include <cstdlib>
#include <set>

namespace wb::amd_inspect {

namespace {

constexpr char bundle_magic[] = "__CLANG_OFFLOAD_BUNDLE__";
constexpr char compressed_magic[] = "CCOB"; // clang --offload-compress (compressed.cpp)
constexpr size_t magic_size = sizeof bundle_magic - 1;
constexpr size_t index_record = 24;     // an entry's offset, size and ID size, before its ID
constexpr uint64_t max_entry_id = 1024; // bytes: longer is no entry clang writes

// ---- offload bundles ------------------------------------------------------------------------------

/// A bundle entry's ID, "<kind>-<triple>[-[-<target ID>]]", parsed: kind "hipv4", triple
/// "amdgcn-amd-amdhsa", target "gfx90a:xnack-"; or kind "host", triple "x86_64-unknown-linux-gnu"
/// (clang 22: "host-x86_64-unknown-linux-gnu-"), "x86_64-unknown-linux" (clang 15; clang 19 ends it
/// with "--"), no target. Null when `id` is not of this form.
struct entry_id {
    std::string kind, triple, target;
};
std::optional<entry_id> parse_entry_id(std::string_view id)
{
    auto word = [](std::string_view s, bool kind) {
        return !s.empty() && std::all_of(s.begin(), s.end(), [&](char c) {
            return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                   (!kind && ((c >= 'A' && c <= 'Z') || c == '_' || c == '.'));
        });
    };
    const size_t dash = id.find('-');
    if (dash == std::string_view::npos || !word(id.substr(0, dash), true)) return std::nullopt;
    entry_id e{std::string(id.substr(0, dash)), "", ""};
    std::string_view rest = id.substr(dash + 1);
    if (const size_t cut = rest.find("--"); cut != std::string_view::npos) {
        e.target = rest.substr(cut + 2); // empty in clang 19's host entry, "host-x86_64-unknown-linux--"
        if (!e.target.empty() && !gpu::is_target_id(e.target)) return std::nullopt;
        rest = rest.substr(0, cut);
    } else if (rest.ends_with('-')) {
        rest.remove_suffix(1);
    }
    e.triple = rest;
    int parts = 0; // arch-vendor-os[-environment]
    for (size_t at = 0; at <= rest.size(); ++parts) {
        const size_t end = std::min(rest.find('-', at), rest.size());
        if (!word(rest.substr(at, end - at), false)) return std::nullopt;
        at = end + 1;
    }
    if (parts < 2 || parts > 4) return std::nullopt;
    return e;
}

/// An entry of a bundle's index.
struct bundle_record {
    uint64_t offset, size;
    std::string id;
    bool sound = true; // its range lies within the bundle, clear of the index and of the others
};

/// Reads the index of the bundle at `base` of `s` (`bundle` names it) into `records`, and where it
/// ends into `p`; false, with an error in `out`, when the index cannot be read to its end.
bool read_index(span s, size_t base, const std::string& bundle, std::vector<bundle_record>& records, size_t& p,
                findings& out)
{
    const uint64_t count = u64(s.data + base + magic_size);
    p = base + magic_size + 8;
    if (count > (s.size - p) / index_record) {
        out.error(nullptr, "entry count",
                  bundle + " claims " + std::to_string(count) + " entries, more than its index can hold");
        return false;
    }
    for (uint64_t e = 0; e < count; ++e) {
        if (s.size - p < index_record) {
            out.error(nullptr, "entry count", bundle + ": its index runs past the end at entry " + std::to_string(e));
            return false;
        }
        const uint64_t id_size = u64(s.data + p + 16);
        const std::string wrong = id_size == 0                          ? "is 0"
                                  : id_size > max_entry_id              ? "is more than " + std::to_string(max_entry_id)
                                  : id_size > s.size - p - index_record ? "runs past the end"
                                                                        : "";
        if (!wrong.empty()) {
            out.error(nullptr, "entry ID size",
                      bundle + ": the ID size of entry " + std::to_string(e) + " (" + std::to_string(id_size) + ") " +
                          wrong);
            return false;
        }
        records.push_back({u64(s.data + p), u64(s.data + p + 8), std::string(s.data + p + index_record, id_size)});
        p += index_record + id_size;
    }
    return true;
}

/// The entries of `records` whose ranges lie within the bundle (`room` bytes from `base`), clear of
/// its index (which ends at `index_end`) and of each other, by offset; an error for each other one.
std::vector<bundle_record*> sound_entries(std::vector<bundle_record>& records, size_t base, size_t index_end,
                                          size_t room, const std::string& bundle, findings& out)
{
    // Every range within the bundle and clear of its index and of the other entries.
    std::vector<bundle_record*> by_offset;
    std::set<std::string> ids;
    for (bundle_record& r : records) {
        if (!ids.insert(r.id).second) {
            out.error(r.id, "entry ID", "the bundle entry appears twice in " + bundle);
            r.sound = false;
        } else if (r.size == 0) { // an empty entry (the host's) covers nothing: where it says it is does not matter
        } else if (!within(r.offset, r.size, room)) {
            out.error(r.id, "size",
                      "the bundle entry (offset " + hex(r.offset) + ", " + std::to_string(r.size) +
                          " bytes) runs past the end of " + bundle);
            r.sound = false;
        } else if (r.offset < index_end - base) {
            out.error(r.id, "offset",
                      "the bundle entry (offset " + hex(r.offset) + ") overlaps the index of " + bundle);
            r.sound = false;
        } else {
            by_offset.push_back(&r);
        }
    }
    std::sort(by_offset.begin(), by_offset.end(),
              [](const bundle_record* a, const bundle_record* b) { return a->offset < b->offset; });
    bundle_record* furthest = nullptr; // of the entries so far, the one that ends last
    for (bundle_record* r : by_offset) {
        if (furthest && r->offset < furthest->offset + furthest->size)
            for (bundle_record* x : {furthest, r})
                if (x->sound) {
                    out.error(x->id, "offset",
                              "the bundle entries at " + hex(furthest->offset) + " and " + hex(r->offset) + " of " +
                                  bundle + " overlap");
                    x->sound = false;
                }
        if (!furthest || r->offset + r->size > furthest->offset + furthest->size) furthest = r;
    }
    return by_offset;
}

/// Where the entries `by_offset` of the bundle at `base` end, at least `index_end`; an error for
/// bytes between them that are not zero.
size_t entries_end(span s, size_t base, size_t index_end, const std::vector<bundle_record*>& by_offset,
                   const std::string& bundle, findings& out)
{
    // What lies between the index and the end of the last entry is an entry or zero padding: an
    // entry count made smaller would leave entries out unsaid.
    size_t end = index_end;
    for (const bundle_record* r : by_offset) {
        const size_t from = base + r->offset;
        if (from > end && std::any_of(s.data + end, s.data + from, [](char c) { return c != 0; })) {
            out.error(nullptr, "entry count",
                      bundle + ": bytes " + hex(end - base) + " to " + hex(from - base) +
                          " are in no entry, and not zero padding (entries left out of its index?)");
        }
        end = std::max(end, from + r->size);
    }
    return end;
}

/// Reads the code objects of the bundle's entries `records` into `out`: those that are sound and
/// amdgcn-amd-amdhsa's; an error for each entry that is neither that nor the host's.
void read_entries(span s, size_t base, const std::vector<bundle_record>& records, bool with_instructions,
                  const std::string& bundle, findings& out)
{
    size_t host = 0; // entries that are the host's: a bundle of only those has no device code
    for (const bundle_record& r : records) {
        const auto id = parse_entry_id(r.id);
        host += id && id->kind == "host";
        if (!r.sound) continue;
        if (!id) {
            out.error(r.id, "entry ID",
                      "the bundle entry's ID is not <kind>-<triple>[--<target ID>] (a target ID: gfx, "
                      "hex digits, then :feature+ or :feature-)");
        } else if (id->triple == "amdgcn-amd-amdhsa") {
            if (id->target.empty())
                out.error(r.id, "entry ID", "the bundle entry names no target");
            else if (r.size == 0)
                out.error(r.id, "size", "the bundle entry is empty");
            else
                read_one({s.data + base + r.offset, r.size}, r.id, id->target, with_instructions, out);
        } else if (id->kind != "host") {
            out.error(r.id, "entry ID", "the bundle entry is neither the host's nor amdgcn-amd-amdhsa's");
        }
    }
    if (host == records.size()) out.error(nullptr, "entry count", bundle + " holds no entry but the host's");
}

/// Reads the offload bundle at `base` of `s` (its magic checked) into `out`; returns where it ends.
size_t read_bundle(span s, size_t base, bool with_instructions, findings& out)
{
    const std::string bundle = "the offload bundle at offset " + hex(base);
    std::vector<bundle_record> records;
    size_t index_end = 0;
    if (!read_index(s, base, bundle, records, index_end, out)) return s.size;
    if (records.empty()) {
        out.error(nullptr, "entry count", bundle + " has no entries");
        return index_end;
    }
    const std::vector<bundle_record*> by_offset = sound_entries(records, base, index_end, s.size - base, bundle, out);
    const size_t end = entries_end(s, base, index_end, by_offset, bundle, out);
    read_entries(s, base, records, with_instructions, bundle, out);
    return end;
}

/// The code objects of the clang offload bundles laid one after another in `s` (the whole of a
/// .hip_fatbin section or a bundle file), with zero padding between them; each compressed or not
/// (`compressed`: `s` is a compressed bundle's content, which holds no compressed bundle).
void read_bundles(span s, bool with_instructions, findings& out, bool compressed = false)
{
    bool any = false;
    for (size_t at = 0;;) {
        while (at < s.size && s.data[at] == 0) ++at; // the linker pads between bundles
        if (at == s.size) break;
        if (!compressed && s.size - at >= 4 && std::memcmp(s.data + at, compressed_magic, 4) == 0) {
            try {
                const decompressed d = decompress_bundle({s.data + at, s.size - at});
                read_bundles({d.bytes.data(), d.bytes.size()}, with_instructions, out, true);
                at += d.taken;
            } catch (const bad_input& e) {
                out.error(nullptr, e.field, "the compressed offload bundle at offset " + hex(at) + " " + e.what());
                return;
            }
            any = true;
            continue;
        }
        if (s.size - at < magic_size + 8 || std::memcmp(s.data + at, bundle_magic, magic_size) != 0) {
            out.error(nullptr, "bundle",
                      "bytes at offset " + hex(at) + (compressed ? " of a decompressed bundle" : "") +
                          " are neither an offload bundle nor zero padding");
            return;
        }
        at = read_bundle(s, at, with_instructions, out);
        any = true;
    }
    if (!any) out.error(nullptr, "bundle", "it holds no offload bundle");
}

/// The code objects in `file`: a host shared object, an offload bundle (compressed or not) or a bare
/// code object.
/// Throws std::runtime_error when the file is none of these or where its device code is cannot be
/// told; an error in `out` for each part that cannot be read.
void inspect(span file, bool with_instructions, findings& out)
{
    if (file.size >= magic_size && std::memcmp(file.data, bundle_magic, magic_size) == 0)
        return read_bundles(file, with_instructions, out);
    if (file.size >= 4 && std::memcmp(file.data, compressed_magic, 4) == 0)
        return read_bundles(file, with_instructions, out);
    if (file.size < 20 || std::memcmp(file.data, elf_magic, 4) != 0)
        throw std::runtime_error("neither an ELF file nor an offload bundle");
    uint16_t machine;
    std::memcpy(&machine, file.data + 18, 2);
    if (machine == em_amdgpu) return read_one(file, nullptr, "", with_instructions, out); // a bare code object

    const elf_ptr owner = open_elf(file);
    Elf* elf = owner.get();
    if (!elf) throw std::runtime_error(std::string("libelf cannot read it: ") + elf_errmsg(-1));
    size_t strings = 0, sections = 0;
    elf_getshdrnum(elf, &sections);
    if (sections == 0 || elf_getshdrstrndx(elf, &strings) != 0)
        throw std::runtime_error("no section headers: where its device code is cannot be told");
    bool fatbin = false, wrapper = false;
    std::string trouble;
    for (Elf_Scn* scn = nullptr; (scn = elf_nextscn(elf, scn));) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS) continue;
        const char* found = elf_strptr(elf, strings, sh.sh_name);
        const std::string_view name = found ? found : "";
        if (!within(sh.sh_offset, sh.sh_size, file.size))
            throw std::runtime_error("section " + std::to_string(elf_ndxscn(scn)) + " runs past the end of the file");
        const span section{file.data + sh.sh_offset, sh.sh_size};
        wrapper |= name == ".hipFatBinSegment"; // the runtime's pointer to .hip_fatbin: device code is expected
        if (name == ".llvm.offloading")
            trouble =
                "its device code is in .llvm.offloading (clang's new offload driver), which this reader does not read";
        if (name == ".hip_fatbin") {
            fatbin = true;
            read_bundles(section, with_instructions, out);
        } else if (section.size >= magic_size && std::memcmp(section.data, bundle_magic, magic_size) == 0) {
            throw std::runtime_error("section " + std::to_string(elf_ndxscn(scn)) + " holds an offload bundle but is " +
                                     (printable(name, 64) ? "named '" + std::string(name) + "'" : "not named") +
                                     ", not .hip_fatbin: its name is damaged");
        }
    }
    if (!fatbin && !trouble.empty()) throw std::runtime_error(trouble);
    if (!fatbin && wrapper)
        throw std::runtime_error("it has a .hipFatBinSegment but no .hip_fatbin section: its device code is lost");
}

} // namespace
} // namespace wb::amd_inspect

using namespace wb::amd_inspect;

extern "C" __attribute__((visibility("default"))) char* wavebench_amd_inspect_bytes(const char* data, size_t size,
                                                                                    int with_instructions, char** error)
{
    try {
        findings out;
        inspect({data, size}, with_instructions != 0, out);
        // Names in errors are the file's bytes: what is not UTF-8 becomes U+FFFD.
        const json answer{{"code_objects", std::move(out.code_objects)}, {"errors", std::move(out.errors)}};
        return strdup(answer.dump(-1, ' ', false, json::error_handler_t::replace).c_str());
    } catch (const std::exception& e) {
        if (error) *error = strdup(e.what());
        return nullptr;
    }
}

extern "C" __attribute__((visibility("default"))) void wavebench_amd_free(char* p) { std::free(p); }
