"""The reference player: exactly seed 000's single-ply scorer (CalPushPosition).

For every empty point and each of the 4 directions, count the player's stones
touching it on both sides (stopping at an empty point, an opponent stone or
the edge; 4 at most), score MarkTransform = {0, 100, 400, 2000, 10000} of that
count, summed over the directions. The board is scanned column by column
(x outer, y inner), first for the side to move, then for the opponent, with
one running maximum that only a strictly larger score replaces: it attacks
unless the opponent's best point scores more, then it blocks there. With no
scoring point (empty board) it plays the centre. Under renju it skips black's
forbidden points (the seed had no renju).

    import seed_scorer; i = seed_scorer.best_move(game)   # y*15 + x
"""
MARK = (0, 100, 400, 2000, 10000)
DIRS = ((1, 0), (0, 1), (1, 1), (1, -1))


def point_score(g, x, y, c):
    total = 0
    for dx, dy in DIRS:
        n = 0
        for s in (1, -1):
            k = 1
            while k <= 4:
                px, py = x + s * k * dx, y + s * k * dy
                if not (0 <= px < 15 and 0 <= py < 15) or g.stone(px, py) != c:
                    break
                n += 1
                k += 1
        total += MARK[min(n, 4)]
    return total


def best_move(g):
    me = g.turn
    best = 0
    move = None
    for c in (me, 3 - me):
        for x in range(15):
            for y in range(15):
                if g.stone(x, y):
                    continue
                s = point_score(g, x, y, c)
                if s > best and not (me == 1 and g.forbidden(x, y)):
                    best = s
                    move = y * 15 + x
    if move is None:
        if not g.stone(7, 7) and not (me == 1 and g.forbidden(7, 7)):
            return 7 * 15 + 7
        for i in range(225):
            if not g.stone(i % 15, i // 15) and not (me == 1 and g.forbidden(i % 15, i // 15)):
                return i
    return move
