#!/usr/bin/env python3
"""The source's shape, as docs/architecture.md states it: harness/ folders include only themselves,
common/ and the folders below them in the layer order; core/ and reference/ never include harness/;
no harness file over 450 lines, no function over 80 (a function's body: from its opening brace on a
line of its own to the closing brace at the same indentation, as .clang-format lays them out); the
cpu runtime's and the AMD reader's files under 600 lines.

Usage: layout_test.py BUILD_DIR SOURCE_DIR"""
import glob
import os
import re
import unittest

import wbtest

SOURCE = wbtest.SOURCE
# Lowest first: a folder may include the folders before it (and itself), never one after it.
LAYERS = ["common", "platform", "telemetry", "counters", "plugins", "plan", "amd", "measure", "ceilings", "worker", "report",
          "history", "tune", "commands", "main.cpp"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"harness/([^/"]+)/')
MAX_FILE = 450
MAX_CORE_FILE = 600
MAX_FUNCTION = 80


def sources(folder, exts=(".cpp", ".h")):
    for path in sorted(glob.glob(os.path.join(SOURCE, folder, "**", "*"), recursive=True)):
        if path.endswith(exts) and os.path.isfile(path):
            yield path


def rel(path):
    return os.path.relpath(path, SOURCE)


def layer_of(path):
    parts = rel(path).split(os.sep)
    return parts[1] if len(parts) > 2 else parts[1]


def long_functions(path):
    """(first line, lines) of each brace-delimited body opened by a line that is only '{' and that
    follows a line ending in ')' or a const/override/noexcept qualifier: a function's body."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    found = []
    for i, line in enumerate(lines):
        if line.strip() != "{" or i == 0:
            continue
        head = lines[i - 1].rstrip()
        if not re.search(r"(\)|\bconst|\boverride|\bnoexcept|\bfinal)$", head) or head.lstrip().startswith(("if", "for", "while", "switch", "}")):
            continue
        indent = line[: len(line) - len(line.lstrip())]
        for j in range(i + 1, len(lines)):
            if lines[j] == indent + "}" or lines[j].startswith(indent + "};") or lines[j].startswith(indent + "} "):
                if j - i - 1 > MAX_FUNCTION:
                    found.append((i, j - i - 1))
                break
    return found


class Layout(unittest.TestCase):
    def test_includes_point_down_the_layers(self):
        wrong = []
        for path in sources("harness"):
            here = LAYERS.index(layer_of(path))
            for n, line in enumerate(open(path, encoding="utf-8"), 1):
                m = INCLUDE.match(line)
                if m and m.group(1) in LAYERS and LAYERS.index(m.group(1)) > here:
                    wrong.append("%s:%d includes harness/%s/ (above %s/)" % (rel(path), n, m.group(1), layer_of(path)))
        self.assertEqual(wrong, [], "includes that point up the layers (docs/architecture.md)")

    def test_every_harness_folder_has_a_layer(self):
        folders = {d for d in os.listdir(os.path.join(SOURCE, "harness"))
                   if os.path.isdir(os.path.join(SOURCE, "harness", d))}
        self.assertEqual(sorted(folders - set(LAYERS)), [], "harness folders with no place in LAYERS")

    def test_core_and_reference_never_include_the_harness(self):
        wrong = ["%s:%d" % (rel(p), n) for d in ("core", "reference", "plugins")
                 for p in sources(d, (".cpp", ".h", ".hip"))
                 for n, line in enumerate(open(p, encoding="utf-8"), 1) if INCLUDE.match(line)]
        self.assertEqual(wrong, [])

    def test_file_sizes(self):
        big = ["%s: %d lines" % (rel(p), n) for p in sources("harness")
               for n in [sum(1 for _ in open(p, encoding="utf-8"))] if n > MAX_FILE]
        self.assertEqual(big, [], "harness files over %d lines" % MAX_FILE)
        big = ["%s: %d lines" % (rel(p), n) for d in ("core/platforms/cpu", "core/amd") for p in sources(d)
               for n in [sum(1 for _ in open(p, encoding="utf-8"))] if n > MAX_CORE_FILE]
        self.assertEqual(big, [], "core files over %d lines" % MAX_CORE_FILE)

    def test_function_sizes(self):
        long = ["%s:%d: %d lines" % (rel(p), i + 1, n) for d in ("harness", "core/platforms/cpu", "core/amd")
                for p in sources(d) for i, n in long_functions(p)]
        self.assertEqual(long, [], "functions over %d lines" % MAX_FUNCTION)

    def test_the_checker_sees_a_long_function(self):
        # The function check must be able to fail: a body of MAX_FUNCTION + 1 lines is found.
        path = os.path.join(wbtest.tempdir(), "long.cpp")
        wbtest.write(path, "int f(int x)\n{\n" + "    x += 1;\n" * (MAX_FUNCTION + 1) + "    return x;\n}\n")
        self.assertEqual(long_functions(path), [(1, MAX_FUNCTION + 2)])


if __name__ == "__main__":
    wbtest.main()
