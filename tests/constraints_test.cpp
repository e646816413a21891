// Constraints between tunables: each kind allows and refuses what it says, with the reason a
// skipped configuration shows; a declaration whose constraints cannot be used is refused, naming
// the field; constraints survive the trip from a worker.
#include <boost/test/unit_test.hpp>

#include "harness/plugins/plugins.h"
#include "harness/worker/wire.h"

#include <limits>

BOOST_AUTO_TEST_SUITE(constraints_test)

namespace {

constexpr int64_t max64 = std::numeric_limits<int64_t>::max(), min64 = std::numeric_limits<int64_t>::min();

/// A plugin with one constraint of each kind.
wb::plugin constrained()
{
    wb::plugin p;
    p.fam = wb::find_family("reduce");
    p.variant = "constrained";
    p.tunables = {{"items", "", 16, 1, 4096, false, {}},
                  {"block_size", "", 256, 32, 1024, true, {}},
                  {"tile", "", 16, 0, 0, false, {8, 16, 32, 48}},
                  {"unroll", "", 2, 1, 8, false, {}}};
    p.constraints = {{WB_REQUIRE_PRODUCT_AT_MOST, "items", "block_size", "", 8192, "the tile fits in LDS"},
                     {WB_REQUIRE_DIVIDES, "tile", "block_size", "", 0, ""},
                     {WB_REQUIRE_AT_MOST, "unroll", "items", "", 0, ""},
                     {WB_REQUIRE_PRODUCT_AT_MOST, "items", "unroll", "tile", 1024, ""}};
    return p;
}

wb::param_map values(std::initializer_list<std::pair<const char*, int64_t>> list)
{
    wb::param_map m;
    for (const auto& [name, v] : list) m[name] = v;
    return m;
}

/// A plugin with the one constraint `c` over tunables x, y and z, which take any integer.
wb::plugin only(wb::constraint_decl c)
{
    wb::plugin p;
    p.fam = wb::find_family("reduce");
    p.variant = "only";
    for (const char* name : {"x", "y", "z"}) p.tunables.push_back({name, "", 1, min64, max64, false, {}});
    p.constraints = {std::move(c)};
    return p;
}

} // namespace

BOOST_AUTO_TEST_CASE(the_defaults_and_allowed_combinations_pass)
{
    const wb::plugin p = constrained();
    BOOST_CHECK_EQUAL(wb::violated_constraint(p, {}), "");
    BOOST_CHECK_EQUAL(wb::violated_constraint(p, values({{"items", 32}, {"block_size", 256}})), ""); // 8192 exactly
    BOOST_CHECK_EQUAL(wb::violated_constraint(p, values({{"tile", 32}, {"block_size", 64}})), "");
    BOOST_CHECK_EQUAL(wb::violated_constraint(p, values({{"unroll", 8}, {"items", 8}})), "");
}

BOOST_AUTO_TEST_CASE(each_kind_says_what_is_broken_with_the_values)
{
    const wb::plugin p = constrained();
    BOOST_CHECK_EQUAL(wb::violated_constraint(p, values({{"items", 32}, {"block_size", 512}})),
                      "items × block_size = 16384 is over 8192 (the tile fits in LDS)");
    BOOST_CHECK_EQUAL(wb::violated_constraint(p, values({{"tile", 48}})), "tile = 48 does not divide block_size = 256");
    BOOST_CHECK_EQUAL(wb::violated_constraint(p, values({{"unroll", 8}, {"items", 4}})),
                      "unroll = 8 is over items = 4");
    BOOST_CHECK_EQUAL(wb::violated_constraint(p, values({{"items", 16}, {"unroll", 8}})),
                      "items × unroll × tile = 2048 is over 1024");
    // The first constraint broken is the one named.
    BOOST_CHECK_EQUAL(wb::violated_constraint(p, values({{"items", 64}, {"tile", 48}})),
                      "items × block_size = 16384 is over 8192 (the tile fits in LDS)");
}

BOOST_AUTO_TEST_CASE(products_past_64_bits_and_odd_divisors_are_decided_without_overflow)
{
    const wb::plugin product = only({WB_REQUIRE_PRODUCT_AT_MOST, "x", "y", "z", 100, ""});
    BOOST_CHECK_EQUAL(wb::violated_constraint(product, values({{"x", max64}, {"y", 2}})),
                      "x × y × z is more than 2^63, over 100");
    BOOST_CHECK_EQUAL(wb::violated_constraint(product, values({{"x", max64}, {"y", -2}})), "");
    BOOST_CHECK_EQUAL(wb::violated_constraint(product, values({{"x", max64}, {"y", max64}, {"z", 0}})), "");
    BOOST_CHECK_EQUAL(wb::violated_constraint(product, values({{"x", min64}, {"y", -1}})),
                      "x × y × z is more than 2^63, over 100");
    const wb::plugin divides = only({WB_REQUIRE_DIVIDES, "x", "y", "", 0, ""});
    BOOST_CHECK_EQUAL(wb::violated_constraint(divides, values({{"x", -1}, {"y", min64}})), "");
    BOOST_CHECK_EQUAL(wb::violated_constraint(divides, values({{"x", 0}, {"y", 0}})), "");
    BOOST_CHECK_EQUAL(wb::violated_constraint(divides, values({{"x", 0}, {"y", 4}})), "x = 0 does not divide y = 4");
    BOOST_CHECK_EQUAL(wb::violated_constraint(divides, values({{"x", -4}, {"y", 8}})), "");
}

BOOST_AUTO_TEST_CASE(constraints_are_described_as_list_shows_them)
{
    const wb::plugin p = constrained();
    BOOST_CHECK_EQUAL(wb::describe_constraint(p.constraints[0]), "items × block_size ≤ 8192");
    BOOST_CHECK_EQUAL(wb::describe_constraint(p.constraints[1]), "tile divides block_size");
    BOOST_CHECK_EQUAL(wb::describe_constraint(p.constraints[2]), "unroll ≤ items");
    BOOST_CHECK_EQUAL(wb::describe_constraint(p.constraints[3]), "items × unroll × tile ≤ 1024");
}

BOOST_AUTO_TEST_CASE(a_declaration_with_unusable_constraints_is_refused_naming_the_field)
{
    BOOST_CHECK_EQUAL(wb::check_declaration(constrained()), "");
    const std::pair<void (*)(wb::plugin&), std::string> cases[] = {
        {[](wb::plugin& p) { p.constraints[1].a = ""; }, "its constraints[1].a names no tunable (it is null or empty)"},
        {[](wb::plugin& p) { p.constraints[0].b = "blocks"; },
         "its constraints[0] names tunable 'blocks', which it does not declare"},
        {[](wb::plugin& p) { p.constraints[3].c = "width"; },
         "its constraints[3] names tunable 'width', which it does not declare"},
        {[](wb::plugin& p) { p.constraints[0].a = "a b"; }, "its constraints[0].a is not a name"},
        {[](wb::plugin& p) { p.constraints[2].kind = 7; },
         "its constraints[2] has kind 7, which this wavebench does not know"},
        {[](wb::plugin& p) { p.constraints[1].c = "items"; },
         "its constraints[1] (divides) names a third tunable 'items': only product_at_most takes one"},
        {[](wb::plugin& p) { p.constraints[0].help = "two\nlines"; },
         "its constraints[0].help is not printable: 'two\\x0alines'"},
        {[](wb::plugin& p) { p.constraints[0].help = std::string(1025, 'h'); },
         "its constraints[0].help is longer than 1024 bytes"},
        {[](wb::plugin& p) { p.constraints.resize(257, p.constraints[1]); },
         "declares 257 constraints, more than the 256"},
        {[](wb::plugin& p) { p.tunables[0].default_value = 64; },
         "its tunables' defaults break its constraints: items × block_size = 16384 is over 8192 (the tile fits in "
         "LDS)"},
    };
    for (const auto& [garble, words] : cases) {
        wb::plugin p = constrained();
        garble(p);
        const std::string why = wb::check_declaration(p);
        BOOST_TEST_INFO("reason: " << why);
        BOOST_CHECK_NE(why.find(words), std::string::npos);
    }
}

BOOST_AUTO_TEST_CASE(constraints_travel_from_a_worker_and_are_checked_there_too)
{
    const wb::plugin p = constrained();
    const wb::plugin back = wb::wire::plugin_from(wb::wire::to_json(p));
    BOOST_REQUIRE_EQUAL(back.constraints.size(), p.constraints.size());
    for (size_t i = 0; i < p.constraints.size(); ++i)
        BOOST_CHECK_EQUAL(wb::describe_constraint(back.constraints[i]), wb::describe_constraint(p.constraints[i]));
    BOOST_CHECK_EQUAL(back.constraints[0].help, "the tile fits in LDS");
    // Garbled on the way: refused as a descriptor would be.
    nlohmann::json j = wb::wire::to_json(p);
    j["constraints"][1][2] = "nowhere";
    wb::plugin_registry reg(wb::platform_kind::cpu);
    reg.add_declared(wb::wire::plugin_from(j));
    BOOST_REQUIRE_EQUAL(reg.rejections().size(), 1u);
    BOOST_CHECK_EQUAL(reg.rejections()[0].reason,
                      "its constraints[1] names tunable 'nowhere', which it does not declare");
    j = wb::wire::to_json(p);
    j["constraints"][0][4] = 1.5;
    BOOST_CHECK_THROW(wb::wire::plugin_from(j), std::runtime_error);
}

BOOST_AUTO_TEST_SUITE_END()
