#!/usr/bin/env python3
"""Tables of a counters study (tools/counters-study.sh) for results/<gpu>/counters.md: the converge
model's SIMT efficiency against the measured one, the branch pairs' SIMT efficiency and branch
uniformity, every regression-suite kernel's achieved occupancy against its static figure, and the
compare verdicts of runs with and without --counters.
Usage: counters-table.py STUDY_DIR"""
import json
import os
import sys
from collections import defaultdict


def load(d, name):
    path = os.path.join(d, name)
    return json.load(open(path)) if os.path.exists(path) else None


def pct(x):
    return "-" if x is None else "%.1f%%" % (100 * x)


def params(r, keys):
    return " ".join("%s=%s" % (k, r["params"][k]) for k in keys if k in r["params"])


def converge(d):
    doc = load(d, "paper-convergence-counters.json")
    if not doc:
        return
    rows = [r for r in doc["results"] if r["status"] == "verified" and (r.get("counters") or {}).get("simt_efficiency") is not None
            and r.get("model_simt_efficiency") is not None]
    within = [r for r in rows if abs(r["counters"]["simt_efficiency"] - r["model_simt_efficiency"]) <= 0.05]
    print("### converge (suites/paper-convergence.toml): the model's SIMT efficiency against the counters'\n")
    print("%d of %d rows within 5 points (%.1f%%).\n" % (len(within), len(rows), 100 * len(within) / max(len(rows), 1)))
    print("| variant | rows | within 5 points | measured − model: min | median | max |")
    print("|---|---|---|---|---|---|")
    by = defaultdict(list)
    for r in rows:
        by[r["variant"]].append(100 * (r["counters"]["simt_efficiency"] - r["model_simt_efficiency"]))
    for v, l in by.items():
        l.sort()
        print("| %s | %d | %d | %+.1f | %+.1f | %+.1f |" % (v, len(l), sum(abs(x) <= 5 for x in l), l[0], l[len(l) // 2], l[-1]))
    print("\nThe rows furthest from the model:\n")
    print("| variant | parameters | measured | model |")
    print("|---|---|---|---|")
    far = sorted(rows, key=lambda r: -abs(r["counters"]["simt_efficiency"] - r["model_simt_efficiency"]))[:8]
    for r in far:
        print("| %s | %s | %s | %s |" % (r["variant"], params(r, ["pattern", "p", "branch_len", "nonbranch_len", "relief"]),
                                        pct(r["counters"]["simt_efficiency"]), pct(r["model_simt_efficiency"])))
    print()


def branch(d):
    doc = load(d, "branch-counters.json")
    if not doc:
        return
    print("### branch (suites/branch.toml): each pair's SIMT efficiency and branch uniformity\n")
    print("| variant | distribution | time | simt | branches uniform | achieved occupancy | static |")
    print("|---|---|---|---|---|---|---|")
    for r in doc["results"]:
        c = r.get("counters") or {}
        l = (c.get("launches") or [{}])[0].get("values", {})
        k = (r.get("kernels") or [{}])[0].get("occupancy") or {}
        print("| %s | %s | %.2f us | %s | %s | %s | %s |" % (
            r["variant"], r["params"].get("distribution"), 1000 * (r["time_ms"] or 0), pct(c.get("simt_efficiency")),
            pct(l.get("branch_uniformity")), pct(c.get("achieved_occupancy")),
            pct(k["value"] / k["max"]) if k.get("max") else "-"))
    print()


def occupancy(d, name, title):
    doc = load(d, name)
    if not doc:
        return
    print("### %s: achieved occupancy of every kernel against the static figure\n" % title)
    print("| family/variant | parameters | kernel | static | achieved | note |")
    print("|---|---|---|---|---|---|")
    seen = 0
    for r in doc["results"]:
        c = r.get("counters") or {}
        statics = {k["name"]: k.get("occupancy") for k in r.get("kernels") or []}
        for l in c.get("launches") or []:
            occ = statics.get(l["kernel"]) or {}
            seen += 1
            print("| %s/%s | %s | %s | %s | %s | %s |" % (
                r["family"], r["variant"], " ".join("%s=%s" % kv for kv in sorted(r["params"].items()))[:60],
                l["kernel"][:50], pct(occ["value"] / occ["max"]) if occ.get("max") else "-",
                pct(l["values"].get("achieved_occupancy")), (l.get("note") or "").split(": ", 1)[-1][:90]))
        if r["status"] == "verified" and not c.get("launches"):
            print("| %s/%s | | | | none | %s |" % (r["family"], r["variant"], c.get("skipped") or "no launches"))
    print("\n%d launches.\n" % seen)


def compares(d):
    print("### Does the counters' pass change the timed samples?\n")
    for name in sorted(os.listdir(d)):
        if name.startswith("compare-") and name.endswith(".txt"):
            last = [l for l in open(os.path.join(d, name)).read().splitlines() if l.strip()][-1]
            print("- `%s`: %s" % (name, last))
    print()


def main():
    d = sys.argv[1]
    compares(d)
    converge(d)
    branch(d)
    occupancy(d, "vgpr-counters.json", "vgpr (suites/vgpr.toml)")
    occupancy(d, "regression-counters-1.json", "the regression suite (suites/regression.toml)")


if __name__ == "__main__":
    main()
