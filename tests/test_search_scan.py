"""candscan.gen, the table scan under search levels 2 and 3: its status
(five to play, one five to block, two, a sure threat), the point it names,
the count of four points, the eval's sign and bounds, the candidates, and
renju's forbidden points for black (CPython)."""
import pytest

import candscan as C
import gomoku
from brute import fives, position

G = C._g
FAR = [(0, 0), (14, 0), (0, 14), (14, 14)]


def xy(p):
    return (p % 15, p // 15)


def scan(g, me, width=10, ply=0):
    """gen for `me`: (count, status, its point, candidates as (x, y))."""
    G[C._WIDTH] = width
    n = C.gen(g, ply, me)
    base = ply * C._MW
    return n, G[C._STATUS], xy(G[C._POINT]), [xy(p) for p in C._mv[base:base + n]]


def test_a_lone_four_is_a_five_to_play_for_one_side_and_a_block_for_the_other():
    # black (3..6, 7), shut at (2, 7): (7, 7) is its one five and makes
    # nothing on any other line (its weight is a five's alone)
    g = position([(3, 7), (4, 7), (5, 7), (6, 7)], [(2, 7)] + FAR[:3])
    assert fives(g, 1) == [7 * 15 + 7]
    n, st, pt, _ = scan(g, 1)
    assert (st, pt) == (C._S_FIVE, (7, 7))
    for ply in (0, 2):
        n, st, pt, mv = scan(g, 2, ply=ply)
        assert (n, st, pt, mv) == (1, C._S_BLOCK, (7, 7), [(7, 7)])


def test_two_fives_to_block_are_lost():
    g = position([(3, 7), (4, 7), (5, 7), (6, 7)], FAR[:3])
    assert len(fives(g, 1)) == 2
    n, st, pt, _ = scan(g, 2)
    assert n == 0 and st == C._S_LOST and pt in ((2, 7), (7, 7))


def test_a_straight_four_to_make_is_a_threat_though_the_other_side_has_a_four():
    # black's open three (4..6, 7); white's three (10..12, 12) shut at
    # (9, 12) gives white four points, no five
    g = position([(4, 7), (5, 7), (6, 7), (9, 12)], [(10, 12), (11, 12), (12, 12), (0, 0)])
    assert fives(g, 1) == [] and fives(g, 2) == []
    n, st, pt, _ = scan(g, 1)
    assert st == C._S_THREAT and pt in ((3, 7), (7, 7))
    assert G[C._DEFENCE] >= 480          # white has its four points


def test_a_four_three_is_a_threat_only_while_the_other_side_has_no_four():
    # (7, 7): a four on row 7 (shut at (3, 7)) and an open three down column 7
    black = [(4, 7), (5, 7), (6, 7), (7, 8), (7, 9)]
    n, st, pt, _ = scan(position(black, [(3, 7)] + FAR), 1)
    assert (st, pt) == (C._S_THREAT, (7, 7))
    # white's shut three (10..12, 12): a four of its own to answer with
    g = position(black + [(9, 12)], [(3, 7), (10, 12), (11, 12), (12, 12)] + FAR[:2])
    n, st, pt, mv = scan(g, 1)
    assert st == C._S_QUIET and mv[0] == (7, 7)


def test_fours_counts_every_point_that_makes_a_four():
    # black (4..6, 7) shut at (3, 7): a four at (7, 7) and at (8, 7), nothing more
    g = position([(4, 7), (5, 7), (6, 7)], [(3, 7), (0, 0), (14, 14)])
    scan(g, 1)
    assert G[C._FOURS] == 2 and G[C._STATUS] == C._S_QUIET
    scan(g, 2)
    assert G[C._FOURS] == 0


def test_eval_favours_the_side_that_holds_the_shapes():
    g = position([(4, 7), (5, 7), (6, 7)], [(3, 7), (0, 0), (14, 14)])
    scan(g, 1)
    assert G[C._EVAL] > 0
    scan(g, 2)
    assert G[C._EVAL] < 0


def test_eval_stays_clear_of_the_win_scores_on_a_board_full_of_threes():
    # ten open threes for black: its shape weights add up past any mate
    # score the searches use (29000 and over); the eval is clamped below
    black = [(x, y) for x in (1, 4, 7, 10, 13) for y in (3, 4, 5, 9, 10, 11)]
    white = ([(x, y) for y in (0, 7, 14) for x in (0, 3, 6, 9, 12)]
             + [(x, y) for y in (1, 8, 13) for x in (2, 5, 8, 11, 14)])
    g = position(black, white)
    assert fives(g, 1) == [] and fives(g, 2) == []
    for me in (1, 2):
        scan(g, me)
        assert -20000 <= G[C._EVAL] <= 20000
    assert G[C._EVAL] == -20000          # white: far behind, still no mate score


def test_defence_point_is_the_other_sides_strongest_point():
    g = position([(4, 7), (5, 7), (6, 7)], [(0, 0), (14, 14), (0, 14)])
    scan(g, 2)
    assert xy(G[C._DEFENCE_POINT]) in ((3, 7), (7, 7)) and G[C._DEFENCE] >= 4000


@pytest.mark.parametrize("width", (1, 3, 10))
def test_candidates_are_the_best_few_in_order(width):
    g = position([(4, 7), (5, 7), (6, 7), (7, 8)], [(3, 7), (8, 9), (1, 1)])
    n, st, pt, mv = scan(g, 1, 10)
    full = list(mv)
    scores = C._sc[:n]
    assert n == 10 and scores == sorted(scores, reverse=True)
    assert len(set(full)) == n and all(g.stone(x, y) == 0 for x, y in full)
    n, st, pt, mv = scan(g, 1, width)
    assert mv == full[:width]


@pytest.mark.parametrize("ply", (0, 1, 3))
def test_width_zero_keeps_no_candidate_and_scans_the_same(ply):
    # level 2's deepest scans read no candidates: at width 0 gen writes no
    # slot (of its ply or another's) and gives the status, eval and the
    # rest as at full width
    g = position([(4, 7), (5, 7), (6, 7), (7, 8)], [(3, 7), (8, 9), (1, 1)])
    for me in (1, 2):
        n, st, pt, _ = scan(g, me, 10, ply)
        full = [G[k] for k in (C._EVAL, C._FOURS, C._ATTACK, C._DEFENCE, C._DEFENCE_POINT)]
        C._sc[:] = [-1] * len(C._sc)
        C._mv[:] = b"\xff" * len(C._mv)
        assert scan(g, me, 0, ply) == (0, st, pt, [])
        assert [G[k] for k in (C._EVAL, C._FOURS, C._ATTACK, C._DEFENCE,
                               C._DEFENCE_POINT)] == full
        assert C._sc == [-1] * len(C._sc) and C._mv == b"\xff" * len(C._mv)


def test_a_five_on_the_last_point_is_seen():
    g = position([(10, 10), (11, 11), (12, 12), (13, 13)], [(9, 9), (0, 0), (14, 0)])
    assert fives(g, 1) == [224]
    assert scan(g, 1)[1:3] == (C._S_FIVE, (14, 14))
    assert scan(g, 2)[:3] == (1, C._S_BLOCK, (14, 14))


# renju: (8, 8) joins (6, 8), (7, 8) and (8, 6), (8, 7) into a double three
DOUBLE3 = [(6, 8), (7, 8), (8, 6), (8, 7)]


def test_renju_black_never_gets_its_forbidden_point_as_a_candidate():
    # (8, 8) is also white's four-three point: worth taking for black, were
    # it not forbidden
    for rule in (gomoku.FREESTYLE, gomoku.RENJU):
        g = position(DOUBLE3 + [(14, 14)], [(10, 10), (11, 11), (12, 12), (9, 7), (10, 6)], rule)
        assert g.forbidden(8, 8) == (rule == gomoku.RENJU)
        _, _, _, mv = scan(g, 1)
        assert ((8, 8) in mv) == (rule == gomoku.FREESTYLE)


def test_renju_white_need_not_defend_blacks_forbidden_point():
    # black's strongest point is (8, 8), white's to defend while black may
    # take it; under renju white's defence goes elsewhere
    for rule in (gomoku.FREESTYLE, gomoku.RENJU):
        g = position(DOUBLE3, FAR, rule)
        _, _, _, mv = scan(g, 2)
        assert (xy(G[C._DEFENCE_POINT]) == (8, 8)) == (rule == gomoku.FREESTYLE)
        assert ((8, 8) == mv[0]) == (rule == gomoku.FREESTYLE)


def test_renju_black_never_gets_an_overline_point_that_also_makes_a_four():
    # (5, 7) joins six on row 7 and a four down column 5 (shut at (5, 11)):
    # an overline, forbidden, though it weighs less than a double three
    g = position([(2, 7), (3, 7), (4, 7), (6, 7), (7, 7), (5, 8), (5, 9), (5, 10)],
                 [(5, 11), (0, 0), (14, 0), (0, 14), (14, 14), (12, 0), (0, 12), (12, 14)],
                 gomoku.RENJU)
    assert g.turn == 1 and g.forbidden(5, 7)
    _, _, _, mv = scan(g, 1)
    assert (5, 7) not in mv and (5, 6) in mv


def test_renju_black_to_block_on_its_forbidden_point_has_no_candidate():
    # white's four (9..12, 9..12), shut by black at (13, 13), has its five on
    # black's double-three point: black cannot block, and gen names no move
    g = position(DOUBLE3 + [(13, 13)], [(9, 9), (10, 10), (11, 11), (12, 12), (0, 0)],
                 gomoku.RENJU)
    assert g.turn == 1 and fives(g, 2) == [8 * 15 + 8] and g.forbidden(8, 8)
    n, st, pt, mv = scan(g, 1)
    assert (n, st, pt) == (0, C._S_BLOCK, (8, 8))
