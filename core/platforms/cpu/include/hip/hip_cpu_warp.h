// The cpu platform's warp collectives: votes, shuffles, matches and reductions, unmasked and masked
// (included by hip_runtime.h), and the regions wavebench-hip-rewrite marks so that a wavefront's
// lanes reconverge as on a GPU (see the README). Lanes of one wavefront that reach the same call site
// in the same instance of the same region form one collective; a `_sync` form's lanes are the ones
// its mask names, from any call site. Every collective takes its caller's source location.
#pragma once

#include <hip/hip_runtime.h>

enum hip_cpu_op {
    hip_cpu_ballot = 0,
    hip_cpu_shfl,
    hip_cpu_shfl_up,
    hip_cpu_shfl_down,
    hip_cpu_shfl_xor,
    hip_cpu_match,  // each lane: the lanes whose value equals its own
    hip_cpu_reduce, // each lane: the group's values combined by arg's hip_cpu_reduce_op (| 16: signed)
};
enum hip_cpu_reduce_op {
    hip_cpu_reduce_add,
    hip_cpu_reduce_min,
    hip_cpu_reduce_max,
    hip_cpu_reduce_and,
    hip_cpu_reduce_or,
    hip_cpu_reduce_xor
};

// ---- regions: where a wavefront's lanes reconverge ---------------------------------------------------
/// A lane's place in the structured control flow of the code that reaches a collective, as
/// wavebench-hip-rewrite marks it: one frame per function, `if`/`switch`/loop statement and loop
/// iteration the lane is in, on the lane's own stack, innermost first (hip_cpu_tls.region).
struct hip_cpu_frame {
    hip_cpu_frame* parent;
    unsigned long long key;         // this dynamic instance: a hash of the path to it (ids, arms, counts)
    unsigned long long parent_here; // the parent's place (hip_cpu_place) once this region has ended
    unsigned id;                    // the region in the source
    unsigned arm;                   // the branch of an if or switch the lane is in (0: the condition)
    unsigned count;                 // the regions this lane has entered in this arm (the next one's ordinal)
    unsigned depth;                 // frames above this one
};
/// The key of a frame entered from one whose key is `parent` (in its arm `arm`, as its region
/// number `count`): one multiply.
inline unsigned long long hip_cpu_child_key(unsigned long long parent, unsigned arm, unsigned count, unsigned id)
{
    const unsigned long long h = ((parent ^ id) + ((unsigned long long)arm << 32 | count)) * 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 29);
}
/// Where in its frame a lane is (the frame's key, its arm and count): what a collective's lanes
/// share, kept in hip_cpu_tls.here so that a collective need not read the frame.
inline unsigned long long hip_cpu_place(unsigned long long key, unsigned arm, unsigned count)
{
    return key ^ ((unsigned long long)arm << 32 | count); // keys are hashes: an xor keeps them apart
}
/// A region's frame: made where the region starts, gone where the lane leaves it (by any path).
class hip_cpu_region : hip_cpu_frame {
public:
    explicit hip_cpu_region(unsigned region_id) noexcept
    {
        hip_cpu_frame* p = static_cast<hip_cpu_frame*>(hip_cpu_tls.region);
        parent = p;
        id = region_id;
        arm = count = 0;
        if (p) {
            ++p->count;
            key = hip_cpu_child_key(p->key, p->arm, p->count, region_id);
            parent_here = hip_cpu_place(p->key, p->arm, p->count);
            depth = p->depth + 1;
        } else {
            key = hip_cpu_child_key(0, 0, 0, region_id);
            parent_here = 0;
            depth = 0;
        }
        hip_cpu_tls.region = static_cast<hip_cpu_frame*>(this);
        hip_cpu_tls.here = key;
    }
    ~hip_cpu_region()
    {
        hip_cpu_tls.region = parent;
        hip_cpu_tls.here = parent_here;
    }
    hip_cpu_region(const hip_cpu_region&) = delete;
    hip_cpu_region& operator=(const hip_cpu_region&) = delete;
    /// The lane takes branch `a` of this if or switch.
    void enter_arm(unsigned a) noexcept
    {
        arm = a;
        count = 0;
        hip_cpu_tls.here = hip_cpu_place(key, a, 0);
    }
};

namespace hip_cpu_detail {
inline uint64_t site(const std::source_location& l) { return uint64_t(l.line()) << 32 | l.column(); }
inline uint64_t masked(int op, uint64_t value, int arg, int width, unsigned long long mask,
                       const std::source_location& l)
{
    return hip_cpu_collective_masked(op | hip_cpu_sync, value, arg, width, mask, l.file_name(), site(l));
}
} // namespace hip_cpu_detail

inline unsigned long long __ballot(int predicate, std::source_location l = std::source_location::current())
{
    return hip_cpu_collective_masked(hip_cpu_ballot, predicate != 0, 0, 0, 0, l.file_name(), hip_cpu_detail::site(l));
}
inline int __any(int predicate, std::source_location l = std::source_location::current())
{
    return __ballot(predicate, l) != 0;
}
inline int __all(int predicate, std::source_location l = std::source_location::current())
{
    // Every active lane's bit is set exactly when nobody voted "false".
    return __ballot(!predicate, l) == 0;
}

namespace hip_cpu_detail {
/// A shuffle of `var` (at most 8 bytes); `sync`: a `_sync` form with its mask.
template <class T>
inline T shuffle(int op, T var, int arg, int width, const std::source_location& l, int sync = 0,
                 unsigned long long mask = 0)
{
    static_assert(std::is_trivially_copyable<T>::value && sizeof(T) <= 8, "shuffles move values of 8 bytes at most");
    uint64_t bits = 0;
    std::memcpy(&bits, &var, sizeof(T));
    bits = hip_cpu_collective_masked(sync ? op | hip_cpu_sync : op, bits, arg, width, mask, l.file_name(), site(l));
    T r;
    std::memcpy(&r, &bits, sizeof(T));
    return r;
}
template <class T> inline uint64_t widened(T v)
{
    static_assert(std::is_integral<T>::value && sizeof(T) <= 8, "matches and reductions take integers");
    return uint64_t(v);
}
} // namespace hip_cpu_detail

template <class T>
inline T __shfl(T var, int src_lane, int width = warpSize, std::source_location l = std::source_location::current())
{
    return hip_cpu_detail::shuffle(hip_cpu_shfl, var, src_lane, width, l);
}
template <class T>
inline T __shfl_up(T var, unsigned delta, int width = warpSize,
                   std::source_location l = std::source_location::current())
{
    return hip_cpu_detail::shuffle(hip_cpu_shfl_up, var, int(delta), width, l);
}
template <class T>
inline T __shfl_down(T var, unsigned delta, int width = warpSize,
                     std::source_location l = std::source_location::current())
{
    return hip_cpu_detail::shuffle(hip_cpu_shfl_down, var, int(delta), width, l);
}
template <class T>
inline T __shfl_xor(T var, int lane_mask, int width = warpSize,
                    std::source_location l = std::source_location::current())
{
    return hip_cpu_detail::shuffle(hip_cpu_shfl_xor, var, lane_mask, width, l);
}

// The masked spellings (CUDA's, and HIP's since ROCm 6.2): the lanes the mask names wait for each
// other, from any call site, and take part together (with the lanes that give the same mask, as on
// AMD, where a 32-bit mask on a 64-lane wavefront still exchanges across it). A lane named in a
// mask that cannot arrive (it waits at a barrier, or at a _sync with another mask) fails the launch.
inline unsigned long long __activemask(std::source_location l = std::source_location::current())
{
    return hip_cpu_collective_masked(int(hip_cpu_ballot) | hip_cpu_active, 1, 0, 0, 0, l.file_name(),
                                     hip_cpu_detail::site(l));
}
inline void __syncwarp(unsigned long long mask = ~0ull, std::source_location l = std::source_location::current())
{
    (void)hip_cpu_detail::masked(hip_cpu_ballot, 1, 0, 0, mask, l); // what each wrote before is seen by all after
}
inline unsigned long long __ballot_sync(unsigned long long mask, int predicate,
                                        std::source_location l = std::source_location::current())
{
    return hip_cpu_detail::masked(hip_cpu_ballot, predicate != 0, 0, 0, mask, l) & mask;
}
inline int __any_sync(unsigned long long mask, int predicate, std::source_location l = std::source_location::current())
{
    return __ballot_sync(mask, predicate, l) != 0;
}
inline int __all_sync(unsigned long long mask, int predicate, std::source_location l = std::source_location::current())
{
    return (hip_cpu_detail::masked(hip_cpu_ballot, !predicate, 0, 0, mask, l) & mask) == 0;
}
template <class T>
inline T __shfl_sync(unsigned long long mask, T var, int src_lane, int width = warpSize,
                     std::source_location l = std::source_location::current())
{
    return hip_cpu_detail::shuffle(hip_cpu_shfl, var, src_lane, width, l, 1, mask);
}
template <class T>
inline T __shfl_up_sync(unsigned long long mask, T var, unsigned delta, int width = warpSize,
                        std::source_location l = std::source_location::current())
{
    return hip_cpu_detail::shuffle(hip_cpu_shfl_up, var, int(delta), width, l, 1, mask);
}
template <class T>
inline T __shfl_down_sync(unsigned long long mask, T var, unsigned delta, int width = warpSize,
                          std::source_location l = std::source_location::current())
{
    return hip_cpu_detail::shuffle(hip_cpu_shfl_down, var, int(delta), width, l, 1, mask);
}
template <class T>
inline T __shfl_xor_sync(unsigned long long mask, T var, int lane_mask, int width = warpSize,
                         std::source_location l = std::source_location::current())
{
    return hip_cpu_detail::shuffle(hip_cpu_shfl_xor, var, lane_mask, width, l, 1, mask);
}

// Matches: the lanes taking part whose value equals the caller's.
template <class T>
inline unsigned long long __match_any(T value, std::source_location l = std::source_location::current())
{
    return hip_cpu_collective_masked(hip_cpu_match, hip_cpu_detail::widened(value), 0, 0, 0, l.file_name(),
                                     hip_cpu_detail::site(l));
}
template <class T>
inline unsigned long long __match_all(T value, int* pred, std::source_location l = std::source_location::current())
{
    const unsigned long long same = __match_any(value, l), all = __activemask(l);
    *pred = same == all;
    return same == all ? all : 0;
}
template <class T>
inline unsigned long long __match_any_sync(unsigned long long mask, T value,
                                           std::source_location l = std::source_location::current())
{
    return hip_cpu_detail::masked(hip_cpu_match, hip_cpu_detail::widened(value), 0, 0, mask, l) & mask;
}
template <class T>
inline unsigned long long __match_all_sync(unsigned long long mask, T value, int* pred,
                                           std::source_location l = std::source_location::current())
{
    const unsigned long long same = __match_any_sync(mask, value, l);
    *pred = same == (mask & __ballot_sync(mask, 1, l));
    return *pred ? same : 0;
}

// Reductions over the lanes the mask names (CUDA's __reduce_*_sync, in HIP since ROCm 6.2).
namespace hip_cpu_detail {
template <class T> inline T reduced(int how, unsigned long long mask, T value, const std::source_location& l)
{
    const int arg = how | (std::is_signed<T>::value ? 16 : 0);
    return T(masked(hip_cpu_reduce, widened(value), arg, 0, mask, l));
}
} // namespace hip_cpu_detail
#define HIP_CPU_REDUCE_SYNC(name, how)                                                                                 \
    template <class T>                                                                                                 \
    inline T name(unsigned long long mask, T value, std::source_location l = std::source_location::current())          \
    {                                                                                                                  \
        return hip_cpu_detail::reduced(how, mask, value, l);                                                           \
    }
HIP_CPU_REDUCE_SYNC(__reduce_add_sync, hip_cpu_reduce_add)
HIP_CPU_REDUCE_SYNC(__reduce_min_sync, hip_cpu_reduce_min)
HIP_CPU_REDUCE_SYNC(__reduce_max_sync, hip_cpu_reduce_max)
HIP_CPU_REDUCE_SYNC(__reduce_and_sync, hip_cpu_reduce_and)
HIP_CPU_REDUCE_SYNC(__reduce_or_sync, hip_cpu_reduce_or)
HIP_CPU_REDUCE_SYNC(__reduce_xor_sync, hip_cpu_reduce_xor)
#undef HIP_CPU_REDUCE_SYNC
