// harness/measure/status.h: every status reads back as itself from the text the results JSON
// writes, and text that is no status is refused with a message that says what is expected.
#include <boost/test/unit_test.hpp>

#include "harness/measure/status.h"

#include <set>
#include <string>

BOOST_AUTO_TEST_SUITE(status_text_test)

BOOST_AUTO_TEST_CASE(every_status_reads_back_as_itself)
{
    std::set<std::string> texts;
    for (wb::status s : wb::all_statuses) {
        const std::string text = wb::to_string(s);
        texts.insert(text);
        BOOST_TEST((wb::parse_status(text) == s), text);
        BOOST_TEST((wb::status_from_string(text) == s), text);
    }
    BOOST_TEST(texts.size() == size_t(wb::status_count)); // each has its own text
    BOOST_TEST(std::string(wb::to_string(wb::status::timeout)) == "timeout");
}

BOOST_AUTO_TEST_CASE(text_that_is_no_status_is_an_error_naming_it)
{
    for (const char* text : {"", "Verified", "verified ", "passed", "?"}) {
        BOOST_TEST(!wb::parse_status(text).has_value(), text);
        try {
            wb::status_from_string(text);
            BOOST_FAIL("no error for '" << text << "'");
        } catch (const std::invalid_argument& e) {
            const std::string what = e.what();
            BOOST_TEST(what.find("'" + std::string(text) + "' is not a status") != std::string::npos, what);
            BOOST_TEST(what.find("verified, failed, error, skipped, crashed, timeout") != std::string::npos, what);
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
