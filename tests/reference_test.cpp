// The xsimd references against the scalar oracle: every instruction set this CPU has, sizes
// around the vector widths, wrap-around at the int32 limits, and unaligned starts.
#define BOOST_TEST_MODULE reference
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include "core/random.h"
#include "reference/conv.h"
#include "reference/reduce.h"
#include "reference/simd.h"
#include "reference/simd_kernels.hpp"

#include <algorithm>
#include <climits>
#include <vector>

namespace {

using wb::ref::detail::sum_i32_kernel;

std::vector<int32_t> random_ints(size_t n, uint64_t seed)
{
    std::vector<uint32_t> u(n);
    wb::fill_random(u, seed);
    return {u.begin(), u.end()};
}

const size_t sizes[] = {0, 1, 7, 8, 1023, (size_t(1) << 20) + 3};

BOOST_DATA_TEST_CASE(dispatched_sum_equals_the_oracle, boost::unit_test::data::make(sizes), n)
{
    for (uint64_t seed : {1ull, 2ull, 977ull}) {
        const auto v = random_ints(n + 1, seed);
        BOOST_TEST_CONTEXT("n " << n << ", seed " << seed)
        {
            BOOST_REQUIRE_EQUAL(wb::ref::sum_i32(v.data(), n), wb::ref::sum_i32_scalar(v.data(), n));
            // an unaligned start
            BOOST_REQUIRE_EQUAL(wb::ref::sum_i32(v.data() + 1, n), wb::ref::sum_i32_scalar(v.data() + 1, n));
        }
    }
}

BOOST_DATA_TEST_CASE(every_available_instruction_set_equals_the_oracle, boost::unit_test::data::make(sizes), n)
{
    const auto v = random_ints(n, 5);
    const int32_t want = wb::ref::sum_i32_scalar(v.data(), n);
    const auto isa = xsimd::available_architectures();
    BOOST_CHECK_EQUAL(sum_i32_kernel{}(xsimd::sse2{}, v.data(), n), want);
    if (isa.avx2) BOOST_CHECK_EQUAL(sum_i32_kernel{}(xsimd::avx2{}, v.data(), n), want);
    if (isa.avx512f) BOOST_CHECK_EQUAL(sum_i32_kernel{}(xsimd::avx512f{}, v.data(), n), want);
}

BOOST_AUTO_TEST_CASE(sums_wrap_around_like_the_gpu)
{
    std::vector<int32_t> v(1000, INT_MAX);
    v[3] = INT_MIN;
    int64_t exact = 0;
    for (int32_t x : v) exact += x;
    const int32_t wrapped = int32_t(uint32_t(uint64_t(exact)));
    BOOST_CHECK_EQUAL(wb::ref::sum_i32_scalar(v.data(), v.size()), wrapped);
    BOOST_CHECK_EQUAL(wb::ref::sum_i32(v.data(), v.size()), wrapped);
}

BOOST_AUTO_TEST_CASE(oracle_is_not_fooled_by_order)
{
    // Different orders of the same values give the same wrapped sum: what makes the sum exact.
    auto v = random_ints(4097, 11);
    const int32_t a = wb::ref::sum_i32(v.data(), v.size());
    std::reverse(v.begin(), v.end());
    BOOST_CHECK_EQUAL(wb::ref::sum_i32(v.data(), v.size()), a);
    v[100] += 1;
    BOOST_CHECK_NE(wb::ref::sum_i32(v.data(), v.size()), a);
}

BOOST_AUTO_TEST_CASE(conv_equals_its_oracle_at_every_edge_case)
{
    for (size_t n : {0ul, 1ul, 7ul, 300ul, 4099ul, 70000ul})
        for (size_t m : {1ul, 3ul, 17ul, 257ul}) {
            const auto in = random_ints(n, n * 31 + m), k = random_ints(m, m + 5);
            std::vector<int32_t> want(n), got(n, 0x5a5a5a5a);
            wb::ref::conv_i32_scalar(in.data(), n, k.data(), m, want.data());
            for (unsigned threads : {1u, 0u}) {
                BOOST_TEST_CONTEXT("n " << n << ", m " << m << ", threads " << threads)
                {
                    wb::ref::conv_i32(in.data(), n, k.data(), m, got.data(), threads);
                    BOOST_REQUIRE(got == want);
                }
            }
        }
}

BOOST_AUTO_TEST_CASE(conv_oracle_by_hand)
{
    const int32_t in[] = {1, 2, 3}, k[] = {10, 100, 1000};
    int32_t out[3];
    wb::ref::conv_i32_scalar(in, 3, k, 3, out);
    // out[i] = in[i-1] k[0] + in[i] k[1] + in[i+1] k[2], zeros outside
    BOOST_CHECK_EQUAL(out[0], 0 * 10 + 1 * 100 + 2 * 1000);
    BOOST_CHECK_EQUAL(out[1], 1 * 10 + 2 * 100 + 3 * 1000);
    BOOST_CHECK_EQUAL(out[2], 2 * 10 + 3 * 100 + 0 * 1000);
}

BOOST_AUTO_TEST_CASE(stream_read_sees_every_word)
{
    std::vector<uint64_t> v(1001, 0);
    BOOST_CHECK_EQUAL(wb::ref::stream_read(v.data(), v.size() * 8), 0u);
    for (size_t i : {0ul, 500ul, 1000ul}) {
        v.assign(v.size(), 0);
        v[i] = 1ull << (i % 64);
        BOOST_CHECK_EQUAL(wb::ref::stream_read(v.data(), v.size() * 8), v[i]);
    }
}

} // namespace
