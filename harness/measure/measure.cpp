// Measuring one configuration (measure/measure.h).
#include "harness/measure/measure.h"

#include "core/compare.h"
#include "harness/measure/executor.h"
#include "harness/measure/stopping.h"
#include "harness/platform/platform_options.h"
#include "reference/reference.h"

#include <chrono>
#include <cstdio>
#include <cstring>

namespace wb {

namespace {

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

/// An out-of-memory error with the sizes that explain it: the device's memory, and what this
/// configuration's inputs and outputs take of it.
std::string with_memory_sizes(std::string message, const platform& pf, const group_inputs& g)
{
    if (message.find("OutOfMemory") == std::string::npos && message.find("out of memory") == std::string::npos)
        return message;
    size_t bytes = 0;
    for (const auto& set : g.input_sets)
        for (const auto& b : set) bytes += b.bytes();
    for (const auto& b : g.outputs) bytes += b.bytes();
    char sizes[160];
    std::snprintf(sizes, sizeof sizes,
                  " (the device has %.2f GiB; the inputs and outputs of this configuration take %.1f MiB of it)",
                  double(pf.device().total_memory) / double(1 << 30), double(bytes) / double(1 << 20));
    return message + sizes;
}

const char* poison_note(int byte) { return byte == 0xA5 ? "0xa5 poison" : "0x5a poison"; }

/// On the cpu platform with a wavefront's lanes reordered (--lane-order): what a failure can mean.
std::string lane_order_note(const platform& pf)
{
    if (pf.kind() != platform_kind::cpu) return "";
    const std::string order = cpu_lane_order();
    if (order == "forward") return "";
    return "; lanes ran in " + order +
           " order between synchronization points (--lane-order): if the output is "
           "right in forward order, the kernel has a race between the lanes of a wavefront (warp-synchronous code "
           "that assumes lock-step needs __syncwarp, shuffles or barriers)";
}

/// The arguments the plugin's functions get (wb_args), and the storage they point into.
struct plugin_args {
    plugin_args(const config& c, group_inputs& g, void* stream) : g(g), in(g.data.front().inputs.size())
    {
        // The parameters as the plugin sees them: family parameters, then tunables.
        for (const auto* m : {&c.family_params, &c.tunables})
            for (const auto& [k, v] : *m) {
                wb_param p{k.c_str(), WB_INT, 0, 0, nullptr};
                if (auto i = std::get_if<int64_t>(&v))
                    p.i = *i;
                else if (auto f = std::get_if<double>(&v))
                    p = {k.c_str(), WB_REAL, 0, *f, nullptr};
                else
                    p = {k.c_str(), WB_STRING, 0, 0, std::get<std::string>(v).c_str()};
                params.push_back(p);
            }
        for (auto& b : g.outputs) out.push_back(b.get());
        for (auto& b : g.actual) host_out.push_back(b.bytes.data());
        args.size = sizeof(wb_args);
        args.stream = stream;
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
        use_inputs(0);
    }
    plugin_args(const plugin_args&) = delete;
    plugin_args& operator=(const plugin_args&) = delete;

    /// Points the plugin at input copy `set`.
    void use_inputs(size_t set)
    {
        for (size_t i = 0; i < in.size(); ++i) in[i] = g.input_sets[set][i].get();
    }

    group_inputs& g;
    std::vector<wb_param> params;
    std::vector<const void*> in;
    std::vector<void*> out, host_out;
    char message[2048] = "", note[512] = "";
    wb_args args{};
};

} // namespace

result result_for(const config& c)
{
    result r;
    r.family = c.plug->fam->name;
    r.variant = c.plug->variant;
    r.family_params = c.family_params;
    r.tunables = c.tunables;
    return r;
}

namespace {

using clock = std::chrono::steady_clock;

double ms_since(clock::time_point t0) { return std::chrono::duration<double, std::milli>(clock::now() - t0).count(); }

/// Adds the milliseconds since `t0` to `ms`, and restarts `t0`.
void lap(double& ms, clock::time_point& t0)
{
    const auto now = clock::now();
    ms += std::chrono::duration<double, std::milli>(now - t0).count();
    t0 = now;
}

} // namespace

result local_executor::measure(const config& c, const run_settings& s)
{
    const bool fresh = group_ != c.group || !inputs_;
    if (fresh) {
        enter(stage::inputs);
        inputs_.reset(); // its device memory first
        inputs_ = std::make_unique<group_inputs>(platform_, *c.plug->fam, c.family_params, s.seed);
        group_ = c.group;
    }
    result r = wb::measure(platform_, c, *inputs_, s);
    if (fresh) { // the group's inputs are counted once, by the configuration that made them
        r.wall.inputs = inputs_->inputs_ms;
        r.wall.reference = inputs_->reference_ms;
        r.wall.upload = inputs_->upload_ms;
    }
    enter(stage::none);
    return r;
}

namespace {

/// One configuration measured: the plugin prepared, run until the stopping criterion has enough,
/// each run from a poisoned output and the checked ones compared with the reference, released.
/// What goes wrong in the plugin is thrown, and becomes the result's status in measure().
class measurement {
public:
    measurement(const std::shared_ptr<platform>& pf, const config& c, group_inputs& g, const run_settings& settings,
                result& r)
        : pf_(pf), c_(c), fam_(*c.plug->fam), d_(*c.plug->desc), g_(g), settings_(settings), r_(r), stream_(pf),
          a_(c, g, stream_.get())
    {
    }

    void prepare();
    /// Runs until the criterion has enough, or a run fails verification.
    void repeat(const stopping_criterion& enough);
    /// The plugin's release, when its prepare was called.
    void release()
    {
        enter(stage::release);
        const auto t0 = clock::now();
        if (prepared_ && d_.release) d_.release(&a_.args);
        r_.wall.release = ms_since(t0);
    }

    std::vector<double> times, walls; // each measured run's kernel and wall milliseconds

private:
    /// Untimed set-up counts until its device work is done.
    void settle(const char* what)
    {
        stream_.sync();
        platform::check(pf_->api().stream_sync(nullptr), what);
    }
    /// The plugin's own layout of input set `set`, untimed, when it has one and another set was bound.
    void bind(size_t set);
    /// One run from outputs poisoned with `poison`: its kernel and wall milliseconds.
    std::pair<double, double> run_once(int poison);
    /// Compares run `run`'s outputs (on the host) with the reference; false (and the result
    /// failed) when wrong.
    bool verify(int run, int poison, const group_inputs::dataset& data);

    const std::shared_ptr<platform>& pf_;
    const config& c_;
    const family& fam_;
    const wb_plugin& d_;
    group_inputs& g_;
    const run_settings& settings_;
    result& r_;
    timed_stream stream_;
    plugin_args a_;
    bool prepared_ = false;
    size_t bound_ = size_t(-1); // the input set the plugin last bound
};

void measurement::prepare()
{
    prepared_ = true; // from here on, release: a failed or declined prepare may hold half its state
    enter(stage::prepare);
    if (d_.prepare) {
        const auto t0 = clock::now();
        const int32_t st = d_.prepare(&a_.args);
        if (st == WB_OK) settle("waiting for the plugin's prepare");
        r_.prepare_ms = ms_since(t0);
        r_.wall.prepare = r_.prepare_ms;
        if (st == WB_SKIP) {
            r_.st = status::skipped;
            r_.message = a_.message[0] ? utf8(a_.message) : "the plugin declined this configuration";
        } else if (st != WB_OK) {
            throw std::runtime_error("prepare failed: " + utf8(a_.message));
        }
    }
    r_.note = utf8(a_.note);
    const auto t0 = clock::now();
    r_.kernels = kernels_of(*pf_, c_, a_.args);
    r_.wall.kernels = ms_since(t0);
    if (r_.st != status::skipped) r_.st = status::verified;
}

void measurement::bind(size_t set)
{
    if (!d_.bind || bound_ == set) return;
    enter(stage::bind);
    const auto t0 = clock::now();
    if (d_.bind(&a_.args) != WB_OK) throw std::runtime_error("bind failed: " + utf8(a_.message));
    settle("waiting for the plugin's bind");
    if (bound_ == size_t(-1)) r_.prepare_ms += ms_since(t0);
    r_.wall.prepare += ms_since(t0);
    bound_ = set;
}

std::pair<double, double> measurement::run_once(int poison)
{
    enter(stage::run);
    const auto poisoning = clock::now();
    for (size_t i = 0; i < a_.out.size(); ++i) {
        platform::check(pf_->api().fill(a_.out[i], poison, g_.actual[i].bytes.size(), stream_.get()),
                        "poisoning the outputs");
        if (d_.finish) std::memset(a_.host_out[i], poison, g_.actual[i].bytes.size()); // else the copy overwrites all
    }
    stream_.sync();
    r_.wall.poison += ms_since(poisoning);

    const auto t0 = clock::now();
    stream_.start();
    const int32_t st = d_.run(&a_.args);
    stream_.stop();
    stream_.sync();
    if (st != WB_OK) throw std::runtime_error("run failed: " + utf8(a_.message));
    enter(stage::finish);
    if (d_.finish && d_.finish(&a_.args) != WB_OK) throw std::runtime_error("finish failed: " + utf8(a_.message));
    enter(stage::verify);
    const double wall = ms_since(t0);
    return {stream_.elapsed_ms(), wall};
}

bool measurement::verify(int run, int poison, const group_inputs::dataset& data)
{
    if (std::string overrun = g_.check_guards(); !overrun.empty()) {
        r_.st = status::failed;
        r_.message = "run " + std::to_string(run + 1) + ": " + overrun;
        return false;
    }
    for (size_t i = 0; i < a_.out.size(); ++i) {
        const comparison cmp = compare(data.expected[i], g_.actual[i], fam_.tolerance);
        if (!cmp.ok) {
            r_.st = status::failed;
            r_.message = "run " + std::to_string(run + 1) + (run < settings_.warmup ? " (warm-up, " : " (") +
                         poison_note(poison) + ", input seed " + std::to_string(data.seed) + "), output '" +
                         fam_.outputs(c_.family_params)[i].name + "': " + cmp.detail + lane_order_note(*pf_);
            return false;
        }
    }
    return true;
}

void measurement::repeat(const stopping_criterion& criterion)
{
    const auto started = clock::now();
    double measured_ms = 0;
    auto enough = [&](int run) { return criterion.enough({run - settings_.warmup, measured_ms, ms_since(started)}); };
    for (int run = 0; r_.st == status::verified && !enough(run); ++run) {
        // Alternate two poisons: an element left unwritten fails at least one of two runs.
        const int poison = run % 2 ? 0x5A : 0xA5;
        const size_t set = size_t(run) % g_.input_sets.size();
        a_.use_inputs(set);
        bind(set);
        // Every run starts from a poisoned output (the same conditions for every timed run); the
        // first runs are all compared with the reference, then every verify_every-th.
        const bool check = run < settings_.warmup + 2 * int(g_.input_sets.size()) || run % settings_.verify_every == 0;
        const auto [kernel, wall] = run_once(poison);
        (run < settings_.warmup ? r_.wall.warmup : r_.wall.timed) += wall;
        ++r_.runs;
        auto t0 = clock::now();
        if (check && !d_.finish)
            for (size_t i = 0; i < a_.out.size(); ++i)
                pf_->copy_to_host(a_.host_out[i], a_.out[i], g_.actual[i].bytes.size());
        r_.runs_checked += check;
        const bool wrong = check && !verify(run, poison, g_.of_set(set));
        lap(r_.wall.verify, t0);
        if (wrong) break;
        if (run >= settings_.warmup) {
            times.push_back(kernel);
            walls.push_back(wall);
            measured_ms += kernel;
        }
    }
}

/// What the result says of the group's inputs before anything runs; false (the result says why)
/// when nothing will: the configuration is skipped or its inputs could not be made.
bool describe_inputs(const config& c, const group_inputs& g, result& r)
{
    for (const auto& d : g.data) r.seeds.push_back(d.seed);
    r.input_sets = int(g.input_sets.size());
    for (const auto& set : g.input_sets)
        for (const auto& b : set) r.working_set_bytes += int64_t(b.bytes());
    for (const auto& b : g.actual) r.working_set_bytes += int64_t(b.bytes.size());
    if (!c.skip.empty()) {
        r.st = status::skipped;
        r.message = c.skip;
        return false;
    }
    if (!g.setup_error.empty()) {
        r.message = g.setup_error;
        r.where = stage::inputs;
        return false;
    }
    return true;
}

/// After the plugin is released: inputs it wrote into fail the result (and do not spoil the next
/// one's run).
void check_inputs_intact(group_inputs& g, result& r)
{
    enter(stage::verify);
    try {
        if (std::string damage = g.check_intact(); !damage.empty() && r.st != status::error) {
            r.st = status::failed;
            r.message = damage;
        }
    } catch (const std::exception& e) { // after an error, most likely the same one again: keep the first
        if (r.st != status::error) {
            r.st = status::error;
            r.message = std::string("checking the inputs afterwards failed: ") + e.what();
            r.where = stage::verify;
        }
    }
    if (r.st == status::failed) r.where = stage::verify;
}

/// The times' summaries, and for a verified result its metric, noise and model figures.
void summarize_result(const platform& pf, const config& c, const group_inputs& g, std::vector<double> times,
                      std::vector<double> walls, result& r)
{
    const family& fam = *c.plug->fam;
    r.time_ms = summarize(times);
    r.wall_ms = summarize(walls);
    r.samples_ms = std::move(times);
    r.wall_samples_ms = std::move(walls);
    if (r.st != status::verified || r.time_ms.median <= 0) return;
    r.metric_value = fam.metric.work(c.family_params) / (r.time_ms.median * 1e-3) / fam.metric.scale;
    r.noisy = r.time_ms.rel_stddev > 0.02;
    param_map all = c.family_params;
    all.insert(c.tunables.begin(), c.tunables.end());
    if (const auto model = reference_of(fam).model)
        r.model_speedup = model(all, r.variant, g.data.front().inputs, unsigned(pf.device().warp_size));
    if (const auto model_issue = reference_of(fam).model_issue)
        r.model_issue_speedup =
            model_issue(all, r.variant, g.data.front().inputs, unsigned(pf.device().warp_size), pf.device().arch);
}

} // namespace

result measure(const std::shared_ptr<platform>& pf, const config& c, group_inputs& g, const run_settings& settings)
{
    result r = result_for(c);
    if (!describe_inputs(c, g, r)) return r;
    measurement m(pf, c, g, settings, r);
    try {
        m.prepare();
        m.repeat(*stopping_criterion_for(settings));
    } catch (const std::exception& e) {
        r.st = status::error;
        r.message = with_memory_sizes(e.what(), *pf, g);
        r.where = current_stage();
    }
    m.release();
    auto t0 = clock::now();
    check_inputs_intact(g, r);
    lap(r.wall.inputs_check, t0);
    summarize_result(*pf, c, g, std::move(m.times), std::move(m.walls), r);
    lap(r.wall.summary, t0);
    return r;
}

} // namespace wb
