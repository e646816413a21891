// The results journal (report/results_journal.h): a run's results written through results_writer
// come back whole from its journal (a result written again with its speedups set in place of the
// first, results of several devices in plan order), a last line cut short is left out, a broken
// line is named, a journal left by a killed run is never overwritten, the whole document is
// written a number of times logarithmic in the results, and the journal is gone once it is final.
#include <boost/test/unit_test.hpp>

#include "harness/common/files.h"
#include "harness/report/results_journal.h"
#include "harness/report/results_json.h"
#include "harness/report/results_reader.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

BOOST_AUTO_TEST_SUITE(journal_test)

namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

/// A folder of its own for each test's files.
struct scratch {
    fs::path dir = fs::temp_directory_path() / ("journal_test." + std::to_string(getpid()));
    scratch() { fs::create_directories(dir); }
    ~scratch() { fs::remove_all(dir); }
    fs::path out() const { return dir / "results.json"; }
};

/// A results document without results, as a run's first.
json first_document()
{
    return {{"schema_version", 4},      {"platform", "cpu"},        {"complete", false},
            {"suite", {{"name", "t"}}}, {"device", json::object()}, {"results", json::array()}};
}

wb::result result_at(size_t plan_index)
{
    wb::result r;
    r.family = "reduce";
    r.variant = "atomic";
    r.plan_index = plan_index;
    r.st = wb::status::verified;
    return r;
}

std::string text_of(const fs::path& p)
{
    std::ifstream f(p, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

/// The whole document, as a run builds it from its results.
json document_of(const std::vector<wb::result>& all)
{
    json doc = first_document();
    for (const auto& r : all) doc["results"].push_back(wb::result_row(r));
    return doc;
}

} // namespace

BOOST_AUTO_TEST_CASE(results_come_back_from_the_journal_and_the_document_is_written_log_times)
{
    scratch s;
    std::vector<std::string> warnings;
    const auto start = std::chrono::steady_clock::now();
    wb::results_writer w(s.out(), first_document(), [&](const std::string& m) { warnings.push_back(m); });
    BOOST_CHECK(fs::exists(wb::journal_of(s.out())));
    std::vector<wb::result> all;
    const size_t n = 1000;
    for (size_t i = 0; i < n; ++i) {
        all.push_back(result_at(i));
        w.add(all, i, [&] { return document_of(all); });
    }
    // Killed here: the journal holds every result; the document holds the results of its last write.
    const json j = wb::journal_document(text_of(wb::journal_of(s.out())), "journal");
    BOOST_REQUIRE_EQUAL(j["results"].size(), n);
    BOOST_CHECK_EQUAL(j["results"][n - 1]["plan_index"], n - 1);
    BOOST_CHECK_EQUAL(j["complete"], false);
    BOOST_CHECK_EQUAL(j["suite"]["name"], "t");
    const json doc = json::parse(text_of(s.out()));
    BOOST_CHECK_GE(doc["results"].size(), 512u); // the results doubled since: 512 of them at least
    // Written at 0, 1, 2, 4, ..., 512 results: 11 times; more only where 10 s passed between results.
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    BOOST_CHECK_LE(w.documents_written(), 11 + size_t(seconds / 10) + 1);
    w.finish(document_of(all));
    BOOST_CHECK(!fs::exists(wb::journal_of(s.out())));
    BOOST_CHECK_EQUAL(json::parse(text_of(s.out()))["results"].size(), n);
    BOOST_CHECK(warnings.empty());
}

BOOST_AUTO_TEST_CASE(a_result_written_again_replaces_the_first_and_several_devices_read_in_plan_order)
{
    scratch s;
    wb::results_writer w(s.out(), first_document(), {});
    std::vector<wb::result> all{result_at(0)}; // the baseline of a group
    w.add(all, 0, [&] { return document_of(all); });
    w.add_waiting(result_at(3)); // measured on another device behind a gap
    all.push_back(result_at(1));
    all[0].speedup_vs_library = 2.0; // the library came: the baseline's speedup against it is set
    all[1].speedup_vs_baseline = 0.5;
    w.add(all, 0, [&] { return document_of(all); });
    all.push_back(result_at(2));
    w.add(all, 0, [&] { return document_of(all); }); // changes nothing of the first two
    const std::string text = text_of(wb::journal_of(s.out()));
    size_t lines = 0;
    for (char c : text) lines += c == '\n';
    BOOST_CHECK_EQUAL(lines, 6u); // the first line, 0, 3, 0 again, 1, 2
    const json j = wb::journal_document(text, "journal");
    BOOST_REQUIRE_EQUAL(j["results"].size(), 4u);
    for (size_t i = 0; i < 4; ++i) BOOST_CHECK_EQUAL(j["results"][i]["plan_index"], i);
    BOOST_CHECK_EQUAL(j["results"][0]["speedup_vs_library"], 2.0);
}

BOOST_AUTO_TEST_CASE(a_line_cut_short_is_left_out_and_a_broken_one_is_named)
{
    scratch s;
    {
        wb::results_writer w(s.out(), first_document(), {});
        std::vector<wb::result> all{result_at(0), result_at(1)};
        w.add({all[0]}, 0, [&] { return document_of({all[0]}); });
        w.add(all, 1, [&] { return document_of(all); });
    }
    const std::string text = text_of(wb::journal_of(s.out()));
    const std::string cut = text + R"({"plan_index": 2, "fam)";
    BOOST_CHECK_EQUAL(wb::journal_document(cut, "j")["results"].size(), 2u);
    const size_t second = text.find('\n') + 1;
    const std::string broken = text.substr(0, second) + "{\"plan_index\": 0,\n" + text.substr(second);
    try {
        wb::journal_document(broken, "results file 'x.journal'");
        BOOST_ERROR("a broken line was read");
    } catch (const std::invalid_argument& e) {
        BOOST_CHECK_MESSAGE(std::string(e.what()).find("results file 'x.journal': line 2 of the journal is not JSON") !=
                                std::string::npos,
                            e.what());
    }
    BOOST_CHECK_THROW(wb::journal_document("", "j"), std::invalid_argument);
    BOOST_CHECK_THROW(wb::journal_document("{\"wavebench_journal\":2,\"document\":{}}\n", "j"), std::invalid_argument);
    // The reader of results files takes a journal for the run it holds.
    const wb::run_input in = wb::read_results_file(wb::journal_of(s.out()).string());
    BOOST_CHECK_EQUAL(in.doc["results"].size(), 2u);
    BOOST_CHECK(!wb::is_journal(first_document().dump()));
}

BOOST_AUTO_TEST_CASE(a_journal_that_is_there_is_never_overwritten)
{
    scratch s;
    std::ofstream(wb::journal_of(s.out())) << "a killed run's results\n";
    BOOST_CHECK_THROW(wb::results_writer(s.out(), first_document(), {}), wb::file_error);
    BOOST_CHECK_EQUAL(text_of(wb::journal_of(s.out())), "a killed run's results\n");
    BOOST_CHECK(!fs::exists(s.out())); // and nothing else was written
}

BOOST_AUTO_TEST_SUITE_END()
