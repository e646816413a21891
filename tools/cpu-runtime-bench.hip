// cpu-runtime-bench: what the cpu platform's runtime costs per lane (issue 16).
//
//   build-b/bin/wavebench-hipcc -O2 tools/cpu-runtime-bench.hip -o /tmp/crb
//   /tmp/crb              # runs itself in 5 processes, prints medians and the spread
//   /tmp/crb --child      # one process: one line per measure
//   /tmp/crb --processes N --runs R
//
// Every cost is core time per lane: wall_ns * threads / lanes, threads being
// hipDeviceProp_t.multiProcessorCount (the runtime's workers). Per measure, the median of R timed
// launches after one warm-up launch. Measures:
//   map        a plain map over 2^22 ints (block 256): ns per lane
//   reduce B   a block tree reduction in shared memory over 2^22 ints, block B, log2(B)+1
//              barriers per lane: raw ns per lane, and net ns per lane per barrier
//              ((raw - map) / barriers)
//   shuffle    a wavefront shuffle reduction (__shfl_down, 6 steps at width 64) over 2^22 ints:
//              raw ns per lane, and net ns per lane per shuffle ((raw - map) / 6)
//   cpu_*      the same from the process's CPU time (getrusage) instead of wall time * threads:
//              what the lanes cost the cores even when another process takes some of them
#include <hip/hip_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        hipError_t e_ = (x);                                                                       \
        if (e_ != hipSuccess) {                                                                    \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, hipGetErrorString(e_)); \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

constexpr unsigned n = 1u << 22;

__global__ void map_kernel(const int* in, int* out)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * 3 + 1;
}

__global__ void reduce_kernel(const int* in, int* out)
{
    extern __shared__ int s[];
    const unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = in[i];
    __syncthreads();
    for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void shuffle_kernel(const int* in, int* out)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    for (int k = 32; k > 0; k >>= 1) v += __shfl_down(v, k, 64);
    if (i % 64 == 0) out[i / 64] = v;
}

static double now_ns()
{
    return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

static double cpu_ns()
{
    rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e9 + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e3;
}

/// The median wall time of `runs` launches after a warm-up; `cpu` gets the median process CPU time
/// (user + system, every thread) of the same launches: the cores' time even where another process
/// takes some of the wall time (the workers sleep between launches).
template <class F> static double median_ns(int runs, double& cpu, F&& launch)
{
    launch();
    CHECK(hipDeviceSynchronize());
    std::vector<double> t, c;
    for (int r = 0; r < runs; ++r) {
        const double c0 = cpu_ns(), t0 = now_ns();
        launch();
        CHECK(hipGetLastError());
        CHECK(hipDeviceSynchronize());
        t.push_back(now_ns() - t0);
        c.push_back(cpu_ns() - c0);
    }
    std::sort(t.begin(), t.end());
    std::sort(c.begin(), c.end());
    cpu = c[c.size() / 2];
    return t[t.size() / 2];
}

static int child(int runs)
{
    hipDeviceProp_t p;
    CHECK(hipGetDeviceProperties(&p, 0));
    const double threads = p.multiProcessorCount;
    if (p.warpSize != 64) {
        std::fprintf(stderr, "needs 64-lane wavefronts\n");
        return 1;
    }
    std::vector<int> h(n);
    long long total = 0;
    for (unsigned i = 0; i < n; ++i) total += h[i] = int(i % 7) - 3;
    int *in, *out;
    CHECK(hipMalloc(&in, n * sizeof(int)));
    CHECK(hipMalloc(&out, n * sizeof(int)));
    CHECK(hipMemcpy(in, h.data(), n * sizeof(int), hipMemcpyHostToDevice));
    std::vector<int> o(n);
    auto per_lane = [&](double wall) { return wall * threads / n; };

    double cpu;
    const double map = per_lane(median_ns(runs, cpu, [&] { hipLaunchKernelGGL(map_kernel, dim3(n / 256), dim3(256), 0, 0, in, out); }));
    CHECK(hipMemcpy(o.data(), out, n * sizeof(int), hipMemcpyDeviceToHost));
    for (unsigned i = 0; i < n; ++i)
        if (o[i] != h[i] * 3 + 1) {
            std::fprintf(stderr, "map: wrong result at %u\n", i);
            return 1;
        }
    const double map_cpu = cpu / n;
    std::printf("threads %g\n", threads);
    std::printf("map %.3f\n", map);

    for (unsigned b = 64; b <= 1024; b *= 2) {
        const double raw = per_lane(median_ns(runs, cpu, [&] {
            hipLaunchKernelGGL(reduce_kernel, dim3(n / b), dim3(b), b * sizeof(int), 0, in, out);
        }));
        CHECK(hipMemcpy(o.data(), out, n / b * sizeof(int), hipMemcpyDeviceToHost));
        long long sum = 0;
        for (unsigned k = 0; k < n / b; ++k) sum += o[k];
        if (sum != total) {
            std::fprintf(stderr, "reduce %u: wrong sum %lld, expected %lld\n", b, sum, total);
            return 1;
        }
        const int barriers = std::__lg(b) + 1;
        std::printf("reduce%u_raw %.3f\n", b, raw);
        std::printf("reduce%u_per_barrier %.3f\n", b, (raw - map) / barriers);
        std::printf("cpu_reduce%u_per_barrier %.3f\n", b, (cpu / n - map_cpu) / barriers);
    }

    const double raw = per_lane(median_ns(runs, cpu, [&] { hipLaunchKernelGGL(shuffle_kernel, dim3(n / 256), dim3(256), 0, 0, in, out); }));
    CHECK(hipMemcpy(o.data(), out, n / 64 * sizeof(int), hipMemcpyDeviceToHost));
    long long sum = 0;
    for (unsigned k = 0; k < n / 64; ++k) sum += o[k];
    if (sum != total) {
        std::fprintf(stderr, "shuffle: wrong sum %lld, expected %lld\n", sum, total);
        return 1;
    }
    std::printf("shuffle_raw %.3f\n", raw);
    std::printf("shuffle_per_shuffle %.3f\n", (raw - map) / 6);
    std::printf("cpu_map %.3f\n", map_cpu);
    std::printf("cpu_shuffle_per_shuffle %.3f\n", (cpu / n - map_cpu) / 6);
    CHECK(hipFree(in));
    CHECK(hipFree(out));
    return 0;
}

int main(int argc, char** argv)
{
    int processes = 5, runs = 5;
    bool is_child = false;
    for (int a = 1; a < argc; ++a) {
        if (!std::strcmp(argv[a], "--child")) is_child = true;
        else if (!std::strcmp(argv[a], "--processes") && a + 1 < argc) processes = std::atoi(argv[++a]);
        else if (!std::strcmp(argv[a], "--runs") && a + 1 < argc) runs = std::atoi(argv[++a]);
        else {
            std::fprintf(stderr, "usage: %s [--child] [--processes N] [--runs R]\n", argv[0]);
            return 2;
        }
    }
    if (is_child) return child(std::max(1, runs));

    std::vector<std::string> order;
    std::map<std::string, std::vector<double>> values;
    for (int pr = 0; pr < processes; ++pr) {
        // A fresh process of this program, from an argument vector (no shell), its output on a pipe.
        const std::string runs_text = std::to_string(runs);
        char* child_argv[] = {argv[0], const_cast<char*>("--child"), const_cast<char*>("--runs"),
                              const_cast<char*>(runs_text.c_str()), nullptr};
        int out[2];
        if (pipe(out) != 0) return 1;
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, out[1], 1);
        posix_spawn_file_actions_addclose(&fa, out[0]);
        pid_t pid;
        const int spawned = posix_spawn(&pid, "/proc/self/exe", &fa, nullptr, child_argv, environ);
        posix_spawn_file_actions_destroy(&fa);
        close(out[1]);
        if (spawned != 0) return 1;
        FILE* f = fdopen(out[0], "r");
        char name[64];
        double v;
        while (f && std::fscanf(f, "%63s %lf", name, &v) == 2) {
            if (!values.count(name)) order.push_back(name);
            values[name].push_back(v);
        }
        if (f) std::fclose(f);
        int status = 0;
        if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            std::fprintf(stderr, "process %d failed\n", pr);
            return 1;
        }
        std::fprintf(stderr, ".");
    }
    std::fprintf(stderr, "\n");
    std::printf("core ns per lane (wall * threads / lanes); per barrier and per shuffle: (raw - map) / count\n");
    std::printf("%-22s %9s %9s %9s %7s   %s\n", "measure", "median", "min", "max", "spread", "per process");
    for (const std::string& k : order) {
        std::vector<double> v = values[k], s = v;
        std::sort(s.begin(), s.end());
        const double med = s[s.size() / 2], spread = s.front() > 0 ? s.back() / s.front() : 0;
        std::printf("%-22s %9.2f %9.2f %9.2f %6.2fx  ", k.c_str(), med, s.front(), s.back(), spread);
        for (double x : v) std::printf(" %.2f", x);
        std::printf("\n");
    }
    return 0;
}
