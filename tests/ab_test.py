#!/usr/bin/env python3
"""`run --baseline-plugins DIR`, the A/B mode: a build against a copy of itself has no `slower` at a
generous threshold; a build slowed three times on purpose (tests/regression/paced) is `slower` and
exit 1 under --fail-on; both builds have the same number of samples, paired by position; a variant
only in one build is `new` / `missing`; a base build that declares other tunables, or is the
change's own files, is refused with the reason; a DIR that is missing, no folder or holds no plugins
is exit 2. Only what holds on a noisy shared cpu is asserted. Usage: ab_test.py BUILD_DIR SOURCE_DIR"""
import json
import os
import shutil
import unittest

import wbtest
from wbtest import BUILD

TMP = wbtest.tempdir()
PACED = os.path.join(BUILD, "tests", "paced-plugins")
SHIPPED = os.path.join(BUILD, "plugins", "cpu")

SUITE = """[suite]
name = "ab-test"
repetitions = 25
warmup = 1
seed = 5

[[benchmark]]
family = "reduce"
variants = [%s]
n = [1000003]
"""

wb = wbtest.runner(db=os.path.join(TMP, "history.db"))


def suite(variants):
    """The suite of the variants (names or globs) given."""
    path = os.path.join(TMP, "suite-%s.toml" % "-".join(variants).replace("*", "x").replace("[", "").replace("]", ""))
    return wbtest.write(path, SUITE % ", ".join('"%s"' % v for v in variants))


def copy(src, name, only=None):
    """A folder of copies of `src`'s plugin files (of `only` where given): a base build of its own."""
    dst = os.path.join(TMP, name)
    os.makedirs(dst, exist_ok=True)
    for f in os.listdir(src):
        if f.endswith(".so") and (only is None or f in only):
            shutil.copy2(os.path.join(src, f), dst)
    return dst


def ab(variants, base, *extra):
    out = os.path.join(TMP, "r%d.json" % len(os.listdir(TMP)))
    r = wb("run", suite(variants), "--platform", "cpu", "--no-ceilings", "--no-history", "--out", out,
           "--baseline-plugins", base, *extra)
    doc = wbtest.load(out) if r.returncode in (0, 1) else None
    return r, doc


def verdicts(doc):
    return {c["variant"]: c["verdict"] for c in doc["ab"]["comparison"]["configurations"]}


class AB(unittest.TestCase):
    def test_same_build_is_not_slower_and_pairs_by_position(self):
        base = copy(SHIPPED, "same", ["reduce_wavefront.so", "reduce_tree.so"])
        r, doc = ab(["tree", "wavefront"], base, "--threshold", "50", "--fail-on", "slower")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(set(verdicts(doc).values()) - {"same", "faster", "noisy"}, set(), verdicts(doc))
        self.assertIn("A/B: this build (NEW) against the base build", r.stdout)
        self.assertTrue(doc["ab"]["comparison"]["options"]["paired"])
        for res in doc["results"]:
            b = res["ab"]["base"]
            self.assertEqual(b["status"], "verified")
            self.assertGreaterEqual(len(res["samples_ms"]), 25)
            self.assertEqual(len(res["samples_ms"]), len(b["samples_ms"]))  # paired by position
            order = res["ab"]["order"]  # counterbalanced: blocks in pairs, each build first in one
            self.assertEqual(len(order) % 2, 0, order)
            self.assertTrue(all(order[i : i + 2] in ("BN", "NB") for i in range(0, len(order), 2)), order)
            self.assertGreaterEqual(len(res["ab"]["order"]) * res["ab"]["block"], len(res["samples_ms"]))
        self.assertTrue(all(c["test"].startswith("paired") for c in doc["ab"]["comparison"]["configurations"]))

    def test_three_times_the_work_is_slower(self):
        base = copy(os.path.join(PACED, "pct0", "cpu"), "pct0")
        for mode in ([], ["--in-process"]):
            r, doc = ab(["test_paced"], base, "--plugins", os.path.join(PACED, "pct200"), "--threshold", "50",
                        "--fail-on", "slower", *mode)
            self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
            self.assertEqual(verdicts(doc), {"test_paced": "slower"})
            self.assertIn("slower", doc["ab"]["comparison"]["regressions"])
            # --fail-on none: the same verdict, exit 0; markdown as compare writes it.
            r, doc = ab(["test_paced"], base, "--plugins", os.path.join(PACED, "pct200"), "--threshold", "50",
                        "--fail-on", "none", "--format", "markdown", *mode)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertIn("| slower |", r.stderr)

    def test_new_and_missing(self):
        # The base build: reduce/test_paced (which this build lacks) and reduce/wavefront; this build
        # has wavefront and tree.
        base = copy(os.path.join(PACED, "pct0", "cpu"), "mixed")
        copy(SHIPPED, "mixed", ["reduce_wavefront.so"])
        r, doc = ab(["[tw]*"], base, "--threshold", "50", "--fail-on", "slower")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        v = verdicts(doc)
        self.assertEqual(v["tree"], "new")
        self.assertEqual(v["test_paced"], "missing")
        self.assertIn(v["wavefront"], ("same", "faster", "noisy"))
        r, doc = ab(["[tw]*"], base, "--threshold", "50", "--fail-on", "missing")
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        # The report shows the A/B run as a compare of the base build and the change.
        page = os.path.join(TMP, "ab.html")
        rep = wb("report", max(os.path.join(TMP, f) for f in os.listdir(TMP) if f.endswith(".json")), "-o", page)
        self.assertEqual(rep.returncode, 0, rep.stdout + rep.stderr)

    def test_mismatched_builds_are_refused(self):
        base = copy(os.path.join(PACED, "pct0", "cpu"), "pct0-m")
        r, _ = ab(["test_paced"], base, "--plugins", os.path.join(PACED, "mismatch"))
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("A/B run refused: reduce/test_paced", r.stderr)
        self.assertIn("tunables differ", r.stderr)
        self.assertIn("spare", r.stderr)
        # The change's own files as the base: refused, with what to do.
        r, _ = ab(["wavefront"], SHIPPED)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("copy the base build's plugins into a folder of their own", r.stderr)

    def test_bad_dir(self):
        empty = os.path.join(TMP, "empty")
        os.makedirs(empty, exist_ok=True)
        a_file = wbtest.write(os.path.join(TMP, "a-file"), "x")
        for d, why in ((os.path.join(TMP, "absent"), "no such folder"), (a_file, "not a folder"),
                       (empty, "holds no plugin files of platform cpu")):
            r, _ = ab(["wavefront"], d)
            self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
            self.assertIn(why, r.stderr)
            self.assertNotIn("verified", r.stdout)  # refused before anything ran
        # The verdict's options belong to an A/B run.
        r = wb("run", suite(["wavefront"]), "--platform", "cpu", "--no-history", "--threshold", "2")
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("--baseline-plugins", r.stderr)


if __name__ == "__main__":
    wbtest.main()
