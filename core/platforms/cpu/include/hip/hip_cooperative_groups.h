// Cooperative groups on the cpu platform: HIP's names (namespace cooperative_groups) for the groups
// a kernel forms: its block, its grid (in a cooperative launch), static and dynamic tiles of a
// block, and the lanes that reach a call together. What is supported: ../../README.md.
//
// A tile's lanes are consecutive in the block's linear order and lie in one wavefront, so a tile's
// collectives are the wavefront's collectives restricted to the tile (width = the tile's size).
// Every member that synchronizes or exchanges values takes the caller's source location, so that
// two call sites in the kernel are two collectives (see "Collectives are matched by call site").
#pragma once

#include <hip/hip_runtime.h>

namespace cooperative_groups {

namespace detail {
inline unsigned block_rank()
{
    const uint3 t = threadIdx, d = blockDim;
    return t.x + d.x * (t.y + d.y * t.z);
}
inline unsigned block_threads()
{
    const uint3 d = blockDim;
    return d.x * d.y * d.z;
}
inline unsigned long long grid_block_rank()
{
    return blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
}
inline unsigned long long low_bits(unsigned n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }
enum class kind { block, grid, tile, coalesced };
} // namespace detail

/// Any group: its size, the caller's rank in it, and a barrier of its threads.
class thread_group {
public:
    unsigned long long size() const { return size_; }
    unsigned long long num_threads() const { return size_; }
    unsigned long long thread_rank() const { return rank_; }
    bool is_valid() const { return kind_ != detail::kind::grid || hip_cpu_launch_is_cooperative(); }
    void sync(std::source_location l = std::source_location::current()) const
    {
        switch (kind_) {
        case detail::kind::block:
            __syncthreads();
            break;
        case detail::kind::grid:
            hip_cpu_grid_sync();
            break;
        default:
            __syncwarp(~0ull, l);
            break; // a tile or coalesced group lies within one wavefront
        }
    }

protected:
    thread_group(detail::kind k, unsigned long long size, unsigned long long rank) : kind_(k), size_(size), rank_(rank)
    {
    }
    friend thread_group tiled_partition(const thread_group& parent, unsigned tile_size);

    detail::kind kind_;
    unsigned long long size_, rank_;
};

/// The threads of the block.
class thread_block : public thread_group {
public:
    thread_block() : thread_group(detail::kind::block, detail::block_threads(), detail::block_rank()) {}
    dim3 group_index() const { return dim3(blockIdx); }
    dim3 thread_index() const { return dim3(threadIdx); }
    dim3 group_dim() const { return dim3(blockDim); }
    dim3 dim_threads() const { return dim3(blockDim); }

    /// The split barrier: barrier_wait(std::move(barrier_arrive())) is sync(). Arriving does
    /// nothing here; the wait is the whole barrier, which orders everything the threads wrote
    /// before they arrived (and, more than a GPU promises, between arriving and waiting).
    struct arrival_token {};
    arrival_token barrier_arrive() const { return arrival_token(); }
    void barrier_wait(arrival_token&&) const { __syncthreads(); }
};
inline thread_block this_thread_block() { return thread_block(); }

/// The threads of the grid. sync() needs a cooperative launch (hipLaunchCooperativeKernel); in any
/// other launch is_valid() is false and sync() fails the launch (hipErrorLaunchFailure).
class grid_group : public thread_group {
public:
    grid_group()
        : thread_group(detail::kind::grid,
                       (unsigned long long)detail::block_threads() * gridDim.x * gridDim.y * gridDim.z,
                       detail::grid_block_rank() * detail::block_threads() + detail::block_rank())
    {
    }
    dim3 group_dim() const { return dim3(gridDim); }
    unsigned long long num_blocks() const { return (unsigned long long)gridDim.x * gridDim.y * gridDim.z; }
    unsigned long long block_rank() const { return detail::grid_block_rank(); }
    dim3 block_index() const { return dim3(blockIdx); }

    /// The split barrier of the grid, as the block's: the wait is the grid's sync.
    struct arrival_token {};
    arrival_token barrier_arrive() const { return arrival_token(); }
    void barrier_wait(arrival_token&&) const { hip_cpu_grid_sync(); }
};
inline grid_group this_grid() { return grid_group(); }

/// A dynamic tile (HIP's tiled_partition(parent, n)): a power of two no wider than a wavefront.
inline thread_group tiled_partition(const thread_group& parent, unsigned tile_size)
{
    (void)parent;
    return thread_group(detail::kind::tile, tile_size, detail::block_rank() % tile_size);
}

/// A static tile of N consecutive threads of the block, with the wavefront's collectives.
template <unsigned N> class thread_block_tile : public thread_group {
    static_assert(N >= 1 && N <= 64 && (N & (N - 1)) == 0, "a tile is a power of two of at most 64 threads");

public:
    thread_block_tile() : thread_group(detail::kind::tile, N, detail::block_rank() % N) {}
    unsigned meta_group_rank() const { return detail::block_rank() / N; }
    unsigned meta_group_size() const { return (detail::block_threads() + N - 1) / N; }

    template <class T> T shfl(T var, int src_rank, std::source_location l = std::source_location::current()) const
    {
        return __shfl(var, src_rank, int(N), l);
    }
    template <class T>
    T shfl_down(T var, unsigned delta, std::source_location l = std::source_location::current()) const
    {
        return __shfl_down(var, delta, int(N), l);
    }
    template <class T> T shfl_up(T var, unsigned delta, std::source_location l = std::source_location::current()) const
    {
        return __shfl_up(var, delta, int(N), l);
    }
    template <class T> T shfl_xor(T var, int mask, std::source_location l = std::source_location::current()) const
    {
        return __shfl_xor(var, mask, int(N), l);
    }
    /// Bit r set: the tile's thread of rank r voted true.
    unsigned long long ballot(int predicate, std::source_location l = std::source_location::current()) const
    {
        const unsigned base = __lane_id() & ~(N - 1);
        return (__ballot(predicate, l) >> base) & detail::low_bits(N);
    }
    int any(int predicate, std::source_location l = std::source_location::current()) const
    {
        return ballot(predicate, l) != 0;
    }
    int all(int predicate, std::source_location l = std::source_location::current()) const
    {
        return ballot(!predicate, l) == 0;
    }
};

template <unsigned N, class Parent> inline thread_block_tile<N> tiled_partition(const Parent&)
{
    return thread_block_tile<N>();
}

/// The lanes of the caller's wavefront that reach this call together (CUDA's and HIP's
/// coalesced_threads()), ranked in lane order.
class coalesced_group : public thread_group {
public:
    explicit coalesced_group(unsigned long long lanes)
        : thread_group(detail::kind::coalesced, unsigned(__builtin_popcountll(lanes)),
                       unsigned(__builtin_popcountll(lanes & detail::low_bits(__lane_id())))),
          lanes_(lanes)
    {
    }
    template <class T> T shfl(T var, unsigned src_rank, std::source_location l = std::source_location::current()) const
    {
        return __shfl(var, lane_of(src_rank % size_), warpSize, l);
    }
    template <class T>
    T shfl_down(T var, unsigned delta, std::source_location l = std::source_location::current()) const
    {
        const unsigned long long to = rank_ + delta;
        return __shfl(var, to < size_ ? lane_of(unsigned(to)) : int(__lane_id()), warpSize, l);
    }
    template <class T> T shfl_up(T var, unsigned delta, std::source_location l = std::source_location::current()) const
    {
        return __shfl(var, delta <= rank_ ? lane_of(unsigned(rank_ - delta)) : int(__lane_id()), warpSize, l);
    }
    /// Bit r set: the group's thread of rank r voted true.
    unsigned long long ballot(int predicate, std::source_location l = std::source_location::current()) const
    {
        const unsigned long long votes = __ballot(predicate, l) & lanes_;
        unsigned long long packed = 0;
        unsigned r = 0;
        for (unsigned lane = 0; lane < 64; ++lane)
            if (lanes_ >> lane & 1) packed |= (votes >> lane & 1) << r++;
        return packed;
    }
    int any(int predicate, std::source_location l = std::source_location::current()) const
    {
        return ballot(predicate, l) != 0;
    }
    int all(int predicate, std::source_location l = std::source_location::current()) const
    {
        return ballot(!predicate, l) == 0;
    }

private:
    int lane_of(unsigned rank) const
    {
        unsigned long long m = lanes_;
        for (unsigned i = 0; i < rank; ++i) m &= m - 1;
        return __builtin_ctzll(m);
    }
    unsigned long long lanes_;
};
inline coalesced_group coalesced_threads(std::source_location l = std::source_location::current())
{
    return coalesced_group(__activemask(l));
}

template <class Group> inline void sync(const Group& g, std::source_location l = std::source_location::current())
{
    g.sync(l);
}

// The operations of reduce (hip/cooperative_groups/hip_reduce.h) and the scans
// (hip/cooperative_groups/hip_scan.h), as HIP declares them here: less and greater keep the smaller
// and the greater value.
template <class T> struct plus {
    T operator()(const T& a, const T& b) const { return a + b; }
};
template <class T> struct less {
    T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};
template <class T> struct greater {
    T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};
template <class T> struct bit_and {
    T operator()(const T& a, const T& b) const { return a & b; }
};
template <class T> struct bit_or {
    T operator()(const T& a, const T& b) const { return a | b; }
};
template <class T> struct bit_xor {
    T operator()(const T& a, const T& b) const { return a ^ b; }
};

} // namespace cooperative_groups
