// wavebench-hip-rewrite's files (hip_rewrite.cpp): what it reads and writes, and how it names them
// in messages.
#pragma once

#include <sys/stat.h>

#include <string>
#include <string_view>

namespace hip_rewrite {

/// `s` as a message may show it: printable ASCII as it is, other bytes as \xNN, at most 200 characters.
std::string shown(std::string_view s);
/// What a file that is not a regular file is, for messages.
const char* special(const struct stat& st);
/// Reads `path` into `src`: a regular file (checked before it is opened, and again once open, so that
/// a directory, a device or a FIFO is refused without a read) of at most max_source bytes.
bool read_source(const std::string& path, std::string& src, std::string& why);
/// Whether `out` names the same existing file as `in` (through a link or another spelling too).
bool same_file(const std::string& in, const std::string& out);
/// Writes `data` to `path` through a new file renamed into place.
bool write_file(const std::string& path, const std::string& data, std::string& why);

} // namespace hip_rewrite
