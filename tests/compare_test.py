#!/usr/bin/env python3
"""`wavebench compare`: a run compared with itself is `same-code` everywhere, `same` by its times
(--ignore-code-digest) (exit 0); a build of a
variant slowed on purpose (tests/regression/slowed.h) is `slower` (exit 1); doctored copies of a
run test what samples alone cannot: scattered or too few samples are `noisy`, a failure, resource
changes, new and missing configurations, another device, --fail-on, the output formats and bad
input. Usage: compare_test.py BUILD_DIR SOURCE_DIR"""
import copy
import json
import os
import random
import re
import statistics
import unittest

import wbtest
from wbtest import BUILD

TMP = wbtest.tempdir()
SLOWED = os.path.join(BUILD, "tests", "slowed-plugins")

SUITE = """[suite]
name = "compare-test"
repetitions = 25
warmup = 2
seed = 11

[[benchmark]]
family = "reduce"
variants = ["wavefront", "tree"]
n = [1048576]
"""


wb = wbtest.runner(db=os.path.join(TMP, "history.db"))


def run_suite(out, *extra):
    r = wb("run", SUITE_FILE, "--platform", "cpu", "--no-ceilings", "--out", out, *extra)
    assert r.returncode == 0, r.stdout + r.stderr
    return wbtest.load(out)


def save(doc, name):
    return wbtest.write(os.path.join(TMP, name), json.dumps(doc))


def compare(base, new, *opts):
    r = wb("compare", base, new, "--format", "json", *opts)
    doc = json.loads(r.stdout) if r.returncode in (0, 1) else None
    return r, doc


def verdicts(doc):
    return {(c["family"] + "/" + c["variant"]): c["verdict"] for c in doc["configurations"]}


class Compare(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.base = run_suite(BASE)
        # The slowed wavefront replaces the shipped one: --plugins directories come first. Only it
        # runs again, so no other configuration's noise between two runs on a shared CPU decides
        # the exit status (tree is `missing` in SLOW, which fails too, unless --fail-on leaves it out).
        cls.slow = run_suite(SLOW, "--plugins", SLOWED, "--filter", "reduce/wavefront")

    def row(self, doc, variant):
        return next(r for r in doc["results"] if r["variant"] == variant)

    def test_samples_are_kept(self):
        for r in self.base["results"]:
            self.assertEqual(len(r["samples_ms"]), r["time_ms_stats"]["samples"])
            self.assertEqual(len(r["wall_samples_ms"]), len(r["samples_ms"]))
            self.assertGreaterEqual(len(r["samples_ms"]), 25)
            self.assertAlmostEqual(statistics.median(r["samples_ms"]), r["time_ms"], places=9)
        self.assertEqual(self.base["schema_version"], 4)
        self.assertTrue(self.base["toolchain"])

    def test_a_run_against_itself_is_same_code_everywhere(self):
        for fmt in ("json", "table", "markdown"):
            r = wb("compare", BASE, BASE, "--format", fmt)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertIn("same-code", r.stdout)
        r, doc = compare(BASE, BASE)
        self.assertEqual(set(verdicts(doc).values()), {"same-code"})
        self.assertEqual(doc["same_code_false_alarms"], 0)
        # Its times, the code digests ignored: the medians do not differ.
        r, doc = compare(BASE, BASE, "--ignore-code-digest")
        self.assertEqual(set(verdicts(doc).values()), {"same"})
        for c in doc["configurations"]:
            self.assertEqual(c["change"], 0)
            self.assertLessEqual(c["ci"][0], 0)
            self.assertGreaterEqual(c["ci"][1], 0)
        self.assertFalse(doc["regressed"])

    def test_the_slowed_variant_is_slower(self):
        # The shipped build is the one set aside, as a second of that name.
        self.assertTrue(any("slowed-plugins" in p["reason"] for p in self.slow["plugins_rejected"]),
                        self.slow["plugins_rejected"])
        r, doc = compare(BASE, SLOW, "--fail-on", "slower")
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        v = verdicts(doc)
        self.assertEqual(v["reduce/wavefront"], "slower", json.dumps(doc["configurations"], indent=1))
        c = next(c for c in doc["configurations"] if c["variant"] == "wavefront")
        self.assertGreater(c["change"], 0.3)  # three times the work
        self.assertLess(c["p_value"], 0.01)
        self.assertGreater(c["ci"][0], 0)
        self.assertEqual(doc["regressions"], ["slower"])
        # The other way round it is faster, which fails nothing.
        r, doc = compare(SLOW, BASE)
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertEqual(verdicts(doc), {"reduce/wavefront": "faster", "reduce/tree": "new"})
        # --fail-on none: reported, not failed; the table says it in words.
        r = wb("compare", BASE, SLOW, "--fail-on", "none")
        self.assertEqual(r.returncode, 0)
        self.assertIn("slower", r.stdout)
        md = wb("compare", BASE, SLOW, "--format", "markdown", "--fail-on", "slower")
        self.assertEqual(md.returncode, 1)
        self.assertTrue(md.stdout.startswith("### wavebench compare"))
        rows = [l for l in md.stdout.splitlines() if l.startswith("|")]
        self.assertTrue(rows and all(l.count("|") == rows[0].count("|") for l in rows), md.stdout)

    def doctored(self, name, change):
        doc = copy.deepcopy(self.base)
        # Its samples or figures are another run's: with the base run's code digests it would be
        # same-code, whatever they say (test_a_run_against_itself_is_same_code_everywhere).
        for r in doc["results"]:
            r.pop("code_digest", None)
        change(doc)
        return save(doc, name)

    def test_scattered_samples_are_noisy(self):
        # Spread from half to two and a half times the median: 12% higher medians cannot be told apart.
        spread = [0.5 + 2 * i / 24 for i in range(25)]
        random.Random(5).shuffle(spread)

        def scatter(k):
            def change(doc):
                for r in doc["results"]:
                    r["samples_ms"] = [r["time_ms"] * k * x for x in spread]
            return change

        a, b = self.doctored("scatter-a.json", scatter(1)), self.doctored("scatter-b.json", scatter(1.12))
        r, doc = compare(a, b)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        for c in doc["configurations"]:
            self.assertEqual(c["verdict"], "noisy", c)
            self.assertIn("scattered", c["reason"])
            self.assertGreater(c["p_value"], 0.01)
            self.assertAlmostEqual(c["change"], 0.12, places=6)

    def test_too_few_samples_of_a_slowdown_are_untested_and_fail(self):
        def few(doc, k):
            for r in doc["results"]:
                r["samples_ms"] = [r["time_ms"] * k * x for x in (0.99, 1.0, 1.01)]

        a = self.doctored("few-a.json", lambda d: few(d, 1))
        b = self.doctored("few-b.json", lambda d: few(d, 2))
        r, doc = compare(a, b)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertEqual(set(verdicts(doc).values()), {"untested"})
        self.assertIn("too few", doc["configurations"][0]["reason"])
        self.assertIn("untested", doc["regressions"])
        # Faster with as few samples is only noisy: no slowdown goes untested.
        r, doc = compare(b, a)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(set(verdicts(doc).values()), {"noisy"})
        # A verified NEW without samples cannot pass either.
        bare = self.doctored("bare.json", lambda d: [r.update(samples_ms=[]) for r in d["results"]])
        r, doc = compare(a, bare)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertEqual(set(verdicts(doc).values()), {"untested"})
        self.assertEqual(compare(a, bare, "--fail-on", "slower")[0].returncode, 0)

    def test_skipped_in_new_what_base_verified_fails(self):
        def skip(doc):
            for r in doc["results"]:
                r.update(status="skipped", verified=False)

        skipped = self.doctored("skipped.json", skip)
        r, doc = compare(BASE, skipped)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertEqual(set(verdicts(doc).values()), {"failed"})
        self.assertIn("skipped in NEW", doc["configurations"][0]["reason"])
        # Skipped in BASE is no regression.
        self.assertEqual(set(verdicts(compare(skipped, BASE)[1]).values()), {"skipped"})

    def test_a_failure_fails(self):
        def fail(doc):
            r = self.row(doc, "tree")
            r.update(status="failed", verified=False, error="run 3: element 7 is 5, expected 4")

        bad = self.doctored("failed.json", fail)
        r, doc = compare(BASE, bad)
        self.assertEqual(r.returncode, 1)
        self.assertEqual(verdicts(doc)["reduce/tree"], "failed")
        self.assertIn("element 7", next(c for c in doc["configurations"] if c["variant"] == "tree")["reason"])
        self.assertEqual(compare(BASE, bad, "--fail-on", "slower")[0].returncode, 0)
        r, doc = compare(bad, BASE)
        self.assertEqual((r.returncode, verdicts(doc)["reduce/tree"]), (0, "fixed"))

    def test_resources(self):
        def more_registers(doc):
            for k in self.row(doc, "tree")["kernels"]:
                k["registers"] = 96
                k["scratch_bytes"] = 64
            for k in self.row(doc, "wavefront")["kernels"]:
                k["occupancy"] = {"value": 1, "max": 2, "unit": "blocks per worker", "percent": 50, "blocks": 1}

        def fewer_registers(doc):
            for k in self.row(doc, "tree")["kernels"]:
                k["registers"] = 64
                k["scratch_bytes"] = 0

        a, b = self.doctored("regs-a.json", fewer_registers), self.doctored("regs-b.json", more_registers)
        r, doc = compare(a, b)
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("resources", doc["regressions"])
        fields = {(c["field"], c["worse"]) for x in doc["configurations"] for c in x["resources"]}
        self.assertIn(("registers", True), fields)
        self.assertIn(("scratch_bytes", True), fields)
        self.assertEqual(compare(a, b, "--fail-on", "slower,failed")[0].returncode, 0)
        r, doc = compare(b, a)  # fewer registers, more scratch gone: better, not a regression
        self.assertNotIn("resources", doc["regressions"])
        self.assertIn("registers", wb("compare", a, b).stdout)

    def test_other_clocks_throttling_and_energy_are_noted_not_gated(self):
        def ran_at(mhz, throttled, joules):
            def change(doc):
                for r in doc["results"]:
                    r["telemetry"] = {"source": "nvml", "samples": 20, "sm_mhz": {"min": mhz, "median": mhz, "max": mhz},
                                      "throttled": throttled}
                    r["energy"] = {"joules_per_run": joules, "unit": "B"}
            return change

        a = self.doctored("clock-a.json", ran_at(1980, 0, 0.004))
        b = self.doctored("clock-b.json", ran_at(1755, 3, 0.005))
        r, doc = compare(a, b)
        self.assertEqual(r.returncode, 0, r.stdout)  # the same samples: nothing regressed
        self.assertEqual(doc["other_clocks"], len(doc["configurations"]))
        c = doc["configurations"][0]["conditions"]
        self.assertEqual(c["sm_mhz"], [1980, 1755])
        self.assertTrue(c["clocks_differ"])
        self.assertEqual(c["throttled_runs"], [0, 3])
        self.assertAlmostEqual(c["energy"]["change"], 0.25)
        self.assertTrue(c["energy"]["large"])
        text = wb("compare", a, b).stdout
        self.assertIn("ran at other clocks: SM 1980 MHz in BASE, 1755 MHz in NEW", text)
        self.assertIn("throttled runs: 0 in BASE, 3 in NEW", text)
        self.assertIn("energy per run +25.0% (4 mJ in BASE, 5 mJ in NEW)", text)
        self.assertIn("ran at other clocks", text.strip().splitlines()[-1])
        # 1% apart at most, and without telemetry (an older results file): nothing said.
        r, doc = compare(a, self.doctored("clock-c.json", ran_at(1965, 0, 0.004)))
        self.assertEqual(doc["other_clocks"], 0)
        self.assertFalse(doc["configurations"][0]["conditions"]["clocks_differ"])
        def no_telemetry(doc):
            for r in doc["results"]:
                r.pop("telemetry", None)
                r.pop("energy", None)

        r, doc = compare(a, self.doctored("clock-d.json", no_telemetry))
        self.assertEqual(doc["other_clocks"], 0)
        self.assertEqual(doc["configurations"][0]["conditions"], {})

    def test_new_and_missing(self):
        def drop_tree(doc):
            doc["results"] = [r for r in doc["results"] if r["variant"] != "tree"]

        fewer = self.doctored("fewer.json", drop_tree)
        r, doc = compare(BASE, fewer)
        self.assertEqual((r.returncode, verdicts(doc)["reduce/tree"]), (1, "missing"))
        self.assertEqual(doc["regressions"], ["missing"])
        self.assertEqual(compare(BASE, fewer, "--fail-on", "any")[0].returncode, 1)
        # A user who knows NEW is a subset leaves `missing` out.
        r, doc = compare(BASE, fewer, "--fail-on", "slower,failed,resources,incomplete,unmatched")
        self.assertEqual((r.returncode, doc["regressions"]), (0, []))
        r, doc = compare(fewer, BASE)
        self.assertEqual((r.returncode, verdicts(doc)["reduce/tree"]), (0, "new"))

    def test_an_interrupted_new_fails_and_says_so(self):
        # A run stopped by SIGTERM after its first configuration: `complete` false, 1 of 2 results.
        def killed(doc):
            doc.update(complete=False, stopped_by="SIGTERM", results=doc["results"][:1])

        cut = self.doctored("killed.json", killed)
        r, doc = compare(BASE, cut)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertEqual(doc["regressions"], ["incomplete", "missing"])
        self.assertFalse(doc["new"]["complete"])
        self.assertTrue(doc["base"]["complete"])
        self.assertIn("NEW (", doc["warnings"][0])
        self.assertIn("incomplete", doc["warnings"][0])
        self.assertIn("SIGTERM", doc["warnings"][0])
        for fmt in ("table", "markdown"):
            out = wb("compare", BASE, cut, "--format", fmt)
            self.assertEqual(out.returncode, 1)
            self.assertIn("NEW incomplete", out.stdout)
            self.assertIn("regressed: incomplete, missing", out.stdout)
            self.assertIn("warning", out.stdout)
        # Interrupted with every configuration there still fails: complete is what the run says.
        whole = self.doctored("killed-late.json", lambda d: d.update(complete=False, stopped_by="SIGINT"))
        r, doc = compare(BASE, whole)
        self.assertEqual((r.returncode, doc["regressions"]), (1, ["incomplete"]))
        # --fail-on relaxes it; the warning stays.
        r, doc = compare(BASE, whole, "--fail-on", "slower,failed")
        self.assertEqual((r.returncode, doc["regressions"]), (0, []))
        self.assertIn("incomplete", wb("compare", BASE, whole, "--fail-on", "slower").stdout)
        # An interrupted BASE is a weaker baseline: a warning, no failure.
        r, doc = compare(cut, BASE)
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertFalse(doc["base"]["complete"])
        self.assertIn("BASE (", doc["warnings"][0])
        self.assertIn("weaker baseline", doc["warnings"][0])
        self.assertIn("BASE incomplete", wb("compare", cut, BASE).stdout)
        # A document that does not say whether it is complete is no results document.
        for value in (None, "yes", 1):
            odd = self.doctored("odd-complete.json", lambda d: d.update(complete=value))
            r = wb("compare", BASE, odd)
            self.assertEqual(r.returncode, 2, r.stdout)
            self.assertIn("'complete' is not true or false", r.stderr)

    def test_nothing_matched_fails_and_says_why(self):
        def renamed(doc):
            for r in doc["results"]:
                r["family"] = "reduce2"

        def as_text(doc):
            for r in doc["results"]:
                r["params"]["n"] = str(r["params"]["n"])

        cases = [(self.doctored("empty.json", lambda d: d.update(results=[])), ["NEW has no results"]),
                 (self.doctored("renamed.json", renamed), ["which has no reduce/", "NEW's benchmarks: reduce2/"]),
                 (self.doctored("as-text.json", as_text), ['n 1048576 in BASE, "1048576" in NEW'])]
        for path, says in cases:
            with self.subTest(path=os.path.basename(path)):
                r, doc = compare(BASE, path)
                self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
                self.assertEqual(doc["matched"], 0)
                self.assertIn("unmatched", doc["regressions"])
                self.assertTrue(doc["warnings"][0].startswith("nothing matched"), doc["warnings"])
                for s in says:
                    self.assertIn(s, doc["warnings"][0])
                out = wb("compare", BASE, path)
                self.assertIn("nothing matched", out.stdout)
                self.assertIn("regressed: unmatched", out.stdout)
                # Relaxed to `slower`, nothing fails; relaxed to `missing` (a subset), nothing matched still fails.
                self.assertEqual(compare(BASE, path, "--fail-on", "slower")[0].returncode, 0)
                r, doc = compare(BASE, path, "--fail-on", "slower,unmatched")
                self.assertEqual((r.returncode, doc["regressions"]), (1, ["unmatched"]))
        # Two empty runs compare nothing: that is no pass either.
        empty = os.path.join(TMP, "empty.json")
        self.assertEqual(compare(empty, empty)[1]["regressions"], ["unmatched"])

    def test_a_number_matches_by_its_value(self):
        # n written 1048576.0 (another writer, a script that rounds through float) is the same configuration.
        def floats(doc):
            for r in doc["results"]:
                r["params"]["n"] = float(r["params"]["n"])

        path = self.doctored("floats.json", floats)
        with open(path) as f:
            self.assertIn('"n": 1048576.0', f.read())
        r, doc = compare(BASE, path)
        self.assertEqual((r.returncode, set(verdicts(doc).values())), (0, {"same"}), r.stdout)
        self.assertEqual(doc["matched"], len(self.base["results"]))
        # A value that differs is another configuration.
        half = self.doctored("half.json", lambda d: [r["params"].update(n=1048576.5) for r in d["results"]])
        r, doc = compare(BASE, half)
        self.assertEqual(r.returncode, 1)
        self.assertIn("n 1048576 in BASE, 1048576.5 in NEW", doc["warnings"][0])

    def test_the_report_shows_the_same_gate(self):
        def killed(doc):
            doc.update(complete=False, stopped_by="SIGTERM", results=doc["results"][:1])

        cut = self.doctored("killed-report.json", killed)
        page = os.path.join(TMP, "gate.html")
        r = wb("report", BASE, cut, "-o", page)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(page) as f:
            html = f.read()
        data = json.loads(re.search(r'<script type="application/json" id="wavebench-data">(.*?)</script>', html,
                                    re.S).group(1))
        _, cmp = compare(BASE, cut)
        self.assertEqual(data["compare"]["regressions"], cmp["regressions"])
        self.assertEqual(data["compare"]["warnings"], cmp["warnings"])
        self.assertIn("c.warnings", html)  # the page draws them

    def test_another_device_is_refused_unless_asked(self):
        def other_gpu(d):
            d["device"].update(name="Some Other GPU")
            for dev in d["devices"]:
                dev.update(name="Some Other GPU")
        other = self.doctored("other-device.json", other_gpu)
        r = wb("compare", BASE, other)
        self.assertEqual(r.returncode, 2)
        self.assertIn("Some Other GPU", r.stderr)
        self.assertIn("--allow-device-change", r.stderr)
        self.assertEqual(wb("compare", BASE, other, "--allow-device-change").returncode, 0)
        # A run over several devices (--devices) is compared by the models of all of them.
        mixed = self.doctored("mixed-devices.json",
                              lambda d: d["devices"].append(dict(d["devices"][0], ordinal=1, name="Some Other GPU")))
        r = wb("compare", BASE, mixed)
        self.assertEqual(r.returncode, 2)
        self.assertIn("Some Other GPU", r.stderr)
        tc = self.doctored("other-toolchain.json", lambda d: d.update(toolchain="GNU 99.1"))
        r = wb("compare", BASE, tc)
        self.assertEqual(r.returncode, 2)
        self.assertIn("toolchain", r.stderr)

    def test_options_and_bad_input(self):
        # 30% slower with tight samples: `slower` at the default threshold, `same` at 50%.
        def tight(k):
            def change(doc):
                for r in doc["results"]:
                    r["samples_ms"] = [r["time_ms"] * k * (1 + 0.001 * i) for i in range(25)]
            return change

        base, slow30 = self.doctored("tight.json", tight(1)), self.doctored("slower30.json", tight(1.3))
        self.assertEqual(set(verdicts(compare(base, slow30)[1]).values()), {"slower"})
        r, doc = compare(base, slow30, "--threshold", "50")
        self.assertEqual((r.returncode, set(verdicts(doc).values())), (0, {"same"}))
        # --fdr: significance across the comparison, a q-value beside each p-value; Q strictly
        # between 0 and 1 (below).
        r, doc = compare(base, slow30, "--fdr", "0.05")
        self.assertEqual((r.returncode, set(verdicts(doc).values())), (1, {"slower"}), r.stderr)
        self.assertEqual(doc["options"]["fdr"], 0.05)
        for c in doc["configurations"]:
            self.assertGreaterEqual(c["q_value"], c["p_value"])
            self.assertIn("q = ", c["reason"])
        self.assertIsNone(compare(base, slow30)[1]["options"]["fdr"])
        for fmt in ("table", "markdown"):
            r = wb("compare", base, slow30, "--fdr", "0.05", "--format", fmt)
            self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
            self.assertIn("false discovery rate 0.05 over 2 tests", r.stdout)
        old = self.doctored("schema2.json", lambda d: d.update(schema_version=2))
        for args, needle in [((old, BASE), "schema_version 2"),
                             ((BASE, os.path.join(TMP, "nothing.json")), "nothing.json"),
                             ((BASE, BASE, "--alpha", "2"), "--alpha"),
                             ((BASE, BASE, "--fdr", "0"), "--fdr"),
                             ((BASE, BASE, "--fdr", "1.5"), "--fdr"),
                             ((BASE, BASE, "--fdr", "1"), "above 0 and below 1"),
                             ((BASE, BASE, "--fail-on", "sometimes"), "sometimes"),
                             ((BASE, BASE, "--format", "html"), "html"),
                             ((BASE, save({"results": 3}, "garbage.json")), "garbage.json")]:
            r = wb("compare", *args)
            self.assertEqual(r.returncode, 2, (args, r.stdout, r.stderr))
            self.assertIn(needle, r.stderr)

    def test_mutated_results_end_with_a_verdict_or_a_message(self):
        # Results files are input: a value of any type anywhere ends in a comparison or exit 2,
        # never a crash.
        rng = random.Random(7)
        odd = [None, True, -1, 1e308, "", "x" * 300, [], {}, [1, "a"], {"a": 1}, "\u202e|\n"]

        def paths(node, at=()):
            yield at
            items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else []
            for k, v in items:
                yield from paths(v, at + (k,))

        every = list(paths(self.base))
        for i in range(150 // wbtest.stride()):
            doc = copy.deepcopy(self.base)
            for _ in range(rng.randint(1, 3)):
                at = rng.choice(every[1:])
                try:
                    node = doc
                    for k in at[:-1]:
                        node = node[k]
                    if rng.random() < 0.2 and isinstance(node, dict):
                        del node[at[-1]]
                    else:
                        node[at[-1]] = rng.choice(odd)
                except (KeyError, IndexError, TypeError):
                    pass
            path = save(doc, f"mutant-{i}.json")
            for args in ((BASE, path), (path, BASE)):
                r = wb("compare", *args, "--format", rng.choice(["table", "markdown", "json"]))
                self.assertIn(r.returncode, (0, 1, 2), (at, r.stderr[-2000:]))
                if r.returncode == 2:
                    self.assertTrue(r.stderr.startswith("error: "), r.stderr[-2000:])
                    self.assertLess(len(r.stderr), 5000)


if __name__ == "__main__":
    SUITE_FILE = wbtest.write(os.path.join(TMP, "suite.toml"), SUITE)
    BASE, SLOW = os.path.join(TMP, "base.json"), os.path.join(TMP, "slow.json")
    wbtest.main()
