"""Search levels: forced wins, blocks, legality, seeds, allocation (CPython and unix port)."""
import pytest

import ai
import deepsearch
from engine_cases import pattern_game
import gomoku
import movepick
from brute import fives, four_points, has_vcf, position, solve
import search
import upy
import vct

LEVELS = (2, 3)

# Black to move, no open three anywhere: (6,7) or (6,8) makes a four, white's
# block is forced, and the other point then makes a double four (the
# diagonal three (4,7)-(6,9) is closed at both ends by white).
VCF_BLACK = [(3, 7), (4, 7), (5, 7), (3, 8), (4, 8), (5, 8), (6, 9), (6, 10)]
VCF_WHITE = [(2, 7), (2, 8), (6, 11), (0, 0), (3, 6), (0, 14), (14, 14), (7, 10)]


def vcf_of(g, me, nodes):
    """search.vcf for `me` with a fresh budget of `nodes`."""
    search._g[search._VCF_NODES], search._g[search._VCF_LIMIT] = 0, nodes
    return search.vcf(g, me)


def test_vcf_finds_the_forced_win_and_every_step_is_a_four():
    g = position(VCF_BLACK, VCF_WHITE)
    assert fives(g, 1) == [] and g.turn == 1
    for _ in range(6):
        m = vcf_of(g, 1, 200)
        assert m >= 0
        g.play(m % 15, m // 15)
        if g.winner:
            break
        threats = fives(g, 1)
        assert threats, "a VCF move must make a four"
        q = threats[0]
        g.play(q % 15, q // 15)       # white blocks one
        if len(threats) > 1:          # double four: black wins at the other
            q = fives(g, 1)[0]
            g.play(q % 15, q // 15)
            break
    assert g.winner == 1


def test_no_vcf_where_there_is_none():
    # black's shut threes (3..5, 7) and (10, 3..5) give it four fours, each
    # blocked on the spot, none making a second: no VCF, as a brute-force
    # search over every four (not the engine's tables) agrees
    g = position([(3, 7), (4, 7), (5, 7), (10, 3), (10, 4), (10, 5)],
                 [(2, 7), (10, 2), (0, 0), (14, 14), (0, 14), (14, 0)])
    assert g.turn == 1 and len(four_points(g, 1)) == 4 and not has_vcf(g, 1)
    assert vcf_of(g, 1, 500) == -1
    # the forced win above, for the same brute force
    assert has_vcf(position(VCF_BLACK, VCF_WHITE), 1)



def test_no_vcf_through_a_block_that_makes_the_defenders_four():
    # black's four (7,7) (diagonal (4,10)..(8,6)) is blocked at (6, 8), which
    # gives white the four (4,6) (5,7) (6,8) (7,9): black must answer at
    # (3, 5), no four of its own, and its other fours ((8,8)/(8,9) down
    # column 8, (2,9)/(3,9) across row 9) win nothing: no VCF
    black = [(5, 5), (5, 9), (5, 4), (6, 9), (8, 4), (4, 10), (8, 7), (4, 5), (8, 6), (4, 9),
             (8, 10)]
    white = [(10, 5), (5, 7), (4, 8), (6, 7), (7, 6), (9, 8), (7, 9), (4, 6), (10, 7), (8, 5),
             (9, 6)]
    g = position(black, white)
    assert g.turn == 1 and fives(g, 1) == [] and fives(g, 2) == []
    g.play(7, 7)
    assert fives(g, 1) == [8 * 15 + 6]
    g.play(6, 8)
    assert fives(g, 2) == [5 * 15 + 3]
    g.play(3, 5)
    assert fives(g, 1) == []
    g.undo()
    g.undo()
    g.undo()
    assert vcf_of(g, 1, 500) == -1


def test_no_vcf_through_a_block_that_makes_the_defenders_open_four():
    # black's four (7,6) down column 7 is blocked at (7,7), which makes
    # white's open four (4..7, 7). Black can shut one end only, and (8,7)
    # does so with a double four: won, were white's other five point (3,7)
    # not played first. (8,7) at once is one four, whose block (8,6) gives
    # white the four (8,3)-(8,6) to answer at (8,2), no four: no VCF at all
    black = [(7, 3), (7, 4), (7, 5), (9, 8), (10, 9), (8, 8), (8, 9), (8, 10)]
    white = [(7, 2), (4, 7), (5, 7), (6, 7), (8, 11), (8, 3), (8, 4), (8, 5)]
    g = position(black, white)
    assert g.turn == 1 and fives(g, 1) == [] and fives(g, 2) == []
    g.play(7, 6)
    assert fives(g, 1) == [7 * 15 + 7]
    g.play(7, 7)
    assert fives(g, 2) == [7 * 15 + 3, 7 * 15 + 8]
    g.play(8, 7)
    assert len(fives(g, 1)) == 3                # a double four, too late
    g.play(3, 7)
    assert g.winner == 2
    for _ in range(4):
        g.undo()
    g.play(8, 7)
    assert fives(g, 1) == [6 * 15 + 8]
    g.play(8, 6)
    assert fives(g, 2) == [2 * 15 + 8]
    g.play(8, 2)
    assert fives(g, 1) == []
    for _ in range(3):
        g.undo()
    assert vcf_of(g, 1, 500) == -1


@pytest.mark.parametrize("level", LEVELS)
def test_levels_convert_the_vcf_against_a_defender(level):
    g = position(VCF_BLACK, VCF_WHITE)
    ai.seed(3)
    for _ in range(8):
        m = ai.best_move(g, level)
        g.play(m % 15, m // 15)
        if g.winner:
            break
        m = ai.best_move(g, 2)       # white defends with the search
        g.play(m % 15, m // 15)
        if g.winner:
            break
    assert g.winner == 1


@pytest.mark.parametrize("level", LEVELS)
def test_blocks_a_four_and_takes_a_five(level):
    # black's four on row 7 (x 4..7), closed at x 3: its only five is (8, 7)
    g = position([(4, 7), (5, 7), (6, 7), (7, 7)], [(3, 7), (0, 0), (14, 14)])
    assert g.turn == 2
    assert ai.best_move(g, level) == 7 * 15 + 8      # white blocks
    g.play(12, 12)
    assert ai.best_move(g, level) == 7 * 15 + 8      # black takes the five


@pytest.mark.parametrize("level", (2, 3))
@pytest.mark.parametrize("seed", (1, 2, 3))
def test_white_defuses_blacks_double_three_point(level, seed):
    # (7,8) joins (7,6),(7,7) and (5,8),(6,8) into two open threes; white has
    # no four, so it must take that point or close one of the two lines
    g = position([(7, 6), (7, 7), (5, 8), (6, 8)], [(1, 1), (13, 1), (1, 13)])
    assert g.turn == 2
    ai.seed(seed)
    m = ai.best_move(g, level)
    assert (m % 15, m // 15) in ((7, 8), (7, 5), (7, 9), (4, 8), (8, 8))


@pytest.mark.parametrize("level", (2, 3))
def test_white_blocks_an_open_three_it_cannot_outpace(level):
    # black's open three (5..7, 7) with white holding no three: white closes
    # it next to it. A far block, (3, 7) or (9, 7), leaves black the
    # straight four 5..8 or 4..7
    g = position([(5, 7), (6, 7), (7, 7)], [(1, 1), (13, 13)])
    assert g.turn == 2
    for s in range(1, 9):
        ai.seed(s)
        m = ai.best_move(g, level)
        assert (m % 15, m // 15) in ((4, 7), (8, 7)), s


def test_level2_when_behind_reads_a_third_ply_to_choose_its_block(monkeypatch):
    # black's open three (5,7)-(5,9): blocking at (5,6) lets black win by
    # continuous threats, (5,10) does not. Telling them apart takes a third
    # ply, which level 2 reads when it stands worse (white here)
    g = position([(5, 7), (5, 8), (6, 7), (4, 9), (5, 9)], [(7, 8), (9, 7), (4, 7), (7, 6)])
    for x, y, lost in ((5, 6, True), (5, 10, False)):
        g.play(x, y)
        assert (vct.search(g, 1, 8, 12, 30000, 3000) >= 0) == lost
        g.undo()
    # search's own functions, not ai's: the app's tests may have reloaded
    # the module ai imports, and the patch below is on this one
    for s in (1, 2, 3, 4):
        search.seed(s)
        assert search.best_move(g, 2) == 10 * 15 + 5
    monkeypatch.setattr(search, "_L2", search._L2[:4] + (0,) + search._L2[5:])  # no third ply
    search.seed(1)
    assert search.best_move(g, 2) == 6 * 15 + 5


@pytest.mark.parametrize("level", (2, 3))
def test_renju_black_avoids_its_double_three(level):
    # (8,8) joins (6,8),(7,8) and (8,6),(8,7) into two open threes: forbidden
    g = position([(6, 8), (7, 8), (8, 6), (8, 7)],
                 [(0, 0), (14, 0), (0, 14), (14, 14)], rule=gomoku.RENJU)
    assert g.turn == 1 and g.forbidden(8, 8)
    m = ai.best_move(g, level)
    assert m != 8 * 15 + 8
    assert not g.forbidden(m % 15, m // 15)


@pytest.mark.parametrize("level", (1, 2, 3))
def test_renju_black_whose_only_block_is_forbidden_still_plays_a_legal_move(level):
    # white's four (9..12, 9..12), shut at (13, 13), has its five on black's
    # double-three point (8, 8): black is lost, and must still move legally
    g = position([(6, 8), (7, 8), (8, 6), (8, 7), (13, 13)],
                 [(9, 9), (10, 10), (11, 11), (12, 12), (0, 0)], rule=gomoku.RENJU)
    assert g.turn == 1 and fives(g, 2) == [8 * 15 + 8] and g.forbidden(8, 8)
    m = ai.best_move(g, level)
    assert g.stone(m % 15, m // 15) == 0 and not g.forbidden(m % 15, m // 15)
    # the same at the top edge, where a lost side's fallback move (the first
    # free point in board order) would be the forbidden one: (0, 0) and
    # (1, 0) are taken, and (2, 0), white's five down column 2, joins
    # black's row 0 into six
    g = position([(0, 0), (1, 0), (3, 0), (4, 0), (5, 0), (2, 5)],
                 [(2, 1), (2, 2), (2, 3), (2, 4), (14, 14), (14, 12)], rule=gomoku.RENJU)
    assert g.turn == 1 and fives(g, 2) == [2] and g.forbidden(2, 0)
    m = ai.best_move(g, level)
    assert g.stone(m % 15, m // 15) == 0 and not g.forbidden(m % 15, m // 15)


@pytest.mark.parametrize("level", LEVELS)
def test_a_side_lost_to_every_move_still_moves(level):
    # black's two open threes: white, with no four, cannot stop both, and
    # level 3's guard finds black's win after every candidate
    g = position([(3, 3), (4, 3), (5, 3), (3, 9), (4, 9), (5, 9)],
                 [(12, 12), (12, 0), (0, 12), (14, 6), (9, 14)])
    assert g.turn == 2 and fives(g, 1) == [] and fives(g, 2) == []
    m = ai.best_move(g, level)
    assert 0 <= m < 225 and g.stone(m % 15, m // 15) == 0


@pytest.mark.parametrize("level", (1, 2, 3))
def test_white_does_not_block_what_renju_forbids_black(level):
    # black (2..5, 7) and (7, 7), its left end shut: (6, 7) joins six. In
    # freestyle that wins for black and white must block it; under renju it
    # is an overline, forbidden, and white makes its own open four instead
    black = [(2, 7), (3, 7), (4, 7), (5, 7), (7, 7), (12, 1)]
    white = [(1, 7), (5, 11), (6, 11), (7, 11), (0, 0), (14, 0)]
    for rule, want in ((gomoku.FREESTYLE, {6 + 7 * 15}),
                       (gomoku.RENJU, {4 + 11 * 15, 8 + 11 * 15})):
        g = position(black, white, rule)
        assert g.turn == 1
        g.play(14, 14)                      # black passes the move to white
        assert g.forbidden(6, 7) == (rule == gomoku.RENJU)
        assert ai.best_move(g, level) in want, (rule, level)


def boxed_endgame():
    """Renju, white to move, four points free: (3, 0), (3, 1), (3, 13) and
    (3, 14). Rows 0, 13 and 14 read B B B . B B, so black may not take the
    free point in any of them (an overline), and column 3 holds two white
    threes, rows 2-4 and 10-12. White's (3, 0) is a four, black blocks at
    (3, 1), and either four white makes next leaves black no point: a draw.
    White's (3, 13) or (3, 14) is a four whose five point is forbidden to
    black while (3, 1) is still black's: a win. (9, 2), (9, 6), (9, 10) and
    (11, 3) turn white to keep the count."""
    return pattern_game(gomoku.RENJU, black=[(2, 0), (2, 14), (0, 13), (1, 13), (4, 13), (5, 13)],
                        white=[(3, 3), (3, 11), (9, 2), (9, 6), (9, 10), (11, 3)],
                        free=[(3, 0), (3, 1), (3, 13), (3, 14)])[0]


@pytest.mark.parametrize("level", LEVELS)
def test_renju_searches_score_black_left_no_point_as_a_draw_not_a_win(level):
    g = boxed_endgame()
    assert g.turn == 2 and g.winner == 0 and fives(g, 2) == []
    won = []
    for x, y in ((3, 0), (3, 1), (3, 13), (3, 14)):
        g.play(x, y)
        if solve(g) == -1:
            won.append(y * 15 + x)
        g.undo()
    assert won == [3 + 13 * 15, 3 + 14 * 15]
    assert vcf_of(g, 2, 200) in won
    assert vct.search(g, 2, 4, 10, 400, 40) in won
    m = ai.best_move(g, level)
    assert m in won
    g.play(m % 15, m // 15)
    g.play(3, 1)                            # black's one legal point
    m = ai.best_move(g, level)
    assert g.play(m % 15, m // 15) == 2


def level2_leaf(g):
    """search._leaf for the side to move at ply 1, as level 2 sets it up."""
    G = search._g
    L = search._L2
    G[search._WIDTH], G[search._REPLY_WIDTH], G[search._PLY3_WIDTH] = L[0], L[3], L[6]
    G[search._NODES] = 0
    return search._leaf(g, g.turn, 1)


def test_renju_search_leaves_value_black_left_no_point_at_0():
    # the draw of the boxed endgame, met inside a search: black to move with
    # no point, beside white's five point (3, 14), which black may not block
    g = boxed_endgame()
    for x, y in ((3, 0), (3, 1), (3, 13)):
        g.play(x, y)
    assert g.winner == 3 and g.turn == 1 and fives(g, 2) == [3 + 14 * 15]
    assert level2_leaf(g) == 0
    assert level3_ab(g, 1)[0] == 0
    # white's winning line instead: (3, 13), black's forced (3, 1), and
    # white to move with its five to play
    for _ in range(3):
        g.undo()
    g.play(3, 13)
    g.play(3, 1)
    assert g.winner == 0 and g.turn == 2
    assert level2_leaf(g) > 29000 and level3_ab(g, 1)[0] > 29000


@pytest.mark.parametrize("rule", (gomoku.FREESTYLE, gomoku.STANDARD, gomoku.RENJU))
def test_search_games_only_play_legal_points(rule):
    g = gomoku.Game(rule)
    for x, y in ((7, 7), (8, 8), (6, 8)):
        g.play(x, y)
    ai.seed(rule + 1)
    level = {1: 3, 2: 2}
    while not g.winner and g.moves < 50:
        m = ai.best_move(g, level[g.turn])
        x, y = m % 15, m // 15
        assert 0 <= m < 225 and g.stone(x, y) == 0
        if g.turn == 1:
            assert not g.forbidden(x, y)
        g.play(x, y)


def play_line(seed, level=2, plies=24):
    g = gomoku.Game()
    for x, y in ((7, 7), (8, 7)):
        g.play(x, y)
    ai.seed(seed)
    line = []
    while not g.winner and len(line) < plies:
        m = ai.best_move(g, level)
        line.append(m)
        g.play(m % 15, m // 15)
    return line


@pytest.mark.parametrize("level,plies", ((2, 24), (3, 4)))
def test_a_seed_makes_the_game_repeatable_and_seeds_vary_it(level, plies):
    a = play_line(11, level, plies)
    assert play_line(11, level, plies) == a
    # another seed plays another line; a third is played only if the
    # second chose the same moves (level 3's lines take seconds)
    assert any(play_line(s, level, plies) != a for s in (1, 2))


ROOT_VCF_GAME = [112, 113, 98, 84, 97, 99, 85, 127, 69, 155, 141, 125, 55, 83, 53, 101, 52, 54,
                 37, 21, 70, 100]


def root_of(g):
    """search.root for the side to move, with level 2's width and VCF limit."""
    search._g[search._WIDTH] = search._L2[0]
    search._g[search._VCF_NODES], search._g[search._VCF_LIMIT] = 0, search._L2[1]
    n = search.root(g, g.turn)
    return n, search._g[search._POINT]


def test_root_plays_forced_moves_and_a_vcf_without_searching():
    four = position([(3, 7), (4, 7), (5, 7), (6, 7)], [(2, 7), (0, 0), (14, 14), (0, 14)])
    assert root_of(four) == (-1, 7 * 15 + 7)          # black: the five
    four.undo()
    assert root_of(four) == (-1, 7 * 15 + 7)          # white: the block
    # black's open three against white's shut three: the straight four
    g = position([(4, 7), (5, 7), (6, 7), (9, 12)], [(10, 12), (11, 12), (12, 12), (0, 0)])
    n, p = root_of(g)
    assert n == -1 and p in (3 + 7 * 15, 7 + 7 * 15)
    # from a level-2 game: black has fours, no sure threat, and a VCF
    g = gomoku.Game()
    for p in ROOT_VCF_GAME:
        g.play(p % 15, p // 15)
    want = vcf_of(g, 1, search._L2[1])
    assert want >= 0 and root_of(g) == (-1, want)
    assert search._g[search._STATUS] == search._S_QUIET
    assert search.best_move(g, 2) == want
    n, _ = root_of(position([(7, 7), (8, 8)], [(0, 0), (14, 14)]))
    assert n >= 2


@pytest.mark.parametrize("level", LEVELS)
def test_search_levels_open_in_the_centre(level):
    assert ai.best_move(gomoku.Game(), level) == 7 * 15 + 7


FIRST_STONES = ((7, 7), (0, 0), (7, 0), (10, 6), (14, 14), (3, 12))


def first_replies(level, seeds=range(60)):
    """{lone black stone: the set of replies over the seeds}"""
    out = {}
    for x, y in FIRST_STONES:
        out[(x, y)] = set()
        for n in seeds:
            ai.seed(n)
            g = gomoku.Game(gomoku.RENJU)
            g.play(x, y)
            m = ai.best_move(g, level)
            out[(x, y)].add((m % 15, m // 15))
    return out


@pytest.mark.parametrize("level", [2, 3])
def test_search_levels_answer_a_lone_stone_beside_it_nearest_the_centre(level):
    """Not three points away, where the search's values cannot tell the
    points apart: the reply touches the stone, on the points round it
    nearest the centre, the seed choosing among them."""
    assert first_replies(level) == {
        (7, 7): {(6, 6), (7, 6), (8, 6), (6, 7), (8, 7), (6, 8), (7, 8), (8, 8)},
        (0, 0): {(1, 1)},
        (7, 0): {(6, 1), (7, 1), (8, 1)},
        (10, 6): {(9, 5), (9, 6), (9, 7)},
        (14, 14): {(13, 13)},
        (3, 12): {(3, 11), (4, 11)}}
    ai.seed(5)
    g = gomoku.Game()
    g.play(7, 7)
    m = ai.best_move(g, level)
    ai.seed(5)
    assert ai.best_move(g, level) == m


def test_the_first_reply_allocates_nothing_on_the_unix_port():
    out = upy.run("""
import gomoku, search, deepsearch, micropython
deepsearch.prepare(3)
g = gomoku.Game(0)
g.play(7, 0)
out = []
m = 0
for n in range(12):
    search.seed(n)
    micropython.heap_lock()
    m = search.best_move(g, 2)
    micropython.heap_unlock()
    out.append(m)
print(' '.join(str(m) for m in sorted(set(out))))
""", heapsize="96k")
    assert out.split() == ["21", "22", "23"]


def test_seeds_give_distinct_random_streams():
    states = set()
    for n in range(2000):
        search.seed(n)
        states.add(search._g[movepick._PRNG])
    assert len(states) == 2000


# a level-2 game in which level 3, to move, runs into its node limit
NODE_LIMIT_GAME = [112, 113, 128, 144, 142, 127, 141, 114, 140, 139, 126, 154]


def test_level3_stops_at_its_node_limit():
    g = gomoku.Game()
    for p in NODE_LIMIT_GAME:
        g.play(p % 15, p // 15)
    depth, width, nodes, vcf_nodes = deepsearch._LV[0][:4]
    m = deepsearch.best_move(g, 3)
    assert deepsearch._g[deepsearch._STOP] == 1
    # the limit is checked before each node; a VCF probe may run past it
    assert nodes <= deepsearch._g[deepsearch._NODES] <= nodes + vcf_nodes
    assert g.stone(m % 15, m // 15) == 0


def level3_ab(g, ply, new_search=True, alpha=-30001, beta=30001):
    """deepsearch._ab for the side to move at `ply`, depth 2, as a search
    sets it up; a new search starts a new TT generation. (value, nodes)."""
    G = deepsearch._g
    deepsearch.prepare(3)
    if new_search:
        deepsearch._lv[1] = deepsearch._lv[1] % 63 + 1
    G[deepsearch._HASH] = deepsearch.hash_of(g)
    G[deepsearch._NODES], G[deepsearch._NODE_LIMIT], G[deepsearch._STOP] = 0, 100000, 0
    G[deepsearch._WIDTH] = 8
    G[deepsearch._VCF_NODES], G[deepsearch._VCF_LIMIT] = 0, 20
    v = deepsearch._ab(g, g.turn, 2, alpha, beta, ply)
    return v, G[deepsearch._NODES]


def test_level3_tt_keeps_mate_scores_true_at_any_ply():
    # white to move against black's two open threes: lost whatever it
    # plays, the loss one ply further off for each ply deeper it is met
    g = position([(3, 3), (4, 3), (5, 3), (3, 9), (4, 9), (5, 9)],
                 [(12, 12), (12, 0), (0, 12), (14, 6), (9, 14)])
    assert g.turn == 2 and fives(g, 1) == [] and fives(g, 2) == []
    v1, n1 = level3_ab(g, 1)
    v3, n3 = level3_ab(g, 3)
    assert v1 < -29000 and v3 == v1 + 2 and n1 == n3 > 1
    # the ply-3 result stored, the same position met at ply 1 in the same
    # search: one node (a TT hit), and the ply-1 value
    assert level3_ab(g, 1, new_search=False) == (v1, 1)


def planted(g, depth, flag, value, alpha, beta, generation=0):
    """deepsearch._ab at depth 2 over a window, after a false `value` was put
    in the TT for this position (`generation` searches ago): (value, nodes).
    One node and the false value: the search trusted the entry."""
    deepsearch.prepare(3)
    gen = deepsearch._lv[1] = deepsearch._lv[1] % 63 + 1
    deepsearch._lv[1] = (gen - 1 - generation) % 63 + 1
    deepsearch._ttput(deepsearch.hash_of(g), depth, flag, value, 255)
    deepsearch._lv[1] = gen
    return level3_ab(g, 1, False, alpha, beta)


@pytest.mark.parametrize("depth, flag, alpha, beta, trusted", [
    (2, 1, -30001, 30001, True),     # exact, deep enough: any window
    (1, 1, -30001, 30001, False),    # exact but shallower than asked
    (2, 2, 500, 1234, True),         # a lower bound at beta or above
    (2, 2, 1000, 2000, False),       # a lower bound inside the window
    (2, 3, 1234, 2000, True),        # an upper bound at alpha or below
    (2, 3, 1000, 2000, False),       # an upper bound inside the window
])
def test_level3_tt_uses_an_entry_only_where_its_bound_decides(depth, flag, alpha, beta, trusted):
    g = gomoku.Game()
    for p in NODE_LIMIT_GAME:
        g.play(p % 15, p // 15)
    false = 1234
    v, nodes = planted(g, depth, flag, false, alpha, beta)
    assert ((v, nodes) == (false, 1)) is trusted
    if not trusted:
        assert nodes > 1


def test_level3_tt_ignores_entries_of_an_earlier_search():
    g = gomoku.Game()
    for p in NODE_LIMIT_GAME:
        g.play(p % 15, p // 15)
    assert planted(g, 2, 1, 1234, -30001, 30001, generation=1)[1] > 1


def test_level3_tt_keeps_the_deeper_result_of_a_position():
    h = 123456789
    deepsearch.prepare(3)
    deepsearch._lv[1] = deepsearch._lv[1] % 63 + 1
    deepsearch._ttput(h, 4, 1, 700, 17)
    deepsearch._ttput(h, 2, 3, -50, 18)      # shallower: the deeper stays
    j = deepsearch._ttget(h)
    T = deepsearch._tt
    assert j >= 0 and T[j + 3] == 4 and T[j + 7] == 17
    deepsearch._ttput(h, 5, 2, 900, 19)      # deeper: replaces
    assert T[j + 3] == 5 and T[j + 7] == 19
    deepsearch._ttput(h, 5, 3, 800, 21)      # as deep, and newer: replaces
    assert T[j + 3] == 5 and T[j + 7] == 21
    other = h + (len(T) >> 3)                # the same slot, another position
    deepsearch._ttput(other, 1, 1, 0, 20)
    assert deepsearch._ttget(h) == -1 and deepsearch._ttget(other) == j


def test_level3_move_does_not_depend_on_earlier_searches():
    # the TT of one search is not read by the next: the same position and
    # seed give the same move from the same number of nodes
    g = gomoku.Game()
    for p in NODE_LIMIT_GAME:
        g.play(p % 15, p // 15)
    G = deepsearch._g
    runs = []
    for _ in range(2):
        search.seed(5)
        m = deepsearch.best_move(g, 3)
        runs.append((m, G[deepsearch._NODES]))
    assert runs[0] == runs[1]


def test_zobrist_keys_are_distinct_30_bit_small_ints():
    keys = {deepsearch._zk(p, c) for p in range(225) for c in (1, 2)}
    assert len(keys) == 450
    assert all(0 <= k < (1 << 30) for k in keys)


def test_levels_are_fixed_and_bad_levels_refused():
    assert deepsearch.levels() == (3,)
    g = gomoku.Game()
    g.play(7, 7)
    with pytest.raises(ValueError):
        search.best_move(g, 1)
    with pytest.raises(ValueError):
        deepsearch.prepare(9)


UPY_CHECK = """
import gomoku, search, deepsearch, micropython
def pos(b, w):
    g = gomoku.Game(0)
    for i in range(len(b)):
        g.play(b[i][0], b[i][1])
        if i < len(w):
            g.play(w[i][0], w[i][1])
    return g
g = pos(%r, %r)
search.seed(3)
out = []
m = v = b = 0          # globals exist before the heap is locked
for lv in (2, 3):
    deepsearch.prepare(max(lv, 3))
    micropython.heap_lock()
    m = search.best_move(g, lv)
    micropython.heap_unlock()
    out.append(m)
search._g[2] = 0        # _VCF_NODES, _VCF_LIMIT: folded consts on MicroPython
search._g[3] = 200
micropython.heap_lock()
v = search.vcf(g, 1)
micropython.heap_unlock()
g2 = pos([(4, 7), (5, 7), (6, 7), (7, 7)], [(3, 7), (0, 0), (14, 14)])
micropython.heap_lock()
b = search.best_move(g2, 2)
micropython.heap_unlock()
print(str(out).replace(' ', ''), v, b)
"""


def test_unix_port_same_moves_with_the_heap_locked():
    # every level moves under heap_lock (no allocation) and plays exactly
    # the move CPython plays: a level is fixed limits, not a clock
    out = upy.run(UPY_CHECK % (VCF_BLACK, VCF_WHITE), heapsize="96k")
    g = position(VCF_BLACK, VCF_WHITE)
    search.seed(3)
    want = [search.best_move(g, lv) for lv in (2, 3)]
    v = vcf_of(g, 1, 200)
    assert v >= 0
    g2 = position([(4, 7), (5, 7), (6, 7), (7, 7)], [(3, 7), (0, 0), (14, 14)])
    assert out.split() == (str(want).replace(" ", "") + " %d %d" % (v, 7 * 15 + 8)).split()
    assert search.best_move(g2, 2) == 7 * 15 + 8
