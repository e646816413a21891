#include "core/family.h"

#include <stdexcept>

namespace wb {

size_t elem_size(elem e)
{
    switch (e) {
    case elem::i32:
    case elem::u32:
    case elem::f32:
        return 4;
    case elem::i64:
    case elem::f64:
        return 8;
    }
    return 0;
}

const char* elem_name(elem e)
{
    switch (e) {
    case elem::i32:
        return "int32";
    case elem::u32:
        return "uint32";
    case elem::i64:
        return "int64";
    case elem::f32:
        return "float32";
    case elem::f64:
        return "float64";
    }
    return "?";
}

bool elem_is_integer(elem e) { return e == elem::i32 || e == elem::u32 || e == elem::i64; }

std::string to_string(const value& v)
{
    if (auto i = std::get_if<int64_t>(&v)) return std::to_string(*i);
    if (auto d = std::get_if<double>(&v)) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", *d);
        return buf;
    }
    return std::get<std::string>(v);
}

namespace {
const value& param_value(const param_map& p, const std::string& name)
{
    auto it = p.find(name);
    if (it == p.end()) throw std::logic_error("parameter '" + name + "' missing");
    return it->second;
}
} // namespace

int64_t get_int(const param_map& p, const std::string& name) { return std::get<int64_t>(param_value(p, name)); }
double get_real(const param_map& p, const std::string& name) { return std::get<double>(param_value(p, name)); }
const std::string& get_string(const param_map& p, const std::string& name)
{
    return std::get<std::string>(param_value(p, name));
}

param_spec spec_of(const int_param& p) { return {p.name, p.default_value, p.min, p.max, p.help}; }
param_spec spec_of(const real_param& p) { return {p.name, p.default_value, p.min, p.max, p.help}; }
param_spec spec_of(const text_param& p) { return {p.name, std::string(p.default_value), p.min, p.max, p.help}; }

const family* find_family(std::string_view name)
{
    for (const auto& f : families())
        if (f.name == name) return &f;
    return nullptr;
}

std::vector<host_buffer> make_buffers(const std::vector<buffer_shape>& shapes)
{
    std::vector<host_buffer> r;
    r.reserve(shapes.size());
    for (const auto& s : shapes) r.emplace_back(s.type, s.count);
    return r;
}

} // namespace wb
