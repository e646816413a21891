"""Instruction counts of the converge kernels' loop bodies, from the recorded SASS.

The SASS listing (results/<gpu>/converge-sass.txt) has one section per variant ("== name"), one
instruction per line, 16 bytes each, so the address of line k of a section is 16 * k (branch targets
in the listing are such addresses).

Counting is done by a tiny interpreter that follows control flow through a region of code. It knows
only what the FMA-chain loops need (integer compares, adds and moves of loop counters, predicate
constants, branches); every other instruction is "issued" and otherwise ignored. Registers that hold
loop-invariant values computed in the kernel prologue (the chain lengths and their remainders mod 4)
are given to it by the caller, as the region's entry state.
"""
import re

WORD = 16


def load(path):
    kernels, cur = {}, None
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("== "):
            cur = kernels.setdefault(line[3:].strip(), [])
        elif line.strip() and cur is not None:
            cur.append(line.strip().rstrip(";").strip())
    return kernels


def count_range(code, a, b):
    """Instructions in [a, b) (straight-line code)."""
    return (b - a) // WORD


class Interp:
    def __init__(self, code, params):
        self.code = code
        self.params = params  # c[0x0][off] -> value for the kernel parameters the regions read

    def _val(self, s, regs):
        s = s.strip()
        neg = s.startswith("-")
        if neg:
            s = s[1:]
        if s == "RZ":
            v = 0
        elif re.fullmatch(r"R\d+", s):
            v = regs[s]  # KeyError: an unknown register decides control flow: the caller must say it
        elif re.fullmatch(r"-?0x[0-9a-f]+|-?\d+", s):
            v = int(s, 0)
            if v >= 0x80000000:
                v -= 1 << 32
        else:
            raise ValueError("operand " + s)
        return -v if neg else v

    def _pred(self, s, preds):
        s = s.strip()
        neg = s.startswith("!")
        s = s.lstrip("!")
        v = True if s == "PT" else preds[s]
        return (not v) if neg else v

    def run(self, start, stop, regs, preds=None, limit=100000):
        """Issue from `start` until control reaches an address in `stop`. Returns instructions issued."""
        regs, preds = dict(regs), dict(preds or {})
        pc, n = start, 0
        stop = set(stop)
        while pc not in stop:
            ins = self.code[pc // WORD]
            n += 1
            if n > limit:
                raise RuntimeError("no stop reached from %#x" % start)
            guard = None
            m = re.match(r"@(!?P\d|!?PT)\s+(.*)", ins)
            if m:
                guard, ins = m.group(1), m.group(2)
            on = True if guard is None else self._pred(guard, preds)
            op, _, rest = ins.partition(" ")
            ops = [o.strip() for o in rest.split(",")] if rest else []
            nxt = pc + WORD
            if op == "BRA":
                if on:
                    nxt = int(ops[0], 16)
            elif not on:
                pass
            elif op.startswith("ISETP"):
                parts = op.split(".")
                cmp, comb = parts[1], parts[-1]
                a, b = self._val(ops[2], regs), self._val(ops[3], regs)
                r = {"GT": a > b, "GE": a >= b, "LT": a < b, "LE": a <= b, "NE": a != b, "EQ": a == b}[cmp]
                c = self._pred(ops[4], preds)
                r = {"AND": r and c, "OR": r or c, "XOR": r != c}[comb]
                if ops[0] != "PT":
                    preds[ops[0]] = r
            elif op == "PLOP3.LUT":  # only the constant forms the chains use
                if ops[5] == "0x80" or ops[5] == "0x8":
                    preds[ops[0]] = ops[5] == "0x80"
                else:
                    raise ValueError(ins)
            elif op in ("IADD3", "VIADD", "MOV", "IMAD.MOV.U32", "IMAD.IADD", "LDC"):
                d = ops[0]
                try:
                    if op == "IADD3":
                        regs[d] = sum(self._val(x, regs) for x in ops[1:4])
                    elif op == "VIADD":
                        regs[d] = self._val(ops[1], regs) + self._val(ops[2], regs)
                    elif op == "MOV":
                        regs[d] = self._val(ops[1], regs)
                    elif op == "IMAD.MOV.U32":
                        regs[d] = self._val(ops[3], regs)
                    elif op == "IMAD.IADD":
                        regs[d] = self._val(ops[1], regs) * self._val(ops[2], regs) + self._val(ops[3], regs)
                    elif op == "LDC":
                        off = re.search(r"c\[0x0\]\[(0x[0-9a-f]+)\]", ops[1]).group(1)
                        if off in self.params:
                            regs[d] = self.params[off]
                        else:
                            regs.pop(d, None)
                except (KeyError, ValueError):
                    regs.pop(d, None)  # a value the chains never branch on (e.g. a float constant)
            else:
                # anything else writes a register we do not track: forget it so that a later use
                # in a branch decision fails loudly instead of using a stale value
                if ops and re.fullmatch(r"R\d+", ops[0]):
                    regs.pop(ops[0], None)
            pc = nxt
        return n
