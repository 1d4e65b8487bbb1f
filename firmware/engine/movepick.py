"""The search levels' seeded xorshift, their pick among near-best moves,
their first two moves and a legal move when no candidate is left."""
from candscan import _g, const

_PRNG = const(9)            # candscan._g slot
_BIG = const(29000)         # candscan's: beyond it, a mate score


def seed(n):
    _g[_PRNG] = ((n & 0x3FFF) * 3 + 0x5A5) & 0xFFFF or 1
    _rand()


def _rand():
    x = _g[_PRNG]
    x ^= (x << 7) & 0xFFFF
    x ^= x >> 9
    x ^= (x << 8) & 0xFFFF
    _g[_PRNG] = x
    return x


seed(1)


def pick(R, V, n, best, margin):
    # a seeded choice among moves within `margin` of the best (none if mating)
    if not -_BIG < best < _BIG:
        margin = 0
    best -= margin
    c = 0
    k = 0
    while k < n:
        if V[k] >= best:
            c += 1
        k += 1
    c = _rand() % c
    k = 0
    while k < n:
        if V[k] >= best:
            if not c:
                return R[k]
            c -= 1
        k += 1


def first(g):
    # the first stone on the centre; the answer to it beside it, on a point
    # nearest the centre (a seeded choice among those). The search would
    # answer three points away, where its values cannot tell the points
    # apart: from one stone, ref_alphabeta then beat level 2's white in 38
    # games of 100, and in 9 with the stone beside it (docs/AI.md)
    if not g.moves:
        return 112
    p = g.hist[0]
    d = 15
    c = 0
    k = 0
    while k < 9:
        e = _round(p, k)
        if e < d:
            d = e
            c = 0
        if e == d:
            c += 1
        k += 1
    c = _rand() % c
    k = 0
    while 1:
        if _round(p, k) == d:
            if not c:
                return p + (k // 3 - 1) * 15 + k % 3 - 1
            c -= 1
        k += 1


def _round(p, k):
    # the k-th point of the 3x3 square round p (4 is p): its distance from
    # the centre, 15 off the board
    x = p % 15 + k % 3 - 1
    y = p // 15 + k // 3 - 1
    if k == 4 or x < 0 or x > 14 or y < 0 or y > 14:
        return 15
    return max(abs(x - 7), abs(y - 7))


def _any(g, me):
    # a free point `me` may play: one that blocks a five of the other side's
    # if there is one (lost to two, it still leaves the opponent one to find)
    why = g._why
    bd = g.board
    P = g.pat
    do = 2 - ((me - 1) << 1)
    q = -1
    p = 0
    while p < 225:
        if not (bd[p >> 2] >> ((p & 3) << 1)) & 3:
            i = (p << 2) + do
            e = P[i]
            f = P[i + 1]
            five = e & 15 == 10 or e >> 4 == 10 or f & 15 == 10 or f >> 4 == 10
            if (five or q < 0) and not (me == 1 and why and why(g, p)):
                if five:
                    return p
                q = p
        p += 1
    return q
