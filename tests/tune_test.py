#!/usr/bin/env python3
"""`wavebench tune` end to end on cpu, with tests/plugins/tune/reduce/test_tune_space.hip (one clear
optimum, a crashing candidate, a wrong answer, a constraint a x b <= 24): every candidate measured and
verified in a worker, the search going on past the crash, the cache making a repeated tune measure
nothing, the tuned suite runnable, every strategy replayed deterministically, and bad input refused.
Usage: tune_test.py BUILD_DIR SOURCE_DIR"""
import json
import os
import threading
import time
import unittest

import wbtest
from wbtest import BUILD, load, tempdir, write

PLUGINS = os.path.join(BUILD, "tests", "tune-plugins")
SUITE = """[suite]
name = "tune-test"
repetitions = 9
warmup = 1
seed = 7

[[benchmark]]
family = "reduce"
variants = ["test_tune_space"]
n = 1000
%s
"""


def cpu_root():
    """A folder the cpu platform reads its sensors under (WAVEBENCH_TELEMETRY_ROOT): a frequency, no
    energy counter yet."""
    root = tempdir()
    os.makedirs(os.path.join(root, "proc"))
    write(os.path.join(root, "proc", "cpuinfo"), "processor\t: 0\ncpu MHz\t\t: 2000.0\n")
    return root


class Tune(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempdir()
        cls.suite = write(os.path.join(cls.dir, "s.toml"), SUITE % "")
        cls.cache = os.path.join(cls.dir, "candidates.jsonl")
        cls.out = os.path.join(cls.dir, "ex.json")
        cls.tuned = os.path.join(cls.dir, "tuned.toml")
        cls.first = cls.tune("--strategy", "exhaustive", "--out", cls.out, "--tuned-out", cls.tuned)
        cls.doc = load(cls.out)

    @classmethod
    def tune(cls, *args, suite=None, env=None):
        return wbtest.wb("tune", suite or cls.suite, "--platform", "cpu", "--plugins", PLUGINS, "--filter",
                         "reduce/test_tune_space", "--cache", cls.cache, "--no-history", *args, env=env)

    def test_exhaustive_measures_every_allowed_point_and_finds_the_optimum(self):
        self.assertEqual(self.first.returncode, 0, self.first.stderr)
        pb = self.doc["tune"]["problems"][0]
        steps = pb["steps"]
        # 8 x 4 points, 5 of them over a x b <= 24: never proposed.
        self.assertEqual(len(steps), 27)
        self.assertTrue(all(s["tunables"]["a"] * s["tunables"]["b"] <= 24 for s in steps))
        by = {(s["tunables"]["a"], s["tunables"]["b"]): s for s in steps}
        self.assertEqual(by[(6, 1)]["status"], "crashed")  # and the search went on past it
        self.assertEqual(by[(1, 8)]["status"], "failed")
        self.assertEqual(pb["best"]["tunables"], {"a": 3, "b": 2})
        # Never chosen: the best is a verified point; the final pair re-measured and compared.
        self.assertEqual(pb["final"]["best"]["status"], "verified")
        self.assertEqual(pb["final"]["default"]["tunables"], {"a": 0, "b": 1})
        self.assertEqual(pb["final"]["comparison"]["verdict"], "faster")
        self.assertIsNotNone(pb["final"]["comparison"]["p_value"])
        # Every candidate is a result of the document, verified or with its status.
        roles = [r["tune"]["role"] for r in self.doc["results"]]
        self.assertEqual(roles.count("candidate"), 27)
        self.assertEqual(roles.count("best") + roles.count("default"), 2)
        self.assertIn("a=6 b=1   crashed", self.first.stdout)

    def test_a_repeated_tune_measures_nothing_again(self):
        out = os.path.join(self.dir, "again.json")
        r = self.tune("--strategy", "random", "--budget", "10", "--seed", "3", "--out", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        doc = load(out)
        self.assertTrue(all(x["tune"]["cached"] for x in doc["results"]), "a candidate was measured again")
        self.assertEqual(len(doc["tune"]["problems"][0]["steps"]), 10)

    def test_the_tuned_suite_runs(self):
        with open(self.tuned) as f:
            text = f.read()
        self.assertIn("a = 3", text)
        self.assertIn("b = 2", text)
        out = os.path.join(self.dir, "run.json")
        r = wbtest.wb("run", self.tuned, "--platform", "cpu", "--plugins", PLUGINS, "--filter",
                      "reduce/test_tune_space", "--out", out, "--no-history", "--no-ceilings")
        self.assertEqual(r.returncode, 0, r.stderr)
        [res] = load(out)["results"]
        self.assertEqual((res["params"]["a"], res["params"]["b"], res["status"]), (3, 2, "verified"))

    def test_every_strategy_replays_deterministically(self):
        outs = []
        for k in range(2):
            out = os.path.join(self.dir, "replay%d.json" % k)
            r = wbtest.wb("tune", "--replay", self.out, "--seeds", "20", "--out", out)
            self.assertEqual(r.returncode, 0, r.stderr)
            outs.append(load(out))
        self.assertEqual(outs[0], outs[1])
        rows = outs[0]["problems"][0]["strategies"]
        self.assertEqual([x["strategy"] for x in rows],
                         ["exhaustive", "random", "hill", "annealing", "genetic", "bayes"])
        self.assertEqual(outs[0]["problems"][0]["points"], 27)
        # Some strategy beats exhaustive's lexicographic order (which finds a=3 b=2 at point 14).
        self.assertTrue(any(x["share_reached"] > 0 for x in rows[1:]), rows)

    def test_energy_as_the_objective(self):
        # A RAPL counter that moves at a constant power (a thread writes it), as the cpu platform reads it
        # under WAVEBENCH_TELEMETRY_ROOT: every candidate has its joules per run, and the best is the
        # verified candidate of the lowest.
        root = cpu_root()
        counter = os.path.join(root, "sys/class/powercap/intel-rapl:0")
        os.makedirs(counter)
        done = threading.Event()

        def count():
            uj = 0
            while not done.is_set():
                uj += 1000
                write(os.path.join(counter, "energy_uj.new"), "%d\n" % uj)
                os.replace(os.path.join(counter, "energy_uj.new"), os.path.join(counter, "energy_uj"))
                time.sleep(0.001)
        writer = threading.Thread(target=count)
        writer.start()
        out = os.path.join(self.dir, "energy.json")
        try:
            r = self.tune("--strategy", "random", "--budget", "5", "--seed", "4", "--objective", "energy", "--out", out,
                          env={"WAVEBENCH_TELEMETRY_ROOT": root})
        finally:
            done.set()
            writer.join()
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        pb = load(out)["tune"]["problems"][0]
        self.assertEqual(pb["objective"], "energy")
        verified = [s for s in pb["steps"] if s["status"] == "verified"]
        self.assertTrue(verified)
        self.assertTrue(all(s["joules_per_run"] > 0 for s in verified), verified)
        lowest = min(verified, key=lambda s: s["joules_per_run"])
        self.assertEqual(pb["best"], {"tunables": lowest["tunables"], "joules_per_run": lowest["joules_per_run"]})
        self.assertEqual(pb["steps"][-1]["best_so_far_j"], lowest["joules_per_run"])
        self.assertIn("energy_change", pb["final"])
        self.assertIn("lowest energy per run", r.stdout)
        # Its replay minimises the same figure.
        r = wbtest.wb("tune", "--replay", out, "--seeds", "2", "--replay-strategies", "random")
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_energy_where_no_counter_can_be_read_stops_saying_why(self):
        out = os.path.join(self.dir, "no-energy.json")
        r = self.tune("--strategy", "random", "--budget", "5", "--objective", "energy", "--out", out,
                      env={"WAVEBENCH_TELEMETRY_ROOT": cpu_root()})
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("--objective energy: ", r.stdout)
        self.assertIn("the search stops", r.stdout)
        pb = load(out)["tune"]["problems"][0]  # what it measured is written
        self.assertIn("intel-rapl", pb["unavailable"])
        self.assertIsNone(pb["best"])
        self.assertEqual(self.tune("--objective", "joules").returncode, 2)

    def test_bad_input_is_refused_before_anything_runs(self):
        r = self.tune("--strategy", "gradient")
        self.assertEqual(r.returncode, 2)
        self.assertIn("bayes", r.stderr)
        r = self.tune("--budget", "0")
        self.assertEqual(r.returncode, 2)
        empty = write(os.path.join(self.dir, "empty.toml"), SUITE % "a = [5, 6, 7]\nb = [8]")
        r = self.tune(suite=empty)
        self.assertEqual(r.returncode, 2, r.stdout)
        self.assertIn("no point of its space is allowed", r.stderr)
        self.assertRegex(r.stderr, r"empty\.toml:\d+:\d+:")  # the file and the line of its benchmark
        r = wbtest.wb("tune", "--replay", self.suite)
        self.assertEqual(r.returncode, 2)
        r = wbtest.wb("tune")
        self.assertEqual(r.returncode, 2)
        self.assertIn("give a SUITE", r.stderr)


if __name__ == "__main__":
    wbtest.main()
