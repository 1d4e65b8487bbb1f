"""Seed 000's single-ply scorer (tools/seed_scorer.py) as a Gomocup brain.

    python tools/seed_brain.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import arena  # noqa: E402  (arena._gomoku(): the engine's Game)
import brainloop  # noqa: E402


def choose(grid, me, rule=0, last=None):
    gomoku = arena._gomoku()
    import seed_scorer
    g = gomoku.Game(rule)
    blacks = [(x, y) for y in range(15) for x in range(15) if grid[y][x] == 1]
    whites = [(x, y) for y in range(15) for x in range(15) if grid[y][x] == 2]
    if len(blacks) - len(whites) != me - 1:
        raise ValueError("stone counts do not fit the side to move")
    # the stones are a position, laid in reading order, not the game's
    # moves: none is refused (renju's forbidden points) and no five on the
    # way (to an overline, under exactly five) ends the game
    why, g._why = g._why, None
    for i in range(len(blacks)):
        for x, y in [blacks[i]] + whites[i:i + 1]:
            g.play(x, y)
            g.winner = 0
    g._why = why
    m = seed_scorer.best_move(g)
    return m % 15, m // 15


if __name__ == "__main__":
    brainloop.serve(choose, name="seed000-scorer")
