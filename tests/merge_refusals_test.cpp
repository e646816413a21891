// `wavebench merge` (commands/merge_command.cpp) run through its registration on shard files
// written here: the shards of one run join; shards of another suite or seed, a shard given twice,
// a missing shard, a result the readers cannot read and a merged document larger than the readers
// accept are refused, naming what differs, and nothing is written.
#include <boost/test/unit_test.hpp>

#include "harness/commands/cli.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

BOOST_AUTO_TEST_SUITE(merge_refusals_test)

namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

/// A folder of its own for each test's files.
struct scratch {
    fs::path dir = fs::temp_directory_path() / ("merge_refusals_test." + std::to_string(getpid()));
    scratch() { fs::create_directories(dir); }
    ~scratch() { fs::remove_all(dir); }
    fs::path out() const { return dir / "merged.json"; }
};

/// Shard `index` of `count` of a plan of `count` configurations: one result each, on its own host.
json shard(int index, int count)
{
    return {{"schema_version", 4},
            {"tool_version", "test"},
            {"platform", "cpu"},
            {"platform_options", {{"warp_size", 32}, {"lane_order", nullptr}}},
            {"toolchain", "c++ 12"},
            {"started", "2024-01-0" + std::to_string(index) + "T00:00:00Z"},
            {"complete", true},
            {"suite", {{"name", "quick"}, {"seed", 1}, {"repetitions", 1}}},
            {"device", {{"name", "Test CPU"}, {"arch", "x86_64"}}},
            {"devices",
             {{{"name", "Test CPU"}, {"arch", "x86_64"}, {"ordinal", 0}, {"host", "node" + std::to_string(index)}}}},
            {"plugins_rejected", json::array()},
            {"shard", {{"index", index}, {"count", count}, {"plan_configs", count}, {"plan_digest", "abc"}}},
            {"results",
             {{{"plan_index", index - 1},
               {"device_index", 0},
               {"family", "reduce"},
               {"variant", "tree"},
               {"params", {{"n", 1024}}},
               {"status", "verified"}}}}};
}

/// `doc` written as file `name` of `s`.
std::string file(const scratch& s, const std::string& name, const json& doc)
{
    const fs::path p = s.dir / name;
    std::ofstream f(p);
    f << doc.dump();
    return p.string();
}

/// `wavebench merge FILES... -o OUT --no-history` through the command's registration: its exit status.
int merge(const scratch& s, const std::vector<std::string>& files)
{
    CLI::App app;
    wb::command_list commands;
    wb::add_merge_command(app, commands);
    std::vector<std::string> args{"merge"};
    args.insert(args.end(), files.begin(), files.end());
    args.insert(args.end(), {"-o", s.out().string(), "--no-history"});
    std::vector<const char*> argv{"wavebench"};
    for (const auto& a : args) argv.push_back(a.c_str());
    app.parse(int(argv.size()), argv.data());
    return commands.at(0).body();
}

/// merge of `files` refused with a message that holds `needle`, and nothing written.
void refused(const scratch& s, const std::vector<std::string>& files, const std::string& needle)
{
    try {
        merge(s, files);
        BOOST_FAIL("merged, though it should have said: " << needle);
    } catch (const std::invalid_argument& e) {
        BOOST_TEST(std::string(e.what()).find(needle) != std::string::npos, e.what());
    }
    BOOST_TEST(!fs::exists(s.out()));
}

} // namespace

BOOST_AUTO_TEST_CASE(the_shards_of_one_run_join_into_the_whole_run)
{
    scratch s;
    BOOST_TEST(merge(s, {file(s, "2.json", shard(2, 2)), file(s, "1.json", shard(1, 2))}) == 0);
    std::ifstream in(s.out());
    const json doc = json::parse(in);
    BOOST_TEST(doc["shard"].is_null());
    BOOST_TEST(doc["results"].size() == 2u);
    BOOST_TEST((doc["results"][1]["device_index"] == 1)); // the second host's device
    BOOST_TEST(doc["devices"].size() == 2u);
    BOOST_TEST(doc["started"].get<std::string>() == "2024-01-01T00:00:00Z");
    BOOST_TEST(doc["merged_from"].size() == 2u);
}

BOOST_AUTO_TEST_CASE(shards_of_another_suite_or_seed_are_refused)
{
    scratch s;
    json other = shard(2, 2);
    other["suite"]["name"] = "full";
    refused(s, {file(s, "1.json", shard(1, 2)), file(s, "full.json", other)},
            "are not shards of one run: suite.name is \"quick\" in one and \"full\" in the other");
    json seed = shard(2, 2);
    seed["suite"]["seed"] = 2;
    refused(s, {file(s, "1.json", shard(1, 2)), file(s, "seed.json", seed)}, "suite.seed is 1 in one and 2");
}

BOOST_AUTO_TEST_CASE(a_shard_given_twice_is_refused)
{
    scratch s;
    const std::string one = file(s, "1.json", shard(1, 2)), again = file(s, "1-again.json", shard(1, 2));
    refused(s, {one, again}, "are both shard 1 of 2");
}

BOOST_AUTO_TEST_CASE(a_missing_shard_is_refused)
{
    scratch s;
    refused(s, {file(s, "1.json", shard(1, 3)), file(s, "3.json", shard(3, 3))},
            "shard 2 of 3 missing: give every shard's results file");
    refused(s, {file(s, "1.json", shard(1, 2))}, "shard 2 of 2 missing");
}

BOOST_AUTO_TEST_CASE(a_whole_run_is_no_shard)
{
    scratch s;
    json whole = shard(1, 1);
    whole["shard"] = nullptr;
    refused(s, {file(s, "whole.json", whole)}, "is not a shard");
}

BOOST_AUTO_TEST_CASE(a_result_without_family_variant_or_params_is_refused_naming_the_file_and_the_result)
{
    scratch s;
    for (const char* key : {"family", "variant", "params"}) {
        json bad = shard(2, 2);
        bad["results"].push_back(bad["results"][0]);
        bad["results"][1]["plan_index"] = 0;
        bad["results"][1].erase(key);
        refused(s, {file(s, "1.json", shard(1, 2)), file(s, "bad.json", bad)},
                "bad.json: result 2: no '" + std::string(key) + (*key == 'p' ? "' object" : "' string"));
        bad["results"][1][key] = 7; // of another type
        refused(s, {file(s, "1.json", shard(1, 2)), file(s, "bad.json", bad)}, "bad.json: result 2: no '");
    }
}

BOOST_AUTO_TEST_CASE(a_merged_document_the_readers_would_refuse_is_not_written)
{
    // Arrays nested 248 deep, 2200 times: 1 MiB as the shard holds it, over 256 MiB indented as merge
    // writes it (each level on its own line), and so over what compare, report and merge read back.
    scratch s;
    json deep = json::array();
    for (int i = 0; i < 247; ++i) deep = json::array({deep});
    json big = shard(1, 1);
    big["results"][0]["extra"] = json::array();
    for (int i = 0; i < 2200; ++i) big["results"][0]["extra"].push_back(deep);
    refused(s, {file(s, "big.json", big)}, "MiB that compare, report and merge read: nothing written");
    // The same shard with one of them merges.
    big["results"][0]["extra"] = json::array({deep});
    BOOST_TEST(merge(s, {file(s, "small.json", big)}) == 0);
}

BOOST_AUTO_TEST_SUITE_END()
