// Supervision of worker processes: loading the plugin files in one (a file that crashes or hangs
// is rejected and loading goes on), measuring in it, and replacing it after a crash, a timeout or
// an error (worker/worker.h).
#include "harness/worker/worker.h"

#include "harness/common/files.h"
#include "harness/measure/measure.h"
#include "harness/worker/wire.h"

#include "core/stats.h"

#include <algorithm>
#include <cstdio>

namespace wb {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

// A plugin file that takes longer than this to load (its static constructors) is rejected.
constexpr auto load_limit = std::chrono::seconds(30);

std::string last_line_note(const std::string& line)
{
    return line.empty() ? "" : "; its last line on stderr: " + shown(line, 400);
}

/// The files a worker's catalog says it loaded. The worker ran the plugins' code: it names only
/// files it was asked to load, each declaration passes check_declaration as one loaded here would
/// (add_declared), and a reason is shown only printable and bounded. Throws for a catalog that is
/// not one.
std::vector<fs::path> accepted_plugins(const json& catalog, const std::vector<fs::path>& files,
                                       plugin_registry* registry)
{
    const auto asked = [&files](const json& path) {
        const fs::path f = path.get<std::string>();
        if (std::find(files.begin(), files.end(), f) == files.end())
            throw std::runtime_error("it names a file it was not asked to load: '" + shorten(f.string(), 200) + "'");
        return f;
    };
    if (registry) {
        for (const auto& p : catalog.at("plugins")) {
            asked(p.at("path"));
            registry->add_declared(wire::plugin_from(p));
        }
        for (const auto& r : catalog.at("rejected"))
            registry->reject(asked(r.at("path")), shown(r.at("reason").get<std::string>(), declaration_limits::reason));
    }
    std::vector<fs::path> loaded;
    for (const auto& p : catalog.at("plugins")) loaded.push_back(asked(p.at("path")));
    return loaded;
}

/// What a worker's fatal answer (an object) says, shown; a plugin may have written it.
std::string fatal_text(const json& answer)
{
    const auto it = answer.find("fatal");
    return it != answer.end() && it->is_string() ? shown(it->get<std::string>(), 2000) : "the worker answered nonsense";
}

} // namespace

worker_executor::worker_executor(const platform_options& po, const std::vector<fs::path>& files,
                                 plugin_registry& registry)
    : po_(po)
{
    std::string why;
    if (!start(files, &registry, why)) throw std::runtime_error(why);
}

worker_executor::worker_executor(const platform_options& po, const worker_executor& first)
    : po_(po), base_loaded_(first.base_loaded_)
{
    std::string why;
    if (!start(first.loaded_, nullptr, why)) throw std::runtime_error(why);
}

void worker_executor::load_base(const std::vector<fs::path>& files, plugin_registry& registry)
{
    base_loaded_ = files;
    std::string why;
    if (!worker_ && !start(loaded_, nullptr, why)) throw std::runtime_error(why);
    if (!send_base(&registry, why)) throw std::runtime_error(why);
}

bool worker_executor::send_base(plugin_registry* registry, std::string& why)
{
    if (base_loaded_.empty()) return true;
    worker_->send(wire::load_request(base_loaded_, true));
    json catalog;
    const auto how = worker_->wait(catalog, worker_process::clock::now() + load_limit * int(base_loaded_.size()));
    if (how == worker_process::outcome::answered) try {
            base_loaded_ = accepted_plugins(catalog, base_loaded_, registry);
            return true;
        } catch (const std::exception& e) {
            why = std::string("a worker's list of the base build's plugins is not one: ") + e.what();
        }
    else
        why = "a worker loading the base build's plugins (--baseline-plugins) " +
              (how == worker_process::outcome::timed_out ? std::string("hung (killed)") : worker_->how_it_ended()) +
              last_line_note(worker_->last_line());
    worker_.reset();
    return false;
}

bool worker_executor::start(std::vector<fs::path> files, plugin_registry* registry, std::string& why)
{
    const auto t0 = std::chrono::steady_clock::now();
    // A plugin's corrupt relocations or destructors can write anywhere in the worker, the stage it
    // publishes too: a crash that names no file is tried again in a fresh worker (its addresses
    // differ), where it usually names one, before the load is given up. A file that crashes or hangs
    // the worker is rejected and a fresh worker goes on with the files after it (those before it
    // loaded); once one reaches the end, one more loads all that are left, for the catalog: each file
    // is loaded about twice, where reloading from the first at every crash loaded it once per crash.
    int unplaced = 0;
    size_t from = 0; // files[0, from) loaded in a worker that then crashed on a later one
    for (;;) {
        worker_ = std::make_unique<worker_process>(po_);
        {
            std::lock_guard lock(stats_m_);
            ++started_;
        }
        const std::vector<fs::path> asked(files.begin() + std::ptrdiff_t(from), files.end());
        worker_->send(wire::load_request(asked));
        // Each file gets load_limit from when the worker starts on it.
        int32_t file = -2;
        auto extend = [&](const progress& p, worker_process::clock::time_point deadline) {
            if (const int32_t now = p.file.load(); now != file) {
                file = now;
                return worker_process::clock::now() + load_limit;
            }
            return deadline;
        };
        json catalog;
        const auto how = worker_->wait(catalog, worker_process::clock::now() + load_limit, extend);
        if (how == worker_process::outcome::answered && from > 0) {
            from = 0; // the rest loads: now all of them
            continue;
        }
        if (how == worker_process::outcome::answered) try {
                loaded_ = accepted_plugins(catalog, files, registry);
                if (!send_base(nullptr, why)) return false;
                const double ms =
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
                std::lock_guard lock(stats_m_);
                start_ms_.push_back(ms);
                return true;
            } catch (const std::exception& e) {
                why = std::string("a worker's list of plugins is not one: ") + e.what();
                worker_.reset();
                return false;
            }
        const int32_t at_asked = worker_->where().file.load();
        const int64_t at = at_asked < 0 || size_t(at_asked) >= asked.size() ? -1 : int64_t(from) + at_asked;
        const std::string ended =
            how == worker_process::outcome::timed_out
                ? "did not finish loading within " + std::to_string(load_limit.count()) + " s (killed)"
                : worker_->how_it_ended();
        const std::string said = last_line_note(worker_->last_line());
        worker_.reset();
        if (at < 0 || size_t(at) >= files.size()) {
            if (how != worker_process::outcome::timed_out && !files.empty() && ++unplaced < 4) continue;
            why = "a worker process (wavebench worker --platform " + po_.name +
                  ") ended before loading plugins: " + ended + said;
            return false;
        }
        if (!registry) { // a file that loaded before fails now
            why = "loading " + files[size_t(at)].string() + " again " +
                  (how == worker_process::outcome::timed_out ? "hung" : "crashed") + ": " + ended + said;
            return false;
        }
        // What the file printed before it crashed is its own: shown printable and bounded.
        registry->reject(files[size_t(at)],
                         shown((how == worker_process::outcome::timed_out ? "hangs while being loaded: "
                                                                          : "crashed while being loaded: ") +
                                   ended + said,
                               declaration_limits::reason));
        files.erase(files.begin() + at);
        from = size_t(at);
    }
}

result worker_executor::measure(const config& c, const run_settings& s)
{
    result r = result_for(c);
    if (!worker_) {
        std::string why;
        if (!start(loaded_, nullptr, why)) {
            r.st = status::crashed;
            r.where = stage::load;
            r.message = why;
            return r;
        }
    }
    // Before the request goes: the worker's own time then always falls inside the round trip.
    const auto t0 = worker_process::clock::now();
    worker_->send(wire::measure_request(c, s));
    const double limit = timeout_of(s);
    json answer;
    const auto how = worker_->wait(
        answer, t0 + std::chrono::duration_cast<worker_process::clock::duration>(std::chrono::duration<double>(limit)));
    if (how == worker_process::outcome::answered && answer.contains("result")) {
        try {
            r = wire::result_from(answer["result"]);
            const double round_trip =
                std::chrono::duration<double, std::milli>(worker_process::clock::now() - t0).count();
            const double overhead = round_trip - answer.at("busy_ms").get<double>();
            r.wall.messages = std::max(overhead, 0.0);
            std::lock_guard lock(stats_m_);
            overhead_ms_.push_back(overhead);
        } catch (const std::exception& e) {
            r = result_for(c);
            r.st = status::crashed;
            r.message = std::string("the worker's answer is not a result: ") + e.what();
            worker_.reset();
            return r;
        }
        // An error may leave the device context unusable; a profiler stays attached to the process
        // and slows what it times next (counters/counters.h): a fresh worker next.
        if (r.st == status::error || (r.counters && r.counters->fresh_worker)) worker_.reset();
        return r;
    }
    r.where = stage(worker_->where().step.load());
    if (how == worker_process::outcome::answered) { // the worker could not start the platform
        r.st = status::error;
        r.message = fatal_text(answer);
    } else if (how == worker_process::outcome::timed_out) {
        r.st = status::timeout;
        char limit_text[32];
        std::snprintf(limit_text, sizeof limit_text, "%g", limit);
        r.message = std::string("exceeded the limit of ") + limit_text + " s in " + to_string(r.where) +
                    " (timeout_s, --timeout); the worker was killed" + last_line_note(worker_->last_line());
    } else {
        r.st = status::crashed;
        r.message = "the worker died of " + worker_->how_it_ended() + " in " + to_string(r.where) +
                    last_line_note(worker_->last_line());
    }
    worker_.reset();
    return r;
}

json worker_executor::describe() const
{
    auto median = [](const std::vector<double>& v) { return v.empty() ? json() : json(summarize(v).median); };
    std::lock_guard lock(stats_m_);
    return {{"mode", "workers"},
            {"workers_started", started_},
            {"worker_start_ms", median(start_ms_)},
            {"overhead_ms", median(overhead_ms_)}};
}

void load_catalog(const platform_options& po, const std::vector<fs::path>& files, plugin_registry& reg)
{
    if (po.in_process) {
        for (const auto& f : files) reg.add_file(f);
    } else {
        worker_executor loader(po, files, reg);
    }
}

json lane_costs_in_worker(const platform_options& po)
{
    worker_process w(po);
    w.send(wire::lane_costs_request());
    json answer;
    const auto how = w.wait(answer, worker_process::clock::now() + std::chrono::minutes(5));
    if (how != worker_process::outcome::answered)
        throw std::runtime_error("the lane-cost worker " + std::string(how == worker_process::outcome::timed_out
                                                                           ? "timed out"
                                                                           : "ended: " + w.how_it_ended()));
    if (answer.contains("fatal")) throw std::runtime_error(fatal_text(answer));
    return answer.at("lane_costs");
}

} // namespace wb
