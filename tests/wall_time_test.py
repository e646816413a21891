#!/usr/bin/env python3
"""Where a run's wall time went: every result's `wall_time_ms` (start, total, the parts, other) and
the document's totals, with a worker and in process, and the console summary's lines of them.

The parts are intervals measured with one steady clock, nested inside the result's total and not
overlapping, so they sum to at most the total: the only slack allowed is for the JSON's rounding
(TOLERANCE_MS). The group's inputs (datasets, reference, uploads) are counted once, by the first
configuration of each group.
Usage: wall_time_test.py BUILD_DIR SOURCE_DIR"""
import os
import unittest

import wbtest
from wbtest import load

TMP = wbtest.tempdir("wavebench-wall-")
TOLERANCE_MS = 0.01
PARTS = ["inputs", "reference", "upload", "prepare", "kernels", "poison", "warmup", "timed", "verify",
         "energy", "counters", "inputs_check", "release", "summary", "messages"]
GROUP_PARTS = ["inputs", "reference", "upload"]
SUITE = ('[suite]\nname = "wall"\nrepetitions = 3\nwarmup = 1\nseed = 5\n\n'
         '[[benchmark]]\nfamily = "reduce"\nvariants = ["atomic", "tree", "library"]\nn = [100003, 4096]\n\n'
         '[[benchmark]]\nfamily = "conv"\nvariants = ["padded", "tiled"]\nn = [5003]\nm = [17]\n')


def run(*extra, env=None):
    suite = wbtest.write(os.path.join(TMP, "s.toml"), SUITE)
    out = os.path.join(TMP, "out-%d.json" % len(extra))
    r = wbtest.wb("run", suite, "--platform", "cpu", "--no-ceilings", "--no-history", "--out", out, *extra,
                  env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    return r, load(out)


class WallTime(unittest.TestCase):
    def check(self, doc, workers):
        results = doc["results"]
        self.assertEqual(len(results), 8)
        groups = set()
        for res in results:
            w = res["wall_time_ms"]
            self.assertEqual(sorted(w), sorted(PARTS + ["start", "total", "other"]))
            for k, v in w.items():
                self.assertGreaterEqual(v, 0, (k, w))
            self.assertGreater(w["total"], 0)
            self.assertLessEqual(sum(w[p] for p in PARTS), w["total"] + TOLERANCE_MS, w)
            self.assertAlmostEqual(w["other"], w["total"] - sum(w[p] for p in PARTS), delta=TOLERANCE_MS)
            if res["status"] == "verified":  # (reduce/library is skipped on cpu)
                self.assertGreater(w["timed"], 0, res["variant"])
                self.assertGreater(w["verify"], 0, res["variant"])
            key = (res["family"], tuple(sorted((k, v) for k, v in res["params"].items() if k in ("n", "m"))))
            first = key not in groups
            groups.add(key)
            for p in GROUP_PARTS:  # counted by the configuration that made the group's inputs
                (self.assertGreater if first else self.assertEqual)(w[p], 0, (p, key))
            (self.assertGreater if workers else self.assertEqual)(w["messages"], 0)
        # The starts follow each other: each configuration starts after the one before ended.
        for a, b in zip(results, results[1:]):
            self.assertGreaterEqual(b["wall_time_ms"]["start"], a["wall_time_ms"]["start"] + a["wall_time_ms"]["total"])
        total = doc["wall_time_ms"]
        for p in PARTS + ["other"]:
            self.assertAlmostEqual(total["parts"][p], sum(r["wall_time_ms"][p] for r in results), delta=1e-6)
        self.assertAlmostEqual(total["configurations"], sum(r["wall_time_ms"]["total"] for r in results), delta=1e-6)
        self.assertAlmostEqual(total["before_configurations"], results[0]["wall_time_ms"]["start"], delta=1e-6)
        self.assertAlmostEqual(total["run"], total["before_configurations"] + total["configurations"] +
                               total["between_configurations"], delta=1e-3)
        self.assertGreaterEqual(total["between_configurations"], 0)

    def test_with_a_worker(self):
        r, doc = run()
        self.check(doc, workers=True)
        self.assertRegex(r.stdout, r"\nwall time [0-9.]+ m?s: [0-9.]+ m?s starting .*in the configurations")
        self.assertRegex(r.stdout, r"\n  in the configurations: \w+ [0-9.]+ m?s \([0-9]+%\)")

    def test_in_process(self):
        _, doc = run("--in-process")
        self.check(doc, workers=False)

    def test_several_devices_leave_the_gaps_unsaid(self):
        _, doc = run("--devices", "all", env={"WAVEBENCH_CPU_DEVICES": "2"})
        self.assertIsNone(doc["wall_time_ms"]["between_configurations"])
        self.assertAlmostEqual(doc["wall_time_ms"]["configurations"],
                               sum(r["wall_time_ms"]["total"] for r in doc["results"]), delta=1e-6)


if __name__ == "__main__":
    wbtest.main()
