#!/usr/bin/env python3
"""Results files as hostile input to merge, compare and report (and a resource baseline to
inspect): JSON nested 100,000 deep, every field of a real run's results (and of its shards) and of a
tune's searches replaced by a value of each other type, terminal escape sequences and bidi controls
in every text, line separators in a metric's name. Each ends in a result or in exit 2 with a message
that names the file: never a signal, a library's own error text, or a control character printed
raw. Usage: results_input_test.py BUILD_DIR SOURCE_DIR"""
import copy
import json
import os
import re
import subprocess
import unittest

import wbtest

TMP = wbtest.tempdir()
SUITE = """[suite]
name = "results-input"
repetitions = 3
warmup = 1
seed = 5

[[benchmark]]
family = "reduce"
variants = ["atomic", "tree"]
n = 4096
"""

wb = wbtest.runner(db=os.path.join(TMP, "history.db"), errors="replace", timeout=120, stdin=subprocess.DEVNULL)

# What a library or the C++ runtime says when an error escapes unhandled.
RAW = ("json.exception", "stoll", "stod", "stoi", "what():", "terminate called", "basic_string", "std::")
# A value of each type, and the awkward ones of each.
ODD = [None, True, False, 0, -1, 2 ** 64, -2 ** 63 - 1, 1e308, -1e-300, 0.5, "", "x", "1000", "-1", [], {}, [1, "a"],
       {"a": 1}, [[]], {"": None}]
# Text no terminal may receive raw: C0 (but the newline), DEL, C1, bidi and line controls.
CONTROLS = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
HOSTILE = "\x1b[31mred\x1b]0;title\x07\x9b2J\u202eevil\u2066\u2028x\r\b\x7f"


def path(name):
    return os.path.join(TMP, name)


def save(doc, name):
    with open(path(name), "w") as f:
        json.dump(doc, f)
    return path(name)


def paths(node, at=()):
    """Every place in a document; of an array, its first element only (the others are alike)."""
    yield at
    if isinstance(node, dict):
        for k, v in node.items():
            yield from paths(v, at + (k,))
    elif isinstance(node, list) and node:
        yield from paths(node[0], at + (0,))


def replaced(doc, at, value):
    doc = copy.deepcopy(doc)
    node = doc
    for k in at[:-1]:
        node = node[k]
    node[at[-1]] = value
    return doc


class ResultsInput(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        suite = wbtest.write(path("suite.toml"), SUITE)
        for out, extra in (("base.json", []), ("s1.json", ["--shard", "1/2"]), ("s2.json", ["--shard", "2/2"])):
            r = wb("run", suite, "--platform", "cpu", "--no-ceilings", "--no-history", "--out", path(out), *extra)
            assert r.returncode == 0, r.stdout + r.stderr
        cls.base, cls.s1 = wbtest.load(path("base.json")), wbtest.load(path("s1.json"))

    def ends_well(self, r, what):
        """A result or a bounded message of its own: no signal, no library's text, nothing raw."""
        said = r.stdout + r.stderr
        self.assertIn(r.returncode, (0, 1, 2), (what, said[-2000:]))
        for raw in RAW:
            self.assertNotIn(raw, said, what)
        if r.returncode == 2:
            self.assertTrue(r.stderr.startswith("error: "), (what, r.stderr[-2000:]))
            self.assertLess(len(r.stderr), 5000, what)
        self.assertIsNone(CONTROLS.search(said.replace("\n", "")), (what, said[-2000:]))

    def commands(self, mutant):
        """The readers of a results file, with `mutant` as each input in turn."""
        base = path("base.json")
        return [("compare", base, mutant), ("compare", mutant, base, "--format", "markdown"),
                ("compare", mutant, mutant, "--format", "json"), ("report", mutant, "-o", path("m.html")),
                ("report", base, mutant, "-o", path("m2.html")), ("report", mutant, "--trend", "3", "-o", path("t.html"))]

    def test_json_nested_100000_deep_is_refused_naming_the_file(self):
        deep = "[" * 100000 + "]" * 100000
        inner = json.dumps(self.base).replace('"results": [', '"results": [' + deep + ",", 1)
        for name, text in (("deep.json", deep), ("deep-inside.json", inner)):
            f = wbtest.write(path(name), text)
            for args in [("merge", f, path("s2.json"), "-o", path("deep-merged.json"), "--no-history"),
                         *self.commands(f)]:
                with self.subTest(name=name, command=args[0]):
                    r = wb(*args)
                    self.assertEqual(r.returncode, 2, (args, r.stderr[-2000:]))
                    self.assertIn(name, r.stderr)
                    self.assertIn("nested deeper than 256 levels", r.stderr)
                    self.ends_well(r, args)
        self.assertFalse(os.path.exists(path("deep-merged.json")))
        # A resource baseline too (inspect --compare), read before the file to inspect.
        plugin = os.path.join(wbtest.BUILD, "plugins", "cpu", "reduce_atomic.so")
        r = wb("inspect", "--compare", path("deep.json"), plugin)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("the baseline '" + path("deep.json") + "' is not a resource baseline: arrays and objects "
                      "nested deeper than 256 levels", r.stderr)

    def test_every_field_of_every_type(self):
        # Each place of the results document (and of a shard, for merge) gets values of other
        # types in turn; each reader runs on each place (under ASan, a third of the readers on each
        # place, in rotation: every reader still meets a third of the places).
        every = list(paths(self.base))[1:]
        for i, at in enumerate(every):
            for j, args in enumerate(self.commands(path("mutant.json"))):
                if (i + j) % wbtest.stride():
                    continue
                value = ODD[(i * 7 + j) % len(ODD)]
                save(replaced(self.base, at, value), "mutant.json")
                self.ends_well(wb(*args), (at, value, args))
        for i, at in enumerate(list(paths(self.s1))[1:]):
            for k in range(2):
                if (i + k) % wbtest.stride():
                    continue
                value = ODD[(i * 3 + k * 11) % len(ODD)]
                save(replaced(self.s1, at, value), "mutant-shard.json")
                r = wb("merge", path("mutant-shard.json"), path("s2.json"), "-o", path("merged.json"), "--no-history")
                self.ends_well(r, (at, value))

    def test_counts_and_indices_out_of_range(self):
        # Numbers of the right type and the wrong size where merge and compare count and index.
        for at in (("shard", "count"), ("shard", "index"), ("shard", "plan_configs"), ("results", 0, "plan_index"),
                   ("results", 0, "device_index"), ("schema_version",)):
            for value in (-1, 2 ** 63, 2 ** 64 - 1, 2 ** 64, 1.5, 0):
                save(replaced(self.s1, at, value), "range.json")
                r = wb("merge", path("range.json"), path("s2.json"), "-o", path("merged.json"), "--no-history")
                self.ends_well(r, (at, value))
                for args in self.commands(path("range.json"))[:2]:
                    self.ends_well(wb(*args), (at, value, args))

    def hostile_pair(self):
        """BASE and NEW with HOSTILE in every text compare reads and prints, alike where they must match."""
        base = copy.deepcopy(self.base)
        for d in (base,):
            d["device"]["name"] += HOSTILE
            d["suite"]["name"] += HOSTILE
            for dev in d.get("devices", []):
                dev["name"] = d["device"]["name"]
            for r in d["results"]:
                r["family"] += HOSTILE
                r["variant"] += HOSTILE
                r["params"][HOSTILE] = HOSTILE
                for k in r.get("kernels", []):
                    k["name"] += HOSTILE
        now = copy.deepcopy(base)
        now.update(complete=False, stopped_by=HOSTILE)
        now["results"][0].update(status="failed", error=HOSTILE, verified=False)
        now["results"][1]["status"] = HOSTILE  # no status at all
        for k in now["results"][1].get("kernels", []):
            k["registers"] = (k.get("registers") or 0) + 8
        only = copy.deepcopy(now["results"][1])
        only["variant"] = "only" + HOSTILE
        now["results"].append(only)
        return (save(base, "hostile\x1b[2J-base.json"), save(now, "hostile\u202e-new.json"))

    def test_escape_sequences_in_results_are_shown_escaped(self):
        base, now = self.hostile_pair()
        for fmt in ("table", "markdown", "json"):
            for args in ((base, now), (now, base)):
                with self.subTest(fmt=fmt, args=args):
                    r = wb("compare", *args, "--format", fmt)
                    self.assertEqual(r.returncode, 1, r.stderr)
                    self.ends_well(r, fmt)
                    self.assertIn("\\x1b[31mred", r.stdout)  # shown, escaped
                    if fmt == "json":
                        self.assertTrue(r.stdout.isascii())
                        json.loads(r.stdout)
        for args in ((base, now), (now, base), (base,)):
            r = wb("report", *args, "-o", path("hostile.html"))
            self.ends_well(r, "report")  # NEW's status is none: refused, its message escaped
            self.assertEqual(r.returncode, 0 if len(args) == 1 else 2, r.stderr)
        # merge's messages name files escaped too.
        r = wb("merge", base, "-o", path("merged.json"), "--no-history")
        self.assertEqual(r.returncode, 2)
        self.ends_well(r, "merge")
        self.assertIn("\\x1b[2J", r.stderr)

    def test_every_field_of_a_tune_search(self):
        # The searches of `wavebench tune` (the report draws them): each place under `tune` gets a value
        # of another type in turn (a third of the places under ASan).
        r = wb("tune", path("suite.toml"), "--platform", "cpu", "--filter", "reduce/tree", "--strategy", "random",
               "--budget", "3", "--no-history", "--cache", path("tune-cache.jsonl"), "--out", path("tune.json"))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        doc = wbtest.load(path("tune.json"))
        places = [at for at in paths(doc) if at[:1] == ("tune",)][1:]
        self.assertGreater(len(places), 30)
        for i, at in enumerate(places):
            if i % wbtest.stride():
                continue
            save(replaced(doc, at, ODD[i % len(ODD)]), "tune-mutant.json")
            self.ends_well(wb("report", path("tune-mutant.json"), "-o", path("tm.html")), at)

    def test_line_separators_leave_the_report_data_parseable(self):
        doc = copy.deepcopy(self.base)
        for r in doc["results"]:
            if r.get("metric"):
                r["metric"]["name"] += "\u2028line"
                r["metric"]["unit"] += "\u2029para"
        doc["suite"]["description"] = "a\u2028b"
        save(doc, "separators.json")
        r = wb("report", path("separators.json"), "-o", path("separators.html"))
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(path("separators.html"), encoding="utf-8") as f:
            page = f.read()
        for script in re.findall(r"<script[^>]*>(.*?)</script>", page, re.S):
            self.assertNotIn("\u2028", script)
            self.assertNotIn("\u2029", script)
        data = json.loads(re.search(r'<script type="application/json" id="wavebench-data">(.*?)</script>', page,
                                    re.S).group(1))
        # Shown escaped, as the console shows them: Vega's expressions end a string at either.
        self.assertTrue(any("\\u2028line" in (r["metric"] or {}).get("name", "") for r in data["results"]))
        self.assertEqual(data["runs"][0]["description"], "a\\u2028b")
        self.assertNotIn("\u2028", json.dumps(data, ensure_ascii=False))


if __name__ == "__main__":
    wbtest.main()
