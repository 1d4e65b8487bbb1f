"""The winning row of a finished Game, for the display to highlight."""
from pattern import STEP


def reach(i, d, back):
    # steps from point i along direction d (back: -STEP[d]) on the board
    x = i % 15
    y = i // 15
    if d == 1:
        x = y
    elif d == 2:
        if back:
            return x if x < y else y
        return 14 - (x if x > y else y)
    elif d == 3:
        if back:
            return 14 - x if 14 - x < y else y
        return x if x < 14 - y else 14 - y
    return x if back else 14 - x


def five(g):
    """(x, y, dx, dy, n): the row's first stone, step and length; else None."""
    c = g.winner
    if not 0 < c < 3:
        return None
    b = g.board
    for d in range(4):
        s = STEP[d]
        p = g.hist[g.moves - 1]
        k = reach(p, d, 1)
        while k and b[(p - s) >> 2] >> (((p - s) & 3) << 1) & 3 == c:
            p -= s
            k -= 1
        n = 1
        k = reach(p, d, 0)
        while n <= k and b[(p + n * s) >> 2] >> (((p + n * s) & 3) << 1) & 3 == c:
            n += 1
        if n == 5 or n > 5 and not g.exact >> c & 1:
            return (p % 15, p // 15, 0 if d == 1 else -1 if d == 3 else 1,
                    1 if d else 0, n)
