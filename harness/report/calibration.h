// A calibration of the regression gate on one device (`wavebench calibrate`, docs/compare.md): A/A
// rounds of a build against a copy of itself, run as A/B runs are, and per configuration what they
// show: how often each threshold flagged identical code, how far apart the two sides drift (within
// a run, and from run to run), the least threshold the gate holds at, the least change it detects
// at 80% power, and the samples a threshold needs. compare and A/B runs read the file it writes
// (`--calibration FILE`) to judge each configuration at no less than its least threshold.
#pragma once

#include "harness/report/results_reader.h"

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace wb {

inline constexpr int calibration_version = 1;

struct calibration_options {
    double alpha = 0.01;        // the gate's significance level
    double false_alarm = 0.001; // per configuration and run, what min_threshold allows
    std::vector<double> thresholds{0.005, 0.01, 0.02, 0.03, 0.05}; // fractions: the rates and power at each
};

/// The calibration of the A/B runs `rounds` (each a results document of `run --baseline-plugins`
/// with the same build on both sides), as the calibration file holds it (docs/compare.md). Throws
/// std::invalid_argument for a round that is no A/B run, or rounds of other suites or devices.
nlohmann::json calibrate_rounds(const std::vector<run_input>& rounds, const calibration_options& o);

/// The calibration as a console table.
void print_calibration(std::ostream& os, const nlohmann::json& cal);

/// A calibration file read and checked (its version, device and configurations); errors name the file.
struct calibration {
    std::string label;                   // the file
    std::string device;                  // the device it was made on
    std::map<std::string, double> least; // min_threshold by configuration (match key); absent: not gateable
    std::set<std::string> held;          // every configuration the file holds, gateable or not
};
calibration read_calibration(const std::string& path);

} // namespace wb
