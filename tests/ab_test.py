#!/usr/bin/env python3
"""`run --baseline-plugins DIR`, the A/B mode: a build against a copy of itself has no `slower` at a
generous threshold; a build slowed three times on purpose (tests/regression/paced) is `slower` and
exit 1 under --fail-on; both builds have the same number of samples, paired by position; a variant
only in one build is `new` / `missing`; a base build that declares other tunables, or is the
change's own files, is refused with the reason; a DIR that is missing, no folder or holds no plugins
is exit 2. A copy of a build is `same-code` everywhere (--ignore-code-digest: the times' verdicts),
and with --skip-same-code only the variant whose code changed is measured, with the full run's exit
status. Only what holds on a noisy shared cpu is asserted. Usage: ab_test.py BUILD_DIR SOURCE_DIR"""
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


def ab(variants, base, *extra, env=None):
    out = os.path.join(TMP, "r%d.json" % len(os.listdir(TMP)))
    r = wb("run", suite(variants), "--platform", "cpu", "--no-ceilings", "--no-history", "--out", out,
           "--baseline-plugins", base, *extra, env=env)
    doc = wbtest.load(out) if r.returncode in (0, 1) else None
    return r, doc


def verdicts(doc):
    return {c["variant"]: c["verdict"] for c in doc["ab"]["comparison"]["configurations"]}


class AB(unittest.TestCase):
    def test_same_build_is_not_slower_and_pairs_by_position(self):
        base = copy(SHIPPED, "same", ["reduce_wavefront.so", "reduce_tree.so"])
        # A copy has the same code (same-code): the times' verdicts are what this studies.
        r, doc = ab(["tree", "wavefront"], base, "--threshold", "50", "--fail-on", "slower", "--ignore-code-digest")
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

    def test_sides_alternate_and_swap_places(self):
        # A plugin that logs its prepare, release and runs with its library's path: what the run
        # did to each build, in order.
        sides = os.path.join(BUILD, "tests", "ab-sides-plugins")
        base = copy(os.path.join(sides, "cpu"), "sides-base")
        self.assertTrue(os.listdir(base), sides)
        log = os.path.join(TMP, "sides.log")
        r, doc = ab(["test_sides"], base, "--plugins", sides, "--threshold", "50", "--fail-on", "none",
                    env={"WAVEBENCH_TEST_SIDES_LOG": log})
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        with open(log) as f:
            events = [(what, "B" if path.startswith(base) else "N") for what, path in
                      (line.split(" ", 1) for line in f.read().splitlines())]
        res = doc["results"][0]
        n = len(res["samples_ms"])
        self.assertEqual(n, len(res["ab"]["base"]["samples_ms"]))
        self.assertEqual(n % 20, 0, n)  # two halves, each of whole pairs of blocks (5 runs)
        # Prepared twice each: the base build first, both released, then the change first.
        self.assertEqual([(w, s) for w, s in events if w != "run"],
                         [("prepare", "B"), ("prepare", "N"), ("release", "B"), ("release", "N"),
                          ("prepare", "N"), ("prepare", "B"), ("release", "B"), ("release", "N")])
        second = events.index(("prepare", "B"), 2)
        for half in (events[:events.index(("release", "B"))], events[second + 1:events.index(("release", "B"), second)]):
            runs = "".join(s for w, s in half if w == "run")
            # The warm-up (1 run each, the suite's) in turns, then blocks of 5 runs of one build.
            self.assertIn(runs[:2], ("BN", "NB"), runs)
            blocks = [runs[i:i + 5] for i in range(2, len(runs), 5)]
            self.assertTrue(all(b in ("BBBBB", "NNNNN") for b in blocks), runs)
            self.assertEqual(runs.count("B"), runs.count("N"), runs)
            self.assertEqual(len(blocks), n // 5, runs)  # each half holds half the pairs

    def test_runs_after_a_second_prepare_are_checked(self):
        # The base build's sums go wrong from its second prepare on (the second half), and beyond
        # the first runs after a prepare none is checked (--verify-every 100000): found there.
        sides = os.path.join(BUILD, "tests", "ab-sides-plugins")
        base = copy(os.path.join(sides, "cpu"), "sides-wrong")
        big = wbtest.write(os.path.join(TMP, "sides-big.toml"), (SUITE % '"test_sides"').replace("1000003", "16777216"))
        out = os.path.join(TMP, "sides-wrong.json")
        r = wb("run", big, "--platform", "cpu", "--no-ceilings", "--no-history", "--out", out, "--baseline-plugins",
               base, "--plugins", sides, "--verify-every", "100000", "--fail-on", "none",
               env={"WAVEBENCH_TEST_SIDES_WRONG_IN": "sides-wrong"})
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)  # this build verified: the base's failure is no regression
        doc = wbtest.load(out)
        res = doc["results"][0]
        # Few input copies, so the runs checked after the first prepare end before the second half.
        self.assertLessEqual(res["input_sets"], 3)
        self.assertEqual(res["ab"]["base"]["status"], "failed", res["ab"]["base"])
        self.assertEqual(res["status"], "verified")  # this build's second prepare is right
        self.assertEqual(verdicts(doc), {"test_sides": "fixed"})

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
        self.assertEqual(v["wavefront"], "same-code")  # a copy
        r, doc = ab(["[tw]*"], base, "--threshold", "50", "--fail-on", "missing")
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        # The report shows the A/B run as a compare of the base build and the change.
        page = os.path.join(TMP, "ab.html")
        rep = wb("report", max(os.path.join(TMP, f) for f in os.listdir(TMP) if f.endswith(".json")), "-o", page)
        self.assertEqual(rep.returncode, 0, rep.stdout + rep.stderr)

    def test_a_copy_is_the_same_code(self):
        base = copy(SHIPPED, "copy", ["reduce_wavefront.so", "reduce_tree.so"])
        r, doc = ab(["tree", "wavefront"], base, "--format", "markdown")  # --fail-on any, the default
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        cmp = doc["ab"]["comparison"]
        self.assertEqual(verdicts(doc), {"tree": "same-code", "wavefront": "same-code"})
        self.assertEqual(cmp["counts"]["same-code"], 2)
        self.assertEqual(cmp["regressions"], [])
        self.assertFalse(cmp["options"]["ignore_code_digest"])
        self.assertIn("| same-code |", r.stderr)  # the markdown comparison
        listed = {p["variant"]: p for p in json.loads(wb("list", "--platform", "cpu", "--json").stdout)["plugins"]}
        for res in doc["results"]:
            self.assertRegex(res["code_digest"], "^[0-9a-f]{40}$")
            self.assertEqual(res["code_digest"], res["ab"]["base"]["code_digest"])
            self.assertEqual(res["code_digest"], listed[res["variant"]]["code_digest"])
            self.assertIsNone(res["device_code_digest"])  # cpu plugins have no device code
            self.assertEqual(len(res["samples_ms"]), len(res["ab"]["base"]["samples_ms"]))  # measured all the same
        # compare of the results with themselves: same-code, or with --ignore-code-digest the times' verdict.
        out = wbtest.write(os.path.join(TMP, "copy.json"), json.dumps(doc))
        c = wb("compare", out, out, "--format", "json")
        self.assertEqual(c.returncode, 0, c.stdout + c.stderr)
        self.assertEqual({e["verdict"] for e in json.loads(c.stdout)["configurations"]}, {"same-code"})
        c = wb("compare", out, out, "--format", "json", "--ignore-code-digest")
        self.assertEqual({e["verdict"] for e in json.loads(c.stdout)["configurations"]}, {"same"})
        c = wb("compare", out, out)
        self.assertIn("same-code", c.stdout)

    def test_skip_same_code_measures_only_what_changed(self):
        # The base build: reduce/test_paced at 0% and copies of tree and wavefront; this build has
        # test_paced at 200% (other code) and the same tree and wavefront.
        base = copy(os.path.join(PACED, "pct0", "cpu"), "changed-one")
        copy(SHIPPED, "changed-one", ["reduce_wavefront.so", "reduce_tree.so"])
        args = ["--plugins", os.path.join(PACED, "pct200"), "--threshold", "50", "--fail-on", "slower"]
        full, full_doc = ab(["test_paced", "tree", "wavefront"], base, *args)
        r, doc = ab(["test_paced", "tree", "wavefront"], base, *args, "--skip-same-code", "--format", "markdown")
        self.assertEqual(r.returncode, full.returncode, r.stdout + r.stderr)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)  # test_paced is slower, in both
        self.assertEqual(verdicts(doc), {"test_paced": "slower", "tree": "same-code", "wavefront": "same-code"})
        self.assertEqual(verdicts(full_doc), verdicts(doc))
        for res in doc["results"]:
            sides = (res, res["ab"]["base"])
            if res["variant"] == "test_paced":  # measured, both builds
                self.assertTrue(all(s["status"] == "verified" and len(s["samples_ms"]) >= 25 for s in sides))
                self.assertNotEqual(res["code_digest"], res["ab"]["base"]["code_digest"])
            else:  # neither build ran
                for s in sides:
                    self.assertEqual(s["status"], "skipped")
                    self.assertEqual(s["skip_reason"], "same code in both builds (--skip-same-code): not measured")
                    self.assertEqual(s["samples_ms"], [])
                    self.assertEqual(s["runs"], 0)
        self.assertEqual(doc["ab"]["comparison"]["regressions"], ["slower"])
        self.assertIn("| same-code |", r.stderr)
        self.assertIn("| slower |", r.stderr)
        # The options belong together: an A/B run, and a digest that is not ignored.
        r, _ = ab(["tree"], base, "--skip-same-code", "--ignore-code-digest")
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        for option in ("--skip-same-code", "--ignore-code-digest"):
            r = wb("run", suite(["wavefront"]), "--platform", "cpu", "--no-history", option)
            self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
            self.assertIn("--baseline-plugins", r.stderr)

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
        for option in (("--threshold", "2"), ("--fdr", "0.05")):
            r = wb("run", suite(["wavefront"]), "--platform", "cpu", "--no-history", *option)
            self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
            self.assertIn("--baseline-plugins", r.stderr)


class Calibrate(unittest.TestCase):
    """`wavebench calibrate`: A/A rounds of this build against a copy, the calibration file, and
    compare judging each configuration at no less than its least threshold."""

    def test_calibrate_and_judge_with_it(self):
        rounds = os.path.join(TMP, "rounds")
        cal = os.path.join(TMP, "calibration.json")
        r = wb("calibrate", suite(["tree", "wavefront"]), "--runs", "2", "--platform", "cpu", "--rounds-dir", rounds,
               "--out", cal)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("calibration of suite ab-test", r.stdout)
        doc = wbtest.load(cal)
        self.assertEqual(doc["rounds"], 2)
        self.assertEqual(doc["platform"], "cpu")
        rows = {c["variant"]: c for c in doc["configurations"]}
        self.assertEqual(set(rows), {"tree", "wavefront"})
        for c in rows.values():
            self.assertTrue(c["gateable"], c)
            self.assertEqual(len(c["changes"]), 2)
            self.assertGreaterEqual(c["pairs"], 25)
            self.assertGreater(c["min_threshold"], 0)
            self.assertEqual(set(c["flagged"]), {"0.5", "1", "2", "3", "5"})
            self.assertTrue(all(0 <= v <= 2 for v in c["flagged"].values()))
        # Each round was an A/B run of the build against the copy, kept where asked.
        ab_round = os.path.join(rounds, "round-1.json")
        self.assertTrue(wbtest.load(ab_round)["ab"]["baseline_plugins"].startswith(rounds))
        # --from: the same calibration from the rounds.
        again = os.path.join(TMP, "again.json")
        r = wb("calibrate", "--from", ab_round, os.path.join(rounds, "round-2.json"), "--out", again)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual([c["min_threshold"] for c in wbtest.load(again)["configurations"]],
                         [c["min_threshold"] for c in doc["configurations"]])
        # A threshold below a configuration's least: judged at its least, and said.
        r = wb("compare", ab_round, "--threshold", "0.01", "--ignore-code-digest", "--calibration", cal, "--format",
               "json")
        self.assertIn(r.returncode, (0, 1), r.stdout + r.stderr)
        cmp = json.loads(r.stdout)
        self.assertEqual(len(cmp["calibration"]["judged_above_threshold"]), 2, cmp["calibration"])
        for c in cmp["configurations"]:
            self.assertAlmostEqual(c["calibration"]["gated_at"], rows[c["variant"]]["min_threshold"])
        self.assertTrue(any("cannot be gated at 0.0%" in w or "cannot be gated" in w for w in cmp["warnings"]))
        # Another device's calibration is refused.
        other = dict(doc, device=dict(doc["device"], name="Another GPU"))
        other_file = wbtest.write(os.path.join(TMP, "other.json"), json.dumps(other))
        r = wb("compare", ab_round, "--calibration", other_file)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("a calibration holds for its device", r.stderr)

    def test_bad_calibrations(self):
        plain = os.path.join(TMP, "plain.json")
        self.assertEqual(wb("run", suite(["tree"]), "--platform", "cpu", "--no-history", "--no-ceilings", "--out",
                            plain).returncode, 0)
        for args, why in ((["calibrate"], "give a SUITE"), (["calibrate", "--from", plain], "at least 2"),
                          (["calibrate", "--from", plain, plain], "no A/B run"),
                          (["calibrate", suite(["tree"]), "--runs", "1"], "--runs"),
                          (["compare", plain, "--calibration", plain], "no calibration file")):
            r = wb(*args)
            self.assertEqual(r.returncode, 2, (args, r.stdout + r.stderr))
            self.assertIn(why, r.stderr, args)


if __name__ == "__main__":
    wbtest.main()
