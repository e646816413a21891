#!/usr/bin/env bash
# The regression gate's study on a GPU machine, over a build carried from the development machine
# (build/bin, build/lib, build/plugins, build/tests/paced-plugins). Each step named runs N times and
# leaves its results JSON and console output under $OUT/study/; tools/regression-study.py then
# counts the verdicts (results/h100/regression-ab.md is what it gave).
#   tools/regression-study.sh N STEP...        (N: runs 1 to N; FIRST:LAST numbers them FIRST to LAST)
# Steps:
#   ab-same    suites/regression.toml, an A/B run of this build against a copy of itself, at 2%
#              (the same code: its times judged with --ignore-code-digest, as in base-same)
#   ab-paced   reduce/test_paced built 1, 2 and 5% slower against its 0% build, A/B at 2%
#   base-same  the suite once as a baseline, then N runs each compared with it at 2% (`compare`)
#   base-paced the 0% build once as a baseline, then the 1, 2, 5% builds N times each, compared at 2%
#   energy     the suite once with --energy (telemetry is in every result)
#   lock       tools/lock-clocks-check.sh (the clocks after a locked run stopped by SIGTERM)
set -uo pipefail
cd "$(dirname "$0")/.."
first=1 last=$1
[[ $1 == *:* ]] && first=${1%:*} last=${1#*:}
shift
out=${OUT:-/tmp/wavebench-study}/study
mkdir -p "$out"
wb=build/bin/wavebench
suite=suites/regression.toml
paced=build/tests/paced-plugins
base=$(mktemp -d)
cp -r build/plugins/nvidia "$base/same"
cp -r $paced/pct0/nvidia "$base/pct0"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem,power.limit \
    --format=csv >"$out/device.txt" 2>&1
$wb --version >>"$out/device.txt"

# timed NAME ARGS...: one wavebench command, its console output and wall time kept.
timed() {
    local name=$1 t0
    shift
    t0=$(date +%s%N)
    $wb "$@" >"$out/$name.txt" 2>&1
    local status=$? ms=$((($(date +%s%N) - t0) / 1000000))
    echo "$name exit $status wall $((ms / 1000)).$(printf %03d $((ms % 1000))) s" | tee -a "$out/steps.txt"
}

for step in "$@"; do
    case $step in
    ab-same)
        for i in $(seq "$first" "$last"); do
            timed "ab-same-$i" run $suite --platform nvidia --no-history --baseline-plugins "$base/same" \
                --threshold 2 --ignore-code-digest --out "$out/ab-same-$i.json"
        done ;;
    ab-paced)
        for pct in 1 2 5; do
            for i in $(seq "$first" "$last"); do
                timed "ab-pct$pct-$i" run $suite --platform nvidia --no-history --filter 'reduce/test_paced' \
                    --plugins $paced/pct$pct --baseline-plugins "$base/pct0" --threshold 2 \
                    --out "$out/ab-pct$pct-$i.json"
            done
        done ;;
    base-same)
        timed base-same-0 run $suite --platform nvidia --no-history --out "$out/base-same-0.json"
        for i in $(seq "$first" "$last"); do
            timed "base-same-$i" run $suite --platform nvidia --no-history --out "$out/base-same-$i.json"
            $wb compare "$out/base-same-0.json" "$out/base-same-$i.json" --threshold 2 --ignore-code-digest \
                --format json >"$out/base-same-$i.compare.json" 2>/dev/null
        done ;;
    base-paced)
        timed base-pct0 run $suite --platform nvidia --no-history --filter 'reduce/test_paced' \
            --plugins $paced/pct0 --out "$out/base-pct0.json"
        for pct in 1 2 5; do
            for i in $(seq "$first" "$last"); do
                timed "base-pct$pct-$i" run $suite --platform nvidia --no-history --filter 'reduce/test_paced' \
                    --plugins $paced/pct$pct --out "$out/base-pct$pct-$i.json"
                $wb compare "$out/base-pct0.json" "$out/base-pct$pct-$i.json" --threshold 2 --format json \
                    >"$out/base-pct$pct-$i.compare.json" 2>/dev/null
            done
        done ;;
    energy)
        timed energy run $suite --platform nvidia --no-history --energy --out "$out/energy.json" ;;
    lock)
        OUT=$out tools/lock-clocks-check.sh 15 >"$out/lock.txt" 2>&1 ;;
    *)
        echo "unknown step $step" >&2
        exit 2 ;;
    esac
done
