#include "harness/runner.h"

#include "core/compare.h"
#include "core/occupancy.h"
#include "core/random.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fnmatch.h>
#include <set>
#include <unistd.h>

namespace wb {

const char* to_string(status s)
{
    switch (s) {
    case status::verified: return "verified";
    case status::failed: return "failed";
    case status::error: return "error";
    case status::skipped: return "skipped";
    }
    return "?";
}

std::string params_text(const param_map& family_params, const param_map& tunables)
{
    std::string s;
    for (const auto* m : {&family_params, &tunables})
        for (const auto& [k, v] : *m) s += (s.empty() ? "" : " ") + k + "=" + to_string(v);
    return s;
}

namespace {

/// Calls f(values) for every combination of the axes' values (the cartesian product).
template <class F> void for_each_combination(const std::vector<const axis*>& axes, F&& f)
{
    std::vector<size_t> idx(axes.size(), 0);
    for (;;) {
        param_map m;
        for (size_t i = 0; i < axes.size(); ++i) m[axes[i]->name] = axes[i]->values[idx[i]].v;
        f(m);
        size_t k = 0;
        for (; k < axes.size(); ++k) {
            if (++idx[k] < axes[k]->values.size()) break;
            idx[k] = 0;
        }
        if (k == axes.size()) return;
    }
}

std::string names(const std::vector<const plugin*>& ps)
{
    std::string s;
    for (const auto* p : ps) s += (s.empty() ? "" : ", ") + std::string(p->variant());
    return s.empty() ? "none" : s;
}

occupancy describe_occupancy(const std::string& platform, const wb_device_info& d, const wb_kernel_resources& r,
                             int block, int64_t dynamic_lds)
{
    occupancy o;
    o.blocks = r.active_blocks;
    if (platform == "cpu") {
        o.value = r.active_blocks;
        o.max = 1;
        o.unit = "blocks per worker";
        o.limiter = r.active_blocks ? "one block per worker thread" : "block size";
        return o;
    }
    const int warps_per_block = (block + d.warp_size - 1) / d.warp_size;
    o.value = double(r.active_blocks * warps_per_block);
    o.max = double(d.max_threads_per_multiprocessor / d.warp_size);
    o.unit = platform == "nvidia" ? "warps per SM" : "waves per CU";
    if (platform == "amd") {
        const amd_target* t = find_amd_target(d.arch);
        if (!t) return o; // a target the table lacks: waves per CU, as the runtime counts them
        // The runtime counts work-groups per CU; the table says how many SIMDs share them.
        o.value = double(r.active_blocks * warps_per_block) / t->simds_per_cu;
        o.max = t->max_waves;
        o.unit = "waves per SIMD";
        const auto e = amd_occupancy(*t, {r.registers, 0, 0, std::max<int64_t>(r.static_shared_bytes, 0) + dynamic_lds,
                                          block, d.warp_size});
        o.limiter = e.waves == int(o.value) ? e.limiter
                                            : "unknown (the model says " + std::to_string(e.waves) + " waves per SIMD)";
        return o;
    }
    if (platform == "nvidia" && d.max_blocks_per_multiprocessor > 0) {
        nvidia_sm sm;
        sm.max_threads = d.max_threads_per_multiprocessor;
        sm.max_blocks = d.max_blocks_per_multiprocessor;
        sm.registers = d.regs_per_multiprocessor;
        sm.shared_bytes = d.shared_per_multiprocessor;
        sm.reserved_shared = d.reserved_shared_per_block;
        sm.warp_size = d.warp_size;
        const auto e = nvidia_occupancy(sm, {block, r.registers, std::max<int64_t>(r.static_shared_bytes, 0) + dynamic_lds});
        // The runtime's figure is the truth; the model only names what limits it.
        o.limiter = e.blocks == r.active_blocks
                        ? e.limiter
                        : "unknown (the model says " + std::to_string(e.blocks) + " blocks, the runtime " +
                              std::to_string(r.active_blocks) + ")";
    }
    return o;
}

/// Text from a plugin, with every byte that is not part of valid UTF-8 replaced by U+FFFD.
std::string utf8(const char* text)
{
    std::string out;
    const auto* p = reinterpret_cast<const unsigned char*>(text);
    while (*p) {
        const int len = *p < 0x80 ? 1 : (*p >> 5) == 6 ? 2 : (*p >> 4) == 14 ? 3 : (*p >> 3) == 30 ? 4 : 0;
        bool ok = len > 0;
        for (int i = 1; ok && i < len; ++i) ok = (p[i] >> 6) == 2;
        if (ok) {
            out.append(reinterpret_cast<const char*>(p), size_t(len));
            p += len;
        } else {
            out += "\xef\xbf\xbd";
            ++p;
        }
    }
    return out;
}

double host_memory_bytes() { return double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGESIZE)); }

const char* poison_note(int byte) { return byte == 0xA5 ? "0xa5 poison" : "0x5a poison"; }

} // namespace

std::vector<config> runner::plan(const suite& s, const std::string& filter) const
{
    std::vector<config> out;
    size_t group = 0;
    for (size_t bi = 0; bi < s.benchmarks.size(); ++bi) {
        const benchmark_spec& b = s.benchmarks[bi];
        const family& fam = *b.fam;

        // The variants: every glob must match a loaded plugin.
        std::vector<const plugin*> chosen;
        for (size_t i = 0; i < b.variants.size(); ++i) {
            auto m = plugins_.match(fam.name, b.variants[i]);
            if (m.empty())
                throw suite_error(b.variant_pos[i], "no " + plugins_.platform() + " plugin of family " + fam.name +
                                                        " matches '" + b.variants[i] + "' (loaded: " +
                                                        names(plugins_.of_family(fam.name)) + ")");
            for (const auto* p : m)
                if (std::find(chosen.begin(), chosen.end(), p) == chosen.end()) chosen.push_back(p);
        }
        // The baseline and the library first, so that every later result can show its speedups at once.
        auto rank = [&](const plugin* p) { return p->variant() == fam.baseline ? 0 : p->variant() == fam.library ? 1 : 2; };
        std::stable_sort(chosen.begin(), chosen.end(), [&](const plugin* x, const plugin* y) { return rank(x) < rank(y); });

        // Tunable axes: each must be a tunable of a chosen variant, and each value allowed by one.
        for (const axis& a : b.tunable_axes) {
            std::vector<const plugin*> having;
            for (const auto* p : chosen)
                if (p->tunable(a.name)) having.push_back(p);
            if (having.empty()) {
                std::set<std::string> known;
                for (const auto* p : chosen)
                    for (uint32_t i = 0; i < p->desc->n_tunables; ++i) known.insert(p->desc->tunables[i].name);
                std::string list;
                for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
                std::string params;
                for (const auto& p : fam.params) params += (params.empty() ? "" : ", ") + p.name;
                throw suite_error(a.pos, "'" + a.name + "' is neither a parameter of family " + fam.name + " (" + params +
                                             ") nor a tunable of the selected variants (" +
                                             (list.empty() ? "none" : list) + ")");
            }
            for (const axis_value& v : a.values) {
                const int64_t* i = std::get_if<int64_t>(&v.v);
                if (!i) throw suite_error(v.pos, "tunable '" + a.name + "' takes integers");
                std::string why;
                bool anyone = false;
                for (const auto* p : having) {
                    const std::string w = check_tunable(*p->tunable(a.name), *i);
                    anyone |= w.empty();
                    if (!w.empty()) why += "; " + p->name() + ": " + w;
                }
                if (!anyone)
                    throw suite_error(v.pos, a.name + " = " + std::to_string(*i) + " is allowed by no selected variant" + why);
            }
        }

        std::vector<const axis*> fam_axes;
        for (const auto& a : b.family_axes) fam_axes.push_back(&a);
        for_each_combination(fam_axes, [&](const param_map& fp) {
            if (std::string why = fam.check(fp); !why.empty())
                throw suite_error(b.pos, "impossible parameters (" + params_text(fp, {}) + "): " + why);
            for (const plugin* p : chosen) {
                std::vector<const axis*> tun_axes;
                for (const auto& a : b.tunable_axes)
                    if (p->tunable(a.name)) tun_axes.push_back(&a);
                for_each_combination(tun_axes, [&](const param_map& given) {
                    config c{bi, group, p, fp, {}, ""};
                    for (uint32_t i = 0; i < p->desc->n_tunables; ++i) {
                        const wb_tunable& t = p->desc->tunables[i];
                        auto it = given.find(t.name);
                        const int64_t v = it != given.end() ? std::get<int64_t>(it->second) : t.default_value;
                        c.tunables[t.name] = v;
                        if (std::string w = check_tunable(t, v); !w.empty() && c.skip.empty())
                            c.skip = std::string(t.name) + " = " + std::to_string(v) + " is not allowed: " + w;
                    }
                    out.push_back(std::move(c));
                });
            }
            ++group;
        });
    }
    if (!filter.empty()) {
        std::erase_if(out, [&](const config& c) { return fnmatch(filter.c_str(), c.plug->name().c_str(), 0) != 0; });
        if (out.empty()) throw std::runtime_error("--filter '" + filter + "' matches no configuration of the suite");
    }
    return out;
}

/// Two datasets with different seeds alternate across the runs (a plugin that replays an earlier
/// answer fails), each uploaded into several input sets so repeated runs do not hit the cache.
struct runner::group_data {
    struct dataset {
        uint64_t seed = 0;
        std::vector<host_buffer> inputs, expected;
    };
    std::vector<dataset> data;
    std::vector<host_buffer> actual;
    std::vector<std::vector<device_buffer>> input_sets; // set s holds data[s % data.size()]
    std::vector<device_buffer> outputs;
    std::string setup_error;

    const dataset& of_set(size_t set) const { return data[set % data.size()]; }
};

std::vector<result> runner::run(const std::vector<config>& configs, const run_settings& settings,
                                 const std::function<void(const result&, const std::vector<result>&)>& done) const
{
    std::vector<result> results;
    for (size_t i = 0; i < configs.size();) {
        std::vector<const config*> group;
        for (size_t j = i; j < configs.size() && configs[j].group == configs[i].group; ++j) group.push_back(&configs[j]);
        run_group(group, settings, results, done);
        i += group.size();
    }
    return results;
}

void runner::upload(group_data& g, size_t set) const
{
    const auto& inputs = g.of_set(set).inputs;
    for (size_t i = 0; i < inputs.size(); ++i)
        platform_->copy_to_device(g.input_sets[set][i].get(), inputs[i].bytes.data(), inputs[i].bytes.size());
}

void runner::run_group(const std::vector<const config*>& group, const run_settings& settings,
                       std::vector<result>& results,
                       const std::function<void(const result&, const std::vector<result>&)>& done) const
{
    const config& first = *group.front();
    const family& fam = *first.plug->fam;
    const param_map& params = first.family_params;
    group_data g;
    try {
        const auto in_shapes = fam.inputs(params), out_shapes = fam.outputs(params);
        size_t in_bytes = 0, out_bytes = 0;
        for (const auto& b : in_shapes) in_bytes += b.count * elem_size(b.type);
        for (const auto& b : out_shapes) out_bytes += b.count * elem_size(b.type);
        const memory_plan plan = plan_memory(in_bytes, out_bytes);

        uint64_t seed = derive_seed(settings.seed, fam.name + " " + params_text(params, {}));
        for (size_t d = 0; d < plan.datasets; ++d, seed = mix64(seed) & ((uint64_t(1) << 53) - 1)) {
            group_data::dataset ds{seed, make_buffers(in_shapes), make_buffers(out_shapes)};
            fam.generate(params, seed, ds.inputs);
            fam.reference(params, ds.inputs, ds.expected);
            g.data.push_back(std::move(ds));
        }
        g.actual = make_buffers(out_shapes);
        for (size_t s = 0; s < plan.sets; ++s) {
            std::vector<device_buffer> set;
            for (const auto& b : g.of_set(s).inputs) set.emplace_back(platform_, std::max<size_t>(b.bytes.size(), 1));
            g.input_sets.push_back(std::move(set));
            upload(g, s);
        }
        for (const auto& b : g.actual) g.outputs.emplace_back(platform_, std::max<size_t>(b.bytes.size(), 1));
    } catch (const std::exception& e) {
        g.setup_error = std::string("preparing the inputs failed: ") + e.what();
    }

    const size_t begin = results.size();
    for (const config* c : group) {
        results.push_back(run_config(*c, g, settings));
        // Speedups against the family's baseline and library at these parameters: the fastest
        // verified configuration of each so far (they run first; the JSON's final values are exact).
        auto fastest = [&](const std::string& variant) -> const result* {
            const result* best = nullptr;
            for (size_t i = begin; i < results.size(); ++i) {
                const result& r = results[i];
                if (r.variant == variant && r.st == status::verified && (!best || r.time_ms.median < best->time_ms.median))
                    best = &r;
            }
            return best;
        };
        const result *base = fastest(fam.baseline), *lib = fam.library.empty() ? nullptr : fastest(fam.library);
        for (size_t i = begin; i < results.size(); ++i) {
            result& r = results[i];
            if (r.st != status::verified || r.time_ms.median <= 0) continue;
            if (base) r.speedup_vs_baseline = base->time_ms.median / r.time_ms.median;
            if (lib) r.speedup_vs_library = lib->time_ms.median / r.time_ms.median;
        }
        done(results.back(), results);
    }
}

std::string runner::check_inputs(group_data& g, const family& fam, const param_map& params) const
{
    std::string damage;
    const auto shapes = fam.inputs(params);
    for (size_t s = 0; s < g.input_sets.size(); ++s) {
        const auto& inputs = g.of_set(s).inputs;
        bool damaged = false;
        for (size_t i = 0; i < inputs.size(); ++i) {
            host_buffer now(inputs[i].type, inputs[i].count());
            platform_->copy_to_host(now.bytes.data(), g.input_sets[s][i].get(), now.bytes.size());
            const comparison c = compare(inputs[i], now, 0);
            if (c.ok) continue;
            damaged = true;
            if (damage.empty())
                damage = "the plugin changed its input '" + shapes[i].name + "' (copy " + std::to_string(s + 1) + " of " +
                         std::to_string(g.input_sets.size()) + "): " + c.detail;
        }
        if (damaged) upload(g, s); // the next configuration gets its inputs intact
    }
    return damage;
}

runner::memory_plan runner::plan_memory(size_t in_bytes, size_t out_bytes) const
{
    // The host holds each dataset's inputs and expected outputs, and the actual outputs; the
    // device one copy of the outputs and `sets` copies of the inputs. On cpu both are one memory.
    const wb_device_info& d = platform_->device();
    const double gib = double(1 << 30), host_budget = 0.8 * host_memory_bytes(), dev_budget = 0.8 * double(d.total_memory);
    const bool shared = platform_->name() == "cpu";
    auto host = [&](size_t datasets) { return double(datasets) * double(in_bytes + out_bytes) + double(out_bytes); };
    auto device = [&](size_t sets, size_t datasets) {
        return double(sets) * double(in_bytes) + double(out_bytes) + (shared ? host(datasets) : 0);
    };
    memory_plan p;
    // Rotate through copies of the inputs when they would fit in the cache (2x its size).
    const size_t cache = size_t(std::max<int64_t>(d.l2_cache_bytes, 0));
    if (in_bytes > 0 && in_bytes < 2 * cache) p.sets = std::min<size_t>(16, (2 * cache + in_bytes - 1) / in_bytes);
    p.sets = std::max<size_t>(p.sets, 2);
    while (p.sets > 1 && (device(p.sets, 2) > dev_budget || host(2) > host_budget)) --p.sets;
    p.datasets = std::min<size_t>(p.sets, 2); // a second dataset only where it fits: else replays go unseen
    char msg[256];
    if (host(p.datasets) > host_budget) {
        std::snprintf(msg, sizeof msg, "needs %.1f GiB of host memory; this machine has %.1f GiB (80%% usable)",
                      host(1) / gib, host_budget / 0.8 / gib);
        throw std::runtime_error(msg);
    }
    if (device(p.sets, p.datasets) > dev_budget) {
        std::snprintf(msg, sizeof msg, "needs %.1f GiB of device memory; the device has %.1f GiB (80%% usable)",
                      device(1, 1) / gib, dev_budget / 0.8 / gib);
        throw std::runtime_error(msg + std::string(": ") + d.name);
    }
    return p;
}

std::vector<kernel_report> runner::kernels_of(const config& c, const wb_args& args) const
{
    std::vector<kernel_report> out;
    const wb_plugin& d = *c.plug->desc;
    for (uint32_t i = 0; i < d.n_kernels; ++i) {
        const wb_kernel& k = d.kernels[i];
        if (k.when_param) { // an instance for another value of a tunable: it does not run here
            const auto it = c.tunables.find(k.when_param);
            if (it == c.tunables.end() || std::get<int64_t>(it->second) != k.when_value) continue;
        }
        kernel_report r;
        r.name = k.name ? k.name : "?";
        r.block_size = k.fixed_block_size;
        if (k.block_size_param)
            if (auto it = c.tunables.find(k.block_size_param); it != c.tunables.end())
                r.block_size = int(std::get<int64_t>(it->second));
        r.dynamic_lds_bytes = int64_t(k.lds_bytes_per_thread) * r.block_size;
        if (d.dynamic_lds)
            if (const int64_t bytes = d.dynamic_lds(&args, i); bytes >= 0) r.dynamic_lds_bytes = bytes;
        if (!platform_->api().kernel_resources(k.fn, r.block_size, uint64_t(r.dynamic_lds_bytes), &r.resources))
            r.occ = describe_occupancy(platform_->name(), platform_->device(), r.resources, r.block_size,
                                       r.dynamic_lds_bytes);
        out.push_back(std::move(r));
    }
    if (amd_static_) attach_amd_static(c, out);
    return out;
}

void runner::attach_amd_static(const config& c, std::vector<kernel_report>& kernels) const
{
    const auto twin = amd_twin(c.plug->path);
    std::string why;
    const std::vector<amd_kernel_figures>* figures = nullptr;
    if (!twin) {
        why = "no amd build of " + c.plug->path.filename().string() + " (the amd platform needs hipcc)";
    } else if (auto it = amd_files_.find(twin->string()); it != amd_files_.end()) {
        figures = &it->second;
    } else {
        try {
            figures = &(amd_files_[twin->string()] = read_amd_kernels(*twin));
        } catch (const std::exception& e) {
            why = e.what();
        }
    }
    for (auto& k : kernels) {
        if (!figures) {
            k.amd_missing = why;
            continue;
        }
        k.amd.emplace();
        for (const auto& f : *figures)
            if (f.name == k.name) k.amd->push_back(judge(f, k.block_size, k.dynamic_lds_bytes, "this configuration"));
    }
}

result runner::run_config(const config& c, group_data& g, const run_settings& settings) const
{
    const family& fam = *c.plug->fam;
    const wb_plugin& d = *c.plug->desc;
    result r;
    r.family = fam.name;
    r.variant = d.variant;
    r.family_params = c.family_params;
    r.tunables = c.tunables;
    for (const auto& d : g.data) r.seeds.push_back(d.seed);
    r.input_sets = int(g.input_sets.size());
    if (!c.skip.empty()) {
        r.st = status::skipped;
        r.message = c.skip;
        return r;
    }
    if (!g.setup_error.empty()) {
        r.message = g.setup_error;
        return r;
    }

    // The parameters as the plugin sees them: family parameters, then tunables.
    std::vector<wb_param> params;
    for (const auto* m : {&c.family_params, &c.tunables})
        for (const auto& [k, v] : *m) {
            wb_param p{k.c_str(), WB_INT, 0, 0, nullptr};
            if (auto i = std::get_if<int64_t>(&v)) p.i = *i;
            else if (auto f = std::get_if<double>(&v)) p = {k.c_str(), WB_REAL, 0, *f, nullptr};
            else p = {k.c_str(), WB_STRING, 0, 0, std::get<std::string>(v).c_str()};
            params.push_back(p);
        }
    std::vector<const void*> in(g.data.front().inputs.size());
    std::vector<void*> out, host_out;
    for (auto& b : g.outputs) out.push_back(b.get());
    for (auto& b : g.actual) host_out.push_back(b.bytes.data());
    char message[2048] = "", note[512] = "";

    timed_stream stream(platform_);
    wb_args args{};
    args.size = sizeof(wb_args);
    args.stream = stream.get();
    args.params = params.data();
    args.n_params = uint32_t(params.size());
    args.in = in.data();
    args.n_in = uint32_t(in.size());
    args.out = out.data();
    args.host_out = host_out.data();
    args.n_out = uint32_t(out.size());
    args.message = message;
    args.message_size = sizeof message;
    args.note = note;
    args.note_size = sizeof note;
    auto use_inputs = [&](size_t set) {
        for (size_t i = 0; i < in.size(); ++i) in[i] = g.input_sets[set][i].get();
    };
    use_inputs(0);

    using clock = std::chrono::steady_clock;
    auto ms_since = [](clock::time_point t0) { return std::chrono::duration<double, std::milli>(clock::now() - t0).count(); };
    bool prepared = false;
    std::vector<double> times, walls;
    auto settle = [&](const char* what) { // untimed set-up counts until its device work is done
        stream.sync();
        platform::check(platform_->api().stream_sync(nullptr), what);
    };
    try {
        prepared = true; // from here on, release: a failed or declined prepare may hold half its state
        if (d.prepare) {
            const auto t0 = clock::now();
            const int32_t st = d.prepare(&args);
            if (st == WB_OK) settle("waiting for the plugin's prepare");
            r.prepare_ms = ms_since(t0);
            if (st == WB_SKIP) {
                r.st = status::skipped;
                r.message = message[0] ? utf8(message) : "the plugin declined this configuration";
            } else if (st != WB_OK) {
                throw std::runtime_error("prepare failed: " + utf8(message));
            }
        }
        r.note = utf8(note);
        r.kernels = kernels_of(c, args);

        if (r.st != status::skipped) r.st = status::verified;
        const auto started = clock::now();
        double measured_ms = 0;
        size_t bound = size_t(-1); // the input set the plugin last bound
        auto enough = [&](int run) {
            const int samples = run - settings.warmup;
            if (samples < settings.repetitions) return false;
            return measured_ms >= settings.min_time_s * 1e3 || samples >= settings.max_samples ||
                   ms_since(started) >= settings.max_time_s * 1e3;
        };
        for (int run = 0; r.st == status::verified && !enough(run); ++run) {
            // Alternate two poisons: an element left unwritten fails at least one of two runs.
            const int poison = run % 2 ? 0x5A : 0xA5;
            const size_t set = size_t(run) % g.input_sets.size();
            const auto& data = g.of_set(set);
            use_inputs(set);
            if (d.bind && bound != set) { // the plugin's own layout of these inputs, untimed
                const auto t0 = clock::now();
                if (d.bind(&args) != WB_OK) throw std::runtime_error("bind failed: " + utf8(message));
                settle("waiting for the plugin's bind");
                if (bound == size_t(-1)) r.prepare_ms += ms_since(t0);
                bound = set;
            }
            // Every run starts from a poisoned output (the same conditions for every timed run); the
            // first runs are all compared with the reference, then every verify_every-th.
            const bool check = run < settings.warmup + 2 * int(g.input_sets.size()) || run % settings.verify_every == 0;
            for (size_t i = 0; i < out.size(); ++i) {
                platform::check(platform_->api().fill(out[i], poison, g.actual[i].bytes.size(), stream.get()),
                                "poisoning the outputs");
                if (d.finish) std::memset(host_out[i], poison, g.actual[i].bytes.size()); // else the copy overwrites all
            }
            stream.sync();

            const auto t0 = clock::now();
            stream.start();
            const int32_t st = d.run(&args);
            stream.stop();
            stream.sync();
            if (st != WB_OK) throw std::runtime_error("run failed: " + utf8(message));
            if (d.finish && d.finish(&args) != WB_OK) throw std::runtime_error("finish failed: " + utf8(message));
            const double wall = ms_since(t0);
            const double kernel = stream.elapsed_ms();

            ++r.runs;
            if (check && !d.finish)
                for (size_t i = 0; i < out.size(); ++i)
                    platform_->copy_to_host(host_out[i], out[i], g.actual[i].bytes.size());
            r.runs_checked += check;
            for (size_t i = 0; check && i < out.size(); ++i) {
                const comparison cmp = compare(data.expected[i], g.actual[i], fam.tolerance);
                if (!cmp.ok) {
                    r.st = status::failed;
                    r.message = "run " + std::to_string(run + 1) + (run < settings.warmup ? " (warm-up, " : " (") +
                                poison_note(poison) + ", input seed " + std::to_string(data.seed) + "), output '" +
                                fam.outputs(c.family_params)[i].name + "': " + cmp.detail;
                    break;
                }
            }
            if (r.st == status::failed) break;
            if (run >= settings.warmup) {
                times.push_back(kernel);
                walls.push_back(wall);
                measured_ms += kernel;
            }
        }
    } catch (const std::exception& e) {
        r.st = status::error;
        r.message = e.what();
    }
    if (prepared && d.release) d.release(&args);
    try { // a plugin that writes into its inputs fails, and does not spoil the next one's run
        if (std::string damage = check_inputs(g, fam, c.family_params); !damage.empty() && r.st != status::error) {
            r.st = status::failed;
            r.message = damage;
        }
    } catch (const std::exception& e) {
        r.st = status::error;
        r.message = std::string("checking the inputs afterwards failed: ") + e.what();
    }

    r.time_ms = summarize(times);
    r.wall_ms = summarize(walls);
    if (r.st == status::verified && r.time_ms.median > 0) {
        r.metric_value = fam.metric.work(c.family_params) / (r.time_ms.median * 1e-3) / fam.metric.scale;
        if (auto it = ceilings_.find(fam.metric.ceiling); it != ceilings_.end() && it->second.value > 0)
            r.fraction_of_ceiling = r.metric_value / it->second.value;
        r.noisy = r.time_ms.rel_stddev > 0.02;
        if (fam.model) {
            param_map all = c.family_params;
            all.insert(c.tunables.begin(), c.tunables.end());
            r.model_speedup = fam.model(all, r.variant, g.data.front().inputs, unsigned(platform_->device().warp_size));
        }
    }
    return r;
}

} // namespace wb
