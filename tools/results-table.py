#!/usr/bin/env python3
"""Markdown summary of a wavebench results JSON: for each problem size, each variant's fastest
verified configuration. Usage: tools/results-table.py RESULTS.json [PROBE.json] > TABLE.md"""
import json
import sys


def fmt_ms(ms):
    return f"{ms * 1e3:.1f} us" if ms < 1 else f"{ms:.3f} ms"


def main():
    doc = json.load(open(sys.argv[1]))
    probe = json.load(open(sys.argv[2])) if len(sys.argv) > 2 else None
    dev = doc["device"]
    spec = dev.get("spec_bandwidth_gbs") or 0
    print(f"# {doc['suite']['name']} on {dev['name']}\n")
    print(f"- device: {dev['name']} ({dev['arch']}, {dev['multiprocessors']} multiprocessors, "
          f"{dev['memory_bytes'] / 2**30:.0f} GiB); spec bandwidth {spec:.0f} GB/s (memory clock x bus width)")
    print(f"- run: {doc['started']}, wavebench {doc['tool_version']}, platform {doc['platform']}, "
          f"`{doc['command']}`")
    s = doc["suite"]
    print(f"- measurement: median of at least {s['repetitions']} runs and {s['min_time_s']} s after {s['warmup']} "
          f"warm-up runs, every run verified against the reference")
    for name, c in sorted(doc["ceilings"].items()):
        print(f"- ceiling `{name}`: {c['value']:.1f} {c['unit']} ({c['what']}, {c['measured']})")
    if probe:
        d = probe["details"]
        if "read_vs_spec" in d:
            print(f"- probe: read kernel at {100 * d['read_vs_spec']:.1f}% of spec; "
                  f"{d['imad_per_clock_per_multiprocessor']:.1f} int32 multiply-adds per clock per multiprocessor")
    sizes = sorted({r["params"]["n"] for r in doc["results"]})
    for n in sizes:
        rows = [r for r in doc["results"] if r["params"]["n"] == n and r["verified"]]
        best = {}
        for r in rows:
            if r["variant"] not in best or r["time_ms"] < best[r["variant"]]["time_ms"]:
                best[r["variant"]] = r
        print(f"\n## n = {n:,} int32 ({4 * n / 2**20:.0f} MiB): each variant's fastest configuration\n")
        print("| variant | best configuration | time | wall | GB/s | of spec | x atomic | x library | regs | occupancy |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for r in sorted(best.values(), key=lambda r: r["time_ms"]):
            cfg = " ".join(f"{k}={v}" for k, v in sorted(r["params"].items()) if k != "n") or "-"
            k = r["kernels"][0] if r["kernels"] else None
            occ = f"{k['occupancy']['value']:g}/{k['occupancy']['max']:g} ({k['limiter']})" if k and k["occupancy"] else "-"
            regs = str(k["registers"]) if k and k["registers"] is not None else "-"
            gbs = r["metric"]["value"]
            print(f"| {r['variant']} | {cfg} | {fmt_ms(r['time_ms'])} | {fmt_ms(r['wall_ms'])} | {gbs:.0f} | "
                  f"{100 * gbs / spec:.1f}% | {r['speedup_vs_baseline']:.2f} | "
                  f"{r['speedup_vs_library'] or 0:.2f} | {regs} | {occ} |")
    bad = [r for r in doc["results"] if not r["verified"]]
    print(f"\n{len(doc['results']) - len(bad)} of {len(doc['results'])} configurations verified"
          + (f"; not verified: {', '.join(r['variant'] for r in bad)}" if bad else "") + ".")


main()
