"""Engine behaviour cases, runnable on CPython (pytest) and MicroPython.

Each case_* function builds positions with gomoku.Game and asserts what the
rules and level 1 must do. tests/test_engine_rules.py runs them under pytest;
tests/test_engine_upy.py runs them all on the MicroPython unix port under a
fixed heap (run_all()). MicroPython-compatible: no f-strings, no CPython-only
modules.
"""
import ai
import gomoku

RULES = (gomoku.FREESTYLE, gomoku.STANDARD, gomoku.RENJU)
# scattered stones off every test row: the side that is not being tested
# plays these in between, and can never make a five from them
FILL = ((1, 9), (4, 1), (4, 13), (10, 1), (10, 13), (13, 9), (1, 12), (13, 12),
        (9, 1), (12, 4))


def snap(g):
    return (bytes(g.board), bytes(g.pat), bytes(g.hist), g.moves, g.turn, g.winner)


def expect_error(g, fn, args, text):
    """fn(*args) raises ValueError mentioning text and changes nothing."""
    before = snap(g)
    try:
        fn(*args)
    except ValueError as e:
        assert text in str(e), "%r does not mention %r" % (str(e), text)
    else:
        raise AssertionError("%r did not raise" % (args,))
    assert snap(g) == before, "a failed call changed the game"


def build(rule, black, white=None, fill=FILL):
    """Black plays `black` in order; white answers from `white`, then FILL."""
    g = gomoku.Game(rule)
    white = list(white or [])
    spare = [p for p in fill if p not in black and p not in white]
    for n, (x, y) in enumerate(black):
        g.play(x, y)
        if n < len(black) - 1 or white:
            wx, wy = white.pop(0) if white else spare.pop(0)
            g.play(wx, wy)
    while white:
        g.play(*white.pop(0))
    return g


def cells(row):
    x, y, dx, dy, n = row
    return sorted((x + k * dx, y + k * dy) for k in range(n))


def case_api():
    assert (gomoku.FREESTYLE, gomoku.STANDARD, gomoku.RENJU) == (0, 1, 4)
    g = gomoku.Game()
    assert (g.turn, g.winner, g.moves) == (1, 0, 0)
    assert all(g.stone(x, y) == 0 for x in range(15) for y in range(15))
    assert len(g.board) == 57 and len(g.pat) == 900
    assert g.play(7, 7) == 0 and g.stone(7, 7) == 1 and g.turn == 2
    assert g.play(8, 7) == 0 and g.stone(8, 7) == 2 and g.turn == 1
    assert g.moves == 2 and g.hist[0] == 7 * 15 + 7 and g.hist[1] == 7 * 15 + 8
    assert g.five() is None and not g.forbidden(6, 6)
    g.undo()
    assert (g.turn, g.moves, g.stone(8, 7)) == (2, 1, 0)
    for bad in (2, 3, -1, 5, "renju"):
        try:
            gomoku.Game(bad)
        except ValueError:
            pass
        else:
            raise AssertionError("rule %r accepted" % (bad,))


def case_errors_change_nothing():
    g = gomoku.Game()
    expect_error(g, g.undo, (), "undo")
    g.play(7, 7)
    for x, y in ((-1, 0), (15, 0), (0, 15), (0, -1), (99, 99), ("a", 1), (1, None), (1.0, 2)):
        expect_error(g, g.play, (x, y), "off the board")
        expect_error(g, g.stone, (x, y), "off the board")
        expect_error(g, g.forbidden, (x, y), "off the board")
    expect_error(g, g.play, (7, 7), "occupied")
    g = build(gomoku.FREESTYLE, [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)])
    assert g.winner == 1
    expect_error(g, g.play, (9, 9), "game over")
    expect_error(g, ai.best_move, (g, 1), "game over")


LINES = (
    # (start, step): fives touching every edge and corner, all 4 directions
    ((0, 0), (1, 0)), ((10, 0), (1, 0)), ((0, 14), (1, 0)), ((10, 14), (1, 0)), ((5, 7), (1, 0)),
    ((0, 0), (0, 1)), ((0, 10), (0, 1)), ((14, 0), (0, 1)), ((14, 10), (0, 1)), ((7, 5), (0, 1)),
    ((0, 0), (1, 1)), ((10, 10), (1, 1)), ((10, 0), (1, 1)), ((0, 10), (1, 1)), ((3, 5), (1, 1)),
    ((14, 0), (-1, 1)), ((4, 10), (-1, 1)), ((4, 0), (-1, 1)), ((14, 10), (-1, 1)),
    ((9, 3), (-1, 1)),
)


def case_wins_at_edges_and_corners():
    for rule in RULES:
        for n, ((x0, y0), (dx, dy)) in enumerate(LINES):
            line = [(x0 + k * dx, y0 + k * dy) for k in range(5)]
            last = n % 5           # the winning stone: each position in turn
            order = line[:last] + line[last + 1:] + [line[last]]
            g = build(rule, order[:4])
            g.play(*FILL[-1])
            assert g.winner == 0
            assert g.play(*order[4]) == 1, (rule, line)
            assert g.winner == 1
            assert cells(g.five()) == sorted(line)
            # the same row for white
            g = build(rule, [FILL[-1 - k] for k in range(5)], white=order)
            assert g.winner == 2 and cells(g.five()) == sorted(line), (rule, line)


def case_overlines():
    row = [(0, 5), (1, 5), (2, 5), (4, 5), (5, 5), (3, 5)]        # six, completed in the gap
    g = build(gomoku.FREESTYLE, row)
    assert g.winner == 1 and g.five()[4] == 6
    g = build(gomoku.STANDARD, row)
    assert g.winner == 0, "standard: six in a row is not a win"
    for n, x in enumerate((7, 8, 9, 10, 11)):                    # an exact five beside it
        g.play(*((14, 14), (12, 14), (14, 11), (10, 14), (14, 8))[n])
        g.play(x, 5)
    assert g.winner == 1 and cells(g.five()) == [(x, 5) for x in range(7, 12)]
    w = build(gomoku.STANDARD, [FILL[k] for k in range(6)], white=row)
    assert w.winner == 0, "standard: white's six is no win either"
    g = build(gomoku.RENJU, row[:5])
    g.play(12, 12)
    assert g.forbidden(3, 5)
    expect_error(g, g.play, (3, 5), "overline")
    w = build(gomoku.RENJU, [FILL[k] for k in range(6)], white=row)
    assert w.winner == 2 and w.five()[4] == 6, "renju: white wins with six"


def pattern_game(rule, black=(), white=(), free=()):
    """The draw pattern, ((x//2)+y) % 2 (black where 0: 113 points, white
    112, no five anywhere), with the points `black` and `white` turned to
    that colour and `free` left empty, played to its last stone: white's
    stones in order, black's each time the first one not forbidden now
    (renju forbids some of them while the board fills). -> the Game, the
    moves as points."""
    colour = bytearray(225)                # index x * 15 + y: the order played
    for p in range(225):
        colour[p] = 1 if ((p // 15 >> 1) + p % 15) % 2 == 0 else 2
    for x, y in black:
        colour[x * 15 + y] = 1
    for x, y in white:
        colour[x * 15 + y] = 2
    for x, y in free:
        colour[x * 15 + y] = 0
    black = [p for p in range(225) if colour[p] == 1]
    white = [p for p in range(225) if colour[p] == 2]
    g = gomoku.Game(rule)
    moves = []
    for n in range(len(black) + len(white)):
        assert g.winner == 0, (rule, n)
        if n & 1:
            x, y = divmod(white[n >> 1], 15)
        else:
            k = 0
            while g.forbidden(*divmod(black[k], 15)):
                k += 1
            x, y = divmod(black.pop(k), 15)
        g.play(x, y)
        moves.append(y * 15 + x)
    return g, moves


def case_draw_on_a_full_board():
    for rule in (gomoku.FREESTYLE, gomoku.STANDARD):
        g, _ = pattern_game(rule)
        assert g.winner == 3 and g.moves == 225 and g.five() is None
        expect_error(g, g.play, (0, 0), "game over")
        g.undo()
        assert g.winner == 0 and g.turn == 1


def black_boxed_in(rule):
    """224 moves: row 0 reads B B B . B B, (0, 14) and (14, 7) turn white to
    keep 112 stones each. Black's one free point, (3, 0), its next move, is
    an overline. -> the Game, the moves as points."""
    return pattern_game(rule, black=[(2, 0)], white=[(0, 14), (14, 7)], free=[(3, 0)])


def case_renju_black_with_no_legal_point_is_a_draw():
    # under renju that board is full for black, and drawn
    for rule in RULES:
        g, _ = black_boxed_in(rule)
        assert g.moves == 224 and g.turn == 1
        if rule == gomoku.RENJU:
            assert g.winner == 3 and g.five() is None
            expect_error(g, g.play, (3, 0), "game over")
            expect_error(g, ai.best_move, (g, 1), "game over")
            g.undo()
            assert g.winner == 0 and g.turn == 2
        else:
            # elsewhere (3, 0) is black's: six in a row wins freestyle, and
            # fills the board for a draw where only exactly five wins
            assert g.winner == 0 and not g.forbidden(3, 0)
            assert g.play(3, 0) == (1 if rule == gomoku.FREESTYLE else 3)


def case_renju_black_boxed_in_with_white_to_move_plays_on():
    # rows 0 and 14 read B B B . B B, and column 3 holds white's four from
    # row 1 to row 4: after black's last stone both free points are
    # overlines for black, but white is to move, and (3, 0) is its five
    g, _ = pattern_game(gomoku.RENJU, black=[(2, 0), (2, 14)],
                        white=[(3, 1), (3, 3), (14, 7)], free=[(3, 0), (3, 14)])
    assert g.moves == 223 and g.turn == 2 and g.winner == 0
    assert g.forbidden(3, 0) and g.forbidden(3, 14)
    assert g.play(3, 0) == 2


def case_five_on_the_last_point_wins():
    # the draw pattern above with row 1 changed to white .. black 2..6, white
    # 7: the 225th move, black's (4, 1), fills the board and makes a five,
    # which is a win, not a draw
    black = set((x, y) for y in range(15) for x in range(15) if ((x >> 1) + y) % 2 == 0)
    white = set((x, y) for y in range(15) for x in range(15) if ((x >> 1) + y) % 2 == 1)
    for p in ((4, 1), (5, 1)):
        white.remove(p)
        black.add(p)
    for p in ((7, 1), (0, 0)):
        black.remove(p)
        white.add(p)
    black.remove((4, 1))
    black = sorted(black) + [(4, 1)]
    white = sorted(white)
    for rule in RULES:
        g = gomoku.Game(rule)
        for n in range(225):
            assert g.winner == 0, (rule, n)
            x, y = (white if n & 1 else black)[n >> 1]
            g.play(x, y)
        assert g.moves == 225 and g.winner == 1, (rule, g.winner)
        assert cells(g.five()) == [(x, 1) for x in range(2, 7)]


def case_five_beside_an_overline_is_the_row_shown():
    # the last move (5, 7) makes six across and an exact five down: under
    # standard and for renju's black only the five wins, and five() must show
    # it, not the six (across is looked at first)
    black = [(2, 7), (3, 7), (4, 7), (6, 7), (7, 7), (5, 3), (5, 4), (5, 5), (5, 6), (5, 7)]
    for rule in (gomoku.STANDARD, gomoku.RENJU):
        g = build(rule, black)
        assert g.winner == 1, rule
        assert cells(g.five()) == [(5, y) for y in range(3, 8)], (rule, g.five())
    g = build(gomoku.FREESTYLE, black)
    assert g.winner == 1 and g.five()[4] in (5, 6)


def case_winning_row_stops_at_the_board_edge():
    # diagonal fives ending on the left and right edges, the stone on the
    # far side of the other edge (one step on past it in the packed index)
    # of the same colour: it is not part of the row
    for rule in RULES:
        g = build(rule, [(14, 3), (0, 5), (1, 6), (2, 7), (3, 8), (4, 9)])
        assert g.winner == 1
        assert cells(g.five()) == [(k, 5 + k) for k in range(5)], (rule, g.five())
        g = build(rule, [(0, 5), (14, 5), (13, 6), (12, 7), (11, 8), (10, 9)])
        assert g.winner == 1
        assert cells(g.five()) == sorted((14 - k, 5 + k) for k in range(5)), (rule, g.five())


def case_renju_double_three():
    g = build(gomoku.RENJU, [(6, 7), (7, 7), (8, 5), (8, 6)])
    g.play(0, 4)
    assert g.forbidden(8, 7) and not g.forbidden(9, 9)
    expect_error(g, g.play, (8, 7), "double three")
    f = build(gomoku.FREESTYLE, [(6, 7), (7, 7), (8, 5), (8, 6)])
    f.play(0, 4)
    assert not f.forbidden(8, 7)
    f.play(8, 7)
    g.play(9, 9)
    g.play(8, 7)
    assert g.stone(8, 7) == 2, "white may play black's forbidden point"


def case_renju_double_four():
    g = build(gomoku.RENJU, [(4, 7), (5, 7), (6, 7), (7, 4), (7, 5), (7, 6)])
    g.play(0, 4)
    expect_error(g, g.play, (7, 7), "double four")
    # two fours on one line: x.x?x.x
    g = build(gomoku.RENJU, [(4, 7), (6, 7), (8, 7), (10, 7)])
    g.play(0, 4)
    assert g.forbidden(7, 7)
    expect_error(g, g.play, (7, 7), "double four")


def case_renju_four_three_is_allowed():
    g = build(gomoku.RENJU, [(4, 7), (5, 7), (6, 7), (7, 5), (7, 6)])
    g.play(0, 4)
    assert not g.forbidden(7, 7)
    assert g.play(7, 7) == 0 and g.stone(7, 7) == 1


# A renju position (moves as y * 15 + x, black first; black to move) where
# black's (4, 9) has two threes whose straight-four points have threes of
# their own: (4, 9)'s are real or not through (1, 6), whose are real or not
# through (2, 5), judged with (4, 9) and (1, 6) on the board. Two stones
# played deep, (4, 9) is allowed; judged one stone deep, it would not be.
# test_engine_review_rules checks every point of it against the reference.
DEEP_MOVES = (107, 168, 38, 102, 94, 33, 49, 51, 116, 57, 62, 68, 100, 160, 187,
              87, 108, 172, 167, 138, 93, 170, 63, 52, 132, 70, 146, 81, 117,
              147, 125, 183, 84, 169, 130, 137, 123, 152)
DEEP_FORBIDDEN = [(4, 4), (2, 5), (4, 5), (1, 6), (4, 7), (5, 7), (9, 7), (2, 8), (11, 8)]


def case_renju_threes_judged_two_stones_deep():
    g = gomoku.Game(gomoku.RENJU)
    for m in DEEP_MOVES:
        g.play(m % 15, m // 15)
    before = snap(g)
    found = [(x, y) for y in range(15) for x in range(15) if g.forbidden(x, y)]
    assert found == DEEP_FORBIDDEN, found
    assert snap(g) == before, "judging a point changed the game"
    assert g.play(4, 9) == 0 and g.stone(4, 9) == 1


def case_renju_five_beats_forbidden():
    # (7, 7) makes five across and, down, seven in a row and a double
    # four around it: a five is never forbidden.
    black = [(3, 7), (4, 7), (5, 7), (6, 7), (7, 4), (7, 5), (7, 6), (7, 8), (7, 9), (7, 10)]
    g = build(gomoku.RENJU, black, white=[(0, 4), (2, 7), (0, 6), (0, 8), (14, 0),
                                           (0, 10), (14, 2), (14, 4), (14, 6), (14, 8)])
    assert g.winner == 0 and g.turn == 1
    assert not g.forbidden(7, 7)
    assert g.play(7, 7) == 1
    assert cells(g.five()) == [(x, 7) for x in range(3, 8)]


def case_renju_fake_three():
    # (7, 7) makes a three down (7,5)(7,6) and a broken three across
    # (5,7) . (7,7) (8,7), whose only way to a straight four is (6, 7).
    # Column 6 holds (6,4)(6,5)(6,6) and (6,8)(6,9): black on (6, 7) would
    # make six, an overline, so the second three is not a real three.
    three_a = [(5, 7), (8, 7)]
    three_b = [(7, 5), (7, 6)]
    column = [(6, 4), (6, 5), (6, 8), (6, 9), (6, 6)]
    g = build(gomoku.RENJU, three_a + three_b + column)
    g.play(14, 14)
    codes = [g.pat[(7 * 15 + 7) * 4 + (d >> 1)] >> 4 * (d & 1) & 15 for d in range(4)]
    assert codes == [5, 6, 3, 3], codes      # broken three across, three down, twos
    assert not g.forbidden(7, 7)
    g.play(7, 7)
    g.play(13, 14)
    assert g.forbidden(6, 7)
    # without the column the same two threes are real: a double three
    g = build(gomoku.RENJU, three_a + three_b)
    g.play(14, 14)
    assert g.forbidden(7, 7)


def case_renju_straight_fours_at_edges_and_beside_forbidden_points():
    # A three counts only if it can become a straight four (both ends make
    # exactly five) on a point black may play; a dead three is no three.
    # Row 7's three (10..12, 7) is shut on the left by white (8, 7); its
    # straight four is 10..13, whose right end (14, 7) is on the board's
    # edge: with column 12's three it makes (12, 7) a double three. (0, 8),
    # the point after (14, 7) in board order, is black: the edge is no stone.
    g = build(gomoku.RENJU, [(10, 7), (11, 7), (12, 5), (12, 6), (0, 8)],
              white=[(8, 7), (0, 0), (14, 14), (0, 14), (2, 2)])
    assert g.forbidden(12, 7)
    expect_error(g, g.play, (12, 7), "double three")
    # (3, 6): a three across (1..3, 6) and a broken three down (3,4) (3,6)
    # (3,7). Across, 0..3 has the edge at one end, no straight four; 1..4
    # needs (4, 6), which would make it and a four on the diagonal (1,9)
    # (2,8) (3,7): a double four, forbidden. One real three: allowed.
    g = build(gomoku.RENJU, [(1, 9), (3, 4), (2, 8), (3, 7), (2, 6), (1, 6)],
              white=[(3, 1), (1, 3), (4, 0), (3, 11), (4, 5), (14, 14)])
    assert not g.forbidden(3, 6)
    g.play(3, 6)
    g.play(14, 0)
    expect_error(g, g.play, (4, 6), "double four")
    # (12, 8): a three across (11..13, 8) and one down (12, 6..8). Down,
    # 5..8 is no straight four: (12, 4) would join (12, 3) in six; 6..9
    # needs (12, 9), a double three itself (across (10,9) . (12,9) (13,9),
    # diagonally (13,8) (12,9) (11,10)). One real three: allowed.
    g = build(gomoku.RENJU, [(12, 7), (11, 8), (13, 8), (10, 9), (12, 6), (12, 3), (13, 9),
                             (11, 10)],
              white=[(0, 0), (14, 14), (0, 14), (2, 2), (4, 0), (4, 14), (2, 12), (6, 0)])
    assert not g.forbidden(12, 8)
    assert g.play(12, 8) == 0 and g.stone(12, 8) == 1
    # (9, 13): a broken three across (8,13) (9,13) . (11,13) and a three on
    # the diagonal (11,11) (10,12) (9,13). The row's straight-four point
    # (10, 13) also makes a dead three down column 10 (the edge shuts it):
    # no three, so (10, 13) is allowed, both threes are real, and (9, 13) is
    # a double three
    g = build(gomoku.RENJU, [(12, 11), (8, 13), (10, 14), (11, 12), (10, 12), (11, 13),
                             (11, 11)],
              white=[(0, 14), (13, 11), (7, 12), (3, 14), (2, 11), (5, 12), (0, 0)])
    assert g.forbidden(9, 13)


def case_undo_everything():
    for rule in RULES:
        g = gomoku.Game(rule)
        fresh = snap(g)
        seq = [(7, 7), (8, 8), (6, 6), (8, 7), (5, 5), (8, 6), (4, 4), (0, 0), (3, 3)]
        for x, y in seq:
            g.play(x, y)
        assert g.winner == 1
        while g.moves:
            g.undo()
        assert snap(g)[:2] == fresh[:2] and (g.moves, g.turn, g.winner) == (0, 1, 0)
        for x, y in seq[:4]:
            g.play(x, y)
        assert g.stone(8, 7) == 2 and g.turn == 1


def case_ai_takes_and_blocks_fives():
    for rule in RULES:
        # black to move with an open four: take the five, not the block
        g = build(rule, [(3, 3), (4, 3), (5, 3), (6, 3)], white=[(3, 9), (4, 9), (5, 9), (6, 9)])
        assert g.turn == 1
        assert ai.best_move(g, 1) in (2 + 3 * 15, 7 + 3 * 15)
        # white to move, black has a four, white has nothing: block it
        g = build(rule, [(3, 3), (4, 3), (5, 3), (6, 3)], white=[(2, 3), (10, 10), (12, 1)])
        assert g.turn == 2
        assert ai.best_move(g, 1) == 7 + 3 * 15
        # white to move with its own four: win instead of blocking
        g = build(rule, [(3, 3), (4, 3), (5, 3), (6, 3), (0, 14), (14, 0)],
                  white=[(2, 3), (9, 9), (9, 10), (9, 11), (9, 12)])
        assert g.turn == 2 and g.winner == 0
        assert ai.best_move(g, 1) in (9 + 8 * 15, 9 + 13 * 15)


def case_ai_meets_open_threes():
    # white to move against black's open three: block at one of its ends
    g = build(gomoku.FREESTYLE, [(5, 7), (6, 7), (7, 7)], white=[(2, 2), (12, 12)])
    assert g.turn == 2
    assert ai.best_move(g, 1) in (4 + 7 * 15, 8 + 7 * 15, 3 + 7 * 15, 9 + 7 * 15)
    # black to move with its own open three makes the open four
    g = build(gomoku.FREESTYLE, [(5, 7), (6, 7), (7, 7)], white=[(2, 2), (12, 12), (1, 1)])
    assert g.turn == 1 and ai.best_move(g, 1) in (4 + 7 * 15, 8 + 7 * 15)


def case_ai_four_three_and_double_three():
    # black to move: (7, 7) makes a four across and an open three down
    g = build(gomoku.FREESTYLE, [(4, 7), (5, 7), (6, 7), (7, 5), (7, 6)],
              white=[(3, 7), (1, 1), (13, 13), (1, 13), (13, 1)])
    assert g.turn == 1 and ai.best_move(g, 1) == 7 + 7 * 15
    # white to move: black's double-three point comes before anything quiet
    g = build(gomoku.FREESTYLE, [(6, 7), (7, 7), (8, 5), (8, 6)],
              white=[(1, 1), (13, 13), (1, 13)])
    assert g.turn == 2 and ai.best_move(g, 1) == 8 + 7 * 15
    # white to move with a double-three point (12, 10) of its own, black with
    # the four-three point (7, 7): black's four would come first, so white
    # blocks it rather than make its own double three
    g = build(gomoku.FREESTYLE, [(4, 7), (5, 7), (6, 7), (7, 5), (7, 6), (0, 14)],
              white=[(3, 7), (10, 10), (11, 10), (12, 8), (12, 9)])
    assert g.turn == 2 and ai.best_move(g, 1) == 7 + 7 * 15


def case_ai_renju_black_avoids_forbidden():
    # black's only big point is a double three: level 1 must go elsewhere
    g = build(gomoku.RENJU, [(6, 7), (7, 7), (8, 5), (8, 6)])
    g.play(0, 4)
    assert g.turn == 1 and g.forbidden(8, 7)
    m = ai.best_move(g, 1)
    assert m != 8 + 7 * 15 and not g.forbidden(m % 15, m // 15)
    f = build(gomoku.FREESTYLE, [(6, 7), (7, 7), (8, 5), (8, 6)])
    f.play(0, 4)
    assert ai.best_move(f, 1) == 8 + 7 * 15, "freestyle: the double three is the move"
    # white does not waste a move blocking black's forbidden point
    g2 = build(gomoku.RENJU, [(6, 7), (7, 7), (8, 5), (8, 6), (14, 14)],
               white=[(0, 4), (0, 8), (14, 4), (4, 14)])
    assert g2.turn == 2 and g2.forbidden(8, 7)
    assert ai.best_move(g2, 1) != 8 + 7 * 15
    # (white's stones hold no threat of their own: in freestyle it blocks there)
    f2 = build(gomoku.FREESTYLE, [(6, 7), (7, 7), (8, 5), (8, 6), (14, 14)],
               white=[(0, 4), (0, 8), (14, 4), (4, 14)])
    assert ai.best_move(f2, 1) == 8 + 7 * 15
    # black's busiest point (6, 7) makes a four down column 6 and blocks
    # white's diagonal (4,5) (5,6), but it joins six across: an overline
    g = build(gomoku.RENJU, [(2, 7), (3, 7), (4, 7), (5, 7), (7, 7), (6, 5), (6, 6), (6, 9)],
              white=[(1, 7), (6, 4), (4, 5), (5, 6), (14, 14), (0, 14), (14, 0), (12, 12)])
    assert g.turn == 1 and g.forbidden(6, 7)
    m = ai.best_move(g, 1)
    assert m != 6 + 7 * 15 and not g.forbidden(m % 15, m // 15)
    g.play(m % 15, m // 15)


def case_ai_legal_whole_games():
    for rule in RULES:
        g = gomoku.Game(rule)
        assert ai.best_move(g, 1) == 7 * 15 + 7, "empty board: the centre"
        while not g.winner:
            m = ai.best_move(g, 1)
            x, y = m % 15, m // 15
            assert 0 <= m < 225 and g.stone(x, y) == 0
            assert not (g.turn == 1 and g.forbidden(x, y))
            g.play(x, y)


CASES = [k for k in sorted(globals()) if k.startswith("case_")]


def run_all():
    for name in CASES:
        globals()[name]()
    print("ok", len(CASES))
