#!/usr/bin/env python3
"""How `wavebench run` scales with the number of configurations: a tiny suite (reduce/atomic, one
repetition, no warm-up; n = 1, 2, ... times 4 block sizes) of each size N given, run on the cpu
platform with --no-ceilings, and its wall time and the bytes the harness wrote (wchar of
/proc/PID/io, read as it exits, its workers' included) printed as a Markdown row.
  tools/run-scaling.py [--wavebench BIN] N [N ...]      e.g. tools/run-scaling.py 1000 10000
(results/cpu/run-scaling.md records what it measured)"""
import argparse
import os
import shutil
import subprocess
import tempfile
import time

BLOCK_SIZES = [32, 64, 128, 256]


def suite(n_configs):
    ns = ", ".join(str(n) for n in range(1, n_configs // len(BLOCK_SIZES) + 1))
    return (f'[suite]\nname = "scaling-{n_configs}"\nrepetitions = 1\nwarmup = 0\nseed = 1\n\n'
            f'[[benchmark]]\nfamily = "reduce"\nvariants = ["atomic"]\nblock_size = {BLOCK_SIZES}\nn = [{ns}]\n')


def measure(wavebench, n_configs, folder):
    path = os.path.join(folder, f"scaling-{n_configs}.toml")
    with open(path, "w") as f:
        f.write(suite(n_configs))
    out = os.path.join(folder, f"scaling-{n_configs}.json")
    start = time.monotonic()
    p = subprocess.Popen([wavebench, "run", path, "--platform", "cpu", "--no-ceilings", "--no-history", "--out",
                          out], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    p.stderr.read()
    os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOWAIT)  # exited, not yet reaped: /proc still has it
    seconds = time.monotonic() - start
    with open(f"/proc/{p.pid}/io") as f:
        wchar = int(next(line for line in f if line.startswith("wchar:")).split()[1])
    if p.wait() != 0:
        raise SystemExit(f"wavebench run of {n_configs} configurations exited {p.returncode}")
    return seconds, wchar, os.path.getsize(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--wavebench", default=os.path.join(os.path.dirname(__file__), "..", "build", "bin", "wavebench"))
    ap.add_argument("configs", type=int, nargs="+")
    a = ap.parse_args()
    folder = tempfile.mkdtemp(prefix="wavebench-scaling-")
    try:
        print("| configurations | seconds | bytes written | results file |\n|---:|---:|---:|---:|")
        for n in a.configs:
            seconds, wchar, size = measure(a.wavebench, n, folder)
            print(f"| {n} | {seconds:.1f} | {wchar:,} | {size:,} |", flush=True)
    finally:
        shutil.rmtree(folder, True)


if __name__ == "__main__":
    main()
