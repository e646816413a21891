// The CPU runtime's pool of worker threads (pool.h): starting, pinning and ending them, and
// sharing a launch's blocks out among them.
#include "pool.h"
#include "scheduler.h"

#include <cstdlib>
#include <pthread.h>
#include <sched.h>
#include <string>

#pragma GCC visibility push(hidden) // the runtime's own: not exported from the library
namespace cpu_runtime {

void pool::resize(unsigned total)
{
    {
        std::lock_guard lock(m_);
        stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_) t.join();
    threads_.clear();
    stop_ = false;
    for (unsigned i = 1; i < total; ++i) threads_.emplace_back([this, seen = generation_] { loop(seen); });
    pin();
}

void pool::run(launch_job& job)
{
    const bool parallel = job.n_blocks > 1 && !threads_.empty();
    if (parallel) {
        std::lock_guard lock(m_);
        job_ = &job;
        busy_ = unsigned(threads_.size());
        ++generation_;
    }
    if (parallel) cv_.notify_all();
    this_worker().run_blocks(job);
    if (parallel) {
        std::unique_lock lock(m_);
        done_.wait(lock, [this] { return busy_ == 0; });
        job_ = nullptr;
    }
}

/// Worker i runs on the i-th CPU this process may use (the launching thread, worker 0, is left
/// where it is, and goes to the CPU no worker has): left to the kernel, two workers sometimes
/// share a core for a while, and the same launch takes up to three times as long in one
/// process as in the next. WAVEBENCH_CPU_PIN=0 leaves them unpinned.
void pool::pin()
{
    if (const char* v = std::getenv("WAVEBENCH_CPU_PIN"); v && std::string(v) == "0") return;
    const std::vector<int> cpus = allowed_cpus();
    if (cpus.size() < 2) return;
    for (size_t i = 0; i < threads_.size(); ++i) {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpus[(i + 1) % cpus.size()], &one);
        pthread_setaffinity_np(threads_[i].native_handle(), sizeof one, &one);
    }
}

void pool::loop(uint64_t seen)
{
    for (;;) {
        launch_job* job;
        {
            std::unique_lock lock(m_);
            cv_.wait(lock, [&] { return stop_ || generation_ != seen; });
            if (stop_) return;
            seen = generation_;
            job = job_;
        }
        this_worker().run_blocks(*job);
        std::lock_guard lock(m_);
        if (--busy_ == 0) done_.notify_one();
    }
}

std::mutex& launch_mutex()
{
    static std::mutex m;
    return m;
}

pool& the_pool()
{
    static pool p(unsigned(env_size("WAVEBENCH_CPU_THREADS", max_workers())));
    return p;
}

} // namespace cpu_runtime
#pragma GCC visibility pop
