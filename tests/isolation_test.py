#!/usr/bin/env python3
"""Plugin isolation, end to end on the cpu platform: plugins that segfault, hang, abort while
loaded, throw, write past their output or run out of memory (tests/plugins/hostile/) each cost
only their own result, with the documented status and stage, while the rest of the suite
verifies; `list` survives them; SIGINT and SIGTERM stop after the current configuration with
the results file whole. Usage: isolation_test.py BUILD_DIR SOURCE_DIR"""
import json
import os
import signal
import subprocess
import tempfile
import time
import unittest

import wbtest
from wbtest import BUILD, SOURCE, WB, load

HOSTILE = os.path.join(BUILD, "tests", "hostile-plugins")
ENV = wbtest.environment()
wb = wbtest.runner(timeout=300)


def suite(path, body, **settings):
    lines = ['[suite]', 'name = "isolation"', "repetitions = 3", "warmup = 1"]
    lines += [f"{k} = {v}" for k, v in settings.items()]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n\n[[benchmark]]\nfamily = \"reduce\"\n" + body)


def by_variant(doc):
    return {r["variant"]: r for r in doc["results"]}


def wait_for_results(path, count, proc, limit=120):
    """Waits until the results file holds `count` results (it is replaced whole each time)."""
    end = time.time() + limit
    while time.time() < end and proc.poll() is None:
        try:
            with open(path) as f:
                if len(json.load(f)["results"]) >= count:
                    return
        except (OSError, ValueError):
            pass
        time.sleep(0.05)
    raise AssertionError(f"{path} never held {count} results")


class Isolation(unittest.TestCase):
    def test_each_failure_costs_only_its_own_result(self):
        with tempfile.TemporaryDirectory() as d:
            s, out = os.path.join(d, "s.toml"), os.path.join(d, "r.json")
            suite(s, 'variants = ["atomic", "test_*", "tree"]\nn = [1000]\n', timeout_s=3)
            p = wb("run", s, "--platform", "cpu", "--plugins", HOSTILE, "--out", out)
            self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
            doc = load(out)
            self.assertTrue(doc["complete"])
            self.assertEqual(doc["isolation"]["mode"], "workers")
            r = by_variant(doc)
            self.assertEqual(r["atomic"]["status"], "verified")
            self.assertEqual(r["tree"]["status"], "verified", "the configuration after the failures")
            expect = {  # variant: status, stage, words of the message
                "test_segfault": ("crashed", "run", ["SIGSEGV", "about to write through a null pointer"]),
                "test_illegal_address": ("crashed", "run", ["SIGSEGV"]),
                # wherever the worker has got to when the harness reads the nonsense
                "test_garbles_answer": ("crashed", None, ["what is no answer"]),
                "test_deep_answer": ("crashed", None, ["what is no answer"]),  # nested 100,000 deep
                "test_answers_no_object": ("crashed", None, ["what is no answer"]),
                "test_answers_odd_fatal": ("error", None, ["the worker answered nonsense"]),
                "test_spins": ("timeout", "run", ["limit of 3 s", "killed"]),
                "test_throws": ("error", "run", ["thrown from run"]),
                "test_writes_past_end": ("failed", "verify", ["past the end of output 'sum'"]),
                "test_device_oom": ("error", "prepare", ["hipErrorOutOfMemory", "GiB", "MiB"]),
                "test_floods": ("crashed", "run", ["what is no answer"]),
                "test_escapes": ("error", "run", ["\\x1b[2J\\x1b]0;owned\\x07"]),
            }
            for variant, (status, stage, words) in expect.items():
                self.assertEqual(r[variant]["status"], status, variant)
                if stage:
                    self.assertEqual(r[variant]["stage"], stage, variant)
                self.assertFalse(r[variant]["verified"])
                for w in words:
                    self.assertIn(w, r[variant]["error"], variant)
            self.assertEqual(r["atomic"]["stage"], None)
            self.assertLess(len(r["test_escapes"]["error"]), 5000)
            self.assertNotIn("\x1b", p.stdout)
            rejected = [x for x in doc["plugins_rejected"] if "test_aborts_at_load" in x["path"]]
            self.assertEqual(len(rejected), 1, doc["plugins_rejected"])
            self.assertIn("crashed while being loaded: SIGABRT", rejected[0]["reason"])
            self.assertIn("aborting in a static constructor", rejected[0]["reason"])
            self.assertIn("2 verified, 1 failed verification, 4 errors, 6 crashed, 1 timed out", p.stdout)
            # Workers: two to load the plugins (the first aborted), then a fresh one after each crash
            # (6), timeout (1) and error (4), and only then.
            self.assertEqual(doc["isolation"]["workers_started"], 2 + 6 + 1 + 4)
            self.assertGreaterEqual(doc["isolation"]["overhead_ms"], 0)

    def test_list_survives_a_plugin_that_aborts_at_load(self):
        p = wb("list", "--platform", "cpu", "--plugins", HOSTILE, "--json")
        self.assertEqual(p.returncode, 0, p.stderr)
        doc = json.loads(p.stdout)
        names = {x["variant"] for x in doc["plugins"]}
        self.assertIn("test_segfault", names)
        self.assertIn("atomic", names)
        self.assertNotIn("test_aborts_at_load", names)
        reasons = [x["reason"] for x in doc["rejected"] if x["path"].endswith("reduce_test_aborts_at_load.so")]
        self.assertEqual(len(reasons), 1)
        self.assertIn("SIGABRT", reasons[0])
        p = wb("list", "--platform", "cpu", "--plugins", HOSTILE)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertRegex(p.stdout, r"not loaded:\n.*reduce_test_aborts_at_load\.so crashed while being loaded")

    def test_in_process_runs_the_plugins_here(self):
        with tempfile.TemporaryDirectory() as d:
            s, out = os.path.join(d, "s.toml"), os.path.join(d, "r.json")
            suite(s, 'variants = ["atomic", "tree"]\nn = [1000]\n')
            p = wb("run", s, "--platform", "cpu", "--in-process", "--out", out)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            doc = load(out)
            self.assertEqual(doc["isolation"], {"mode": "in-process"})
            self.assertEqual(doc["suite"]["timeout_s"], 2 * doc["suite"]["max_time_s"] + 60)  # the default

    def test_timeout_on_the_command_line_overrides_the_suite(self):
        with tempfile.TemporaryDirectory() as d:
            s, out = os.path.join(d, "s.toml"), os.path.join(d, "r.json")
            suite(s, 'variants = ["test_spins"]\nn = [1000]\n', timeout_s=600)
            t0 = time.time()
            p = wb("run", s, "--platform", "cpu", "--plugins", HOSTILE, "--timeout", "1", "--out", out)
            self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
            self.assertLess(time.time() - t0, 60)
            doc = load(out)
            self.assertEqual(doc["suite"]["timeout_s"], 1)
            self.assertEqual(doc["results"][0]["status"], "timeout")

    def interrupt(self, sig, expect_status):
        with tempfile.TemporaryDirectory() as d:
            s, out = os.path.join(d, "s.toml"), os.path.join(d, "r.json")
            suite(s, 'variants = ["atomic"]\nn = [1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000]\n',
                  min_time_s=0.3, max_time_s=0.5)
            proc = subprocess.Popen([WB, "run", s, "--platform", "cpu", "--out", out], cwd=SOURCE, env=ENV,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            wait_for_results(out, 1, proc)
            proc.send_signal(sig)
            stdout, stderr = proc.communicate(timeout=60)
            self.assertEqual(proc.returncode, expect_status, stdout + stderr)
            doc = load(out)
            self.assertFalse(doc["complete"])
            self.assertEqual(doc["stopped_by"], signal.Signals(sig).name)
            self.assertGreaterEqual(len(doc["results"]), 1)
            self.assertLess(len(doc["results"]), 8)
            self.assertTrue(all(r["status"] == "verified" for r in doc["results"]), "the current one finished")
            self.assertIn("not run (interrupted)", stdout)
            self.assertFalse(os.path.exists(out + ".partial"))

    def test_sigint_stops_after_the_current_configuration(self):
        self.interrupt(signal.SIGINT, 130)

    def test_sigterm_stops_after_the_current_configuration(self):
        self.interrupt(signal.SIGTERM, 143)

    def test_a_second_sigint_stops_at_once_with_the_file_whole(self):
        with tempfile.TemporaryDirectory() as d:
            s, out = os.path.join(d, "s.toml"), os.path.join(d, "r.json")
            suite(s, 'variants = ["atomic", "test_spins"]\nn = [1000]\n', timeout_s=300)
            proc = subprocess.Popen([WB, "run", s, "--platform", "cpu", "--plugins", HOSTILE, "--out", out],
                                    cwd=SOURCE, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            wait_for_results(out, 1, proc)  # atomic done; test_spins spins
            time.sleep(0.5)
            # This run's workers (other tests may run workers of the same binary at the same time).
            workers = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
            self.assertTrue(workers, "no worker of this run found")
            proc.send_signal(signal.SIGINT)
            time.sleep(0.5)
            self.assertIsNone(proc.poll(), "the first SIGINT waits for the current configuration")
            proc.send_signal(signal.SIGINT)
            t0 = time.time()
            proc.communicate(timeout=30)
            self.assertLess(time.time() - t0, 10)
            self.assertEqual(proc.returncode, 130)
            doc = load(out)
            self.assertFalse(doc["complete"])
            self.assertEqual([r["variant"] for r in doc["results"]], ["atomic"])
            # The worker went with it.
            time.sleep(0.2)
            def running(pid):
                try:
                    with open(f"/proc/{pid}/cmdline") as f:
                        return "worker" in f.read()
                except OSError:
                    return False
            alive = [w for w in workers if running(w)]
            self.assertEqual(alive, [], "a worker outlived the harness")


if __name__ == "__main__":
    wbtest.main()
