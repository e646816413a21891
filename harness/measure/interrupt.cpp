// The interrupt handlers (measure/interrupt.h).
#include "harness/measure/interrupt.h"

#include "harness/common/files.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace wb {

namespace {

volatile std::sig_atomic_t stop_signal = 0;
std::atomic<pid_t> worker{0};

void on_signal(int sig)
{
    if (stop_signal != 0 && sig == SIGINT) { // the second: at once (the results file is whole: it is
        const pid_t w = worker.load();       // only ever replaced by a rename; the journal beside it
        if (w > 0) kill(w, SIGKILL);         // holds every result)
        remove_partial_outputs();            // a rewrite in progress in another thread
        static const char msg[] = "\ninterrupted again: stopped at once\n";
        (void)!write(STDERR_FILENO, msg, sizeof msg - 1);
        _exit(128 + sig);
    }
    if (stop_signal == 0) {
        stop_signal = sig;
        static const char msg[] = "\ninterrupted: stopping after the current configuration (again to stop now)\n";
        (void)!write(STDERR_FILENO, msg, sizeof msg - 1);
    }
}

} // namespace

void install_interrupt_handlers()
{
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART; // poll() still returns EINTR, where the supervisor looks again
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    // A closed terminal or a dropped ssh session (SIGHUP) stops as SIGTERM does; under nohup it
    // stays ignored.
    struct sigaction hup {};
    if (sigaction(SIGHUP, nullptr, &hup) == 0 && hup.sa_handler != SIG_IGN) sigaction(SIGHUP, &sa, nullptr);
    std::signal(SIGPIPE, SIG_IGN); // a worker that died is seen by its exit status, not by a write
}

int interrupted() { return stop_signal; }

void set_current_worker(pid_t pid) { worker.store(pid); }

const char* signal_name(int sig)
{
    if (const char* abbrev = sigabbrev_np(sig)) {
        static thread_local char name[32];
        std::snprintf(name, sizeof name, "SIG%s", abbrev);
        return name;
    }
    static thread_local char unknown[32];
    std::snprintf(unknown, sizeof unknown, "signal %d", sig);
    return unknown;
}

} // namespace wb
