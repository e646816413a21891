// NVIDIA's counters through CUPTI's Range Profiler and Profiler Host (CUDA 13: the event and metric
// APIs are gone), loaded at run time (counters/cupti_api.h). A pass: the range profiler enabled on
// the current context with one range per kernel launch (auto range) and kernel replay (CUPTI runs
// each kernel as often as the metrics need, restoring its memory between replays), the run, then
// the values evaluated per range. An API callback records each launch's kernel symbol, to name the
// ranges (which CUPTI only numbers). docs/counters.md lists the metrics behind each counter.
#include "harness/common/files.h"
#include "harness/counters/counters.h"
#include "harness/counters/cupti_api.h"
#include "harness/telemetry/sensors.h"

#include <cxxabi.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <stdexcept>

namespace wb {

namespace {

using namespace cupti;
using cupti::result; // not wb::result (measure/result.h), which a unity batch may have seen

/// The metrics read, and what each becomes (counters.h's names). A metric this GPU lacks is
/// dropped, and the readings say which.
struct metric {
    const char* name;
    const char* counter;
    double scale; // counter = value * scale (a percentage to a fraction); 0: by the wavefront width
};
constexpr metric metrics[] = {
    {"smsp__average_thread_inst_executed_per_inst_executed.ratio", "simt_efficiency", 0},
    {"smsp__sass_average_branch_targets_threads_uniform.pct", "branch_uniformity", 0.01},
    {"smsp__sass_branch_targets.sum", "", 1}, // 0: no branch, so no uniformity to speak of
    {"sm__warps_active.avg.pct_of_peak_sustained_active", "achieved_occupancy", 0.01},
    {"dram__bytes_read.sum", "dram_read_bytes", 1},
    {"dram__bytes_write.sum", "dram_write_bytes", 1},
    {"lts__t_sector_hit_rate.pct", "l2_hit_rate", 0.01},
    {"smsp__inst_executed.sum", "instructions", 1},
    {"smsp__warps_launched.sum", "wavefronts", 1},
    {"sm__ctas_launched.sum", "blocks", 1},
    {"gpu__time_duration.sum", "duration_ns", 1},
};

/// Ranges (kernel launches) one pass holds; a run that launches more has the rest uncounted, and
/// its readings say so.
constexpr size_t max_ranges = 64;

std::string error_text(const api& a, const char* call, result r)
{
    const char* s = nullptr;
    if (a.get_result_string) a.get_result_string(r, &s);
    std::string text = std::string(call) + " failed: " + (s ? shown(s, 200) : "CUPTI error " + std::to_string(r));
    if (r == error_insufficient_privileges || r == error_virtualized_insufficient_privileges)
        text += " (the driver lets only administrators read GPU performance counters here: run as root, or have "
                "the nvidia module loaded with NVreg_RestrictProfilingToAdminUsers=0; docs/counters.md)";
    if (r == error_multiple_subscribers)
        text += " (another profiler, e.g. ncu, nsys or a debugger, holds CUPTI in this process)";
    return text;
}

void check(const api& a, const char* call, result r)
{
    if (r != success) throw std::runtime_error(error_text(a, call, r));
}

/// libcupti: WAVEBENCH_CUPTI_LIBRARY, else the loader's search, else the CUDA installations'
/// usual folders. CUPTI opens libnvperf_host itself; loading it first, from the same folder,
/// spares it the search.
void* open_cupti(std::string& why)
{
    if (const char* env = std::getenv("WAVEBENCH_CUPTI_LIBRARY"); env && *env)
        return open_runtime_library("WAVEBENCH_CUPTI_LIBRARY", env, why);
    std::vector<std::filesystem::path> folders;
    if (const char* home = std::getenv("CUDA_HOME"); home && *home) folders.emplace_back(home);
    folders.emplace_back("/usr/local/cuda");
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator("/usr/local", ec))
        if (e.path().filename().string().rfind("cuda-", 0) == 0) folders.push_back(e.path());
    if (void* lib = dlopen("libcupti.so.13", RTLD_NOW | RTLD_LOCAL)) return lib;
    std::string first = dlerror() ? "libcupti.so.13 is not on the loader's path" : "";
    for (const auto& f : folders)
        for (const char* sub : {"lib64", "lib", "targets/x86_64-linux/lib", "extras/CUPTI/lib64"}) {
            const auto dir = f / sub;
            if (!std::filesystem::exists(dir / "libcupti.so.13", ec)) continue;
            dlopen((dir / "libnvperf_host.so").c_str(), RTLD_NOW | RTLD_GLOBAL);
            if (void* lib = dlopen((dir / "libcupti.so.13").c_str(), RTLD_NOW | RTLD_LOCAL)) return lib;
        }
    why = "cannot load libcupti.so.13 (CUDA 13's profiling library): " + first +
          ", nor in CUDA_HOME, /usr/local/cuda or /usr/local/cuda-*; set WAVEBENCH_CUPTI_LIBRARY to its path";
    return nullptr;
}

const api* load(std::string& why)
{
    return load_once<api>(
        [](api& a) -> std::string {
            std::string failed;
            void* lib = open_cupti(failed);
            if (!lib) return failed;
            const char* missing = nullptr;
            auto need = [&](const char* name, auto& f) {
                if (!bind(lib, name, f) && !missing) missing = name;
            };
            need("cuptiGetResultString", a.get_result_string);
            need("cuptiProfilerInitialize", a.profiler_initialize);
            need("cuptiDeviceGetChipName", a.chip_name);
            need("cuptiProfilerHostInitialize", a.host_initialize);
            need("cuptiProfilerHostDeinitialize", a.host_deinitialize);
            need("cuptiProfilerHostConfigAddMetrics", a.config_add_metrics);
            need("cuptiProfilerHostGetConfigImageSize", a.config_image_size);
            need("cuptiProfilerHostGetConfigImage", a.config_image);
            need("cuptiProfilerHostGetNumOfPasses", a.num_passes);
            need("cuptiProfilerHostEvaluateToGpuValues", a.evaluate);
            need("cuptiRangeProfilerEnable", a.enable);
            need("cuptiRangeProfilerDisable", a.disable);
            need("cuptiRangeProfilerGetCounterDataSize", a.counter_data_size);
            need("cuptiRangeProfilerCounterDataImageInitialize", a.counter_data_init);
            need("cuptiRangeProfilerSetConfig", a.set_config);
            need("cuptiRangeProfilerStart", a.start);
            need("cuptiRangeProfilerStop", a.stop);
            need("cuptiRangeProfilerDecodeData", a.decode);
            need("cuptiRangeProfilerGetCounterDataInfo", a.counter_data_info);
            need("cuptiSubscribe", a.subscribe);
            need("cuptiUnsubscribe", a.unsubscribe);
            need("cuptiEnableDomain", a.enable_domain);
            if (missing) return std::string("the CUPTI library has no ") + missing + " (CUPTI 13 or newer is needed)";
            void* cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
            if (!cuda) cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
            if (!cuda || !bind(cuda, "cuCtxGetCurrent", a.ctx_get_current) ||
                !bind(cuda, "cuCtxGetDevice", a.ctx_get_device))
                return "the CUDA driver library (libcuda.so.1) is not loaded";
            initialize_params init{WB_CUPTI_SIZE(initialize_params, pPriv), nullptr};
            const result r = a.profiler_initialize(&init);
            return r == success ? "" : error_text(a, "cuptiProfilerInitialize", r);
        },
        why);
}

/// What one chip needs, made once: its host object and the configuration image of the metrics it has.
struct chip_config {
    std::string error;                // why there is none
    std::vector<const char*> names;   // the metrics kept, in `metrics`' order
    std::vector<const metric*> kept;  // the same, as entries of `metrics`
    std::vector<std::string> dropped; // those this chip lacks
    std::vector<uint8_t> image;
    size_t passes = 0;
    void* host = nullptr;
};

/// A host object with `names` configured, or false (and the object released).
bool configure(const api& a, const std::string& chip, chip_config& c)
{
    host_initialize_params hi{WB_CUPTI_SIZE(host_initialize_params, pHostObject)};
    hi.profilerType = profiler_type_range;
    hi.pChipName = chip.c_str();
    check(a, "cuptiProfilerHostInitialize", a.host_initialize(&hi));
    config_add_metrics_params am{WB_CUPTI_SIZE(config_add_metrics_params, numMetrics)};
    am.pHostObject = hi.pHostObject;
    am.ppMetricNames = c.names.data();
    am.numMetrics = c.names.size();
    if (a.config_add_metrics(&am) != success) {
        host_deinitialize_params d{WB_CUPTI_SIZE(host_deinitialize_params, pHostObject), nullptr, hi.pHostObject};
        a.host_deinitialize(&d);
        return false;
    }
    c.host = hi.pHostObject;
    return true;
}

chip_config make_config(const api& a, const std::string& chip)
{
    chip_config c;
    try {
        for (const auto& m : metrics) c.names.push_back(m.name), c.kept.push_back(&m);
        if (!configure(a, chip, c)) {
            // CUPTI names no culprit: keep each metric that configures alone.
            c.names.clear(), c.kept.clear();
            for (const auto& m : metrics) {
                chip_config one;
                one.names = {m.name};
                if (configure(a, chip, one)) {
                    host_deinitialize_params d{WB_CUPTI_SIZE(host_deinitialize_params, pHostObject), nullptr, one.host};
                    a.host_deinitialize(&d);
                    c.names.push_back(m.name), c.kept.push_back(&m);
                } else {
                    c.dropped.push_back(m.name);
                }
            }
            if (c.names.empty() || !configure(a, chip, c))
                throw std::runtime_error("CUPTI accepts none of wavebench's metrics on " + chip);
        }
        config_image_size_params is{WB_CUPTI_SIZE(config_image_size_params, configImageSize), nullptr, c.host};
        check(a, "cuptiProfilerHostGetConfigImageSize", a.config_image_size(&is));
        c.image.resize(is.configImageSize);
        config_image_params ci{WB_CUPTI_SIZE(config_image_params, pConfigImage), nullptr, c.host, c.image.size(),
                               c.image.data()};
        check(a, "cuptiProfilerHostGetConfigImage", a.config_image(&ci));
        num_passes_params np{WB_CUPTI_SIZE(num_passes_params, numOfPasses), nullptr, c.image.size(), c.image.data()};
        if (a.num_passes(&np) == success) c.passes = np.numOfPasses;
    } catch (const std::exception& e) {
        c.error = e.what();
    }
    return c;
}

/// The chip's configuration, made at its first pass and kept for the process.
const chip_config& config_for(const api& a, const std::string& chip)
{
    static std::mutex m;
    static std::map<std::string, chip_config> made;
    std::lock_guard lock(m);
    auto it = made.find(chip);
    if (it == made.end()) it = made.emplace(chip, make_config(a, chip)).first;
    return it->second;
}

/// "void conv_tiled<4>(float const*, ...)" from a launch's mangled symbol.
std::string demangled(const char* symbol)
{
    int status = 0;
    char* d = abi::__cxa_demangle(symbol, nullptr, nullptr, &status);
    std::string s = status == 0 && d ? d : symbol;
    std::free(d);
    return shorten(s, 160);
}

class cupti_counters final : public counter_provider {
public:
    cupti_counters(const api& a, int warp_size) : a_(a), warp_(warp_size) {}
    ~cupti_counters() override { end(); }

    void start() override;
    counter_readings stop() override;

private:
    static void on_api(void* self, int domain, uint32_t, const void* data);
    void end();
    counter_readings evaluate(const chip_config& cfg);

    const api& a_;
    int warp_;
    void* ctx_ = nullptr;
    void* profiler_ = nullptr;
    void* subscriber_ = nullptr;
    const chip_config* cfg_ = nullptr;
    std::vector<uint8_t> data_;
    std::mutex m_;
    std::vector<std::string> launched_[2]; // kernel symbols per API domain (driver, runtime)
};

void cupti_counters::on_api(void* self, int domain, uint32_t, const void* data)
{
    const auto* d = static_cast<const callback_data*>(data);
    if (d->callbackSite != api_enter || !d->symbolName || !d->functionName || !std::strstr(d->functionName, "Launch"))
        return;
    auto* me = static_cast<cupti_counters*>(self);
    std::lock_guard lock(me->m_);
    auto& list = me->launched_[domain == domain_driver_api ? 0 : 1];
    if (list.size() < max_ranges) list.push_back(demangled(d->symbolName));
}

void cupti_counters::start()
{
    if (a_.ctx_get_current(&ctx_) != 0 || !ctx_) throw std::runtime_error("no CUDA context is current");
    int device = 0;
    if (a_.ctx_get_device(&device) != 0) throw std::runtime_error("cuCtxGetDevice failed");
    chip_name_params cn{WB_CUPTI_SIZE(chip_name_params, pChipName), nullptr, size_t(device), nullptr};
    check(a_, "cuptiDeviceGetChipName", a_.chip_name(&cn));
    cfg_ = &config_for(a_, cn.pChipName ? cn.pChipName : "");
    if (!cfg_->error.empty()) throw std::runtime_error(cfg_->error);

    // Launch names are a help, not a need: without the callback the ranges keep their numbers.
    if (a_.subscribe(&subscriber_, &cupti_counters::on_api, this) == success) {
        a_.enable_domain(1, subscriber_, domain_driver_api);
        a_.enable_domain(1, subscriber_, domain_runtime);
    } else {
        subscriber_ = nullptr;
    }
    enable_params en{WB_CUPTI_SIZE(enable_params, pRangeProfilerObject), nullptr, ctx_, nullptr};
    check(a_, "cuptiRangeProfilerEnable", a_.enable(&en));
    profiler_ = en.pRangeProfilerObject;

    counter_data_size_params ds{WB_CUPTI_SIZE(counter_data_size_params, counterDataSize)};
    ds.pRangeProfilerObject = profiler_;
    ds.pMetricNames = const_cast<const char**>(cfg_->names.data());
    ds.numMetrics = cfg_->names.size();
    ds.maxNumOfRanges = max_ranges;
    ds.maxNumRangeTreeNodes = uint32_t(max_ranges);
    check(a_, "cuptiRangeProfilerGetCounterDataSize", a_.counter_data_size(&ds));
    data_.assign(ds.counterDataSize, 0);
    counter_data_init_params di{WB_CUPTI_SIZE(counter_data_init_params, pCounterData), nullptr, profiler_, data_.size(),
                                data_.data()};
    check(a_, "cuptiRangeProfilerCounterDataImageInitialize", a_.counter_data_init(&di));

    set_config_params sc{WB_CUPTI_SIZE(set_config_params, targetNestingLevel)};
    sc.pRangeProfilerObject = profiler_;
    sc.configSize = cfg_->image.size();
    sc.pConfig = cfg_->image.data();
    sc.counterDataImageSize = data_.size();
    sc.pCounterDataImage = data_.data();
    sc.range = auto_range;
    sc.replayMode = kernel_replay;
    sc.maxRangesPerPass = max_ranges;
    sc.numNestingLevels = 1;
    sc.minNestingLevel = 1;
    sc.passIndex = 0;
    sc.targetNestingLevel = 1;
    check(a_, "cuptiRangeProfilerSetConfig", a_.set_config(&sc));
    object_params st{WB_CUPTI_SIZE(object_params, pRangeProfilerObject), nullptr, profiler_};
    check(a_, "cuptiRangeProfilerStart", a_.start(&st));
}

counter_readings cupti_counters::stop()
{
    stop_params sp{WB_CUPTI_SIZE(stop_params, isAllPassSubmitted), nullptr, profiler_};
    check(a_, "cuptiRangeProfilerStop", a_.stop(&sp));
    decode_params dp{WB_CUPTI_SIZE(decode_params, numOfRangeDropped), nullptr, profiler_};
    check(a_, "cuptiRangeProfilerDecodeData", a_.decode(&dp));
    counter_readings c = evaluate(*cfg_);
    if (!sp.isAllPassSubmitted) c.skipped = "CUPTI wanted more passes than kernel replay gave; values may be partial";
    if (dp.numOfRangeDropped)
        c.skipped += (c.skipped.empty() ? "" : "; ") + std::to_string(dp.numOfRangeDropped) + " launches not counted";
    end();
    return c;
}

counter_readings cupti_counters::evaluate(const chip_config& cfg)
{
    counter_readings c;
    c.provider = "cupti range profiler";
    // Once attached, CUPTI stays in the process: on an H100 the configurations timed after a pass
    // in the same worker ran 2-5% slower (results/h100/counters.md). The next gets a fresh one.
    c.fresh_worker = true;
    c.passes = int(cfg.passes);
    if (!cfg.dropped.empty()) {
        c.skipped = "not on this GPU:";
        for (const auto& d : cfg.dropped) c.skipped += " " + d;
    }
    counter_data_info_params info{WB_CUPTI_SIZE(counter_data_info_params, numTotalRanges), nullptr, data_.data(),
                                  data_.size()};
    check(a_, "cuptiRangeProfilerGetCounterDataInfo", a_.counter_data_info(&info));
    std::vector<double> values(cfg.names.size());
    for (size_t r = 0; r < info.numTotalRanges; ++r) {
        evaluate_params ev{WB_CUPTI_SIZE(evaluate_params, pMetricValues)};
        ev.pHostObject = cfg.host;
        ev.pCounterDataImage = data_.data();
        ev.counterDataImageSize = data_.size();
        ev.rangeIndex = r;
        ev.ppMetricNames = const_cast<const char**>(cfg.names.data());
        ev.numMetrics = cfg.names.size();
        ev.pMetricValues = values.data();
        check(a_, "cuptiProfilerHostEvaluateToGpuValues", a_.evaluate(&ev));
        launch_counters l;
        bool branches = true;
        for (size_t i = 0; i < cfg.kept.size(); ++i) {
            const metric& m = *cfg.kept[i];
            if (!*m.counter) {
                branches = values[i] > 0;
                continue;
            }
            l.values[m.counter] = m.scale > 0 ? values[i] * m.scale : values[i] / warp_;
        }
        if (!branches) l.values.erase("branch_uniformity"); // no branch executed: 0 % would mislead
        if (auto it = l.values.find("l2_hit_rate"); it != l.values.end())
            it->second = std::clamp(it->second, 0.0, 1.0); // hits and lookups come from different replays
        c.launches.push_back(std::move(l));
    }
    if (info.numTotalRanges >= max_ranges)
        c.skipped += std::string(c.skipped.empty() ? "" : "; ") + "only the first " + std::to_string(max_ranges) +
                     " launches of the run are counted";
    // Name the ranges after the API domain that saw exactly one launch per range.
    std::lock_guard lock(m_);
    for (const auto& names : launched_)
        if (names.size() == c.launches.size()) {
            for (size_t i = 0; i < names.size(); ++i) c.launches[i].kernel = names[i];
            break;
        }
    return c;
}

void cupti_counters::end()
{
    if (profiler_) {
        object_params d{WB_CUPTI_SIZE(object_params, pRangeProfilerObject), nullptr, profiler_};
        a_.disable(&d);
        profiler_ = nullptr;
    }
    if (subscriber_) {
        a_.unsubscribe(subscriber_);
        subscriber_ = nullptr;
    }
}

} // namespace

std::unique_ptr<counter_provider> open_cupti_provider(const platform& p, std::string& why)
{
    const api* a = load(why);
    if (!a) return nullptr;
    return std::make_unique<cupti_counters>(*a, p.device().warp_size > 0 ? p.device().warp_size : 32);
}

} // namespace wb
