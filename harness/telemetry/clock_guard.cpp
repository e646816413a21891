// The clock guardian and the harness's side of it (telemetry/clock_lock.h).
#include "harness/common/files.h"
#include "harness/telemetry/clock_lock.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace wb {

namespace {

std::unique_ptr<clock_locker> locker_for(platform_kind kind, const std::string& pci, std::string& why)
{
    if (kind == platform_kind::nvidia) return nvml_locker_for(pci, why);
    if (kind == platform_kind::amd) return rocm_smi_locker_for(pci, why);
    why = "the cpu platform has no clocks wavebench can lock";
    return nullptr;
}

/// Locks every device, or none (those locked are restored): the answer line.
nlohmann::json lock_all(platform_kind kind, const std::vector<std::string>& pci_ids, unsigned sm_mhz,
                        std::vector<std::unique_ptr<clock_locker>>& lockers)
{
    nlohmann::json locked = nlohmann::json::array();
    for (const auto& pci : pci_ids) {
        std::string why;
        auto l = locker_for(kind, pci, why);
        try {
            if (!l) throw std::runtime_error(why);
            locked.push_back({{"pci", pci}, {"what", l->lock(sm_mhz)}});
            lockers.push_back(std::move(l));
        } catch (const std::exception& e) {
            for (auto& done : lockers) (void)done->restore();
            lockers.clear();
            return {{"error", "cannot lock the clocks of the device at " + shown(pci, 31) + ": " + e.what()}};
        }
    }
    return {{"locked", locked}};
}

} // namespace

int clock_guard_main(platform_kind kind, const std::vector<std::string>& pci_ids, unsigned sm_mhz)
{
    sigset_t blocked; // also when started by hand: only the end of stdin ends the lock
    sigemptyset(&blocked);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&blocked, sig);
    sigprocmask(SIG_BLOCK, &blocked, nullptr);
    std::vector<std::unique_ptr<clock_locker>> lockers;
    const nlohmann::json answer = lock_all(kind, pci_ids, sm_mhz, lockers);
    std::cout << answer.dump() << std::endl;
    if (lockers.empty()) return 1;
    char buf[256];
    for (;;) { // until the harness's end of the pipe closes, however the harness ended
        const ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
        if (n == 0 || (n < 0 && errno != EINTR)) break;
    }
    int status = 0;
    for (auto& l : lockers)
        if (const std::string err = l->restore(); !err.empty()) {
            std::cerr << "wavebench clock-guard: restoring the clocks failed: " << err << "\n";
            status = 1;
        }
    return status;
}

namespace {

void sys_check(bool ok, const char* what)
{
    if (!ok)
        throw std::runtime_error(std::string("starting the clock guardian: ") + what + ": " + std::strerror(errno));
}

/// The guardian's one answer line (it ends with the line, or with the process).
std::string read_line(int fd)
{
    std::string line;
    char c;
    while (line.size() < 65536) {
        const ssize_t n = ::read(fd, &c, 1);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0 || c == '\n') break;
        line += c;
    }
    return line;
}

} // namespace

clock_guard::clock_guard(const std::string& exe, platform_kind kind, const std::vector<std::string>& pci_ids,
                         unsigned sm_mhz)
{
    int in[2], out[2];
    sys_check(pipe2(in, O_CLOEXEC) == 0 && pipe2(out, O_CLOEXEC) == 0, "pipe");
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t blocked; // a Ctrl-C reaches the whole process group: the guardian waits for its pipe
    sigemptyset(&blocked);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&blocked, sig);
    posix_spawnattr_setsigmask(&attr, &blocked);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
    std::vector<std::string> args{exe,        "clock-guard",         "--platform", to_string(kind),
                                  "--sm-mhz", std::to_string(sm_mhz)};
    for (const auto& p : pci_ids) args.insert(args.end(), {"--pci", p});
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const int err = posix_spawn(&pid_, exe.c_str(), &fa, &attr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    ::close(in[0]);
    ::close(out[1]);
    to_guard_ = in[1];
    if (err != 0) {
        ::close(out[0]);
        errno = err;
        sys_check(false, "posix_spawn");
    }
    const std::string line = read_line(out[0]);
    ::close(out[0]);
    const nlohmann::json answer = nlohmann::json::parse(line, nullptr, false);
    if (answer.is_object() && answer.contains("locked") && answer["locked"].is_array()) {
        for (const auto& d : answer["locked"]) locked_.push_back({d.value("pci", ""), d.value("what", "")});
        return;
    }
    const std::string why = answer.is_object() && answer.contains("error") && answer["error"].is_string()
                                ? answer["error"].get<std::string>()
                                : "the clock guardian ended without an answer ('" + shown(line, 200) + "')";
    release();
    throw std::runtime_error("--lock-clocks: " + why);
}

clock_guard::~clock_guard() { release(); }

void clock_guard::release()
{
    if (to_guard_ >= 0) ::close(to_guard_); // the guardian restores the clocks and leaves
    to_guard_ = -1;
    if (pid_ > 0) {
        int st;
        while (waitpid(pid_, &st, 0) < 0 && errno == EINTR) {
        }
    }
    pid_ = -1;
}

} // namespace wb
