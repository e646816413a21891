"""What every Python test in tests/ shares: the build and source folders it was given, the wavebench
command run with the tests' cache, temporary folders removed at exit, small file helpers, and the
unittest entry point. ctest runs each script as `python3 SCRIPT BUILD_DIR SOURCE_DIR [ARG...]`
(wavebench_python_test in tests/CMakeLists.txt); ARGS holds what follows the two folders."""

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

if len(sys.argv) < 3:
    sys.exit(f"usage: {os.path.basename(sys.argv[0])} BUILD_DIR SOURCE_DIR [ARG...]")
BUILD, SOURCE, ARGS = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3:]
WB = os.path.join(BUILD, "bin", "wavebench")
CACHE = os.path.join(BUILD, "test-cache")  # the ceilings' cache of every test, never the user's
KEEP = object()  # db=KEEP: WAVEBENCH_DB as the environment has it (ctest sets one under the build)


def environment(env=None, unset=(), db=KEEP, cache=CACHE):
    """The environment of a command: this one with the tests' cache (cache=None: as it is), the names
    in `unset` removed, WAVEBENCH_DB set to `db` (None: removed), then `env` added."""
    e = dict(os.environ)
    if cache is not None:
        e["WAVEBENCH_CACHE_DIR"] = cache
    for name in unset:
        e.pop(name, None)
    if db is None:
        e.pop("WAVEBENCH_DB", None)
    elif db is not KEEP:
        e["WAVEBENCH_DB"] = db
    e.update(env or {})
    return e


def wb(*args, cwd=None, timeout=600, exe=None, capture=True, errors=None, stdin=None, env=None, unset=(), db=KEEP,
       cache=CACHE):
    """Runs wavebench (or `exe`) with `args` in `cwd` (the source folder unless given) and returns the
    finished process, its output captured as text unless capture=False."""
    return subprocess.run([exe or WB, *args], capture_output=capture, text=True, errors=errors, cwd=cwd or SOURCE,
                          env=environment(env, unset, db, cache), timeout=timeout, stdin=stdin)


def runner(**defaults):
    """wb with other defaults (a test's own folder, database, timeout...); a call's keywords still win."""
    def run(*args, **kw):
        return wb(*args, **{**defaults, **kw})
    return run


def tempdir(prefix="wavebench-test-"):
    """A new temporary folder, removed with everything in it when the test ends."""
    path = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, path, True)
    return path


def load(path):
    """The JSON document in a file."""
    with open(path) as f:
        return json.load(f)


def write(path, text):
    """Writes `text` to a file and returns its path."""
    with open(path, "w") as f:
        f.write(text)
    return path


class TimedResult(unittest.TextTestResult):
    """Each case's verdict followed by its wall time, so that a slow CI names its slow cases."""

    def startTest(self, test):
        self._started = time.monotonic()
        super().startTest(test)

    def stopTest(self, test):
        super().stopTest(test)
        self.stream.writeln(f"    ({time.monotonic() - self._started:.1f} s)")


def main():
    """Runs the script's unittest cases, verbosely, on none of the folders given on the command line."""
    unittest.main(argv=sys.argv[:1], verbosity=2,
                  testRunner=unittest.TextTestRunner(verbosity=2, resultclass=TimedResult))


def cached(name):
    """The value of the cache variable `name` in BUILD's CMakeCache.txt ("" where it is not set)."""
    with open(os.path.join(BUILD, "CMakeCache.txt")) as fh:
        for line in fh:
            if line.startswith(name + ":"):
                return line.rstrip("\n").split("=", 1)[1]
    return ""


def sanitized():
    """Whether BUILD is a sanitizer build (-fsanitize in CMAKE_CXX_FLAGS: the asan preset): programs
    built against its libraries need the same -fsanitize (the sanitizer's runtime must come first)."""
    return "-fsanitize=" in cached("CMAKE_CXX_FLAGS")


def stride():
    """Which share of its generated cases a test runs: every one (1), but every third (3) in a
    sanitizer build, where each process the test starts costs about 20 times as much (0.3 s of start-up
    for the instrumented binary) and CI's time would go to start-ups. `make test` runs every case; under
    ASan a test of random cases runs the first third, one of enumerated cases a rotation that still meets
    every kind (each reader on a third of the places, say)."""
    return 3 if sanitized() else 1
