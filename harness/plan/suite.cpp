// Suites: TOML text parsed into a suite (settings and benchmarks); every error names the file,
// line and column.
#include "harness/plan/suite.h"

#include "harness/common/files.h"

// Toml++ 3.3 asserts some preconditions that malformed text breaks ("[{", "[5,}", "T+7:3": its
// issue 294 and others), then reports the error anyway, as a g++ release build (without the
// assertions) does. They are left out of every build: a debug build would abort on such a suite.
// (Clang with NDEBUG would assume them instead; the project builds with g++.)
#define TOML_ASSERT(expr) static_assert(true)
#include <toml++/toml.h>

#include <algorithm>
#include <cctype>

namespace wb {

std::string to_string(const source_pos& p)
{
    if (p.line <= 0) return p.file;
    return p.file + ":" + std::to_string(p.line) + ":" + std::to_string(p.column);
}

namespace {

struct parser {
    std::string file;

    source_pos pos(const toml::node& n) const { return at(n.source()); }
    source_pos pos(const toml::key& k) const { return at(k.source()); }
    source_pos at(const toml::source_region& r) const { return {file, int(r.begin.line), int(r.begin.column)}; }

    [[noreturn]] void fail(const toml::node& n, const std::string& msg) const { throw suite_error(pos(n), msg); }

    int64_t integer(const toml::node& n, const std::string& key, int64_t min, int64_t max) const
    {
        // The kind first: toml++'s value<int64_t>() casts a real unchecked (undefined out of range).
        if (!n.is_integer()) fail(n, "'" + key + "' must be an integer");
        const int64_t v = *n.value<int64_t>();
        if (v < min || v > max)
            fail(n, "'" + key + "' = " + std::to_string(v) + " is out of range: allowed " + std::to_string(min) + ".." +
                        std::to_string(max));
        return v;
    }

    double real(const toml::node& n, const std::string& key, double min, double max) const
    {
        if (!n.is_number()) fail(n, "'" + key + "' must be a number");
        const double v = n.is_integer() ? double(*n.value<int64_t>()) : *n.value<double>();
        if (!(v >= min && v <= max))
            fail(n, "'" + key + "' = " + std::to_string(v) + " is out of range: allowed " + std::to_string(min) + ".." +
                        std::to_string(max));
        return v;
    }

    bool boolean(const toml::node& n, const std::string& key) const
    {
        if (!n.is_boolean()) fail(n, "'" + key + "' must be true or false");
        return *n.value<bool>();
    }

    std::string string(const toml::node& n, const std::string& key) const
    {
        if (!n.is_string()) fail(n, "'" + key + "' must be a string");
        return *n.value<std::string>();
    }

    /// The suite's name: it names the results file, so a name and not a path.
    std::string name(const toml::node& n, const std::string& key) const
    {
        std::string v = string(n, key);
        const bool ok = !v.empty() && v.size() <= 64 && v.front() != '.' && std::all_of(v.begin(), v.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
        });
        if (!ok)
            fail(n, "'" + key + "' = '" + shorten(v) +
                        "' is not a name: 1 to 64 letters, digits, '-', '_' or '.', "
                        "not starting with '.' (it names the results file)");
        return v;
    }

    /// A string value that messages and tables show whole: printable ASCII, at most 256 characters.
    std::string short_text(const toml::node& n, const std::string& key) const
    {
        std::string v = string(n, key);
        if (v.size() > 256 || !printable_ascii(v))
            fail(n, "'" + key + "' = '" + shorten(v) + "': a value here is printable ASCII, at most 256 characters");
        return v;
    }

    /// Free text (a description): bounded, and no control characters, which a terminal would obey.
    std::string text(const toml::node& n, const std::string& key) const
    {
        std::string v = string(n, key);
        if (v.size() > 4096) fail(n, "'" + key + "' is " + std::to_string(v.size()) + " bytes long: at most 4096");
        if (std::any_of(v.begin(), v.end(),
                        [](char c) { return (c >= 0 && c < 0x20 && c != '\n' && c != '\t') || c == 0x7f; }))
            fail(n, "'" + key + "' holds a control character: '" + shorten(v) + "'");
        return v;
    }

    void suite_table(const toml::table& t, suite& s) const
    {
        for (const auto& [k, v] : t) {
            const std::string key(k.str());
            if (key == "name")
                s.name = name(v, key);
            else if (key == "description")
                s.description = text(v, key);
            else if (key == "repetitions")
                s.settings.repetitions = int(integer(v, key, 1, 1000000));
            else if (key == "warmup")
                s.settings.warmup = int(integer(v, key, 0, 1000000));
            else if (key == "seed")
                s.settings.seed = uint64_t(integer(v, key, 0, INT64_MAX));
            else if (key == "min_time_s")
                s.settings.min_time_s = real(v, key, 0, 3600);
            else if (key == "max_samples")
                s.settings.max_samples = int(integer(v, key, 1, 100000000));
            else if (key == "max_time_s")
                s.settings.max_time_s = real(v, key, 0.001, 86400);
            else if (key == "verify_every")
                s.settings.verify_every = int(integer(v, key, 1, 1000000));
            else if (key == "timeout_s")
                s.settings.timeout_s = real(v, key, 0.1, 86400 * 7);
            else if (key == "counters")
                s.settings.counters = boolean(v, key);
            else
                throw suite_error(pos(k),
                                  "unknown key '" + shorten(key) +
                                      "' in [suite] (known: name, description, repetitions, warmup, seed, "
                                      "min_time_s, max_samples, max_time_s, verify_every, timeout_s, counters)");
        }
    }

    /// A scalar or an array of scalars of one kind, as an axis.
    axis axis_of(const toml::key& k, const toml::node& n, const param_spec* spec) const
    {
        const std::string key(k.str());
        axis a{key, {}, pos(k)};
        auto add = [&](const toml::node& e) {
            if (e.is_integer())
                a.values.push_back({*e.value<int64_t>(), pos(e)});
            else if (e.is_floating_point())
                a.values.push_back({*e.value<double>(), pos(e)});
            else if (e.is_string())
                a.values.push_back({short_text(e, key), pos(e)});
            else
                fail(e, "'" + key + "' takes integers, reals or strings (a value or a list of them)");
        };
        if (const toml::array* arr = n.as_array()) {
            if (arr->empty()) fail(n, "'" + key + "' is an empty list: give at least one value");
            for (const auto& e : *arr) add(e);
        } else {
            add(n);
        }
        for (const auto& v : a.values) {
            if (v.v.index() != a.values.front().v.index())
                throw suite_error(v.pos,
                                  "'" + key + "' mixes kinds of values: give all integers, all reals or all strings");
            if (!spec) continue;
            if (v.v.index() != spec->default_value.index())
                throw suite_error(v.pos, "'" + key + "' must be " +
                                             (std::holds_alternative<int64_t>(spec->default_value)  ? "an integer"
                                              : std::holds_alternative<double>(spec->default_value) ? "a real number"
                                                                                                    : "a string"));
            if (auto i = std::get_if<int64_t>(&v.v); i && (*i < spec->min || *i > spec->max))
                throw suite_error(v.pos, "'" + key + "' = " + std::to_string(*i) + " is out of range: allowed " +
                                             std::to_string(spec->min) + ".." + std::to_string(spec->max) + " (" +
                                             spec->help + ")");
        }
        return a;
    }

    benchmark_spec benchmark(const toml::table& t) const
    {
        benchmark_spec b;
        b.pos = pos(t);
        const toml::node* fam = t.get("family");
        if (!fam) fail(t, "[[benchmark]] needs a 'family' (one of: " + family_names() + ")");
        b.fam = find_family(string(*fam, "family"));
        if (!b.fam)
            fail(*fam, "unknown family '" + shorten(*fam->value<std::string>()) + "' (known: " + family_names() + ")");
        for (const auto& [k, v] : t) {
            const std::string key(k.str());
            if (key == "family") continue;
            if (!is_name(key)) // as plugins name their tunables (check_name)
                throw suite_error(pos(k),
                                  "'" + shorten(key) + "' is not a parameter name: 1 to 64 letters, digits or '_'");
            if (key == "variants") {
                auto add = [&](const toml::node& e) {
                    b.variants.push_back(short_text(e, "variants"));
                    b.variant_pos.push_back(pos(e));
                };
                if (const toml::array* arr = v.as_array()) {
                    if (arr->empty()) fail(v, "'variants' is an empty list: give at least one glob, e.g. [\"*\"]");
                    for (const auto& e : *arr) add(e);
                } else {
                    add(v);
                }
                continue;
            }
            if (v.is_table() || v.is_array_of_tables())
                fail(v, "'" + shorten(key) + "' is a table; a benchmark's keys are family parameters and tunables");
            const param_spec* spec = nullptr;
            for (const auto& p : b.fam->params)
                if (p.name == key) spec = &p;
            (spec ? b.family_axes : b.tunable_axes).push_back(axis_of(k, v, spec));
        }
        if (b.variants.empty()) {
            b.variants = {"*"};
            b.variant_pos = {b.pos};
        }
        for (const auto& p : b.fam->params) { // parameters the suite leaves out take their default
            bool given = false;
            for (const auto& a : b.family_axes) given |= a.name == p.name;
            if (!given) b.family_axes.push_back({p.name, {{p.default_value, b.pos}}, b.pos});
        }
        return b;
    }

    static std::string family_names()
    {
        std::string s;
        for (const auto& f : families()) s += (s.empty() ? "" : ", ") + f.name;
        return s;
    }
};

/// check_non_ascii's scan of the text, line by line: where it is, and how it reports.
class non_ascii_scan {
public:
    non_ascii_scan(std::string_view t, const std::string& file) : t(t), file(file) {}
    void run();

private:
    [[noreturn]] void fail(size_t at, const std::string& msg) const
    {
        auto starts_character = [](char c) { return (c & 0xC0) != 0x80; }; // columns count characters
        const auto column = std::count_if(t.begin() + long(line_start), t.begin() + long(at), starts_character);
        throw suite_error({file, line, int(column) + 1}, msg);
    }
    void newline(size_t at)
    {
        ++line;
        line_start = at + 1;
    }
    bool ascii(size_t at) const { return static_cast<unsigned char>(t[at]) < 0x80; }
    bool blank(size_t at) const { return at < t.size() && (t[at] == ' ' || t[at] == '\t'); }
    static bool ends_value(char c) { return std::string_view(" \t\n\v\f\r,]}#").find(c) != std::string_view::npos; }
    size_t string_end(size_t at);

    std::string_view t;
    const std::string& file;
    int line = 1;
    size_t line_start = 0;
};

/// The string that starts at `at`: returns where it ends (its last character).
size_t non_ascii_scan::string_end(size_t at)
{
    const char q = t[at];
    const bool basic = q == '"';
    const std::string_view triple = basic ? R"(""")" : "'''";
    if (t.substr(at, 3) != triple) { // one line
        size_t k = at + 1;
        for (; k < t.size() && t[k] != '\n' && t[k] != q; ++k)
            if (basic && t[k] == '\\' && k + 1 < t.size() && t[k + 1] != '\n') ++k;
        return k < t.size() && t[k] == q ? k : k - 1;
    }
    for (size_t k = at + 3; k < t.size(); ++k) {
        if (t[k] == '\n') {
            newline(k);
        } else if (basic && t[k] == '\\') {
            size_t e = k + 1;
            while (blank(e)) ++e;
            if (e < t.size() && !ascii(e))
                fail(e, "a backslash before a non-ASCII character (blanks between or not): no escape sequence");
            if (e < t.size() && (t[e] == '\r' || t[e] == '\n')) { // a line-ending backslash
                for (; e < t.size() && (blank(e) || t[e] == '\r' || t[e] == '\n'); ++e)
                    if (t[e] == '\n') newline(e);
                if (e < t.size() && !ascii(e))
                    fail(e, "a non-ASCII character first on a line continued by a backslash, which this TOML "
                            "reader cannot take: put an ASCII character before it, or join the lines");
                k = e - 1;
            } else {
                ++k; // the character escaped
            }
        } else if (t.substr(k, 3) == triple) {
            size_t end = k + 2;
            for (int more = 0; more < 2 && end + 1 < t.size() && t[end + 1] == q; ++more) ++end; // """a""""
            return end;
        }
    }
    return t.size() - 1;
}

void non_ascii_scan::run()
{
    std::string open;   // the arrays and inline tables open, innermost last
    bool value = false; // after a key's '=', where a value is read
    bool bare = false;  // in a value that is no string, array or table: a number, a date...
    for (size_t i = t.starts_with("\xEF\xBB\xBF") ? 3 : 0; i < t.size(); ++i) { // after a byte-order mark
        const char c = t[i];
        if (!ascii(i) && bare)
            fail(i, "a non-ASCII character in a number or another unquoted value (quotes in one start no string)");
        if (!ascii(i))
            fail(i, "a non-ASCII character outside a string or a comment (TOML's bare keys and punctuation are ASCII)");
        if (bare && !ends_value(c)) continue;
        bare = false;
        if (c == '\n') {
            newline(i);
            value = value && !open.empty();
        } else if (c == '#') {
            while (i + 1 < t.size() && t[i + 1] != '\n') ++i;
        } else if (c == '"' || c == '\'') {
            i = string_end(i);
        } else if (c == '=') {
            value = true;
        } else if (c == '[' || c == '{') {
            open += c;
            value = value && c == '['; // an inline table starts with a key
        } else if (c == ']' || c == '}') {
            if (!open.empty()) open.pop_back();
            value = value || c == '}'; // an inline table is a value
        } else if (c == ',') {
            value = value && !open.ends_with('{'); // a key follows in an inline table
        } else if (value && !ends_value(c)) {
            bare = true;
        }
    }
}

/// Toml++ 3.3 (Debian 12's) tells whether a non-ASCII character is whitespace from a table that
/// reaches undefined behaviour (__builtin_unreachable) for most of them, U+00A1 to U+0499 among
/// them (its issues 190 and 295, fixed in later releases). It asks that of a character outside
/// strings and comments (in a value that is no string too, where a quote starts none: "1.'é'")
/// and, in a """string""", of one after a backslash or first on a line that a line-ending
/// backslash continues. A non-ASCII character in those places is reported here, before toml++
/// reads the text: it is an error anyway, but for the last place (the message says what to do).
void check_non_ascii(std::string_view t, const std::string& file) { non_ascii_scan(t, file).run(); }

} // namespace

suite parse_suite(std::string_view text, const std::string& file)
{
    parser p{file};
    check_non_ascii(text, file);
    toml::table root;
    try {
        root = toml::parse(text, file);
    } catch (const toml::parse_error& e) {
        const auto& b = e.source().begin;
        throw suite_error({file, int(b.line), int(b.column)}, std::string(e.description()));
    }
    suite s;
    s.file = file;
    s.name = std::filesystem::path(file).stem().string();
    for (const auto& [k, v] : root) {
        const std::string key(k.str());
        if (key == "suite") {
            if (!v.is_table()) p.fail(v, "'suite' must be a table: [suite]");
            p.suite_table(*v.as_table(), s);
        } else if (key == "benchmark") {
            if (!v.is_array_of_tables()) p.fail(v, "'benchmark' must be an array of tables: [[benchmark]]");
            for (const auto& b : *v.as_array()) s.benchmarks.push_back(p.benchmark(*b.as_table()));
        } else {
            throw suite_error(p.pos(k),
                              "unknown key '" + shorten(key) + "' (a suite has [suite] and [[benchmark]] tables)");
        }
    }
    if (s.benchmarks.empty()) throw suite_error({file, 1, 1}, "the suite has no [[benchmark]] table: nothing to run");
    return s;
}

suite parse_suite_file(const std::filesystem::path& file)
{
    const std::string name = file == "-" ? "<stdin>" : file.string();
    std::string text;
    try {
        text = read_input(file, "suite file", text_input_limit);
    } catch (const file_error& e) {
        throw suite_error({}, e.what()); // it names the file
    }
    suite s = parse_suite(text, name);
    if (file == "-" && s.name == "<stdin>") s.name = "stdin";
    return s;
}

} // namespace wb
