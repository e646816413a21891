#!/usr/bin/env python3
"""Telemetry end to end (docs/telemetry.md): on the cpu platform every result records the cpu's
frequency per run or says why it cannot, --energy gives joules from RAPL or says why not, and
--lock-clocks is skipped saying why; the clock guardian (`wavebench clock-guard`, what
--lock-clocks starts) with a fake libnvidia-ml locks the clocks, ignores SIGINT and SIGTERM, and
restores them when its parent ends, by a normal exit, SIGTERM or SIGKILL; a missing NVML or ROCm SMI,
or missing rights, is an error that says so. Usage: telemetry_cli.py BUILD_DIR SOURCE_DIR"""
import json
import os
import signal
import subprocess
import sys
import time
import unittest

import wbtest
from wbtest import BUILD, WB, load

FAKE_NVML = os.path.join(BUILD, "tests", "fake_nvml", "libfake_nvml.so")
TMP = wbtest.tempdir()
wb = wbtest.runner(timeout=240, db=os.path.join(TMP, "history.db"))
SUITE = wbtest.write(os.path.join(TMP, "tiny.toml"), """[suite]
name = "tiny"
repetitions = 3
warmup = 1

[[benchmark]]
family = "reduce"
variants = ["atomic"]
n = [100003]
""")


def state_of(path):
    with open(path) as f:
        return f.read().strip()


def fake_env(state, **more):
    return wbtest.environment({"WAVEBENCH_NVML_LIBRARY": FAKE_NVML, "WAVEBENCH_FAKE_NVML_STATE": state, **more})


def wait_for(predicate, limit=30):
    end = time.time() + limit
    while time.time() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return False


class CpuRun(unittest.TestCase):
    def run_tiny(self, *extra, env=None):
        out = os.path.join(TMP, "out-%d.json" % len(os.listdir(TMP)))
        p = wb("run", SUITE, "--platform", "cpu", "--no-ceilings", "--no-history", "--out", out, *extra, env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        return load(out), p

    def test_the_frequency_per_run_or_why_not(self):
        doc, _ = self.run_tiny()
        self.assertEqual(doc["clocks"], {"locked": False})
        t = doc["results"][0]["telemetry"]
        if t["source"] is None:
            self.assertIn("no frequency", t["unavailable"])
        else:
            self.assertIn(t["source"], ("cpufreq", "proc-cpuinfo"))
            self.assertEqual(t["samples"], len(doc["results"][0]["samples_ms"]))
            self.assertGreater(t["sm_mhz"]["min"], 0)
            self.assertEqual(t["throttled"], 0)
        self.assertIsNone(doc["results"][0]["energy"])  # not asked for

    def test_no_frequency_is_said(self):
        empty = wbtest.tempdir()
        doc, _ = self.run_tiny(env={"WAVEBENCH_TELEMETRY_ROOT": empty})
        t = doc["results"][0]["telemetry"]
        self.assertIsNone(t["source"])
        self.assertIn("Linux gives no frequency", t["unavailable"])

    def test_energy_from_rapl_or_why_not(self):
        doc, _ = self.run_tiny("--energy")
        e = doc["results"][0]["energy"]
        if e["joules"] is None:
            self.assertIn("RAPL", e["unavailable"])
        else:
            self.assertGreater(e["joules"], 0)
            self.assertEqual(e["unit"], "B")
            self.assertGreater(e["per_unit_j"], 0)

    def test_energy_with_a_fake_rapl_counter_that_does_not_move(self):
        root = wbtest.tempdir()
        os.makedirs(os.path.join(root, "sys/class/powercap/intel-rapl:0"))
        wbtest.write(os.path.join(root, "sys/class/powercap/intel-rapl:0/energy_uj"), "123456\n")
        os.makedirs(os.path.join(root, "proc"))
        wbtest.write(os.path.join(root, "proc/cpuinfo"), "processor\t: 0\ncpu MHz\t\t: 1234.5\n")
        doc, _ = self.run_tiny("--energy", env={"WAVEBENCH_TELEMETRY_ROOT": root})
        r = doc["results"][0]
        self.assertEqual(r["telemetry"]["source"], "proc-cpuinfo")
        self.assertIn(r["energy"]["unavailable"], [r["energy"]["unavailable"]])
        self.assertIn("did not move", r["energy"]["unavailable"])

    def test_lock_clocks_is_skipped_on_cpu_saying_why(self):
        doc, p = self.run_tiny("--lock-clocks")
        self.assertIn("--lock-clocks skipped", p.stderr)
        self.assertFalse(doc["clocks"]["locked"])
        self.assertIn("cpu platform", doc["clocks"]["why"])
        doc, p = self.run_tiny("--lock-clocks", "--sm-clock", "1500")  # a clock asked for: skipped alike
        self.assertIn("--lock-clocks skipped", p.stderr)
        self.assertFalse(doc["clocks"]["locked"])

    def test_a_bad_clock_is_refused(self):
        for bad in (["--lock-clocks", "--sm-clock", "fast"], ["--lock-clocks", "--sm-clock", "0"],
                    ["--lock-clocks", "--sm-clock", "100001"], ["--sm-clock", "1500"]):
            p = wb("run", SUITE, "--platform", "cpu", "--no-ceilings", "--no-history", *bad)
            self.assertEqual(p.returncode, 2, " ".join(bad) + ": " + p.stderr)
            self.assertIn("--sm-clock", p.stderr, bad)
            self.assertIn("--lock-clocks" if bad[0] == "--sm-clock" else "1 to 100000", p.stderr, bad)


class ClockGuard(unittest.TestCase):
    def setUp(self):
        self.state = os.path.join(wbtest.tempdir(), "state")

    def start(self, env, *extra):
        g = subprocess.Popen([WB, "clock-guard", "--platform", "nvidia", "--pci", "0000:1b:00.0", *extra],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        self.addCleanup(g.wait, 30)
        self.addCleanup(g.stdout.close)
        self.addCleanup(g.stdin.close)
        return g, json.loads(g.stdout.readline())

    def test_locks_ignores_signals_and_restores_when_its_pipe_closes(self):
        g, answer = self.start(fake_env(self.state))
        self.assertIn("1755 MHz", answer["locked"][0]["what"])
        self.assertEqual(state_of(self.state), "locked 0000:1b:00.0 1755 1755")
        g.send_signal(signal.SIGINT)  # a Ctrl-C reaches the process group: the guardian stays
        g.send_signal(signal.SIGTERM)
        time.sleep(0.3)
        self.assertIsNone(g.poll())
        self.assertEqual(state_of(self.state), "locked 0000:1b:00.0 1755 1755")
        g.stdin.close()
        self.assertEqual(g.wait(timeout=30), 0)
        self.assertEqual(state_of(self.state), "reset 0000:1b:00.0")

    def test_a_clock_asked_for_is_the_one_locked(self):
        g, answer = self.start(fake_env(self.state), "--sm-mhz", "1410")  # run --lock-clocks=1410
        self.assertIn("1410 MHz (as asked)", answer["locked"][0]["what"])
        self.assertEqual(state_of(self.state), "locked 0000:1b:00.0 1410 1410")
        g.stdin.close()
        self.assertEqual(g.wait(timeout=30), 0)
        self.assertEqual(state_of(self.state), "reset 0000:1b:00.0")

    def restored_after_the_parent_dies_by(self, sig):
        # The parent: a process that starts the guardian, as `run --lock-clocks` does, and waits.
        parent = subprocess.Popen([sys.executable, "-c", """
import subprocess, sys, time
g = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
g.stdout.readline()
print("locked", flush=True)
time.sleep(600)
""", WB, "clock-guard", "--platform", "nvidia", "--pci", "0000:1b:00.0"],
                                  stdout=subprocess.PIPE, text=True, env=fake_env(self.state))
        try:
            self.assertEqual(parent.stdout.readline().strip(), "locked")
            self.assertTrue(state_of(self.state).startswith("locked"))
            parent.send_signal(sig)
            parent.wait(timeout=30)
        finally:
            parent.kill()
            parent.wait()
            parent.stdout.close()
        self.assertTrue(wait_for(lambda: state_of(self.state).startswith("reset")), state_of(self.state))

    def test_restored_after_the_parent_is_stopped_by_sigterm(self):
        self.restored_after_the_parent_dies_by(signal.SIGTERM)

    def test_restored_after_the_parent_is_killed(self):
        self.restored_after_the_parent_dies_by(signal.SIGKILL)

    def test_without_the_rights_the_error_names_them(self):
        g, answer = self.start(fake_env(self.state, WAVEBENCH_FAKE_NVML_DENY="1"))
        self.assertEqual(g.wait(timeout=30), 1)
        self.assertIn("Insufficient Permissions", answer["error"])
        self.assertIn("needs root", answer["error"])
        self.assertFalse(os.path.exists(self.state))

    def test_a_missing_library_is_said(self):
        for platform, name in (("nvidia", "WAVEBENCH_NVML_LIBRARY"), ("amd", "WAVEBENCH_ROCM_SMI_LIBRARY")):
            p = subprocess.run([WB, "clock-guard", "--platform", platform, "--pci", "0000:1b:00.0"],
                               capture_output=True, text=True, env=wbtest.environment({name: "/no/such/lib.so"}),
                               timeout=30)
            self.assertEqual(p.returncode, 1, platform)
            error = json.loads(p.stdout)["error"]
            self.assertIn("cannot load /no/such/lib.so", error)
            self.assertIn(name, error)


if __name__ == "__main__":
    wbtest.main()
