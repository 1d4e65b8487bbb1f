"""Mutation review R of the benchmark's opponents and helpers, whose faults
would falsify `make bench`'s strength figures: tools/ref_alphabeta.py (seed
001: the best 5 shape-ordered candidates at every node, 3 plies of
alpha-beta), tools/seed_scorer.py and tools/seed_brain.py (seed 000's
one-ply scorer), tools/gomokubench_brain.py, tools/wiring.py and
bench/budget.py. Expected values come from the seed documents
(/work/shared/seeds), the modules' docstrings, gomokubench's own move rules
and the Raspberry Pi Pico datasheet's pinout."""
import sys

import pytest

sys.path.insert(0, str(__import__("upy").ROOT / "tools"))
import brainloop  # noqa: E402
import ref_alphabeta as ra  # noqa: E402
from test_brain_loop import grid_with  # noqa: E402


# ---- tools/ref_alphabeta.py ---------------------------------------------------

def run_at(n, blocked=""):
    """Black's run of n stones along row 7 ending at the empty point (7, 7),
    shut by a white stone at its left ('l') and/or right ('r') end."""
    black = [(7 - k, 7) for k in range(1, n)]
    white = ([(7 - n, 7)] if "l" in blocked else []) + ([(8, 7)] if "r" in blocked else [])
    return grid_with(black, white)


def shape(n, blocked=""):
    """ref_alphabeta's score for black playing (7, 7) onto that run; the
    other three lines through (7, 7) are empty in every case."""
    return ra.point_score(run_at(n, blocked), 7, 7, 1)


def test_ref_alphabeta_shape_ranks_follow_the_seeds_order():
    # seed 001 orders five, open four, four, open three, ...; seed 000's
    # fourteen steps go on: dead three, open two, dead two. Seed 001 groups
    # (ties allowed) what seed 000 ranks one apart; a lone stone with an
    # open end beats one without, and a run shut at both ends is worth
    # nothing: it can never be five
    ranks = [shape(5, "lr"), shape(4), shape(4, "l"), shape(3), shape(3, "r"), shape(2),
             shape(2, "l"), shape(1), shape(1, "r"), shape(1, "lr")]
    for better, worse in zip(ranks, ranks[1:]):
        assert better >= worse, ranks
    for i in (0, 1, 3, 5, 7, 8):
        assert ranks[i] > ranks[i + 1], (i, ranks)
    assert shape(4, "lr") == shape(3, "lr") == shape(2, "lr") == shape(1, "lr")


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_ref_alphabeta_position_score_counts_the_open_ends_of_a_run(n):
    # the same run, opened and shut at either end: its start end counts as
    # its far end does
    def played(blocked):
        grid = run_at(n, blocked)
        grid[7][7] = 1
        return ra.position_score(grid, 1)
    assert played("") > played("l") == played("r") > played("lr")


@pytest.mark.parametrize("line, point", [
    ([(3, 7), (4, 7), (6, 7), (7, 7)], (5, 7)),            # row, the point in a gap
    ([(5, 1), (5, 2), (5, 3), (5, 4)], (5, 5)),            # column, at an end
    ([(1, 1), (2, 2), (3, 3), (4, 4)], (5, 5)),            # diagonal
    ([(9, 1), (8, 2), (7, 3), (6, 4)], (5, 5)),            # the other diagonal
    ([(2, 7), (3, 7), (4, 7), (6, 7), (7, 7)], (5, 7)),    # six: freestyle wins with it
])
def test_ref_alphabeta_makes_five_on_every_line_and_with_six(line, point):
    grid = grid_with(line)
    assert ra.makes_five(grid, *point, 1)
    assert not ra.makes_five(grid, *point, 2)
    grid[line[0][1]][line[0][0]] = 2            # one stone short; the six
    assert ra.makes_five(grid, *point, 1) == (len(line) == 5)   # keeps five


def test_ref_alphabeta_candidates_are_the_empty_points_next_to_a_stone():
    stones = [(0, 0), (7, 7), (8, 7), (14, 9)]
    grid = grid_with(stones[:2], stones[2:])
    near = {(x, y) for x in range(15) for y in range(15) if not grid[y][x] and
            any(max(abs(x - sx), abs(y - sy)) == 1 for sx, sy in stones)}
    assert set(ra.candidates(grid, 1, 225)) == near


def stones_on(grid):
    return sum(1 for row in grid for v in row if v)


def traced(monkeypatch, choose, grid, me):
    """choose(grid, me) -> (its move, the stone count at each leaf, the
    widths asked of candidates())."""
    leaves, widths = [], []
    score, cands = ra.position_score, ra.candidates

    def leaf_score(g, color):
        leaves.append(stones_on(g))
        return score(g, color)

    def candidates(g, color, width):
        widths.append(width)
        return cands(g, color, width)
    monkeypatch.setattr(ra, "position_score", leaf_score)
    monkeypatch.setattr(ra, "candidates", candidates)
    move = choose(grid, me, 0, None)
    monkeypatch.undo()
    return move, leaves, widths


# a quiet middle game, black to move: no five or four anywhere
QUIET = ([(7, 7), (8, 8), (6, 8), (9, 6)], [(8, 7), (7, 8), (6, 6), (10, 10)])


def test_ref_alphabeta_searches_three_plies_five_wide_with_pruning(monkeypatch):
    grid = grid_with(*QUIET)
    move, leaves, widths = traced(monkeypatch, ra.choose, grid, 1)
    assert leaves and set(leaves) == {stones_on(grid) + 3}
    assert set(widths) == {5}
    # alpha-beta: fewer leaves than the 5 x 5 x 5 of the whole tree (each
    # leaf scores both sides)
    assert len(leaves) // 2 < 125
    assert not grid[move[1]][move[0]]


@pytest.mark.parametrize("argv, plies, width", [([], 3, 5), (["--width", "4"], 3, 4),
                                                 (["--depth", "2"], 2, 5)])
def test_ref_alphabeta_brain_searches_as_its_options_say(monkeypatch, argv, plies, width):
    served = {}
    monkeypatch.setattr(brainloop, "serve", lambda choose, name, rules: served.update(
        choose=choose, rules=rules))
    assert ra.main(argv) == 0
    grid = grid_with(*QUIET)
    _, leaves, widths = traced(monkeypatch, served["choose"], grid, 1)
    assert set(leaves) == {stones_on(grid) + plies} and set(widths) == {width}


def static(grid, move, me):
    """The leaf score, from `me`'s side, right after `me` plays `move`."""
    g = [row[:] for row in grid]
    g[move[1]][move[0]] = me
    return ra.position_score(g, me) - ra.position_score(g, 3 - me)


def test_ref_alphabeta_sees_its_double_four_at_the_third_ply():
    # (6, 7) makes two fours, each open at one end: white shuts one, black's
    # third ply makes five on the other. (11, 11) makes three open threes,
    # which scores more at one ply but wins nothing within three
    black = [(3, 7), (4, 7), (5, 7), (6, 4), (6, 5), (6, 6),
             (9, 11), (10, 11), (11, 12), (11, 13), (9, 9), (10, 10)]
    white = [(2, 7), (6, 3), (0, 0), (14, 0), (0, 14), (14, 14),
             (0, 10), (14, 5), (3, 0), (10, 14), (14, 9), (12, 0)]
    grid = grid_with(black, white)
    assert static(grid, (11, 11), 1) > static(grid, (6, 7), 1)
    assert ra.choose(grid, 1) == (6, 7)


def test_ref_alphabeta_makes_its_five_before_the_opponent_can():
    # both sides have a four; black, to move, wins at once (three plies deep
    # the search would see white's five after any other move)
    black = [(3, 7), (4, 7), (5, 7), (6, 7), (10, 0)]
    white = [(2, 7), (10, 1), (10, 2), (10, 3), (10, 4)]
    assert ra.choose(grid_with(black, white), 1) == (7, 7)
    assert ra.choose(grid_with(black + [(14, 14)], white), 2) == (10, 5)


def test_ref_alphabeta_sees_the_opponents_five_at_the_second_ply():
    # black's open three could become an open four, which scores most at
    # one ply, but white's four then makes five at (10, 5): black shuts it
    black, white = [(3, 7), (4, 7), (5, 7), (10, 0)], [(10, 1), (10, 2), (10, 3), (10, 4)]
    grid = grid_with(black, white)
    assert static(grid, (6, 7), 1) > static(grid, (10, 5), 1)
    assert ra.choose(grid, 1) == (10, 5)


# ---- tools/seed_scorer.py and tools/seed_brain.py -----------------------------

import gomoku  # noqa: E402
import seed_brain  # noqa: E402
import seed_scorer  # noqa: E402
from test_engine_ai import _game  # noqa: E402


def test_seed_scorer_three_touching_stones_score_mark_transform_3():
    # MarkTransform = {0, 100, 400, 2000, 10000}: three own stones in a row
    # touch (6, 7) and (2, 7); a gap of one splits 2 + 1 touching (2, 8)
    g = _game([(3, 7), (4, 7), (5, 7)], [(0, 0), (14, 14), (0, 14)])
    assert seed_scorer.point_score(g, 6, 7, 1) == seed_scorer.point_score(g, 2, 7, 1) == 2000
    g = _game([(0, 8), (1, 8), (3, 8)], [(0, 0), (14, 14), (0, 14)])
    assert seed_scorer.point_score(g, 2, 8, 1) == 2000


def test_seed_scorer_counts_stones_up_to_the_board_edge():
    # four own stones reaching the right and bottom edges: MarkTransform[4]
    g = _game([(11, 7), (12, 7), (13, 7), (14, 7)], [(0, 0), (0, 2), (0, 4), (0, 6)])
    assert seed_scorer.point_score(g, 10, 7, 1) == 10000
    g = _game([(7, 11), (7, 12), (7, 13), (7, 14)], [(0, 0), (0, 2), (0, 4), (0, 6)])
    assert seed_scorer.point_score(g, 7, 10, 1) == 10000


def test_seed_scorer_as_white_blocks_on_a_point_forbidden_to_black():
    # renju forbids black (7, 7), a double three; white's scorer is the
    # seed's (no renju): black's 800 there beats white's own best, and white
    # plays it, the first of equal points column by column
    black = [(5, 7), (6, 7), (7, 5), (7, 6), (0, 14)]
    white = [(0, 0), (14, 0), (14, 14), (14, 12)]
    g = gomoku.Game(gomoku.RENJU)
    for b, w in zip(black, white + [None]):
        g.play(*b)
        if w:
            g.play(*w)
    assert g.turn == 2 and g.forbidden(7, 7)
    assert seed_scorer.best_move(g) == 7 + 7 * 15


def test_seed_brain_refuses_stone_counts_that_do_not_fit_the_side_to_move():
    for black, white, me in (([(7, 7), (8, 8)], [], 1), ([(7, 7)], [], 1),
                             ([(7, 7)], [(8, 8), (9, 9)], 1), ([(7, 7)], [(8, 8)], 2)):
        grid = grid_with(black, white)
        before = [row[:] for row in grid]
        with pytest.raises(ValueError, match="stone counts do not fit the side to move"):
            seed_brain.choose(grid, me, 0)
        assert grid == before


def test_seed_brain_plays_the_scorers_move_on_a_renju_position_whatever_its_move_order():
    # legal: black played (7, 9) first and made one three at a time. Read
    # back in reading order (7, 9) comes last, where it makes a double three
    order = [(7, 9), (0, 0), (7, 7), (14, 0), (5, 9), (0, 14), (7, 8), (14, 14),
             (6, 9), (2, 0)]
    g = gomoku.Game(gomoku.RENJU)
    for x, y in order:
        g.play(x, y)
    grid = grid_with(order[0::2], order[1::2])
    m = seed_scorer.best_move(g)
    assert seed_brain.choose(grid, 1, gomoku.RENJU) == (m % 15, m // 15)


def test_seed_brain_plays_the_scorers_move_beside_an_overline_under_standard():
    # exactly five wins, so black's six in a row (the gap filled last) left
    # the game going; read back in reading order its first five would end it
    order = [(2, 7), (0, 0), (3, 7), (14, 0), (4, 7), (0, 14), (6, 7), (14, 14),
             (7, 7), (2, 0), (5, 7), (4, 0)]
    g = gomoku.Game(gomoku.STANDARD)
    for x, y in order:
        g.play(x, y)
    assert g.winner == 0
    grid = grid_with(order[0::2], order[1::2])
    m = seed_scorer.best_move(g)
    assert seed_brain.choose(grid, 1, gomoku.STANDARD) == (m % 15, m // 15)


# ---- tools/gomokubench_brain.py -----------------------------------------------

import gomokubench_brain  # noqa: E402
from libs import ai as gb_ai  # noqa: E402


def served_choose(monkeypatch, module, argv):
    """The move function `module.main(argv)` hands the Gomocup loop."""
    served = {}
    monkeypatch.setattr(brainloop, "serve", lambda choose, name, rules: served.update(
        choose=choose, rules=rules))
    assert module.main(argv) == 0
    return served["choose"]


@pytest.mark.parametrize("last", [(3, 10), None])
def test_gomokubench_brain_second_move_is_gomokubench_s_diagonal_step_to_the_centre(last):
    # libs.ai.second_move: one row and one column from the lone stone,
    # towards the centre on each axis; the stone is at x 3, y 10
    choose = gomokubench_brain.make_choose("hard")
    assert choose(grid_with([(3, 10)]), 2, 0, last) == (4, 9)


def test_gomokubench_brain_runs_the_hard_setting_and_repeats_its_seeded_first_moves(monkeypatch):
    def first_moves():
        return [served_choose(monkeypatch, gomokubench_brain, ["--seed", str(s)])(
            grid_with(), 1, 0, None) for s in range(6)]
    moves = first_moves()
    assert moves == first_moves()
    assert all(abs(x - 7) <= 1 and abs(y - 7) <= 1 for x, y in moves)
    asked = []
    monkeypatch.setattr(gb_ai, "get_best_move", lambda state, depth, is_max, **kw: (
        asked.append((depth, is_max, kw)) or ((0, 0), 0)))
    choose = served_choose(monkeypatch, gomokubench_brain, [])
    assert choose(grid_with([(7, 7)], [(8, 8)]), 1, 0, (8, 8)) == (0, 0)
    # "hard": 3 plies over 12 root candidates, no random pick among them;
    # black is gomokubench's maximizing side
    assert asked == [(3, True, {"candidate_count": 12, "random_top_n": 1})]


def test_gomokubench_brain_moves_an_occupied_choice_to_the_nearest_free_point(monkeypatch):
    # gomokubench answers (row 3, column 10): x 10, y 3, where a stone is
    monkeypatch.setattr(gb_ai, "get_best_move", lambda *a, **kw: ((3, 10), 0))
    grid = grid_with([(10, 3), (2, 2)], [(9, 9)])
    x, y = gomokubench_brain.make_choose("hard")(grid, 2, 0, (2, 2))
    assert not grid[y][x] and abs(x - 10) + abs(y - 3) == 1


# ---- tools/wiring.py -----------------------------------------------------------

import wiring  # noqa: E402


def test_wiring_pico_header_pins_are_the_datasheets():
    # Raspberry Pi Pico datasheet pinout: pins 3, 8, 13, 18, 23, 28, 33 and
    # 38 are ground; 30 RUN, 35 ADC_VREF, 36 3V3(OUT), 37 3V3_EN, 39 VSYS,
    # 40 VBUS; the others carry GP0 to GP22, then GP26 to GP28, in order
    other = {3, 8, 13, 18, 23, 28, 33, 38, 30, 35, 36, 37, 39, 40}
    gpio_pins = [p for p in range(1, 41) if p not in other]
    assert wiring.PICO_PIN == dict(zip(list(range(23)) + [26, 27, 28], gpio_pins))
    assert wiring.board_pin("rp2", 26) == "GP26 (pin 31)"
    for gp in (23, 24, 25, 29):
        with pytest.raises(wiring.WiringError, match="GP%d is not on the Pico's header" % gp):
            wiring.board_pin("rp2", gp)


def test_wiring_without_a_board_or_all_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as e:
        wiring.main([])
    assert e.value.code == 2 and "give a board name or --all" in capsys.readouterr().err
