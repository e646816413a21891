#include "core/compare.h"

#include "core/chunks.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <sstream>
#include <vector>

namespace wb {

namespace {

template <class T> std::string show(const host_buffer& b, size_t i)
{
    std::ostringstream s;
    s.precision(9);
    s << b.as<T>()[i];
    return s.str();
}

std::string show(const host_buffer& b, size_t i)
{
    switch (b.type) {
    case elem::i32:
        return show<int32_t>(b, i);
    case elem::u32:
        return show<uint32_t>(b, i);
    case elem::i64:
        return show<int64_t>(b, i);
    case elem::f32:
        return show<float>(b, i);
    case elem::f64:
        return show<double>(b, i);
    }
    return "?";
}

template <class T> bool close(T want_t, T got_t, double tol)
{
    const double want = double(want_t), got = double(got_t);
    return std::fabs(got - want) <= tol * std::fmax(1.0, std::fabs(want)); // false for NaN
}

/// Elements of [begin, end) that differ (beyond `tol` for floating point); the first in `first`.
size_t count_wrong(const host_buffer& e, const host_buffer& a, bool exact, double tol, size_t begin, size_t end,
                   size_t& first)
{
    const size_t w = elem_size(e.type);
    size_t wrong = 0;
    auto note = [&](size_t i) {
        if (wrong++ == 0) first = i;
    };
    if (exact) {
        for (size_t i = begin; i < end; ++i)
            if (std::memcmp(e.bytes.data() + i * w, a.bytes.data() + i * w, w) != 0) note(i);
    } else if (e.type == elem::f32) {
        const float *want = e.as<float>().data(), *got = a.as<float>().data();
        for (size_t i = begin; i < end; ++i)
            if (!close(want[i], got[i], tol)) note(i);
    } else {
        const double *want = e.as<double>().data(), *got = a.as<double>().data();
        for (size_t i = begin; i < end; ++i)
            if (!close(want[i], got[i], tol)) note(i);
    }
    return wrong;
}

} // namespace

bool same_bytes(const void* a, const void* b, size_t bytes)
{
    if (bytes == 0) return true;
    constexpr size_t chunk = size_t(1) << 22; // below 4 MB one thread does it
    std::atomic<bool> differ{false};
    for_chunks(bytes, chunk, 4096, 0, [&](size_t begin, size_t end) {
        for (size_t at = begin; at < end && !differ.load(std::memory_order_relaxed); at += chunk)
            if (std::memcmp(static_cast<const char*>(a) + at, static_cast<const char*>(b) + at,
                            std::min(end, at + chunk) - at) != 0)
                differ = true;
    });
    return !differ;
}

comparison compare(const host_buffer& expected, const host_buffer& actual, double tolerance)
{
    comparison c;
    if (expected.type != actual.type || expected.count() != actual.count()) {
        c.ok = false;
        c.detail = "shape differs: expected " + std::to_string(expected.count()) + " " + elem_name(expected.type) +
                   ", got " + std::to_string(actual.count()) + " " + elem_name(actual.type);
        return c;
    }
    const size_t n = expected.count(), w = elem_size(expected.type);
    const bool exact = tolerance == 0 || elem_is_integer(expected.type);
    // same_bytes takes 0 bytes at null pointers (an empty buffer's data() may be null).
    if (exact && same_bytes(expected.bytes.data(), actual.bytes.data(), n * w)) return c;
    // Over threads in chunks (a large output is compared after many runs): each chunk's count and
    // first wrong element, the first of the first chunk with one reported.
    constexpr size_t chunk = size_t(1) << 18;
    std::vector<size_t> wrong((n + chunk - 1) / chunk), first(wrong.size());
    for_chunks(n, chunk, chunk, 0, [&](size_t begin, size_t end) {
        for (size_t b = begin; b < end; b += chunk)
            wrong[b / chunk] =
                count_wrong(expected, actual, exact, tolerance, b, std::min(end, b + chunk), first[b / chunk]);
    });
    for (size_t k = 0; k < wrong.size(); ++k) {
        if (wrong[k] == 0) continue;
        if (c.mismatches == 0) {
            c.first = first[k];
            c.detail = "element " + std::to_string(c.first) + " of " + std::to_string(n) + ": expected " +
                       show(expected, c.first) + ", got " + show(actual, c.first);
        }
        c.mismatches += wrong[k];
    }
    c.ok = c.mismatches == 0;
    if (!c.ok && c.mismatches > 1) c.detail += " (" + std::to_string(c.mismatches) + " elements wrong)";
    return c;
}

} // namespace wb
