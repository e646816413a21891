// libFuzzer target: the check of a plugin file before dlopen (harness/plugins/plugin_file.cpp) on any
// bytes. It says "" or what is wrong, in a message that is printable and bounded; a crash, a hang
// or a sanitizer report is a bug. And the section table the code digest reads, on the same bytes.
#include "harness/plugins/plugin_file.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string_view image{reinterpret_cast<const char*>(data), size};
    const std::string why = wb::check_plugin_image(image);
    for (const char c : why)
        if (c < 0x20 || c > 0x7e) std::abort(); // shown as it is: printable ASCII only
    if (why.size() > 1000) std::abort();
    // The sections the code digest reads (harness/plugins/code_digest.cpp): each name and contents
    // within the bytes, or the file refused.
    try {
        const auto within = [&](std::string_view v) {
            return v.empty() || (v.data() >= image.data() && size_t(v.data() - image.data()) + v.size() <= size);
        };
        for (const auto& s : wb::elf_sections(image))
            if (!within(s.name) || !within(s.contents)) std::abort();
    } catch (const std::invalid_argument&) {
    }
    return 0;
}
