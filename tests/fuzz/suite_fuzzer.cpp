// libFuzzer target: the suite parser (harness/plan/suite.cpp) on any text. A bad suite is a
// std::exception (wb::suite_error) that says what is wrong; a crash, a hang or a sanitizer report
// is a bug.
#include "harness/plan/suite.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    try {
        wb::parse_suite({reinterpret_cast<const char*>(data), size}, "fuzz.toml");
    } catch (const std::exception& e) {
        if (std::string_view(e.what()).empty()) std::abort(); // an error must say what is wrong
    }
    return 0;
}
