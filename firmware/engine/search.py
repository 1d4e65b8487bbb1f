"""Search levels for ai.best_move; level 2 (the handheld's top) lives here.

Level 2: the best candidates from the shape tables (candscan: threats first),
each played and answered by the opponent's threat scan, forced blocks played
out, and VCF (vcf); a seeded xorshift picks among moves within a margin of
the best. Fixed limits, no clock; all buffers exist at import, a move
allocates nothing. Levels 3+ are deepsearch.
"""
import candscan as C
from candscan import _g, _WIN, _MW
from vcf import vcf

_rv = [0] * _MW
# level 2: width, root VCF nodes, all VCF nodes, margin
_L2 = (7, 20, 40, 40)


def seed(n):
    _g[9] = ((n & 0x3FFF) * 3 + 0x5A5) & 0xFFFF or 1
    _rand()


def _rand():
    x = _g[9]
    x ^= (x << 7) & 0xFFFF
    x ^= x >> 9
    x ^= (x << 8) & 0xFFFF
    _g[9] = x
    return x


seed(1)


def _leaf(g, me, ply):
    # value for `me` to move: threats from the scan, forced blocks played
    # out, VCF, else the eval
    n = C.gen(g, 1, me)
    st = _g[6]
    if st == 1:
        return _WIN - ply - 1
    if st == 3 or (st == 2 and n == 0):
        return ply + 2 - _WIN
    if st == 4:
        return _WIN - ply - 3
    ev = _g[7]
    if st == 2 and ply < 12 and g.moves < 224:
        p = _g[8]
        g.play(p % 15, p // 15)
        ev = -_leaf(g, 3 - me, ply + 1)
        g.undo()
        return ev
    if st == 0 and _g[10] and _g[2] < _g[3] and vcf(g, me) >= 0:
        return _WIN - ply - 5
    return ev


def best_move(g, level):
    if level > 2:
        import deepsearch
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
    G[3] = L[2]
    V = _rv
    k = 0
    best = -_WIN
    while k < n:
        p = C._mv[k]
        g.play(p % 15, p // 15)
        v = -_leaf(g, 3 - me, 1)
        g.undo()
        V[k] = v
        if v > best:
            best = v
        k += 1
    return pick(C._mv, V, n, best, L[3])


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


def pick(R, V, n, best, margin):
    # a seeded choice among moves within `margin` of the best (none if mating)
    c = 0
    k = 0
    while k < n:
        if V[k] >= best - (margin if -29000 < best < 29000 else 0):
            c += 1
        k += 1
    c = _rand() % c
    k = 0
    while k < n:
        if V[k] >= best - (margin if -29000 < best < 29000 else 0):
            if not c:
                return R[k]
            c -= 1
        k += 1


def _any(g, me):
    why = g._why
    bd = g.board
    p = 0
    while p < 225:
        if not (bd[p >> 2] >> ((p & 3) << 1)) & 3 and not (me == 1 and why and why(g, p)):
            return p
        p += 1
    return -1
