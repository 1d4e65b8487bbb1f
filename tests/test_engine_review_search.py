"""Review of the search modules (candscan, vcf, movepick, search, ai): what
their contract promises whatever the strength: legal moves only (never an
occupied point, never one renju forbids black), forced wins and blocks
found, the tables as they were after a search, node budgets kept, a seed's
game repeatable. Positions are built so that the rules alone decide what
is right (CPython)."""
import pytest

import ai
import gomoku
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
