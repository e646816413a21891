// The AMD code-object reader's metadata: the notes and their msgpack, checked before comgr reads
// them, and each kernel's fields, read from comgr's metadata nodes.
#include "core/amd/reader.h"

#include <set>

namespace wb::amd_inspect {

namespace {

/// A string node's text, whole (a NUL in it included: printable() then refuses it).
std::string text(amd_comgr_metadata_node_t n)
{
    size_t size = 0;
    comgr_data::check(amd_comgr_get_metadata_string(n, &size, nullptr), "metadata string size");
    std::string s(size, '\0');
    comgr_data::check(amd_comgr_get_metadata_string(n, &size, s.data()), "metadata string");
    s.resize(std::min(size, s.size()) - (size > 0)); // less the terminating NUL
    return s;
}

/// One kernel's map in the metadata, read field by field; each error names the field and the kernel.
struct kernel_map {
    amd_comgr_metadata_node_t map;
    std::string kernel; // "kernel 2", then "kernel 2 (_Z4saxpyfPKfPfm)" once its name is known

    /// The value of `key`, or nothing when absent. Metadata values are scalars (comgr gives each
    /// as text).
    std::optional<std::string> value(const char* key) const
    {
        node v;
        const auto kind = lookup(map, key, v);
        if (!kind) return std::nullopt;
        if (*kind != AMD_COMGR_METADATA_KIND_STRING)
            throw bad_input(key, kernel + ": " + key + " is a list or a map, not a value");
        return text(v.n);
    }
    std::string required(const char* key) const
    {
        auto v = value(key);
        if (!v) throw bad_input(key, kernel + ": the metadata has no " + key);
        return *v;
    }
    /// A whole number from 0 to max_figure; nothing when absent and not `needed`.
    std::optional<int64_t> number(const char* key, bool needed = true) const
    {
        const auto v = needed ? std::optional(required(key)) : value(key);
        if (!v) return std::nullopt;
        const bool digits = !v->empty() && v->size() <= 10 &&
                            std::all_of(v->begin(), v->end(), [](char c) { return c >= '0' && c <= '9'; });
        const int64_t x = digits ? std::stoll(*v) : -1;
        if (x < 0 || x > max_figure)
            throw bad_input(key,
                            kernel + ": " + key + " is not a whole number from 0 to " + std::to_string(max_figure));
        return x;
    }
    /// A name: printable ASCII, at most `max` bytes.
    std::string name(const char* key, size_t max) const
    {
        std::string v = required(key);
        if (!printable(v, max))
            throw bad_input(key, kernel + ": " + key + " is not 1 to " + std::to_string(max) +
                                     " bytes of printable ASCII (" + std::to_string(v.size()) + " bytes)");
        return v;
    }
};

// ---- the metadata's msgpack and notes -------------------------------------------------------------

/// Throws unless `d` starts with a whole msgpack document whose map keys are all strings, each
/// once in its map, as the AMDGPU metadata's are: comgr's LLVM stops on a map keyed by maps or
/// arrays (llvm_unreachable), and of a key given twice it would take one value, unsaid.
void check_metadata(span d)
{
    struct level {
        uint64_t left; // the items to come (a map's keys and values)
        bool map;
        std::set<std::string_view> keys; // a map's keys so far
    };
    std::vector<level> open;
    size_t at = 0;
    auto take = [&](uint64_t n) {
        if (n > d.size - at) throw bad_input("metadata", "its AMDGPU metadata (msgpack) is cut short");
        at += n;
        return d.data + at - n;
    };
    auto length = [&](int bytes) { // big-endian
        uint64_t n = 0;
        for (const char* p = take(bytes); bytes--; ++p) n = n << 8 | static_cast<unsigned char>(*p);
        return n;
    };
    do {
        const bool key = !open.empty() && open.back().map && open.back().left % 2 == 0;
        const unsigned char b = static_cast<unsigned char>(*take(1));
        uint64_t items = 0, bytes = 0;
        bool map = false, string = false;
        if (b >= 0xa0 && b <= 0xbf)
            bytes = b & 0x1f, string = true; // fixstr
        else if (b >= 0xd9 && b <= 0xdb)
            bytes = length(1 << (b - 0xd9)), string = true; // str 8, 16, 32
        else if (b >= 0x90 && b <= 0x9f)
            items = b & 0x0f; // fixarray
        else if (b == 0xdc || b == 0xdd)
            items = length(b == 0xdc ? 2 : 4); // array 16, 32
        else if (b >= 0x80 && b <= 0x8f)
            items = 2 * (b & 0x0f), map = true; // fixmap
        else if (b == 0xde || b == 0xdf)
            items = 2 * length(b == 0xde ? 2 : 4), map = true; // map 16, 32
        else if (b >= 0xc4 && b <= 0xc6)
            take(length(1 << (b - 0xc4))); // bin 8, 16, 32
        else if (b >= 0xc7 && b <= 0xc9)
            take(length(1 << (b - 0xc7)) + 1); // ext 8, 16, 32
        else if (b >= 0xd4 && b <= 0xd8)
            take((1 << (b - 0xd4)) + 1); // fixext
        else if (b >= 0xca && b <= 0xd3)
            take(b == 0xca ? 4 : b == 0xcb ? 8 : 1 << ((b - 0xcc) & 3)); // numbers
        else if (b == 0xc1)
            throw bad_input("metadata", "its AMDGPU metadata is not msgpack");
        // else a fixint, nil or a boolean: the byte is all of it
        const char* s = string ? take(bytes) : nullptr;
        if (key && !string) throw bad_input("metadata", "its AMDGPU metadata has a map key that is not a string");
        if (key && !open.back().keys.insert({s, bytes}).second) {
            const std::string_view k(s, bytes);
            throw bad_input("metadata",
                            "its AMDGPU metadata has a map with the key " +
                                (printable(k, 64) ? "'" + std::string(k) + "'" : std::string("(unprintable)")) +
                                " twice");
        }
        if (!open.empty()) --open.back().left;
        if (items > 0) open.push_back({items, map, {}});
        while (!open.empty() && open.back().left == 0) open.pop_back();
    } while (!open.empty());
}

} // namespace

std::optional<amd_comgr_metadata_kind_t> lookup(amd_comgr_metadata_node_t map, const char* key, node& v)
{
    if (amd_comgr_metadata_lookup(map, key, &v.n) != AMD_COMGR_STATUS_SUCCESS) return std::nullopt;
    v.owned = true;
    amd_comgr_metadata_kind_t kind;
    comgr_data::check(amd_comgr_get_metadata_kind(v.n, &kind), "metadata kind");
    return kind;
}

void check_notes(span notes)
{
    constexpr uint32_t nt_amdgpu_metadata = 32, nt_pal_metadata = 13; // the notes comgr reads as msgpack
    for (size_t at = 0; notes.size - at >= 12;) {
        uint32_t h[3];
        std::memcpy(h, notes.data + at, sizeof h);
        const uint64_t name_size = (uint64_t(h[0]) + 3) / 4 * 4, desc_size = (uint64_t(h[1]) + 3) / 4 * 4;
        if (name_size + desc_size > notes.size - at - 12) return;
        const std::string_view name(notes.data + at + 12, h[0] ? h[0] - 1 : 0);
        if ((name == "AMDGPU" && (h[2] == nt_amdgpu_metadata || h[2] == nt_pal_metadata)) ||
            (name == "AMD" && h[2] == nt_pal_metadata))
            check_metadata({notes.data + at + 12 + name_size, h[1]});
        at += 12 + name_size + desc_size;
    }
}

std::vector<kernel> read_kernels(const comgr_data& data)
{
    node root;
    comgr_data::check(amd_comgr_get_data_metadata(data.get(), &root.n), "metadata");
    root.owned = true;
    node list;
    const auto kind = lookup(root.n, "amdhsa.kernels", list);
    if (!kind) throw bad_input("amdhsa.kernels", "the metadata has no amdhsa.kernels");
    if (*kind != AMD_COMGR_METADATA_KIND_LIST) throw bad_input("amdhsa.kernels", "amdhsa.kernels is not a list");
    size_t count = 0;
    comgr_data::check(amd_comgr_get_metadata_list_size(list.n, &count), "kernel count");
    std::vector<kernel> kernels;
    for (size_t i = 0; i < count; ++i) {
        node k;
        comgr_data::check(amd_comgr_index_list_metadata(list.n, i, &k.n), "kernel");
        k.owned = true;
        kernel_map m{k.n, "kernel " + std::to_string(i)};
        kernel x;
        x.name = m.name(".name", max_name);
        m.kernel += " (" + x.name + ")";
        x.symbol = m.name(".symbol", max_name + 3);
        if (x.symbol != x.name + ".kd") throw bad_input(".symbol", m.kernel + ": .symbol is not .name followed by .kd");
        x.vgprs = *m.number(".vgpr_count");
        x.agprs = m.number(".agpr_count", false);
        x.sgprs = *m.number(".sgpr_count");
        x.lds = *m.number(".group_segment_fixed_size");
        x.scratch = *m.number(".private_segment_fixed_size");
        x.vgpr_spills = *m.number(".vgpr_spill_count");
        x.sgpr_spills = *m.number(".sgpr_spill_count");
        x.warp_size = *m.number(".wavefront_size");
        x.max_workgroup = *m.number(".max_flat_workgroup_size");
        x.kernarg_size = *m.number(".kernarg_segment_size");
        if (x.warp_size != 32 && x.warp_size != 64)
            throw bad_input(".wavefront_size", m.kernel + ": .wavefront_size is neither 32 nor 64");
        if (x.max_workgroup < 1 || x.max_workgroup > 1024)
            throw bad_input(".max_flat_workgroup_size", m.kernel + ": .max_flat_workgroup_size is not from 1 to 1024");
        if (std::any_of(kernels.begin(), kernels.end(), [&](const kernel& y) { return y.name == x.name; }))
            throw bad_input(".name", m.kernel + ": another kernel has the same .name");
        kernels.push_back(std::move(x));
    }
    return kernels;
}

} // namespace wb::amd_inspect
