"""VCT (continuous threats) for search level 3: finds wins, defends, allocates nothing."""

import ai
import candscan
import gomoku
from brute import fives, position
import upy
import vcf
import vct

FAR_WHITE = [(0, 0), (14, 14), (0, 14), (14, 0)]
# black's two open twos cross at (7, 7): a double three, no four anywhere
DOUBLE = [(5, 7), (6, 7), (7, 5), (7, 6)]
# from a game (point = y*15 + x): black to move has no VCF and no double
# three; (8, 8) makes an open three on the diagonal and a split three on
# row 8, and the win needs a second threat after white's block
TWO_STEP = [112, 142, 126, 110, 140, 98, 113, 82, 96, 139, 130, 154]


def replay(points):
    g = gomoku.Game()
    for p in points:
        g.play(p % 15, p // 15)
    return g


def near(g, r=2):
    """Empty points within r of a stone: every reply that could matter."""
    out = []
    for p in range(225):
        x, y = p % 15, p // 15
        if not g.stone(x, y) and any(
                0 <= x + dx < 15 and 0 <= y + dy < 15 and g.stone(x + dx, y + dy)
                for dx in range(-r, r + 1) for dy in range(-r, r + 1)):
            out.append(p)
    return out


def has_vcf(g, me):
    candscan._g[candscan._VCF_NODES], candscan._g[candscan._VCF_LIMIT] = 0, 2000
    return vcf.vcf(g, me) >= 0


def finish(g, me, plies=16):
    """`me` to move wins by VCT against the defender's forced blocks; the
    defender's other moves come from level 1. The winner at the end."""
    for _ in range(plies):
        if g.winner:
            break
        if g.turn == me:
            m = vct.search(g, me, 4, 8, 3000, 40)
            assert m >= 0, "the attacker lost its forced win"
        else:
            f = fives(g, me)
            m = f[0] if f else ai.best_move(g, 1)
        g.play(m % 15, m // 15)
    return g.winner


def test_vct_finds_the_double_three_and_it_holds_against_every_reply():
    g = position(DOUBLE, FAR_WHITE)
    assert g.turn == 1 and not has_vcf(g, 1)
    m = vct.search(g, 1, 2, 8, 500, 20)
    assert (m % 15, m // 15) == (7, 7)
    g.play(7, 7)
    for d in near(g):
        g.play(d % 15, d // 15)
        h = replay([g.hist[i] for i in range(g.moves)])
        assert finish(h, 1) == 1, "white's reply %d refuted the VCT" % d
        g.undo()


def test_vct_needs_two_threats_and_wins_against_every_reply():
    g = replay(TWO_STEP)
    assert g.turn == 1 and not has_vcf(g, 1) and not has_vcf(g, 2)
    assert vct.search(g, 1, 1, 8, 3000, 40) == -1      # one threat is not enough
    m = vct.search(g, 1, 3, 8, 3000, 40)
    assert m == 8 * 15 + 8
    g.play(8, 8)
    replies = near(g)
    assert len(replies) > 30
    for d in replies:
        h = replay([g.hist[i] for i in range(g.moves)] + [d])
        assert finish(h, 1) == 1, "white's reply %d refuted the VCT" % d


def test_no_vct_on_a_quiet_board():
    g = position([(7, 7), (9, 9)], FAR_WHITE[:2])
    assert vct.search(g, 1, 4, 8, 3000, 40) == -1


def test_level3_takes_a_vct_win():
    g = replay(TWO_STEP)
    ai.seed(1)
    for _ in range(20):
        if g.winner:
            break
        if g.turn == 1:
            m = ai.best_move(g, 3)
        else:
            f = fives(g, 1)
            m = f[0] if f else ai.best_move(g, 2)
        g.play(m % 15, m // 15)
    assert g.winner == 1


def test_level3_defends_against_a_vct():
    # white to move; black's double-three point wins by VCT if white passes
    g = position(DOUBLE, FAR_WHITE[:3])
    assert g.turn == 2
    g.play(14, 0)                      # a wasted move: black then has its VCT
    assert vct.search(g, 1, 3, 8, 3000, 40) >= 0
    g.undo()
    ai.seed(3)
    m = ai.best_move(g, 3)
    g.play(m % 15, m // 15)
    assert vct.search(g, 1, 3, 8, 3000, 40) == -1


def test_renju_vct_never_uses_a_forbidden_point():
    # black's double-three point (7,7) is forbidden under renju: no VCT there
    g = position(DOUBLE, FAR_WHITE, rule=gomoku.RENJU)
    assert g.forbidden(7, 7)
    m = vct.search(g, 1, 3, 8, 3000, 40)
    assert m != 7 * 15 + 7
    if m >= 0:
        assert not g.forbidden(m % 15, m // 15)


UPY_VCT = """
import gomoku, vct, micropython
g = gomoku.Game(0)
for p in %r:
    g.play(p %% 15, p // 15)
m = 0
micropython.heap_lock()
m = vct.search(g, 1, 3, 8, 3000, 40)
micropython.heap_unlock()
print(m, vct._g[15])     # _VCT_NODES, a folded const on MicroPython
"""


def test_unix_port_vct_same_answer_with_the_heap_locked():
    out = upy.run(UPY_VCT % (TWO_STEP,), heapsize="96k")
    g = replay(TWO_STEP)
    m = vct.search(g, 1, 3, 8, 3000, 40)
    assert out.split() == [str(m), str(candscan._g[candscan._VCT_NODES])]
