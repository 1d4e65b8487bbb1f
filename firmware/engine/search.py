"""Search levels for ai.best_move; level 2 (the handheld's top) lives here.

Level 2: a win by continuous fours (vcf) if it has one, else the best
candidates from the shape tables (candscan: threats first), each answered by
the opponent's best few replies, each of those valued by a threat scan:
forced blocks (of fours, and of open threes when there is no four to answer
with) played out, double threes, else the eval.
When the side to move stands worse by the eval, the reply gets a few answers
of its own too: defence needs the third ply, and it costs least there. A
seeded xorshift picks among moves within a margin of the best. Fixed limits,
no clock; all buffers exist at import, a move allocates nothing. Level 3 is
deepsearch.
"""
import candscan as C
from candscan import _g, _WIN, _MW
from movepick import seed, pick, _any  # noqa: F401 (ai, deepsearch)
from vcf import vcf

_rv = [0] * _MW
_TT = 25000
# level 2: width, root VCF nodes, margin, reply width, third ply width,
# scans after which no third ply starts. The micro:bit's 10 s a move sets
# these (bench_mcu_ai); more width measured no stronger against the
# references, the third ply everywhere (twice the scans) no stronger than
# where behind. VCF at the leaves too (20 nodes a move) cost a third of the
# time and won no more games (docs/AI.md)
_L2 = (7, 10, 40, 7, 5, 150)


def _leaf(g, me, ply, cut=_WIN):
    # value for `me` to move: threats from the scan, forced blocks played
    # out, double threes; at ply 1 the best few replies each valued at
    # ply 2, there (if _g[18], until _g[1] scans) the best few answers at
    # ply 3, each loop stopping past `cut`; deeper an open three is blocked;
    # else the eval
    n = C.gen(g, ply if ply < 3 else 3, me)
    G = _g
    G[0] += 1
    st = G[6]
    if st == 1:
        return _WIN - ply - 1
    if st == 3 or (st == 2 and n == 0):
        return ply + 2 - _WIN
    if st == 4:
        return _WIN - ply - 3
    ev = G[7]
    p = G[8] if st == 2 else -1
    if st == 0:
        if G[12] >= 600 and G[13] < 480:
            # a double three against no four: won unless a VCF defends
            return _TT - ply
        if ply < 3 and n > 1 and (ply == 1 or G[18] and G[0] < G[1]):
            n = min(n, _L2[3] if ply == 1 else G[18])
            ev = -_WIN
            k = 0
            while k < n:
                p = C._mv[ply * _MW + k]
                g.play(p % 15, p // 15)
                v = -_leaf(g, 3 - me, ply + 1, -ev if ev > -_WIN else _WIN)
                g.undo()
                if v > ev:
                    ev = v
                    if v > cut:
                        break
                k += 1
            return ev
        if G[12] < 480 and G[13] >= 4000:
            # an open three and no four to answer it: block where it is strongest
            p = G[14]
            if me == 1 and g._why and g._why(g, p):
                p = -1
    if p >= 0 and ply < 12 and g.moves < 224:
        g.play(p % 15, p // 15)
        ev = -_leaf(g, 3 - me, ply + 1)
        g.undo()
    return ev


def best_move(g, level):
    if level > 2:
        try:
            import deepsearch
        except ImportError:                         # a board without level 3
            import refusal
            raise refusal.error(8, level)
        return deepsearch.best_move(g, level)
    if level != 2:
        raise ValueError("level %d is not a search level" % level)
    if g.winner:
        raise ValueError("game over")
    if g.moves == 0:
        return 112
    G = _g
    me = g.turn
    L = _L2
    G[2] = 0
    G[3] = L[1]
    G[11] = L[0]
    n = root(g, me)
    if n < 0:
        return G[8]
    t = L[4] if G[7] < 0 else 0
    V = _rv
    while 1:
        G[18] = t
        G[0] = 0
        G[1] = L[5]
        k = 0
        best = -_WIN
        while k < n:
            p = C._mv[k]
            g.play(p % 15, p // 15)
            v = -_leaf(g, 3 - me, 1, L[2] - best if best > -_WIN else _WIN)
            g.undo()
            V[k] = v
            if v > best:
                best = v
            k += 1
        if best > -29000 or not t:
            break
        # lost at three plies whatever it plays: choose by two, which holds
        # off what is nearest (an opponent may not find the deeper win)
        t = 0
    return pick(C._mv, V, n, best, L[2])


def root(g, me):
    """Root scan: n candidates in _mv, or -1 with the forced move in _g[8]."""
    G = _g
    n = C.gen(g, 0, me)
    st = G[6]
    if st == 1 or st == 3 or st == 4:
        return -1
    if n < 2:
        G[8] = C._mv[0] if n else _any(g, me)
        return -1
    if G[10]:
        r = vcf(g, me)
        if r >= 0:
            G[8] = r
            return -1
    return n
