#!/usr/bin/env python3
"""Scale-out on the cpu platform: `run --shard I/N` splits a suite into whole problems, the same
way every time; `merge` joins the shards into exactly the whole run's configurations and refuses
shards that do not belong together (another seed, suite, tool version, plan; a shard missing or
given twice); `run --devices` on a cpu split into two devices (WAVEBENCH_CPU_DEVICES=2) runs every
configuration once, each problem on one device, and names the device of each result.
Usage: scale_test.py BUILD_DIR SOURCE_DIR"""
import json
import os
import signal
import subprocess
import unittest

import wbtest
from wbtest import SOURCE, WB, load

TMP = wbtest.tempdir("wavebench-scale-")

# Problems of different sizes (a reduce problem has more variants than a conv one), so the split
# has something to balance.
SUITE = """[suite]
name = "scale-test"
repetitions = 2
warmup = 1
seed = {seed}

[[benchmark]]
family = "reduce"
variants = ["*"]
n = [1000, 4099, 20000]

[[benchmark]]
family = "conv"
variants = ["*"]
n = [3001, 5003]
m = [5, 17]
"""

FAMILY_PARAMS = {"reduce": ("n",), "conv": ("n", "m")}


wb = wbtest.runner(db=os.path.join(TMP, "history.db"))


def write(name, text):
    return wbtest.write(os.path.join(TMP, name), text)


def run(suite, out, *extra, env=None, expect=0):
    r = wb("run", suite, "--platform", "cpu", "--no-ceilings", "--out", out, *extra, env=env)
    assert r.returncode == expect, f"exit {r.returncode}\n{r.stdout}{r.stderr}"
    return load(out)


def key(res):
    return (res["family"], res["variant"], json.dumps(res["params"], sort_keys=True))


def problem(res):
    return (res["family"],) + tuple(res["params"][p] for p in FAMILY_PARAMS[res["family"]])


def setUpModule():
    global SUITE_FILE, WHOLE, SHARDS
    SUITE_FILE = write("suite.toml", SUITE.format(seed=5))
    WHOLE = run(SUITE_FILE, os.path.join(TMP, "whole.json"))
    SHARDS = [os.path.join(TMP, f"shard-{i}.json") for i in (1, 2, 3)]
    for i, out in enumerate(SHARDS, 1):
        run(SUITE_FILE, out, "--shard", f"{i}/3")


class Shards(unittest.TestCase):
    def test_each_shard_says_what_it_is(self):
        for i, path in enumerate(SHARDS, 1):
            s = load(path)["shard"]
            self.assertEqual((s["index"], s["count"]), (i, 3))
            self.assertEqual(s["plan_configs"], len(WHOLE["results"]))
        self.assertIsNone(WHOLE["shard"])
        self.assertEqual(len({load(p)["shard"]["plan_digest"] for p in SHARDS}), 1)

    def test_the_shards_are_the_whole_run_once_each_problem_whole_and_balanced(self):
        whole = {key(r): r["plan_index"] for r in WHOLE["results"]}
        self.assertEqual(sorted(whole.values()), list(range(len(whole))))
        seen, where, sizes = {}, {}, []
        for i, path in enumerate(SHARDS, 1):
            results = load(path)["results"]
            self.assertTrue(results, f"shard {i} is empty")
            sizes.append(len(results))
            for r in results:
                self.assertNotIn(key(r), seen, "a configuration in two shards")
                seen[key(r)] = r["plan_index"]
                where.setdefault(problem(r), set()).add(i)
        self.assertEqual(seen, whole)  # the same configurations, at the same places in the plan
        for p, shards in where.items():
            self.assertEqual(len(shards), 1, f"problem {p} split over shards {shards}")
        largest = max(sum(1 for r in WHOLE["results"] if problem(r) == p) for p in where)
        self.assertLessEqual(max(sizes) - min(sizes), largest, sizes)

    def test_the_split_is_the_same_every_time_and_matches_the_dry_run(self):
        lines = []
        for i in (1, 2, 3):
            r = wb("run", SUITE_FILE, "--platform", "cpu", "--shard", f"{i}/3", "--dry-run")
            self.assertEqual(r.returncode, 0, r.stderr)
            lines.append(len([l for l in r.stdout.splitlines() if l.startswith(("reduce/", "conv/"))]))
        self.assertEqual(lines, [len(load(p)["results"]) for p in SHARDS])

    def test_speedups_stay_within_the_shard(self):
        # Each speedup is the family baseline's time in the same shard over this one's.
        checked = 0
        for path in SHARDS:
            results = load(path)["results"]
            for r in results:
                if r["status"] != "verified" or r["family"] != "reduce":
                    continue
                base = [x["time_ms"] for x in results if x["family"] == "reduce" and x["variant"] == "atomic"
                        and x["status"] == "verified" and problem(x) == problem(r)]
                self.assertTrue(base, "no baseline beside %s in its shard" % (problem(r),))
                self.assertAlmostEqual(r["speedup_vs_baseline"], min(base) / r["time_ms"], places=9)
                checked += 1
        self.assertGreater(checked, 0)

    def test_bad_shard_specs_are_refused(self):
        for spec, needle in [("0/3", "counts from 1"), ("4/3", "counts from 1"), ("2", "I/N"), ("a/b", "I/N"),
                             ("1/0", "between 1 and 10000"), ("-1/3", "I/N")]:
            r = wb("run", SUITE_FILE, "--platform", "cpu", "--shard", spec, "--dry-run")
            self.assertEqual(r.returncode, 2, spec)
            self.assertIn(needle, r.stderr, spec)


class Merge(unittest.TestCase):
    def merge(self, *inputs, expect=0, db=None):
        out = os.path.join(TMP, "merged.json")
        if os.path.exists(out):
            os.remove(out)
        r = wb("merge", *inputs, "-o", out, db=db or os.path.join(TMP, "history.db"))
        self.assertEqual(r.returncode, expect, r.stdout + r.stderr)
        return r, (load(out) if expect != 2 else None)

    def doctored(self, name, path, change):
        doc = load(path)
        change(doc)
        out = os.path.join(TMP, name)
        with open(out, "w") as f:
            json.dump(doc, f)
        return out

    def test_the_shards_merge_into_exactly_the_whole_run(self):
        db = os.path.join(TMP, "merge-history.db")
        _, merged = self.merge(SHARDS[2], SHARDS[0], SHARDS[1], db=db)  # any order
        self.assertIsNone(merged["shard"])
        self.assertTrue(merged["complete"])
        self.assertEqual([r["plan_index"] for r in merged["results"]], list(range(len(WHOLE["results"]))))
        self.assertEqual([key(r) for r in merged["results"]], [key(r) for r in WHOLE["results"]])
        self.assertEqual([r["seeds"] for r in merged["results"]], [r["seeds"] for r in WHOLE["results"]])
        self.assertEqual([r["status"] for r in merged["results"]], [r["status"] for r in WHOLE["results"]])
        self.assertEqual([m["shard"] for m in merged["merged_from"]], [1, 2, 3])
        self.assertEqual(len(merged["devices"]), 1)  # the same device in every shard, listed once
        self.assertTrue(all(r["device_index"] == 0 for r in merged["results"]))
        runs = json.loads(wb("history", "--json", db=db).stdout)
        self.assertEqual(len(runs), 1)  # the merged run; the shards themselves were not recorded

    def test_devices_of_shards_are_told_apart_by_their_pci_bus_id(self):
        # Two tasks of one Slurm node each see their GPU as device 0 (CUDA_VISIBLE_DEVICES).
        def on_gpu(bus):
            return lambda d: d["devices"][0].update(host="node-1", ordinal=0, pci_bus_id=bus)
        shards = [self.doctored("pci-%d.json" % i, p, on_gpu(bus))
                  for i, (p, bus) in enumerate(zip(SHARDS, ["0000:1b:00.0", "0000:2c:00.0", "0000:1b:00.0"]))]
        _, merged = self.merge(*shards, db=os.path.join(TMP, "pci.db"))
        self.assertEqual([d["pci_bus_id"] for d in merged["devices"]], ["0000:1b:00.0", "0000:2c:00.0"])
        second = {key(r) for r in load(SHARDS[1])["results"]}
        for r in merged["results"]:
            self.assertEqual(r["device_index"], 1 if key(r) in second else 0, key(r))

    def test_the_merged_run_compares_with_the_whole_run(self):
        r, merged = self.merge(*SHARDS)
        c = wb("compare", os.path.join(TMP, "whole.json"), os.path.join(TMP, "merged.json"), "--format", "json",
               "--fail-on", "failed,missing")
        self.assertEqual(c.returncode, 0, c.stdout + c.stderr)
        verdicts = {x["verdict"] for x in json.loads(c.stdout)["configurations"]}
        self.assertFalse(verdicts & {"missing", "new", "failed"}, verdicts)

    def test_different_seeds_suites_and_tool_versions_are_refused_with_the_reason(self):
        other_seed = write("suite-seed.toml", SUITE.format(seed=6))
        reseeded = run(other_seed, os.path.join(TMP, "seed-2.json"), "--shard", "2/3")
        self.assertEqual(reseeded["shard"]["index"], 2)
        r, _ = self.merge(SHARDS[0], os.path.join(TMP, "seed-2.json"), SHARDS[2], expect=2)
        self.assertIn("suite.seed is 5 in one and 6 in the other", r.stderr)
        self.assertIn("seed-2.json", r.stderr)

        renamed = self.doctored("renamed.json", SHARDS[1], lambda d: d["suite"].update(name="another"))
        r, _ = self.merge(SHARDS[0], renamed, SHARDS[2], expect=2)
        self.assertIn("suite.name", r.stderr)

        newer = self.doctored("newer.json", SHARDS[1], lambda d: d.update(tool_version="v9.9-1-gdeadbee"))
        r, _ = self.merge(SHARDS[0], newer, SHARDS[2], expect=2)
        self.assertIn("tool_version", r.stderr)
        self.assertIn("v9.9-1-gdeadbee", r.stderr)

        replanned = self.doctored("replanned.json", SHARDS[1], lambda d: d["shard"].update(plan_digest="0" * 16))
        r, _ = self.merge(SHARDS[0], replanned, SHARDS[2], expect=2)
        self.assertIn("different configurations", r.stderr)

        split4 = self.doctored("of4.json", SHARDS[1], lambda d: d["shard"].update(count=4))
        r, _ = self.merge(SHARDS[0], split4, SHARDS[2], expect=2)
        self.assertIn("shard.count", r.stderr)

    def test_missing_repeated_and_whole_runs_are_refused(self):
        r, _ = self.merge(SHARDS[0], SHARDS[2], expect=2)
        self.assertIn("shard 2 of 3 missing", r.stderr)
        r, _ = self.merge(SHARDS[0], SHARDS[1], SHARDS[1], SHARDS[2], expect=2)
        self.assertIn("are both shard 2 of 3", r.stderr)
        r, _ = self.merge(SHARDS[0], os.path.join(TMP, "whole.json"), expect=2)
        self.assertIn("is not a shard", r.stderr)
        twice = self.doctored("twice.json", SHARDS[1],
                              lambda d: d["results"].append(load(SHARDS[0])["results"][0]))
        r, _ = self.merge(SHARDS[0], twice, SHARDS[2], expect=2)
        self.assertIn("is in two shards", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(TMP, "merged.json")))

    def test_hostile_shards_are_refused_before_anything_is_written(self):
        def first_result(change):
            return lambda d: change(d["results"][0])
        cases = [
            ("huge-count", lambda d: d["shard"].update(count=4294967295), "no shard --shard makes"),
            ("count-2-64", lambda d: d["shard"].update(count=2 ** 64 - 1, index=2 ** 64 - 1), "no shard --shard makes"),
            ("index-0", lambda d: d["shard"].update(index=0), "no shard --shard makes"),
            ("far-index", first_result(lambda r: r.update(plan_index=10 ** 9)), "beyond the plan"),
            ("no-results", lambda d: d.update(results={"a": 1}), "results"),
            ("odd-result", lambda d: d["results"].append(7), " is not an object (docs/results-schema.md"),
            ("odd-device", lambda d: d["devices"].append("gpu"), "a device is not an object"),
            ("odd-complete", lambda d: d.update(complete="yes"), "complete is not true or false"),
            ("odd-suite", lambda d: d["suite"].update(name=5), "no suite name"),
            ("odd-status", first_result(lambda r: r.update(status=[1])), None),
        ]
        for name, change, needle in cases:
            bad = self.doctored(name + ".json", SHARDS[1], change)
            out = os.path.join(TMP, "merged.json")
            if os.path.exists(out):
                os.remove(out)
            r = wb("merge", SHARDS[0], bad, SHARDS[2], "-o", out, "--no-history", timeout=60)
            if needle is None:  # not read by merge: merged as it is, a result that did not verify
                self.assertEqual(r.returncode, 1, name + r.stderr)
                continue
            self.assertEqual(r.returncode, 2, name + r.stdout + r.stderr)
            self.assertIn(needle, r.stderr, name)
            self.assertFalse(os.path.exists(out), name)

    def test_an_interrupted_shard_merges_as_incomplete(self):
        cut = self.doctored("cut.json", SHARDS[1], lambda d: (d.update(complete=False, stopped_by="SIGINT"),
                                                               d["results"].pop()))
        r, merged = self.merge(SHARDS[0], cut, SHARDS[2], expect=1)
        self.assertFalse(merged["complete"])
        self.assertEqual(len(merged["results"]), len(WHOLE["results"]) - 1)
        self.assertIn("incomplete", r.stderr)


class Devices(unittest.TestCase):
    TWO = {"WAVEBENCH_CPU_DEVICES": "2"}

    def test_two_devices_run_every_configuration_once_each_problem_on_one(self):
        out = os.path.join(TMP, "two.json")
        r = wb("run", SUITE_FILE, "--platform", "cpu", "--no-ceilings", "--out", out, "--devices", "all",
               "--format", "json", env=self.TWO)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        doc = load(out)
        lines = [json.loads(l) for l in r.stdout.splitlines()]  # as each finished: the device of each
        self.assertEqual(sorted((key(x), x["device"]) for x in lines),
                         sorted((key(x), x["device_index"]) for x in doc["results"]))
        self.assertEqual([d["ordinal"] for d in doc["devices"]], [0, 1])
        self.assertTrue(all(d["host"] for d in doc["devices"]))
        self.assertEqual([key(r) for r in doc["results"]], [key(r) for r in WHOLE["results"]])
        self.assertTrue(all(r["status"] in ("verified", "skipped") for r in doc["results"]))
        on = {}
        for r in doc["results"]:
            on.setdefault(problem(r), set()).add(r["device_index"])
        self.assertTrue(all(len(d) == 1 for d in on.values()), on)
        self.assertEqual(set().union(*on.values()), {0, 1}, "one device did all the work")
        self.assertEqual(len(doc["isolation"]["per_device"]), 2)

    def test_the_table_names_each_rows_device(self):
        r = wb("run", SUITE_FILE, "--platform", "cpu", "--no-ceilings", "--no-history", "--filter", "conv/*",
               "--devices", "0,1", "--out", os.path.join(TMP, "two-table.json"), env=self.TWO)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("devices 0 (", r.stdout)
        header = next(l for l in r.stdout.splitlines() if l.startswith("variant"))
        self.assertIn(" dev ", header)

    def test_an_interrupted_run_on_two_devices_keeps_what_it_measured(self):
        suite = write("long.toml", SUITE.format(seed=5).replace("n = [1000, 4099, 20000]",
                                                                 "n = [2000000, 3000001, 4000000, 5000003]"))
        out = os.path.join(TMP, "cut-two.json")
        env = wbtest.environment(db=os.path.join(TMP, "history.db"), env=self.TWO)
        p = subprocess.Popen([WB, "run", suite, "--platform", "cpu", "--no-ceilings", "--devices", "all",
                              "--repetitions", "20", "--format", "json", "--out", out],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=SOURCE, env=env)
        first = p.stdout.readline()  # a result is in: stop the run
        p.send_signal(signal.SIGINT)
        rest, err = p.communicate(timeout=300)
        self.assertTrue(first, err)
        shown = [json.loads(l) for l in (first + rest).splitlines()]
        doc = load(out)
        self.assertFalse(doc["complete"], err)
        self.assertEqual(doc["stopped_by"], "SIGINT")
        dry = wb("run", suite, "--platform", "cpu", "--dry-run").stdout.splitlines()
        planned = len([l for l in dry if l.startswith(("reduce/", "conv/"))])
        self.assertLess(len(doc["results"]), planned)
        indices = [r["plan_index"] for r in doc["results"]]
        self.assertEqual(len(indices), len(set(indices)))
        self.assertEqual(indices, sorted(indices))
        self.assertEqual(sorted(key(r) for r in doc["results"]), sorted(key(x) for x in shown))
        self.assertTrue(all(r["status"] in ("verified", "skipped") for r in doc["results"]))

    def test_a_list_of_devices_is_checked(self):
        r = wb("run", SUITE_FILE, "--platform", "cpu", "--devices", "0,5", "--no-ceilings", env=self.TWO)
        self.assertEqual(r.returncode, 4, r.stderr)
        self.assertIn("5", r.stderr)
        for spec, needle in [("0,0", "twice"), ("x", "no device index"), ("0,", "no device index")]:
            r = wb("run", SUITE_FILE, "--platform", "cpu", "--devices", spec, "--dry-run", env=self.TWO)
            self.assertEqual(r.returncode, 2, spec + r.stderr)
            self.assertIn(needle, r.stderr, spec)
        r = wb("run", SUITE_FILE, "--platform", "cpu", "--devices", "all", "--in-process", "--dry-run", env=self.TWO)
        self.assertEqual(r.returncode, 2)
        self.assertIn("--in-process runs on one device", r.stderr)

    def test_one_device_names_itself(self):
        self.assertEqual(len(WHOLE["devices"]), 1)
        self.assertEqual(WHOLE["devices"][0]["ordinal"], 0)
        self.assertTrue(all(r["device_index"] == 0 for r in WHOLE["results"]))


if __name__ == "__main__":
    wbtest.main()
