#include "harness/common/files.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

namespace wb {

namespace fs = std::filesystem;

std::string os_reason(int err) { return std::strerror(err); }

namespace {

/// What a file that is not a regular file is, for messages.
const char* kind_of(mode_t m)
{
    if (S_ISDIR(m)) return "a directory";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

std::string mib(uint64_t bytes)
{
    char s[32];
    std::snprintf(s, sizeof s, "%.1f MiB", double(bytes) / (1 << 20));
    return s;
}

/// Closes a descriptor at scope exit.
struct fd_closer {
    int fd;
    ~fd_closer()
    {
        if (fd >= 0) ::close(fd);
    }
};

/// The signals that end a process by default and that a user sends to stop a command.
constexpr int stop_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

/// Holds the stop signals back in this thread while it lives: one sent meanwhile arrives after.
class signals_held {
public:
    signals_held()
    {
        sigset_t s;
        sigemptyset(&s);
        for (int sig : stop_signals) sigaddset(&s, sig);
        pthread_sigmask(SIG_BLOCK, &s, &old_);
    }
    ~signals_held() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
    signals_held(const signals_held&) = delete;
    signals_held& operator=(const signals_held&) = delete;

private:
    sigset_t old_;
};

/// The temporaries being written, for remove_partial_outputs: a fixed table a signal handler may
/// read without a lock or an allocation. A slot is claimed (state 1), its name copied, then
/// published (state 2), and freed (0) once the temporary is gone.
struct partial_slot {
    std::atomic<int> state{0};
    char name[4096];
};
partial_slot partials[16];

/// A temporary's name published while it exists. With the table full or a name too long, none: the
/// signals held back still keep this thread's own from ending the process in between.
class partial_entry {
public:
    explicit partial_entry(const std::string& name)
    {
        if (name.size() >= sizeof partials[0].name) return;
        for (auto& s : partials) {
            int free = 0;
            if (!s.state.compare_exchange_strong(free, 1)) continue;
            std::memcpy(s.name, name.c_str(), name.size() + 1);
            s.state.store(2, std::memory_order_release);
            slot_ = &s;
            return;
        }
    }
    ~partial_entry()
    {
        if (slot_) slot_->state.store(0, std::memory_order_release);
    }
    partial_entry(const partial_entry&) = delete;
    partial_entry& operator=(const partial_entry&) = delete;

private:
    partial_slot* slot_ = nullptr;
};

/// A path for a message: quoted, shortened.
std::string quote(const fs::path& p)
{
    std::string q(1, '\'');
    q += shorten(p.string(), 200);
    q += '\'';
    return q;
}

} // namespace

std::string shorten(std::string_view s, size_t max)
{
    std::string out;
    size_t i = 0;
    for (; i < s.size() && out.size() < max; ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c < 0x7f) {
            out += char(c);
        } else {
            char esc[8];
            std::snprintf(esc, sizeof esc, "\\x%02x", c);
            out += esc;
        }
    }
    if (i < s.size()) out += "... (" + std::to_string(s.size()) + " bytes)";
    return out;
}

bool is_name(std::string_view s)
{
    auto word = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    };
    return !s.empty() && s.size() <= max_name && std::all_of(s.begin(), s.end(), word);
}

bool printable_ascii(std::string_view s)
{
    return std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
}

bool printable_text(std::string_view s)
{
    for (size_t i = 0; i < s.size();) {
        const auto b = static_cast<unsigned char>(s[i]);
        // The sequence's length and smallest code point (a longer form of a smaller one is invalid).
        const int n = b < 0x80 ? 1 : (b & 0xe0) == 0xc0 ? 2 : (b & 0xf0) == 0xe0 ? 3 : (b & 0xf8) == 0xf0 ? 4 : 0;
        if (n == 0 || i + size_t(n) > s.size()) return false;
        char32_t c = n == 1 ? b : b & (0x7f >> n);
        for (int k = 1; k < n; ++k) {
            const auto cont = static_cast<unsigned char>(s[i + size_t(k)]);
            if ((cont & 0xc0) != 0x80) return false;
            c = c << 6 | (cont & 0x3f);
        }
        static constexpr char32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
        if (c < least[n] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) return false;
        // Controls, and what moves or reorders the text around it: line and paragraph separators,
        // bidirectional embeddings, overrides and isolates.
        if (c < 0x20 || (c >= 0x7f && c < 0xa0) || c == 0x2028 || c == 0x2029 || (c >= 0x202a && c <= 0x202e) ||
            (c >= 0x2066 && c <= 0x2069))
            return false;
        i += size_t(n);
    }
    return true;
}

std::string shown(std::string_view s, size_t max)
{
    return s.size() <= max && printable_text(s) ? std::string(s) : shorten(s, max);
}

std::string read_input(const fs::path& path, std::string_view what, uint64_t limit)
{
    const std::string name = std::string(what) + " " + quote(path);
    if (path.empty()) throw file_error("the " + std::string(what) + " is an empty path");
    const bool stdin_ = path == "-";
    // O_NONBLOCK: opening a FIFO with no writer returns at once (and is then refused).
    const int fd = stdin_ ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) throw file_error("cannot read the " + name + ": " + os_reason(errno));
    const fd_closer closer{stdin_ ? -1 : fd};
    struct stat st {};
    if (::fstat(fd, &st) != 0) throw file_error("cannot read the " + name + ": " + os_reason(errno));
    if (!stdin_ && !S_ISREG(st.st_mode))
        throw file_error("the " + name + " is " + kind_of(st.st_mode) +
                         ": only a regular file (or - for standard "
                         "input) is read");
    if (S_ISREG(st.st_mode) && uint64_t(st.st_size) > limit)
        throw file_error("the " + name + " is " + mib(uint64_t(st.st_size)) + ", more than the " + mib(limit) + " a " +
                         std::string(what) + " may be");
    if (!stdin_) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    std::string data;
    data.reserve(S_ISREG(st.st_mode) ? size_t(st.st_size) : 0);
    char buf[1 << 16];
    for (;;) { // a file that grows, or standard input, is read up to the limit and no further
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw file_error("cannot read the " + name + ": " + os_reason(errno));
        if (n == 0) break;
        if (data.size() + size_t(n) > limit)
            throw file_error("the " + name + " is more than the " + mib(limit) + " a " + std::string(what) + " may be");
        data.append(buf, size_t(n));
    }
    return data;
}

void check_output(const fs::path& out, std::string_view what, const std::vector<fs::path>& inputs)
{
    if (out.empty()) throw file_error(std::string(what) + ": an empty path; name a file");
    std::error_code ec;
    const auto st = fs::status(out, ec);
    if (fs::is_directory(st))
        throw file_error(std::string(what) + " " + quote(out) + " is a directory: name a file in it");
    if (fs::exists(st) && !fs::is_regular_file(st))
        throw file_error(std::string(what) + " " + quote(out) +
                         " exists and is not a regular file: name a regular file");
    if (!fs::exists(st)) return; // a new file is no input
    for (const auto& in : inputs)
        if (fs::equivalent(out, in, ec))
            throw file_error(std::string(what) + " " + quote(out) + " is " +
                             (in.string() == out.string() ? "" : "the same file as ") + "an input of this command" +
                             (in.string() == out.string() ? "" : " (" + quote(in) + ")") +
                             ": it would be overwritten; name another file");
}

void write_output(const fs::path& path, std::string_view text)
{
    if (path.empty()) throw file_error("cannot write an empty path; name a file");
    const std::string name = quote(path);
    std::error_code ec;
    if (fs::is_directory(path, ec)) throw file_error("cannot write " + name + ": it is a directory");
    if (path.has_parent_path()) {
        fs::create_directories(path.parent_path(), ec);
        if (ec) throw file_error("cannot write " + name + ": cannot create its folder: " + ec.message());
    }
    // A name no other writer picks (the process and a counter), in the same folder: rename is atomic.
    static std::atomic<unsigned> serial{0};
    const fs::path tmp = path.string() + ".partial-" + std::to_string(::getpid()) + "-" + std::to_string(serial++);
    // Until the temporary is renamed or removed: no stop signal ends this thread's write, and a
    // handler that ends the process from another thread finds the temporary to remove.
    const signals_held held;
    const partial_entry entry(tmp.string());
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) throw file_error("cannot write " + name + ": " + os_reason(errno));
    auto fail = [&](const std::string& why) {
        ::close(fd);
        ::unlink(tmp.c_str());
        throw file_error("cannot write " + name + ": " + why);
    };
    for (size_t at = 0; at < text.size();) {
        const ssize_t n = ::write(fd, text.data() + at, text.size() - at);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) fail(os_reason(errno));
        at += size_t(n);
    }
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        throw file_error("cannot write " + name + ": " + os_reason(err));
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        throw file_error("cannot write " + name + ": " + os_reason(err));
    }
}

void remove_partial_outputs() noexcept
{
    for (auto& s : partials)
        if (s.state.load(std::memory_order_acquire) == 2) ::unlink(s.name);
}

std::string utf8(const char* text)
{
    std::string out;
    const auto* p = reinterpret_cast<const unsigned char*>(text);
    while (*p) {
        const int len = *p < 0x80 ? 1 : (*p >> 5) == 6 ? 2 : (*p >> 4) == 14 ? 3 : (*p >> 3) == 30 ? 4 : 0;
        bool ok = len > 0;
        for (int i = 1; ok && i < len; ++i) ok = (p[i] >> 6) == 2;
        if (ok) {
            out.append(reinterpret_cast<const char*>(p), size_t(len));
            p += len;
        } else {
            out += "\xef\xbf\xbd";
            ++p;
        }
    }
    return out;
}

std::filesystem::path cache_dir()
{
    namespace fs = std::filesystem;
    if (const char* d = std::getenv("WAVEBENCH_CACHE_DIR"); d && *d) return d;
    if (const char* d = std::getenv("XDG_CACHE_HOME"); d && *d) return fs::path(d) / "wavebench";
    if (const char* h = std::getenv("HOME"); h && *h) return fs::path(h) / ".cache" / "wavebench";
    return fs::temp_directory_path() / "wavebench-cache";
}

} // namespace wb
