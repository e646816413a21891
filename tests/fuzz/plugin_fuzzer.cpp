// libFuzzer target: the check of a plugin file before dlopen (harness/plugins/plugin_file.cpp) on any
// bytes. It says "" or what is wrong, in a message that is printable and bounded; a crash, a hang
// or a sanitizer report is a bug.
#include "harness/plugins/plugin_file.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string why = wb::check_plugin_image({reinterpret_cast<const char*>(data), size});
    for (const char c : why)
        if (c < 0x20 || c > 0x7e) std::abort(); // shown as it is: printable ASCII only
    if (why.size() > 1000) std::abort();
    return 0;
}
