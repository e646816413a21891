// libFuzzer target: the AMD code-object reader (core/amd/code_objects.cpp, what read_amd_kernels
// loads) on any bytes: offload bundles, ELF files, code objects and their metadata, read without
// and with the disassembly. Bad input is an error that says what is wrong (the C entry's form of
// an exception); a crash, a hang or a sanitizer report is a bug.
#include "core/amd/inspect_abi.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    for (const int with_instructions : {0, 1}) { // run --amd-static, inspect --isa
        char* error = nullptr;
        char* text = wavebench_amd_inspect_bytes(reinterpret_cast<const char*>(data), size, with_instructions, &error);
        if (!text && (!error || !*error)) std::abort(); // an error must say what is wrong
        wavebench_amd_free(text);
        wavebench_amd_free(error);
    }
    return 0;
}
