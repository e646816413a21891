#!/usr/bin/env python3
"""Every sample program compiles with wavebench-hipcc under each language standard HIP code is
written in (C++14, C++17, C++20), with -Wall -Wextra -Werror: the cpu platform's headers, the
rewrite and the compiler command take each. The build makes the C++17 binaries that the other
tests run. Usage: standards_test.py WAVEBENCH_HIPCC SAMPLE.hip..."""
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor


def compile_one(hipcc, source, std):
    p = subprocess.run([hipcc, "-std=" + std, "-fsyntax-only", "-Wall", "-Wextra", "-Werror", source],
                       capture_output=True, text=True, timeout=600)
    return source, std, p.returncode, p.stderr


def main():
    hipcc, sources = sys.argv[1], sys.argv[2:]
    if not sources:
        print("no sample given")
        return 1
    jobs = [(s, std) for s in sources for std in ("c++14", "c++20")]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(lambda j: compile_one(hipcc, *j), jobs))
    failed = [r for r in results if r[2] != 0]
    for source, std, status, stderr in failed:
        print("%s -std=%s: exit %d\n%s" % (os.path.basename(source), std, status, stderr[-3000:]))
    print("%d of %d sample builds compiled" % (len(results) - len(failed), len(results)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
