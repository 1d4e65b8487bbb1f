"""VCT (continuous threats) for search level 3: finds wins, defends, allocates nothing."""

import ai
import candscan
import gomoku
from brute import fives, position, replay
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


def test_renju_level3_defence_leaves_out_blacks_forbidden_answers():
    # white's three (5..7, 10) is shut at (3, 10); its VCT's answers
    # include (8, 10), black's double three (column 8 and the diagonal to
    # (10, 12)): level 3's defence check must not try it
    g = position([(3, 10), (8, 8), (8, 9), (9, 11), (10, 12)],
                 [(5, 10), (6, 10), (7, 10), (0, 0), (14, 14)], gomoku.RENJU)
    assert g.turn == 1 and g.forbidden(8, 10)
    g.turn = 2
    t = vct_of(g, 2)
    answers = bytearray(12)
    n = vct.answers(g, 2, t, answers)
    g.turn = 1
    assert t >= 0 and 8 + 10 * 15 in answers[:n]
    m = ai.best_move(g, 3)
    assert not g.stone(m % 15, m // 15) and not g.forbidden(m % 15, m // 15)

def vct_of(g, me, depth=4, nodes=3000):
    return vct.search(g, me, depth, 8, nodes, 40)


def test_vct_depth_counts_threats():
    # TWO_STEP's win takes two threats: search's deepening reaches them
    g = replay(TWO_STEP)
    assert [vct_of(g, 1, d) for d in (1, 2, 3)] == [-1, 8 * 15 + 8, 8 * 15 + 8]


def test_vct_sees_split_threes():
    # (7, 7) makes (4, 7) (5, 7) _ (7, 7) and its column twin: two split
    # threes, each with one way to a straight four
    g = position([(4, 7), (5, 7), (7, 4), (7, 5)], FAR_WHITE)
    assert vct_of(g, 1, 1) == 7 * 15 + 7


def sym(p, k):
    """Point p under the board's symmetry k (0..7): k & 3 quarter turns, k & 4 a mirror."""
    x, y = p % 15, p // 15
    for _ in range(k & 3):
        x, y = 14 - y, x
    if k & 4:
        x = 14 - x
    return y * 15 + x


def test_vct_finds_the_same_win_in_every_symmetric_image():
    # each line direction gets its turn at every role; the scan order
    # changes, so enough nodes for the slowest image
    for k in range(8):
        g = replay([sym(p, k) for p in TWO_STEP])
        assert vct_of(g, 1, 3, 30000) == sym(8 * 15 + 8, k), k
        assert vct_of(g, 1, 1) == -1, k


# black (7, 3..5) shut at (7, 2); white's (4..6, 7) and shut three down
# column 8; black's (8, 8..10) shut at (8, 11) and diagonal (9, 8) (10, 9)
OPEN4_B = [(7, 3), (7, 4), (7, 5), (9, 8), (10, 9), (8, 8), (8, 9), (8, 10)]
OPEN4_W = [(7, 2), (4, 7), (5, 7), (6, 7), (8, 11), (8, 3), (8, 4), (8, 5)]


def test_vct_claims_no_win_through_a_block_that_makes_the_defenders_open_four():
    # black's four (7, 6) is blocked at (7, 7): white's open four (4..7, 7);
    # black's double four at (8, 7) comes too late (as in vcf's test)
    g = position(OPEN4_B, OPEN4_W)
    assert not has_vcf(g, 1)
    assert vct_of(g, 1) == -1


def test_vct_against_a_four_on_the_board():
    g = position(OPEN4_B, OPEN4_W)
    g.play(7, 6)
    g.play(7, 7)
    # white's open four: black shuts one end with a double four, and loses
    assert fives(g, 2) == [7 * 15 + 3, 7 * 15 + 8]
    assert vct_of(g, 1) == -1
    # one end shut: the other block, (8, 7), is black's double four, and wins
    g.play(3, 7)
    g.play(14, 14)
    assert fives(g, 2) == [7 * 15 + 8]
    assert vct_of(g, 1) == 7 * 15 + 8
    # a double four elsewhere is no answer to white's four
    g = position([(2, 2), (3, 2), (4, 2), (5, 3), (5, 4), (5, 5), (9, 10)],
                 [(1, 2), (5, 6), (10, 10), (11, 10), (12, 10), (13, 10), (0, 14)])
    assert g.turn == 1 and fives(g, 2) == [10 * 15 + 14]
    g.play(5, 2)
    assert len(fives(g, 1)) == 2          # (5, 2): black's double four
    g.undo()
    assert vct_of(g, 1) == -1


def test_a_double_four_for_the_defender_answers_a_double_three():
    # DOUBLE's (7, 7) wins against blocks; white's (13, 12) joins its shut
    # threes (10..12, 12) and (13, 9..11) into a double four, and wins first
    black = DOUBLE + [(9, 12), (13, 8)]
    g = position(black, [(10, 12), (11, 12), (12, 12), (13, 9), (13, 10), (0, 0)])
    assert vct_of(g, 1) == 7 * 15 + 7
    g = position(black, [(10, 12), (11, 12), (12, 12), (13, 9), (13, 10), (13, 11)])
    assert fives(g, 2) == [] and not has_vcf(g, 1)
    assert vct_of(g, 1) == -1


def test_renju_white_wins_with_a_four_whose_block_is_forbidden_to_black():
    # black's four (9, 10..13) must be blocked at (9, 9); that block makes
    # white's four (9..12, 9..12) whose five (8, 8) is black's double three
    g = position([(6, 8), (7, 8), (8, 6), (8, 7), (13, 13), (9, 10), (9, 11), (9, 12), (9, 13)],
                 [(10, 10), (11, 11), (12, 12), (9, 14), (0, 0), (14, 0), (0, 14), (2, 14)],
                 gomoku.RENJU)
    assert g.turn == 2 and fives(g, 1) == [9 * 15 + 9] and g.forbidden(8, 8)
    assert vct_of(g, 2) == 9 * 15 + 9


def test_renju_white_vct_skips_blacks_forbidden_blocks():
    # white's (7, 7) joins two open threes; one of black's blocks, (4, 7),
    # is black's double three: not a defence black may play
    g = position([(4, 8), (4, 9), (5, 8), (6, 9), (14, 14)], [(5, 7), (6, 7), (7, 5), (7, 6)],
                 gomoku.RENJU)
    assert g.turn == 2 and g.forbidden(4, 7)
    assert vct_of(g, 2, 1) == 7 * 15 + 7


def test_renju_black_vct_cannot_block_a_counter_four_on_its_forbidden_point():
    # black's four (2..5, 3) is blocked at (6, 3), which makes white's four
    # (6, 3..6); its five (6, 7) is black's double three (row 7 and the
    # diagonal to (8, 9)): black may not block there, so no win that way
    g = position([(2, 3), (3, 3), (4, 3), (6, 2), (4, 7), (5, 7), (7, 8), (8, 9)],
                 [(1, 3), (6, 4), (6, 5), (6, 6), (0, 14), (14, 14), (14, 0), (0, 0)],
                 gomoku.RENJU)
    assert g.turn == 1 and g.forbidden(6, 7)
    g.play(5, 3)
    g.play(6, 3)
    assert fives(g, 2) == [6 + 7 * 15]
    g.undo()
    g.undo()
    assert vct_of(g, 1) == -1


def test_renju_black_three_fails_where_whites_counter_four_has_a_forbidden_block():
    # white's (4, 4..6) lies between black's (4, 2) and (4, 8): white's (4, 7)
    # makes a four whose five (4, 3) is black's double three (row 3 with
    # (5, 3) (6, 3), the anti-diagonal with (3, 4) (2, 5)). Black's three
    # (5..7, 7) is answered there, a counter-four black may not block: one
    # threat wins nothing, and black's VCT takes (4, 7) first
    g = position([(6, 7), (7, 7), (4, 8), (4, 2), (5, 3), (6, 3), (3, 4), (2, 5)],
                 [(4, 4), (4, 5), (4, 6)] + FAR_WHITE + [(14, 7)], gomoku.RENJU)
    assert g.turn == 1 and g.forbidden(4, 3) and not has_vcf(g, 1)
    g.play(5, 7)
    g.play(4, 7)
    assert fives(g, 2) == [4 + 3 * 15]
    g.undo()
    g.undo()
    assert vct_of(g, 1, 1) == -1
    assert vct_of(g, 1) == 4 + 7 * 15


def test_vct_respects_its_node_limit_and_keeps_the_vcf_counters():
    g = replay(TWO_STEP)
    G = candscan._g
    for limit in (1, 5, 20, 60, 200):
        G[candscan._VCF_NODES], G[candscan._VCF_LIMIT] = 7, 123
        r = vct.search(g, 1, 3, 8, limit, 10)
        # the limit is checked before each move; one VCF (10 moves at most) may run past it
        assert G[candscan._VCT_NODES] <= limit + 10, limit
        assert r in (-1, 8 * 15 + 8)
        assert (G[candscan._VCF_NODES], G[candscan._VCF_LIMIT]) == (7, 123)
    assert vct.search(g, 1, 3, 8, 3000, 10) == 8 * 15 + 8


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
