#!/usr/bin/python3
"""Overhead-aware model for the converge family (issue 16), prototype.

  python3 model.py [results.json] [sass.txt]      (defaults: the H100 recordings in /work/main)

For each recorded row: regenerate the branch matrix exactly as core/families/converge.cpp does
(seed = the row's first input seed, the one the harness gives the model), replay each strategy's
control flow per wavefront like reference/converge.cpp's count_steps, and count per SIMD step the
SASS instructions the wavefront issues (sass.py gives the counts of each code region). Prints the
per-row table and the accuracy; writes rows.json next to this file.
"""
import json
import math
import os
import sys

import numpy as np

import sass as S

HERE = os.path.dirname(os.path.abspath(__file__))
M64 = np.uint64(0xFFFFFFFFFFFFFFFF)


# ---- the family's inputs (core/random.h, core/families/converge.cpp) ---------------------------
def mix64(x):
    x = np.asarray(x, dtype=np.uint64)
    with np.errstate(over="ignore"):
        x = x + np.uint64(0x9E3779B97F4A7C15)
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def unit(x):
    return (mix64(x) >> np.uint64(11)).astype(np.float64) * 2.0**-53


def generate(lanes, iterations, pattern, prob, seed):
    """Branch directions, bool [lanes, iterations] (True: path T)."""
    base = mix64(np.uint64(seed))
    lane = np.arange(lanes, dtype=np.uint64)
    ls = mix64(base ^ (lane << np.uint64(20)))
    rows = np.zeros((lanes, iterations), dtype=bool)
    if pattern in ("random", "biased"):
        if pattern == "random":
            q = np.full(lanes, prob)
        else:
            q = np.where((ls & np.uint64(1)) != 0, prob, 1 - prob)
        with np.errstate(over="ignore"):
            for i in range(iterations):
                rows[:, i] = unit(ls + np.uint64(1 + i)) < q
    elif pattern == "alternating":
        ph = (ls & np.uint64(1)).astype(np.int64)
        i = np.arange(iterations)
        rows[:] = ((i[None, :] + ph[:, None]) & 1) == 0
    elif pattern == "advanceable":
        pairs = min(iterations // 2, int(math.floor(prob * iterations + 0.5)))  # lround, prob >= 0
        size = iterations - pairs
        tokens = np.zeros((lanes, size), dtype=np.uint8)
        tokens[:, iterations - 2 * pairs:] = 1
        ar = np.arange(lanes)
        with np.errstate(over="ignore"):
            for k in range(size, 1, -1):
                j = (mix64(ls + np.uint64(k)) % np.uint64(k)).astype(np.int64)
                a = tokens[:, k - 1].copy()
                tokens[:, k - 1] = tokens[ar, j]
                tokens[ar, j] = a
            v = (ls & np.uint64(2)) != 0
            pos = np.zeros(lanes, dtype=np.int64)
            for k in range(size):
                tk = tokens[:, k] == 1
                rows[ar, np.minimum(pos, iterations - 1)] = v
                p2 = np.minimum(pos + 1, iterations - 1)
                rows[ar[tk], p2[tk]] = ~v[tk]
                nv = (mix64(ls ^ (np.uint64(k) << np.uint64(32))) & np.uint64(1)) != 0
                v = np.where(tk, nv, v)
                pos = pos + np.where(tk, 2, 1)
    else:
        raise ValueError(pattern)
    return rows


# ---- per-step instruction counts from the SASS ----------------------------------------------------
class Counts:
    """Instructions a wavefront issues in each part of one loop trip (one SIMD step) of each kernel,
    for given branch_len L and nonbranch_len N. Every number is read off the SASS by sass.py: the
    fixed parts as address ranges of straight-line code, the FMA chains by following their
    control flow for this L or N."""

    def __init__(self, sass_path, L, N, relief):
        k = S.load(sass_path)
        self.k = k
        P = {"0x228": L, "0x22c": N}
        c = {}
        # baseline: head 0x6f0-0x8d0 (hash of start(), word load predicated @P0: always issued),
        # divergent if/else: T 0x8e0.., F 0xce0.., reconverge at BSYNC 0x10a0; finish + loop test.
        b = k["baseline"]
        I = S.Interp(b, P)
        ch = {"R13": L - 1, "R12": L - (L & 3), "R11": L & 3}
        c["baseline"] = dict(
            head=S.count_range(b, 0x6F0, 0x8E0),
            T=I.run(0x8E0, [0x10A0], ch),
            F=I.run(0xCE0, [0x10A0], ch),
            tail=I.run(0x10A0, [0x14A0], {"R18": N - 1, "R10": N - (N & 3), "R8": N & 3})
            + S.count_range(b, 0x14A0, 0x14F0),
        )
        # postpone_majority: head 0x1d0-0x5f0 = pending test, word load (0x280-0x320, only when a
        # lane needs a new word), two ballots + popc, the relief modulo (0x410-0x5b0, when relief > 0);
        # body 0x600-0x710 (start()); one chain, uniform (T 0x720, F 0xb50); finish 0xf40; loop test.
        m = k["postpone_majority"]
        I = S.Interp(m, P)
        ch = {"R19": L - 1, "R7": L - (L & 3), "R9": L & 3}
        c["postpone_majority"] = dict(
            head=S.count_range(m, 0x1D0, 0x600) - (0 if relief > 0 else S.count_range(m, 0x410, 0x5C0)),
            load=S.count_range(m, 0x280, 0x330),
            body=S.count_range(m, 0x600, 0x720),
            T=I.run(0x720, [0xF40], ch),
            F=I.run(0xB50, [0xF40], ch),
            fin=I.run(0xF40, [0x1320], {"R6": N - (N & 3), "R8": N & 3}, {"P1": N - 1 >= 3})
            + S.count_range(m, 0x1320, 0x1350),
            tail=S.count_range(m, 0x1350, 0x13B0),
        )
        # postpone_roundrobin: head 0x1c0-0x3f0 (pending, load 0x270-0x310, two votes); body
        # 0x400-0x4f0; chain T 0x500 / F 0x930; finish 0xd20; loop test 0x1130-0x1190.
        r = k["postpone_roundrobin"]
        I = S.Interp(r, P)
        ch = {"R17": L - 1, "R4": L - (L & 3), "R5": L & 3}
        c["postpone_roundrobin"] = dict(
            head=S.count_range(r, 0x1C0, 0x400),
            load=S.count_range(r, 0x270, 0x320),
            body=S.count_range(r, 0x400, 0x500),
            T=I.run(0x500, [0xD20], ch),
            F=I.run(0x930, [0xD20], ch),
            fin=I.run(0xD20, [0x1100], {"R2": N - (N & 3), "R6": N & 3}, {"P1": N - 1 >= 3})
            + S.count_range(r, 0x1100, 0x1130),
            tail=S.count_range(r, 0x1130, 0x11A0),
        )
        # advance: head 0x190-0x5e0 (taken(i) with predicated load, taken(i+1) block 0x360-0x480
        # when some lane has i+1 < iterations, its word load 0x3b0-0x450 when some lane crosses a
        # word, mode selection); T slot 0x5f0: test 4, body 0x630-0x730, T chain 0x740, finish
        # 0xb00, 2; F slot 0xf10: test 4, body 0xf50-0x1050, F chain 0x1060, finish 0x1420, 2;
        # loop test 0x1830-0x1860.
        a = k["advance"]
        I = S.Interp(a, P)
        ch = {"R17": L - 1, "R11": L - (L & 3), "R13": L & 3}
        nb = {"R16": N - 1, "R10": N - (N & 3), "R12": N & 3}
        c["advance"] = dict(
            head=S.count_range(a, 0x190, 0x5F0),
            next_block=S.count_range(a, 0x360, 0x490),
            next_load=S.count_range(a, 0x3B0, 0x460),
            slot_test=S.count_range(a, 0x5F0, 0x630),
            T=S.count_range(a, 0x630, 0x740) + I.run(0x740, [0xB00], ch) + I.run(0xB00, [0xEF0], nb)
            + S.count_range(a, 0xEF0, 0xF10),
            F=S.count_range(a, 0xF50, 0x1060) + I.run(0x1060, [0x1420], ch) + I.run(0x1420, [0x1810], nb)
            + S.count_range(a, 0x1810, 0x1830),
            skip=1,  # BSYNC alone when no lane runs the slot
            tail=S.count_range(a, 0x1830, 0x1870),
        )
        self.c = c


# ---- replay of each strategy, all wavefronts at once ---------------------------------------------
def replay(rows, width, variant, relief, C=None):
    """Returns (simd_steps dict like count_steps, instructions issued summed over wavefronts)."""
    lanes, iters = rows.shape
    W = (lanes + width - 1) // width
    pad = W * width - lanes
    B = np.concatenate([rows, np.zeros((pad, iters), bool)]).reshape(W, width, iters)
    valid = np.concatenate([np.ones(lanes, bool), np.zeros(pad, bool)]).reshape(W, width)
    branch = nonbranch = loop = 0
    instr = 0.0
    c = C.c[variant] if C else None
    wi = np.arange(W)[:, None]
    li = np.arange(width)[None, :]
    if variant == "baseline":
        for i in range(iters):
            t = (B[:, :, i] & valid).any(1)
            f = (~B[:, :, i] & valid).any(1)
            branch += int(t.sum() + f.sum())
            nonbranch += W
            loop += W
            if c:
                instr += W * (c["head"] + c["tail"]) + c["T"] * t.sum() + c["F"] * f.sum()
        return dict(branch=branch, nonbranch=nonbranch, loop=loop), instr
    nxt = np.where(valid, 0, iters).astype(np.int64)
    word = np.full((W, width), -1, np.int64)  # the word each lane's `directions` holds
    want_t = np.zeros(W, bool)
    step = 0
    while True:
        step += 1
        pending = nxt < iters
        act = pending.any(1)
        na = int(act.sum())
        if na == 0:
            break
        loop += na
        cur = np.minimum(nxt, iters - 1)
        tt = B[wi, li, cur] & pending
        ff = pending & ~tt
        # the word load: a pending lane whose iteration is in a word it has not loaded
        need = pending & (cur // 32 != word)
        load = need.any(1)
        word = np.where(pending, cur // 32, word)
        if variant == "advance":
            has1 = pending & (nxt + 1 < iters)
            n1 = np.minimum(nxt + 1, iters - 1)
            t1 = B[wi, li, n1]
            pair = has1 & (t1 != tt)
            do_t = np.where(pair, True, tt) & pending
            do_f = np.where(pair, True, ff) & pending
            # taken(i + 1) loads a new word when i + 1 crosses one
            need1 = has1 & (n1 // 32 != word)
            word = np.where(has1, np.maximum(word, n1 // 32), word)
            nxt = nxt + np.where(pending, np.where(pair, 2, 1), 0)
            dt, df = do_t.any(1), do_f.any(1)
            branch += int(dt.sum() + df.sum())
            nonbranch += int(dt.sum() + df.sum())
            if c:
                instr += (
                    na * (c["head"] + 2 * c["slot_test"] + c["tail"])
                    - c["next_block"] * int((act & ~has1.any(1)).sum())
                    - c["next_load"] * int((has1.any(1) & ~need1.any(1)).sum())
                    + c["T"] * int(dt.sum()) + c["skip"] * int((act & ~dt).sum())
                    + c["F"] * int(df.sum()) + c["skip"] * int((act & ~df).sum())
                )
            continue
        nt, nf = tt.sum(1), ff.sum(1)
        if variant == "postpone_majority":
            run_t = nt >= nf
            if relief > 0 and step % relief == 0:
                run_t = np.where(np.where(run_t, nf, nt) > 0, ~run_t, run_t)
        else:
            want_t = np.where(np.where(want_t, nt, nf) == 0, ~want_t, want_t)
            run_t = want_t.copy()
            want_t = ~want_t
        go = np.where(run_t[:, None], tt, ff) & act[:, None]
        nxt = nxt + go
        branch += na
        nonbranch += na
        if c:
            ca = act
            instr += (
                na * (c["head"] + c["body"] + c["fin"] + c["tail"])
                - c["load"] * int((ca & ~load).sum())
                + c["T"] * int((ca & run_t).sum()) + c["F"] * int((ca & ~run_t).sum())
            )
    return dict(branch=branch, nonbranch=nonbranch, loop=loop), instr


def main():
    res = sys.argv[1] if len(sys.argv) > 1 else "/work/main/results/h100/converge.json"
    sass_path = sys.argv[2] if len(sys.argv) > 2 else "/work/main/results/h100/converge-sass.txt"
    d = json.load(open(res))
    width = int(d["device"]["warp_size"])
    groups = {}
    for r in d["results"]:
        if r.get("family") != "converge" or r.get("status") != "verified":
            continue
        p = r["params"]
        key = tuple(sorted((k, v) for k, v in p.items() if k != "relief"))
        groups.setdefault(key, []).append(r)
    out = []
    for key, rs in groups.items():
        p = dict(key)
        seed = rs[0]["seeds"][0]
        rows = generate(p["lanes"], p["iterations"], p["pattern"], p["p"], seed)
        L, N = p["branch_len"], p["nonbranch_len"]
        per = {}
        for r in rs:
            v = r["variant"]
            relief = int(r["params"].get("relief", 0))
            C = Counts(sass_path, L, N, relief if v == "postpone_majority" else 8)
            st, ins = replay(rows, width, v, relief, C)
            per[v] = (st, ins, r)
        bst, bins, _ = per["baseline"]
        bsimd = bst["branch"] * L + bst["nonbranch"] * N
        for v, (st, ins, r) in per.items():
            simd = st["branch"] * L + st["nonbranch"] * N
            out.append(dict(
                pattern=p["pattern"], p=p["p"], branch_len=L, nonbranch_len=N, variant=v,
                relief=r["params"].get("relief"), time_ms=r["time_ms"], measured=r["speedup_vs_baseline"],
                recorded_simd=r["model_speedup"], simd=bsimd / simd, instr_base=bins, instr=ins,
            ))
        print(key, {v: round(o["instr"] / 1e6, 3) for v, o in ((o["variant"], o) for o in out[-len(per):])},
              file=sys.stderr)
    json.dump(out, open(os.path.join(HERE, "rows.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
