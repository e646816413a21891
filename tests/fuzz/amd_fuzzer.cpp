// libFuzzer target: the AMD code-object reader (core/amd/*.cpp, what read_amd_file
// loads) on any bytes: offload bundles, ELF files, code objects and their metadata, read without
// and with the disassembly. Bad input is an error that says what is wrong (the C entry's form of
// an exception, or an entry of "errors"); a crash, a hang, a sanitizer report, or an answer that
// is not what core/amd/inspect_abi.h promises, is a bug.
#include "core/amd/inspect_abi.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <string>

namespace {

using json = nlohmann::json;

bool printable(json& s)
{
    if (!s.is_string()) return false;
    const auto& t = s.get_ref<const std::string&>();
    return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
}

/// Aborts unless `text` is the JSON inspect_abi.h describes: each kernel's names printable ASCII
/// and its figures whole numbers; each error with its field and reason.
void check_answer(const char* text)
{
    json doc = json::parse(text, nullptr, false); // not const: operator[] gives null for what is missing
    if (!doc.is_object() || !doc["code_objects"].is_array() || !doc["errors"].is_array()) std::abort();
    for (auto& co : doc["code_objects"]) {
        if (!co.is_object() || !printable(co["target"]) || !co["kernels"].is_array()) std::abort();
        for (auto& k : co["kernels"]) {
            if (!k.is_object() || !printable(k["name"]) || !printable(k["symbol"])) std::abort();
            for (const char* f : {"vgpr_count", "sgpr_count", "group_segment_fixed_size", "private_segment_fixed_size",
                                  "vgpr_spill_count", "sgpr_spill_count", "wavefront_size", "max_flat_workgroup_size",
                                  "kernarg_segment_size"})
                if (!k[f].is_number_unsigned()) std::abort();
            if (!k["agpr_count"].is_null() && !k["agpr_count"].is_number_unsigned()) std::abort();
        }
    }
    for (auto& e : doc["errors"])
        if (!e.is_object() || !printable(e["field"]) || !printable(e["reason"]) ||
            !(e["entry"].is_null() || e["entry"].is_string()))
            std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    for (const int with_instructions : {0, 1}) { // run --amd-static, inspect --isa
        char* error = nullptr;
        char* text = wavebench_amd_inspect_bytes(reinterpret_cast<const char*>(data), size, with_instructions, &error);
        if (!text && (!error || !*error)) std::abort(); // an error must say what is wrong
        if (text) check_answer(text);
        wavebench_amd_free(text);
        wavebench_amd_free(error);
    }
    return 0;
}
