// `wavebench calibrate SUITE [--runs N]`: A/A rounds of this build against a copy of itself, each
// an A/B run exactly as `run --baseline-plugins` makes one (the same command, in a process of its
// own), then the calibration of the gate on this device (report/calibration.h) printed and
// written to a file that compare and A/B runs take (--calibration FILE). `--from` calibrates from
// A/A runs made before.
#include "harness/commands/commands.h"
#include "harness/common/files.h"
#include "harness/common/json.h"
#include "harness/report/calibration.h"

#include <cstring>
#include <filesystem>
#include <iostream>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace wb {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

struct calibrate_options {
    platform_options platform;
    std::string suite_file;
    std::vector<std::string> from; // --from: A/A results made before
    std::string filter;
    settings_overrides overrides;
    int runs = 5;
    std::string out;
    std::string rounds_dir; // --rounds-dir: keep each round's results ("": a temporary folder)
    calibration_options cal;
};

/// Runs this wavebench with `args`, its output into `log`: the exit status (128 + signal when killed).
int run_self(const std::vector<std::string>& args, const fs::path& log)
{
    std::vector<char*> argv;
    std::string exe = fs::read_symlink("/proc/self/exe").string();
    argv.push_back(exe.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    pid_t pid = 0;
    const int err = posix_spawn(&pid, exe.c_str(), &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    if (err) throw std::runtime_error("cannot start " + exe + ": " + os_reason(err));
    int st = 0;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) throw std::runtime_error("waiting for a round: " + os_reason(errno));
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/// The last lines of a round's log, for an error.
std::string tail_of(const fs::path& log)
{
    std::string text;
    try {
        text = read_input(log, "round log", text_input_limit);
    } catch (const std::exception&) {
        return "";
    }
    const size_t from = text.size() > 1500 ? text.size() - 1500 : 0;
    return shown(text.substr(from), 1600);
}

/// This build's plugin files copied into `dir` (a name taken twice gets a number): the base build of
/// every round.
void copy_plugins(const std::vector<fs::path>& files, const fs::path& dir)
{
    fs::create_directories(dir);
    for (const auto& f : files) {
        fs::path to = dir / f.filename();
        for (int k = 2; fs::exists(to); ++k) to = dir / (f.stem().string() + "-" + std::to_string(k) + ".so");
        fs::copy_file(f, to);
    }
}

/// The arguments of each round's `run`: the suite, the platform and settings asked for, an A/B
/// run against `copy` that fails on nothing, with no time verdict suppressed for identical code.
std::vector<std::string> round_args(const calibrate_options& o, const std::string& platform, const fs::path& copy,
                                    const fs::path& out)
{
    std::vector<std::string> a{"run",    o.suite_file, "--platform",
                               platform, "--device",   std::to_string(o.platform.device)};
    for (const auto& d : o.platform.plugin_dirs) a.insert(a.end(), {"--plugins", d});
    if (o.platform.warp_size) a.insert(a.end(), {"--warp-size", std::to_string(o.platform.warp_size)});
    if (!o.platform.lane_order.empty()) a.insert(a.end(), {"--lane-order", o.platform.lane_order});
    if (o.platform.in_process) a.push_back("--in-process");
    if (!o.filter.empty()) a.insert(a.end(), {"--filter", o.filter});
    const settings_overrides& so = o.overrides;
    if (so.repetitions) a.insert(a.end(), {"--repetitions", std::to_string(*so.repetitions)});
    if (so.warmup) a.insert(a.end(), {"--warmup", std::to_string(*so.warmup)});
    if (so.min_time_s) a.insert(a.end(), {"--min-time", json(*so.min_time_s).dump()});
    if (so.verify_every) a.insert(a.end(), {"--verify-every", std::to_string(*so.verify_every)});
    if (so.timeout_s) a.insert(a.end(), {"--timeout", json(*so.timeout_s).dump()});
    a.insert(a.end(), {"--no-history", "--no-ceilings", "--out", out.string(), "--baseline-plugins", copy.string(),
                       "--fail-on", "none", "--ignore-code-digest"});
    return a;
}

/// The rounds run: `runs` A/A runs of the suite, each result file in `dir`.
std::vector<run_input> run_rounds(const calibrate_options& o, const fs::path& dir)
{
    auto p = open_platform(o.platform);
    plugin_registry reg(p->kind());
    const auto files = find_plugin_files(reg, o.platform.plugin_dirs);
    if (files.empty())
        throw std::invalid_argument(std::string("no plugin files of platform ") + to_string(p->kind()) +
                                    " to calibrate with");
    const std::string platform = p->name();
    const fs::path copy = dir / "copy" / platform;
    copy_plugins(files, copy);
    p.reset(); // each round opens the device itself
    std::vector<run_input> rounds;
    for (int k = 1; k <= o.runs; ++k) {
        const fs::path out = dir / ("round-" + std::to_string(k) + ".json"),
                       log = dir / ("round-" + std::to_string(k) + ".log");
        std::cerr << "round " << k << " of " << o.runs << ": run " << shown(o.suite_file, 200) << " --baseline-plugins "
                  << shown(copy.string(), 200) << " (output in " << shown(log.string(), 200) << ")\n";
        const int st = run_self(round_args(o, platform, copy, out), log);
        if (st != exit_ok && st != exit_failures)
            throw std::runtime_error("round " + std::to_string(k) + " failed (exit status " + std::to_string(st) +
                                     "); its output ends:\n" + tail_of(log));
        rounds.push_back(read_results_file(out.string()));
    }
    return rounds;
}

int calibrate_command(calibrate_options o)
{
    if (o.suite_file.empty() == o.from.empty())
        throw std::invalid_argument("give a SUITE to run A/A rounds of, or --from the results of A/A runs made before "
                                    "(not both)");
    std::vector<run_input> rounds;
    fs::path temporary;
    if (!o.from.empty()) {
        if (o.from.size() < 2) throw std::invalid_argument("--from needs at least 2 results files");
        for (const auto& f : o.from) rounds.push_back(read_results_file(f));
    } else {
        fs::path dir = o.rounds_dir;
        if (dir.empty()) {
            char tmpl[] = "/tmp/wavebench-calibrate-XXXXXX";
            if (!mkdtemp(tmpl))
                throw std::runtime_error(std::string("cannot make a temporary folder: ") + std::strerror(errno));
            dir = temporary = tmpl;
        }
        fs::create_directories(dir);
        try {
            rounds = run_rounds(o, dir);
        } catch (...) {
            if (!temporary.empty()) std::cerr << "the rounds so far are in " << temporary.string() << "\n";
            throw;
        }
    }
    const json cal = calibrate_rounds(rounds, o.cal);
    const std::string suite = cal.value("suite", "suite"), platform = cal.value("platform", "platform");
    fs::path out = o.out;
    if (out.empty()) {
        out = default_out("calibration-" + suite, platform);
        fs::create_directories(out.parent_path());
    }
    std::vector<fs::path> inputs(o.from.begin(), o.from.end());
    if (!o.suite_file.empty()) inputs.emplace_back(o.suite_file);
    check_output(out, "--out", inputs);
    write_json(out, cal);
    print_calibration(std::cout, cal);
    std::cout << "calibration: " << out.string() << " (compare and run --baseline-plugins take --calibration "
              << out.string() << ")\n";
    if (!temporary.empty()) fs::remove_all(temporary);
    return exit_ok;
}

} // namespace

void add_calibrate_command(CLI::App& app, command_list& commands)
{
    auto o = std::make_shared<calibrate_options>();
    calibrate_options& co = *o;
    auto* cmd = app.add_subcommand(
        "calibrate", "Calibrate the regression gate on this device: A/A rounds of this build against a copy of itself");
    cmd->add_option("suite", co.suite_file, "suite file, e.g. suites/regression.toml")->check(a_path);
    cmd->add_option("--runs", co.runs, "A/A rounds, each an A/B run of the whole suite")
        ->capture_default_str()
        ->check(integer(2, 1000));
    cmd->add_option("--from", co.from,
                    "calibrate from these results of A/A runs made before (run --baseline-plugins COPY "
                    "--ignore-code-digest, COPY a copy of the same build) instead of running rounds")
        ->check(a_path);
    cmd->add_option("--out", co.out,
                    "the calibration file (JSON); default wavebench-results/calibration-<suite>-<platform>-<time>.json")
        ->check(a_path);
    cmd->add_option("--rounds-dir", co.rounds_dir,
                    "keep each round's results and output in DIR (default: a temporary folder, removed at the end)")
        ->check(a_path);
    cmd->add_option("--filter", co.filter, "calibrate only family/variant names matching this glob");
    cmd->add_option("--alpha", co.cal.alpha, "the gate's significance level (as compare's --alpha)")
        ->capture_default_str()
        ->check(real(1e-9, 0.5));
    cmd->add_option_function<double>(
           "--false-alarm", [&co](double pct) { co.cal.false_alarm = pct / 100; },
           "the false alarms per configuration and run, in %, that a configuration's least threshold allows")
        ->default_str("0.1")
        ->check(real(1e-6, 50));
    add_platform_options(cmd, co.platform);
    add_in_process(cmd, co.platform);
    add_settings_overrides(cmd, co.overrides);
    commands.push_back({cmd, [o] { return calibrate_command(*o); }});
}

} // namespace wb
