#!/usr/bin/env python3
"""`wavebench report` pages rendered in headless Chromium (Debian's chromium): a fresh cpu run of
reduce, conv and converge (with --amd-static where the amd platform is built, else AMD figures
added to a copy), two runs (the compare view, and two that cannot be compared), three runs of the
history (the trend), and a run whose names and messages are hostile HTML. Each page must draw every
chart it meant to (the page's script counts them on <body>), with no error, no console message and
no network request (Chromium's net log is read; every host name resolves to nothing), and show the
data (variants and parameters in the charts' SVG). Also the command's bad input. Exit 77 (skipped)
when chromium is not installed, after the checks that need no browser.
Usage: report_test.py BUILD_DIR SOURCE_DIR"""
import copy
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import wbtest
from wbtest import BUILD

CHROMIUM = shutil.which("chromium")
AMD = os.path.isdir(os.path.join(BUILD, "plugins", "amd"))
TMP = wbtest.tempdir("wavebench-report-test-")

SUITE = """[suite]
name = "report-test"
description = "reduce, conv and converge at two sizes each"
repetitions = 3
warmup = 1
seed = 7

[[benchmark]]
family = "reduce"
variants = ["atomic", "tree", "wavefront", "library"]
n = [4096, 65536]

[[benchmark]]
family = "conv"
variants = ["*"]
n = [4099]
m = [5, 33]

[[benchmark]]
family = "converge"
variants = ["*"]
lanes = 256
iterations = 8
branch_len = [4, 16]
nonbranch_len = 4
pattern = ["random", "advanceable"]
p = 0.5
"""


wb = wbtest.runner(cwd=TMP, db=os.path.join(TMP, "history.db"))


def path(name):
    return os.path.join(TMP, name)


def load(name):
    with open(path(name)) as f:
        return json.load(f)


def save(doc, name):
    with open(path(name), "w") as f:
        json.dump(doc, f)
    return path(name)


def report(*args):
    r = wb("report", *args)
    assert r.returncode == 0, r.stdout + r.stderr
    return r


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent, self.children, self.text = tag, dict(attrs), parent, [], ""

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()

    def find(self, pred):
        return [n for n in self.walk() if pred(n)]

    def all_text(self):
        return self.text + "".join(c.all_text() for c in self.children)


class Tree(html.parser.HTMLParser):
    VOID = {"meta", "link", "br", "img", "input", "hr", "wbr", "area", "base", "col", "source"}

    def __init__(self, text):
        super().__init__()
        self.root = self.at = Node("#root", [], None)
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        n = Node(tag, attrs, self.at)
        self.at.children.append(n)
        if tag not in self.VOID:
            self.at = n

    def handle_startendtag(self, tag, attrs):
        self.at.children.append(Node(tag, attrs, self.at))

    def handle_endtag(self, tag):
        n = self.at
        while n is not None and n.tag != tag:
            n = n.parent
        if n is not None and n.parent is not None:
            self.at = n.parent

    def handle_data(self, data):
        self.at.text += data


FLAGS = ["--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--no-default-browser-check",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions",
         "--host-resolver-rules=MAP * ~NOTFOUND", "--enable-logging=stderr", "--v=0", "--virtual-time-budget=30000"]


def page_requests(netlog):
    """The URLs the page asked for: requests of the file:// site (the browser's own background
    requests belong to no site)."""
    with open(netlog) as f:
        text = f.read()
    try:
        log = json.loads(text)
    except json.JSONDecodeError:  # a log Chromium did not close
        log = json.loads(text.rstrip().rstrip(",") + "]}")
    names = {v: k for k, v in log["constants"]["logEventTypes"].items()}
    urls = []
    for e in log["events"]:
        p = e.get("params", {})
        if names.get(e["type"]) == "URL_REQUEST_START_JOB" and "url" in p and (
                p.get("initiator") not in (None, "not an origin") or "file://" in p.get("network_isolation_key", "")):
            urls.append(p["url"])
    return urls


def render(page):
    """The page in headless Chromium: its DOM once drawn, the console lines, the requests it made."""
    profile = tempfile.mkdtemp(dir=TMP)
    netlog = os.path.join(profile, "net.json")
    r = subprocess.run([CHROMIUM, *FLAGS, "--user-data-dir=" + profile, "--log-net-log=" + netlog, "--dump-dom",
                        "file://" + os.path.abspath(page)], capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stderr[-3000:]
    console = [line for line in r.stderr.splitlines() if ":CONSOLE" in line]
    return Tree(r.stdout), console, page_requests(netlog)


class Page:
    """A rendered report, checked to be whole: every chart drawn, nothing logged or requested."""

    def __init__(self, test, page, min_charts):
        self.tree, console, requests = render(page)
        body = self.tree.root.find(lambda n: n.tag == "body")[0].attrs
        test.assertEqual(body.get("data-done"), "true", "the page never finished drawing")
        test.assertEqual(json.loads(body["data-errors"]), [])
        test.assertEqual(json.loads(body["data-warnings"]), [])
        test.assertEqual(console, [], "the page logged to the console")
        test.assertEqual(requests, [], "the page made requests")
        self.expected, self.rendered = int(body["data-charts-expected"]), int(body["data-charts-rendered"])
        test.assertEqual(self.rendered, self.expected, "charts that drew nothing")
        test.assertGreaterEqual(self.expected, min_charts)
        self.text = self.tree.root.find(lambda n: n.attrs.get("id") == "report")[0].all_text()  # what the page shows

    def section(self, title):
        found = [s for s in self.tree.root.find(lambda n: n.tag == "section")
                 if s.children and s.children[0].tag == "h2" and s.children[0].text == title]
        assert len(found) == 1, "no section " + title
        return found[0]

    def cards(self, section):
        """{card title: card node} of a section."""
        return {c.children[0].text: c for c in section.find(lambda n: n.attrs.get("class", "").startswith("card"))}

    @staticmethod
    def marks(node, role):
        """The aria-labels of the SVG marks of one kind (point, rect, ...) under node: Vega writes
        each item's fields there."""
        return [n.attrs.get("aria-label", "") for n in node.find(lambda n: n.attrs.get("aria-roledescription") == role)]


def param_text(params):
    """Parameters as the page writes them: "block_size=256 n=4096"."""
    def value(v):
        if isinstance(v, bool):
            return str(v).lower()
        if isinstance(v, (int, float)) and float(v).is_integer():
            return "%d" % v
        return str(v)
    return " ".join(k + "=" + value(v) for k, v in sorted(params.items()))


def with_amd_figures(doc):
    """A copy of a run as --amd-static would have it (figures made up, two targets)."""
    doc = copy.deepcopy(doc)
    for r in doc["results"]:
        i = len(r["variant"])
        for k in r["kernels"]:
            k["amd_static"] = [{"target": t, "vgprs": 8 + 4 * (i % 9) + j, "agprs": 0, "sgprs": 20, "lds_bytes": 0,
                                "scratch_bytes": 0, "vgpr_spills": 0, "sgpr_spills": 0, "wavefront_size": 64,
                                "occupancy": {"waves_per_simd": 8 - (i % 5) - j, "max": 8 if j else 10, "limiter": "VGPRs"}}
                               for j, t in enumerate(["gfx90a", "gfx1030"])]
    return doc


@unittest.skipUnless(CHROMIUM, "chromium is not installed")
class Rendered(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(path("suite.toml"), "w") as f:
            f.write(SUITE)
        for i in (1, 2, 3):
            extra = ["--amd-static"] if AMD and i == 1 else []
            r = wb("run", "suite.toml", "--platform", "cpu", "--out", path("r%d.json" % i), *extra)
            assert r.returncode == 0, r.stdout + r.stderr
        cls.runs = [load("r%d.json" % i) for i in (1, 2, 3)]

    def check_families(self, page, doc):
        verified = [r for r in doc["results"] if r["status"] == "verified"]
        for family, unit in (("reduce", "bandwidth (GB/s)"), ("conv", "multiply_adds (GMAC/s)"), ("converge", "multiply_adds (GFMA/s)")):
            section = page.section(family)
            cards = page.cards(section)
            self.assertIn("Throughput", cards)
            self.assertIn("Speedup over the family baseline", cards)
            points = page.marks(cards["Throughput"], "point")
            rows = [r for r in verified if r["family"] == family]
            self.assertEqual(len(points), len(rows), family)
            for r in rows:  # each verified result is a point of the throughput chart, with its figures
                label = "variant: %s;" % r["variant"]
                self.assertTrue(any(label in p and "parameters: " + param_text(r["params"]) + ";" in p and unit in p for p in points),
                                "%s %s %s not drawn" % (family, r["variant"], r["params"]))
            legend = section.find(lambda n: n.attrs.get("class") == "legend")[0].all_text()
            for v in {r["variant"] for r in doc["results"] if r["family"] == family}:
                self.assertIn(v, legend)
            if family != "converge":
                self.assertIn("Fraction of the measured ceiling", cards)
        converge = page.cards(page.section("converge"))
        model = converge["Measured speedup against the model (seed 002, Fig. 4: loop postpone; Fig. 5: loop advance)"]
        lines = page.marks(model, "line mark")
        svg_text = "".join(n.all_text() for n in model.find(lambda n: n.tag == "svg"))
        measured = page.marks(model, "point")  # a dot per measured speedup, the model's beside it
        rows = [r for r in verified if r["family"] == "converge" and r["variant"] != "baseline"]
        self.assertEqual(len(measured), len(rows))
        def figures(label):  # "variant: advance; ...; measured: 0.912; model: 1.153"
            m = re.search(r"variant: ([^;]+);.*measured: ([-0-9.]+); model: ([-0-9.]+)", label)
            return m.group(1), float(m.group(2)), float(m.group(3))
        drawn = [figures(p) for p in measured]
        for r in rows:  # to the 3 decimals the tooltip shows
            self.assertTrue(any(v == r["variant"] and abs(a - r["speedup_vs_baseline"]) < 6e-4 and abs(b - r["model_speedup"]) < 6e-4
                                for v, a, b in drawn), r["variant"])
        self.assertIn("branch / non-branch instructions", svg_text)
        self.assertIn("random", svg_text)
        self.assertIn("advanceable", svg_text)
        # Two panels (patterns) of three variants, measured and model each.
        self.assertEqual(len(lines), 12, lines)

    def check_amd(self, page, doc):
        for family in ("reduce", "conv", "converge"):
            cards = page.cards(page.section(family))
            heat = cards["AMD: VGPRs and waves per SIMD per target"]
            cells = page.marks(heat, "rect mark")
            kernels = {(r["variant"], k["name"], t["target"], t["vgprs"])
                       for r in doc["results"] if r["family"] == family for k in r["kernels"] for t in (k["amd_static"] or [])}
            self.assertEqual(len(cells), 2 * len({k[:3] for k in kernels}), family)  # VGPRs and waves, per kernel and target
            for variant, _, target, vgprs in kernels:
                self.assertTrue(any(variant in c and "target: " + target in c and "VGPRs: %d;" % vgprs in c for c in cells),
                                (variant, target, vgprs))

    def test_a_run(self):
        report(path("r1.json"), "-o", path("run.html"))
        page = Page(self, path("run.html"), 9)
        self.check_families(page, self.runs[0])
        self.assertIn("report-test", page.text)
        self.assertIn(self.runs[0]["device"]["name"], page.text)
        self.assertIn("30 verified", page.text)
        self.assertIn("2 skipped", page.text)
        self.assertIn("the cpu platform has no vendor reduction library", page.text)
        if AMD:
            self.check_amd(page, self.runs[0])
        else:
            self.assertIn("wavebench run SUITE --amd-static", page.text)
            save(with_amd_figures(self.runs[0]), "amd.json")
            report(path("amd.json"), "-o", path("amd.html"))
            amd = Page(self, path("amd.html"), 12)
            self.check_amd(amd, load("amd.json"))
            self.assertNotIn("wavebench run SUITE --amd-static", amd.text)

    def test_two_runs_compared(self):
        r = report(path("r1.json"), path("r2.json"), "-o", path("compare.html"))
        self.assertIn("the comparison of the two runs", r.stdout)
        page = Page(self, path("compare.html"), 10)
        section = page.section("Compare")
        cmp = json.loads(wb("compare", path("r1.json"), path("r2.json"), "--format", "json", "--fail-on", "none").stdout)
        measured = [c for c in cmp["configurations"] if c["change"] is not None]
        chart = page.cards(section)["Change of the median kernel time per configuration"]
        self.assertEqual(len(page.marks(chart, "point")), len(measured))
        rows = section.find(lambda n: n.tag == "tbody")[0].children
        self.assertEqual(len(rows), len(cmp["configurations"]))
        table = [[td.all_text() for td in tr.children] for tr in rows]
        for c in cmp["configurations"]:
            self.assertIn(c["verdict"], [t[0] for t in table if t[1].startswith(c["family"] + "/" + c["variant"])])
        for name in ("faster", "slower", "same", "noisy"):
            if cmp["counts"][name]:
                self.assertIn("%d %s" % (cmp["counts"][name], name), section.all_text())

    def test_energy_and_clocks_of_a_comparison_are_shown(self):
        # Results of --energy with telemetry (as a GPU run writes them): the compare view's table
        # gets a conditions column with the energy change and the clocks that differ.
        docs = [copy.deepcopy(self.runs[0]), copy.deepcopy(self.runs[1])]
        for doc, joules, mhz in zip(docs, (0.002, 0.0026), (1980, 1410)):
            first = next(r for r in doc["results"] if r["status"] == "verified")
            first["energy"] = {"joules_per_run": joules}
            first["telemetry"] = {"sm_mhz": {"median": mhz}, "throttled": 0}
            label = first["family"] + "/" + first["variant"]
        save(docs[0], "e1.json")
        save(docs[1], "e2.json")
        report(path("e1.json"), path("e2.json"), "-o", path("energy.html"))
        page = Page(self, path("energy.html"), 10)
        section = page.section("Compare")
        head = [th.all_text() for th in section.find(lambda n: n.tag == "th")]
        self.assertIn("conditions", head)
        rows = [[td.all_text() for td in tr.children] for tr in section.find(lambda n: n.tag == "tbody")[0].children]
        marked = [t for t in rows if "energy +30.0%" in t[-1]]
        self.assertEqual(len(marked), 1, rows)
        self.assertTrue(marked[0][1].startswith(label), marked)
        self.assertIn("SM clock 1980 → 1410 MHz", marked[0][-1])
        self.assertIn("J per run", marked[0][-1])

    def test_two_runs_that_cannot_be_compared(self):
        other = copy.deepcopy(self.runs[1])
        other["device"]["name"] = "Another Device 9000"
        for d in other["devices"]:
            d["name"] = "Another Device 9000"
        save(other, "other.json")
        r = report(path("r1.json"), path("other.json"), "-o", path("refused.html"))
        self.assertIn("cannot be compared", r.stderr)
        page = Page(self, path("refused.html"), 9)
        section = page.section("Compare")
        self.assertIn("These two runs are not compared", section.all_text())
        self.assertIn("Another Device 9000", section.all_text())
        self.assertEqual(page.cards(section), {})
        report(path("r1.json"), path("other.json"), "--allow-device-change", "-o", path("allowed.html"))
        allowed = Page(self, path("allowed.html"), 10)
        self.assertIn("Ran differently: device", allowed.section("Compare").all_text())

    def test_three_runs_of_the_history(self):
        for args in (["1", "2", "3"], ["latest", "--trend", "3"]):
            r = report(*args, "-o", path("trend.html"))
            self.assertIn("the trend of 3 runs", r.stdout)
            page = Page(self, path("trend.html"), 12)
            section = page.section("Trend")
            cards = page.cards(section)
            self.assertEqual(set(cards), {f + ": median kernel time per run" for f in ("reduce", "conv", "converge")})
            # Each configuration a panel titled with its variant and parameters, a median per run.
            reduce = cards["reduce: median kernel time per run"]
            names = {t.all_text() for t in reduce.find(lambda n: n.tag == "text")}
            for v in ("atomic", "tree", "wavefront"):
                for n in (4096, 65536):
                    self.assertIn("%s n=%d" % (v, n), names)
            medians = page.marks(reduce, "point")
            self.assertEqual(len(medians), 3 * 6)
            self.assertTrue(all(re.search(r"run: #[123];", m) for m in medians), medians[:2])
            self.assertEqual(sorted(m.split("run: ")[1][:2] for m in medians), sorted(["#1", "#2", "#3"] * 6))

    def test_a_run_on_two_devices_names_them(self):
        doc = copy.deepcopy(self.runs[0])
        doc["devices"] = [dict(doc["devices"][0], ordinal=k, host="node-%d" % k) for k in (0, 1)]
        save(doc, "two-devices.json")
        report(path("two-devices.json"), "-o", path("two-devices.html"))
        page = Page(self, path("two-devices.html"), 9)
        name = doc["devices"][0]["name"]
        self.assertIn("2 devices: 0 %s on node-0, 1 %s on node-1" % (name, name), page.text)

    def test_a_tune_run_shows_each_search_and_its_convergence(self):
        # A real tune on cpu of the tune tests' plugin (a crashing and a failing candidate among
        # others) at two sizes: a table row and a panel per search, a dot per verified candidate and
        # the best-so-far line of each.
        suite = wbtest.write(path("tune.toml"), '[suite]\nname = "tune-report"\nrepetitions = 5\nwarmup = 1\nseed = 3\n\n'
                             '[[benchmark]]\nfamily = "reduce"\nvariants = ["test_tune_space"]\nn = [1000, 2000]\n')
        r = wb("tune", suite, "--platform", "cpu", "--plugins", os.path.join(BUILD, "tests", "tune-plugins"), "--strategy",
               "exhaustive", "--no-history", "--cache", path("tune-cache.jsonl"), "--out", path("tune.json"))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        doc = load("tune.json")
        report(path("tune.json"), "-o", path("tune.html"))
        page = Page(self, path("tune.html"), 2)
        section = page.section("Tuning")
        problems = doc["tune"]["problems"]
        rows = section.find(lambda n: n.tag == "tbody")[0].children
        self.assertEqual(len(rows), len(problems))
        for row, pb in zip(rows, problems):
            cells = [td.all_text() for td in row.children]
            self.assertEqual(cells[0], "reduce/test_tune_space n=%d" % pb["params"]["n"])
            self.assertEqual(cells[4], " ".join("%s=%s" % kv for kv in pb["best"]["tunables"].items()))
            self.assertTrue(cells[6].startswith(pb["final"]["comparison"]["verdict"]), cells)
        chart = page.cards(section)["Convergence: the best time so far against the evaluations"]
        steps = [st for pb in problems for st in pb["steps"]]
        points = page.marks(chart, "point")
        verified = [st for st in steps if st["status"] == "verified"]
        self.assertLess(len(verified), len(steps))  # the crash and the wrong answer: no dots
        self.assertEqual(len(points), len(verified))
        for st in verified:
            said = ("evaluation: %d;" % st["evaluation"], "tunables: a=%d b=%d;" % (st["tunables"]["a"], st["tunables"]["b"]))
            self.assertTrue(any(all(x in p for x in said) for p in points), (said, points[:2]))
        self.assertEqual(len(page.marks(chart, "line mark")), len(problems))

    def test_hostile_text_stays_text(self):
        doc = copy.deepcopy(self.runs[0])
        evil = '</script><img src=x onerror="document.body.dataset.pwned=1"><b id="pwned">'
        doc["results"][0]["variant"] = "atomic" + evil
        doc["results"][1]["status"] = "failed"
        doc["results"][1]["stage"] = "verify"
        doc["results"][1]["error"] = "<!-- " + evil + " element 3 differs"
        doc["results"][2]["params"]["note"] = "<script>document.body.dataset.pwned=1</script>"
        doc["device"]["name"] = "GPU <svg onload=document.body.dataset.pwned=1>"
        doc["devices"] = [dict(doc["devices"][0], ordinal=k, name=doc["device"]["name"], host="h" + evil)
                          for k in (0, 1)]
        # Line and paragraph separators end a string literal in Vega's expressions (a tooltip's title).
        for r in doc["results"]:
            if r.get("metric"):
                r["metric"].update(name=r["metric"]["name"] + "\u2028x", unit=r["metric"]["unit"] + "\u2029")
        doc["results"][2]["params"]["note"] += "\u2028"
        save(doc, "evil.json")
        report(path("evil.json"), "-o", path("evil.html"))
        with open(path("evil.html")) as f:
            text = f.read()
        self.assertEqual(text.lower().count("</script"), text.lower().count("<script"))  # none ends early
        page = Page(self, path("evil.html"), 9)
        root = page.tree.root
        self.assertEqual(root.find(lambda n: n.attrs.get("id") == "pwned" or n.tag == "img"), [])
        self.assertNotIn("data-pwned", root.find(lambda n: n.tag == "body")[0].attrs)
        failures = page.section("Failures").all_text()
        self.assertIn("<!-- " + evil + " element 3 differs", failures)
        self.assertIn("GPU <svg onload=document.body.dataset.pwned=1>", page.text)
        self.assertIn("\\u2028x", page.text)  # shown escaped

    def test_the_check_sees_requests_and_console_messages(self):
        """The net log and console checks are no vacuous passes: a page that fetches and logs is seen."""
        with open(path("leaky.html"), "w") as f:
            f.write('<!DOCTYPE html><img src="http://example.invalid/a.png">'
                    '<script>fetch("https://example.org/x.json").catch(() => {}); console.error("leak");</script>')
        _, console, requests = render(path("leaky.html"))
        self.assertEqual(sorted(requests), ["http://example.invalid/a.png", "https://example.org/x.json"])
        self.assertTrue(any('"leak"' in line for line in console), console)


class BadInput(unittest.TestCase):
    """What needs no browser: the page's policy and what the command refuses (exit status 2)."""

    @classmethod
    def setUpClass(cls):
        cls.doc = {"schema_version": 3, "suite": {"name": "s"}, "device": {"name": "d"}, "platform": "cpu",
                   "started": "2026-01-01T00:00:00Z", "results": [
                       {"family": "reduce", "variant": "tree", "params": {"n": 8}, "status": "verified", "samples_ms": [1.0, 1.1],
                        "time_ms": 1.0, "metric": {"name": "bandwidth", "unit": "GB/s", "value": 1.0}, "kernels": []}]}
        save(cls.doc, "small.json")

    def test_the_page_allows_no_request_and_no_eval(self):
        report(path("small.json"), "-o", path("small.html"))
        with open(path("small.html")) as f:
            text = f.read()
        csp = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', text).group(1)
        self.assertIn("default-src 'none'", csp)
        self.assertNotIn("unsafe-eval", csp)
        self.assertNotIn("http", csp)
        self.assertNotIn("sourceMappingURL", text)

    def test_bad_input_exits_2_naming_the_file(self):
        r = wb("report", path("small.json"), "-o", path("small.json"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("input of this command", r.stderr)
        r = wb("report", path("nothing-here.json"), "-o", path("x.html"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("nothing-here.json", r.stderr)
        for field, value, message in (("family", 5, "no 'family' string"), ("samples_ms", ["x"], "'samples_ms' holds"),
                                      ("kernels", {}, "'kernels' is not an array"), ("params", [], "no 'params' object")):
            doc = copy.deepcopy(self.doc)
            doc["results"][0][field] = value
            save(doc, "bad.json")
            r = wb("report", path("bad.json"), "-o", path("bad.html"))
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn("bad.json: result 1: " + message, r.stderr)
            self.assertFalse(os.path.exists(path("bad.html")))
        r = wb("report", path("small.json"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("--out", r.stderr)

    def test_trend_of_a_run_alone_says_so(self):
        r = wb("report", path("small.json"), "--trend", "5", "-o", path("alone.html"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("--trend", r.stderr)


if __name__ == "__main__":
    result = unittest.main(argv=sys.argv[:1], exit=False).result
    if not result.wasSuccessful():
        sys.exit(1)
    if not CHROMIUM:
        print("SKIP: chromium is not installed, so no page was rendered (apt-get install chromium, or make deps)")
        sys.exit(77)
