#!/usr/bin/env python3
"""The cpu platform's lane order (--lane-order, WAVEBENCH_CPU_LANE_ORDER): every plugin of the
project verifies with a wavefront's lanes run in reverse and in seeded random order between
synchronization points (suites/quick.toml: every variant of every family); the order is recorded
in the results; a warp-synchronous reduction without barriers (tests/plugins/reduce/
test_warp_sync.hip) fails verification with a message that names the lane order and what it
means; bad values are refused before anything runs.
Usage: lane_order_test.py BUILD_DIR SOURCE_DIR"""
import json
import os
import tempfile
import unittest

import wbtest
from wbtest import BUILD

TEST_PLUGINS = os.path.join(BUILD, "tests", "plugins")
wb = wbtest.runner(unset=("WAVEBENCH_PLUGIN_PATH", "WAVEBENCH_CPU_LANE_ORDER"))


class LaneOrder(unittest.TestCase):
    def run_quick(self, order):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "r.json")
            p = wb("run", "suites/quick.toml", "--platform", "cpu", "--lane-order", order, "--out", out,
                   "--repetitions", "2", "--warmup", "1")
            self.assertEqual(p.returncode, 0, p.stdout[-3000:] + p.stderr[-3000:])
            return wbtest.load(out)

    def check_every_variant(self, order):
        doc = self.run_quick(order)
        self.assertEqual(doc["platform_options"]["lane_order"], order)
        families = {r["family"] for r in doc["results"]}
        self.assertEqual(families, {"reduce", "conv", "converge", "branch", "vgpr"})
        for r in doc["results"]:
            self.assertIn(r["status"], ("verified", "skipped"), (r["family"], r["variant"], r.get("error")))
            if r["status"] == "skipped":  # only the vendor library, which the cpu platform lacks
                self.assertEqual(r["variant"], "library", r.get("skip_reason"))
        listed = json.loads(wb("list", "--platform", "cpu", "--json").stdout)
        names = {(p["family"], p["variant"]) for p in listed["plugins"]}
        self.assertEqual(names, {(r["family"], r["variant"]) for r in doc["results"]})

    def test_every_plugin_verifies_in_reverse_order(self):
        self.check_every_variant("reverse")

    def test_every_plugin_verifies_in_random_order(self):
        self.check_every_variant("random:20261123")

    def test_warp_synchronous_code_fails_loudly(self):
        for order in ("reverse", "random:5"):
            with self.subTest(order=order), tempfile.TemporaryDirectory() as tmp:
                out = os.path.join(tmp, "r.json")
                p = wb("run", "suites/quick.toml", "--platform", "cpu", "--plugins", TEST_PLUGINS, "--filter",
                       "reduce/test_warp_sync", "--lane-order", order, "--out", out, "--repetitions", "2",
                       "--warmup", "0")
                self.assertEqual(p.returncode, 1, p.stderr[-2000:])
                results = wbtest.load(out)["results"]
                self.assertTrue(results)
                for r in results:
                    self.assertEqual(r["status"], "failed")
                    self.assertIn(f"lanes ran in {order} order", r["error"])
                    self.assertIn("race between the lanes of a wavefront", r["error"])
        # In the default order it fails too (the lanes do not run in lock-step), without the note.
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "r.json")
            p = wb("run", "suites/quick.toml", "--platform", "cpu", "--plugins", TEST_PLUGINS, "--filter",
                   "reduce/test_warp_sync", "--out", out, "--repetitions", "2", "--warmup", "0")
            self.assertEqual(p.returncode, 1)
            doc = wbtest.load(out)
            self.assertEqual(doc["platform_options"]["lane_order"], "forward")
            for r in doc["results"]:
                self.assertEqual(r["status"], "failed")
                self.assertNotIn("lanes ran in", r["error"])

    def test_bad_values_are_refused(self):
        p = wb("run", "suites/quick.toml", "--platform", "cpu", "--lane-order", "sideways", "--dry-run")
        self.assertEqual(p.returncode, 2)
        self.assertIn("forward, reverse, random or random:SEED", p.stderr)
        p = wb("run", "suites/quick.toml", "--platform", "cpu", "--dry-run",
               env={"WAVEBENCH_CPU_LANE_ORDER": "random:x"})
        self.assertEqual(p.returncode, 2)
        self.assertIn("WAVEBENCH_CPU_LANE_ORDER='random:x'", p.stderr)


if __name__ == "__main__":
    wbtest.main()
