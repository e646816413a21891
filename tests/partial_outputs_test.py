#!/usr/bin/env python3
"""SIGINT and SIGTERM sent to `merge` and `report` while they work, 40 trials: none leaves a
`.partial-*` temporary behind, and the output is absent or whole (the signal, held back while the
temporary exists, ends the command once it is renamed into place).

Half the trials send the signal as soon as the temporary appears in the folder (the window in which
a signal used to leave it behind), half at a random moment of the command's run. Measured with the
code before the fix (3 runs of the 40 trials on a loaded 2-core machine): the first kind left a
temporary in 30 of 60 trials (4 to 9 of 10 per command and run), the second in 3 of 60; every run
failed, with 8 to 14 temporaries left. At the lowest rate seen (4 of 10, and 1 of 20) the chance that
all 40 trials pass with the old code is 0.6^20 x 0.95^20, about 1e-5.
Usage: partial_outputs_test.py BUILD_DIR SOURCE_DIR"""
import json
import os
import random
import signal
import subprocess
import time
import unittest

import wbtest
from wbtest import SOURCE, WB, load

TMP = wbtest.tempdir("wavebench-partial-")
ENV = wbtest.environment(db=os.path.join(TMP, "history.db"))
SAMPLES = 40000  # per result: inputs of some 10 MB, so an output takes a while to write
TRIALS = 10  # per command and way of sending


def write_json(name, doc):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def setUpModule():
    global SHARDS, WHOLE
    suite = wbtest.write(os.path.join(TMP, "s.toml"),
                         '[suite]\nname = "partial"\nrepetitions = 1\nwarmup = 0\nseed = 2\n\n'
                         '[[benchmark]]\nfamily = "reduce"\nvariants = ["atomic", "tree"]\nn = [1000, 2000, 3000]\n')
    SHARDS = []
    for i in (1, 2):
        out = os.path.join(TMP, f"shard-{i}.json")
        r = wbtest.wb("run", suite, "--platform", "cpu", "--no-ceilings", "--no-history", "--shard", f"{i}/2",
                      "--out", out, db=os.path.join(TMP, "history.db"))
        assert r.returncode == 0, r.stderr
        doc = load(out)
        for res in doc["results"]:
            res["samples_ms"] = [random.random() for _ in range(SAMPLES)]
        SHARDS.append(write_json(f"big-shard-{i}.json", doc))
    # For report: many results, so that its page is large too.
    doc = load(SHARDS[0])
    rows = []
    for k in range(3000):
        res = dict(doc["results"][k % len(doc["results"])])
        res["samples_ms"] = res["samples_ms"][:50]
        res["params"] = dict(res["params"], n=1000 + k)
        rows.append(res)
    doc["results"], doc["shard"] = rows, None
    WHOLE = write_json("big-whole.json", doc)


def commands(folder):
    """What each command is run as, writing into `folder`, and how to tell its output is whole."""
    merged, page = os.path.join(folder, "merged.json"), os.path.join(folder, "page.html")
    return {
        "merge": ([WB, "merge", *SHARDS, "-o", merged, "--no-history"], merged,
                  lambda: len(load(merged)["results"]) == 6),
        "report": ([WB, "report", WHOLE, "-o", page], page,
                   lambda: open(page, encoding="utf-8").read().rstrip().endswith("</html>")),
    }


def temporaries(folder):
    return [f for f in os.listdir(folder) if ".partial-" in f]


class PartialOutputs(unittest.TestCase):
    def trials(self, name):
        folder = os.path.join(TMP, name + "-clean")
        os.makedirs(folder)
        argv, out, whole = commands(folder)[name]
        t0 = time.monotonic()
        subprocess.run(argv, env=ENV, cwd=SOURCE, check=True, capture_output=True)
        duration = time.monotonic() - t0
        self.assertTrue(whole())
        failures = []
        for k in range(2 * TRIALS):
            folder = os.path.join(TMP, f"{name}-{k}")
            os.makedirs(folder)
            argv, out, whole = commands(folder)[name]
            sig = (signal.SIGINT, signal.SIGTERM)[k % 2]
            p = subprocess.Popen(argv, env=ENV, cwd=SOURCE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if k < TRIALS:  # as the temporary appears
                while p.poll() is None and not temporaries(folder):
                    pass
            else:
                time.sleep(random.uniform(0, duration))
            if p.poll() is None:
                p.send_signal(sig)
            p.wait(timeout=120)
            left = temporaries(folder)
            if left:
                failures.append(f"trial {k} ({sig.name}): {left} left")
            elif os.path.exists(out) and not whole():
                failures.append(f"trial {k} ({sig.name}): {out} is not whole")
            self.assertIn(p.returncode, (0, -sig), f"trial {k}")
        self.assertEqual(failures, [])

    def test_merge(self):
        self.trials("merge")

    def test_report(self):
        self.trials("report")


if __name__ == "__main__":
    wbtest.main()
