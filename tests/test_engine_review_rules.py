"""Review tests: renju's real-three rule where a straight four ends on a
board corner or is spoilt by a stone beyond it, and refusal texts that name
the point as typed. Each forbidden/allowed answer is also checked against
test_engine_renju's from-scratch reference (whole-line classify, full
recursion), not only against the reasoning in the docstrings."""
import pytest

import gomoku
from engine_cases import DEEP_FORBIDDEN, DEEP_MOVES, expect_error
from test_engine_renju import ref_forbidden


def renju(black, white):
    """A renju game with these stones, played in turn (black first): black
    to move, nobody has won."""
    assert len(black) == len(white)
    g = gomoku.Game(gomoku.RENJU)
    for b, w in zip(black, white):
        g.play(*b)
        g.play(*w)
    assert g.winner == 0 and g.turn == 1
    return g


def reference(g, x, y):
    board = [[g.stone(i, j) for i in range(15)] for j in range(15)]
    return ref_forbidden(board, x, y)


def mirror(points):
    return [(14 - x, 14 - y) for x, y in points]


# (10, 10) for black: an open three across, (8, 10) (9, 10), and a broken
# three on the diagonal (11, 11) (12, 12). The diagonal's straight four
# 9..12 is spoilt by black (7, 7) (its end (8, 8) would make six), so its
# only straight four is 10..13, whose lower end is the corner (14, 14): an
# empty point like any other. Two real threes: a double three.
CORNER_BLACK = [(7, 7), (11, 11), (12, 12), (8, 10), (9, 10)]
CORNER_WHITE = [(14, 0), (12, 0), (14, 2), (0, 14), (2, 14)]


@pytest.mark.parametrize("flip", [False, True], ids=["corner_14_14", "corner_0_0"])
def test_a_straight_four_may_end_on_a_corner(flip):
    # the same position turned half a turn: then the corner is (0, 0), the
    # point at index 0 (kills R3: (14, 14), index 224, read as off the board;
    # R4: (0, 0) read as off the board)
    black, white = CORNER_BLACK, CORNER_WHITE
    (x, y), corner = (10, 10), (14, 14)
    if flip:
        black, white = mirror(black), mirror(white)
        (x, y), corner = (4, 4), (0, 0)
    g = renju(black, white)
    assert reference(g, x, y) is True
    assert g.forbidden(x, y)
    expect_error(g, g.play, (x, y), "(%d, %d) is forbidden for black: double three" % (x, y))
    # white on the corner shuts that straight four: one real three, allowed
    g = renju(black, white[:-1] + [corner])
    assert reference(g, x, y) is False
    assert not g.forbidden(x, y)
    assert g.play(x, y) == 0 and g.stone(x, y) == 1


# (7, 7) for black: an open three down, (7, 5) (7, 6), and across
# (5, 7) (6, 7). Across, the straight four 4..7 is the only one: 5..8 is
# spoilt at its far end (below). Column 4 holds (4, 4) (4, 5) (4, 6), so
# black on (4, 7) would make a four down column 4 and that straight four:
# a double four, forbidden. So the row's three is no three, and (7, 7) is
# allowed.
ROW_BLACK = [(5, 7), (6, 7), (7, 5), (7, 6), (4, 4), (4, 5), (4, 6)]
FAR_WHITE = [(0, 14), (2, 14), (14, 0), (12, 0), (14, 2), (0, 12), (12, 14), (14, 12), (10, 0)]


def mirror_x(points):
    return [(14 - x, y) for x, y in points]


@pytest.mark.parametrize("flip", [False, True], ids=["as_drawn", "mirrored"])
@pytest.mark.parametrize("far_end", ["white_stone", "black_stone_beyond"])
def test_a_three_whose_only_straight_four_is_forbidden_is_no_three(far_end, flip):
    if far_end == "white_stone":
        # white (9, 7) right after (8, 7): 5..8 has no empty end there
        # (kills R24: that end not checked)
        black, white = ROW_BLACK, [(9, 7)] + FAR_WHITE[:6]
    else:
        # black (10, 7): the end (9, 7) of 5..8 would make 5..10, six, so
        # 5..8 is no straight four (kills R26: the point beyond not checked)
        black, white = ROW_BLACK + [(10, 7)], FAR_WHITE[:8]
    four_point, last_white = (4, 7), FAR_WHITE[-1]
    if flip:
        # left and right swapped: the spoilt four now lies the way the
        # engine looks first (kills R23, R25: the near end or the point
        # beyond it not checked)
        black, white = mirror_x(black), mirror_x(white)
        four_point, last_white = (10, 7), (14 - last_white[0], last_white[1])
    g = renju(black, white)
    assert g.forbidden(*four_point) is False, "before (7, 7) it is a four-three"
    assert reference(g, 7, 7) is False
    assert not g.forbidden(7, 7)
    assert g.play(7, 7) == 0 and g.stone(7, 7) == 1
    # after it, the straight-four point is the double four the rule relied on
    g.play(*last_white)
    expect_error(g, g.play, four_point,
                 "%r is forbidden for black: double four" % (four_point,))


def test_the_same_three_is_real_when_its_straight_four_point_is_allowed():
    # without (4, 4), black on (4, 7) makes a three down column 4 and the
    # straight four: a four-three, allowed. Both of (7, 7)'s threes are then
    # real, and it is a double three (the control for the test above)
    black = [p for p in ROW_BLACK if p != (4, 4)]
    g = renju(black, [(9, 7)] + FAR_WHITE[:5])
    assert reference(g, 7, 7) is True
    assert g.forbidden(7, 7)
    expect_error(g, g.play, (7, 7), "(7, 7) is forbidden for black: double three")


def test_occupied_names_the_point_as_x_then_y():
    # kills G25 (the point's coordinates swapped in the message): (3, 5) is
    # column 3, row 5, and the message says it as it was typed
    for rule in (gomoku.FREESTYLE, gomoku.STANDARD, gomoku.RENJU):
        g = gomoku.Game(rule)
        g.play(3, 5)
        expect_error(g, g.play, (3, 5), "(3, 5) is occupied")
        assert g.stone(3, 5) == 1 and g.stone(5, 3) == 0


def test_a_five_is_never_forbidden_even_with_a_double_three():
    # (7, 7) completes five across (3..6, 7; white (2, 7) makes it a plain
    # four) and makes two open threes, down (7, 5) (7, 6) and on the diagonal
    # (5, 5) (6, 6). A five wins whatever else the move makes (kills R29:
    # renju.why going on to count threes when the point makes five)
    black = [(3, 7), (4, 7), (5, 7), (6, 7), (7, 5), (7, 6), (5, 5), (6, 6)]
    white = [(2, 7), (0, 0), (14, 0), (0, 14), (14, 14), (2, 0), (0, 2), (12, 0)]
    g = renju(black, white)
    board = [[g.stone(x, y) for x in range(15)] for y in range(15)]
    assert ref_forbidden(board, 7, 7) is False
    board[7][3] = 0
    assert ref_forbidden(board, 7, 7) is True, "a four there, not a five: forbidden"
    assert not g.forbidden(7, 7)
    assert g.play(7, 7) == 1
    assert g.five() == (3, 7, 1, 0, 5)


# (12, 7) for black: a broken three across, (9, 7) (10, 7), real through
# (11, 7); and one on the anti-diagonal, (10, 9) (9, 10), whose only
# straight-four point is (11, 8). With (12, 7) played, (11, 8) makes that
# straight four, a three across (9, 8) (10, 8), and a broken three on the
# diagonal (8, 5) . (10, 7), whose only straight-four point (9, 6) is a double
# four (with (9, 7) (9, 8) . (9, 10) down column 9): that three is no three.
# So (11, 8) is a four-three, allowed; both threes of (12, 7) are real, and
# renju forbids it. Judged by its codes alone, (11, 8) shows two threes: only
# with (12, 7) played (renju.why's next level) does one turn out no three.
DEEP_BLACK = [(9, 8), (9, 7), (10, 7), (10, 8), (8, 5), (10, 9), (9, 10)]
DEEP_WHITE = [(0, 0), (14, 0), (0, 14), (14, 14), (2, 0), (0, 2), (12, 0)]


def test_the_deep_position_is_what_the_rule_says():
    # the steps above, on the reference (its own full recursion)
    g = renju(DEEP_BLACK, DEEP_WHITE)
    board = [[g.stone(x, y) for x in range(15)] for y in range(15)]
    assert ref_forbidden(board, 12, 7) is True
    board[7][12] = 1
    assert ref_forbidden(board, 11, 7) is False
    assert ref_forbidden(board, 11, 8) is False
    board[8][11] = 1
    assert ref_forbidden(board, 9, 6) is True


def test_a_straight_four_point_is_judged_by_its_real_threes():
    g = renju(DEEP_BLACK, DEEP_WHITE)
    assert g.forbidden(12, 7)
    expect_error(g, g.play, (12, 7), "(12, 7) is forbidden for black: double three")


def test_two_stones_deep_every_point_is_what_the_rule_says():
    # engine_cases' position, judged two stones deep, on the reference
    g = gomoku.Game(gomoku.RENJU)
    for m in DEEP_MOVES:
        g.play(m % 15, m // 15)
    board = [[g.stone(x, y) for x in range(15)] for y in range(15)]
    want = [(x, y) for y in range(15) for x in range(15)
            if not board[y][x] and ref_forbidden(board, x, y)]
    assert want == DEEP_FORBIDDEN
    # the same as engine_cases asks of the engine, and (4, 9) allowed only
    # because (2, 5) is judged with both stones above it played
    assert (4, 9) not in want
    board[9][4] = board[6][1] = 1
    assert ref_forbidden(board, 2, 5) is False
