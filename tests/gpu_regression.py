#!/usr/bin/env python3
"""The GPU regression suite (`ctest -L gpu`): suites/regression.toml on the GPU present, compared
with the committed baseline of that device (results/<gpu>/regression-baseline.json) by
`wavebench compare`, which fails on `slower`, on a verification failure and on a resource
regression. Exits 77 (a skip, with the reason) without a GPU or without a baseline for it.

  gpu_regression.py BUILD_DIR SOURCE_DIR            run and compare (the test)
  gpu_regression.py BUILD_DIR SOURCE_DIR --refresh  write the baseline of this device anew

The run's results and the comparison (table and JSON) are left in BUILD_DIR/gpu-regression/.
WAVEBENCH_PLUGIN_PATH works as for any run: a directory named there replaces the shipped build
of a variant (the way a variant slowed on purpose, build/tests/slowed-plugins, is tried).

The gate is a change of the median of 10% (WAVEBENCH_REGRESSION_THRESHOLD, in %), not compare's
default 5%: between two processes minutes apart on an H100, the 30 us reductions of the suite
moved by up to 6.4% with tight samples on either side (results/h100/regression.md), a drift of
the machine, not of the code.

With WAVEBENCH_BASELINE_PLUGINS naming a base build's plugin folder (a copy: docs/compare.md, "A/B
runs of two builds"), the suite runs as an A/B run of that build against this one instead
(`run --baseline-plugins`, paired samples in one run) and gates at 2% (the same
WAVEBENCH_REGRESSION_THRESHOLD overrides it); no committed baseline is needed then.

A configuration whose plugin has the same code in both (its code digest) is `same-code`, not judged
by its times; WAVEBENCH_REGRESSION_IGNORE_CODE_DIGEST=1 judges it by them (--ignore-code-digest), for a
study of the noise between a build and its copy."""
import glob
import json
import os
import re
import sys

import wbtest
from wbtest import BUILD, SOURCE

SKIP = 77
REFRESH = "--refresh" in wbtest.ARGS
SUITE = os.path.join(SOURCE, "suites", "regression.toml")
BASE_PLUGINS = os.environ.get("WAVEBENCH_BASELINE_PLUGINS", "")
THRESHOLD = os.environ.get("WAVEBENCH_REGRESSION_THRESHOLD", "2" if BASE_PLUGINS else "10")
OUT = os.path.join(BUILD, "gpu-regression")
CODE = ["--ignore-code-digest"] if os.environ.get("WAVEBENCH_REGRESSION_IGNORE_CODE_DIGEST") == "1" else []


# The output goes to ctest's log unless a call captures it; the user's cache of ceilings, not the tests'.
wb = wbtest.runner(capture=False, cache=None)


def gpu():
    """(platform, device) of the first GPU platform with a device, or None and why not."""
    why = []
    for platform in ("nvidia", "amd"):
        r = wb("list", "--platform", platform, "--json", capture=True)
        doc = json.loads(r.stdout) if r.returncode == 0 else {}
        if doc.get("device"):
            return platform, doc["device"], None
        last = doc.get("device_problem") or (r.stderr.strip().splitlines() or ["exit status %d" % r.returncode])[-1]
        why.append(f"{platform}: {last}")
    return None, None, "; ".join(why)


def folder_name(device):
    """results/<gpu>/: the model in the device's name, e.g. h100, h200, mi300x."""
    m = re.search(r"\b([A-Z]{1,3}\d{2,4}[A-Z]?)\b", device["name"])
    return (m.group(1) if m else re.sub(r"[^A-Za-z0-9]+", "-", device["name"]).strip("-")).lower()


def baseline_for(platform, device):
    for path in sorted(glob.glob(os.path.join(SOURCE, "results", "*", "regression-baseline.json"))):
        with open(path) as f:
            doc = json.load(f)
        if doc.get("platform") == platform and doc.get("device", {}).get("name") == device["name"]:
            return path
    return None


def ab_run(platform):
    """The A/B mode: this build against WAVEBENCH_BASELINE_PLUGINS in one run; run's own exit status
    (0 nothing regressed, 1 slower / failed / resources / missing or a configuration not verified, 2
    bad input). The comparison is left in OUT as compare.txt and compare.json."""
    results = os.path.join(OUT, "results.json")
    print(f"A/B run against the base build in {BASE_PLUGINS} at {THRESHOLD}%:\n", flush=True)
    r = wb("run", SUITE, "--platform", platform, "--no-history", "--out", results, "--baseline-plugins",
           BASE_PLUGINS, "--threshold", THRESHOLD, *CODE, capture=True)
    sys.stdout.write(r.stdout + r.stderr)
    with open(os.path.join(OUT, "compare.txt"), "w") as f:
        f.write(r.stdout)
    if os.path.exists(results):
        with open(results) as f:
            comparison = json.load(f).get("ab", {}).get("comparison")
        with open(os.path.join(OUT, "compare.json"), "w") as f:
            json.dump(comparison, f, indent=2)
    return r.returncode


def main():
    platform, device, why = gpu()
    if not platform:
        print(f"skipped: no GPU here ({why})")
        return SKIP
    os.makedirs(OUT, exist_ok=True)
    if BASE_PLUGINS and not REFRESH:
        return ab_run(platform)
    baseline = baseline_for(platform, device)
    if REFRESH:
        target = baseline or os.path.join(SOURCE, "results", folder_name(device), "regression-baseline.json")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        r = wb("run", SUITE, "--platform", platform, "--no-history", "--out", target)
        print(f"baseline of {device['name']} ({platform}) written: {target}")
        return r.returncode
    if not baseline:
        print(f"skipped: no regression baseline for {device['name']} ({platform}) under results/*/; "
              f"`make regression-baseline` on this machine writes one")
        return SKIP
    results = os.path.join(OUT, "results.json")
    r = wb("run", SUITE, "--platform", platform, "--no-history", "--out", results)
    if r.returncode not in (0, 1):
        print(f"the regression suite did not run (exit status {r.returncode})")
        return 1
    print(f"\ncompared with {os.path.relpath(baseline, SOURCE)}:\n", flush=True)
    table = wb("compare", baseline, results, "--threshold", THRESHOLD, *CODE, capture=True)
    sys.stdout.write(table.stdout + table.stderr)
    with open(os.path.join(OUT, "compare.txt"), "w") as f:
        f.write(table.stdout + table.stderr)
    with open(os.path.join(OUT, "compare.json"), "w") as f:
        f.write(wb("compare", baseline, results, "--threshold", THRESHOLD, *CODE, "--format", "json", capture=True).stdout)
    # compare's own exit status: 0 nothing regressed, 1 slower / failed / resources, 2 bad input.
    return table.returncode if r.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
