#!/usr/bin/env python3
"""The amd platform's HIP toolchain (cmake/amd_toolchain.cmake) and its build step
(cmake/wavebench_hip_compile.cmake), without a ROCm of their own:

- a stand-in ROCm prefix made here (a bin/amdclang++ that records its arguments and writes empty
  outputs, HIP headers, a device-library folder, libamdhip64): ROCM_PATH and -DWAVEBENCH_HIP_COMPILER
  each pick it, for a tiny project (wavebench_add_plugin) and for wavebench itself; every command
  of the HIP toolchain, every generated file of it and the recorded toolchain use the stand-in, and
  nothing of it points at /usr;
- a stand-in that behaves as ROCm 5.2 does with a newer clang (no ISA-version library for gfx1201,
  no predefined __AMDGCN_WAVEFRONT_SIZE): the probes find both, the configure output says so, the
  build generates the ISA-version bitcode with that compiler and defines the wavefront size per target;
- with a real HIP clang (Debian's clang-22 or clang-19; skipped without one): a plugin that cannot
  be built for one target is built for the others, with <plugin>.so.omitted naming the target and
  the compiler's error; built for all, the stale sidecar goes; failing for every target, the build fails;
- the installed SDK (where the amd platform is built): a plugin built against it gets the same
  compiler, flags and targets as wavebench's own.

Usage: amd_toolchain_test.py BUILD_DIR SOURCE_DIR CMAKE_COMMAND GENERATOR [HIP_COMPILER]"""
import json
import os
import shutil
import subprocess
import sys
import unittest

import wbtest

SOURCE = os.path.realpath(wbtest.SOURCE)
CMAKE, GENERATOR = wbtest.ARGS[0], wbtest.ARGS[1]
HIP_COMPILER = wbtest.ARGS[2] if len(wbtest.ARGS) > 2 else ""

# The stand-in compiler: every call appended to calls.jsonl beside it (arguments, the environment's
# DEVICE_LIB_PATH); outputs written empty (a code object: an ELF header saying v6). With ROCM52 it
# fails as a newer clang does with ROCm 5.2: no ISA-version library, no wavefront size predefined.
FAKE = r'''#!PYTHON
import json, os, sys
ROCM52 = ROCM52_VALUE
here = os.path.dirname(os.path.abspath(__file__))
args = sys.argv[1:]
with open(os.path.join(here, "calls.jsonl"), "a") as log:
    log.write(json.dumps({"args": args, "cwd": os.getcwd()}) + "\n")
if "--version" in args:
    print("Stand-in clang version 19.1.2 (a test's)\nTarget: x86_64-unknown-linux-gnu")
    sys.exit(0)
def value(flag):
    return [a[len(flag):] for a in args if a.startswith(flag)]
if ROCM52:
    if any(a.endswith("wave.hip") for a in args) and not any("__AMDGCN_WAVEFRONT_SIZE" in a for a in args):
        sys.exit("wave.hip:2:2: error: __AMDGCN_WAVEFRONT_SIZE is not predefined")
    libs = value("--rocm-device-lib-path=")
    if "-nogpulib" not in args and libs and "cl" not in args:
        for t in value("--offload-arch="):
            if not os.path.exists(os.path.join(libs[-1], "oclc_isa_version_%s.bc" % t[3:])):
                sys.exit("clang: error: cannot find ROCm device library for %s" % t)
for i, a in enumerate(args[:-1]):
    if a == "-o" and args[i + 1] != os.devnull:
        with open(args[i + 1], "wb") as f:
            if "--no-gpu-bundle-output" in args:
                f.write(b"\x7fELF\x02\x01\x01\x40\x04" + bytes(55))
    if a == "-MF":
        with open(args[i + 1], "w") as f:
            f.write("%s: %s\n" % (value("-o")[0] if value("-o") else "out", args[-1]))
'''

# A tiny project: one plugin for the amd platform, with what cmake/platforms.cmake gives it in-tree.
PROJECT = '''cmake_minimum_required(VERSION 3.25)
project(standin LANGUAGES CXX)
set(WAVEBENCH_SDK_PLATFORMS amd)
set(WAVEBENCH_PLATFORMS amd)
set(WAVEBENCH_INCLUDE_DIR "@SOURCE@/core/include")
set(WAVEBENCH_PLUGIN_DIR ${CMAKE_BINARY_DIR}/plugins)
set(WAVEBENCH_AMD_TARGETS "@TARGETS@" CACHE STRING "")
include("@SOURCE@/cmake/amd_toolchain.cmake")
include("@SOURCE@/cmake/wavebench_plugin.cmake")
wavebench_amd_toolchain(COMPAT_HEADER "@SOURCE@/core/platforms/amd/hip_compat.h")
if(NOT WAVEBENCH_AMD_FOUND)
  message(FATAL_ERROR "no amd toolchain: ${WAVEBENCH_AMD_WHY}")
endif()
message(STATUS "toolchain: ${WAVEBENCH_AMD_TOOLCHAIN}")
wavebench_add_plugin(fam/var.hip PLATFORMS amd)
'''


def read(path):
    with open(path) as f:
        return f.read()


def run(args, env=None, check=True, timeout=900):
    p = subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=env)
    if check and p.returncode != 0:
        raise AssertionError("%s: exit %d\n%s%s" % (" ".join(args), p.returncode, p.stdout[-6000:], p.stderr[-6000:]))
    return p


def env_without_rocm(**more):
    e = wbtest.environment()
    e.pop("ROCM_PATH", None)
    e.update(more)
    return e


def stand_in(tmp, rocm52=False):
    """A ROCm prefix with a recording bin/amdclang++, headers, device libraries and libamdhip64."""
    rocm = os.path.join(tmp, "rocm")
    for d in ("bin", "include/hip", "amdgcn/bitcode", "lib"):
        os.makedirs(os.path.join(rocm, d), exist_ok=True)
    fake = os.path.join(rocm, "bin", "amdclang++")
    wbtest.write(fake, FAKE.replace("PYTHON", sys.executable).replace("ROCM52_VALUE", str(rocm52)))
    os.chmod(fake, 0o755)
    wbtest.write(os.path.join(rocm, "include/hip/hip_runtime.h"), "#pragma once\n")
    wbtest.write(os.path.join(rocm, "include/hip/hip_version.h"),
                 "#define HIP_VERSION_MAJOR 6\n#define HIP_VERSION_MINOR 2\n#define HIP_VERSION_PATCH 41133\n")
    for lib in ("ocml.bc", "ockl.bc", "oclc_isa_version_942.bc", "oclc_abi_version_500.bc"):
        wbtest.write(os.path.join(rocm, "amdgcn/bitcode", lib), "")
    wbtest.write(os.path.join(rocm, "lib/libamdhip64.so"), "")
    return rocm


def calls(rocm):
    with open(os.path.join(rocm, "bin", "calls.jsonl")) as f:
        return [json.loads(line) for line in f]


def tiny_project(tmp, targets, source):
    src = os.path.join(tmp, "project")
    os.makedirs(os.path.join(src, "fam"), exist_ok=True)
    wbtest.write(os.path.join(src, "CMakeLists.txt"), PROJECT.replace("@SOURCE@", SOURCE).replace("@TARGETS@", targets))
    wbtest.write(os.path.join(src, "fam", "var.hip"), source)
    return src


def hip_files(build):
    """What the build generated for the HIP toolchain: the modules' settings, the device-library
    folder's links, the amd lines of build.ninja (less the cmake that runs them) and the cache's amd
    entries, as (where, text) pairs."""
    found = []
    for root, _, files in os.walk(build):
        for name in files:
            path = os.path.join(root, name)
            if name.endswith(".hip.cmake"):
                found.append((path, read(path)))
            elif os.path.islink(path):
                found.append((path, os.readlink(path)))
    with open(os.path.join(build, "build.ninja")) as f:
        for line in f:
            if "wavebench_hip_compile" in line or "amd-device-libs" in line:
                found.append(("build.ninja", line.replace(CMAKE, "CMAKE")))
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        for line in f:
            if line.startswith(("WAVEBENCH_HIP", "ROCM_PATH", "_WB_HIP", "WAVEBENCH_AMD")):
                found.append(("CMakeCache.txt", line))
    return found


class StandIn(unittest.TestCase):
    def assert_only_stand_in(self, rocm, build):
        """Every call of the compiler, every generated file of the toolchain: the stand-in's, no /usr."""
        log = calls(rocm)
        self.assertTrue(log)
        for call in log:
            self.assertFalse([a for a in call["args"] if "/usr" in a], call["args"])
        files = hip_files(build)
        self.assertTrue([f for f in files if f[0].endswith(".hip.cmake")])
        for where, text in files:
            self.assertNotIn("/usr", text, where)

    def check_module_call(self, rocm, output, targets):
        builds = [c["args"] for c in calls(rocm) if output in c["args"]]
        self.assertEqual(len(builds), 1, builds)
        args = builds[0]
        self.assertIn("--rocm-path=" + rocm, args)
        self.assertIn("--rocm-device-lib-path=" + os.path.join(rocm, "amdgcn", "bitcode"), args)
        self.assertEqual([a for a in args if a.startswith("--offload-arch=")], ["--offload-arch=" + t for t in targets])
        self.assertIn("-L" + os.path.join(rocm, "lib"), args)
        self.assertNotIn("-include", args)  # a ROCm of today needs no compatibility header
        self.assertTrue(os.path.exists(output))
        self.assertFalse(os.path.exists(output + ".omitted"))

    def tiny(self, how):
        tmp = wbtest.tempdir()
        rocm = stand_in(tmp)
        src = tiny_project(tmp, "gfx942;gfx1201", "__global__ void k() {}\n")
        build = os.path.join(tmp, "build")
        env, extra = env_without_rocm(), []
        if how == "ROCM_PATH":
            env["ROCM_PATH"] = rocm
        else:
            extra = ["-DWAVEBENCH_HIP_COMPILER=" + os.path.join(rocm, "bin", "amdclang++")]
        out = run([CMAKE, "-S", src, "-B", build, "-G", GENERATOR, *extra], env=env).stdout
        self.assertIn("toolchain: amdclang++ (clang 19.1.2, HIP 6.2.41133 headers, code object v6)", out)
        self.assertIn("compatibility found by probe compiles: none", out)
        run([CMAKE, "--build", build], env=env)
        self.check_module_call(rocm, os.path.join(build, "plugins", "amd", "fam_var.so"), ["gfx942", "gfx1201"])
        self.assert_only_stand_in(rocm, build)

    def test_rocm_path(self):
        self.tiny("ROCM_PATH")

    def test_compiler_named(self):
        self.tiny("WAVEBENCH_HIP_COMPILER")

    def test_wavebench_itself(self):
        """wavebench configured with ROCM_PATH at the stand-in: its platform library, plugins and
        recorded toolchain use the stand-in only."""
        tmp = wbtest.tempdir()
        rocm = stand_in(tmp)
        build = os.path.join(tmp, "build")
        env = env_without_rocm(ROCM_PATH=rocm)
        out = run([CMAKE, "-S", SOURCE, "-B", build, "-G", GENERATOR, "-DCMAKE_BUILD_TYPE=Release",
                   "-DWAVEBENCH_ENABLE_NVIDIA=OFF", "-DWAVEBENCH_ENABLE_AMD=ON", "-DWAVEBENCH_AMD_TARGETS=gfx942;gfx1100"],
                  env=env).stdout
        self.assertIn("wavebench platforms: cpu;amd", out)
        self.assert_only_stand_in(rocm, build)
        ninja = read(os.path.join(build, "build.ninja"))
        self.assertIn("amd=amdclang++ (clang 19.1.2, HIP 6.2.41133 headers, code object v6)", ninja)
        spec = read(os.path.join(build, "wavebench_platform_amd.hip.cmake"))
        self.assertIn("[==[%s]==]" % os.path.join(rocm, "bin", "amdclang++"), spec)

    def test_rocm52_compat(self):
        """A stand-in without gfx1201's ISA-version library and without a predefined wavefront size:
        the probes say so, and the build makes the library and defines the size per target."""
        tmp = wbtest.tempdir()
        rocm = stand_in(tmp, rocm52=True)
        src = tiny_project(tmp, "gfx942;gfx1201", "__global__ void k() {}\n")
        build = os.path.join(tmp, "build")
        env = env_without_rocm(ROCM_PATH=rocm)
        out = run([CMAKE, "-S", src, "-B", build, "-G", GENERATOR], env=env).stdout
        self.assertIn("compatibility found by probe compiles: isa (gfx1201), wave (__AMDGCN_WAVEFRONT_SIZE defined)", out)
        run([CMAKE, "--build", build], env=env)
        libs = os.path.join(build, "amd-device-libs")
        self.assertTrue(os.path.isfile(os.path.join(libs, "oclc_isa_version_1201.bc")))
        self.assertEqual(os.readlink(os.path.join(libs, "ocml.bc")), os.path.join(rocm, "amdgcn", "bitcode", "ocml.bc"))
        self.assertEqual(read(os.path.join(libs, "src", "oclc_isa_version_1201.bc.cl")),
                         "const __constant int __oclc_ISA_version = 12001;\n")
        made = [c["args"] for c in calls(rocm) if os.path.join(libs, "oclc_isa_version_1201.bc") in c["args"]]
        self.assertTrue(made and "-x" in made[0] and "cl" in made[0], made)
        output = os.path.join(build, "plugins", "amd", "fam_var.so")
        module = [c["args"] for c in calls(rocm) if output in c["args"]][0]
        self.assertIn("--rocm-device-lib-path=" + libs, module)
        text = " ".join(module)
        for define in ("-Xarch_host -D__AMDGCN_WAVEFRONT_SIZE=64", "-Xarch_gfx942 -D__AMDGCN_WAVEFRONT_SIZE=64",
                       "-Xarch_gfx1201 -D__AMDGCN_WAVEFRONT_SIZE=32"):
            self.assertIn(define, text)
        self.assert_only_stand_in(rocm, build)


class Sdk(unittest.TestCase):
    def test_same_toolchain(self):
        """A plugin built against the installed SDK gets the compiler and flags the SDK's own got
        (the device-library folder and the compatibility header are each build's and prefix's own)."""
        if not HIP_COMPILER:
            self.skipTest("the amd platform is not built here")
        tmp = wbtest.tempdir()
        prefix = os.path.join(tmp, "prefix")
        run([CMAKE, "--install", wbtest.BUILD, "--prefix", prefix])
        src = tiny_project(tmp, "", "__global__ void k() {}\n")
        wbtest.write(os.path.join(src, "CMakeLists.txt"), "cmake_minimum_required(VERSION 3.25)\nproject(c LANGUAGES CXX)\n"
                     "find_package(wavebench CONFIG REQUIRED COMPONENTS amd)\nwavebench_add_plugin(fam/var.hip)\n")
        build = os.path.join(tmp, "build")
        p = run([CMAKE, "-S", src, "-B", build, "-G", GENERATOR, "-DCMAKE_PREFIX_PATH=" + prefix], env=env_without_rocm())
        self.assertNotIn("amd plugins are built here with", p.stdout + p.stderr)

        def settings(path, here):
            text = read(path).replace(os.path.realpath(here), "HERE").replace(here, "HERE")
            return {line.split(" ", 1)[0]: line for line in text.splitlines() if line.startswith(("set(WB_COMPILER",
                                                                                                     "set(WB_FLAGS",
                                                                                                     "set(WB_TARGETS",
                                                                                                     "set(WB_WAVE"))}
        sdk = settings(os.path.join(build, "wbplugin__amd_fam_var.hip.cmake"), build)
        sdk = {k: v.replace(os.path.join(prefix, "include", "wavebench", "platforms", "amd"), "COMPAT") for k, v in sdk.items()}
        tree = settings(os.path.join(wbtest.BUILD, "wavebench_platform_amd.hip.cmake"), wbtest.BUILD)
        tree = {k: v.replace(os.path.join(SOURCE, "core", "platforms", "amd"), "COMPAT") for k, v in tree.items()}
        self.assertEqual(len(sdk), 4, sdk)
        self.assertEqual(sdk, tree)


def real_compiler():
    if HIP_COMPILER and "clang" in os.path.basename(HIP_COMPILER):
        return HIP_COMPILER
    return shutil.which("clang++-22") or shutil.which("clang++-19")


LEFT_OUT = '''#include <hip/hip_runtime.h>
#if defined(__gfx1100__)
#error "this kernel is not for gfx1100"
#endif
__global__ void scale(float* x) { x[threadIdx.x] *= 2.0f; }
'''


class LeftOut(unittest.TestCase):
    def test_target_left_out(self):
        compiler = real_compiler()
        if not compiler:
            self.skipTest("no HIP clang here (Debian: apt-get install clang-22 lld-22 clang-tools-22)")
        tmp = wbtest.tempdir()
        src = tiny_project(tmp, "gfx942;gfx1100", LEFT_OUT)
        build = os.path.join(tmp, "build")
        env = env_without_rocm()
        p = run([CMAKE, "-S", src, "-B", build, "-G", GENERATOR, "-DWAVEBENCH_HIP_COMPILER=" + compiler], env=env,
                check=False)
        if p.returncode != 0 and "no HIP headers" in p.stdout + p.stderr:
            self.skipTest("no HIP headers here (Debian: apt-get install libamdhip64-dev)")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        so = os.path.join(build, "plugins", "amd", "fam_var.so")
        p = run([CMAKE, "--build", build], env=env)
        self.assertIn("fam_var.so: left out for gfx1100", p.stdout + p.stderr)
        lines = read(so + ".omitted").splitlines()
        self.assertEqual(len(lines), 1, lines)
        target, reason = lines[0].split("\t")
        self.assertEqual(target, "gfx1100")
        self.assertIn("error:", reason)
        self.assertIn("this kernel is not for gfx1100", reason)
        self.assertNotIn(src, reason)  # no folder of the build machine
        with open(so, "rb") as f:
            data = f.read()
        self.assertIn(b"amdgcn-amd-amdhsa--gfx942", data)
        self.assertNotIn(b"amdgcn-amd-amdhsa--gfx1100", data)

        # Built for every target: the stale sidecar goes.
        wbtest.write(os.path.join(src, "fam", "var.hip"), LEFT_OUT.replace("__gfx1100__", "__gfx9999__"))
        run([CMAKE, "--build", build], env=env)
        self.assertFalse(os.path.exists(so + ".omitted"))
        with open(so, "rb") as f:
            self.assertIn(b"amdgcn-amd-amdhsa--gfx1100", f.read())

        # Failing for every target: a failed build, with the compiler's error.
        wbtest.write(os.path.join(src, "fam", "var.hip"), LEFT_OUT.replace("defined(__gfx1100__)", "1"))
        p = run([CMAKE, "--build", build], env=env, check=False)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("this kernel is not for gfx1100", p.stdout + p.stderr)
        self.assertIn("fam_var.so: it fails for every target", p.stdout + p.stderr)


if __name__ == "__main__":
    wbtest.main()
