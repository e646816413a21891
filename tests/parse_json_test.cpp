// harness/common/json.h: parse_json counts the nesting of arrays and objects before the library's
// parser sees the text: brackets inside strings (escaped quotes included) do not count, a document
// exactly max_json_depth deep parses, one level more is refused with json_too_deep, and text that is
// no JSON is the library's parse_error as before. json_error_text says either without the
// library's prefix.
#include <boost/test/unit_test.hpp>

#include "harness/common/json.h"

#include <string>

BOOST_AUTO_TEST_SUITE(parse_json_test)

namespace {

/// `depth` arrays, one in the other, around `inner`.
std::string nested(size_t depth, const std::string& inner = "")
{
    return std::string(depth, '[') + inner + std::string(depth, ']');
}

} // namespace

BOOST_AUTO_TEST_CASE(brackets_inside_strings_do_not_count)
{
    // 300 brackets and braces in strings, an escaped quote and an escaped backslash before the end.
    const std::string text =
        R"({"a": ")" + std::string(300, '[') + R"(\" {{{ \\", "b": [")" + std::string(300, '{') + R"("], "c": "\\"})";
    const auto j = wb::parse_json(text, 2);
    BOOST_TEST(j["a"].get<std::string>() == std::string(300, '[') + "\" {{{ \\");
    BOOST_TEST(j["b"][0].get<std::string>().size() == 300u);
    BOOST_TEST(j["c"].get<std::string>() == "\\");
    // The escaped quote does not end the string: the brackets after it are still in it.
    BOOST_CHECK_NO_THROW(wb::parse_json(R"(["\"[[[[[[["])", 1));
}

BOOST_AUTO_TEST_CASE(exactly_the_limit_parses_one_more_is_refused)
{
    BOOST_TEST(wb::max_json_depth == 256u);
    BOOST_CHECK_NO_THROW(wb::parse_json(nested(256)));
    BOOST_CHECK_NO_THROW(wb::parse_json(R"({"x":)" + nested(255, "1") + "}"));
    BOOST_CHECK_THROW(wb::parse_json(nested(257)), wb::json_too_deep);
    BOOST_CHECK_THROW(wb::parse_json(R"({"x":)" + nested(256, "1") + "}"), wb::json_too_deep);
    // Depth, not count: many arrays side by side are one level each.
    std::string wide = "[";
    for (int i = 0; i < 10000; ++i) wide += (i ? "," : "") + nested(3);
    BOOST_CHECK_NO_THROW(wb::parse_json(wide + "]", 4));
    // 100,000 levels: refused at once, where the recursive parser would overflow the stack.
    try {
        wb::parse_json(nested(100000));
        BOOST_FAIL("parsed");
    } catch (const wb::json_too_deep& e) {
        const std::string what = wb::json_error_text(e);
        BOOST_TEST(what.find("deeper than 256 levels") != std::string::npos, what);
    }
}

BOOST_AUTO_TEST_CASE(text_that_is_no_json_is_a_parse_error_without_the_library_prefix)
{
    for (const char* text : {"", "[", "[1,]", "{\"a\" 1}", "\"\x1b[31m", "]]]]"}) {
        try {
            wb::parse_json(text);
            BOOST_FAIL("parsed: " << text);
        } catch (const nlohmann::json::parse_error& e) {
            const std::string what = wb::json_error_text(e);
            BOOST_TEST(what.find("json.exception") == std::string::npos, what);
            BOOST_TEST(what.find('\x1b') == std::string::npos, what);
            BOOST_TEST(!what.empty());
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
