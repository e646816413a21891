// The branch reference: the problem's definition of each element, in chunks over threads.
#include "branch.h"
#include "core/chunks.h"
#include "reference.h"

namespace wb::ref {

void branch_u32(branch::problem k, const uint32_t* in, size_t n, uint32_t* out, unsigned threads)
{
    const size_t words = size_t(branch::words_per_element(k));
    for_chunks(n, 4096, 1, threads, [=](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) out[i] = branch::expected(k, in + words * i);
    });
}

const family_reference& reference_branch()
{
    static const family_reference r{
        .compute = [](const param_map& p, const std::vector<host_buffer>& in, std::vector<host_buffer>& out) {
            branch::problem k = branch::problem::call;
            if (!branch::problem_of(get_string(p, branch::kernel.name), k))
                throw std::logic_error("branch: unknown kernel '" + get_string(p, branch::kernel.name) + "'");
            branch_u32(k, in[0].as<uint32_t>().data(), out[0].count(), out[0].as<uint32_t>().data());
        }};
    return r;
}

} // namespace wb::ref
