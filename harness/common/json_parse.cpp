// The one parse of JSON wavebench did not build itself (common/json_parse.h).
#include "harness/common/json_parse.h"

#include <string>

namespace wb {

nlohmann::json parse_json(std::string_view text, size_t max_depth)
{
    // A linear scan first: the library's parser and the code that walks its result recurse.
    size_t depth = 0;
    bool in_string = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\')
                ++i; // the escaped character cannot end the string
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > max_depth)
                throw json_too_deep("arrays and objects nested deeper than " + std::to_string(max_depth) +
                                    " levels (at byte " + std::to_string(i) + ")");
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return nlohmann::json::parse(text);
}

} // namespace wb
