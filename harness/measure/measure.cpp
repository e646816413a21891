// Measuring one configuration (measure/measure.h).
#include "harness/measure/measure.h"

#include "core/compare.h"
#include "harness/common/files.h"
#include "harness/measure/ab.h"
#include "harness/measure/executor.h"
#include "harness/measure/result_steps.h"
#include "harness/measure/stopping.h"
#include "harness/platform/platform_options.h"
#include "harness/telemetry/record.h"
#include "reference/reference.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <numeric>

namespace wb {

namespace {

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
    result r = c.base_plug ? measure_ab(platform_, c, *inputs_, s) : wb::measure(platform_, c, *inputs_, s);
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
          a_(c, g, stream_.get()), telemetry_(pf->kind(), pf->device(), r.telemetry)
    {
    }

    void prepare();
    /// Runs until the criterion has enough, or a run fails verification; a second call goes on
    /// where the first stopped (A/B runs take turns, measure/ab.cpp).
    void repeat(const stopping_criterion& enough);
    /// --energy: joules per run over a loop of back-to-back runs (telemetry/record.h).
    void energy()
    {
        enter(stage::run);
        measure_energy(
            telemetry_.sensors(),
            [&] {
                if (d_.run(&a_.args) != WB_OK || (d_.finish && d_.finish(&a_.args) != WB_OK))
                    throw std::runtime_error("run failed in the energy loop: " + utf8(a_.message));
                stream_.sync();
            },
            fam_.metric.work(c_.family_params), work_unit(fam_.metric.unit), r_.telemetry);
    }
    /// --counters: one more run, untimed and verified, read by the hardware counters.
    void counters();
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
    /// The outputs copied to the host for verify (where the plugin has no finish that does it).
    void fetch_outputs()
    {
        if (!d_.finish)
            for (size_t i = 0; i < a_.out.size(); ++i)
                pf_->copy_to_host(a_.host_out[i], a_.out[i], g_.actual[i].bytes.size());
    }
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
    telemetry_sampler telemetry_; // a reading after each measured run
    bool prepared_ = false;
    size_t bound_ = size_t(-1); // the input set the plugin last bound
    int run_ = 0;               // the next run (warm-up included)
    double measured_ms_ = 0;    // device time of the measured runs so far
    clock::time_point started_; // when the first run began
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
    if (run_ == 0) started_ = clock::now();
    auto enough = [&](int run) { return criterion.enough({run - settings_.warmup, measured_ms_, ms_since(started_)}); };
    for (int& run = run_; r_.st == status::verified && !enough(run); ++run) {
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
        if (check) fetch_outputs();
        r_.runs_checked += check;
        const bool wrong = check && !verify(run, poison, g_.of_set(set));
        lap(r_.wall.verify, t0);
        if (wrong) break;
        if (run >= settings_.warmup) {
            telemetry_.after_run(); // outside the timed region
            times.push_back(kernel);
            walls.push_back(wall);
            measured_ms_ += kernel;
        }
    }
}

void measurement::counters()
{
    const size_t set = size_t(run_) % g_.input_sets.size();
    a_.use_inputs(set);
    bind(set);
    r_.counters = read_counters(*pf_, [&] { run_once(0xA5); });
    r_.counters->work = fam_.metric.work(c_.family_params), r_.counters->work_unit = work_unit(fam_.metric.unit);
    fetch_outputs();
    if (!verify(run_, 0xA5, g_.of_set(set))) r_.message = "the counters' run: " + r_.message;
    describe_counters(*r_.counters, r_.kernels, pf_->device());
}

} // namespace

struct staged_measurement::state {
    state(const std::shared_ptr<platform>& pf, const config& c, group_inputs& g, const run_settings& s)
        : pf(pf), c(c), g(g), r(result_for(c)), energy(s.energy), counters(s.counters)
    {
        if (describe_inputs(c, g, r)) m = std::make_unique<measurement>(pf, c, g, s, r);
    }
    /// What `step` throws is the result's error.
    template <class F> void guarded(F step)
    {
        try {
            step();
        } catch (const std::exception& e) {
            r.st = status::error;
            r.message = with_memory_sizes(e.what(), *pf, g);
            r.where = current_stage();
        }
    }
    const std::shared_ptr<platform>& pf;
    const config& c;
    group_inputs& g;
    result r;
    bool energy;                    // --energy: a loop of runs after the timed ones
    bool counters;                  // --counters: a profiled run after them
    std::unique_ptr<measurement> m; // none when nothing runs (skipped, or no inputs)
};

staged_measurement::staged_measurement(const std::shared_ptr<platform>& pf, const config& c, group_inputs& g,
                                       const run_settings& settings)
    : s_(std::make_unique<state>(pf, c, g, settings))
{
    if (s_->m) s_->guarded([&] { s_->m->prepare(); });
}

staged_measurement::~staged_measurement() = default;

bool staged_measurement::running() const { return s_->m && s_->r.st == status::verified; }

void staged_measurement::repeat(const stopping_criterion& enough)
{
    if (running()) s_->guarded([&] { s_->m->repeat(enough); });
}

size_t staged_measurement::samples() const { return s_->m ? s_->m->times.size() : 0; }

double staged_measurement::measured_ms(size_t n) const
{
    if (!s_->m) return 0;
    const auto& t = s_->m->times;
    return std::accumulate(t.begin(), t.begin() + long(std::min(n, t.size())), 0.0);
}

result staged_measurement::finish()
{
    if (!s_->m) return std::move(s_->r);
    auto t0 = clock::now();
    if (s_->energy && running()) s_->guarded([&] { s_->m->energy(); });
    lap(s_->r.wall.energy, t0);
    if (s_->counters && running()) s_->guarded([&] { s_->m->counters(); });
    lap(s_->r.wall.counters, t0);
    s_->m->release();
    check_inputs_intact(s_->g, s_->r);
    lap(s_->r.wall.inputs_check, t0);
    summarize_result(*s_->pf, s_->c, s_->g, std::move(s_->m->times), std::move(s_->m->walls), s_->r);
    lap(s_->r.wall.summary, t0);
    s_->m.reset();
    return std::move(s_->r);
}

result measure(const std::shared_ptr<platform>& pf, const config& c, group_inputs& g, const run_settings& settings)
{
    staged_measurement m(pf, c, g, settings);
    m.repeat(*stopping_criterion_for(settings));
    return m.finish();
}

} // namespace wb
