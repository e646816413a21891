#!/usr/bin/env python3
"""Builds that do only what changed (docs/architecture.md, "Builds").

The tests' own build: once built, `ninja -n` has nothing to do (no glob re-check, no CMake re-run,
no version step, no module whose outputs a build never writes).

A project of plugins against the installed SDK (`cmake --install` of this build), built with the
functions the in-tree build uses (wavebench_glob, wavebench_add_plugin) for cpu, and for amd (one
target, gfx942) where this build has it: after the build nothing is left to do; one plugin touched
rebuilds that plugin's targets on each platform and nothing else; a header touched rebuilds only the
plugin that includes it (the depfiles of the cpu and the amd compiles); a new plugin file re-runs
CMake and only it compiles.

Usage: incremental_build_test.py BUILD_DIR SOURCE_DIR CMAKE_COMMAND GENERATOR"""
import os
import re
import shutil
import subprocess
import time
import unittest

import wbtest

BUILD, SOURCE = os.path.realpath(wbtest.BUILD), os.path.realpath(wbtest.SOURCE)
CMAKE, GENERATOR = wbtest.ARGS[0], wbtest.ARGS[1]
NINJA = shutil.which("ninja")
PLUGIN = os.path.join(SOURCE, "examples", "out-of-tree", "reduce", "sdk_grid_stride.hip")
PROJECT = """cmake_minimum_required(VERSION 3.25)
project(incremental LANGUAGES CXX)
find_package(wavebench CONFIG REQUIRED)
wavebench_glob(sources ${CMAKE_CURRENT_SOURCE_DIR}/*/*.hip)
foreach(src IN LISTS sources)
  wavebench_add_plugin(${src})
endforeach()
"""


def run(args, cwd=None, timeout=900):
    p = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        raise AssertionError("%s: exit %d\n%s%s" % (" ".join(args), p.returncode, p.stdout[-6000:], p.stderr[-6000:]))
    return p.stdout


def steps(output):
    """The descriptions of the steps a ninja run printed ("[3/7] Linking ..." -> "Linking ...")."""
    return [m.group(1) for m in re.finditer(r"^\[\d+/\d+\] (.*)$", output, re.M)]


def touch(path):
    """The file modified now, after anything built so far whatever the file system's resolution."""
    time.sleep(1.1)
    os.utime(path)


def sdk_platforms():
    config = os.path.join(BUILD, "package", "wavebenchConfig.cmake")
    with open(config) as f:
        m = re.search(r'set\(WAVEBENCH_SDK_PLATFORMS "([^"]*)"\)', f.read())
    return m.group(1).split(";") if m else ["cpu"]


@unittest.skipUnless(GENERATOR == "Ninja" and NINJA, "the build is not a Ninja build (generator %s)" % GENERATOR)
class Incremental(unittest.TestCase):
    def test_this_build_has_nothing_left(self):
        out = run([NINJA, "-C", BUILD, "-n", "-d", "explain"])
        self.assertIn("ninja: no work to do.", out,
                      "a build right after a build still has work (build before testing if you edited since):\n" +
                      out[-4000:])

    def test_plugins_rebuild_only_what_changed(self):
        platforms = [p for p in sdk_platforms() if p in ("cpu", "amd")]
        tmp = wbtest.tempdir()
        prefix, src, build = (os.path.join(tmp, d) for d in ("prefix", "src", "build"))
        run([CMAKE, "--install", BUILD, "--prefix", prefix])
        os.makedirs(os.path.join(src, "reduce"))
        wbtest.write(os.path.join(src, "CMakeLists.txt"), PROJECT)
        plugin = open(PLUGIN).read()
        wbtest.write(os.path.join(src, "reduce", "one.hip"), plugin)
        wbtest.write(os.path.join(src, "reduce", "shared.h"), "// included by two.hip only\n#pragma once\n")
        wbtest.write(os.path.join(src, "reduce", "two.hip"), '#include "shared.h"\n' + plugin)
        run([CMAKE, "-S", src, "-B", build, "-G", GENERATOR, "-DCMAKE_PREFIX_PATH=" + prefix,
             "-DCMAKE_BUILD_TYPE=Release", "-DWAVEBENCH_PLATFORMS=" + ";".join(platforms),
             "-DWAVEBENCH_AMD_TARGETS=gfx942"])
        run([NINJA, "-C", build])
        for p in platforms:
            for v in ("one", "two"):
                self.assertTrue(os.path.exists(os.path.join(build, p, "reduce_%s.so" % v)), (p, v))

        def nothing_left(after):
            out = run([NINJA, "-C", build, "-n", "-d", "explain"])
            self.assertIn("ninja: no work to do.", out, "after %s, a second build still has work:\n%s" % (after, out))

        def rebuilt_only(what, expected):
            done = steps(run([NINJA, "-C", build]))
            done = [s for s in done if not s.startswith("Re-running CMake")]
            self.assertTrue(done, "after %s, nothing was rebuilt" % what)
            stray = [s for s in done if expected not in s]
            self.assertEqual(stray, [], "after %s, steps of other plugins ran: %s" % (what, done))
            for p in platforms:  # each platform's build of it
                self.assertTrue(any(re.search(r"\b%s\b" % p, s) or "/%s/" % p in s for s in done),
                                "after %s, no %s step ran: %s" % (what, p, done))
            nothing_left(what)

        nothing_left("the first build")
        touch(os.path.join(src, "reduce", "one.hip"))
        rebuilt_only("touching reduce/one.hip", "one")
        touch(os.path.join(src, "reduce", "shared.h"))
        rebuilt_only("touching shared.h (which two.hip includes)", "two")
        wbtest.write(os.path.join(src, "reduce", "three.hip"), plugin)
        rebuilt_only("adding reduce/three.hip", "three")
        for p in platforms:
            self.assertTrue(os.path.exists(os.path.join(build, p, "reduce_three.so")), p)


if __name__ == "__main__":
    wbtest.main()
