// Constraints between tunables (plugins/plugins.h): checked when a plugin is declared, and
// evaluated by the harness itself for each configuration, so no plugin code runs to decide.
#include "harness/common/files.h"
#include "harness/plugins/plugins.h"

#include <algorithm>
#include <iterator>
#include <string>

namespace wb {

namespace {

/// The kind's name as wb::require spells it, or null for a kind this wavebench does not know.
const char* require_name(int32_t kind)
{
    switch (kind) {
    case WB_REQUIRE_PRODUCT_AT_MOST:
        return "product_at_most";
    case WB_REQUIRE_DIVIDES:
        return "divides";
    case WB_REQUIRE_AT_MOST:
        return "at_most";
    }
    return nullptr;
}

/// "a × b" or "a × b × c".
std::string product_names(const constraint_decl& c) { return c.a + " × " + c.b + (c.c.empty() ? "" : " × " + c.c); }

/// Tunable `name`'s value in `tunables`, else its default.
int64_t value_of(const plugin& p, const param_map& tunables, const std::string& name)
{
    if (auto it = tunables.find(name); it != tunables.end())
        if (const int64_t* v = std::get_if<int64_t>(&it->second)) return *v;
    const tunable_decl* t = p.tunable(name);
    return t ? t->default_value : 0;
}

/// Why a × b (× c) breaks `c`, or "". The product is exact where it fits 64 bits; past that only
/// its sign matters (it is over any limit, or under).
std::string product_over(const plugin& p, const param_map& tunables, const constraint_decl& c)
{
    const int64_t factors[3] = {value_of(p, tunables, c.a), value_of(p, tunables, c.b),
                                c.c.empty() ? 1 : value_of(p, tunables, c.c)};
    int64_t product = 1;
    bool overflow = false, negative = false;
    for (const int64_t f : factors) {
        overflow |= __builtin_mul_overflow(product, f, &product);
        negative ^= f < 0;
    }
    if (std::find(std::begin(factors), std::end(factors), 0) != std::end(factors)) {
        product = 0; // exactly, wherever the other factors overflowed
        overflow = false;
    }
    if (overflow) return negative ? "" : product_names(c) + " is more than 2^63, over " + std::to_string(c.limit);
    if (product <= c.limit) return "";
    return product_names(c) + " = " + std::to_string(product) + " is over " + std::to_string(c.limit);
}

/// Why the tunables break `c`, or "" where they do not (the help not yet added).
std::string broken(const plugin& p, const param_map& tunables, const constraint_decl& c)
{
    const int64_t a = value_of(p, tunables, c.a), b = value_of(p, tunables, c.b);
    const std::string values = c.a + " = " + std::to_string(a);
    switch (c.kind) {
    case WB_REQUIRE_PRODUCT_AT_MOST:
        return product_over(p, tunables, c);
    case WB_REQUIRE_DIVIDES: {
        // 0 divides only 0; -1 divides everything (INT64_MIN % -1 would overflow).
        const bool divides = a == 0 ? b == 0 : a == -1 || b % a == 0;
        return divides ? "" : values + " does not divide " + c.b + " = " + std::to_string(b);
    }
    case WB_REQUIRE_AT_MOST:
        return a <= b ? "" : values + " is over " + c.b + " = " + std::to_string(b);
    }
    return ""; // check_constraints refuses other kinds
}

/// Why constraint `at` names a tunable badly in `field` ("a", "b" or "c"), or "".
std::string check_operand(const plugin& p, const std::string& at, const char* field, const std::string& name)
{
    if (name.empty()) return "its " + at + "." + field + " names no tunable (it is null or empty)";
    if (std::string why = check_name(at + "." + field, name); !why.empty()) return why;
    if (!p.tunable(name)) return "its " + at + " names tunable '" + name + "', which it does not declare";
    return "";
}

} // namespace

std::string check_constraints(const plugin& p)
{
    if (p.constraints.size() > declaration_limits::constraints)
        return "declares " + std::to_string(p.constraints.size()) + " constraints, more than the " +
               std::to_string(declaration_limits::constraints) + " a plugin may have";
    for (size_t i = 0; i < p.constraints.size(); ++i) {
        const constraint_decl& c = p.constraints[i];
        const std::string at = "constraints[" + std::to_string(i) + "]";
        const char* kind = require_name(c.kind);
        if (!kind)
            return "its " + at + " has kind " + std::to_string(c.kind) +
                   ", which this wavebench does not know (it knows 0 to 2: product_at_most, divides, at_most)";
        if (std::string why = check_operand(p, at, "a", c.a); !why.empty()) return why;
        if (std::string why = check_operand(p, at, "b", c.b); !why.empty()) return why;
        if (c.kind != WB_REQUIRE_PRODUCT_AT_MOST && !c.c.empty())
            return "its " + at + " (" + kind + ") names a third tunable '" + shorten(c.c) +
                   "': only product_at_most takes one";
        if (!c.c.empty())
            if (std::string why = check_operand(p, at, "c", c.c); !why.empty()) return why;
        if (c.help.size() > declaration_limits::text)
            return "its " + at + ".help is longer than " + std::to_string(declaration_limits::text) + " bytes: '" +
                   shorten(c.help) + "'";
        if (!printable_text(c.help)) return "its " + at + ".help is not printable: '" + shorten(c.help) + "'";
    }
    // Where no suite says otherwise, a configuration takes every default: that one must be allowed.
    if (std::string why = violated_constraint(p, {}); !why.empty())
        return "its tunables' defaults break its constraints: " + why;
    return "";
}

std::string violated_constraint(const plugin& p, const param_map& tunables)
{
    for (const constraint_decl& c : p.constraints)
        if (std::string why = broken(p, tunables, c); !why.empty())
            return c.help.empty() ? why : why + " (" + c.help + ")";
    return "";
}

std::string describe_constraint(const constraint_decl& c)
{
    switch (c.kind) {
    case WB_REQUIRE_PRODUCT_AT_MOST:
        return product_names(c) + " ≤ " + std::to_string(c.limit);
    case WB_REQUIRE_DIVIDES:
        return c.a + " divides " + c.b;
    case WB_REQUIRE_AT_MOST:
        return c.a + " ≤ " + c.b;
    }
    return "kind " + std::to_string(c.kind);
}

} // namespace wb
