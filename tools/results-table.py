#!/usr/bin/env python3
"""Markdown summary of a wavebench results JSON: for each problem (the family parameters: rows
that share their datasets' seeds), each variant's fastest verified configuration, then each
variant's speedup over the family's baseline across the problems.
Usage: tools/results-table.py RESULTS.json [PROBE.json] > TABLE.md"""
import json
import sys


def fmt_ms(ms):
    return f"{ms * 1e3:.1f} us" if ms < 1 else f"{ms:.3f} ms"


def problems(results):
    """Rows grouped by problem: the runner derives the seeds from the family parameters, so rows
    with the same seeds ran the same problem. The family parameters are the keys every row of the
    family has and that never vary inside a problem; a problem is named by them."""
    groups = {}
    for r in results:
        groups.setdefault((r["family"], tuple(r["seeds"])), []).append(r)
    keys = {}
    for (family, _), rows in groups.items():
        common = set.intersection(*(set(r["params"]) for r in rows))
        constant = {k for k in common if len({json.dumps(r["params"][k]) for r in rows}) == 1}
        keys[family] = keys.get(family, constant) & constant
    out = [(family, {k: rows[0]["params"][k] for k in keys[family]}, rows) for (family, _), rows in groups.items()]
    return sorted(out, key=lambda g: (g[0], sorted(g[1].items())))


def label(shared):
    return " ".join(f"{k}={v:,}" if isinstance(v, int) else f"{k}={v}" for k, v in sorted(shared.items()))


def fastest(rows):
    best = {}
    for r in rows:
        if r["verified"] and (r["variant"] not in best or r["time_ms"] < best[r["variant"]]["time_ms"]):
            best[r["variant"]] = r
    return best


def baseline_of(rows):
    """The family's baseline variant: the one whose runs carry a speedup of exactly 1 over themselves."""
    for r in rows:
        if r["speedup_vs_baseline"] is not None and abs(r["speedup_vs_baseline"] - 1) < 1e-12:
            return r["variant"]
    return None


def speedup(best, base, r):
    """Against the baseline's fastest configuration of the same problem, across the suite's benchmarks;
    with the family's models' predictions in brackets where it has them (converge: the SIMD-step
    model, then the overhead-aware one)."""
    if base not in best:
        return "-"
    models = [f"{r[k]:.2f}" for k in ("model_speedup", "model_issue_speedup") if r.get(k) is not None]
    model = f" ({' / '.join(models)})" if models else ""
    return f"{best[base]['time_ms'] / r['time_ms']:.2f}{model}"


def amd_cell(kernel, targets):
    """The kernel's AMD figures at the launch it ran with: VGPRs and waves per SIMD over the maximum, per target."""
    by = {a["target"]: a for a in (kernel or {}).get("amd_static") or []}
    cells = []
    for t in targets:
        a = by.get(t)
        occ = a and a.get("occupancy")
        cells.append(f"{a['vgprs']}, {occ['waves_per_simd']}/{occ['max']}" + (f" ({occ['limiter']})" if occ['waves_per_simd'] < occ['max'] else "")
                     if occ else "-")
    return " · ".join(cells)


def main():
    doc = json.load(open(sys.argv[1]))
    probe = json.load(open(sys.argv[2])) if len(sys.argv) > 2 else None
    dev = doc["device"]
    spec = dev.get("spec_bandwidth_gbs") or 0
    print(f"# {doc['suite']['name']} on {dev['name']}\n")
    print(f"- device: {dev['name']} ({dev['arch']}, {dev['multiprocessors']} multiprocessors, "
          f"{dev['memory_bytes'] / 2**30:.0f} GiB)" +
          (f"; spec bandwidth {spec:.0f} GB/s (memory clock x bus width)" if spec else ""))
    print(f"- run: {doc['started']}, wavebench {doc['tool_version']}, platform {doc['platform']}, "
          f"`{doc['command']}`")
    s = doc["suite"]
    runs = sum(r.get("runs", 0) for r in doc["results"])
    checked = (f"every run from a poisoned output, {sum(r['runs_checked'] for r in doc['results'])} of {runs} runs "
               f"compared with the reference" if runs else "every run verified against the reference")
    print(f"- measurement: median of at least {s['repetitions']} runs and {s['min_time_s']} s after {s['warmup']} "
          f"warm-up runs; {checked}")
    for name, c in sorted(doc["ceilings"].items()):
        print(f"- ceiling `{name}`: {c['value']:.1f} {c['unit']} ({c['what']}, {c['measured']})")
    if probe:
        d = probe["details"]
        if "read_vs_spec" in d:
            print(f"- probe: read kernel at {100 * d['read_vs_spec']:.1f}% of spec; "
                  f"{d['imad_per_clock_per_multiprocessor']:.1f} int32 multiply-adds per clock per multiprocessor")

    groups = problems(doc["results"])
    for family, shared, rows in groups:
        best = fastest(rows)
        if not best:
            continue
        any_r = next(iter(best.values()))
        unit = any_r["metric"]["unit"]
        bandwidth = unit == "GB/s" and spec > 0
        library = any(r["speedup_vs_library"] for r in best.values())
        base = baseline_of(rows)
        mib = 4 * shared.get("n", 0) / 2**20
        size = (f" int32 ({mib:.0f} MiB)" if mib >= 10 else f" int32 ({mib:.3g} MiB)") if "n" in shared else ""
        print(f"\n## {family} {label(shared)}{size}: each variant's fastest configuration\n")
        targets = sorted({a["target"] for r in best.values() for k in r["kernels"] for a in (k.get("amd_static") or [])})
        head = ["variant", "best configuration", "time", "wall", unit] + (["of spec"] if bandwidth else []) + \
            ["of ceiling", f"x {base or 'baseline'}"] + (["x library"] if library else []) + ["regs", "occupancy"] + \
            ([f"AMD at this launch: VGPRs, waves/SIMD ({', '.join(targets)})"] if targets else [])
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for r in sorted(best.values(), key=lambda r: r["time_ms"]):
            cfg = " ".join(f"{k}={v}" for k, v in sorted(r["params"].items()) if k not in shared) or "-"
            k = r["kernels"][0] if r["kernels"] else None
            occ = f"{k['occupancy']['value']:g}/{k['occupancy']['max']:g} ({k['limiter']})" if k and k["occupancy"] else "-"
            regs = str(k["registers"]) if k and k["registers"] is not None else "-"
            v = r["metric"]["value"]
            frac = f"{100 * r['fraction_of_ceiling']:.1f}%" if r["fraction_of_ceiling"] is not None else "-"
            cells = [r["variant"], cfg, fmt_ms(r["time_ms"]), fmt_ms(r["wall_ms"]), f"{v:.0f}" if v >= 100 else f"{v:.3g}"] + \
                ([f"{100 * v / spec:.1f}%"] if bandwidth else []) + \
                [frac, speedup(best, base, r)] + \
                ([f"{r['speedup_vs_library'] or 0:.2f}"] if library else []) + [regs, occ] + \
                ([amd_cell(k, targets)] if targets else [])
            print("| " + " | ".join(cells) + " |")

    # Speedup over the baseline of each variant's fastest configuration, one row per problem.
    for family in sorted({g[0] for g in groups}):
        fam = [g for g in groups if g[0] == family and fastest(g[2])]
        variants = sorted({v for g in fam for v in fastest(g[2])})
        if len(fam) < 2:
            continue
        modelled = any(r.get("model_speedup") is not None for g in fam for r in g[2])
        print(f"\n## {family}: each variant's fastest configuration, time relative to the baseline's (x faster)"
              + (", the models' predictions in brackets (SIMD-step / overhead-aware)" if modelled else "") + "\n")
        print("| problem | " + " | ".join(variants) + " |")
        print("|---|" + "---|" * len(variants))
        for _, shared, rows in fam:
            best = fastest(rows)
            base = baseline_of(rows)
            print(f"| {label(shared)} | " + " | ".join(speedup(best, base, best[v]) if v in best else "-"
                                                      for v in variants) + " |")

    bad = [r for r in doc["results"] if not r["verified"]]
    print(f"\n{len(doc['results']) - len(bad)} of {len(doc['results'])} configurations verified"
          + (f"; not verified: {', '.join(r['variant'] for r in bad)}" if bad else "") + ".")


main()
