// The candidates `wavebench tune` measured, kept so that a repeated or resumed tune measures
// nothing twice: one JSON line per measured configuration, appended as it comes (a killed tune
// keeps what it measured), keyed by what makes a measurement the same: the plugin's build (a
// digest of its file), the device, the parameters, the inputs' seed and the settings.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace wb {

class candidate_cache {
public:
    /// Opens (creating) the cache at `path`; lines that cannot be read are skipped with one warning
    /// on stderr. Throws file_error when it cannot be opened for appending.
    explicit candidate_cache(const std::filesystem::path& path);
    ~candidate_cache();
    candidate_cache(const candidate_cache&) = delete;
    candidate_cache& operator=(const candidate_cache&) = delete;

    /// The results row measured under `key`, if one was.
    std::optional<nlohmann::json> find(const std::string& key) const;
    /// Keeps `row` under `key`, appended to the file at once (a write that fails warns once).
    void add(const std::string& key, const nlohmann::json& row);
    size_t size() const { return rows_.size(); }
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
    std::map<std::string, nlohmann::json> rows_;
    std::FILE* out_ = nullptr;
    bool warned_ = false;
};

/// A digest of the file at `path` (FNV-1a over its bytes, 16 hex digits): a plugin's build.
std::string file_digest(const std::filesystem::path& path);

} // namespace wb
