// The vgpr reference: the problem's definition of each output pixel, in chunks of rows over threads.
#include "vgpr.h"
#include "core/chunks.h"
#include "reference.h"

namespace wb::ref {

void density_u16(const uint16_t* img, const vgpr::shape& s, uint16_t* out, unsigned threads)
{
    for_chunks(size_t(s.out_height), 16, 1, threads, [=](size_t begin, size_t end) {
        for (size_t y = begin; y < end; ++y)
            for (int64_t x = 0; x < s.out_width; ++x)
                out[int64_t(y) * s.out_width + x] = vgpr::density(img, s, int64_t(y), x);
    });
}

const family_reference& reference_vgpr()
{
    static const family_reference r{
        .compute = [](const param_map& p, const std::vector<host_buffer>& in, std::vector<host_buffer>& out) {
            const auto s = vgpr::shape_of(get_int(p, vgpr::width.name), get_int(p, vgpr::height.name),
                                          get_int(p, vgpr::dist.name), get_int(p, vgpr::threshold.name));
            density_u16(reinterpret_cast<const uint16_t*>(in[0].bytes.data()), s,
                        reinterpret_cast<uint16_t*>(out[0].bytes.data()));
        }};
    return r;
}

} // namespace wb::ref
