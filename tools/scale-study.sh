#!/usr/bin/env bash
# A suite's wall time on one GPU against every GPU of the host (run --devices all), and the same
# suite as two shards merged, on a build carried from the development machine (build/bin,
# build/lib, build/plugins). Everything is written under $OUT: device.txt, one.json, all.json,
# merged.json, the console of each run in scale.txt, and scale.json with the wall times.
#   tools/scale-study.sh SUITE|FILE.toml [PLATFORM]      e.g. tools/scale-study.sh regression nvidia
# (WAVEBENCH names another wavebench than build/bin/wavebench)
set -uo pipefail
cd "$(dirname "$0")/.."
suite=${1:?usage: tools/scale-study.sh SUITE [PLATFORM]}
platform=${2:-nvidia}
out=${OUT:-/tmp/wavebench-scale}
mkdir -p "$out"
wb=${WAVEBENCH:-build/bin/wavebench}
case $suite in *.toml) file=$suite ;; *) file=suites/$suite.toml ;; esac
export WAVEBENCH_DB=${WAVEBENCH_DB:-$(mktemp -d)/history.db}
log=$out/scale.txt
: >"$log"
{ nvidia-smi -L 2>&1 || true; $wb --version; } >"$out/device.txt"
# The ceilings are probed (and cached) before anything is timed.
$wb probe --platform "$platform" --out "$(mktemp -d)/probe.json" >>"$log" 2>&1

now() { date +%s.%N; }
timed() { # NAME ARGS...: runs wavebench, appends its console to the log, prints "NAME START END STATUS"
    local name=$1 t0 t1 rc
    shift
    echo "== $name: wavebench $*" >>"$log"
    t0=$(now)
    $wb "$@" >>"$log" 2>&1
    rc=$?
    t1=$(now)
    echo "$name $t0 $t1 $rc"
}

{
    timed one run "$file" --platform "$platform" --device 0 --out "$out/one.json"
    timed all run "$file" --platform "$platform" --devices all --out "$out/all.json"
    shards=$(mktemp -d)
    timed shard1 run "$file" --platform "$platform" --shard 1/2 --out "$shards/1.json"
    timed shard2 run "$file" --platform "$platform" --shard 2/2 --out "$shards/2.json"
    timed merge merge "$shards/1.json" "$shards/2.json" -o "$out/merged.json"
} >"$out/times.txt"
python3 - "$out" "$suite" <<'EOF'
import json, sys
out, suite = sys.argv[1], sys.argv[2]
times = {}
for line in open(f"{out}/times.txt"):
    name, t0, t1, rc = line.split()
    times[name] = {"wall_s": round(float(t1) - float(t0), 3), "exit": int(rc)}
docs = {n: json.load(open(f"{out}/{n}.json")) for n in ("one", "all", "merged")}
summary = {"suite": suite, "tool_version": docs["one"]["tool_version"], "times": times,
           "devices": {n: [d["name"] for d in d_["devices"]] for n, d_ in docs.items()},
           "configs": {n: len(d_["results"]) for n, d_ in docs.items()},
           "verified": {n: sum(r["status"] == "verified" for r in d_["results"]) for n, d_ in docs.items()},
           "per_device": {str(k): sum(r["device_index"] == k for r in docs["all"]["results"])
                          for k in range(len(docs["all"]["devices"]))},
           "speedup_all_over_one": times["one"]["wall_s"] / times["all"]["wall_s"]}
json.dump(summary, open(f"{out}/scale.json", "w"), indent=1)
print(json.dumps(summary, indent=1))
EOF
