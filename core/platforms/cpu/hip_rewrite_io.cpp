// wavebench-hip-rewrite's files (hip_rewrite_io.h).
#include "hip_rewrite_io.h"

#include "hip_rewrite_lex.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>

namespace hip_rewrite {

/// `s` as a message may show it: printable ASCII as it is, other bytes as \xNN, at most 200 characters.
std::string shown(std::string_view s)
{
    std::string out;
    size_t i = 0;
    for (; i < s.size() && out.size() < 200; ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        char esc[8];
        std::snprintf(esc, sizeof esc, c >= 0x20 && c < 0x7f ? "%c" : "\\x%02x", c);
        out += esc;
    }
    return i < s.size() ? out + "... (" + std::to_string(s.size()) + " bytes)" : out;
}

/// What a file that is not a regular file is, for messages.
const char* special(const struct stat& st)
{
    return S_ISDIR(st.st_mode)                          ? "a directory"
           : S_ISFIFO(st.st_mode)                       ? "a FIFO"
           : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                                                        : "a socket or other special file";
}

/// Reads `path` into `src`: a regular file (checked before it is opened, and again once open, so that
/// a directory, a device or a FIFO is refused without a read) of at most max_source bytes.
bool read_source(const std::string& path, std::string& src, std::string& why)
{
    struct stat st {};
    auto refuse = [&](std::string w) { return why = std::move(w), false; };
    if (::stat(path.c_str(), &st) != 0) return refuse(std::string("cannot read it: ") + std::strerror(errno));
    const int fd = S_ISREG(st.st_mode) ? ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC) : -1;
    if (S_ISREG(st.st_mode) && (fd < 0 || ::fstat(fd, &st) != 0)) {
        const int err = errno;
        if (fd >= 0) ::close(fd);
        return refuse(std::string("cannot read it: ") + std::strerror(err));
    }
    if (!S_ISREG(st.st_mode)) {
        if (fd >= 0) ::close(fd);
        return refuse(std::string("it is ") + special(st) + ", not a source file; name a regular file");
    }
    bool big = uint64_t(st.st_size) > max_source, failed = false;
    src.clear();
    for (char buf[65536]; !big && !failed;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n == 0) break;
        if (n < 0 && errno != EINTR) failed = true;
        if (n > 0) src.append(buf, size_t(n)), big = src.size() > max_source;
    }
    const int err = errno;
    ::close(fd);
    if (big)
        return refuse("it is larger than " + std::to_string(max_source >> 20) +
                      " MiB, more than a source the rewrite reads; split it");
    return failed ? refuse(std::string("cannot read it: ") + std::strerror(err)) : true;
}

/// Whether `out` names the same existing file as `in` (through a link or another spelling too).
bool same_file(const std::string& in, const std::string& out)
{
    struct stat a {
    }, b{};
    return ::stat(in.c_str(), &a) == 0 && ::stat(out.c_str(), &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

bool write_file(const std::string& path, const std::string& data, std::string& why)
{
    namespace fs = std::filesystem;
    fs::path out(path);
    std::random_device rd;
    for (int attempt = 0; attempt < 16; ++attempt) {
        fs::path tmp = out;
        tmp += ".tmp-" + std::to_string(rd());
        FILE* f = std::fopen(tmp.c_str(), "wbx"); // created here, or fails if it exists
        if (!f) continue;
        bool ok = std::fwrite(data.data(), 1, data.size(), f) == data.size();
        ok = std::fclose(f) == 0 && ok;
        std::error_code ec;
        if (ok) fs::rename(tmp, out, ec);
        if (ok && !ec) return true;
        fs::remove(tmp, ec);
        why = "cannot write it";
        return false;
    }
    why = "cannot create a file in its folder";
    return false;
}

} // namespace hip_rewrite
