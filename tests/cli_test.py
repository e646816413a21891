#!/usr/bin/env python3
"""End-to-end tests of the wavebench command: exit statuses, messages, and the results JSON
against docs/results-schema.md. Usage: cli_test.py BUILD_DIR SOURCE_DIR"""
import json
import math
import os
import re
import tempfile
import unittest

import wbtest
from wbtest import BUILD, SOURCE, load, write

wb = wbtest.runner(errors="strict")


def schema_fields():
    """The field names docs/results-schema.md documents, by table: top level and result."""
    with open(os.path.join(SOURCE, "docs", "results-schema.md")) as f:
        text = f.read()
    fields = {}
    for section, body in re.findall(r"^## (.+?)\n(.*?)(?=^## |\Z)", text, re.S | re.M):
        fields[section.strip()] = re.findall(r"^\| `([a-z_]+)` \|", body, re.M)
    return fields


MIB = 1 << 20


def level_bytes(working_set):
    """The size the read bandwidth of a working set is measured at: the nearest 2^(k/16) MiB, at least
    64 KiB (measure/runner.cpp's level_bytes)."""
    k = math.floor(16 * math.log2(max(working_set, 1) / MIB) + 0.5)
    return max(int(2 ** (k / 16) * MIB / 64 + 0.5) * 64, 64 << 10)


class Cli(unittest.TestCase):
    def test_probe_on_cpu_shows_the_runtime_costs_over_five_processes(self):
        if wbtest.sanitized():
            self.skipTest("its timed loops (barrier and shuffle costs in five processes) take over 10 minutes "
                          "under ASan; `make test` runs it")
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "probe.json")
            # Its own cache: a 16 MiB probe has fewer working-set levels than the other tests expect.
            p = wb("probe", "--platform", "cpu", "--mib", "16", "--out", out, cache=d)
            self.assertEqual(p.returncode, 0, p.stderr)
            costs = load(out)["details"]["lane_costs"]
            names = ["lane_ns", "shuffle_ns"] + [f"barrier_ns@{b}" for b in (64, 128, 256, 512, 1024)]
            for name in names:
                c = costs[name]
                self.assertEqual(len(c["per_process"]), 5, name)
                self.assertTrue(0 < c["min"] <= c["median"] <= c["max"], (name, c))
                self.assertEqual(c["min"], min(c["per_process"]))
                self.assertEqual(c["max"], max(c["per_process"]))
                self.assertAlmostEqual(c["spread"], c["max"] / c["min"], places=9)
                self.assertEqual(c["median"], sorted(c["per_process"])[2], name)
            for line in ["a lane, no barriers", "a barrier, work-group 64", "a barrier, work-group 1024",
                         "a wavefront shuffle"]:
                self.assertRegex(p.stdout, re.escape(line) + r" +[0-9.]+ ns +spread [0-9.]+x over 5 processes")

    def test_quick_suite_runs_verified_and_writes_the_documented_json(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "r.json")
            p = wb("run", "suites/quick.toml", "--platform", "cpu", "--out", out, "--repetitions", "2", "--warmup", "1")
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            self.assertIn("44 verified, 0 failed verification, 0 errors, 0 crashed, 0 timed out, 2 skipped", p.stdout)
            doc = load(out)
            fields = schema_fields()
            for k in fields["Top level"]:
                self.assertIn(k, doc, "top-level field " + k)
            self.assertTrue(doc["complete"])
            self.assertEqual(doc["platform"], "cpu")
            self.assertEqual(len(doc["results"]), 46)
            levels = set()  # the read bandwidth's levels at the reduce results' working sets
            for r in doc["results"]:
                for k in fields["Result"]:
                    self.assertIn(k, r, "result field " + k)
                if r["variant"] == "library":  # no vendor library on cpu: a skip with its reason
                    self.assertEqual(r["status"], "skipped")
                    self.assertIn("no vendor reduction library", r["skip_reason"])
                    continue
                for k in fields["Kernel"]:
                    self.assertIn(k, r["kernels"][0], "kernel field " + k)
                self.assertTrue(r["verified"])
                self.assertIsNone(r["error"])
                self.assertEqual(r["time_ms_stats"]["samples"], 2)
                self.assertEqual(r["runs"], 3)  # one warm-up, two measured: all checked (the first runs)
                self.assertEqual(r["runs_checked"], 3)
                self.assertEqual(r["metric"]["unit"], {"reduce": "GB/s", "conv": "GMAC/s", "converge": "GFMA/s",
                                                       "branch": "Gelem/s", "vgpr": "Gpixel/s"}[r["family"]])
                self.assertEqual(r["fraction_of_ceiling"] is not None, r["family"] in ("reduce", "conv"))
                self.assertEqual(r["model_speedup"] is not None, r["family"] == "converge")
                self.assertIsNone(r["model_issue_speedup"])  # the cpu platform has no cost table
                self.assertEqual(r["speedup_vs_baseline"] is not None, r["family"] != "branch")  # pairs, no baseline
                if r["family"] == "reduce":
                    # Set against the read bandwidth at the size of the input copies the runs rotate
                    # through (the level their data lives in), else DRAM's: from the probe's 256 MiB or
                    # its smallest level that reads like DRAM on, or where its own level reads no more
                    # than 5% faster (docs/results-schema.md).
                    self.assertEqual(r["working_set_bytes"], r["input_sets"] * r["params"]["n"] * 4 + 4)
                    size = level_bytes(r["working_set_bytes"])
                    level = "read_bandwidth@%.3gMiB" % (size / MIB)
                    want = r["ceiling"]
                    dram = doc["ceilings"]["read_bandwidth"]["value"]
                    like_dram = [mib * MIB for mib in (1, 4, 16, 64)
                                 if doc["ceilings"]["read_bandwidth@%dMiB" % mib]["value"] <= 1.05 * dram]
                    if size >= min(like_dram + [256 * MIB]):
                        self.assertEqual(want, "read_bandwidth")
                    else:
                        levels.add(level)
                        fast = doc["ceilings"][level]["value"] > 1.05 * dram
                        self.assertEqual(want, level if fast else "read_bandwidth", r["params"])
                    self.assertAlmostEqual(r["fraction_of_ceiling"],
                                           r["metric"]["value"] / doc["ceilings"][want]["value"], places=9)
            self.assertIn("read_bandwidth", doc["ceilings"])
            probed = ["read_bandwidth@16MiB", "read_bandwidth@1MiB", "read_bandwidth@4MiB", "read_bandwidth@64MiB"]
            # The probe's levels and those measured for this run's working sets, no others.
            self.assertEqual(sorted(k for k in doc["ceilings"] if k.startswith("read_bandwidth@")),
                             sorted(set(probed) | levels))

    def test_every_suite_in_the_tree_plans_on_cpu(self):
        suites = sorted(f for f in os.listdir(os.path.join(SOURCE, "suites")) if f.endswith(".toml"))
        self.assertIn("conv-gpu.toml", suites)
        for f in suites:
            p = wb("run", os.path.join("suites", f), "--platform", "cpu", "--dry-run")
            self.assertEqual(p.returncode, 0, f + ": " + p.stdout + p.stderr)
            m = re.search(r"^(\d+) configurations \((\d+) to be skipped\) in suites/" + re.escape(f) + " on cpu; nothing run$",
                          p.stdout, re.M)
            self.assertTrue(m, f + ": " + p.stdout[-500:])
            self.assertEqual(int(m.group(1)), len([l for l in p.stdout.split("\n")[:-3] if l]), f)
        p = wb("run", "suites/conv-edges.toml", "--platform", "cpu", "--dry-run")
        self.assertIn("648 configurations (0 to be skipped)", p.stdout)
        self.assertIn("conv/tiled m=257 n=1000003 block_size=256 outputs=8\n", p.stdout)

    def test_warp_size_32_is_visible_in_the_results(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "r.json")
            p = wb("run", "suites/quick.toml", "--platform", "cpu", "--warp-size", "32", "--filter", "reduce/wavefront",
                   "--out", out, "--repetitions", "1", "--warmup", "0", "--no-ceilings")
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            doc = load(out)
            self.assertEqual(doc["device"]["warp_size"], 32)
            self.assertEqual(doc["platform_options"]["warp_size"], 32)
            self.assertEqual([r["variant"] for r in doc["results"]], ["wavefront", "wavefront"])  # the filter
            self.assertEqual(doc["ceilings"], {})
            self.assertIsNone(doc["results"][0]["fraction_of_ceiling"])

    def test_list_json_shows_the_reduce_plugins_with_metadata(self):
        p = wb("list", "--json", "--platform", "cpu")
        self.assertEqual(p.returncode, 0, p.stderr)
        doc = json.loads(p.stdout)
        names = sorted(x["variant"] for x in doc["plugins"] if x["family"] == "reduce")
        self.assertEqual(names, ["atomic", "blocked_atomic", "blocked_serial", "blocked_tree", "chunked", "library",
                                 "streamed", "strided", "tree", "tree_two_stage", "unrolled", "wavefront"])
        self.assertEqual(sorted(x["variant"] for x in doc["plugins"] if x["family"] == "conv"),
                         ["clamped", "conditional", "padded", "tiled"])
        for x in doc["plugins"]:
            self.assertTrue(x["summary"] and x["seed"].startswith({"reduce": "001", "conv": "000", "converge": "002", "branch": "004", "vgpr": "003"}[x["family"]]))
            self.assertEqual(x["platform"], "cpu")
            if x["variant"] != "library":  # the library's kernels are its own
                self.assertTrue(x["kernels"])
                self.assertIn("block_size", [t["name"] for t in x["tunables"]])
        self.assertEqual(sorted(x["variant"] for x in doc["plugins"] if x["baseline"]), ["atomic", "baseline", "conditional", "density_expression"])

    def test_a_bad_suite_names_file_line_and_column(self):
        with tempfile.TemporaryDirectory() as d:
            s = os.path.join(d, "bad.toml")
            write(s, '[[benchmark]]\nfamily = "reduce"\nn = [1, -5]\n')
            p = wb("run", s, "--platform", "cpu", "--no-ceilings")
            self.assertEqual(p.returncode, 2)
            self.assertIn(s + ":3:9: 'n' = -5 is out of range", p.stderr)
            self.assertFalse(os.path.exists(os.path.join(SOURCE, "wavebench-results", "bad-cpu.json")))

    def test_a_platform_that_is_not_there_is_exit_status_3(self):
        p = wb("run", "suites/quick.toml", "--platform", "metal")
        self.assertEqual(p.returncode, 3)
        self.assertIn("unknown platform 'metal'", p.stderr)

    def test_plugins_from_another_directory_and_refusals_are_reported(self):
        with tempfile.TemporaryDirectory() as d:
            os.symlink(os.path.join(BUILD, "tests", "plugins", "malformed", "no_entry.so"), os.path.join(d, "x.so"))
            p = wb("list", "--platform", "cpu", "--plugins", d, "--plugins", os.path.join(BUILD, "tests", "plugins"))
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("reduce/test_off_by_one", p.stdout)
            self.assertIn(os.path.join(d, "x.so") + " has no 'wavebench_plugin' entry point", p.stdout)

    def test_a_failing_configuration_is_exit_status_1_and_keeps_the_rest(self):
        with tempfile.TemporaryDirectory() as d:
            s, out = os.path.join(d, "s.toml"), os.path.join(d, "r.json")
            write(s, '[[benchmark]]\nfamily = "reduce"\nvariants = ["atomic", "test_off_by_one"]\nn = 100\n')
            p = wb("run", s, "--platform", "cpu", "--no-ceilings", "--out", out, "--plugins",
                   os.path.join(BUILD, "tests", "plugins"))
            self.assertEqual(p.returncode, 1)
            self.assertIn("reduce/test_off_by_one n=100: failed in verify: run 1 (warm-up, 0xa5 poison", p.stdout)
            doc = load(out)
            self.assertEqual([r["status"] for r in doc["results"]], ["verified", "failed"])
            self.assertIn("expected", doc["results"][1]["error"])

    def test_a_message_that_is_not_utf8_does_not_stop_the_run(self):
        with tempfile.TemporaryDirectory() as d:
            s, out = os.path.join(d, "s.toml"), os.path.join(d, "r.json")
            write(s, '[suite]\nrepetitions = 1\nwarmup = 0\n[[benchmark]]\nfamily = "reduce"\n'
                     'variants = ["test_errors", "tree"]\nn = 10\nmode = 2\nblock_size = 128\n')
            p = wb("run", s, "--platform", "cpu", "--no-ceilings", "--out", out, "--plugins",
                   os.path.join(BUILD, "tests", "plugins"))
            self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
            doc = load(out)
            self.assertTrue(doc["complete"])
            self.assertEqual([r["status"] for r in doc["results"]], ["error", "verified"])
            self.assertIn("caf\ufffd: a message that is not UTF-8", doc["results"][0]["error"])

    def test_a_plugin_built_by_sdk_20_loads_and_verifies(self):
        # Its descriptor ends before SDK 2.1's fields; past its end sits a launch that aborts.
        with tempfile.TemporaryDirectory() as d:
            s, out = os.path.join(d, "s.toml"), os.path.join(d, "r.json")
            write(s, '[suite]\nrepetitions = 2\nwarmup = 1\n[[benchmark]]\nfamily = "reduce"\n'
                     'variants = ["test_sdk20_descriptor"]\nn = 1000\nblock_size = [64, 512]\n')
            p = wb("run", s, "--platform", "cpu", "--no-ceilings", "--out", out, "--plugins",
                   os.path.join(BUILD, "tests", "plugins"))
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            doc = load(out)
            self.assertEqual([r["status"] for r in doc["results"]], ["verified", "verified"])
            self.assertEqual([r["kernels"][0]["name"] for r in doc["results"]], ["reduce_atomic_sdk20"] * 2)

    def test_a_platform_without_its_device_is_exit_status_4(self):
        for platform, words in [("amd", "no AMD GPU found"), ("nvidia", "no NVIDIA GPU found")]:
            if not os.path.exists(os.path.join(BUILD, "lib", f"libwavebench_platform_{platform}.so")):
                continue  # not built here
            p = wb("run", "suites/quick.toml", "--platform", platform)
            if p.returncode == 0:
                continue  # this machine has the GPU
            self.assertEqual(p.returncode, 4, p.stderr)
            self.assertIn(words, p.stderr)
            self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
            if platform == "amd":
                self.assertIn("wavebench inspect --platform amd", p.stderr)

    def test_a_device_index_the_platform_does_not_have_is_exit_status_4(self):
        p = wb("run", "suites/quick.toml", "--platform", "cpu", "--device", "5", "--dry-run")
        self.assertEqual(p.returncode, 4, p.stdout + p.stderr)
        self.assertEqual(p.stderr, "error: device 5 does not exist: 1 found\n")
        if any(os.path.exists(os.path.join(BUILD, "lib", f"libwavebench_platform_{gpu}.so")) for gpu in ("amd", "nvidia")):
            return  # auto tries the GPU platforms too: what they say depends on the machine
        p = wb("run", "suites/quick.toml", "--device", "5", "--dry-run")  # auto: no platform has device 5
        self.assertEqual(p.returncode, 4, p.stdout + p.stderr)
        self.assertIn("cpu: device 5 does not exist: 1 found", p.stderr)

    def test_inspect_reads_a_foreign_hip_library_and_catches_a_regression(self):
        foreign = os.path.join(BUILD, "tests", "plugins", "foreign", "saxpy_kernels.so")
        if not os.path.exists(foreign) or not os.path.exists(os.path.join(BUILD, "lib", "libwavebench_amd_inspect.so")):
            self.skipTest("the amd platform or its inspection is not built here")
        p = wb("inspect", foreign, "--target", "gfx90a")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("(not a wavebench plugin)", p.stdout)
        self.assertRegex(p.stdout, r"gfx90a +transpose_tile +128\*")  # its __launch_bounds__
        doc = json.loads(wb("inspect", foreign, "--json").stdout)
        self.assertEqual({k["kernel"] for k in doc["files"][0]["kernels"]}, {"saxpy", "transpose_tile"})
        self.assertIsNone(doc["files"][0]["plugin"])
        # a baseline that claims fewer VGPRs than the build has: a regression, exit status 1
        with tempfile.TemporaryDirectory() as d:
            base = os.path.join(d, "base.json")
            p = wb("inspect", foreign, "--write-baseline", base)
            self.assertEqual(p.returncode, 0, p.stderr)
            b = load(base)
            b["kernels"][0]["vgprs"] -= 1
            write(base, json.dumps(b))
            p = wb("inspect", foreign, "--compare", base)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertIn("resource regressions against", p.stderr)
            self.assertIn("make amd-baseline", p.stderr)
        p = wb("inspect", foreign, "--target", "gfx9999")
        self.assertEqual(p.returncode, 2)
        self.assertIn("no code object for it", p.stderr)

    def test_inspect_isa_counts_instructions_and_pair_compares_two_plugins(self):
        if not os.path.exists(os.path.join(BUILD, "plugins", "amd", "converge_baseline.so")) or \
                not os.path.exists(os.path.join(BUILD, "lib", "libwavebench_amd_inspect.so")):
            self.skipTest("the amd platform or its inspection is not built here")
        p = wb("inspect", "--isa", os.path.join(BUILD, "plugins", "amd", "reduce_atomic.so"), "--json")
        self.assertEqual(p.returncode, 0, p.stderr)
        for k in json.loads(p.stdout)["files"][0]["kernels"]:
            mix = k["isa_mix"]
            # comgr or an llvm-objdump that knows the target disassembles each (the Makefile installs llvm-22)
            self.assertNotIn("missing", mix, k["target"])
            self.assertEqual(mix["total"], sum(mix[c] for c in ("VALU", "SALU", "VMEM", "SMEM", "LDS", "branch",
                                                                "waitcnt", "other")))
            self.assertGreater(mix["VMEM"], 0)  # the atomic
        p = wb("inspect", "--pair", "converge/baseline", "converge/advance", "--target", "gfx90a")
        self.assertEqual(p.returncode, 0, p.stderr)
        rows = {m.group(1): [int(x) for x in m.group(2).split()]
                for m in re.finditer(r"^  gfx90a +(A converge/baseline|B converge/advance|B - A) +([-+\d ]+)$",
                                     p.stdout, re.M)}
        self.assertEqual(len(rows), 3, p.stdout)
        self.assertEqual([b - a for a, b in zip(rows["A converge/baseline"], rows["B converge/advance"])], rows["B - A"])
        p = wb("inspect", "--pair", "converge/baseline", "converge/nothing")
        self.assertEqual(p.returncode, 2)
        self.assertIn("no AMD plugin 'converge/nothing'", p.stderr)

    def test_amd_static_figures_beside_a_cpu_run(self):
        if not os.path.exists(os.path.join(BUILD, "plugins", "amd", "reduce_tree.so")):
            self.skipTest("the amd platform is not built here")
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "r.json")
            p = wb("run", "suites/quick.toml", "--platform", "cpu", "--filter", "reduce/tree", "--amd-static",
                   "--no-ceilings", "--repetitions", "1", "--warmup", "0", "--out", out)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("AMD static figures", p.stdout)
            k = load(out)["results"][0]["kernels"][0]
            targets = {a["target"]: a for a in k["amd_static"]}
            self.assertEqual(set(targets), set(wbtest.cached("WAVEBENCH_AMD_TARGETS").split(";")))
            a = targets["gfx90a"]
            self.assertEqual(a["kernel"], "reduce_tree_groups")
            self.assertEqual(a["block_size"], 256)
            self.assertEqual(a["dynamic_lds_bytes"], 1024)  # the launch this configuration ran with
            self.assertEqual(a["occupancy"]["max"], 8)

    def test_help_names_the_commands_and_exit_statuses(self):
        p = wb("--help")
        self.assertEqual(p.returncode, 0)
        for word in ["list", "run", "probe", "inspect", "Exit status", "3 the platform", "4 the platform"]:
            self.assertIn(word, p.stdout)
        p = wb("run", "--help")
        for word in ["--filter", "--out", "--repetitions", "--warp-size", "--plugins", "no such device"]:
            self.assertIn(word, p.stdout)


if __name__ == "__main__":
    wbtest.main()
