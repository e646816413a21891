// Loader fixture: a summary longer than any line (2000 bytes).
#include <array>
#include <cstddef>

static constexpr auto long_summary = [] {
    std::array<char, 2001> s{};
    for (std::size_t i = 0; i + 1 < s.size(); ++i) s[i] = "summary "[i % 8];
    return s;
}();
#define FIXTURE_SUMMARY long_summary.data()
#include "descriptor.h"
