"""Victory by continuous threats: fours and open threes, for search level 3.

vct(g, me, depth, width): the first move of a forced win for `me` (to move)
made of fours and threes, or -1. Each three is answered by every defence
there is: a stone on a point where the three becomes a four, or a four of
the defender's own (the attacker blocks it and the three stands). VCF
(vcf) is tried before the threes wherever the attacker has a four and is
not confined to blocking the defender's. Its moves are counted in
candscan._g[_VCT_NODES] up to [_VCT_LIMIT]; buffers exist at import, a
call allocates nothing.
"""
import candscan as _c
from candscan import const
from vcf import vcf as _vcf, _fives

_VCF_NODES = const(2)       # candscan._g slots
_VCF_LIMIT = const(3)
_POINT = const(8)
_VCT_NODES = const(15)
_VCT_LIMIT = const(16)

_g = _c._g
_W = _c._W
_MP = const(24)     # nested plies (attacker and defender moves)
_TW = const(12)     # threat moves kept at an attacker node
_DW = const(24)     # defences kept at a defender node
_tm = bytearray(_MP * _TW)
_ts = [0] * (_MP * _TW)
_dm = bytearray(_MP * _DW)


def _code(P, p, o, d):
    return (P[(p << 2) + o + (d >> 1)] >> ((d & 1) << 2)) & 15


def vct(g, me, depth, width, only=-1, ply=0):
    """First move of a win by continuous fours and threes for `me`, or -1."""
    if ply >= _MP - 2 or g.moves >= 222:
        return -1
    P = g.pat
    W = _W
    why = g._why
    ao = (me - 1) << 1
    do = 2 - ao
    base = ply * _TW
    M = _tm
    S = _ts
    n = f4 = 0
    o5 = -1
    p = 0
    while p < 225:
        i = p << 2
        v = P[i + ao]
        w = P[i + ao + 1]
        e = P[i + do]
        f = P[i + do + 1]
        if v | w:
            if v & 15 == 10 or v >> 4 == 10 or w & 15 == 10 or w >> 4 == 10:
                return p
            if (4 < (v & 15) < 10 or 4 < (v >> 4) < 10 or 4 < (w & 15) < 10 or 4 < (w >> 4) < 10) \
                    and (only < 0 or p == only) and not (me == 1 and why and why(g, p)):
                if 6 < (v & 15) or 6 < (v >> 4) or 6 < (w & 15) or 6 < (w >> 4):
                    f4 += 1
                k = (W[v & 15] + W[v >> 4] + W[w & 15] + W[w >> 4]) * 2 + \
                    W[e & 15] + W[e >> 4] + W[f & 15] + W[f >> 4]
                if n < width or k > S[base + n - 1]:
                    j = n if n < width else width - 1
                    while j > 0 and S[base + j - 1] < k:
                        S[base + j] = S[base + j - 1]
                        M[base + j] = M[base + j - 1]
                        j -= 1
                    S[base + j] = k
                    M[base + j] = p
                    if n < width:
                        n += 1
        if e & 15 == 10 or e >> 4 == 10 or f & 15 == 10 or f >> 4 == 10:
            o5 = p if o5 < 0 else 255
        p += 1
    if o5 >= 0 and only < 0:
        # the defender's four: its one block must be a threat of our own
        return -1 if o5 == 255 else vct(g, me, depth, width, o5, ply)
    if f4 and only < 0:
        _g[_VCF_NODES] = 0
        r = _vcf(g, me)
        _g[_VCT_NODES] += _g[_VCF_NODES]
        if r >= 0:
            return r
    if depth <= 0:
        return -1
    k = 0
    while k < n:
        if _g[_VCT_NODES] >= _g[_VCT_LIMIT]:
            return -1
        _g[_VCT_NODES] += 1
        p = M[base + k]
        m = _threes(P, p, ao)
        g.play(p % 15, p // 15)
        r = 0
        f = _fives(g, p, me)
        q = _g[_POINT]
        if g.winner:
            f = m = 0               # drawn (renju: black left no point): no win
        if f > 1 or (f == 1 and me == 2 and why and why(g, q)):
            r = 1
        elif f == 1:
            g.play(q % 15, q // 15)
            t = _fives(g, q, 3 - me)
            if t < 2 and vct(g, me, depth - 1, width, _g[_POINT] if t else -1, ply + 1) >= 0:
                r = 1
            g.undo()
        elif m:
            r = _defend(g, me, depth, width, p, m, ply + 1)
        g.undo()
        if r:
            return p
        k += 1
    return -1


def _threes(P, p, o):
    # the lines (bit d) on which the colour at table offset o makes a three at p
    m = 0
    d = 0
    while d < 4:
        if 4 < _code(P, p, o, d) < 7:
            m |= 1 << d
        d += 1
    return m


def _fourpts(P, p, m, o, D, n, top):
    # the points within 5 of p, on its lines in mask m, where the colour at
    # table offset o makes a four: into D from index n (below top); the end
    x0 = p % 15
    y0 = p // 15
    d = 0
    while d < 4:
        if m >> d & 1:
            dx = 0 if d == 1 else -1 if d == 3 else 1
            dy = 0 if d == 0 else 1
            s = -5
            while s < 6:
                x = x0 + s * dx
                y = y0 + s * dy
                if s and 0 <= x < 15 and 0 <= y < 15 and n < top:
                    q = y * 15 + x
                    if 6 < _code(P, q, o, d) < 10:
                        D[n] = q
                        n += 1
                s += 1
        d += 1
    return n


def _defend(g, me, depth, width, p, m, ply):
    # defender to move against me's three(s) through p on the lines in mask m:
    # 1 if every block and every counter-four still loses
    if ply >= _MP - 2 or g.moves >= 222:
        return 0
    P = g.pat
    why = g._why
    you = 3 - me
    ao = (me - 1) << 1
    do = 2 - ao
    base = ply * _DW
    D = _dm
    n = _fourpts(P, p, m, ao, D, base, base + _DW) - base
    if n == 0:
        return 0        # the three has no four to make: not a threat
    q = 0
    while q < 225 and n < _DW:
        i = q << 2
        v = P[i + do]
        w = P[i + do + 1]
        if 6 < (v & 15) < 10 or 6 < (v >> 4) < 10 or 6 < (w & 15) < 10 or 6 < (w >> 4) < 10:
            D[base + n] = q
            n += 1
        q += 1
    k = 0
    while k < n:
        q = D[base + k]
        j = 0
        while j < k and D[base + j] != q:
            j += 1
        k += 1
        if j < k - 1 or (you == 1 and why and why(g, q)):
            continue
        if _g[_VCT_NODES] >= _g[_VCT_LIMIT]:
            return 0
        _g[_VCT_NODES] += 1
        g.play(q % 15, q // 15)
        t = _fives(g, q, you)
        b = _g[_POINT]
        r = 0
        if t == 1 and not (me == 1 and why and why(g, b)):
            g.play(b % 15, b // 15)
            if not g.winner:
                r = _defend(g, me, depth, width, p, m, ply + 1)
            g.undo()
        elif t == 0:
            r = vct(g, me, depth - 1, width, -1, ply + 1) >= 0
        g.undo()
        if not r:
            return 0
    return 1


def search(g, me, depth, width, nodes, vnodes):
    """vct by iterative deepening (1..depth threats) within `nodes` moves
    (VCF moves counted), at most `vnodes` VCF moves at an attacker node; the
    search's VCF counters are kept."""
    G = _g
    a = G[_VCF_NODES]
    b = G[_VCF_LIMIT]
    G[_VCF_NODES] = 0
    G[_VCF_LIMIT] = vnodes
    G[_VCT_NODES] = 0
    G[_VCT_LIMIT] = nodes
    r = -1
    d = 1
    while d <= depth and r < 0 and G[_VCT_NODES] < nodes:
        r = vct(g, me, d, width)
        d += 1
    G[_VCF_NODES] = a
    G[_VCF_LIMIT] = b
    return r


def answers(g, me, p, out):
    """Points that answer `me`'s threat move p (me not to move): p, its five
    point if it is a four, else the points that turn its three(s) into fours.
    Written to out from 0; returns the count."""
    P = g.pat
    o = (me - 1) << 1
    m = _threes(P, p, o)
    out[0] = p
    t = g.turn
    g.turn = me
    g.play(p % 15, p // 15)
    if _fives(g, p, me):
        out[1] = _g[_POINT]
        n = 2
    else:
        n = _fourpts(P, p, m, o, out, 1, len(out))
    g.undo()
    g.turn = t
    return n
