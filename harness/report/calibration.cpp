// The regression gate calibrated on a device from A/A rounds (report/calibration.h).
//
// The model, per configuration, in the log of the time ratio NEW / BASE: a round's change d_r is
// the Hodges-Lehmann estimate of its pairs (as the gate computes it) and se_r its standard error
// (the width of its interval at 1 - alpha over 2 z). Within a run the gate sees only se_r; from run
// to run the changes spread by more where something differs between runs that the pairing does not
// remove (the excess). The gate flags a change whose interval reaches the threshold T and that is
// significant, so identical code is flagged when |d_r| >= T - z se_r; with d_r ~ N(bias, se^2 +
// excess^2), the least threshold with a false-alarm probability of at most `false_alarm` per run is
// |bias| + z_fa sqrt(se^2 + excess^2) + z se, the bias being the rounds' mean change beyond its own
// standard error (with symmetric sides, none). The samples a threshold needs scale se as 1/sqrt(n);
// the excess and the bias do not shrink with samples, so where they alone reach T no number of
// samples gates it.
#include "harness/report/calibration.h"

#include "core/stats.h"
#include "harness/common/files.h"
#include "harness/common/json.h"
#include "harness/common/json_parse.h"
#include "harness/common/utc_time.h"
#include "harness/report/compare.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <map>
#include <numeric>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace wb {

using json = nlohmann::json;

namespace {

/// "2%" or "0.5%": a threshold as a key of the file's tables.
std::string threshold_key(double t)
{
    std::ostringstream s;
    s << std::setprecision(3) << 100 * t;
    return s.str();
}

/// What one round measured of a configuration: its change and the change's standard error (log space).
struct round_change {
    double d = 0, se = 0, p = 1;
    size_t pairs = 0;
};

/// The configuration's change in one round, from its paired samples; none where it cannot be had.
std::optional<round_change> change_of(const json& r, const results_reader& rd, double alpha)
{
    const json& base = rd.object(rd.object(r, "ab", "results"), "base", "results' ab");
    if (!base.is_object() || status_of(r) != status::verified || status_of(base) != status::verified) return {};
    const auto x = rd.samples(base, "ab.base"), y = rd.samples(r, "");
    if (!x || !y || x->size() != y->size() || x->size() < 6) return {};
    std::vector<double> d;
    for (size_t i = 0; i < x->size(); ++i)
        if ((*x)[i] > 0 && (*y)[i] > 0) d.push_back(std::log((*y)[i] / (*x)[i]));
    if (d.size() < 6) return {};
    const shift_estimate s = walsh_estimate(d, 1 - alpha);
    if (!std::isfinite(s.lo) || !std::isfinite(s.hi)) return {};
    const double z = normal_quantile(1 - alpha / 2);
    return round_change{s.estimate, (s.hi - s.lo) / (2 * z), wilcoxon_signed_rank(d).p, d.size()};
}

double calibration_mean(const std::vector<double>& v)
{
    return std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
}

double calibration_median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/// The least threshold (log space) for `false_alarm`, with the within-run error `se`.
double least_threshold(double bias, double se, double excess, double z_alpha, double z_fa)
{
    return std::abs(bias) + z_fa * std::hypot(se, excess) + z_alpha * se;
}

/// A log-space change as a fraction.
double as_fraction(double log_change) { return std::exp(log_change) - 1; }

/// The configuration's calibration from its rounds.
json calibrate_one(const std::vector<round_change>& rounds, const calibration_options& o)
{
    std::vector<double> d, se2, se;
    for (const auto& c : rounds) d.push_back(c.d), se.push_back(c.se), se2.push_back(c.se * c.se);
    const double z = normal_quantile(1 - o.alpha / 2), z_fa = normal_quantile(1 - o.false_alarm),
                 z80 = normal_quantile(0.8);
    const double mean = calibration_mean(d), within = calibration_median(se);
    double spread2 = 0;
    for (double x : d) spread2 += (x - mean) * (x - mean);
    const double between = d.size() > 1 ? std::sqrt(spread2 / double(d.size() - 1)) : 0.0;
    // The mean change of identical code counts as a bias only beyond its own standard error: of a
    // few rounds it is mostly noise, which the spread already holds.
    const double bias = std::copysign(std::max(0.0, std::abs(mean) - between / std::sqrt(double(d.size()))), mean);
    const double excess = std::sqrt(std::max(0.0, between * between - calibration_mean(se2)));
    std::vector<double> pairs;
    for (const auto& c : rounds) pairs.push_back(double(c.pairs));
    const double n = calibration_median(pairs);
    json detectable = json::object(), needed = json::object();
    for (double t : o.thresholds) {
        const double lt = std::log1p(t);
        // Detected 80% of the time: the observed change must reach T - z se (and be significant).
        detectable[threshold_key(t)] =
            as_fraction(std::max(lt - z * within, z * within) + z80 * std::hypot(within, excess) + std::abs(bias));
        // The pairs that make T the least threshold: se shrinks as sqrt(n / n'); none where the
        // bias and the excess alone reach T.
        if (least_threshold(bias, 0, excess, z, z_fa) >= lt) {
            needed[threshold_key(t)] = nullptr;
        } else {
            double lo = 2, hi = 1e9;
            auto fits = [&](double m) {
                return least_threshold(bias, within * std::sqrt(n / m), excess, z, z_fa) <= lt;
            };
            if (fits(lo)) hi = lo;
            while (hi / lo > 1.01) {
                const double mid = std::sqrt(lo * hi);
                (fits(mid) ? hi : lo) = mid;
            }
            needed[threshold_key(t)] = int64_t(std::ceil(hi));
        }
    }
    return {{"rounds", rounds.size()},
            {"pairs", n},
            {"mean_change", as_fraction(mean)},
            {"bias", as_fraction(bias)},
            {"within_run_se", within},
            {"between_runs_sd", between},
            {"excess_sd", excess},
            {"min_threshold", as_fraction(least_threshold(bias, within, excess, z, z_fa))},
            {"detectable_80", detectable},
            {"pairs_needed", needed}};
}

/// The gate's own verdicts of a round at each threshold (what it would have flagged), by
/// configuration and threshold.
std::map<std::string, std::map<std::string, std::string>> verdicts_of(const run_input& in, const calibration_options& o)
{
    const results_reader rd{in.label};
    std::map<std::string, std::map<std::string, std::string>> verdicts;
    for (double t : o.thresholds) {
        compare_options co;
        co.alpha = o.alpha;
        co.threshold = t;
        co.fail_on = {"none"};
        co.ignore_code_digest = true; // identical code is the point here
        const json cmp = compare_ab(in, co);
        for (const json& c : cmp["configurations"])
            verdicts[match_key(c, rd)][threshold_key(t)] = c["verdict"].get<std::string>();
    }
    return verdicts;
}

/// The device a round ran on, as compare names it.
std::string device_of(const run_input& in)
{
    const results_reader rd{in.label};
    return rd.name(rd.field(in.doc, "device"), "name", "device");
}

} // namespace

json calibrate_rounds(const std::vector<run_input>& rounds, const calibration_options& o)
{
    if (rounds.size() < 2) throw std::invalid_argument("a calibration needs at least 2 rounds");
    struct entry {
        json row;
        std::vector<round_change> changes;
        std::map<std::string, int> flagged;
    };
    std::map<std::string, entry> configs;
    std::vector<std::string> order;
    const std::string suite = rounds[0].doc.value("suite", json::object()).value("name", ""),
                      device = device_of(rounds[0]);
    for (const run_input& in : rounds) {
        const results_reader rd{in.label};
        if (!rd.object(in.doc, "ab", "").is_object())
            throw std::invalid_argument(shown(in.label, 200) + " is no A/B run: calibrate reads the results of `run "
                                                               "--baseline-plugins COPY` where COPY is this build's");
        if (device_of(in) != device)
            throw std::invalid_argument(shown(in.label, 200) + " ran on " + shown(device_of(in), 80) + ", not on " +
                                        shown(device, 80) + " as " + shown(rounds[0].label, 200) +
                                        ": a calibration is of one device");
        const auto verdicts = verdicts_of(in, o);
        for (const json& r : rd.results(in.doc)) {
            const std::string key = match_key(r, rd);
            auto [it, fresh] = configs.try_emplace(key);
            if (fresh) {
                order.push_back(key);
                it->second.row = {{"family", r["family"]}, {"variant", r["variant"]}, {"params", r["params"]}};
            }
            if (const auto c = change_of(r, rd, o.alpha)) {
                it->second.changes.push_back(*c);
                if (const auto v = verdicts.find(key); v != verdicts.end())
                    for (const auto& [t, verdict] : v->second)
                        it->second.flagged[t] += verdict == "slower" || verdict == "faster";
            }
        }
    }
    json rows = json::array();
    for (const std::string& key : order) {
        entry& e = configs[key];
        json row = e.row;
        if (e.changes.size() < 2) {
            row["gateable"] = false;
            row["reason"] = "measured with both builds verified in " + std::to_string(e.changes.size()) + " of " +
                            std::to_string(rounds.size()) + " rounds";
        } else {
            row.update(calibrate_one(e.changes, o));
            row["gateable"] = true;
            json flagged = json::object();
            for (double t : o.thresholds) flagged[threshold_key(t)] = e.flagged[threshold_key(t)];
            row["flagged"] = flagged;
            json changes = json::array();
            for (const auto& c : e.changes) changes.push_back({{"change", as_fraction(c.d)}, {"p_value", c.p}});
            row["changes"] = changes;
        }
        rows.push_back(row);
    }
    json labels = json::array();
    for (const auto& in : rounds) labels.push_back(in.label);
    const json& first = rounds[0].doc;
    return {{"calibration_version", calibration_version},
            {"suite", suite},
            {"platform", first.value("platform", json())},
            {"device", first.value("device", json::object())},
            {"toolchain", first.value("toolchain", json())},
            {"tool_version", first.value("tool_version", json())},
            {"created", utc_now()},
            {"rounds", rounds.size()},
            {"round_files", labels},
            {"alpha", o.alpha},
            {"false_alarm", o.false_alarm},
            {"thresholds", o.thresholds},
            {"configurations", rows}};
}

void print_calibration(std::ostream& os, const json& cal)
{
    const auto& ts = cal["thresholds"];
    os << "calibration of suite " << shown(cal.value("suite", ""), 80) << " on "
       << shown(cal["device"].value("name", "?"), 80) << ": " << cal["rounds"].get<int>()
       << " A/A rounds (this build against a copy of itself)\n\n";
    auto name_of = [](const json& r) {
        return shown(r["family"].get<std::string>() + "/" + r["variant"].get<std::string>() + " " +
                         params_text(r["params"]),
                     200);
    };
    int width = 14;
    for (const auto& r : cal["configurations"]) width = std::max(width, int(name_of(r).size()) + 1);
    std::ostringstream head;
    head << std::left << std::setw(width) << "configuration" << std::right << std::setw(7) << "pairs" << std::setw(8)
         << "bias" << std::setw(8) << "within" << std::setw(8) << "excess";
    for (const auto& t : ts) head << std::setw(7) << ("@" + threshold_key(t.get<double>()) + "%");
    head << std::setw(9) << "least" << std::setw(10) << "80%@2%";
    os << head.str() << "\n";
    auto pct = [](double f) {
        std::ostringstream s;
        s << std::fixed << std::setprecision(2) << 100 * f << "%";
        return s.str();
    };
    size_t ungateable = 0;
    for (const auto& r : cal["configurations"]) {
        os << std::left << std::setw(width) << name_of(r) << std::right;
        if (!r["gateable"].get<bool>()) {
            os << "  not calibrated: " << r["reason"].get<std::string>() << "\n";
            ++ungateable;
            continue;
        }
        os << std::setw(7) << r["pairs"].get<double>() << std::setw(8) << pct(r["bias"].get<double>()) << std::setw(8)
           << pct(r["within_run_se"].get<double>()) << std::setw(8) << pct(r["excess_sd"].get<double>());
        for (const auto& t : ts)
            os << std::setw(7)
               << (std::to_string(r["flagged"][threshold_key(t.get<double>())].get<int>()) + "/" +
                   std::to_string(r["rounds"].get<int>()));
        const json& d2 = r["detectable_80"].value("2", json());
        os << std::setw(9) << pct(r["min_threshold"].get<double>()) << std::setw(10)
           << (d2.is_number() ? pct(d2.get<double>()) : std::string("-")) << "\n";
    }
    os << "\npairs: median pairs per round; bias: mean change of identical code; within: the change's standard error "
          "in a run; excess: its spread from run to run beyond that (bias and excess do not shrink with more samples); "
          "@T: rounds flagged at threshold T; least: the "
          "least threshold with at most "
       << cal["false_alarm"].get<double>() * 100
       << "% false alarms per run; 80%@2%: the change detected in 80% of runs at a 2% threshold\n";
    if (ungateable) os << ungateable << " configurations not calibrated\n";
}

calibration read_calibration(const std::string& path)
{
    const std::string label = shown(path, 200);
    json doc;
    try {
        doc = parse_json(read_input(path, "--calibration", text_input_limit));
    } catch (const std::exception& e) {
        throw std::invalid_argument("--calibration " + label + ": " + json_error_text(e));
    }
    auto bad = [&](const std::string& why) {
        return std::invalid_argument("--calibration " + label + ": " + why +
                                     " (wavebench calibrate SUITE writes a calibration file)");
    };
    if (!doc.is_object() || !doc.contains("calibration_version")) throw bad("no calibration file");
    if (doc["calibration_version"] != calibration_version)
        throw bad("calibration version " + doc["calibration_version"].dump() + ", this wavebench reads " +
                  std::to_string(calibration_version));
    if (!doc.contains("device") || !doc["device"].is_object() || !doc["device"].contains("name") ||
        !doc["device"]["name"].is_string())
        throw bad("no device name");
    if (!doc.contains("configurations") || !doc["configurations"].is_array()) throw bad("no configurations");
    calibration c;
    c.label = path;
    c.device = doc["device"]["name"].get<std::string>();
    const results_reader rd{"--calibration " + label};
    for (const json& r : doc["configurations"]) {
        const std::string key = match_key(r, rd);
        const json& least = rd.field(r, "min_threshold");
        if (r.value("gateable", false) && least.is_number() && std::isfinite(least.get<double>()) &&
            least.get<double>() >= 0)
            c.least[key] = least.get<double>();
        c.held.insert(key);
    }
    return c;
}

} // namespace wb
