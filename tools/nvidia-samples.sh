#!/usr/bin/env bash
# Runs the HIP sample programs built for the nvidia platform (build/tests/hip_samples/nvidia, each a
# self-checking program) on the GPU here and prints a record: the device, the date, the commit, then
# each sample's output and exit status. Usage: tools/nvidia-samples.sh [COMMIT] > record.txt
# Build them first where nvcc is (with no GPU there: cmake -DWAVEBENCH_NVIDIA_SAMPLES=ON), and carry
# build/tests/hip_samples/nvidia and build/lib/bundled to the GPU machine.
set -uo pipefail
cd "$(dirname "$0")/.."
dir=build/tests/hip_samples/nvidia
echo "# tests/hip_samples built for nvidia (nvcc, sm_90), run on: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1)"
echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ); commit: ${1:-$(git rev-parse --short HEAD 2>/dev/null)}"
passed=0 failed=0
for s in "$dir"/*; do
    [ -x "$s" ] && [ -f "$s" ] || continue
    name=$(basename "$s") args=()
    case $name in platform_macros) args=(nvidia) ;; warp_sync) args=(syncwarp) ;; scalar_api) args=(tests/hip_samples/scalar_api_gpu.txt) ;; esac
    echo "## $name ${args[*]}"
    timeout 120 "$s" "${args[@]}" 2>&1 | tail -5
    status=${PIPESTATUS[0]}
    echo "exit status: $status"
    [ "$status" = 0 ] && passed=$((passed + 1)) || failed=$((failed + 1))
done
echo "# $passed passed, $failed failed"
