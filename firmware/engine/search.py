"""Search levels for ai.best_move; level 2 (the handheld's top) lives here.

Level 2: the best candidates from the shape tables (threats first), each
played and answered by the opponent's threat scan and VCF; a seeded xorshift
picks among moves within a margin of the best. Fixed limits, no clock; all
buffers exist at import, a move allocates nothing. Levels 3+ are deepsearch.
"""
_W = (0, 1, 6, 20, 30, 300, 320, 480, 4000, 4000, 30000)
_E = (16, 12, 16, 8)
_WIN = 30000
_MW = 10
_mv = bytearray(2 * _MW)
_sc = [0] * (2 * _MW)
_rv = [0] * _MW
_g = [0] * 12
# _g: 0 nodes, 1 node limit, 2 vcf nodes, 3 vcf limit, 4 hash, 5 stop,
#     6 status, 7 eval, 8 status point, 9 prng, 10 fours, 11 width
# status: 0 quiet, 1 five to play, 2 one five to block, 3 two, 4 win threat


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


def _bad(s):
    return s & 1 or (600 <= s < 30000)


def _gen(g, ply, me):
    # scan for `me` to move: top-width candidates at ply, status, eval
    P = g.pat
    W = _W
    why = g._why
    S = _sc
    M = _mv
    wd = _g[11]
    base = ply * _MW
    ao = (me - 1) << 1
    do = 2 - ao
    n = sa = sd = ma = md = nf = f4 = 0
    mp = f5 = -1
    i = p = 0
    while p < 225:
        v = P[i + ao]
        w = P[i + ao + 1]
        e = P[i + do]
        f = P[i + do + 1]
        if v | w | e | f:
            a = W[v & 15] + W[v >> 4] + W[w & 15] + W[w >> 4]
            d = W[e & 15] + W[e >> 4] + W[f & 15] + W[f >> 4]
            if why and ((me == 1 and _bad(a)) or (me == 2 and _bad(d))) and why(g, p):
                if me == 1:
                    a = -1
                else:
                    d = 0
            if a >= 30000:
                _g[6] = 1
                _g[8] = p
                return 0
            if d >= 30000:
                nf += 1
                f5 = p
            if a > ma:
                ma = a
                mp = p
            if d > md:
                md = d
            if a >= 480:
                f4 += 1
            sa += a
            sd += d
            if a >= 0:
                k = a + a + d
                if n < wd or k > S[base + n - 1]:
                    j = n if n < wd else wd - 1
                    while j > 0 and S[base + j - 1] < k:
                        S[base + j] = S[base + j - 1]
                        M[base + j] = M[base + j - 1]
                        j -= 1
                    S[base + j] = k
                    M[base + j] = p
                    if n < wd:
                        n += 1
        p += 1
        i += 4
    _g[10] = f4
    E = _E
    e = (sa * E[0] - sd * E[1] + ma * E[2] - md * E[3]) >> 4
    _g[7] = e if -20000 < e < 20000 else (20000 if e > 0 else -20000)
    _g[6] = 0
    if nf:
        _g[6] = 3 if nf > 1 else 2
        _g[8] = f5
        if nf == 1 and not (why and me == 1 and why(g, f5)):
            M[base] = f5
            return 1
        return 0
    if ma >= 4000 or (ma >= 780 and md < 480):
        _g[6] = 4
        _g[8] = mp
    return n


def _fives(g, p, c):
    # empty points on p's lines where c now makes five: count; one in _g[8]
    P = g.pat
    o = (c - 1) << 1
    x0 = p % 15
    y0 = p // 15
    n = d = 0
    q = -1
    while d < 4:
        dx = (1, 0, 1, -1)[d]
        dy = (0, 1, 1, 1)[d]
        s = -4
        while s < 5:
            x = x0 + s * dx
            y = y0 + s * dy
            if s and 0 <= x < 15 and 0 <= y < 15:
                r = y * 15 + x
                if (P[(r << 2) + o + (d >> 1)] >> ((d & 1) << 2)) & 15 == 10 and r != q:
                    n += 1
                    q = r
            s += 1
        d += 1
    _g[8] = q
    return n


def _four(v):
    return 6 < (v & 15) < 10 or 6 < (v >> 4) < 10


def vcf(g, me, only=-1):
    """First move of a win by continuous fours for `me` (to move), or -1."""
    P = g.pat
    why = g._why
    ao = (me - 1) << 1
    p = 0 if only < 0 else only
    while p < 225:
        if _four(P[(p << 2) + ao]) or _four(P[(p << 2) + ao + 1]):
            if _g[2] >= _g[3]:
                return -1
            _g[2] += 1
            if not (me == 1 and why and why(g, p)):
                g.play(p % 15, p // 15)
                r = -1
                n = _fives(g, p, me)
                q = _g[8]
                if n > 1 or (n == 1 and me == 2 and why and why(g, q)):
                    r = p
                elif n == 1:
                    g.play(q % 15, q // 15)
                    if not g.winner:
                        m = _fives(g, q, 3 - me)
                        if m < 2 and vcf(g, me, _g[8] if m else -1) >= 0:
                            r = p
                    g.undo()
                g.undo()
                if r >= 0:
                    return r
        if only >= 0:
            return -1
        p += 1
    return -1


def _leaf(g, me, ply):
    # value for `me` to move: threats from the scan, forced blocks played
    # out, VCF, else the eval
    n = _gen(g, 1, me)
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
    G[2] = 0
    G[3] = 20
    G[11] = 7
    n = root(g, me)
    if n < 0:
        return G[8]
    G[3] = 40
    V = _rv
    k = 0
    best = -_WIN
    while k < n:
        p = _mv[k]
        g.play(p % 15, p // 15)
        v = -_leaf(g, 3 - me, 1)
        g.undo()
        V[k] = v
        if v > best:
            best = v
        k += 1
    return pick(_mv, V, n, best, 40)


def root(g, me):
    """Root scan: n candidates in _mv, or -1 with the forced move in _g[8]."""
    G = _g
    n = _gen(g, 0, me)
    st = G[6]
    if st == 1 or st == 3 or st == 4:
        return -1
    if n < 2:
        G[8] = _mv[0] if n else _any(g, me)
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
