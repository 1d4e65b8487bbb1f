"""Gomoku AI entry point (first cut: a legal move nearest the centre)."""


def best_move(g, level=1):
    if g.winner:
        raise ValueError("game over")
    if level != 1:
        raise ValueError("level %d not available" % level)
    best = -1
    bd = 99
    for i in range(225):
        x = i % 15
        y = i // 15
        if not g.stone(x, y):
            d = abs(x - 7) + abs(y - 7)
            if d < bd:
                bd = d
                best = i
    return best
