// Typed access to the parameters the harness passes a plugin (wb_args::params): family parameters
// (n, m, pattern, ...) and tunables (block_size, ...). Plain C++ with no HIP, so the families'
// problem headers (wavebench/families/<family>.h) declare their parameters once, with their
// default, range and meaning, for the plugins, the reference and the family's definition alike:
//
//     inline constexpr auto n = wb::int_param::range("n", 1 << 20, 0, 1 << 30, "elements"); // problem header
//     const int64_t count = n(a);   // in a plugin: throws if n is missing or not an integer
//
// A wrong kind is an error that names the parameter, what it is and what was asked for.
#pragma once

#include "wavebench/plugin_abi.h"

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

namespace wb {

inline const char* kind_name(int32_t kind)
{
    return kind == WB_INT      ? "an integer"
           : kind == WB_REAL   ? "a real"
           : kind == WB_STRING ? "a string"
                               : "of no known kind";
}

/// The parameter `name` as passed; throws when the harness did not pass it.
inline const wb_param& param_entry(const wb_args* a, const char* name)
{
    for (uint32_t i = 0; i < a->n_params; ++i)
        if (std::strcmp(a->params[i].name, name) == 0) return a->params[i];
    throw std::runtime_error(std::string("parameter '") + name + "' was not passed to the plugin");
}

namespace detail {
[[noreturn]] inline void wrong_kind(const wb_param& p, int32_t wanted)
{
    std::string value = p.kind == WB_INT      ? std::to_string(p.i)
                        : p.kind == WB_REAL   ? std::to_string(p.f)
                        : p.kind == WB_STRING ? "'" + std::string(p.s ? p.s : "") + "'"
                                              : "?";
    throw std::runtime_error(std::string("parameter '") + p.name + "' is " + kind_name(p.kind) + " (" + value +
                             "), not " + kind_name(wanted) + " as the plugin reads it");
}
} // namespace detail

/// An integer parameter or tunable.
inline int64_t integer(const wb_args* a, const char* name)
{
    const wb_param& p = param_entry(a, name);
    if (p.kind != WB_INT) detail::wrong_kind(p, WB_INT);
    return p.i;
}

/// A real parameter (an integer is not taken for one: the family says which it is).
inline double real(const wb_args* a, const char* name)
{
    const wb_param& p = param_entry(a, name);
    if (p.kind != WB_REAL) detail::wrong_kind(p, WB_REAL);
    return p.f;
}

/// A string parameter, valid while the call lasts.
inline std::string_view text(const wb_args* a, const char* name)
{
    const wb_param& p = param_entry(a, name);
    if (p.kind != WB_STRING) detail::wrong_kind(p, WB_STRING);
    return p.s ? p.s : "";
}

/// A named parameter of one kind: declare it once, read it with `name(args)`. A family's parameter
/// also says its default, its meaning and, for an integer, its range (core/families/<family>.cpp
/// builds its parameter list from these); `int_param{"n"}`, a name alone, still declares one.
template <class T, T (*read)(const wb_args*, const char*)> struct typed_param {
    const char* name;
    T default_value{};
    const char* help = "";
    int64_t min = 0, max = 0; // integers: the allowed range

    /// An integer in [min, max].
    static constexpr typed_param range(const char* name, T def, int64_t min, int64_t max, const char* help)
    {
        return {name, def, help, min, max};
    }
    /// A real or a string, checked by the family.
    static constexpr typed_param of(const char* name, T def, const char* help) { return {name, def, help}; }

    T operator()(const wb_args* a) const { return read(a, name); }
};
using int_param = typed_param<int64_t, integer>;
using real_param = typed_param<double, real>;
using text_param = typed_param<std::string_view, text>;

} // namespace wb
