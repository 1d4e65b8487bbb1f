"""Search levels for ai.best_move; level 2 (the handheld's top) lives here.

Level 2: a win by continuous fours (vcf) if it has one, else the best
candidates from the shape tables (candscan: threats first), each answered by
the opponent's best few replies, each of those valued by a threat scan:
forced blocks (of fours, and of open threes when there is no four to answer
with) played out, double threes, else the eval.
Each reply gets a few answers of its own too (a third ply) when the side to
move stands worse by the eval, where defence needs it, and on every black
move, where the attack gains from it, while a budget of scans lasts: the
root moves it does not reach are not searched, as values of two depths do
not compare. White's first moves, which decide its games, look at more
candidates and replies. A seeded xorshift picks among moves within a margin
of the best. Fixed limits, no clock; all buffers exist at import, a move
allocates nothing. Level 3 is deepsearch.
"""
import candscan as C
from candscan import _g, const
from movepick import seed, pick, first, _any  # noqa: F401 (ai, deepsearch)
from vcf import vcf

_WIN = const(30000)         # a five's weight in candscan._W: won
_BIG = const(29000)         # candscan's: beyond it, a mate score
_THREE_THREE = const(25000)  # a double three against no four: won, barring a VCF
# candscan's, as test_engine_consts checks
_MW = const(10)
_W_FOUR = const(480)
_W_DOUBLE = const(600)
_W_STRAIGHT = const(4000)
_NODES = const(0)
_VCF_NODES = const(2)
_VCF_LIMIT = const(3)
_STATUS = const(6)
_EVAL = const(7)
_POINT = const(8)
_FOURS = const(10)
_WIDTH = const(11)
_ATTACK = const(12)
_DEFENCE = const(13)
_DEFENCE_POINT = const(14)
_REPLY_WIDTH = const(17)
_PLY3_WIDTH = const(18)
_S_QUIET = const(0)
_S_FIVE = const(1)
_S_BLOCK = const(2)
_S_LOST = const(3)
_S_THREAT = const(4)

_rv = [0] * _MW
# level 2: width, root VCF nodes, margin, reply width, third ply width when
# behind, scans after which no root move is begun when a third ply is read;
# black's third ply width when not behind; white's width (root and replies)
# before the board holds so many stones. The micro:bit's 10 s a move sets
# these (bench_mcu_ai).
# Black's attack gains from the third ply on every move, white's defence
# from wider first moves, where its games are decided; each alone gains a
# point against ref_alphabeta, more width or depth elsewhere none, and VCF
# at the leaves costs a third of the time for no more wins (docs/AI.md)
_L2 = (7, 10, 40, 7, 5, 150, 3, 10, 16)


def _leaf(g, me, ply, cut=_WIN):
    # value for `me` to move: threats from the scan, forced blocks played
    # out, double threes; at ply 1 the best few replies each valued at
    # ply 2, there (if _g[_PLY3_WIDTH]) the best few answers at ply 3,
    # each loop stopping past `cut`; deeper an open three is blocked; else
    # the eval. A drawn game (renju: black left no point) is 0
    if g.winner:
        return 0
    G = _g
    # the candidates this node reads: its replies at ply 1, at ply 2 the
    # third ply's answers if it has any, deeper none
    G[_WIDTH] = (G[_REPLY_WIDTH] if ply == 1 else
                 G[_PLY3_WIDTH] if ply == 2 else 0)
    n = C.gen(g, ply if ply < 3 else 3, me)
    G[_NODES] += 1
    # the status as a score, as deepsearch._ab has it: inline, as a shared
    # function in candscan it cost a level-2 game about 100 bytes of heap
    st = G[_STATUS]
    if st == _S_FIVE:
        return _WIN - ply - 1
    if st == _S_LOST or (st == _S_BLOCK and n == 0):
        return ply + 2 - _WIN
    if st == _S_THREAT:
        return _WIN - ply - 3
    ev = G[_EVAL]
    p = G[_POINT] if st == _S_BLOCK else -1
    if st == _S_QUIET:
        if G[_ATTACK] >= _W_DOUBLE and G[_DEFENCE] < _W_FOUR:
            # a double three against no four: won unless a VCF defends
            return _THREE_THREE - ply
        if ply < 3 and n > 1:
            # n: the candidates kept, no more than the width set above
            # (none at ply 2 without a third ply)
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
        if G[_ATTACK] < _W_FOUR and G[_DEFENCE] >= _W_STRAIGHT:
            # an open three and no four to answer it: block where it is strongest
            p = G[_DEFENCE_POINT]
            if me == 1 and g._why and g._why(g, p):
                p = -1
    if p >= 0 and ply < 12 and g.moves < 224:
        g.play(p % 15, p // 15)
        ev = -_leaf(g, 3 - me, ply + 1)
        g.undo()
    return ev


def best_move(g, level):
    if type(level) is not int or level < 2:
        import refusal
        raise refusal.error(8, level)               # no such level
    if level > 2:
        try:
            import deepsearch
        except ImportError:                         # a board without level 3
            import refusal
            raise refusal.error(8, level)
        return deepsearch.best_move(g, level)
    if g.winner:
        import refusal
        raise refusal.error(2)                      # game over
    if g.moves < 2:
        return first(g)
    G = _g
    me = g.turn
    L = _L2
    G[_VCF_NODES] = 0
    G[_VCF_LIMIT] = L[1]
    w = L[0]
    r = L[3]
    if me == 2 and g.moves < L[8]:
        w = r = L[7]
    G[_WIDTH] = w
    G[_REPLY_WIDTH] = r
    n = root(g, me)
    if n < 0:
        return G[_POINT]
    t = L[4] if G[_EVAL] < 0 else L[6] if me == 1 else 0
    V = _rv
    while 1:
        G[_PLY3_WIDTH] = t
        G[_NODES] = 0
        k = 0
        best = -_WIN
        while k < n:
            if t and k and G[_NODES] >= L[5]:
                # the third ply's scans are spent: the moves left are not
                # searched, nor compared with those searched deeper
                break
            p = C._mv[k]
            g.play(p % 15, p // 15)
            v = -_leaf(g, 3 - me, 1, L[2] - best if best > -_WIN else _WIN)
            g.undo()
            V[k] = v
            if v > best:
                best = v
            k += 1
        if best > -_BIG or not t:
            break
        # lost at three plies whatever it plays: choose by two, which holds
        # off what is nearest (an opponent may not find the deeper win)
        t = 0
    return pick(C._mv, V, k, best, L[2])


def root(g, me):
    """Root scan: n candidates in _mv, or -1 with the forced move in _g[_POINT]."""
    G = _g
    n = C.gen(g, 0, me)
    st = G[_STATUS]
    if st == _S_FIVE or st == _S_LOST or st == _S_THREAT:
        if st == _S_LOST and me == 1 and g._why and g._why(g, G[_POINT]):
            # renju: the five named may be black's forbidden point; lost, it
            # still blocks one it may play
            G[_POINT] = _any(g, me)
        return -1
    if n < 2:
        G[_POINT] = C._mv[0] if n else _any(g, me)
        return -1
    if G[_FOURS]:
        r = vcf(g, me)
        if r >= 0:
            G[_POINT] = r
            return -1
    return n
