// The CPU runtime's collectives (scheduler.h): once a wavefront's lanes are all blocked, which of
// the collectives pending in it can complete, the lanes of each, and what each lane gets back.
#include "scheduler.h"

#include <cstdio>
#include <mutex>
#include <set>
#include <string>
#include <utility>

// Defined by `wavebench-hipcc --checked`'s checker (checked.cpp), absent otherwise.
extern "C" int wavebench_checked_program __attribute__((weak));

#pragma GCC visibility push(hidden) // the runtime's own: not exported from the library
namespace cpu_runtime {

namespace {

/// Whether a lane whose innermost region is `a` may still reach, in the same instance, the place
/// of a lane whose innermost region is `b`: the two paths agree down to a frame, and there `a` is
/// in the same arm at an earlier region, or inside the region that `b` has already left.
bool behind(const hip_cpu_frame* a, const hip_cpu_frame* b)
{
    const hip_cpu_frame *ca = nullptr, *cb = nullptr; // the frames below a and b on their paths
    auto depth = [](const hip_cpu_frame* f) { return f ? long(f->depth) : -1L; };
    while (depth(a) > depth(b)) ca = a, a = a->parent;
    while (depth(b) > depth(a)) cb = b, b = b->parent;
    while (a && a->key != b->key) ca = a, a = a->parent, cb = b, b = b->parent;
    if (!a || a->arm != b->arm) return false; // unrelated paths, or two branches of one if or switch
    if (a->count != b->count) return a->count < b->count;
    return ca && !cb;
}

} // namespace

/// The lanes (bit k: lane w0 + k) of the collective pending at lane i: a `_sync` form's, the lanes
/// at a `_sync` form with the same mask; otherwise the lanes at i's call site in i's region
/// instance. `same`: whether they all have one operation and one width.
uint64_t worker::group_of(unsigned w0, uint64_t pending, unsigned i, bool& same) const
{
    const lane* const ln = lanes_.data();
    const lane& a = ln[i];
    uint64_t group = 0;
    same = true;
    for (uint64_t m = pending; m; m &= m - 1) {
        const unsigned j = w0 + unsigned(__builtin_ctzll(m));
        const lane& b = ln[j];
        const bool in = a.sync
                            ? b.sync && b.mask == a.mask
                            : !b.sync && b.line_column == a.line_column && b.file == a.file && b.instance == a.instance;
        if (in) {
            group |= m & -m;
            same &= b.op == a.op && b.width == a.width;
        }
    }
    return group;
}

/// Whether the collective of `group` (lane i's) can complete now: a `_sync` form's once every lane
/// its mask names has arrived or exited; another once no pending lane outside it may still reach
/// it (behind()).
bool worker::can_complete(unsigned w0, unsigned w1, uint64_t pending, uint64_t group, unsigned i) const
{
    const lane* const ln = lanes_.data();
    if (ln[i].sync) {
        const unsigned n = w1 - w0;
        uint64_t named = n < 64 ? ln[i].mask & ((uint64_t(1) << n) - 1) : ln[i].mask;
        for (uint64_t m = named & ~group; m; m &= m - 1)
            if (state_[w0 + unsigned(__builtin_ctzll(m))] != lane_state::exited) return false;
        return true;
    }
    for (uint64_t m = pending & ~group; m; m &= m - 1)
        if (behind(ln[w0 + unsigned(__builtin_ctzll(m))].frame, ln[i].frame)) return false;
    return true;
}

/// Completes the collective of `group`: its lanes get their results and can run.
void worker::complete(unsigned w0, uint64_t group, bool same)
{
    const lane& a = lanes_[w0 + unsigned(__builtin_ctzll(group))];
    ++collectives_;
    collective_lanes_ += unsigned(__builtin_popcountll(group));
    in_collective_ -= unsigned(__builtin_popcountll(group));
    if (a.op == hip_cpu_ballot && same)
        resolve_ballot(w0, group);
    else if (a.op == hip_cpu_match && same)
        resolve_match(w0, group);
    else if (a.op == hip_cpu_reduce && same && a.arg == lanes_[w0 + unsigned(63 - __builtin_clzll(group))].arg)
        resolve_reduce(w0, group);
    else if (same)
        resolve_shuffles(w0, group, a.op, a.width);
    else
        resolve_shuffles(w0, group);
}

/// Under --checked: a collective without a mask that not every lane of the wavefront takes part in
/// (the others took another branch, or wait elsewhere), once per call site. HIP on AMD defines its
/// lanes as the active ones; on NVIDIA since Volta (independent thread scheduling) which lanes take
/// part in one is not defined, so portable code names them with a _sync form's mask.
void worker::note_divergent(unsigned w0, unsigned w1, uint64_t group) const
{
    static const bool checked = &wavebench_checked_program != nullptr;
    const lane& a = lanes_[w0 + unsigned(__builtin_ctzll(group))];
    if (!checked || a.sync || a.quiet) return;
    unsigned live = 0;
    for (unsigned j = w0; j < w1; ++j) live += state_[j] != lane_state::exited;
    const unsigned n = unsigned(__builtin_popcountll(group));
    if (n == live) return;
    static std::mutex m;
    static std::set<std::pair<const char*, uint64_t>> seen;
    std::lock_guard lock(m);
    if (!seen.insert({a.file, a.line_column}).second || seen.size() > 1000) return;
    std::fprintf(stderr,
                 "%s:%u: warning: a collective without a mask in divergent code: %u of the wavefront's %u lanes take "
                 "part; on NVIDIA since Volta which lanes take part is not defined: use its _sync form with a mask "
                 "(__activemask(), or the lanes meant)\n",
                 a.file ? a.file : "?", unsigned(a.line_column >> 32), n, live);
}

/// Completes the collectives pending in wavefront [w0, w1) that can complete (at least one can,
/// unless a `_sync` form waits for a lane that cannot come: fail_stuck).
void worker::resolve_collectives(unsigned w0, unsigned w1)
{
    const lane_state* const st = state_.data();
    const lane* const ln = lanes_.data();
    // One pass: the lanes pending, and the group of the first (most often every lane pending).
    unsigned i = w1;
    uint64_t pending = 0, first = 0;
    bool same = true;
    for (unsigned j = w0; j < w1; ++j) {
        if (st[j] != lane_state::collective) continue;
        const uint64_t bit = uint64_t(1) << (j - w0);
        pending |= bit;
        if (i == w1) i = j;
        const lane &a = ln[i], &b = ln[j];
        const bool in = a.sync
                            ? b.sync && b.mask == a.mask
                            : !b.sync && b.line_column == a.line_column && b.file == a.file && b.instance == a.instance;
        if (in) {
            first |= bit;
            same &= b.op == a.op && b.width == a.width;
        }
    }
    if (first == pending && (!ln[i].sync || can_complete(w0, w1, pending, first, i))) {
        note_divergent(w0, w1, first);
        return complete(w0, first, same);
    }
    bool done = false;
    for (uint64_t todo = pending; todo;) {
        const unsigned k = w0 + unsigned(__builtin_ctzll(todo));
        const uint64_t group = group_of(w0, todo, k, same);
        todo &= ~group;
        if (can_complete(w0, w1, pending, group, k)) {
            note_divergent(w0, w1, group);
            complete(w0, group, same);
            done = true;
        }
    }
    if (!done) fail_stuck(w0, w1, pending);
}

/// No pending collective can complete: a `_sync` form's mask names a lane that waits elsewhere (at a
/// barrier, or at a `_sync` form with another mask), which no GPU completes either. The launch fails
/// with both places named, and every collective completes with the lanes it has, so that the block
/// ends.
void worker::fail_stuck(unsigned w0, unsigned w1, uint64_t pending)
{
    const lane* const ln = lanes_.data();
    uint64_t sync = 0;
    for (uint64_t m = pending; m; m &= m - 1) sync |= ln[w0 + unsigned(__builtin_ctzll(m))].sync ? m & -m : 0;
    bool same = true;
    if (!sync) { // cannot happen (behind() orders the groups): complete them all, to go on
        for (uint64_t todo = pending; todo;) {
            const uint64_t g = group_of(w0, todo, w0 + unsigned(__builtin_ctzll(todo)), same);
            todo &= ~g;
            complete(w0, g, same);
        }
        return;
    }
    const unsigned i = w0 + unsigned(__builtin_ctzll(sync));
    const unsigned n = w1 - w0;
    const uint64_t named = n < 64 ? ln[i].mask & ((uint64_t(1) << n) - 1) : ln[i].mask;
    const uint64_t group = group_of(w0, pending, i, same);
    const uint64_t missing = named & ~group;
    const unsigned j = missing ? w0 + unsigned(__builtin_ctzll(missing)) : i;
    const bool at_collective = state_[j] == lane_state::collective;
    std::fprintf(stderr,
                 "wavebench cpu runtime: block %u: a _sync collective at %s:%u names lane %u in its mask "
                 "(0x%llx), which waits %s%s%s%s and cannot arrive; the launch fails\n",
                 blockIdx.x, ln[i].file ? ln[i].file : "?", unsigned(ln[i].line_column >> 32), j - w0,
                 static_cast<unsigned long long>(ln[i].mask), at_collective ? "at a collective at " : "at a barrier",
                 at_collective && ln[j].file ? ln[j].file : "", at_collective ? ":" : "",
                 at_collective ? std::to_string(ln[j].line_column >> 32).c_str() : "");
    fail(hipErrorLaunchFailure);
    for (uint64_t todo = pending; todo;) {
        const unsigned k = w0 + unsigned(__builtin_ctzll(todo));
        const uint64_t g = group_of(w0, todo, k, same);
        todo &= ~g;
        complete(w0, g, same);
    }
}

/// Completes a ballot: the lanes of `mask` (bit k: lane w0 + k) each get the mask of those whose
/// value is not 0.
void worker::resolve_ballot(unsigned w0, uint64_t mask)
{
    lane* const ln = lanes_.data();
    uint64_t ballot = 0;
    for (uint64_t m = mask; m; m &= m - 1)
        if (ln[w0 + unsigned(__builtin_ctzll(m))].value) ballot |= m & -m;
    for (uint64_t m = mask; m; m &= m - 1) {
        const unsigned j = w0 + unsigned(__builtin_ctzll(m));
        ln[j].result = ballot;
        state_[j] = lane_state::runnable;
    }
}

/// Completes a match: each lane of `mask` gets the mask of those whose value equals its own.
void worker::resolve_match(unsigned w0, uint64_t mask)
{
    lane* const ln = lanes_.data();
    for (uint64_t m = mask; m; m &= m - 1) {
        lane& l = ln[w0 + unsigned(__builtin_ctzll(m))];
        uint64_t same = 0;
        for (uint64_t o = mask; o; o &= o - 1)
            if (ln[w0 + unsigned(__builtin_ctzll(o))].value == l.value) same |= o & -o;
        l.result = same;
    }
    for (uint64_t m = mask; m; m &= m - 1) state_[w0 + unsigned(__builtin_ctzll(m))] = lane_state::runnable;
}

/// Completes a reduction: every lane of `mask` gets their values combined (32-bit integers, as
/// CUDA's __reduce_*_sync: signed or unsigned as the arg says).
void worker::resolve_reduce(unsigned w0, uint64_t mask)
{
    lane* const ln = lanes_.data();
    const int how = ln[w0 + unsigned(__builtin_ctzll(mask))].arg;
    const bool is_signed = how & 16;
    uint64_t acc = ln[w0 + unsigned(__builtin_ctzll(mask))].value;
    for (uint64_t m = mask & (mask - 1); m; m &= m - 1) {
        const uint64_t v = ln[w0 + unsigned(__builtin_ctzll(m))].value;
        const bool less = is_signed ? int64_t(v) < int64_t(acc) : v < acc;
        switch (how & 15) {
        case hip_cpu_reduce_add:
            acc += v;
            break;
        case hip_cpu_reduce_min:
            acc = less ? v : acc;
            break;
        case hip_cpu_reduce_max:
            acc = less ? acc : v;
            break;
        case hip_cpu_reduce_and:
            acc &= v;
            break;
        case hip_cpu_reduce_or:
            acc |= v;
            break;
        default:
            acc ^= v;
            break;
        }
    }
    for (uint64_t m = mask; m; m &= m - 1) {
        const unsigned j = w0 + unsigned(__builtin_ctzll(m));
        ln[j].result = acc;
        state_[j] = lane_state::runnable;
    }
}

/// Each lane of `mask` (bit k: lane w0 + k) reads the value of lane w0 + source(k, arg), or keeps
/// its own where that lane is outside the wavefront or not in the group.
template <class Source> void worker::shuffle_each(unsigned w0, uint64_t mask, Source source)
{
    lane* const ln = lanes_.data();
    lane_state* const st = state_.data();
    for (uint64_t m = mask; m; m &= m - 1) {
        const unsigned k = unsigned(__builtin_ctzll(m));
        lane& l = ln[w0 + k];
        const int src = source(int(k), l.arg);
        l.result = unsigned(src) < warp_ && (mask >> src & 1) ? ln[w0 + unsigned(src)].value : l.value;
        st[w0 + k] = lane_state::runnable;
    }
}

/// Completes a shuffle whose lanes all have one operation and one width: source_lane()'s rules,
/// with the operation and the width decided once for the group rather than at every lane.
void worker::resolve_shuffles(unsigned w0, uint64_t mask, int op, int width)
{
    if (width <= 0 || width > int(warp_) || (width & (width - 1))) width = int(warp_);
    const int w = width;
    switch (op) {
    case hip_cpu_shfl:
        return shuffle_each(w0, mask, [w](int self, int arg) { return (self & ~(w - 1)) + (arg & (w - 1)); });
    case hip_cpu_shfl_up:
        return shuffle_each(w0, mask, [w](int self, int arg) { return (self & (w - 1)) >= arg ? self - arg : self; });
    case hip_cpu_shfl_down:
        return shuffle_each(w0, mask,
                            [w](int self, int arg) { return (self & (w - 1)) + arg < w ? self + arg : self; });
    case hip_cpu_shfl_xor:
        return shuffle_each(w0, mask, [w](int self, int arg) {
            const int src = self ^ arg;
            return (src & ~(w - 1)) == (self & ~(w - 1)) ? src : self;
        });
    default:
        return shuffle_each(w0, mask, [](int self, int) { return self; });
    }
}

/// Completes a shuffle: each lane of `mask` reads its source lane's value, or keeps its own where
/// the source is outside the wavefront or not in the group.
void worker::resolve_shuffles(unsigned w0, uint64_t mask)
{
    lane* const ln = lanes_.data();
    for (uint64_t m = mask; m; m &= m - 1) {
        const unsigned j = w0 + unsigned(__builtin_ctzll(m));
        lane& l = ln[j];
        const int src = source_lane(l.op, int(j - w0), l.arg, l.width);
        const bool active = src >= 0 && unsigned(src) < warp_ && (mask >> src & 1);
        l.result = active ? ln[w0 + unsigned(src)].value : l.value;
        state_[j] = lane_state::runnable;
    }
}

/// The lane a shuffle reads, within the caller's segment of `width` lanes (CUDA's rules).
int worker::source_lane(int op, int self, int arg, int width) const
{
    if (width <= 0 || width > int(warp_) || (width & (width - 1))) width = int(warp_);
    const int base = self & ~(width - 1), pos = self - base;
    switch (op) {
    case hip_cpu_shfl:
        return base + (arg & (width - 1));
    case hip_cpu_shfl_up:
        return pos >= arg ? self - arg : self;
    case hip_cpu_shfl_down:
        return pos + arg < width ? self + arg : self;
    case hip_cpu_shfl_xor: {
        const int src = self ^ arg;
        return (src & ~(width - 1)) == base ? src : self;
    }
    default:
        return self;
    }
}

} // namespace cpu_runtime
#pragma GCC visibility pop
