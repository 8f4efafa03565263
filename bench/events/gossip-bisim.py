#!/usr/bin/env python3
"""Knowing-whether gossip (stories/gossip.story, every pair calling once: any call possible
at each step, as the story's event has it) as an explicit Kripke model, contracted by
bisimulation (partition refinement: same secrets, then the same set of blocks in each
agent's class, until stable) after each call. Prints the worlds before and after the
contraction at each call: docs/history/benchmarks-2026.md, "Gossip and prisoners at scale (issue 33)".
A prototype written from the definitions (no epipen code), to measure whether
contraction would shrink the explicit backend's states.

    python3 bench/events/gossip-bisim.py N [CALLS]
"""
import sys, itertools
n = int(sys.argv[1])
pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
calls = len(pairs) if len(sys.argv) < 3 else int(sys.argv[2])
# worlds: val[w] bitmask of secrets; cls[a][w] class id of agent a
val = list(range(1 << n))
cls = [[(v >> a) & 1 for v in val] for a in range(n)]

def knows(cls_a, m):
    # per class: all worlds have s_m true
    ok = {}
    for w, c in enumerate(cls_a):
        ok[c] = ok.get(c, True) and bool((val[w] >> m) & 1)
    return [ok[c] for c in cls_a]

def contract(val, cls):
    N = len(val)
    block = val[:]
    nb = len(set(block))
    while True:
        sigs = []
        per = []
        for a in range(n):
            d = {}
            for w in range(N):
                d.setdefault(cls[a][w], set()).add(block[w])
            per.append({c: frozenset(s) for c, s in d.items()})
        ids = {}
        newb = []
        for w in range(N):
            key = (block[w],) + tuple(per[a][cls[a][w]] for a in range(n))
            newb.append(ids.setdefault(key, len(ids)))
        if len(ids) == nb:
            block = newb
            break
        block, nb = newb, len(ids)
    # quotient
    rep = {}
    for w in range(N):
        rep.setdefault(block[w], w)
    order = sorted(rep)
    nval = [val[rep[b]] for b in order]
    ncls = []
    for a in range(n):
        d = {}
        for w in range(N):
            d.setdefault(cls[a][w], set()).add(block[w])
        cid = {}
        col = []
        for b in order:
            c = frozenset(d[cls[a][rep[b]]])
            col.append(cid.setdefault(c, len(cid)))
        ncls.append(col)
    return nval, ncls

for t in range(calls):
    K = [[knows(cls[a], m) for m in range(n)] for a in range(n)]
    nval, ncls = [], [[] for _ in range(n)]
    for w in range(len(val)):
        for (i, j) in pairs:
            nval.append(val[w])
            learned = tuple(K[i][m][w] or K[j][m][w] for m in range(n))
            for k in range(n):
                if k == i or k == j:
                    ncls[k].append((cls[k][w], (i, j), learned))
                else:
                    ncls[k].append((cls[k][w], None))
    # renumber class keys
    for k in range(n):
        ids = {}
        ncls[k] = [ids.setdefault(x, len(ids)) for x in ncls[k]]
    before = len(nval)
    val, cls = contract(nval, ncls)
    print(f"call {t + 1}: {before} worlds -> {len(val)} after contraction", flush=True)
