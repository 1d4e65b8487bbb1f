"""Review of the search modules (candscan, vcf, movepick, search, ai): what
their contract promises whatever the strength: legal moves only (never an
occupied point, never one renju forbids black), forced wins and blocks
found, the tables as they were after a search, node budgets kept, a seed's
game repeatable. Positions are built so that the rules alone decide what
is right (CPython)."""
import pytest

import ai
import gomoku
import search
from brute import fives, position

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
    # lost, and must still move legally: (3, 3), or any allowed point
    g = position(DOUBLE3, [(4, 4), (5, 5), (6, 6), (7, 7)], rule=gomoku.RENJU)
    assert g.turn == 1 and fives(g, 2) == [3 * 15 + 3, 8 * 15 + 8] and g.forbidden(8, 8)
    assert legal(g, ai.best_move(g, level))


def state(g):
    """What a search must leave as it found it: stones, shape tables, the
    moves so far (hist past g.moves is scratch), turn, winner."""
    return (bytes(g.board), bytes(g.pat), bytes(g.hist[:g.moves]), g.moves, g.turn, g.winner)


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
    G[search._NODES], G[search._NODE_LIMIT] = 0, L[5]
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
