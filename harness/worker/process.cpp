// One worker process: spawning it with its pipes, passing its output on, waiting for its
// answers, and how it ended (worker/process.h).
#include "harness/worker/process.h"

#include "harness/common/files.h"
#include "harness/common/json.h"
#include "harness/measure/interrupt.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <iostream>
#include <poll.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace wb {

namespace fs = std::filesystem;
using json = nlohmann::json;

/// Writes all of `text`; false when the other side is gone.
bool write_all(int fd, std::string_view text)
{
    while (!text.empty()) {
        const ssize_t n = ::write(fd, text.data(), text.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        text.remove_prefix(size_t(n));
    }
    return true;
}

namespace {

void sys_check(bool ok, const char* what)
{
    if (!ok) throw std::runtime_error(std::string("starting a worker process: ") + what + ": " + std::strerror(errno));
}

/// Moves `fd` to a number above the standard ones and fd 3 and 4 (close-on-exec), so that the
/// child's dup2 onto 0-4 never overwrites a descriptor it still has to copy.
int high(int fd)
{
    const int moved = fcntl(fd, F_DUPFD_CLOEXEC, 10);
    sys_check(moved >= 0, "fcntl");
    ::close(fd);
    return moved;
}

constexpr size_t max_answer_bytes = size_t(64) << 20; // the longest line a worker may answer

} // namespace

worker_process::worker_process(const platform_options& po)
{
    int in[2], ans[2], out[2];
    sys_check(pipe2(in, O_CLOEXEC) == 0 && pipe2(ans, O_CLOEXEC) == 0 && pipe2(out, O_CLOEXEC) == 0, "pipe");
    for (int* fd : {&in[0], &in[1], &ans[0], &ans[1], &out[0], &out[1]}) *fd = high(*fd);
    const int mem = high(memfd_create("wavebench-progress", MFD_CLOEXEC));
    sys_check(ftruncate(mem, sizeof(progress)) == 0, "ftruncate");
    void* shared = mmap(nullptr, sizeof(progress), PROT_READ | PROT_WRITE, MAP_SHARED, mem, 0);
    sys_check(shared != MAP_FAILED, "mmap");
    progress_ = new (shared) progress;

    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, out[1], 2);
    posix_spawn_file_actions_adddup2(&fa, ans[1], answer_fd);
    posix_spawn_file_actions_adddup2(&fa, mem, progress_fd);
    // SIGINT, SIGTERM and SIGHUP blocked in the worker: a Ctrl-C or a closed terminal reaches the
    // whole process group, and the harness decides what stops (measure/interrupt.h).
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t blocked;
    sigemptyset(&blocked);
    sigaddset(&blocked, SIGINT);
    sigaddset(&blocked, SIGTERM);
    sigaddset(&blocked, SIGHUP);
    posix_spawnattr_setsigmask(&attr, &blocked);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);

    const std::string exe = fs::read_symlink("/proc/self/exe").string();
    std::vector<std::string> args{exe, "worker", "--platform", po.name, "--device", std::to_string(po.device)};
    if (po.warp_size) args.insert(args.end(), {"--warp-size", std::to_string(po.warp_size)});
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const int err = posix_spawn(&pid_, exe.c_str(), &fa, &attr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    for (int fd : {in[0], ans[1], out[1], mem}) ::close(fd);
    to_worker_ = in[1];
    answers_ = ans[0];
    output_ = out[0];
    if (err != 0) {
        pid_ = -1;
        errno = err;
        sys_check(false, "posix_spawn");
    }
    set_current_worker(pid_);
}

worker_process::~worker_process()
{
    ::close(to_worker_); // the worker's stdin ends: it leaves
    if (pid_ > 0) {
        for (int i = 0; i < 500 && exit_status_ < 0; ++i) { // 5 s to leave, then killed
            int st;
            if (waitpid(pid_, &st, WNOHANG) == pid_)
                exit_status_ = st;
            else
                drain_output(10);
        }
        if (exit_status_ < 0) {
            kill(pid_, SIGKILL);
            reap();
        }
        set_current_worker(0);
    }
    drain_output(0);
    ::close(answers_);
    ::close(output_);
    munmap(progress_, sizeof(progress));
}

void worker_process::send(const json& request)
{
    // A worker that died is found by wait(): its answer pipe ends.
    write_all(to_worker_, request.dump(-1, ' ', false, json::error_handler_t::replace) + "\n");
}

void worker_process::drain_output(int timeout_ms)
{
    char buf[4096];
    pollfd p{output_, POLLIN, 0};
    while (output_ >= 0 && ::poll(&p, 1, timeout_ms) > 0) {
        const ssize_t n = ::read(output_, buf, sizeof buf);
        if (n <= 0) break;
        std::cerr.write(buf, n);
        output_buf_.append(buf, size_t(n));
        for (size_t nl; (nl = output_buf_.find('\n')) != std::string::npos; output_buf_.erase(0, nl + 1))
            if (nl > 0) last_line_ = output_buf_.substr(0, std::min<size_t>(nl, 400));
        if (output_buf_.size() > 65536) { // a line without end: its start is kept, the rest passed on only
            last_line_ = output_buf_.substr(0, 400);
            output_buf_.clear();
        }
    }
    std::cerr.flush();
}

worker_process::outcome
worker_process::wait(json& answer, clock::time_point deadline,
                     const std::function<clock::time_point(const progress&, clock::time_point)>& extend)
{
    auto end = [&](outcome how, bool kill_it, bool garbled) {
        garbled_ = garbled_ || garbled;
        if (kill_it) kill(pid_, SIGKILL);
        reap();
        drain_output(100);
        return how;
    };
    for (;;) {
        const size_t nl = answer_buf_.find('\n', answer_scanned_);
        answer_scanned_ = nl == std::string::npos ? answer_buf_.size() : 0;
        if (nl != std::string::npos) {
            // Only the worker's own code writes fd 3, but a plugin can write anything anywhere:
            // what is no answer (no JSON, nested too deep, no object) ends the worker like a crash.
            bool parsed = true;
            try {
                answer = parse_json(std::string_view(answer_buf_).substr(0, nl));
                parsed = answer.is_object();
            } catch (const std::exception&) {
                parsed = false;
            }
            answer_buf_.erase(0, nl + 1);
            if (parsed) return outcome::answered;
            return end(outcome::died, true, true);
        }
        // No answer is this long: something writes without end where the worker answers.
        if (answer_buf_.size() > max_answer_bytes) return end(outcome::died, true, true);
        if (extend) deadline = extend(*progress_, deadline);
        const auto now = clock::now();
        if (now >= deadline) return end(outcome::timed_out, true, false);
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
        pollfd p[2] = {{answers_, POLLIN, 0}, {output_, POLLIN, 0}};
        const int n = ::poll(p, 2, int(std::clamp<long long>(left, 1, 1000)));
        if (n < 0 && errno != EINTR)
            throw std::runtime_error(std::string("waiting for a worker: ") + std::strerror(errno));
        if (n <= 0) continue;
        if (p[1].revents) drain_output(0);
        if (p[0].revents) {
            char buf[65536];
            const ssize_t got = ::read(answers_, buf, sizeof buf);
            if (got > 0) {
                answer_buf_.append(buf, size_t(got));
                continue;
            }
            return end(outcome::died, false, false); // the answer pipe ended: the worker is gone
        }
    }
}

void worker_process::reap()
{
    if (pid_ <= 0 || exit_status_ >= 0) return;
    int st;
    while (waitpid(pid_, &st, 0) < 0 && errno == EINTR) {
    }
    exit_status_ = st;
    set_current_worker(0);
}

std::string worker_process::how_it_ended()
{
    reap();
    if (garbled_) return "SIGKILL (the harness killed it: it wrote what is no answer where it answers)";
    std::string how;
    if (WIFSIGNALED(exit_status_)) {
        const int sig = WTERMSIG(exit_status_);
        how = std::string(signal_name(sig)) + " (" + strsignal(sig) + ")";
    } else {
        how = "exit status " + std::to_string(WEXITSTATUS(exit_status_));
    }
    return how;
}

} // namespace wb
