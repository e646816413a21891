// Worker processes and their supervision (worker/worker.h).
#include "harness/worker/worker.h"

#include "harness/common/files.h"
#include "harness/measure/interrupt.h"
#include "harness/measure/measure.h"
#include "harness/ceilings/probe.h"
#include "harness/report/results_json.h"
#include "harness/worker/wire.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <poll.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace wb {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

constexpr int answer_fd = 3, progress_fd = 4;
// A plugin file that takes longer than this to load (its static constructors) is rejected.
constexpr auto load_limit = std::chrono::seconds(30);

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

std::string last_line_note(const std::string& line)
{
    return line.empty() ? "" : "; its last line on stderr: " + shown(line, 400);
}

} // namespace

// ---- the worker ------------------------------------------------------------------------------

int worker_command(const platform_options& po)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL); // never outlive the harness
    if (getppid() == 1) return 1;
    if (void* shared = mmap(nullptr, sizeof(progress), PROT_READ | PROT_WRITE, MAP_SHARED, progress_fd, 0);
        shared != MAP_FAILED)
        publish_progress_to(static_cast<progress*>(shared));
    auto answer = [](const json& j) {
        if (!write_all(answer_fd, j.dump(-1, ' ', false, json::error_handler_t::replace) + "\n")) _exit(1);
    };

    const auto kind = parse_platform(po.name);
    if (!kind) throw std::invalid_argument(unknown_platform(po.name));
    plugin_registry reg(*kind);
    std::shared_ptr<platform> pf;
    std::unique_ptr<local_executor> exec;
    for (std::string line; std::getline(std::cin, line);) {
        const json request = json::parse(line);
        if (request.contains("load")) {
            const auto files = request["load"].get<std::vector<std::string>>();
            for (size_t i = 0; i < files.size(); ++i) {
                this_progress().file = int32_t(i);
                enter(stage::load);
                reg.add_file(files[i]);
            }
            this_progress().file = -1;
            enter(stage::none);
            json plugins = json::array();
            for (const auto& p : reg.plugins()) plugins.push_back(wire::to_json(p));
            answer({{"plugins", plugins}, {"rejected", rejections_json(reg.rejections())}});
            continue;
        }
        if (!pf) {
            try {
                pf = open_platform(po);
            } catch (const std::exception& e) {
                answer({{"fatal", std::string("the worker cannot start the platform: ") + e.what()}});
                return 1;
            }
        }
        if (request.contains("lane_costs")) { // `wavebench probe` on cpu
            try {
                answer({{"lane_costs", measure_lane_costs(pf)}});
            } catch (const std::exception& e) {
                answer({{"fatal", std::string("measuring the runtime's costs: ") + e.what()}});
            }
            continue;
        }
        const json& m = request.at("measure");
        const auto started = std::chrono::steady_clock::now();
        if (!exec) exec = std::make_unique<local_executor>(pf);
        config c;
        const std::string name = m.at("plugin");
        for (const auto& p : reg.plugins())
            if (p.name() == name) c.plug = &p;
        if (!c.plug) throw std::runtime_error("the worker has no plugin " + name);
        c.group = m.at("group");
        c.family_params = wire::params_from(m.at("family_params"));
        c.tunables = wire::params_from(m.at("tunables"));
        c.skip = m.at("skip");
        const result r = exec->measure(c, wire::settings_from(request.at("settings")));
        const double busy = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
        answer({{"result", wire::to_json(r)}, {"busy_ms", busy}});
    }
    // The harness closed the pipe: leave without running the plugins' and runtimes' teardown,
    // which has nothing left to give and could only hang or crash.
    std::cout.flush();
    std::cerr.flush();
    _exit(0);
}

// ---- one worker process ----------------------------------------------------------------------

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
    // SIGINT and SIGTERM blocked in the worker: a Ctrl-C reaches the whole process group, and the
    // harness decides what stops (measure/interrupt.h).
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t blocked;
    sigemptyset(&blocked);
    sigaddset(&blocked, SIGINT);
    sigaddset(&blocked, SIGTERM);
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
            if (waitpid(pid_, &st, WNOHANG) == pid_) exit_status_ = st;
            else drain_output(10);
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

worker_process::outcome worker_process::wait(json& answer, clock::time_point deadline,
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
            // what does not parse ends the worker like a crash.
            answer = json::parse(answer_buf_.substr(0, nl), nullptr, false);
            answer_buf_.erase(0, nl + 1);
            if (!answer.is_discarded()) return outcome::answered;
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
        if (n < 0 && errno != EINTR) throw std::runtime_error(std::string("waiting for a worker: ") + std::strerror(errno));
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

// ---- supervision -----------------------------------------------------------------------------

worker_executor::worker_executor(const platform_options& po, const std::vector<fs::path>& files,
                                 plugin_registry& registry)
    : po_(po)
{
    std::string why;
    if (!start(files, &registry, why)) throw std::runtime_error(why);
}

worker_executor::worker_executor(const platform_options& po, const worker_executor& first) : po_(po)
{
    std::string why;
    if (!start(first.loaded_, nullptr, why)) throw std::runtime_error(why);
}

bool worker_executor::start(std::vector<fs::path> files, plugin_registry* registry, std::string& why)
{
    const auto t0 = std::chrono::steady_clock::now();
    for (;;) {
        worker_ = std::make_unique<worker_process>(po_);
        {
            std::lock_guard lock(stats_m_);
            ++started_;
        }
        json request{{"load", json::array()}};
        for (const auto& f : files) request["load"].push_back(f.string());
        worker_->send(request);
        // Each file gets load_limit from when the worker starts on it.
        int32_t file = -2;
        auto extend = [&](const progress& p, worker_process::clock::time_point deadline) {
            if (const int32_t now = p.file.load(); now != file) {
                file = now;
                return worker_process::clock::now() + load_limit;
            }
            return deadline;
        };
        json catalog;
        const auto how = worker_->wait(catalog, worker_process::clock::now() + load_limit, extend);
        if (how == worker_process::outcome::answered) try {
            // The worker ran the plugins' code: it names only files it was asked to load, each
            // declaration passes check_declaration as one loaded here would (add_declared), and a
            // reason is shown only printable and bounded.
            const auto asked = [&files](const json& path) {
                const fs::path f = path.get<std::string>();
                if (std::find(files.begin(), files.end(), f) == files.end())
                    throw std::runtime_error("it names a file it was not asked to load: '" +
                                             shorten(f.string(), 200) + "'");
                return f;
            };
            if (registry) {
                for (const auto& p : catalog.at("plugins")) {
                    asked(p.at("path"));
                    registry->add_declared(wire::plugin_from(p));
                }
                for (const auto& r : catalog.at("rejected"))
                    registry->reject(asked(r.at("path")),
                                     shown(r.at("reason").get<std::string>(), declaration_limits::reason));
            }
            loaded_.clear();
            for (const auto& p : catalog.at("plugins")) loaded_.push_back(asked(p.at("path")));
            const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            std::lock_guard lock(stats_m_);
            start_ms_.push_back(ms);
            return true;
        } catch (const std::exception& e) {
            why = std::string("a worker's list of plugins is not one: ") + e.what();
            worker_.reset();
            return false;
        }
        const int32_t at = worker_->where().file.load();
        const std::string ended = how == worker_process::outcome::timed_out
                                      ? "did not finish loading within " + std::to_string(load_limit.count()) +
                                            " s (killed)"
                                      : worker_->how_it_ended();
        const std::string said = last_line_note(worker_->last_line());
        worker_.reset();
        if (at < 0 || size_t(at) >= files.size()) {
            why = "a worker process (wavebench worker --platform " + po_.name + ") ended before loading plugins: " + ended + said;
            return false;
        }
        if (!registry) { // a file that loaded before fails now
            why = "loading " + files[size_t(at)].string() + " again " + (how == worker_process::outcome::timed_out ? "hung" : "crashed") + ": " + ended + said;
            return false;
        }
        // What the file printed before it crashed is its own: shown printable and bounded.
        registry->reject(files[size_t(at)],
                         shown((how == worker_process::outcome::timed_out ? "hangs while being loaded: "
                                                                           : "crashed while being loaded: ") +
                                   ended + said,
                               declaration_limits::reason));
        files.erase(files.begin() + at);
    }
}

result worker_executor::measure(const config& c, const run_settings& s)
{
    result r = result_for(c);
    if (!worker_) {
        std::string why;
        if (!start(loaded_, nullptr, why)) {
            r.st = status::crashed;
            r.where = stage::load;
            r.message = why;
            return r;
        }
    }
    // Before the request goes: the worker's own time then always falls inside the round trip.
    const auto t0 = worker_process::clock::now();
    worker_->send({{"measure",
                    {{"plugin", c.plug->name()},
                     {"group", c.group},
                     {"family_params", wire::to_json(c.family_params)},
                     {"tunables", wire::to_json(c.tunables)},
                     {"skip", c.skip}}},
                   {"settings", wire::to_json(s)}});
    const double limit = timeout_of(s);
    json answer;
    const auto how = worker_->wait(answer, t0 + std::chrono::duration_cast<worker_process::clock::duration>(
                                                    std::chrono::duration<double>(limit)));
    if (how == worker_process::outcome::answered && answer.contains("result")) {
        try {
            r = wire::result_from(answer["result"]);
            const double round_trip = std::chrono::duration<double, std::milli>(worker_process::clock::now() - t0).count();
            const double overhead = round_trip - answer.at("busy_ms").get<double>();
            std::lock_guard lock(stats_m_);
            overhead_ms_.push_back(overhead);
        } catch (const std::exception& e) {
            r = result_for(c);
            r.st = status::crashed;
            r.message = std::string("the worker's answer is not a result: ") + e.what();
            worker_.reset();
            return r;
        }
        if (r.st == status::error) worker_.reset(); // its device context may be unusable: a fresh worker next
        return r;
    }
    r.where = stage(worker_->where().step.load());
    if (how == worker_process::outcome::answered) { // the worker could not start the platform
        r.st = status::error;
        r.message = answer.value("fatal", "the worker answered nonsense");
    } else if (how == worker_process::outcome::timed_out) {
        r.st = status::timeout;
        char limit_text[32];
        std::snprintf(limit_text, sizeof limit_text, "%g", limit);
        r.message = std::string("exceeded the limit of ") + limit_text + " s in " + to_string(r.where) +
                    " (timeout_s, --timeout); the worker was killed" + last_line_note(worker_->last_line());
    } else {
        r.st = status::crashed;
        r.message = "the worker died of " + worker_->how_it_ended() + " in " + to_string(r.where) +
                    last_line_note(worker_->last_line());
    }
    worker_.reset();
    return r;
}

json worker_executor::describe() const
{
    auto median = [](std::vector<double> v) {
        if (v.empty()) return json();
        std::nth_element(v.begin(), v.begin() + long(v.size() / 2), v.end());
        return json(v[v.size() / 2]);
    };
    std::lock_guard lock(stats_m_);
    return {{"mode", "workers"},
            {"workers_started", started_},
            {"worker_start_ms", median(start_ms_)},
            {"overhead_ms", median(overhead_ms_)}};
}

void load_catalog(const platform_options& po, const std::vector<fs::path>& files, plugin_registry& reg)
{
    if (po.in_process) {
        for (const auto& f : files) reg.add_file(f);
    } else {
        worker_executor loader(po, files, reg);
    }
}

} // namespace wb
