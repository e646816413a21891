#!/usr/bin/env bash
# On an NVIDIA GPU machine over a carried build (build/bin, build/lib, build/plugins), as root: the
# regression suite with --lock-clocks --sm-clock MHZ --energy, stopped by SIGTERM part way, and the GPU's clocks
# read by nvidia-smi before, while locked and after: the lock must be gone once wavebench has ended
# (docs/telemetry.md). A clock below the GPU's usual one (1410 MHz unless given) makes the lock
# show in the readings. Everything goes under $OUT (clocks.txt: the three readings to compare).
#   tools/lock-clocks-check.sh [SECONDS_BEFORE_SIGTERM [MHZ]]
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/wavebench-lock-check}
mkdir -p "$out"
clocks() {
    nvidia-smi --query-gpu=pci.bus_id,clocks.sm,clocks.mem,clocks_event_reasons.active,power.draw,temperature.gpu \
        --format=csv,noheader
    nvidia-smi -q -d CLOCK | grep -i -A2 "locked" || true
}
{ echo "before:"; clocks; } | tee "$out/clocks.txt"
build/bin/wavebench run suites/regression.toml --platform nvidia --lock-clocks --sm-clock "${2:-1410}" --energy --no-history \
    --out "$out/regression-locked.json" >"$out/run.txt" 2>&1 &
pid=$!
sleep "${1:-15}"
{ echo "while locked:"; clocks; } | tee -a "$out/clocks.txt"
kill -TERM "$pid"
wait "$pid"
echo "wavebench exit status $? (143: stopped by SIGTERM)" | tee -a "$out/clocks.txt"
{ echo "after:"; clocks; } | tee -a "$out/clocks.txt"
tail -5 "$out/run.txt"
