// Measuring one configuration (measure/measure.h).
#include "harness/measure/measure.h"

#include "core/compare.h"
#include "harness/common/files.h"
#include "harness/measure/ab.h"
#include "harness/measure/executor.h"
#include "harness/measure/plugin_args.h"
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
                result& r, std::shared_ptr<timed_stream> stream)
        : pf_(pf), c_(c), fam_(*c.plug->fam), d_(*c.plug->desc), g_(g), settings_(settings), r_(r),
          stream_(stream ? std::move(stream) : std::make_shared<timed_stream>(pf)), a_(c, g, stream_->get()),
          telemetry_(pf->kind(), pf->device(), r.telemetry), warm_left_(settings.warmup)
    {
    }

    /// The plugin's prepare; called again after release (an A/B run's second half, measure/ab.cpp),
    /// it counts to the wall time only, and the warm-up is made again.
    void prepare();
    /// Runs until the criterion has enough, or a run fails verification; a second call goes on
    /// where the first stopped (A/B runs take turns, measure/ab.cpp). The warm-up runs left come
    /// first.
    void repeat(const stopping_criterion& enough);
    /// Up to `runs` of the warm-up runs left (A/B runs warm both builds up in turns).
    void warm_up(int runs)
    {
        for (int i = 0; i < runs && warm_left_ > 0 && r_.st == status::verified; ++i)
            if (!run_one()) break;
    }
    int warm_left() const { return warm_left_; }
    /// --energy: joules per run over a loop of back-to-back runs (telemetry/record.h).
    void energy()
    {
        enter(stage::run);
        measure_energy(
            telemetry_.sensors(),
            [&] {
                if (d_.run(&a_.args) != WB_OK || (d_.finish && d_.finish(&a_.args) != WB_OK))
                    throw std::runtime_error("run failed in the energy loop: " + utf8(a_.message));
                stream_->sync();
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
        prepared_ = false;
        r_.wall.release += ms_since(t0);
    }

    std::vector<double> times, walls; // each measured run's kernel and wall milliseconds

private:
    /// Untimed set-up counts until its device work is done.
    void settle(const char* what)
    {
        stream_->sync();
        platform::check(pf_->api().stream_sync(nullptr), what);
    }
    /// The plugin's own layout of input set `set`, untimed, when it has one and another set was bound.
    void bind(size_t set);
    /// One run from outputs poisoned with `poison`: its kernel and wall milliseconds.
    std::pair<double, double> run_once(int poison);
    /// The next run, warm-up or measured, verified where its turn is: false when it failed.
    bool run_one();
    /// The outputs copied to the host for verify (where the plugin has no finish that does it).
    void fetch_outputs()
    {
        if (!d_.finish)
            for (size_t i = 0; i < a_.out.size(); ++i)
                pf_->copy_to_host(a_.host_out[i], a_.out[i], g_.actual[i].bytes.size());
    }
    /// Compares run `run`'s outputs (on the host) with the reference; false (and the result
    /// failed) when wrong.
    bool verify(int run, bool warm, int poison, const group_inputs::dataset& data);

    const std::shared_ptr<platform>& pf_;
    const config& c_;
    const family& fam_;
    const wb_plugin& d_;
    group_inputs& g_;
    const run_settings& settings_;
    result& r_;
    std::shared_ptr<timed_stream> stream_; // an A/B run's two builds share one
    plugin_args a_;
    telemetry_sampler telemetry_; // a reading after each measured run
    bool prepared_ = false;
    int prepares_ = 0;          // prepare calls so far
    int prepared_at_ = 0;       // the run the last prepare came before
    size_t bound_ = size_t(-1); // the input set the plugin last bound
    int run_ = 0;               // the next run (warm-up included)
    int warm_left_;             // warm-up runs still to make
    double measured_ms_ = 0;    // device time of the measured runs so far
    clock::time_point started_; // when the first run began
};

void measurement::prepare()
{
    prepared_ = true; // from here on, release: a failed or declined prepare may hold half its state
    const bool again = prepares_++ > 0;
    enter(stage::prepare);
    if (again) { // the plugin's state is new: bound to no input, cold
        bound_ = size_t(-1);
        warm_left_ = settings_.warmup;
        prepared_at_ = run_;
    }
    if (d_.prepare) {
        const auto t0 = clock::now();
        const int32_t st = d_.prepare(&a_.args);
        if (st == WB_OK) settle("waiting for the plugin's prepare");
        if (!again) r_.prepare_ms = ms_since(t0);
        r_.wall.prepare += ms_since(t0);
        if (again && st != WB_OK)
            throw std::runtime_error("prepare failed when called again after release: " + utf8(a_.message));
        if (st == WB_SKIP) {
            r_.st = status::skipped;
            r_.message = a_.message[0] ? utf8(a_.message) : "the plugin declined this configuration";
        } else if (st != WB_OK) {
            throw std::runtime_error("prepare failed: " + utf8(a_.message));
        }
    }
    if (again) return;
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
        platform::check(pf_->api().fill(a_.out[i], poison, g_.actual[i].bytes.size(), stream_->get()),
                        "poisoning the outputs");
        if (d_.finish) std::memset(a_.host_out[i], poison, g_.actual[i].bytes.size()); // else the copy overwrites all
    }
    stream_->sync();
    r_.wall.poison += ms_since(poisoning);

    const auto t0 = clock::now();
    stream_->start();
    const int32_t st = d_.run(&a_.args);
    stream_->stop();
    stream_->sync();
    if (st != WB_OK) throw std::runtime_error("run failed: " + utf8(a_.message));
    enter(stage::finish);
    if (d_.finish && d_.finish(&a_.args) != WB_OK) throw std::runtime_error("finish failed: " + utf8(a_.message));
    enter(stage::verify);
    const double wall = ms_since(t0);
    return {stream_->elapsed_ms(), wall};
}

bool measurement::verify(int run, bool warm, int poison, const group_inputs::dataset& data)
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
            r_.message = "run " + std::to_string(run + 1) + (warm ? " (warm-up, " : " (") + poison_note(poison) +
                         ", input seed " + std::to_string(data.seed) + "), output '" +
                         fam_.outputs(c_.family_params)[i].name + "': " + cmp.detail + lane_order_note(*pf_);
            return false;
        }
    }
    return true;
}

void measurement::repeat(const stopping_criterion& criterion)
{
    while (r_.st == status::verified) {
        if (warm_left_ == 0 && criterion.enough({int(times.size()), measured_ms_, ms_since(started_)})) break;
        if (!run_one()) break;
    }
}

bool measurement::run_one()
{
    if (run_ == 0) started_ = clock::now();
    const int run = run_++;
    const bool warm = warm_left_ > 0;
    // Alternate two poisons: an element left unwritten fails at least one of two runs.
    const int poison = run % 2 ? 0x5A : 0xA5;
    const size_t set = size_t(run) % g_.input_sets.size();
    a_.use_inputs(set);
    bind(set);
    // Every run starts from a poisoned output (the same conditions for every timed run); the
    // first runs are all compared with the reference, then every verify_every-th.
    // After a prepare (again, in an A/B run's second half) its first runs are all checked too.
    const bool check =
        run - prepared_at_ < settings_.warmup + 2 * int(g_.input_sets.size()) || run % settings_.verify_every == 0;
    const auto [kernel, wall] = run_once(poison);
    (warm ? r_.wall.warmup : r_.wall.timed) += wall;
    ++r_.runs;
    auto t0 = clock::now();
    if (check) fetch_outputs();
    r_.runs_checked += check;
    const bool wrong = check && !verify(run, warm, poison, g_.of_set(set));
    lap(r_.wall.verify, t0);
    if (wrong) return false;
    if (warm) {
        --warm_left_;
    } else {
        telemetry_.after_run(); // outside the timed region
        times.push_back(kernel);
        walls.push_back(wall);
        measured_ms_ += kernel;
    }
    return true;
}

void measurement::counters()
{
    const size_t set = size_t(run_) % g_.input_sets.size();
    a_.use_inputs(set);
    bind(set);
    r_.counters = read_counters(*pf_, [&] { run_once(0xA5); });
    r_.counters->work = fam_.metric.work(c_.family_params), r_.counters->work_unit = work_unit(fam_.metric.unit);
    fetch_outputs();
    if (!verify(run_, false, 0xA5, g_.of_set(set))) r_.message = "the counters' run: " + r_.message;
    describe_counters(*r_.counters, r_.kernels, pf_->device());
}

} // namespace

struct staged_measurement::state {
    state(const std::shared_ptr<platform>& pf, const config& c, group_inputs& g, const run_settings& s,
          std::shared_ptr<timed_stream> stream)
        : pf(pf), c(c), g(g), r(result_for(c)), energy(s.energy), counters(s.counters)
    {
        if (describe_inputs(c, g, r)) guarded([&] { m = std::make_unique<measurement>(pf, c, g, s, r, stream); });
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
                                       const run_settings& settings, std::shared_ptr<timed_stream> stream)
    : s_(std::make_unique<state>(pf, c, g, settings, std::move(stream)))
{
    if (s_->m) s_->guarded([&] { s_->m->prepare(); });
}

staged_measurement::~staged_measurement() = default;

bool staged_measurement::running() const { return s_->m && s_->r.st == status::verified; }

void staged_measurement::repeat(const stopping_criterion& enough)
{
    if (running()) s_->guarded([&] { s_->m->repeat(enough); });
}

void staged_measurement::warm_up(int runs)
{
    if (running()) s_->guarded([&] { s_->m->warm_up(runs); });
}

int staged_measurement::warm_left() const { return running() ? s_->m->warm_left() : 0; }

void staged_measurement::release()
{
    if (running()) s_->guarded([&] { s_->m->release(); });
}

void staged_measurement::prepare_again()
{
    if (running()) s_->guarded([&] { s_->m->prepare(); });
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
