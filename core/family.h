// Families: the problem definitions. A family says what its parameters are, how inputs are made
// from a seed, what the outputs are and how they are compared, and what work metric and ceiling a
// result is reported against. Its pieces, the same for every family:
//   core/include/wavebench/families/<name>.h  the problem, shared by the plugins and the reference
//   core/families/<name>.cpp                  this definition: parameters, datasets, comparison, metric
//   reference/<name>.{h,cpp}                  the reference (xsimd where it vectorizes), oracle, model
//   plugins/<name>/common.h, <variant>.hip    the plugins
//   tests/families/<name>_test.cpp            its tests
// Plugins implement a family; the harness owns everything the family describes.
#pragma once

#include "wavebench/params.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace wb {

enum class elem { i32, u32, i64, f32, f64 };
size_t elem_size(elem e);
const char* elem_name(elem e);
bool elem_is_integer(elem e);

/// A buffer on the host: the inputs a family generates, the outputs a reference computes.
struct host_buffer {
    elem type = elem::i32;
    std::vector<std::byte> bytes;

    host_buffer() = default;
    host_buffer(elem t, size_t count) : type(t), bytes(count * elem_size(t)) {}
    size_t count() const { return bytes.size() / elem_size(type); }
    template <class T> std::span<T> as() { return {reinterpret_cast<T*>(bytes.data()), bytes.size() / sizeof(T)}; }
    template <class T> std::span<const T> as() const
    {
        return {reinterpret_cast<const T*>(bytes.data()), bytes.size() / sizeof(T)};
    }
};

using value = std::variant<int64_t, double, std::string>;
using param_map = std::map<std::string, value>;
std::string to_string(const value& v);
int64_t get_int(const param_map& p, const std::string& name);
double get_real(const param_map& p, const std::string& name);
const std::string& get_string(const param_map& p, const std::string& name);

struct param_spec {
    std::string name;
    value default_value;
    int64_t min = 0; // integers: the allowed range
    int64_t max = INT64_MAX;
    std::string help;
};

/// A family parameter as its problem header declares it (wavebench/families/<family>.h): declared
/// once, for the plugins and the family's definition alike.
param_spec spec_of(const int_param& p);
param_spec spec_of(const real_param& p);
param_spec spec_of(const text_param& p);

struct buffer_shape {
    std::string name;
    elem type;
    size_t count;
};

/// What a result's work metric is: `work(params)` units per run, reported per second / `scale`
/// in `unit` (e.g. bytes read, 1e9, "GB/s"), and compared with the ceiling named `ceiling`.
struct metric_spec {
    std::string name;
    std::string unit;
    double scale;
    std::string ceiling;
    double (*work)(const param_map&);
};

struct family {
    std::string name;
    std::string summary;
    std::string seed;
    std::string baseline; // the variant speedups are measured against
    std::string library;  // the vendor library's variant, the yardstick of the hand-written ones
    std::vector<param_spec> params;
    metric_spec metric;
    double tolerance; // 0: bit for bit (integer outputs); else relative, see compare()
    /// Why these parameter values are impossible, or "" when they are fine.
    std::string (*check)(const param_map&);
    std::vector<buffer_shape> (*inputs)(const param_map&);
    std::vector<buffer_shape> (*outputs)(const param_map&);
    /// Fills the inputs (already shaped) from the seed.
    void (*generate)(const param_map&, uint64_t seed, std::vector<host_buffer>& inputs);
    // The expected outputs come from the family's reference (reference/reference.h).
};

/// Every family: one per core/families/<name>.cpp, each defining `const family& family_<name>()`
/// (the list is generated from those files by core/CMakeLists.txt), sorted by name.
const std::vector<family>& families();
const family* find_family(std::string_view name);

/// Shapes host buffers as `shapes` says.
std::vector<host_buffer> make_buffers(const std::vector<buffer_shape>& shapes);

} // namespace wb
