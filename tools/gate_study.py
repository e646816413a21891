#!/usr/bin/env python3
"""The regression gate's study on a GPU (docs/compare.md, "How often the gate is wrong"): how often
identical code is flagged, and whether planted slowdowns are, on the device at hand.

  tools/gate_study.py BUILD OUT [--platform nvidia] [--phases calibrate,same,plants] ...

Phases, each writing under OUT:
  calibrate  `wavebench calibrate SUITE --runs N`: OUT/calibration.json and its rounds (OUT/calibrate/)
  same       N A/B runs of SUITE, this build against a copy of itself (identical code, the digest
             rule off), each judged at 1% and 2% (`compare RUN --threshold T`, with --calibration
             where given or made by the calibrate phase): OUT/same/
  skip       one plugin changed, the rest copies: the A/B run with --skip-same-code and without
  plants     A/B runs of reduce/test_paced (tests/regression/paced), the pct0 build against builds
             that wait a share of their time: the change each measured and whether it was flagged
             at 1% and 2%: OUT/plants/
OUT/summary.json and OUT/summary.md hold what the phases found. Only the standard library is used,
so it runs where the build was carried (a GPU machine with no Debian packages)."""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

THRESHOLDS = (1, 2)
PLANT_SUITE = """[suite]
name = "gate-plants"
repetitions = 30
warmup = 5
min_time_s = 0.05
max_samples = 400
seed = 2026

[[benchmark]]
family = "reduce"
variants = ["test_paced"]
n = [16777216, 67108864]
"""


def wavebench(build, *args, log=None, timeout=None):
    exe = os.path.join(build, "bin", "wavebench")
    t0 = time.time()
    with open(log, "w") if log else open(os.devnull, "w") as out:
        r = subprocess.run([exe, *args], stdout=out, stderr=subprocess.STDOUT, timeout=timeout)
    return r.returncode, time.time() - t0


def judged(build, results, threshold, calibration, log, fdr=None):
    """The A/B run `results` judged again at `threshold` % (with a calibration, or --fdr): compare's JSON."""
    args = ["compare", results, "--threshold", str(threshold), "--ignore-code-digest", "--format", "json",
            "--fail-on", "none"]
    if calibration:
        args += ["--calibration", calibration]
    if fdr:
        args += ["--fdr", str(fdr)]
    exe = os.path.join(build, "bin", "wavebench")
    r = subprocess.run([exe, *args], capture_output=True, text=True)
    with open(log, "a") as f:
        f.write(r.stderr)
    if r.returncode not in (0, 1):
        raise SystemExit("compare failed: " + r.stderr)
    return json.loads(r.stdout)


def flagged(cmp):
    return [c for c in cmp["configurations"] if c["verdict"] in ("slower", "faster")]


def name(c):
    return "%s/%s %s" % (c["family"], c["variant"], " ".join("%s=%s" % kv for kv in sorted(c["params"].items())))


def copy_plugins(src, dst):
    os.makedirs(dst, exist_ok=True)
    for f in os.listdir(src):
        if f.endswith(".so"):
            shutil.copy2(os.path.join(src, f), dst)
    return dst


def phase_calibrate(a, summary):
    code, secs = wavebench(a.build, "calibrate", a.suite, "--runs", str(a.calibrate_runs), "--platform", a.platform,
                           "--rounds-dir", os.path.join(a.out, "calibrate"), "--out",
                           os.path.join(a.out, "calibration.json"), log=os.path.join(a.out, "calibrate.log"))
    summary["calibrate"] = {"exit": code, "seconds": round(secs, 1), "runs": a.calibrate_runs}
    if code == 0:
        a.calibration = a.calibration or os.path.join(a.out, "calibration.json")


def phase_same(a, summary):
    d = os.path.join(a.out, "same")
    os.makedirs(d, exist_ok=True)
    copy = copy_plugins(os.path.join(a.build, "plugins", a.platform), os.path.join(d, "copy", a.platform))
    runs = []
    for i in range(1, a.ab_runs + 1):
        res = os.path.join(d, "ab-%d.json" % i)
        code, secs = wavebench(a.build, "run", a.suite, "--platform", a.platform, "--baseline-plugins", copy,
                               "--ignore-code-digest", "--threshold", "2", "--fail-on", "none", "--no-history",
                               "--no-ceilings", "--out", res, log=os.path.join(d, "ab-%d.log" % i))
        entry = {"run": i, "exit": code, "seconds": round(secs, 1)}
        if os.path.exists(res):
            ways = [(None, None, ""), (None, 0.05, "_fdr")] + ([(a.calibration, None, "_calibrated")] if a.calibration else [])
            for t in THRESHOLDS:
                for cal, fdr, suffix in ways:
                    cmp = judged(a.build, res, t, cal, os.path.join(d, "compare.log"), fdr)
                    key = "at_%d%s" % (t, suffix)
                    entry[key] = [{"config": name(c), "verdict": c["verdict"], "change": c["change"],
                                   "ci": c["ci"], "p": c["p_value"]} for c in flagged(cmp)]
                    entry["configs"] = len(cmp["configurations"])
                    entry["counts"] = cmp["counts"]
        runs.append(entry)
        print("same build, run %d: %s" % (i, {k: len(v) for k, v in entry.items() if k.startswith("at_")}),
              flush=True)
    summary["same"] = runs


def phase_plants(a, summary):
    d = os.path.join(a.out, "plants")
    os.makedirs(d, exist_ok=True)
    suite = os.path.join(d, "plants.toml")
    with open(suite, "w") as f:
        f.write(PLANT_SUITE)
    paced = os.path.join(a.build, "tests", "paced-plugins")
    base = copy_plugins(os.path.join(paced, "pct0", a.platform), os.path.join(d, "base", a.platform))
    out = {}
    for plant in a.plants.split(","):
        rows = []
        for i in range(1, a.plant_runs + 1):
            res = os.path.join(d, "%s-%d.json" % (plant, i))
            code, secs = wavebench(a.build, "run", suite, "--platform", a.platform, "--plugins",
                                   os.path.join(paced, plant), "--baseline-plugins", base, "--threshold", "2",
                                   "--fail-on", "none", "--no-history", "--no-ceilings", "--out", res,
                                   log=os.path.join(d, "%s-%d.log" % (plant, i)))
            if not os.path.exists(res):
                rows.append({"run": i, "exit": code})
                continue
            row = {"run": i, "exit": code, "seconds": round(secs, 1)}
            for t in THRESHOLDS:
                cmp = judged(a.build, res, t, None, os.path.join(d, "compare.log"))
                row["at_%d" % t] = [{"config": name(c), "verdict": c["verdict"], "change": c["change"],
                                     "ci": c["ci"]} for c in cmp["configurations"]]
            rows.append(row)
        out[plant] = rows
        print("plant %s: %d runs" % (plant, len(rows)), flush=True)
    summary["plants"] = out


def phase_skip(a, summary):
    """One plugin changed (reduce/test_paced: pct0 in the base build, pct2 in this one), the rest
    copies: the run with --skip-same-code and without, their exit statuses and what each measured."""
    d = os.path.join(a.out, "skip")
    os.makedirs(d, exist_ok=True)
    paced = os.path.join(a.build, "tests", "paced-plugins")
    base = copy_plugins(os.path.join(a.build, "plugins", a.platform), os.path.join(d, "base", a.platform))
    copy_plugins(os.path.join(paced, "pct0", a.platform), base)
    out = {}
    for mode, extra in (("skip", ["--skip-same-code"]), ("full", [])):
        res = os.path.join(d, "%s.json" % mode)
        code, secs = wavebench(a.build, "run", a.suite, "--platform", a.platform, "--plugins",
                               os.path.join(paced, "pct2"), "--baseline-plugins", base, "--threshold", "2",
                               "--no-history", "--no-ceilings", "--out", res, *extra,
                               log=os.path.join(d, "%s.log" % mode))
        entry = {"exit": code, "seconds": round(secs, 1)}
        if os.path.exists(res):
            with open(res) as f:
                doc = json.load(f)
            entry["measured"] = [name(r) for r in doc["results"] if r["samples_ms"]]
            entry["counts"] = doc["ab"]["comparison"]["counts"]
            entry["regressions"] = doc["ab"]["comparison"]["regressions"]
        out[mode] = entry
        print("skip phase, %s: exit %d, %.0f s" % (mode, code, secs), flush=True)
    summary["skip"] = out


def markdown(summary):
    lines = ["# Gate study", "", "device: %s; commit %s; %s" % (summary["device"], summary["commit"], summary["date"]),
             ""]
    if "same" in summary:
        lines += ["## Same build against a copy of itself", "",
                  "| run | seconds | flagged at 1% | at 2% | at 1%, calibrated | at 2%, calibrated | at 1%, --fdr 0.05 |",
                  "|---|---|---|---|---|---|---|"]
        for r in summary["same"]:
            cell = lambda k: ", ".join("%s %s %+.2f%%" % (f["config"], f["verdict"], 100 * f["change"])
                                       for f in r.get(k, [])) or "none"
            lines.append("| %d | %s | %s | %s | %s | %s | %s |" % (r["run"], r.get("seconds"), cell("at_1"), cell("at_2"),
                                                              cell("at_1_calibrated"), cell("at_2_calibrated"),
                                                              cell("at_1_fdr")))
        lines.append("")
    if "plants" in summary:
        lines += ["## Plants (reduce/test_paced, pct0 against the build named)", "",
                  "| plant | configuration | changes measured | flagged at 1% | at 2% |", "|---|---|---|---|---|"]
        for plant, rows in summary["plants"].items():
            configs = {}
            for r in rows:
                for t in THRESHOLDS:
                    for c in r.get("at_%d" % t, []):
                        e = configs.setdefault(c["config"], {"changes": [], 1: 0, 2: 0})
                        if t == 1:
                            e["changes"].append(c["change"])
                        e[t] += c["verdict"] == "slower"
            for cfg, e in configs.items():
                ch = sorted(e["changes"])
                lines.append("| %s | %s | %+.2f%% to %+.2f%% (median %+.2f%%) | %d/%d | %d/%d |" % (
                    plant, cfg, 100 * ch[0], 100 * ch[-1], 100 * ch[len(ch) // 2], e[1], len(ch), e[2], len(ch)))
        lines.append("")
    if "skip" in summary:
        lines += ["## One plugin changed (test_paced pct0 -> pct2), the rest copies", "",
                  "| run | exit | seconds | configurations measured | verdicts |", "|---|---|---|---|---|"]
        for mode, e in summary["skip"].items():
            counts = ", ".join("%d %s" % (v, k) for k, v in sorted(e.get("counts", {}).items()) if v)
            lines.append("| %s | %s | %s | %d | %s |" % ("--skip-same-code" if mode == "skip" else "full", e["exit"],
                                                      e["seconds"], len(e.get("measured", [])), counts))
        lines.append("")
    return "\n".join(lines)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("build")
    p.add_argument("out")
    p.add_argument("--platform", default="nvidia")
    p.add_argument("--suite", default="suites/regression.toml")
    p.add_argument("--phases", default="calibrate,same,plants")
    p.add_argument("--calibrate-runs", type=int, default=5)
    p.add_argument("--ab-runs", type=int, default=10)
    p.add_argument("--plants", default="pct1_5,pct2")
    p.add_argument("--plant-runs", type=int, default=10)
    p.add_argument("--calibration", help="a calibration file for the same phase (else the calibrate phase's)")
    p.add_argument("--commit", default="?")
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    summary = {"commit": a.commit, "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "device": "?"}
    try:
        smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True)
        summary["device"] = smi.stdout.strip() or a.platform
    except OSError:
        summary["device"] = a.platform
    phases = {"calibrate": phase_calibrate, "same": phase_same, "plants": phase_plants, "skip": phase_skip}
    for ph in a.phases.split(","):
        t0 = time.time()
        phases[ph](a, summary)
        print("phase %s: %.0f s" % (ph, time.time() - t0), flush=True)
        with open(os.path.join(a.out, "summary.json"), "w") as f:
            json.dump(summary, f, indent=1)
        with open(os.path.join(a.out, "summary.md"), "w") as f:
            f.write(markdown(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
