"""Candidate and threat scan over the shape tables, for the search levels.

gen(g, ply, me): the best `width` points for `me` to move (attack twice,
defence once) into _mv/_sc at slot `ply` (none at width 0), the status (five
to play, forced block, lost, win threat), the static eval and the count of
four-points, in _g.
"""
try:
    from micropython import const
except ImportError:                     # CPython: the tools and tests
    const = lambda x: x
# the other search modules take const from here: MicroPython's compiler
# folds `_NAME = const(n)` by the name alone, wherever const came from

_W = (0, 1, 6, 20, 30, 300, 320, 480, 4000, 4000, 30000)
# the searches' scores, declared in each module that reads them (a test
# checks they agree): a five's weight, won; beyond _BIG, a mate score
_WIN = const(30000)
_BIG = const(29000)
_MW = const(10)             # candidates a ply keeps at most
# sums of _W over a point's 4 lines: a four, two threes, a four and a three,
# a straight four; the eval's bound
_W_FOUR = const(480)
_W_DOUBLE = const(600)
_W_FOUR_THREE = const(780)
_W_STRAIGHT = const(4000)
_EVAL_MAX = const(20000)
_mv = bytearray(4 * _MW)
_sc = [0] * (4 * _MW)
# _g: the searches' shared counters and results. Each module that uses a
# slot declares it as a const() of its own (a test checks they agree), so
# on MicroPython the name costs nothing.
_g = [0] * 20
_NODES = const(0)           # scans this move (search), nodes (deepsearch)
_NODE_LIMIT = const(1)      # deepsearch: its limit of nodes
_VCF_NODES = const(2)       # vcf: moves tried, and the limit
_VCF_LIMIT = const(3)
_HASH = const(4)            # deepsearch: Zobrist hash of the position
_STOP = const(5)            # deepsearch: node limit reached
_STATUS = const(6)          # gen: one of _S_* below
_EVAL = const(7)            # gen: static eval for the side to move
_POINT = const(8)           # gen: the status's point; vcf._fives: a five point
_PRNG = const(9)            # movepick: xorshift state
_FOURS = const(10)          # gen: points where the side to move makes a four
_WIDTH = const(11)          # gen: candidates kept
_ATTACK = const(12)         # gen: best attack and defence values, defence's point
_DEFENCE = const(13)
_DEFENCE_POINT = const(14)
_VCT_NODES = const(15)      # vct: moves tried, and the limit
_VCT_LIMIT = const(16)
_REPLY_WIDTH = const(17)    # search: level 2's replies to each root move
_PLY3_WIDTH = const(18)     # search: level 2's third-ply width (0: none)
# gen's status
_S_QUIET = const(0)
_S_FIVE = const(1)          # a five to play, at _POINT
_S_BLOCK = const(2)         # one five of the other side's to block, at _POINT
_S_LOST = const(3)          # two to block
_S_THREAT = const(4)        # at _POINT: a straight four, or 780 up (a four-three,
                            # two fours, three threes) against no four


def gen(g, ply, me):
    # scan for `me` to move: top-width candidates at ply, status, eval
    P = g.pat
    W = _W
    why = g._why
    S = _sc
    M = _mv
    wd = _g[_WIDTH]
    base = ply * _MW
    last = base + wd - 1        # the slot of the last candidate kept
    # keep: the least attack a candidate has; at width 0 none is kept (an
    # attack of a five returns first). lo: the score to beat, the last
    # candidate's once wd are kept
    keep = 0 if wd else _WIN
    n = sa = sd = ma = md = nf = f4 = 0
    mp = f5 = dp = lo = -1
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
                # need not block it. Black's codes there (i, a nibble each)
                # forbid it only if they add up to 600 short of a five (two
                # threes or fours) or one is an overline, 1: after the xor
                # a 0 nibble, which the borrow test finds
                if me == 1:
                    k = a
                    i = v | w << 8
                else:
                    k = d
                    i = e | f << 8
                i ^= 0x1111
                if (_W_DOUBLE <= k < _WIN or (i - 0x1111) & ~i & 0x8888) and why(g, p):
                    if me == 1:
                        a = -1
                    else:
                        d = 0
            if a >= _W_FOUR:
                if a >= _WIN:
                    _g[_STATUS] = _S_FIVE
                    _g[_POINT] = p
                    return 0
                f4 += 1
            if d >= _WIN:
                nf += 1
                f5 = p
            if a > ma:
                ma = a
                mp = p
            if d > md:
                md = d
                dp = p
            sa += a
            sd += d
            if a >= keep:
                k = a + a + d
                if k > lo:
                    if n < wd:
                        j = base + n
                        n += 1
                    else:
                        j = last
                    while j > base and S[j - 1] < k:
                        S[j] = S[j - 1]
                        M[j] = M[j - 1]
                        j -= 1
                    S[j] = k
                    M[j] = p
                    if n == wd:
                        lo = S[last]
        ao += 4
        do += 4
    _g[_FOURS] = f4
    _g[_ATTACK] = ma
    _g[_DEFENCE] = md
    _g[_DEFENCE_POINT] = dp
    # eval for the side to move: its shape counts twice the opponent's
    # (weights arena-tuned)
    e = ((sa + ma) * 2 - sd - md) >> 1
    _g[_EVAL] = e if -_EVAL_MAX < e < _EVAL_MAX else (_EVAL_MAX if e > 0 else -_EVAL_MAX)
    _g[_STATUS] = _S_QUIET
    if nf:
        _g[_STATUS] = _S_LOST if nf > 1 else _S_BLOCK
        _g[_POINT] = f5
        if nf == 1 and not (why and me == 1 and why(g, f5)):
            M[base] = f5
            return 1
        return 0
    if ma >= _W_STRAIGHT or (ma >= _W_FOUR_THREE and md < _W_FOUR):
        _g[_STATUS] = _S_THREAT
        _g[_POINT] = mp
    return n
