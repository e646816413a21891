// The CPU runtime's pool of worker threads: a launch's blocks are shared out among them and the
// launching thread, which takes part as worker 0.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#pragma GCC visibility push(hidden) // the runtime's own: not exported from the library
namespace cpu_runtime {

struct launch_job;

class pool {
public:
    explicit pool(unsigned total) { resize(total); }
    pool(const pool&) = delete;
    pool& operator=(const pool&) = delete;
    ~pool() { resize(1); }

    /// The workers, the launching thread included.
    unsigned size() const { return unsigned(threads_.size()) + 1; }

    /// Ends the worker threads and starts `total` - 1 new ones, each pinned to its CPU.
    void resize(unsigned total);

    /// Runs every block of `job`, on the workers and this thread; returns when all are done.
    void run(launch_job& job);

private:
    void pin();
    void loop(uint64_t seen);

    std::vector<std::thread> threads_;
    std::mutex m_;
    std::condition_variable cv_, done_;
    launch_job* job_ = nullptr;
    uint64_t generation_ = 0;
    unsigned busy_ = 0;
    bool stop_ = false;
};

/// The process's pool: WAVEBENCH_CPU_THREADS workers, or one per CPU this thread may run on.
pool& the_pool();

} // namespace cpu_runtime
#pragma GCC visibility pop
