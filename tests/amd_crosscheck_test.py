#!/usr/bin/env python3
"""Cross-check of `wavebench inspect` against the compiler's own account: for every plugin source
and AMD target, the VGPRs, AGPRs, SGPRs, LDS, scratch and spills that inspect reads from the
built .so equal what `hipcc -Rpass-analysis=kernel-resource-usage` prints for the same source.
Usage: amd_crosscheck_test.py BUILD_DIR SOURCE_DIR HIPCC TARGET..."""
import concurrent.futures
import glob
import json
import os
import re
import subprocess
import sys

import wbtest
from wbtest import BUILD, SOURCE

HIPCC, TARGETS = wbtest.ARGS[0], wbtest.ARGS[1:]
REMARK = re.compile(r"remark:\s+(Function Name|SGPRs|VGPRs|AGPRs|ScratchSize \[bytes/lane\]|SGPRs Spill|VGPRs Spill|"
                    r"LDS Size \[bytes/block\]): (\S+) \[-Rpass-analysis")


def remarks(source, target):
    """{kernel symbol: {figure: value}} as the compiler reports them for one target."""
    cmd = [HIPCC, f"--offload-arch={target}", "-std=c++20", "-O3", "-x", "hip", "-c", source, "-o", os.devnull,
           "--cuda-device-only", "-Rpass-analysis=kernel-resource-usage", "-I" + os.path.join(SOURCE, "core", "include")]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{p.stderr[-2000:]}")
    out, current = {}, None
    for key, value in REMARK.findall(p.stderr):
        if key == "Function Name":
            current = out.setdefault(value, {})
        else:
            current[key] = int(value)
    return out


def inspected(so):
    p = wbtest.wb("inspect", so, "--json")
    if p.returncode != 0:
        raise RuntimeError(f"wavebench inspect {so} failed: {p.stderr}")
    by = {}
    for k in json.loads(p.stdout)["files"][0]["kernels"]:
        by.setdefault(k["target"], {})[k["symbol"]] = k
    return by


def check(source, target, from_inspect):
    problems, compiled = [], remarks(source, target)
    got = from_inspect.get(target, {})
    if set(compiled) != set(got):
        return [f"{target}: kernels differ: compiler {sorted(compiled)}, inspect {sorted(got)}"]
    for symbol, r in compiled.items():
        k = got[symbol]
        agprs = r.get("AGPRs", 0)
        # On gfx90a and gfx940 the code object's VGPR count holds the AGPRs too, after the VGPRs
        # rounded up to 4; elsewhere they are counted apart.
        unified = target.startswith(("gfx90a", "gfx94"))
        vgprs = ((r["VGPRs"] + 3) // 4 * 4 + agprs) if unified and agprs else r["VGPRs"]
        want = {"vgprs": vgprs, "agprs": agprs, "sgprs": r["SGPRs"], "static_lds_bytes": r["LDS Size [bytes/block]"],
                "scratch_bytes": r["ScratchSize [bytes/lane]"], "vgpr_spills": r["VGPRs Spill"],
                "sgpr_spills": r["SGPRs Spill"]}
        for figure, value in want.items():
            if k[figure] != value:
                problems.append(f"{target} {symbol}: {figure} is {k[figure]} in inspect, {value} by the compiler")
    return problems


def main():
    sources = sorted(glob.glob(os.path.join(SOURCE, "plugins", "*", "*.hip")))
    assert sources, "no plugin sources"
    jobs, problems, checked = [], [], 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for source in sources:
            family = os.path.basename(os.path.dirname(source))
            so = os.path.join(BUILD, "plugins", "amd", f"{family}_{os.path.basename(source)[:-4]}.so")
            from_inspect = inspected(so)
            for target in TARGETS:
                jobs.append((source, target, pool.submit(check, source, target, from_inspect)))
        for source, target, job in jobs:
            found = job.result()
            checked += 1
            problems += [f"{os.path.relpath(source, SOURCE)}: {p}" for p in found]
    print(f"{checked} plugin x target pairs cross-checked against -Rpass-analysis=kernel-resource-usage")
    for p in problems:
        print("MISMATCH", p)
    sys.exit(1 if problems else 0)


main()
