#!/usr/bin/env python3
"""Tabulates what tools/regression-study.sh left in one or more study folders (later folders add
runs to earlier ones): the A/B and committed-baseline verdicts per run, the wall times and their
breakdown, the energy and telemetry of the suite, the clocks around a locked run stopped by SIGTERM.
Prints markdown; --json FILE also writes every run's per-configuration verdict, change and interval.
  tools/regression-study.py [--json FILE] STUDY_DIR..."""
import collections
import glob
import json
import os
import re
import statistics
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def rows_of(path):
    """(name, comparison rows, wall seconds or None) of an A/B results file or a compare JSON."""
    doc = load(path)
    if "ab" in doc and isinstance(doc["ab"], dict):
        return doc["ab"]["comparison"]["configurations"], doc.get("wall_time_ms", {}).get("total")
    return doc["configurations"], None


def key(e):
    return e["family"] + "/" + e["variant"] + " " + ",".join(f"{k}={v}" for k, v in sorted(e["params"].items())
                                                          if k in ("n", "kernel", "distribution", "block_size"))


def main(argv):
    out_json = None
    if argv[:1] == ["--json"]:
        out_json, argv = argv[1], argv[2:]
    files = {}
    for d in argv:  # a later folder's file of the same name replaces an earlier one's
        for p in glob.glob(os.path.join(d, "*.json")):
            files[os.path.basename(p)] = p
    record = collections.defaultdict(dict)
    print("| runs | configurations flagged (not `same`) per run | in all | largest change |\n|---|---|---|---|")
    for series, pattern in (("A/B, same build both sides", r"ab-same-(\d+)\.json"),
                            ("committed baseline, same build", r"base-same-(\d+)\.compare\.json")):
        runs = sorted((int(m.group(1)), p) for n, p in files.items() if (m := re.fullmatch(pattern, n)))
        flagged, largest = [], (0, "")
        for i, p in runs:
            rows, _ = rows_of(p)
            record[series][i] = [{"config": key(e), "verdict": e["verdict"], "change": e["change"], "ci": e.get("ci")}
                                 for e in rows]
            flagged.append(sum(e["verdict"] != "same" for e in rows))
            for e in rows:
                if e["change"] is not None and abs(e["change"]) > abs(largest[0]):
                    largest = (e["change"], key(e))
        if runs:
            print(f"| {series}: {len(runs)} | {', '.join(map(str, flagged))} | {sum(flagged)} | "
                  f"{largest[0] * 100:+.2f}% ({largest[1]}) |")
    print("\n| planted slowdown | mode | runs | runs with every size `slower` | with any | change per size: median "
          "(range) | a run's interval |\n|---|---|---|---|---|---|---|")
    for pct in (1, 2, 5):
        for mode, pattern in (("A/B", rf"ab-pct{pct}-(\d+)\.json"), ("baseline", rf"base-pct{pct}-(\d+)\.compare\.json")):
            runs = sorted((int(m.group(1)), p) for n, p in files.items() if (m := re.fullmatch(pattern, n)))
            every = anyone = 0
            changes, interval = collections.defaultdict(list), ""
            for i, p in runs:
                rows, _ = rows_of(p)
                record[f"{mode} pct{pct}"][i] = [{"config": key(e), "verdict": e["verdict"], "change": e["change"],
                                                  "ci": e.get("ci")} for e in rows]
                slower = [e["verdict"] == "slower" for e in rows]
                every += all(slower)
                anyone += any(slower)
                for e in rows:
                    changes[e["params"]["n"]].append(e["change"] * 100)
                    if e.get("ci") and not interval:
                        interval = f"n={e['params']['n']}: {e['change'] * 100:+.2f}% [{e['ci'][0] * 100:+.2f}, {e['ci'][1] * 100:+.2f}]"
            if runs:
                text = "; ".join(f"n={n}: {statistics.median(c):+.2f}% ({min(c):+.2f} to {max(c):+.2f})"
                                 for n, c in sorted(changes.items()))
                print(f"| {pct}% | {mode} | {len(runs)} | {every} | {anyone} | {text} | {interval or '-'} |")
    walls = []
    for n, p in sorted(files.items()):
        if re.fullmatch(r"(base-same-\d+|ab-same-\d+)\.json", n):
            doc = load(p)
            w = doc.get("wall_time_ms") or {}
            parts = w.get("parts") or {}
            walls.append((n, w.get("run"), parts))
    if walls:
        print("\n| run | wall | largest parts |\n|---|---|---|")
        for n, total, parts in walls:
            top = sorted(parts.items(), key=lambda kv: -kv[1])[:5] if isinstance(parts, dict) else []
            print(f"| {n[:-5]} | {total / 1000:.1f} s | " + ", ".join(f"{k} {v / 1000:.1f} s" for k, v in top) + " |")
    if "energy.json" in files:
        doc = load(files["energy.json"])
        per = collections.defaultdict(list)
        throttled = runs = 0
        mhz = []
        for r in doc["results"]:
            e, t = r.get("energy") or {}, r.get("telemetry") or {}
            if e.get("per_unit_j"):
                per[(r["family"], e["unit"])].append(e["per_unit_j"])
            throttled += t.get("throttled") or 0
            runs += t.get("samples") or 0
            if t.get("sm_mhz"):
                mhz.append(t["sm_mhz"]["median"])
        print(f"\nEnergy (--energy) and telemetry of the suite: {runs} measured runs read, {throttled} throttled; "
              f"median SM clock per configuration {min(mhz):.0f} to {max(mhz):.0f} MHz.\n\n| family | energy per unit: "
              "median (range) over its configurations |\n|---|---|")
        for (fam, unit), v in sorted(per.items()):
            print(f"| {fam} | {statistics.median(v):.3g} J/{unit} ({min(v):.3g} to {max(v):.3g}) |")
    if out_json:
        with open(out_json, "w") as f:
            json.dump(record, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1:])
