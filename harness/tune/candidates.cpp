// The candidates `wavebench tune` measured, one JSON line each (tune/candidates.h).
#include "harness/tune/candidates.h"

#include "harness/common/files.h"
#include "harness/common/json_parse.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

namespace wb {

candidate_cache::candidate_cache(const std::filesystem::path& path) : path_(path)
{
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    size_t bad = 0;
    if (std::filesystem::exists(path, ec)) {
        std::istringstream in(read_input(path, "tune cache", binary_input_limit));
        for (std::string line; std::getline(in, line);) {
            if (line.empty()) continue;
            try {
                nlohmann::json j = parse_json(line);
                rows_[j.at("key").get<std::string>()] = j.at("row");
            } catch (const std::exception&) {
                ++bad; // a line cut short by a killed tune, or not ours
            }
        }
    }
    if (bad)
        std::cerr << "warning: " << bad << " line(s) of the tune cache " << path.string()
                  << " could not be read; their candidates will be measured again\n";
    out_ = std::fopen(path.c_str(), "a");
    if (!out_) throw file_error("cannot open the tune cache " + path.string() + ": " + std::strerror(errno));
}

candidate_cache::~candidate_cache()
{
    if (out_) std::fclose(out_);
}

std::optional<nlohmann::json> candidate_cache::find(const std::string& key) const
{
    const auto it = rows_.find(key);
    if (it == rows_.end()) return std::nullopt;
    return it->second;
}

void candidate_cache::add(const std::string& key, const nlohmann::json& row)
{
    rows_[key] = row;
    const std::string line = nlohmann::json{{"key", key}, {"row", row}}.dump() + "\n";
    if (std::fwrite(line.data(), 1, line.size(), out_) != line.size() || std::fflush(out_) != 0) {
        if (!warned_)
            std::cerr << "warning: cannot write the tune cache " << path_.string() << ": " << std::strerror(errno)
                      << " (the candidates are in the results; a resumed tune measures them again)\n";
        warned_ = true;
    }
}

std::string file_digest(const std::filesystem::path& path)
{
    const std::string bytes = read_input(path, "plugin", binary_input_limit);
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

} // namespace wb
