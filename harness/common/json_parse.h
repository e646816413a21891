// The one parse of JSON wavebench did not build itself (results, history documents, the ceiling
// cache, worker messages), with a depth limit. Apart from common/json.h so that the PostgreSQL
// history module, which compiles it in, needs nothing of the core.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <stdexcept>
#include <string_view>

namespace wb {

/// Deepest nesting of JSON documents wavebench reads: results, history documents, the ceiling cache,
/// worker messages. Far above what it writes (about 6), far below what overflows the stack of the
/// recursive code that walks a parsed document.
constexpr size_t max_json_depth = 256;

/// Thrown by parse_json for a document nested deeper than max_json_depth.
struct json_too_deep : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// The one way wavebench parses JSON it did not build itself: `text` parsed, refused with
/// json_too_deep (before anything is built) when its arrays and objects nest deeper than `max_depth`;
/// nlohmann::json::parse_error as the library throws it for text that is no JSON.
nlohmann::json parse_json(std::string_view text, size_t max_depth = max_json_depth);

} // namespace wb
