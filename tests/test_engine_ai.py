"""Level 1 against the seed's own scorer, and the reference player itself."""
import sys
from pathlib import Path

import ai
import gomoku
import upy

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import seed_scorer  # noqa: E402
import engine_match  # noqa: E402


def test_level1_beats_the_seed_scorer():
    wins, games, lost = engine_match.match(range(100, 103))
    assert games == 6
    assert wins >= 5, lost


def test_level1_beats_the_seed_scorer_under_standard_and_renju():
    for rule in (gomoku.STANDARD, gomoku.RENJU):
        wins, games, lost = engine_match.match([7], rule)
        assert wins == games, (rule, lost)


def _game(black, white):
    g = gomoku.Game()
    for b, w in zip(black, white + [None]):
        g.play(*b)
        if w:
            g.play(*w)
    return g


def test_seed_scorer_scores_like_the_seed():
    g = _game([(7, 7), (8, 7)], [(0, 0), (0, 14)])
    # two own stones in a row touch (9, 7) and (6, 7): MarkTransform[2]
    assert seed_scorer.point_score(g, 9, 7, 1) == 400
    assert seed_scorer.point_score(g, 6, 7, 1) == 400
    # (8, 8): one stone above, one on the diagonal: 100 + 100
    assert seed_scorer.point_score(g, 8, 8, 1) == 200
    assert seed_scorer.point_score(g, 12, 12, 1) == 0
    # touching stones only: a gap stops the count
    g = _game([(5, 5), (7, 5)], [(0, 0), (14, 14)])
    assert seed_scorer.point_score(g, 6, 5, 1) == 400
    assert seed_scorer.point_score(g, 8, 5, 1) == 100
    # three and three touching the gap: six stones count as 4 at most
    g = _game([(2, 10), (3, 10), (4, 10), (6, 10), (7, 10), (8, 10)],
              [(0, 0), (14, 14), (0, 14), (14, 0), (0, 2), (2, 0)])
    assert seed_scorer.point_score(g, 5, 10, 1) == 10000


def test_seed_scorer_attacks_unless_the_opponent_scores_more():
    assert seed_scorer.best_move(gomoku.Game()) == 7 * 15 + 7
    # black to move, black's best 400 (two in a row) vs white's 2000 (three)
    g = _game([(7, 7), (8, 7), (0, 7)], [(3, 3), (3, 4), (3, 5)])
    m = seed_scorer.best_move(g)
    assert m in (3 + 2 * 15, 3 + 6 * 15)
    # equal maxima: the own point stays (a strict > replaces it)
    g = _game([(7, 7), (8, 7)], [(3, 3), (3, 4)])
    m = seed_scorer.best_move(g)
    assert m in (6 + 7 * 15, 9 + 7 * 15)
    # column by column: the first of equal own points in x-major order
    assert m == 6 + 7 * 15


def test_seed_seeds_the_search_levels_and_is_kept():
    # ai.seed(n) restarts the search's choice among near-equal moves from
    # n's state whatever was drawn before, a different n from another; SEED
    # keeps n for the device's tests to read back
    import movepick
    import search
    ai.seed(1234)
    state = search._g[movepick._PRNG]
    assert ai.SEED[0] == 1234
    movepick._rand()
    assert search._g[movepick._PRNG] != state
    ai.seed(1234)
    assert search._g[movepick._PRNG] == state
    ai.seed(1235)
    assert search._g[movepick._PRNG] != state and ai.SEED[0] == 1235


SEED_REFUSED = """
import ai, search
ai.seed(7)
state = list(search._g)         # the PRNG's state is a slot of it
for bad in (1.5, '3', None):
    try:
        ai.seed(bad)
        print('taken', bad)
    except TypeError:
        pass
print(ai.SEED[0], list(search._g) == state)
"""


def test_a_seed_that_is_not_an_int_is_refused_and_changes_nothing(capsys):
    exec(SEED_REFUSED, {})
    assert capsys.readouterr().out == "7 True\n"
    assert upy.run(SEED_REFUSED) == "7 True\n"


def test_every_offered_level_answers_with_a_legal_move():
    assert ai.LEVELS[0] == 1
    g = _game([(7, 7), (8, 8)], [(7, 8)])
    for level in ai.LEVELS:
        m = ai.best_move(g, level)
        assert 0 <= m < 225 and g.stone(m % 15, m // 15) == 0, level


def test_level1_answers_a_lone_stone_where_the_game_is():
    # every quiet point ties: the reply must be near the stone, not the
    # first point found (it once answered the centre with (4, 4))
    g = gomoku.Game()
    g.play(7, 7)
    m = ai.best_move(g, 1)
    assert max(abs(m % 15 - 7), abs(m // 15 - 7)) == 1, m
    for x, y in ((3, 11), (0, 0), (14, 2)):
        g = gomoku.Game()
        g.play(x, y)
        m = ai.best_move(g, 1)
        assert 1 <= max(abs(m % 15 - x), abs(m // 15 - y)) <= 4, (x, y, m)


def test_seed_scorer_counts_up_to_four_on_one_side():
    g = _game([(3, 7), (4, 7), (5, 7), (6, 7)], [(0, 0), (14, 14), (0, 14), (14, 0)])
    assert seed_scorer.point_score(g, 7, 7, 1) == 10000         # MarkTransform[4]
    assert seed_scorer.point_score(g, 2, 7, 1) == 10000


def test_seed_scorer_scans_column_by_column():
    # white to move, its two lone stones tie (100) at many points: the first
    # in x-major order is (1, 9), next to (2, 10); row-major would be (9, 1)
    g = _game([(14, 0), (0, 14), (14, 14)], [(2, 10), (10, 2)])
    assert seed_scorer.best_move(g) == 1 + 9 * 15


def test_seed_scorer_skips_blacks_forbidden_point_under_renju():
    # (7, 7) scores most for black (two twos: 800) but is a double three
    black, white = [(5, 7), (6, 7), (7, 5), (7, 6)], [(0, 0), (14, 0), (0, 14), (14, 14)]
    assert seed_scorer.best_move(_game(black, white)) == 7 + 7 * 15
    g = gomoku.Game(gomoku.RENJU)
    for b, w in zip(black, white):
        g.play(*b)
        g.play(*w)
    assert g.forbidden(7, 7)
    m = seed_scorer.best_move(g)
    assert m != 7 + 7 * 15 and not g.forbidden(m % 15, m // 15)
