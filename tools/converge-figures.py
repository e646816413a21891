#!/usr/bin/env python3
"""Seed 002's two figures as tables from a paper-convergence results JSON: speedup over the plain
loop against the branch / non-branch instruction ratio, measured and (in brackets) the SIMD-step
model's prediction, then the overhead-aware model's where the results have it.
Usage: tools/converge-figures.py RESULTS.json > TABLES.md"""
import json
import sys


def main():
    doc = json.load(open(sys.argv[1]))
    cells = {}
    for r in doc["results"]:
        if r["family"] != "converge" or not r["verified"]:
            continue
        p = r["params"]
        ratio = p["branch_len"] / p["nonbranch_len"] if p["nonbranch_len"] else float("inf")
        cells[(p["pattern"], p["p"], r["variant"], ratio)] = (r["speedup_vs_baseline"], r["model_speedup"],
                                                             r.get("model_issue_speedup"))
    ratios = sorted({k[3] for k in cells})

    def cell(key):
        if key not in cells:
            return "-"
        measured, model, issue = cells[key]
        return f"{measured:.2f} ({model:.2f}" + (f" / {issue:.2f})" if issue is not None else ")")

    def fmt(x):
        return f"{x:g}"

    both = any(c[2] is not None for c in cells.values())
    models = "SIMD-step / overhead-aware model" if both else "model"
    print(f"Measured speedup over `baseline` ({models} in brackets), {doc['device']['name']}, "
          f"wavebench {doc['tool_version']}, {doc['started'][:10]}.\n")
    print("Fig. 4, loop postpone, random directions (p = 0.5):\n")
    print("| branch / non-branch | postpone_majority | postpone_roundrobin |")
    print("|---|---|---|")
    for x in ratios:
        print(f"| {fmt(x)} | {cell(('random', 0.5, 'postpone_majority', x))} | "
              f"{cell(('random', 0.5, 'postpone_roundrobin', x))} |")
    fractions = sorted({k[1] for k in cells if k[0] == "advanceable"})
    print("\nFig. 5, loop advance, by advanceable fraction:\n")
    print("| branch / non-branch | " + " | ".join(fmt(f) for f in fractions) + " |")
    print("|---|" + "---|" * len(fractions))
    for x in ratios:
        print(f"| {fmt(x)} | " + " | ".join(cell(("advanceable", f, "advance", x)) for f in fractions) + " |")


main()
