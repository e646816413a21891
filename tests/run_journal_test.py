#!/usr/bin/env python3
"""`run` writes its results as a journal (OUT.journal, a line per result) and the whole document now
and then and at the end (docs/results-schema.md, "The journal"):
- the bytes a run of 300 tiny configurations writes are a small multiple of its results file's size
  (the harness's wchar of /proc/PID/io, read as it exits); rewriting the file after every
  configuration wrote about 150 times its size;
- SIGTERM midway: the results file is complete (every result measured, `complete: false`,
  `stopped_by`), and no journal or temporary is left;
- SIGKILL midway: the journal holds every result it had measured; `report` reads it as the run,
  a line cut short at its end is left out, and a new run with the same --out refuses to overwrite it;
- --devices: the journal is gone at the end and the results are in plan order;
- tools/slurm's merge step takes the journal a shard killed outright left.
No assertion on time: the bounds are on bytes and counts.
Usage: run_journal_test.py BUILD_DIR SOURCE_DIR"""
import json
import os
import signal
import subprocess
import time
import unittest

import wbtest
from wbtest import SOURCE, WB, load

TMP = wbtest.tempdir("wavebench-journal-")
wb = wbtest.runner(db=os.path.join(TMP, "history.db"))
ENV = wbtest.environment(db=os.path.join(TMP, "history.db"))


def tiny_suite(name, configs, **settings):
    """`configs` configurations of reduce/atomic, one repetition each: n = 1, 2, ... x 4 block sizes."""
    extra = "".join(f"{k} = {v}\n" for k, v in settings.items())
    ns = ", ".join(str(n) for n in range(1, configs // 4 + 1))
    return wbtest.write(os.path.join(TMP, name + ".toml"),
                        f'[suite]\nname = "{name}"\nrepetitions = 1\nwarmup = 0\nseed = 3\n{extra}\n'
                        f'[[benchmark]]\nfamily = "reduce"\nvariants = ["atomic"]\n'
                        f'block_size = [32, 64, 128, 256]\nn = [{ns}]\n')


def start(suite, out, *extra, env=None):
    """A run in the background; its table on stdout as JSON Lines, a result a line as each comes."""
    return subprocess.Popen([WB, "run", suite, "--platform", "cpu", "--no-ceilings", "--no-history", "--format",
                             "json", "--out", out, *extra], cwd=SOURCE, env=env or ENV, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            # SIGHUP as a terminal has it, even where the tests run under nohup
                            preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_DFL))


def journal_results(path):
    """The results in a journal: the plan indices of its whole lines after the first (a result whose
    speedups changed later is written again, so lines can outnumber results)."""
    try:
        with open(path) as f:
            lines = f.read().split("\n")[1:-1]
    except FileNotFoundError:
        return 0
    return len({json.loads(l)["plan_index"] for l in lines})


def wait_for_journal(path, results, proc):
    """Waits until the journal holds `results` results."""
    deadline = time.monotonic() + 300
    while journal_results(path) < results:
        if proc.poll() is not None:
            raise AssertionError(f"the run ended (exit {proc.returncode}) before {results} results in its journal: "
                                 + proc.stderr.read())
        if time.monotonic() > deadline:
            raise AssertionError("no journal lines in 300 s")
        time.sleep(0.01)


def leftovers(folder):
    return [f for f in os.listdir(folder) if ".partial-" in f]


class Journal(unittest.TestCase):
    def test_the_bytes_a_run_writes_are_linear_in_its_configurations(self):
        n = 300
        suite, out = tiny_suite("linear", n), os.path.join(TMP, "linear.json")
        t0 = time.monotonic()
        p = start(suite, out)
        rows = p.stdout.read().splitlines()
        p.stderr.read()
        os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOWAIT)  # exited, not reaped: /proc still has it
        seconds = time.monotonic() - t0
        with open(f"/proc/{p.pid}/io") as f:
            wchar = int(next(l for l in f if l.startswith("wchar:")).split()[1])
        self.assertEqual(p.wait(), 0)
        self.assertEqual(len(rows), n)
        doc = load(out)
        self.assertTrue(doc["complete"])
        self.assertEqual(len(doc["results"]), n)
        self.assertFalse(os.path.exists(out + ".journal"))
        size = os.path.getsize(out)
        # The journal (under 1x the file), the document at 0, 1, 2, 4, ..., 256 results and at the end
        # (under 3x), the table, the requests to the worker and its answers (its writes count once it
        # is reaped), each under 1x: below 7x. Rewriting after every result wrote n/2 = 150x. A
        # document is also rewritten where 10 s passed since the last: one more per 10 s of the run.
        allowed = (7 + seconds / 10 + 1) * size
        self.assertLess(wchar, allowed, f"{wchar} bytes written for a {size}-byte results file in {seconds:.1f} s")

    def test_sigterm_midway_leaves_every_result_in_the_file(self):
        self.stopped_midway(signal.SIGTERM)

    def test_sighup_midway_stops_as_sigterm_does(self):
        # A closed terminal or a dropped ssh session: killed it outright before.
        self.stopped_midway(signal.SIGHUP)

    def stopped_midway(self, sig):
        name = signal.Signals(sig).name
        suite, out = tiny_suite(name, 400, min_time_s=0.02), os.path.join(TMP, name + ".json")
        p = start(suite, out)
        wait_for_journal(out + ".journal", 37, p)  # 37 results: the file was last written at 32
        p.send_signal(sig)
        stdout, stderr = p.communicate(timeout=300)
        self.assertEqual(p.returncode, 128 + sig, stderr)
        shown = [json.loads(l) for l in stdout.splitlines()]
        doc = load(out)
        self.assertFalse(doc["complete"])
        self.assertEqual(doc["stopped_by"], name)
        self.assertGreaterEqual(len(doc["results"]), 37)
        self.assertLess(len(doc["results"]), 400)
        self.assertEqual(len(doc["results"]), len(shown), "every result measured is in the file")
        self.assertEqual([r["plan_index"] for r in doc["results"]], list(range(len(shown))))
        self.assertFalse(os.path.exists(out + ".journal"))
        self.assertEqual(leftovers(TMP), [])

    def test_sigkill_midway_leaves_a_journal_that_reads_as_the_run(self):
        suite, out = tiny_suite("kill", 400, min_time_s=0.02), os.path.join(TMP, "kill.json")
        journal = out + ".journal"
        p = start(suite, out)
        wait_for_journal(journal, 40, p)
        p.kill()
        p.communicate(timeout=60)
        with open(journal) as f:
            lines = f.read().splitlines()
        header = json.loads(lines[0])
        self.assertEqual(header["wavebench_journal"], 1)
        self.assertEqual(header["document"]["suite"]["name"], "kill")
        measured = {json.loads(l)["plan_index"] for l in lines[1:]}
        self.assertGreaterEqual(len(measured), 40)
        # The results file is whole, with the results of its last rewrite.
        doc = load(out)
        self.assertFalse(doc["complete"])
        self.assertLessEqual(len(doc["results"]), len(measured))
        # report reads the journal as the run, incomplete; a line cut short at its end is left out.
        with open(journal, "a") as f:
            f.write('{"plan_index": 399, "family": "red')
        page = os.path.join(TMP, "kill.html")
        r = wb("report", journal, "-o", page)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(f"wrote {page}: {len(measured)} results", r.stdout)
        # A new run with the same --out refuses to overwrite the journal, and writes nothing.
        before = os.path.getmtime(out)
        r = wb("run", suite, "--platform", "cpu", "--no-ceilings", "--no-history", "--out", out)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn(f"'{journal}' is there: the journal of a run that was killed", r.stderr)
        self.assertEqual(os.path.getmtime(out), before)
        # A broken line inside the journal is named.
        lines.insert(3, '{"plan_index": 2,')
        broken = wbtest.write(os.path.join(TMP, "broken.journal"), "\n".join(lines) + "\n")
        r = wb("report", broken, "-o", os.path.join(TMP, "broken.html"))
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("line 4 of the journal is not JSON", r.stderr)

    def test_several_devices_leave_no_journal_and_results_in_plan_order(self):
        suite, out = tiny_suite("two", 60), os.path.join(TMP, "two.json")
        p = start(suite, out, "--devices", "all", env={**ENV, "WAVEBENCH_CPU_DEVICES": "2"})
        stdout, stderr = p.communicate(timeout=300)
        self.assertEqual(p.returncode, 0, stderr)
        doc = load(out)
        self.assertEqual([r["plan_index"] for r in doc["results"]], list(range(60)))
        self.assertEqual({r["device_index"] for r in doc["results"]}, {0, 1})
        self.assertFalse(os.path.exists(out + ".journal"))

    def test_the_slurm_merge_takes_the_journal_of_a_shard_killed_outright(self):
        suite = tiny_suite("slurm", 16)
        folder = os.path.join(TMP, "slurm")
        os.makedirs(folder)
        for i in (1, 2):
            out = os.path.join(folder, f"shard-{i}-of-2.json")
            r = wb("run", suite, "--platform", "cpu", "--no-ceilings", "--shard", f"{i}/2", "--out", out)
            self.assertEqual(r.returncode, 0, r.stderr)
        # Shard 2's task was killed with its script: its journal under the running name, a result short.
        doc = load(os.path.join(folder, "shard-2-of-2.json"))
        rows, doc["results"] = doc["results"], []
        os.remove(os.path.join(folder, "shard-2-of-2.json"))
        with open(os.path.join(folder, ".shard-2-of-2.json.running.journal"), "w") as f:
            f.write(json.dumps({"wavebench_journal": 1, "document": doc}) + "\n")
            f.writelines(json.dumps(r) + "\n" for r in rows[:-1])
        script = os.path.join(SOURCE, "tools", "slurm", "wavebench-array.sh")
        r = subprocess.run(["bash", script, "--merge", "--wavebench", WB, "--shards", "2", "--out", folder, "--",
                            "--no-history"], capture_output=True, text=True, env=ENV, timeout=300)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)  # merged, incomplete
        merged = load(os.path.join(folder, "merged.json"))
        self.assertFalse(merged["complete"])
        self.assertEqual(len(merged["results"]), 15)


if __name__ == "__main__":
    wbtest.main()
