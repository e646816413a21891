// The progress line of `wavebench run` (report/console.h): the configuration being measured, the
// time so far and an estimate of the time left, rewritten in place on a terminal.
#include "harness/report/console.h"

#include "harness/common/json.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>
#include <ostream>

namespace wb {

std::string clock_text(double seconds)
{
    const long s = long(seconds + 0.5);
    char buf[32];
    if (s < 3600)
        std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
    else
        std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    return buf;
}

progress_line::progress_line(std::ostream& os, const std::vector<config>& planned, bool shown)
    : os_(os), planned_(planned), shown_(shown)
{
}

void progress_line::start(size_t index)
{
    if (!shown_) return;
    // The estimate: the time of each configuration done so far that ran (not skipped when
    // planned) on average, times those left.
    const double elapsed = std::chrono::duration<double>(clock::now() - began_).count();
    size_t ran = 0, left = 0;
    for (size_t i = 0; i < planned_.size(); ++i) (i < index ? ran : left) += planned_[i].skip.empty();
    std::string line = "[" + std::to_string(index + 1) + "/" + std::to_string(planned_.size()) + "] " +
                       clock_text(elapsed) + " elapsed";
    if (ran > 0) line += ", ~" + clock_text(elapsed / double(ran) * double(left)) + " left";
    const config& c = planned_.at(index);
    line += ": " + c.plug->name() + " " + params_text(c.family_params, c.tunables);
    // A line that wraps could not be rewritten in place: cut to the terminal's width.
    winsize w{};
    const size_t columns = ::ioctl(STDERR_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 0 ? w.ws_col : 80;
    if (line.size() >= columns) line.resize(columns - 1);
    os_ << "\r" << line << "\x1b[K" << std::flush;
    drawn_ = true;
}

void progress_line::clear()
{
    if (!drawn_) return;
    os_ << "\r\x1b[K" << std::flush;
    drawn_ = false;
}

} // namespace wb
