"""Search level 3, the PC's (device builds leave it out): PVS alpha-beta with
iterative deepening.

On candscan's table scan (candidates, threats, eval): a VCT (vct) for the
root's own win; if the opponent, given a free move, has one, the root keeps
only moves after which it has none; forced blocks extended, VCF at the last
two plies (its moves counted as nodes), TT move / killer / history ordering,
a transposition table of 8-byte entries keyed by 30-bit Zobrist hashes in
one bytearray sized by the level, depth-aware mate scores. prepare(level)
allocates; a move allocates nothing. Fixed limits per level, no clock.
"""
import candscan as _c
from candscan import const
import search as _s
from vcf import vcf as _vcf
import vct as _v

# depth, width, nodes, vcf nodes (a call), tt bytes, margin,
# vct: threats deep, width, nodes for a win, nodes for each defence check
# (depth 4 at 6000 nodes won only 67% against level 2, 36% as white; a 64 KB
# table won no more than 16 KB, nor did depth 6 at 20000 nodes: docs/AI.md)
_LV = ((5, 8, 10000, 20, 16384, 30, 4, 8, 300, 100),)
_WIN = const(30000)         # a five's weight in candscan._W: won
_BIG = const(29000)         # beyond: a mate score
_MP = const(16)             # plies deep at most
# candscan's, as test_engine_consts checks
_MW = const(10)
_NODES = const(0)
_NODE_LIMIT = const(1)
_VCF_NODES = const(2)
_VCF_LIMIT = const(3)
_HASH = const(4)
_STOP = const(5)
_STATUS = const(6)
_EVAL = const(7)
_POINT = const(8)
_FOURS = const(10)
_WIDTH = const(11)
_S_QUIET = const(0)
_S_FIVE = const(1)
_S_BLOCK = const(2)
_S_LOST = const(3)
_S_THREAT = const(4)

_c._mv = bytearray(_MP * _MW)
_c._sc = [0] * (_MP * _MW)
_mv = _c._mv
_sc = _c._sc
_kl = bytearray(_MP)        # each ply's killer move (255: none)
_hs = bytearray(225)        # history: each point's cut-offs, by depth
_rv = [0] * _MW             # the root moves' values, last whole iteration
_tv = [0] * _MW             # their values in the iteration under way
_rm = bytearray(_MW)        # the root moves, best first after an iteration
_g = _c._g
_tt = bytearray(8)          # the TT, sized by prepare()
_lv = [0, 1]                # the TT's level; search generation (older: empty)
_ans = bytearray(12)        # _guard: vct.answers' points
_bad = bytearray(_MW)       # _guard: 1 where the opponent keeps its VCT


def levels():
    return tuple(range(3, 3 + len(_LV)))


def prepare(level):
    global _tt
    if not 3 <= level < 3 + len(_LV):
        import refusal
        raise refusal.error(8, level)               # no such level
    if _lv[0] != level:
        _tt = bytearray(0)   # free the old table before the new one
        _tt = bytearray(_LV[level - 3][4])
        _lv[0] = level


def _zk(p, c):
    # 30-bit Zobrist key of colour c on point p, in small-int arithmetic
    h = p * 2 + c
    a = (h * 1103 + 12345) & 0x7FFF
    a ^= a >> 5
    a = (a * 3119 + h) & 0x7FFF
    b = (a * 2371 + 7) & 0x7FFF
    b ^= b >> 7
    b = (b * 1657 + h) & 0x7FFF
    a ^= b >> 3
    return (a << 15) | b


def hash_of(g):
    h = 0
    bd = g.board
    p = 0
    while p < 225:
        c = (bd[p >> 2] >> ((p & 3) << 1)) & 3
        if c:
            h ^= _zk(p, c)
        p += 1
    return h


def _ttget(h):
    T = _tt
    j = (h % (len(T) >> 3)) << 3
    if T[j + 4] >> 2 == _lv[1] and T[j] | T[j + 1] << 8 | T[j + 2] << 16 == h >> 8:
        return j
    return -1


def _ttput(h, depth, flag, v, m):
    T = _tt
    j = (h % (len(T) >> 3)) << 3
    k = h >> 8
    if T[j + 4] >> 2 == _lv[1] and T[j + 3] > depth and T[j] | T[j + 1] << 8 | T[j + 2] << 16 == k:
        return
    T[j] = k & 255
    T[j + 1] = (k >> 8) & 255
    T[j + 2] = k >> 16
    T[j + 3] = depth
    T[j + 4] = flag | _lv[1] << 2
    v += 32768
    T[j + 5] = v & 255
    T[j + 6] = v >> 8
    T[j + 7] = m


def _order(M, S, base, n, tm, kl, bonus):
    # TT move first, then the killer, then scan score + history
    H = _hs
    k = 0
    while bonus and k < n:
        p = M[base + k]
        if p == tm:
            S[base + k] = 1 << 29
        elif p == kl:
            S[base + k] = 1 << 28
        else:
            S[base + k] += H[p] << 4
        k += 1
    i = 1
    while i < n:
        v = S[base + i]
        m = M[base + i]
        j = i
        while j > 0 and S[base + j - 1] < v:
            S[base + j] = S[base + j - 1]
            M[base + j] = M[base + j - 1]
            j -= 1
        S[base + j] = v
        M[base + j] = m
        i += 1


def _ab(g, me, depth, alpha, beta, ply):
    G = _g
    if G[_NODES] >= G[_NODE_LIMIT]:
        G[_STOP] = 1
        return 0
    G[_NODES] += 1
    if g.winner:
        return 0                    # drawn (renju: black left no point)
    h = G[_HASH]
    tm = 255
    j = _ttget(h)
    if j >= 0:
        T = _tt
        tm = T[j + 7]
        if T[j + 3] >= depth:
            v = T[j + 5] + (T[j + 6] << 8) - 32768
            if v > _BIG:
                v -= ply
            elif v < -_BIG:
                v += ply
            f = T[j + 4] & 3
            if f == 1 or (f == 2 and v >= beta) or (f == 3 and v <= alpha):
                return v
    n = _c.gen(g, ply, me)
    st = G[_STATUS]
    if st == _S_FIVE:
        return _WIN - ply - 1
    if st == _S_LOST or (st == _S_BLOCK and n == 0):
        return ply + 2 - _WIN
    if st == _S_THREAT:
        return _WIN - ply - 3
    if n == 0 or g.moves >= 224:
        return 0
    ev = G[_EVAL]
    if st == _S_QUIET and G[_FOURS] and depth <= 1 and ply < _MP - 4:
        G[_VCF_NODES] = 0
        r = _vcf(g, me)
        G[_NODES] += G[_VCF_NODES]
        if r >= 0:
            return _WIN - ply - 5
    if (depth <= 0 and st != _S_BLOCK) or ply >= _MP - 1:
        return ev
    d1 = depth if st == _S_BLOCK else depth - 1
    M = _mv
    base = ply * _MW
    _order(M, _sc, base, n, tm, _kl[ply], 1)
    a0 = alpha
    best = -_WIN
    bm = M[base]
    k = 0
    while k < n:
        p = M[base + k]
        g.play(p % 15, p // 15)
        G[_HASH] = h ^ _zk(p, me)
        if k == 0:
            v = -_ab(g, 3 - me, d1, -beta, -alpha, ply + 1)
        else:
            v = -_ab(g, 3 - me, d1, -alpha - 1, -alpha, ply + 1)
            if alpha < v < beta and not G[_STOP]:
                v = -_ab(g, 3 - me, d1, -beta, -alpha, ply + 1)
        G[_HASH] = h
        g.undo()
        if G[_STOP]:
            return 0
        if v > best:
            best = v
            bm = p
            if v > alpha:
                alpha = v
                if v >= beta:
                    _kl[ply] = p
                    if _hs[p] < 240:
                        _hs[p] += 1 + d1
                    break
        k += 1
    s = best
    if s > _BIG:
        s += ply
    elif s < -_BIG:
        s -= ply
    _ttput(h, depth, 2 if best >= beta else (1 if best > a0 else 3), s, bm)
    return best


def _guard(g, me, n, L):
    # if the opponent, given a free move, has a VCT: its first move and
    # answers join the candidates (_MW at most: past it each one more takes
    # the last slot), and those after which it still has one are dropped
    # (all kept if none is left)
    g.turn = 3 - me
    t = _v.search(g, 3 - me, L[6], L[7], L[9], L[3])
    g.turn = me
    if t < 0:
        return n
    M = _mv
    A = _ans
    c = _v.answers(g, 3 - me, t, A)
    why = g._why
    j = 0
    while j < c:
        p = A[j]
        k = 0
        while k < n and M[k] != p:
            k += 1
        if k == n and not (me == 1 and why and why(g, p)):
            if n < _MW:
                n += 1
            M[n - 1] = p
        j += 1
    B = _bad
    k = 0
    c = 0
    while k < n:
        p = M[k]
        g.play(p % 15, p // 15)
        B[k] = _v.search(g, 3 - me, L[6], L[7], L[9], L[3]) >= 0
        g.undo()
        c += B[k]
        k += 1
    if c == n:
        return n
    j = 0
    k = 0
    while k < n:
        if not B[k]:
            M[j] = M[k]
            j += 1
        k += 1
    return j


def best_move(g, level):
    if g.winner:
        import refusal
        raise refusal.error(2)                      # game over
    prepare(level)
    _lv[1] = _lv[1] % 63 + 1
    if _lv[1] == 1:
        j = len(_tt)
        while j:
            j -= 1
            _tt[j] = 0
    L = _LV[level - 3]
    dep = L[0]
    nodes = L[2]
    vn = L[3]
    margin = L[5]
    if g.moves < 2:
        return _s.first(g)
    G = _g
    me = g.turn
    h = hash_of(g)
    G[_NODES] = 0
    G[_NODE_LIMIT] = nodes
    G[_VCF_NODES] = 0
    G[_VCF_LIMIT] = vn * 4
    G[_HASH] = h
    G[_STOP] = 0
    G[_WIDTH] = L[1]
    p = 0
    while p < 225:
        _hs[p] = 0
        p += 1
    p = 0
    while p < _MP:
        _kl[p] = 255
        p += 1
    n = _s.root(g, me)
    if n < 0:
        return G[_POINT]
    p = _v.search(g, me, L[6], L[7], L[8], vn)
    if p >= 0:
        return p
    n = _guard(g, me, n, L)
    G[_VCF_LIMIT] = vn
    R = _rm
    V = _rv
    U = _tv
    k = 0
    while k < n:
        R[k] = _mv[k]
        V[k] = 0
        k += 1
    done = 0
    d = 1
    while d <= dep and not G[_STOP]:
        best = -_WIN - 1
        k = 0
        while k < n:
            p = R[k]
            g.play(p % 15, p // 15)
            G[_HASH] = h ^ _zk(p, me)
            lo = best - margin - 1
            if k and best > -_BIG:
                v = -_ab(g, 3 - me, d - 1, -lo - 1, -lo, 1)
                if v > lo and not G[_STOP]:
                    v = -_ab(g, 3 - me, d - 1, -_WIN - 1, -lo, 1)
            else:
                v = -_ab(g, 3 - me, d - 1, -_WIN - 1, _WIN + 1, 1)
            g.undo()
            if G[_STOP]:
                break
            U[k] = v
            if v > best:
                best = v
            k += 1
        if G[_STOP]:
            break
        k = 0
        while k < n:
            _sc[k] = U[k]
            k += 1
        _order(R, _sc, 0, n, 255, 255, 0)
        k = 0
        while k < n:
            V[k] = _sc[k]
            k += 1
        done = d
        if V[0] > _BIG:
            break
        d += 1
    G[_HASH] = h
    if not done:
        return R[0]
    return _s.pick(R, V, n, V[0], margin)
