#!/usr/bin/env bash
# Hardware counters on an NVIDIA GPU (issue 31), over a build carried from the development machine:
# the GPU, then the regression suite alternately without and with --counters (twice each: the
# plain-against-plain comparison is the noise the counters' comparison is read against), then the
# converge, branch and vgpr studies with --counters. Everything goes under $OUT.
#   tools/counters-study.sh [STEP...]   steps: device same paper branch vgpr (default), or regression
#   (the regression suite with --counters alone)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/wavebench-counters}
mkdir -p "$out"
wb=build/bin/wavebench
steps=${*:-device same paper branch vgpr}
run() { # NAME SUITE ARGS...: a run, its console and its results kept
    local name=$1 suite=$2
    shift 2
    /usr/bin/time -f "$name: %e s wall" $wb run "suites/$suite.toml" --platform nvidia --no-history \
        --out "$out/$name.json" "$@" >"$out/$name.txt" 2>&1
    tail -3 "$out/$name.txt"
}
for step in $steps; do
    case $step in
    device)
        nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv >"$out/device.txt" 2>&1
        $wb --version >>"$out/device.txt" 2>&1
        grep -h RmProfilingAdminOnly /proc/driver/nvidia/params >>"$out/device.txt" 2>&1
        cat "$out/device.txt" ;;
    same)
        for i in 1 2; do
            run "regression-plain-$i" regression
            run "regression-counters-$i" regression --counters
        done
        # One build throughout: the times judged, not the code (--ignore-code-digest).
        $wb compare "$out/regression-plain-1.json" "$out/regression-plain-2.json" --threshold 2 --ignore-code-digest >"$out/compare-plain-plain.txt" 2>&1
        $wb compare "$out/regression-plain-1.json" "$out/regression-counters-1.json" --threshold 2 --ignore-code-digest >"$out/compare-plain-counters-1.txt" 2>&1
        $wb compare "$out/regression-plain-2.json" "$out/regression-counters-2.json" --threshold 2 --ignore-code-digest >"$out/compare-plain-counters-2.txt" 2>&1
        tail -n 4 "$out"/compare-*.txt ;;
    regression) run regression-counters-1 regression --counters ;;
    paper) run paper-convergence-counters paper-convergence --counters ;;
    branch) run branch-counters branch --counters ;;
    vgpr) run vgpr-counters vgpr --counters ;;
    esac
done
# One archive of everything (the device tool brings back only a few files a call).
tar czf /tmp/counters-study.tgz -C "$out" . && mv /tmp/counters-study.tgz "$out/"
