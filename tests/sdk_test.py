#!/usr/bin/env python3
"""The installed SDK, end to end: `cmake --install` of the build into a temporary prefix; the
out-of-tree example (examples/out-of-tree, copied out of the source tree) configured with
find_package(wavebench) and nothing but -DCMAKE_PREFIX_PATH=<prefix>, built for the cpu platform,
and run by the installed command; its results all verified. The same for the example as it was
written for SDK 2.0 (tests/sdk_compat/out-of-tree, with `.family`, `.variant` and kernel names
spelled out): plugins of the earlier SDK still build and verify. Then the prefix is moved and the
example again against the moved copy (relocatable: no path of the build machine in what is installed).

Usage: sdk_test.py BUILD_DIR SOURCE_DIR CMAKE_COMMAND GENERATOR
The example is built for cpu only (WAVEBENCH_SDK_TEST_PLATFORMS=cpu;nvidia;... builds more)."""
import glob
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest

import wbtest

# Real paths: the test looks for them in what is installed.
BUILD, SOURCE = os.path.realpath(wbtest.BUILD), os.path.realpath(wbtest.SOURCE)
CMAKE, GENERATOR = wbtest.ARGS[0], wbtest.ARGS[1]
PLATFORMS = os.environ.get("WAVEBENCH_SDK_TEST_PLATFORMS", "cpu")
EXAMPLE = os.path.join(SOURCE, "examples", "out-of-tree")
COMPAT = os.path.join(SOURCE, "tests", "sdk_compat", "out-of-tree")  # the example as SDK 2.0 had it
# The family baselines the example's suite runs beside its own variants: installed in-tree plugins.
BASELINES = {("reduce", "atomic"), ("conv", "conditional")}


def run(args, timeout=900, env=None, check=True):
    p = subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=env)
    if check and p.returncode != 0:
        raise AssertionError("%s: exit %d\n%s%s" % (" ".join(args), p.returncode, p.stdout[-6000:], p.stderr[-6000:]))
    return p


def clean_env(tmp):
    return wbtest.environment(cache=os.path.join(tmp, "cache"),
                              unset=("WAVEBENCH_PLUGIN_PATH", "CMAKE_PREFIX_PATH", "wavebench_DIR", "wavebench_ROOT"))


def example_variants(src):
    """{(family, variant)} from the <family>/<variant>.hip files of the example in `src`."""
    return {(os.path.basename(os.path.dirname(f)), os.path.splitext(os.path.basename(f))[0])
            for f in glob.glob(os.path.join(src, "*", "*.hip"))}


class Sdk(unittest.TestCase):
    def configure(self, src, build, prefix, env, extra=(), check=True):
        return run([CMAKE, "-S", src, "-B", build, "-G", GENERATOR, "-DCMAKE_PREFIX_PATH=" + prefix,
                    "-DCMAKE_BUILD_TYPE=Release", "-DWAVEBENCH_PLATFORMS=" + PLATFORMS, *extra], env=env, check=check)

    def build_and_run(self, tmp, prefix, src, name):
        """Configures and builds the example against `prefix`, runs it with the prefix's command."""
        env = clean_env(tmp)
        build = os.path.join(tmp, "build-" + name)
        self.configure(src, build, prefix, env)
        run([CMAKE, "--build", build, "-j", "2"], env=env)
        wb = os.path.join(prefix, "bin", "wavebench")

        listing = json.loads(run([wb, "list", "--platform", "cpu", "--plugins", build, "--json"], env=env).stdout)
        self.assertEqual(listing["rejected"], [], "plugins the installed command would not load")
        paths = {(p["family"], p["variant"]): p["path"] for p in listing["plugins"]}
        for key in example_variants(src):
            self.assertIn(key, paths, "the example's plugin %s/%s" % key)
            self.assertTrue(paths[key].startswith(build + os.sep), paths[key])
        for key in BASELINES: # the in-tree plugins come from the installed tree
            self.assertIn(key, paths, "installed plugin %s/%s" % key)
            self.assertTrue(paths[key].startswith(os.path.join(prefix, "lib", "wavebench", "plugins", "cpu") + os.sep),
                            paths[key])

        out = os.path.join(tmp, name + ".json")
        p = run([wb, "run", os.path.join(src, "suite.toml"), "--platform", "cpu", "--plugins", build, "--out", out,
                 "--repetitions", "2", "--warmup", "1", "--no-ceilings"], env=env, check=False)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        with open(out) as fh:
            doc = json.load(fh)
        self.assertEqual(doc["platform"], "cpu")
        seen = {}
        for r in doc["results"]:
            seen.setdefault((r["family"], r["variant"]), []).append(r)
        self.assertTrue(example_variants(src) <= set(seen), "example variants missing from the results: %s"
                        % sorted(example_variants(src) - set(seen)))
        for key in example_variants(src) | BASELINES:
            self.assertIn(key, seen)
            for r in seen[key]:
                self.assertEqual(r["status"], "verified", "%s/%s %s: %s" % (*key, r["params"], r.get("error")))
                self.assertTrue(r["verified"])

        # The installed compiler command builds an ordinary HIP program (a sample of tests/hip_samples,
        # with its quoted include beside it) that runs against the installed runtime.
        samples = os.path.join(tmp, "samples-" + name)
        shutil.copytree(os.path.join(SOURCE, "tests", "hip_samples"), samples)
        exe = os.path.join(samples, "templates")
        flags = ["-fsanitize=address,undefined"] if wbtest.sanitized() else []
        run([os.path.join(prefix, "bin", "wavebench-hipcc"), *flags, "-O1", os.path.join(samples, "templates.hip"),
             "-o", exe], env=env)
        self.assertIn("templates: PASSED", run([exe], env=env).stdout)

    def test_install_build_run_move(self):
        with tempfile.TemporaryDirectory(prefix="wavebench-sdk-") as tmp:
            tmp = os.path.realpath(tmp)
            prefix = os.path.join(tmp, "prefix")
            run([CMAKE, "--install", BUILD, "--prefix", prefix])
            for f in ("bin/wavebench", "lib/cmake/wavebench/wavebenchConfig.cmake", "include/wavebench/plugin.h",
                      "include/wavebench/platforms/cpu/include/hip/hip_runtime.h",
                      "lib/wavebench/lib/libwavebench_platform_cpu.so", "lib/wavebench/lib/libwavebench_hip_cpu.so",
                      "bin/wavebench-hipcc", "bin/wavebench-hip-rewrite",
                      "include/wavebench/platforms/cpu/include/hip/hip_cooperative_groups.h"):
                self.assertTrue(os.path.exists(os.path.join(prefix, f)), f + " is not installed")
            self.assertTrue(glob.glob(os.path.join(prefix, "lib", "wavebench", "plugins", "cpu", "*.so")))

            # Relocatable: no installed file names the source, the build or the prefix itself, and
            # every RUNPATH is relative to $ORIGIN. Except in a sanitizer build's binaries: GCC 12
            # records each source's absolute path in ASan's and UBSan's report data, whatever
            # -ffile-prefix-map says; their RUNPATHs and the move below still show relocatability.
            needles = [s.encode() for s in (SOURCE, BUILD, prefix)]
            elf_needles = [prefix.encode()] if wbtest.sanitized() else needles
            readelf = shutil.which("readelf")
            for root, _, files in os.walk(prefix):
                for name in files:
                    path = os.path.join(root, name)
                    with open(path, "rb") as fh:
                        data = fh.read()
                    for n in elf_needles if data[:4] == b"\x7fELF" else needles:
                        self.assertFalse(n in data, "%s names %s" % (path, n.decode()))
                    if readelf and data[:4] == b"\x7fELF":
                        dyn = run([readelf, "-d", path]).stdout
                        for paths in re.findall(r"\((?:RUNPATH|RPATH)\)\s+Library r(?:un)?path: \[(.*)\]", dyn):
                            for entry in paths.split(":"):
                                self.assertTrue(entry.startswith("$ORIGIN"), "%s: RUNPATH %s" % (path, entry))

            # The example, out of the source tree: it can only find the SDK through the prefix.
            src = os.path.join(tmp, "example")
            shutil.copytree(EXAMPLE, src)
            self.build_and_run(tmp, prefix, src, "installed")
            compat = os.path.join(tmp, "compat")
            shutil.copytree(COMPAT, compat)
            self.assertTrue(example_variants(compat), "no plugins in " + COMPAT)
            self.build_and_run(tmp, prefix, compat, "compat")

            # A platform the SDK lacks (or no platform at all) is a configure error that says so.
            with open(os.path.join(prefix, "lib", "cmake", "wavebench", "wavebenchConfig.cmake")) as fh:
                have = re.search(r'set\(WAVEBENCH_SDK_PLATFORMS "([^"]*)"\)', fh.read())
            lacking = [p for p in ("amd", "nvidia") if p not in have.group(1).split(";")] or ["cuda"]
            bad = os.path.join(tmp, "bad")
            os.makedirs(os.path.join(bad, "reduce"))
            shutil.copy(os.path.join(EXAMPLE, "reduce", "sdk_grid_stride.hip"), os.path.join(bad, "reduce"))
            with open(os.path.join(bad, "CMakeLists.txt"), "w") as fh:
                fh.write("cmake_minimum_required(VERSION 3.25)\nproject(bad LANGUAGES CXX)\n"
                         "find_package(wavebench CONFIG REQUIRED)\n"
                         "wavebench_add_plugin(reduce/sdk_grid_stride.hip PLATFORMS %s)\n" % lacking[0])
            p = self.configure(bad, os.path.join(tmp, "build-bad"), prefix, clean_env(tmp), check=False)
            self.assertNotEqual(p.returncode, 0)
            said = " ".join((p.stdout + p.stderr).split()) # CMake wraps its messages
            self.assertRegex(said, "has no '%s' platform|unknown platform '%s'" % ((lacking[0],) * 2))

            # Moved: the package finds itself, the command its libraries and plugins, where they are now.
            moved = os.path.join(tmp, "elsewhere", "wavebench")
            os.makedirs(os.path.dirname(moved))
            os.rename(prefix, moved)
            self.build_and_run(tmp, moved, src, "moved")


if __name__ == "__main__":
    wbtest.main()
