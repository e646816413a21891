// Reading results documents: files and runs of the history checked alike (report/results_reader.h).
#include "harness/report/results_reader.h"

#include "harness/common/files.h"
#include "harness/common/json.h"
#include "harness/report/results_journal.h"

#include <cmath>
#include <stdexcept>

namespace wb {

namespace {

using json = nlohmann::json;

} // namespace

run_input results_input(json doc, const std::string& label, std::optional<int64_t> id)
{
    const char* missing = !doc.is_object()                                            ? "it is not a JSON object"
                          : !doc.contains("results") || !doc["results"].is_array()    ? "it has no \"results\" array"
                          : !doc.contains("suite") || !doc["suite"].is_object()       ? "it has no \"suite\" object"
                          : !doc.contains("device") || !doc["device"].is_object()     ? "it has no \"device\" object"
                          : !doc.contains("platform") || !doc["platform"].is_string() ? "it has no \"platform\""
                                                                                      : nullptr;
    if (missing)
        throw std::invalid_argument(label + " is not a wavebench results document: " + missing +
                                    " (`wavebench run --out FILE` writes one)");
    return {label, std::move(doc), id};
}

run_input read_results_file(const std::string& path)
{
    const std::string name = "results file " + shown(path, 200);
    json doc;
    try {
        const std::string text = read_input(path, "results file", results_file_limit);
        // A run's journal (a killed run's results) reads as the run, incomplete.
        doc = is_journal(text) ? journal_document(text, name) : parse_json(text);
    } catch (const json::exception& e) {
        throw std::invalid_argument(name + " is not JSON: " + json_error_text(e));
    } catch (const json_too_deep& e) {
        throw std::invalid_argument(name + " is not a wavebench results document: " + json_error_text(e));
    } catch (const file_error& e) {
        throw std::invalid_argument(e.what());
    }
    run_input in = results_input(std::move(doc), name, std::nullopt);
    in.label = path;
    return in;
}

void results_reader::fail(const std::string& where, const std::string& what) const
{
    // A place-less message ("no 'results' array") follows the input's name directly.
    // What it says may quote the input: shown (printable text, and what is already shown, pass unchanged).
    const std::string said = where.empty() && what.rfind(": ", 0) == 0 ? what.substr(2) : where + what;
    throw std::invalid_argument(shown(who, 200) + ": " + shown(said, 1000) +
                                " (docs/results-schema.md describes the results)");
}

const json& results_reader::field(const json& o, const char* key) const
{
    static const json none;
    if (!o.is_object()) return none;
    const auto it = o.find(key);
    return it == o.end() ? none : *it;
}

json results_reader::number(const json& o, const char* key, const std::string& where) const
{
    const json& v = field(o, key);
    if (!v.is_null() && !v.is_number()) fail(where, std::string(": '") + key + "' is not a number");
    return v;
}

json results_reader::text(const json& o, const char* key, const std::string& where) const
{
    const json& v = field(o, key);
    if (!v.is_null() && !v.is_string()) fail(where, std::string(": '") + key + "' is not a string");
    return v;
}

std::string results_reader::name(const json& o, const char* key, const std::string& where) const
{
    const json& v = field(o, key);
    if (!v.is_string()) fail(where, std::string(": no '") + key + "' string");
    return v.get<std::string>();
}

const json& results_reader::object(const json& o, const char* key, const std::string& where) const
{
    const json& v = field(o, key);
    if (!v.is_null() && !v.is_object()) fail(where, std::string(": '") + key + "' is not an object");
    return v;
}

const json& results_reader::results(const json& doc) const
{
    const json& v = field(doc, "results");
    if (!v.is_array()) fail("", "no 'results' array");
    return v;
}

std::optional<std::vector<double>> results_reader::samples(const json& r, const std::string& where) const
{
    const json& v = field(r, "samples_ms");
    if (v.is_null()) return std::nullopt;
    if (!v.is_array()) fail(where, ": 'samples_ms' is not an array");
    std::vector<double> x;
    for (const json& s : v) {
        if (!s.is_number() || !std::isfinite(s.get<double>()) || s.get<double>() < 0)
            fail(where, ": 'samples_ms' holds something that is no time");
        x.push_back(s.get<double>());
    }
    return x;
}

std::string started_of(const run_input& in)
{
    const auto it = in.doc.find("started");
    return it != in.doc.end() && it->is_string() ? it->get<std::string>() : "";
}

std::string result_place(size_t index) { return "result " + std::to_string(index + 1); }

std::optional<status> status_of(const json& r)
{
    const auto it = r.is_object() ? r.find("status") : r.end();
    return it != r.end() && it->is_string() ? parse_status(it->get<std::string>()) : std::nullopt;
}

std::string status_text(const json& r)
{
    const auto it = r.is_object() ? r.find("status") : r.end();
    return it != r.end() && it->is_string() ? it->get<std::string>() : "?";
}

} // namespace wb
