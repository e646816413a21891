// harness/db_url: which --db values are PostgreSQL URLs and which are refused as connection strings
// of another form, and that no form of a password survives redaction (in user information, in the
// query, in libpq's KEY=VALUE form, in text around it, decoded in a message), whatever it holds.
#include <boost/test/unit_test.hpp>

#include "harness/history/db_url.h"

BOOST_AUTO_TEST_SUITE(db_url_test)

using wb::redact_argument;
using wb::redact_command_line;
using wb::redact_urls;
using wb::redacted;
using wb::refused_history;

BOOST_AUTO_TEST_CASE(postgres_urls)
{
    BOOST_TEST(wb::is_postgres_url("postgresql://u@h/db"));
    BOOST_TEST(wb::is_postgres_url("postgres://h"));
    BOOST_TEST(!wb::is_postgres_url("history.db"));
    BOOST_TEST(!wb::is_postgres_url("./postgresql://x"));
    BOOST_TEST(!wb::is_postgres_url("mysql://u:p@h/db"));
    BOOST_TEST(!wb::is_postgres_url("POSTGRESQL://u@h/db")); // libpq reads it as a database's name
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
    // Any key that names a password or secret: hiding too much is safe.
    BOOST_TEST(redact_urls("postgresql://u@h/db?sslpassword=a&passwords=b") ==
               "postgresql://u@h/db?sslpassword=***&passwords=***");
    BOOST_TEST(redact_urls("postgresql://u@h/db?sslmode=require") == "postgresql://u@h/db?sslmode=require");
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
    // A URL without user information before the next: nothing of either is hidden but the password.
    const std::string said = "--db is a URL of scheme mysql://, which is not read: write postgresql://USER@HOST/DB";
    BOOST_TEST(redact_urls(said) == said);
}

BOOST_AUTO_TEST_CASE(a_message_that_quotes_the_password)
{
    const std::string url = "postgresql://u:p%40ss@h/db";
    BOOST_TEST(redacted("auth failed for p@ss (p%40ss) at " + url, url) ==
               "auth failed for *** (***) at postgresql://u:***@h/db");
    BOOST_TEST(redacted("unchanged", "postgresql://u@h/db") == "unchanged");
}

// What the sweep found: a password with a space or a quote was redacted only up to it.
BOOST_AUTO_TEST_CASE(an_argument_is_redacted_whole)
{
    for (const std::string password : {"Sp ace", "it's", "say \"x\"", "a@b", "a/b?c#d", "p%20q%27", "a b'c\"d@e/f%41",
                                       "tab\there", "x://y@z", "?password=&", "\x1b[31m"}) {
        for (const std::string scheme : {"postgresql://", "postgres://", "POSTGRESQL://", "mysql://"}) {
            const std::string url = scheme + "u:" + password + "@h:5432/db?sslmode=require";
            BOOST_TEST(redact_argument(url) == scheme + "u:***@h:5432/db?sslmode=require", url);
            BOOST_TEST(redact_argument("--db=" + url) == "--db=" + scheme + "u:***@h:5432/db?sslmode=require", url);
        }
        const std::string line = redact_command_line(
            {"wavebench", "run", "s.toml", "--db", "postgresql://u:" + password + "@h/db", "-o", "r"});
        // A '/', '?' or '#' in the password: refused (libpq would misread it), hidden whole.
        const bool refused = password.find_first_of("/?#") != std::string::npos;
        BOOST_TEST(line == std::string("wavebench run s.toml --db ") + (refused ? "***" : "postgresql://u:***@h/db") +
                               " -o r",
                   password);
        BOOST_TEST(redact_urls("no run 9 in the history (postgresql://u:" + password + "@h/db)") ==
                       "no run 9 in the history (postgresql://u:***@h/db)",
                   password);
    }
    BOOST_TEST(redact_argument("postgresql://u@h/db?password=a b&c=1") == "postgresql://u@h/db?password=***&c=1");
    BOOST_TEST(redact_argument("history.db") == "history.db");
    BOOST_TEST(redact_argument("user:pw@host") == "user:pw@host");
}

BOOST_AUTO_TEST_CASE(libpq_keyword_value_strings)
{
    BOOST_TEST(redact_argument("host=h password=secret dbname=x") == "host=h password=*** dbname=x");
    BOOST_TEST(redact_argument("host=h password = 'a b\\' c' user=u") == "host=h password = *** user=u");
    BOOST_TEST(redact_argument("password=a\\ b user=u") == "password=*** user=u");
    BOOST_TEST(redact_argument("host=h sslpassword='x y'") == "host=h sslpassword=***");
    BOOST_TEST(redact_argument("password='unclosed and more") == "password=***");
    BOOST_TEST(redact_argument("a-password=kept") == "a-password=kept"); // no key: it follows no white space
    BOOST_TEST(redact_command_line({"wavebench", "history", "--db", "host=h password='a b'"}) ==
               "wavebench history --db ***");
    BOOST_TEST(redact_command_line({"wavebench", "history", "--db=host=h user=u"}) == "wavebench history --db=***");
    BOOST_TEST(redact_command_line({"wavebench", "history", "--db", "h.db"}) == "wavebench history --db h.db");
}

BOOST_AUTO_TEST_CASE(connection_strings_that_are_no_url_are_refused)
{
    for (const std::string db :
         {"host=h password=Secret9", "dbname = x", "user=u", "  service=s", "h.db sslmode=x",
          "POSTGRESQL://u:Secret9@h/db", "Postgres://u:Secret9@h/db", " postgresql://u:Secret9@h",
          "mysql://u:Secret9@h/db", "sqlite:///tmp/x.db", "file://x"}) {
        const std::string why = refused_history(db, "--db");
        BOOST_TEST(!why.empty(), db);
        BOOST_TEST(why.find("Secret9") == std::string::npos, why);
        BOOST_TEST(why.find("postgresql://USER@HOST") != std::string::npos, why);
        BOOST_TEST(why.rfind("--db ", 0) == 0, why);
    }
    for (const std::string db : {"history.db", "postgresql://u:pw@h/db", "postgres://h", "./host=x.db", "/tmp/a b=c.db",
                                 "~/x", "a=b.db", "dir/host=x", "results:2024.db"})
        BOOST_TEST(refused_history(db, "--db").empty(), db);
}

BOOST_AUTO_TEST_CASE(urls_libpq_would_misread_are_refused)
{
    // A '/', '?' or '#' in the password ends libpq's host there: it read "Secret9" as the port, and
    // its error quoted it. A postgresql: without // or a percent-encoded one would be an SQLite file.
    for (const std::string db :
         {"postgresql://u:Secret9/x@h/db", "postgresql://u:Secret9?x@h/db", "postgres://u:Secret9#x@h:5432/db",
          "postgresql:/u:Secret9@h:1/db", "postgresql:u:Secret9@h/db", "POSTGRES:u:Secret9@h/db",
          "postgresql%3A%2F%2Fu%3ASecret9%40h%2Fdb", "x%3a%2f%2fu:Secret9@h"}) {
        const std::string why = refused_history(db, "--db");
        BOOST_TEST(!why.empty(), db);
        BOOST_TEST(why.find("Secret9") == std::string::npos, why);
    }
    for (const std::string db : {"postgresql://u:Sec%2Fret9@h/db", "postgresql://h/db?application_name=x",
                                 "postgresql://u@h/db#frag", "postgresql-results.db", "./postgresql:u@h"})
        BOOST_TEST(refused_history(db, "--db").empty(), db);
}

BOOST_AUTO_TEST_CASE(remembered_passwords_are_hidden_anywhere)
{
    wb::remember_passwords("postgresql://u:Hunter2%20x@h/db");
    wb::remember_passwords("host=h password='Sw0rd fish'");
    wb::remember_passwords("postgresql://u:abc@h/db"); // too short to hide outside a URL
    BOOST_TEST(redact_urls("unknown command 'Hunter2 x' and Hunter2%20x") == "unknown command '***' and ***");
    BOOST_TEST(redact_urls("Sw0rd fish, 'Sw0rd fish'") == "***, ***");
    BOOST_TEST(redact_urls("abc") == "abc");
}

BOOST_AUTO_TEST_SUITE_END()
