// One worker process (`wavebench worker`, the same binary, started with posix_spawn) and its
// pipes: requests on its stdin, answers on fd 3, its output passed on, its stage in shared memory
// on fd 4 (worker/worker.h says why).
#pragma once

#include "harness/measure/stage.h"
#include "harness/platform/platform_options.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace wb {

/// Where a worker answers, and where its stage is shared (measure/stage.h).
inline constexpr int answer_fd = 3, progress_fd = 4;

/// Writes all of `text`; false when the other side is gone.
bool write_all(int fd, std::string_view text);

/// One worker process and its pipes.
class worker_process {
public:
    using clock = std::chrono::steady_clock;

    explicit worker_process(const platform_options& po);
    ~worker_process();
    worker_process(const worker_process&) = delete;
    worker_process& operator=(const worker_process&) = delete;

    void send(const nlohmann::json& request);

    enum class outcome { answered, died, timed_out };
    /// Waits for the next answer until `deadline`, which `extend` may move (it is asked about once
    /// a second, with the worker's progress). Passes the worker's output on meanwhile.
    outcome wait(nlohmann::json& answer, clock::time_point deadline,
                 const std::function<clock::time_point(const progress&, clock::time_point)>& extend = {});

    /// After died: "SIGSEGV (Segmentation fault)", or "exit status 3".
    std::string how_it_ended();
    const progress& where() const { return *progress_; }
    const std::string& last_line() const { return last_line_; }

private:
    void drain_output(int timeout_ms);
    void reap();

    pid_t pid_ = -1;
    int to_worker_ = -1, answers_ = -1, output_ = -1;
    progress* progress_ = nullptr;
    std::string answer_buf_, output_buf_, last_line_;
    size_t answer_scanned_ = 0; // answer_buf_ holds no newline before this
    int exit_status_ = -1;      // from waitpid, once reaped
    bool garbled_ = false;      // killed for writing what is not an answer
};

} // namespace wb
