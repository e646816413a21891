// Where a configuration is: the step a worker publishes before it takes it, in memory its
// supervisor maps too, so that a crash or a timeout can be placed (load, prepare, bind, run,
// finish, verify...) even when the worker can say nothing more.
#pragma once

#include <atomic>
#include <cstdint>
#include <iterator>

namespace wb {

enum class stage : int32_t { none, load, inputs, prepare, bind, run, finish, verify, release };

/// "load", "inputs" (generating the inputs and the reference's outputs), "prepare", "bind",
/// "run", "finish", "verify", "release"; "" for none.
constexpr const char* to_string(stage s)
{
    constexpr const char* names[] = {"", "load", "inputs", "prepare", "bind", "run", "finish", "verify", "release"};
    const auto i = static_cast<int32_t>(s);
    return i >= 0 && i < int32_t(std::size(names)) ? names[i] : "";
}

/// What a worker publishes: its stage, and the index of the plugin file it is loading.
struct progress {
    std::atomic<int32_t> step{0};
    std::atomic<int32_t> file{-1};
};
static_assert(std::atomic<int32_t>::is_always_lock_free, "shared between processes");

namespace detail {
inline progress*& progress_slot()
{
    static progress local;
    static progress* current = &local;
    return current;
}
} // namespace detail

/// This process's progress: a local word, or the shared one after publish_progress_to.
inline progress& this_progress() { return *detail::progress_slot(); }
inline void publish_progress_to(progress* shared) { detail::progress_slot() = shared; }

inline void enter(stage s) { this_progress().step.store(int32_t(s), std::memory_order_relaxed); }
inline stage current_stage() { return stage(this_progress().step.load(std::memory_order_relaxed)); }

} // namespace wb
