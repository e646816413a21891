// A command's inputs and outputs, neither trusted. Inputs (suites, baselines, code objects) are
// read only from regular files, or "-" for standard input, up to a limit: a device, a FIFO or a
// directory is refused before anything is read. Outputs are written to a temporary file beside
// them and renamed into place, never over an input of the same command, and leave nothing behind
// when they fail. Every error names the file and gives the operating system's reason. And what
// input a message quotes is shown bounded and printable (shorten, shown).
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

/// What a file may weigh, by what it is for.
inline constexpr uint64_t text_input_limit = uint64_t(16) << 20;  // a suite, a baseline, a cache
inline constexpr uint64_t binary_input_limit = uint64_t(4) << 30; // a .so or code object to inspect

/// A file that cannot be read or written; the message names it and says why.
struct file_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// The bytes of `path` ("-": standard input). `what` names it in messages ("suite file").
/// Throws file_error for an empty path, a file that is not a regular file, one larger than
/// `limit`, or one that cannot be opened or read.
std::string read_input(const std::filesystem::path& path, std::string_view what, uint64_t limit);

/// Throws file_error unless `out` may be written as `what` ("--out"): not empty, not an existing
/// directory or other non-regular file, and not the same file as any of `inputs`.
void check_output(const std::filesystem::path& out, std::string_view what,
                  const std::vector<std::filesystem::path>& inputs);

/// Writes `text` to `path` (its folder created): a temporary file in the same folder, renamed over
/// `path` once complete. On failure the temporary is removed and file_error gives the reason. SIGINT,
/// SIGTERM, SIGHUP and SIGQUIT are held back in the calling thread from the temporary's creation to
/// its rename (or removal): one that ends the process then arrives after, and leaves `path` as it
/// was or whole, and no temporary.
void write_output(const std::filesystem::path& path, std::string_view text);

/// Removes the temporaries write_output is writing at this moment, in any thread: for a signal
/// handler that ends the process at once (measure/interrupt.cpp). Async-signal-safe.
void remove_partial_outputs() noexcept;

/// Where wavebench keeps what it measured once (ceilings, tune candidates): $WAVEBENCH_CACHE_DIR,
/// else $XDG_CACHE_HOME/wavebench, else ~/.cache/wavebench, else a folder in the temporary directory.
std::filesystem::path cache_dir();

/// `s` as a message may quote it: bytes that are not printable ASCII as \xNN, and at most `max`
/// characters of it, with the length of what was cut.
std::string shorten(std::string_view s, size_t max = 80);

/// Whether `s` is a name as plugins and suites write them: 1 to max_name letters, digits and '_'.
inline constexpr size_t max_name = 64;
bool is_name(std::string_view s);
/// Whether every byte of `s` is printable ASCII (space to '~').
bool printable_ascii(std::string_view s);
/// Whether `s` is valid UTF-8 without control characters (C0, DEL, C1, line and bidi controls).
bool printable_text(std::string_view s);
/// `s` as a message may show it: itself where it is printable text of at most `max` bytes, else
/// shorten(s, max).
std::string shown(std::string_view s, size_t max);

/// strerror(errno) of `err`, for messages.
std::string os_reason(int err);

/// Text from a plugin, with every byte that is not part of valid UTF-8 replaced by U+FFFD.
std::string utf8(const char* text);

} // namespace wb
