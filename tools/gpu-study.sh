#!/usr/bin/env bash
# Runs on the GPU machine over a build carried from the development machine (build/bin, build/lib,
# build/plugins): the device, the probe, and each suite named, everything written under $OUT.
# Each kernel's AMD figures at the launch it ran with come along (--amd-static) from build/plugins/amd.
#   tools/gpu-study.sh [--reprobe] SUITE...     e.g. tools/gpu-study.sh reduce-gpu
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/wavebench-study}
mkdir -p "$out"
wb=build/bin/wavebench
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem,power.limit --format=csv \
    >"$out/device.txt" 2>&1
$wb --version >>"$out/device.txt"
$wb probe --platform nvidia --out "$out/probe.json" 2>&1 | tee "$out/probe.txt"
for suite in "$@"; do
    $wb run "suites/$suite.toml" --platform nvidia --amd-static --out "$out/$suite.json" 2>&1 | tee "$out/$suite.txt"
done
