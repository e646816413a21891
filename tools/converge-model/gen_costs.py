#!/usr/bin/python3
"""Counts the per-trip instruction costs of the converge kernels from their dumped SASS and prints
the cost table of reference/converge_costs.h (the sm_90 entry), see REPORT.md.

  /usr/bin/python3 gen_costs.py [converge-sass.txt]   (default: results/h100/converge-sass.txt)

The region addresses are those of the recorded binary (REPORT.md, "The numbers"); FMA loops are
counted by sass.Interp for n = 0 .. 31 and checked to repeat with period 16 (+19) up to n = 100.
"""
import os
import sys

import sass as S

HERE = os.path.dirname(os.path.abspath(__file__))
PATH = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "../../results/h100/converge-sass.txt")
K = S.load(PATH)
R = S.count_range


def chain(code, entry, stop, regs, preds=None):
    """The FMA loop at `entry` as a function of its trip count n; regs(n): the counters' entry values."""
    def f(n):
        I = S.Interp(code, {"0x228": n, "0x22c": n})
        return I.run(entry, [stop], regs(n), preds(n) if preds else None)
    return f


def table(f):
    t = [f(n) for n in range(32)]
    for n in range(32, 101):
        assert f(n) == f(n - 16) + 19, ("period", n)
    return t


def regs(names):
    return lambda n: {names[0]: n - 1, names[1]: n - (n & 3), names[2]: n & 3} if len(names) == 3 else \
        {names[0]: n - (n & 3), names[1]: n & 3}


b, m, r, a = K["baseline"], K["postpone_majority"], K["postpone_roundrobin"], K["advance"]
fin_pred = lambda n: {"P1": n - 1 >= 3}
costs = {
    "baseline": dict(
        head=R(b, 0x6F0, 0x8E0), tail=R(b, 0x14A0, 0x14F0),
        t=table(chain(b, 0x8E0, 0x10A0, regs(["R13", "R12", "R11"]))),
        f=table(chain(b, 0xCE0, 0x10A0, regs(["R13", "R12", "R11"]))),
        finish=table(chain(b, 0x10A0, 0x14A0, regs(["R18", "R10", "R8"])))),
    "postpone_majority": dict(
        head=R(m, 0x1D0, 0x600), relief_block=R(m, 0x410, 0x5C0), load=R(m, 0x280, 0x330),
        body=R(m, 0x600, 0x720), finish_extra=R(m, 0x1320, 0x1350), tail=R(m, 0x1350, 0x13B0),
        t=table(chain(m, 0x720, 0xF40, regs(["R19", "R7", "R9"]))),
        f=table(chain(m, 0xB50, 0xF40, regs(["R19", "R7", "R9"]))),
        finish=table(chain(m, 0xF40, 0x1320, regs(["R6", "R8"]), fin_pred))),
    "postpone_roundrobin": dict(
        head=R(r, 0x1C0, 0x400), load=R(r, 0x270, 0x320), body=R(r, 0x400, 0x500),
        finish_extra=R(r, 0x1100, 0x1130), tail=R(r, 0x1130, 0x11A0),
        t=table(chain(r, 0x500, 0xD20, regs(["R17", "R4", "R5"]))),
        f=table(chain(r, 0x930, 0xD20, regs(["R17", "R4", "R5"]))),
        finish=table(chain(r, 0xD20, 0x1100, regs(["R2", "R6"]), fin_pred))),
    "advance": dict(
        head=R(a, 0x190, 0x5F0), next_block=R(a, 0x360, 0x490), next_load=R(a, 0x3B0, 0x460),
        slot_test=R(a, 0x5F0, 0x630), slot_skip=1, tail=R(a, 0x1830, 0x1870),
        t_extra=R(a, 0x630, 0x740) + R(a, 0xEF0, 0xF10), f_extra=R(a, 0xF50, 0x1060) + R(a, 0x1810, 0x1830),
        t=table(chain(a, 0x740, 0xB00, regs(["R17", "R11", "R13"]))),
        f=table(chain(a, 0x1060, 0x1420, regs(["R17", "R11", "R13"]))),
        finish=table(chain(a, 0xB00, 0xEF0, regs(["R16", "R10", "R12"]))),
        finish_f=table(chain(a, 0x1420, 0x1810, regs(["R16", "R10", "R12"])))),
}
assert costs["advance"]["finish"] == costs["advance"]["finish_f"], "advance: the two slots' finish loops differ"
del costs["advance"]["finish_f"]

order = ["head", "tail", "body", "relief_block", "load", "next_block", "next_load", "slot_test", "slot_skip",
         "t_extra", "f_extra", "finish_extra"]
variants = ["baseline", "postpone_majority", "postpone_roundrobin", "advance"]
# Each distinct loop table once, named after its first use; kernels compiled to the same loop share it.
names = {}
for v in variants:
    for part in ("t", "f", "finish"):
        key = tuple(costs[v][part])
        if key not in names:
            names[key] = f"{v}_{part}"
            body = ", ".join(map(str, key))
            print(f"    static const loop_cost {names[key]}{{{{{body}}}}};")
print("    static const std::vector<device_costs> tables = {")
print('        {"sm_90",\n         32,\n         {')
for v in variants:
    c = costs[v]
    fields = ", ".join(f".{k} = {c[k]}" for k in order if k in c)
    loops = ", ".join(f".{part} = {names[tuple(c[part])]}" for part in ("t", "f", "finish"))
    print(f"             // {v}\n             step_costs{{{fields}, {loops}}},")
print("         }},\n    };")
