// The AMD code-object reader's compressed offload bundles: what `clang --offload-compress` (clang 19
// and later, ROCm 6's hipcc) writes in place of a bundle. A header ("CCOB", a format version, the
// compression method, sizes and a hash of the bundle) and the bundle compressed with zlib or zstd.
// The libraries are loaded when a file needs them (libz.so.1, libzstd.so.1: LLVM itself depends on
// both), so the reader needs neither to build; their output is a bundle, read as any other.
#include "core/amd/reader.h"

#include <dlfcn.h>

namespace wb::amd_inspect {

namespace {

constexpr uint64_t max_decompressed = uint64_t(256) << 20; // bytes: far more than any code object bundle

/// A shared library's function, or null when the library or the function is not there.
template <class F> F* function(const char* library, const char* name)
{
    void* lib = dlopen(library, RTLD_NOW | RTLD_LOCAL); // kept open: its functions are kept
    return lib ? reinterpret_cast<F*>(dlsym(lib, name)) : nullptr;
}

using zstd_decompress = size_t(void*, size_t, const void*, size_t);
using zstd_frame_size = size_t(const void*, size_t);
using zstd_is_error = unsigned(size_t);
using zlib_uncompress2 = int(unsigned char*, unsigned long*, const unsigned char*, unsigned long*);

/// `compressed` (the bytes after the header; `known` when the header gave their size, else the rest
/// of the section) decompressed by zstd into `out`, which has the size the header gave; the bytes
/// of the frame.
size_t unzstd(span compressed, bool known, std::string& out)
{
    static const auto decompress = function<zstd_decompress>("libzstd.so.1", "ZSTD_decompress");
    static const auto frame_size = function<zstd_frame_size>("libzstd.so.1", "ZSTD_findFrameCompressedSize");
    static const auto is_error = function<zstd_is_error>("libzstd.so.1", "ZSTD_isError");
    if (!decompress || !frame_size || !is_error)
        throw bad_input("bundle", "is compressed with zstd, and libzstd.so.1 cannot be loaded here: install libzstd1, "
                                  "or unbundle it with clang-offload-bundler");
    size_t size = compressed.size;
    if (!known && is_error(size = frame_size(compressed.data, compressed.size)))
        throw bad_input("bundle", "holds no zstd frame");
    const size_t n = decompress(out.data(), out.size(), compressed.data, size);
    if (is_error(n) || n != out.size())
        throw bad_input("bundle",
                        "does not decompress (zstd) to the " + std::to_string(out.size()) + " bytes its header gives");
    return size;
}

/// The same by zlib.
size_t unzlib(span compressed, std::string& out)
{
    static const auto uncompress2 = function<zlib_uncompress2>("libz.so.1", "uncompress2");
    if (!uncompress2)
        throw bad_input("bundle", "is compressed with zlib, and libz.so.1 cannot be loaded here: install zlib1g, or "
                                  "unbundle it with clang-offload-bundler");
    unsigned long n = out.size(), taken = compressed.size;
    if (uncompress2(reinterpret_cast<unsigned char*>(out.data()), &n,
                    reinterpret_cast<const unsigned char*>(compressed.data), &taken) != 0 ||
        n != out.size())
        throw bad_input("bundle",
                        "does not decompress (zlib) to the " + std::to_string(out.size()) + " bytes its header gives");
    return taken;
}

} // namespace

decompressed decompress_bundle(span s)
{
    // Version 1: magic, version (2 bytes), method (2), bundle size (4), hash (8); version 2 adds the
    // size of the whole compressed bundle (4) after the method; version 3 gives both sizes in 8.
    const auto u16 = [&](size_t at) { return uint16_t(uint8_t(s.data[at]) | uint8_t(s.data[at + 1]) << 8); };
    if (s.size < 8) throw bad_input("bundle", "is cut short in its header");
    const int version = u16(4), method = u16(6);
    const size_t header = version == 1 ? 20 : version == 2 ? 24 : 32;
    if (version < 1 || version > 3)
        throw bad_input("bundle", "is of format version " + std::to_string(version) +
                                      ", which this reader does not know (1 to 3): unbundle it with "
                                      "clang-offload-bundler of the compiler that wrote it");
    if (s.size < header) throw bad_input("bundle", "is cut short in its header");
    const uint64_t total = version == 1 ? 0 : version == 2 ? u32(s.data + 8) : u64(s.data + 8);
    const uint64_t size = version == 1 ? u32(s.data + 8) : version == 2 ? u32(s.data + 12) : u64(s.data + 16);
    const std::string what = "(format version " + std::to_string(version) + ")";
    if (version > 1 && (total < header || total > s.size))
        throw bad_input("bundle", what + " claims " + std::to_string(total) + " bytes, and " + std::to_string(s.size) +
                                      " are left");
    if (size == 0 || size > max_decompressed)
        throw bad_input("bundle", what + " claims to hold " + std::to_string(size) + " bytes, not 1 to " +
                                      std::to_string(max_decompressed));
    if (method != 0 && method != 1)
        throw bad_input("bundle", what + " is compressed by method " + std::to_string(method) +
                                      ", neither zlib (0) nor zstd (1)");
    decompressed out{std::string(size, '\0'), 0};
    const span compressed{s.data + header, (version == 1 ? s.size : total) - header};
    const size_t used = method == 1 ? unzstd(compressed, version > 1, out.bytes) : unzlib(compressed, out.bytes);
    out.taken = version == 1 ? header + used : total;
    return out;
}

} // namespace wb::amd_inspect
