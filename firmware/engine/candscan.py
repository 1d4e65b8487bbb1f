"""Candidate and threat scan over the shape tables, for the search levels.

gen(g, ply, me): the best `width` points for `me` to move (attack twice,
defence once) into _mv/_sc at slot `ply`, the status (five to play, forced
block, lost, win threat), the static eval and the count of four-points, in _g.
"""
_W = (0, 1, 6, 20, 30, 300, 320, 480, 4000, 4000, 30000)
_WIN = 30000
_MW = 10
_mv = bytearray(4 * _MW)
_sc = [0] * (4 * _MW)
_g = [0] * 20
# _g: 0 nodes, 1 node limit, 2 vcf nodes, 3 vcf limit, 4 hash, 5 stop,
#     6 status, 7 eval, 8 status point, 9 prng, 10 fours, 11 width,
#     12 best attack shape, 13 best defence shape, 14 its point,
#     15 vct nodes, 16 vct limit, 17 threes (points making a three or four),
#     18 level 2's third-ply width (0: none)
# status: 0 quiet, 1 five to play, 2 one five to block, 3 two, 4 win threat


def gen(g, ply, me):
    # scan for `me` to move: top-width candidates at ply, status, eval
    P = g.pat
    W = _W
    why = g._why
    S = _sc
    M = _mv
    wd = _g[11]
    base = ply * _MW
    n = sa = sd = ma = md = nf = f4 = 0
    mp = f5 = dp = -1
    # a point's codes: P[ao], P[ao + 1] for me, P[do], P[do + 1] for the other
    ao = (me - 1) << 1
    do = 2 - ao
    while ao < 900:
        v = P[ao]
        w = P[ao + 1]
        e = P[do]
        f = P[do + 1]
        if v | w | e | f:
            p = ao >> 2
            a = d = 0
            if v:
                a = W[v & 15] + W[v >> 4]
            if w:
                a += W[w & 15] + W[w >> 4]
            if e:
                d = W[e & 15] + W[e >> 4]
            if f:
                d += W[f & 15] + W[f >> 4]
            if why:
                # a point forbidden to black: black cannot take it, white
                # need not block it
                k = a if me == 1 else d
                if (k & 1 or 600 <= k < 30000) and why(g, p):
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
                dp = p
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
        ao += 4
        do += 4
    _g[10] = f4
    _g[12] = ma
    _g[13] = md
    _g[14] = dp
    # eval for the side to move: its shape counts twice the opponent's
    # (weights arena-tuned)
    e = ((sa + ma) * 2 - sd - md) >> 1
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
