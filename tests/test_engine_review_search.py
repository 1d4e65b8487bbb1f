"""Review of the search modules (candscan, vcf, movepick, search, ai): what
their contract promises whatever the strength: legal moves only (never an
occupied point, never one renju forbids black), forced wins and blocks
found, the tables as they were after a search, node budgets kept, a seed's
game repeatable. Positions are built so that the rules alone decide what
is right (CPython)."""
import pytest

import ai
import candscan
import gomoku
import mcu_firmware
import movepick
import search
import vcf
from brute import fives, four_points, position, replay, state
from engine_cases import expect_error, pattern_game
from movepick import pick

# renju: (8, 8) joins (6, 8), (7, 8) and (8, 6), (8, 7) into two open
# threes, forbidden to black
DOUBLE3 = [(6, 8), (7, 8), (8, 6), (8, 7)]


def legal(g, m):
    """m is a free point on the board, and not forbidden to black."""
    if not 0 <= m < 225:
        return False
    x, y = m % 15, m // 15
    return g.stone(x, y) == 0 and not (g.turn == 1 and g.forbidden(x, y))


@pytest.mark.parametrize("level", (1, 2, 3))
def test_renju_black_lost_to_an_open_four_still_plays_a_legal_move(level):
    # white's open four (4..7, 4..7) has two fives, (3, 3) and (8, 8); the
    # second, later in board order, is black's double-three point. Black is
    # lost, and must still move legally: on (3, 3), which leaves white one
    # five to find
    g = position(DOUBLE3, [(4, 4), (5, 5), (6, 6), (7, 7)], rule=gomoku.RENJU)
    assert g.turn == 1 and fives(g, 2) == [3 * 15 + 3, 8 * 15 + 8] and g.forbidden(8, 8)
    assert ai.best_move(g, level) == 3 * 15 + 3


def test_renju_black_search_meets_a_four_it_may_not_block():
    # white's (9, 9) would make the four (9..12, 9..12), shut by black at
    # (13, 13), whose five (8, 8) is black's double-three point: inside
    # black's search that reply leaves black a block it may not play, which
    # is a loss to score, not a move to try
    g = position(DOUBLE3 + [(13, 13)], [(10, 10), (11, 11), (12, 12), (0, 0), (14, 0)],
                 rule=gomoku.RENJU)
    assert g.turn == 1 and g.forbidden(8, 8) and fives(g, 2) == []
    g.play(14, 14)                      # were black to pass, white's (9, 9)
    g.play(9, 9)
    assert fives(g, 2) == [8 * 15 + 8]
    g.undo()
    g.undo()
    before = state(g)
    for level in (2, 3):
        ai.seed(level)
        assert legal(g, ai.best_move(g, level)), level
        assert state(g) == before, level


def leaf(g, ply, ply3=3):
    """search._leaf for the side to move at `ply`, with level 2's widths."""
    G = search._g
    L = search._L2
    G[search._WIDTH], G[search._REPLY_WIDTH], G[search._PLY3_WIDTH] = L[0], L[3], ply3
    G[search._NODES] = 0
    return search._leaf(g, g.turn, ply)


def test_renju_deep_leaf_does_not_block_an_open_three_on_blacks_forbidden_point():
    # white's open three (9..11, 9..11): its strongest block, (8, 8), is
    # black's double-three point. Deep in the search (ply 3, where an open
    # three is blocked, not searched) black must not play it out there
    g = position(DOUBLE3 + [(1, 13)], [(9, 9), (10, 10), (11, 11), (0, 0), (14, 0)],
                 rule=gomoku.RENJU)
    assert g.turn == 1 and g.forbidden(8, 8) and fives(g, 2) == []
    before = state(g)
    v = leaf(g, 3)
    assert -search._BIG < v < search._BIG
    assert state(g) == before


# Black to move, no open three anywhere: (6,7) or (6,8) makes a four, white's
# block is forced, and the other point then makes a double four (as in
# test_search_tactics)
VCF_BLACK = [(3, 7), (4, 7), (5, 7), (3, 8), (4, 8), (5, 8), (6, 9), (6, 10)]
VCF_WHITE = [(2, 7), (2, 8), (6, 11), (0, 0), (3, 6), (0, 14), (14, 14), (7, 10)]


def vcf_of(g, me, nodes):
    """vcf for `me` with a fresh budget of `nodes`: (move, nodes used)."""
    G = search._g
    G[search._VCF_NODES], G[search._VCF_LIMIT] = 0, nodes
    return vcf.vcf(g, me), G[search._VCF_NODES]


def test_vcf_keeps_its_node_budget_and_finds_nothing_else_short_of_it():
    g = position(VCF_BLACK, VCF_WHITE)
    before = state(g)
    win, used = vcf_of(g, 1, 500)
    assert win >= 0 and used > 0
    assert vcf_of(g, 1, 0) == (-1, 0)          # no budget: no move tried
    for limit in range(used + 3):
        m, n = vcf_of(g, 1, limit)
        assert n <= limit, (limit, n)
        # the search is in a fixed order: cut short, it finds that win or none
        assert m == (win if limit >= used else -1), (limit, m)
        assert state(g) == before


def test_renju_vcf_never_plays_blacks_double_four():
    # black's shut threes (3..5, 7) and (6, 4..6) cross at (6, 7): a double
    # four, freestyle's one winning move, and forbidden under renju. There
    # black's other fours, (7, 7) and (6, 8), are each blocked at (6, 7),
    # which leaves black no four at all: no VCF
    black = [(3, 7), (4, 7), (5, 7), (6, 4), (6, 5), (6, 6)]
    white = [(2, 7), (6, 3), (0, 0), (14, 0), (0, 14), (14, 14)]
    g = position(black, white)
    assert g.turn == 1 and fives(g, 1) == [] and four_points(g, 1) == [111, 112, 126]
    assert vcf_of(g, 1, 200)[0] == 6 + 7 * 15
    g = position(black, white, rule=gomoku.RENJU)
    assert g.forbidden(6, 7)
    for x, y in ((7, 7), (6, 8)):
        g.play(x, y)
        g.play(6, 7)
        assert four_points(g, 1) == []
        g.undo()
        g.undo()
    before = state(g)
    assert vcf_of(g, 1, 200)[0] == -1
    assert state(g) == before
    assert legal(g, ai.best_move(g, 2))


# black to move after six moves of a level-2 game: level 2 reads a third
# ply on every black move
OPENING = [112, 113, 128, 144, 142, 127]


def level2(g, L=None, monkeypatch=None):
    """search.best_move at level 2 (its own module: the app's tests may
    reload the one ai imports), seed 5, with limits L if given: (move,
    scans, VCF nodes)."""
    if L is not None:
        monkeypatch.setattr(search, "_L2", L)
    search.seed(5)
    m = search.best_move(g, 2)
    G = search._g
    return m, G[search._NODES], G[search._VCF_NODES]


# level 2 against itself from mcu.opening(2), seed 2, in each rule, move for
# move as it played before its scans were made cheaper for the micro:bit:
# work on its speed must leave every move as it is
LEVEL2_GAMES = {
    gomoku.FREESTYLE: (
        66, 96, 98, 82, 140, 126, 110, 95, 93, 111, 141, 63, 79, 139, 125, 109, 155,
        170, 107, 65, 121, 135, 113, 127, 143, 128, 123, 130, 129, 124, 154, 156, 142,
        144, 145, 176, 192, 161, 115, 157, 101, 87, 116, 114, 81, 97, 131, 159, 158,
        146, 86, 71, 163, 147, 118, 162, 178, 133, 119, 117, 102, 189, 175, 132, 177,
        174, 204, 188),
    gomoku.STANDARD: (
        66, 96, 98, 82, 140, 126, 110, 95, 93, 111, 141, 63, 79, 139, 125, 109, 155,
        170, 127, 154, 124, 169, 65, 184, 199, 51, 68, 67, 107, 121, 113, 99, 83, 128,
        53),
    gomoku.RENJU: (
        66, 96, 97, 82, 110, 113, 111, 83, 108, 109, 63, 65, 78, 93, 79, 95, 92, 50,
        106, 120, 77, 80, 35, 81, 84, 67, 123, 53),
}


@pytest.mark.parametrize("rule", sorted(LEVEL2_GAMES))
def test_level2_plays_the_games_it_always_played(rule):
    assert mcu_firmware.host_game(2, rule, 2)[0] == list(LEVEL2_GAMES[rule])


@pytest.mark.parametrize("stones", [OPENING, OPENING[:5]])
def test_level2_scans_keep_only_the_candidates_the_search_reads(stones, monkeypatch):
    # keeping candidates costs the micro:bit time: the root keeps its width,
    # a reply its replies', a reply's reply the third ply's, deeper scans
    # none; the move and the work stay the same
    g = replay(stones)
    L = search._L2
    G = search._g
    want = level2(g)
    widths = set()
    gen = candscan.gen

    def spy(g, ply, me):
        widths.add((ply, G[search._WIDTH], G[search._PLY3_WIDTH]))
        return gen(g, ply, me)

    monkeypatch.setattr(candscan, "gen", spy)
    assert level2(g) == want
    w = L[7] if g.turn == 2 else L[0]
    assert {(ply, width) for ply, width, _ in widths} >= {(0, w), (1, w), (3, 0)}
    for ply, width, third in widths:
        assert width == (w if ply < 2 else third if ply == 2 else 0), (ply, width, third)
    assert any(ply == 2 and width for ply, width, _ in widths)


def test_level2_reads_the_third_ply_for_whole_root_moves_while_scans_last(monkeypatch):
    # a root move begun under the scan limit is searched with the third ply
    # throughout; once the scans are spent no root move is begun, and the
    # move is one of those searched: values of two depths are never compared
    g = replay(OPENING)
    L = search._L2
    G = search._g
    before = state(g)
    gen = candscan.gen
    begun = []                          # scans spent as each root move begins

    def spy(g, ply, me):
        if ply == 1:
            begun.append(G[search._NODES])
        if ply == 2:
            assert G[search._WIDTH] == G[search._PLY3_WIDTH] > 0
        return gen(g, ply, me)

    monkeypatch.setattr(candscan, "gen", spy)
    level2(g)
    roots = len(begun)
    assert roots > 2
    searched = set()
    for limit in [0, 1] + begun[1:] + [begun[-1] + 1, 10 ** 6]:
        del begun[:]
        m, scans, _ = level2(g, L[:5] + (limit,) + L[6:], monkeypatch)
        assert all(b < limit for b in begun[1:]), limit
        assert len(begun) == roots or scans >= limit, limit
        assert m in candscan._mv[:len(begun)], limit
        searched.add(len(begun))
        assert state(g) == before
    assert searched >= {1, 2, roots}     # limit 0: the first root move alone


# the slots of candscan._g level 2 sets for itself, each with what an
# earlier search (of any level) might have left there
LEFT_OVER = (
    {search._NODES: 10 ** 6, search._VCF_NODES: 10 ** 6,
     search._VCF_LIMIT: 0, search._WIDTH: 1, search._REPLY_WIDTH: 1, search._PLY3_WIDTH: 0},
    {search._NODES: 0, search._VCF_NODES: 0,
     search._VCF_LIMIT: 10 ** 6, search._WIDTH: 10, search._REPLY_WIDTH: 10,
     search._PLY3_WIDTH: 10},
)


# a level-2 game (test_search_tactics') where black, to move, has fours, no
# sure threat, and a VCF: the root plays the VCF without searching
ROOT_VCF_GAME = [112, 113, 98, 84, 97, 99, 85, 127, 69, 155, 141, 125, 55, 83, 53, 101, 52, 54,
                 37, 21, 70, 100]


@pytest.mark.parametrize("stones", [OPENING, OPENING[:5], ROOT_VCF_GAME])
def test_level2_does_the_same_work_whatever_earlier_searches_left(stones):
    # a level is fixed limits: the same position and seed give the same
    # move from the same number of scans and VCF nodes, and the VCF is found
    # even after a search that spent all of its budget
    g = replay(stones)
    before = state(g)
    want = level2(g)
    if stones is ROOT_VCF_GAME:
        assert want[0] == vcf_of(g, 1, search._L2[1])[0] >= 0
        want = want[0], want[2]             # the root scans, nothing counts them
    for left in LEFT_OVER:
        for slot, value in left.items():
            search._g[slot] = value
        got = level2(g)
        assert (got if len(want) == 3 else (got[0], got[2])) == want
        assert state(g) == before


def picks(V, best, margin, seeds=range(64)):
    """movepick.pick over moves 10, 11, ... valued V, for each seed: the set
    of moves picked."""
    R = bytearray(range(10, 10 + len(V)))
    out = set()
    for s in seeds:
        movepick.seed(s)
        out.add(pick(R, V, len(V), best, margin))
    return out


def test_pick_chooses_among_the_moves_within_the_margin_and_only_those():
    # 100, 70 and 60 are within 40 of the best; 59 and -5 are not
    assert picks([100, 59, 70, -5, 60], 100, 40) == {10, 12, 14}
    assert picks([-300, -340, -341], -300, 40) == {10, 11}
    # one move: it is the pick, whatever the margin
    assert picks([7], 7, 0) == picks([7], 7, 40) == {10}


def test_pick_takes_a_mate_and_is_repeatable_by_seed():
    # a mating score allows no margin: the mate itself, for every seed, and
    # a lost side still gets its move
    win = search._WIN - 3
    assert picks([100, win, 50], win, 40) == {11}
    assert picks([-win], -win, 40) == {10}
    R = bytearray(range(10, 15))
    V = [100, 90, 80, 70, 60]
    runs = []
    for _ in range(2):
        movepick.seed(77)
        runs.append([pick(R, V, 5, 100, 40) for _ in range(20)])
    assert runs[0] == runs[1] and len(set(runs[0])) > 1


@pytest.mark.parametrize("level", (1, 2, 3))
def test_a_dead_board_still_gets_a_free_point(level):
    # the draw pattern with its two corners free: no line can make five any
    # more, no point has a shape, the centre is taken; white to move has
    # (0, 0) and (14, 14) left
    g, _ = pattern_game(gomoku.FREESTYLE, free=[(0, 0), (14, 14)])
    assert g.moves == 223 and g.winner == 0 and not any(g.pat)
    search.seed(1)
    assert ai.best_move(g, level) in (0, 224)


@pytest.mark.parametrize("lines", [((1, 0), (0, 1)), ((1, 1), (-1, 1))])
@pytest.mark.parametrize("way", (1, -1))
def test_vcf_sees_a_five_four_points_away_on_every_line(lines, way):
    # two lines through (7, 7), each W . B B B . W with (7, 7) the first
    # free point: there black makes two fours whose fives lie four points
    # away (one way, then the other), a double four. Black's only other
    # fours, at the far free points, are blocked at (7, 7): no other win
    black, white = [], []
    for dx, dy in lines:
        dx, dy = dx * way, dy * way
        black += [(7 + k * dx, 7 + k * dy) for k in (1, 2, 3)]
        white += [(7 - dx, 7 - dy), (7 + 5 * dx, 7 + 5 * dy)]
    g = position(black, white + [(0, 0), (14, 14)])
    assert g.turn == 1 and fives(g, 1) == []
    far = sorted((7 + 4 * dx * way) + (7 + 4 * dy * way) * 15 for dx, dy in lines)
    assert four_points(g, 1) == sorted(far + [7 * 15 + 7])
    g.play(7, 7)
    assert fives(g, 1) == far
    g.undo()
    assert vcf_of(g, 1, 200)[0] == 7 * 15 + 7


@pytest.mark.parametrize("level", (2, 3))
def test_search_refuses_a_finished_game_and_changes_nothing(level):
    # search.best_move is an entry point of its own (ai hands it levels 2
    # and up): a game already won is refused there too, not answered
    g = position([(3, 7), (4, 7), (5, 7), (6, 7), (7, 7)], [(0, 0), (14, 0), (0, 14), (14, 14)])
    assert g.winner == 1
    expect_error(g, search.best_move, (g, level), "game over")


@pytest.mark.parametrize("level", (1, 2, 3))
def test_a_four_three_of_ones_own_comes_before_blocking_the_other_sides(level):
    # black's (6, 7): a four on row 7 (shut at (2, 7)) and an open three down
    # column 6, and white has no four to answer with: a win. White's (12, 2)
    # is the same for white (its row shut by black at (8, 2)), a move later.
    # Black's other four, (7, 7), is blocked at (6, 7), where its three
    # crossed; any move but a four lets white's four-three in: (6, 7) is
    # black's one winning move
    g = position([(3, 7), (4, 7), (5, 7), (6, 8), (6, 9), (8, 2)],
                 [(2, 7), (9, 2), (10, 2), (11, 2), (12, 3), (12, 4)])
    assert g.turn == 1 and fives(g, 1) == fives(g, 2) == []
    assert four_points(g, 1) == [6 + 7 * 15, 7 + 7 * 15]
    assert four_points(g, 2) == [12 + 2 * 15, 13 + 2 * 15]
    search.seed(level)
    assert ai.best_move(g, level) == 6 + 7 * 15
