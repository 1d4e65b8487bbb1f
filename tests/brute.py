"""Positions for the search tests, and brute-force answers about them that
do not read the engine's tables."""
import gomoku


def position(black, white, rule=gomoku.FREESTYLE):
    """A game with black's and white's stones played in turn."""
    g = gomoku.Game(rule)
    for i in range(max(len(black), len(white))):
        if i < len(black):
            g.play(*black[i])
        if i < len(white):
            g.play(*white[i])
    return g


def fives(g, c):
    """Empty points (y*15+x) where colour c would complete five or more."""
    out = []
    for p in range(225):
        x, y = p % 15, p // 15
        if g.stone(x, y):
            continue
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            n = 1
            for s in (1, -1):
                i, j = x + s * dx, y + s * dy
                while 0 <= i < 15 and 0 <= j < 15 and g.stone(i, j) == c:
                    n += 1
                    i, j = i + s * dx, j + s * dy
            if n >= 5:
                out.append(p)
                break
    return out
