// harness/db_url: which --db values are PostgreSQL URLs, and that no form of a URL's password
// survives redaction (in user information, in the query, in text around it, decoded in a message).
#define BOOST_TEST_MODULE db_url
#include <boost/test/unit_test.hpp>

#include "harness/history/db_url.h"

using wb::redact_urls;
using wb::redacted;

BOOST_AUTO_TEST_CASE(postgres_urls)
{
    BOOST_TEST(wb::is_postgres_url("postgresql://u@h/db"));
    BOOST_TEST(wb::is_postgres_url("postgres://h"));
    BOOST_TEST(!wb::is_postgres_url("history.db"));
    BOOST_TEST(!wb::is_postgres_url("./postgresql://x"));
    BOOST_TEST(!wb::is_postgres_url("mysql://u:p@h/db"));
}

BOOST_AUTO_TEST_CASE(passwords_in_urls)
{
    BOOST_TEST(redact_urls("postgresql://u:secret@h:5432/db") == "postgresql://u:***@h:5432/db");
    BOOST_TEST(redact_urls("postgres://u:secret@h/db") == "postgres://u:***@h/db");
    BOOST_TEST(redact_urls("postgresql://:secret@h/db") == "postgresql://:***@h/db");
    BOOST_TEST(redact_urls("postgresql://u:p%40ss@h/db") == "postgresql://u:***@h/db");
    // An unencoded / or ? in the password: still hidden.
    BOOST_TEST(redact_urls("postgresql://u:a/b?c@h/db") == "postgresql://u:***@h/db");
    BOOST_TEST(redact_urls("postgresql://u@h/db?sslmode=require&password=secret&x=1") ==
               "postgresql://u@h/db?sslmode=require&password=***&x=1");
    BOOST_TEST(redact_urls("postgresql://u@h/db?password=secret") == "postgresql://u@h/db?password=***");
    // libpq decodes the keys: an encoded 'password' is one too.
    BOOST_TEST(redact_urls("postgresql://u@h/db?pass%77ord=secret") == "postgresql://u@h/db?pass%77ord=***");
    BOOST_TEST(redact_urls("postgresql://u@h/db?x=1&%70assword=secret&y=2") ==
               "postgresql://u@h/db?x=1&%70assword=***&y=2");
    BOOST_TEST(redact_urls("postgresql://u@h/db?passwords=kept") == "postgresql://u@h/db?passwords=kept");
    // Nothing to hide.
    BOOST_TEST(redact_urls("postgresql://u@h:5432/db") == "postgresql://u@h:5432/db");
    BOOST_TEST(redact_urls("postgresql://h:5432/db") == "postgresql://h:5432/db");
    BOOST_TEST(redact_urls("no url: user:pw@host") == "no url: user:pw@host");
    BOOST_TEST(redact_urls("") == "");
}

BOOST_AUTO_TEST_CASE(urls_in_text)
{
    BOOST_TEST(redact_urls("wavebench run s.toml --db postgresql://u:one@h/db --out r.json") ==
               "wavebench run s.toml --db postgresql://u:***@h/db --out r.json");
    BOOST_TEST(redact_urls("--db=postgres://u:one@h/db") == "--db=postgres://u:***@h/db");
    BOOST_TEST(redact_urls("a \"postgresql://u:one@h/a\" and postgres://v:two@k/b.") ==
               "a \"postgresql://u:***@h/a\" and postgres://v:***@k/b.");
}

BOOST_AUTO_TEST_CASE(a_message_that_quotes_the_password)
{
    const std::string url = "postgresql://u:p%40ss@h/db";
    BOOST_TEST(redacted("auth failed for p@ss (p%40ss) at " + url, url) ==
               "auth failed for *** (***) at postgresql://u:***@h/db");
    BOOST_TEST(redacted("unchanged", "postgresql://u@h/db") == "unchanged");
}
