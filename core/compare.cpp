#include "core/compare.h"

#include <cmath>
#include <cstring>
#include <sstream>

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

template <class T> bool close(const host_buffer& e, const host_buffer& a, size_t i, double tol)
{
    const double want = double(e.as<T>()[i]), got = double(a.as<T>()[i]);
    return std::fabs(got - want) <= tol * std::fmax(1.0, std::fabs(want)); // false for NaN
}

} // namespace

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
    // n == 0 first: an empty buffer's data() may be null, which memcmp must not get even for 0 bytes.
    if (exact && (n == 0 || std::memcmp(expected.bytes.data(), actual.bytes.data(), n * w) == 0)) return c;
    for (size_t i = 0; i < n; ++i) {
        bool same;
        if (exact)
            same = std::memcmp(expected.bytes.data() + i * w, actual.bytes.data() + i * w, w) == 0;
        else
            same = expected.type == elem::f32 ? close<float>(expected, actual, i, tolerance)
                                              : close<double>(expected, actual, i, tolerance);
        if (same) continue;
        if (c.mismatches++ == 0) {
            c.first = i;
            c.detail = "element " + std::to_string(i) + " of " + std::to_string(n) + ": expected " + show(expected, i) +
                       ", got " + show(actual, i);
        }
    }
    c.ok = c.mismatches == 0;
    if (!c.ok && c.mismatches > 1) c.detail += " (" + std::to_string(c.mismatches) + " elements wrong)";
    return c;
}

} // namespace wb
