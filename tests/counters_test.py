#!/usr/bin/env python3
"""run --counters on the cpu platform (docs/counters.md): one more, untimed and verified run per
configuration, read by the cpu runtime's own counts; the results JSON, the console's columns and
line, the suite key, and what the pass leaves alone (the timed samples and runs).
Usage: counters_test.py BUILD_DIR SOURCE_DIR"""
import os
import unittest

import wbtest
from wbtest import load

TMP = wbtest.tempdir("wavebench-counters-")
TEST_PLUGINS = os.path.join(wbtest.BUILD, "tests", "plugins")
SUITE = ('[suite]\nname = "counted"\nrepetitions = 4\nwarmup = 1\nseed = 3\n{extra}\n'
         '[[benchmark]]\nfamily = "reduce"\nvariants = ["wavefront", "tree_two_stage", "atomic", "test_half_vote"]\n'
         'n = [65536]\n')


def run(*extra, suite_extra="", expect=0):
    suite = wbtest.write(os.path.join(TMP, "s%d.toml" % len(suite_extra)), SUITE.format(extra=suite_extra))
    out = os.path.join(TMP, "out.json")
    if os.path.exists(out):
        os.remove(out)
    r = wbtest.wb("run", suite, "--platform", "cpu", "--no-ceilings", "--no-history", "--plugins", TEST_PLUGINS,
                  "--out", out, *extra)
    assert r.returncode == expect, r.stdout + r.stderr
    return r, (load(out) if expect == 0 else None)


def by_variant(doc):
    return {res["variant"]: res for res in doc["results"]}


class Counters(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.plain, cls.plain_doc = run()
        cls.counted, cls.doc = run("--counters")

    def test_every_verified_result_has_the_runtimes_counts(self):
        for res in self.doc["results"]:
            self.assertEqual(res["status"], "verified", res)
            c = res["counters"]
            self.assertEqual(c["provider"], "cpu runtime", c)
            self.assertIsNone(c["skipped"])
            self.assertGreaterEqual(len(c["launches"]), 1)
            for launch in c["launches"]:
                self.assertGreater(launch["values"]["blocks"], 0)
                self.assertGreater(launch["values"]["wavefronts"], 0)
            # the cpu runtime counts no instructions: no SIMT efficiency is claimed
            self.assertNotIn("simt_efficiency", c)
            self.assertEqual(c["work"], {"value": 65536 * 4, "unit": "B"})

    def test_launches_are_named_and_counted(self):
        r = by_variant(self.doc)
        self.assertEqual([l["kernel"] for l in r["tree_two_stage"]["counters"]["launches"]],
                         ["launch 1", "launch 2"])  # two kernels: the runtime cannot tell which ran
        self.assertEqual([l["kernel"] for l in r["wavefront"]["counters"]["launches"]], ["reduce_wavefront"])
        self.assertEqual(r["atomic"]["counters"]["launches"][0]["values"]["collectives"], 0)
        wave = r["wavefront"]["counters"]["launches"][0]["values"]
        self.assertGreater(wave["collectives"], 0)
        self.assertEqual(wave["collective_lanes"], 1.0)

    def test_a_divergent_collective_is_seen_with_its_lanes(self):
        v = by_variant(self.doc)["test_half_vote"]["counters"]["launches"][0]["values"]
        self.assertEqual(v["collectives"], 2 * v["wavefronts"])  # one vote of the even lanes, one of all
        self.assertEqual(v["collective_lanes"], 0.75)  # (1/2 + 1) / 2
        self.assertEqual(by_variant(self.doc)["test_half_vote"]["counters"]["collective_lanes"], 0.75)

    def test_the_pass_adds_no_timed_run(self):
        plain = by_variant(self.plain_doc)
        for v, res in by_variant(self.doc).items():
            self.assertEqual(len(res["samples_ms"]), len(plain[v]["samples_ms"]), v)
            self.assertEqual(res["runs"], plain[v]["runs"], v)
            self.assertGreater(res["wall_time_ms"]["counters"], 0, v)
            self.assertIsNone(plain[v]["counters"], v)
            self.assertLess(plain[v]["wall_time_ms"]["counters"], 0.05, v)  # nothing but the clock read

    def test_console_columns_and_line(self):
        head = [l for l in self.counted.stdout.splitlines() if l.startswith("variant")][0]
        self.assertIn(" simt", head)
        self.assertIn(" occ", head)
        self.assertIn("counters (cpu runtime): 240 collectives", self.counted.stdout)
        self.assertIn("no wavefront collective", self.counted.stdout)
        self.assertNotIn(" simt", [l for l in self.plain.stdout.splitlines() if l.startswith("variant")][0])

    def test_the_suite_key(self):
        _, doc = run(suite_extra="counters = true")
        self.assertTrue(all(res["counters"]["provider"] == "cpu runtime" for res in doc["results"]))
        r, _ = run(suite_extra="counters = 1", expect=2)
        self.assertIn("s12.toml:6:12", r.stderr)
        self.assertIn("'counters' must be true or false", r.stderr)

    def test_formats_carry_the_figures(self):
        r = wbtest.wb("run", os.path.join(TMP, "s0.toml"), "--platform", "cpu", "--no-ceilings", "--no-history",
                      "--plugins", TEST_PLUGINS, "--out", os.path.join(TMP, "csv.json"), "--counters",
                      "--format", "csv", "--filter", "reduce/atomic")
        self.assertEqual(r.returncode, 0, r.stderr)
        header = r.stdout.splitlines()[0].split(",")
        self.assertIn("simt_efficiency", header)
        self.assertIn("achieved_occupancy", header)


if __name__ == "__main__":
    wbtest.main()
