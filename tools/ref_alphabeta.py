"""Reference player in the style of seed 001: alpha-beta over shape-ordered moves.

Candidates are the empty points next to a stone, ordered by shape score
(five, open four, four, open three, ...: attack plus defence at the point),
the best 5 kept at every node, searched 3 plies with alpha-beta; a leaf is
(my position score - the opponent's). Deterministic. A Gomocup brain:

    python tools/ref_alphabeta.py [--width 5] [--depth 3]
"""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

SIZE = 15
DIRS = ((1, 0), (0, 1), (1, 1), (1, -1))
WIN = 10 ** 8
RULES = (0,)        # the Gomocup rules choose() plays: freestyle; it has no
                    # exactly-five or renju check

# (run length, open ends) -> score, seed-001 shape ranks
_LINE = {
    (4, 2): 10000, (4, 1): 1000, (3, 2): 1000, (3, 1): 100,
    (2, 2): 100, (2, 1): 10, (1, 2): 10, (1, 1): 1,
}


def point_score(grid, x, y, color):
    """Shape score of `color` playing the empty point (x, y)."""
    total = 0
    for dx, dy in DIRS:
        n, ends = 1, 0
        for s in (1, -1):
            i, j = x + dx * s, y + dy * s
            while 0 <= i < SIZE and 0 <= j < SIZE and grid[j][i] == color:
                n += 1
                i += dx * s
                j += dy * s
            if 0 <= i < SIZE and 0 <= j < SIZE and grid[j][i] == 0:
                ends += 1
        if n >= 5:
            total += 100000
        else:
            total += _LINE.get((n, ends), 0)
    return total


def position_score(grid, color):
    """Sum of the shape scores of `color`'s runs over every line."""
    total = 0
    for y in range(SIZE):
        for x in range(SIZE):
            if grid[y][x] != color:
                continue
            for dx, dy in DIRS:
                px, py = x - dx, y - dy
                if 0 <= px < SIZE and 0 <= py < SIZE and grid[py][px] == color:
                    continue            # not the start of this run
                n, i, j = 0, x, y
                while 0 <= i < SIZE and 0 <= j < SIZE and grid[j][i] == color:
                    n += 1
                    i += dx
                    j += dy
                if n >= 5:
                    return WIN
                ends = 0
                if 0 <= i < SIZE and 0 <= j < SIZE and grid[j][i] == 0:
                    ends += 1
                if 0 <= px < SIZE and 0 <= py < SIZE and grid[py][px] == 0:
                    ends += 1
                total += _LINE.get((n, ends), 0)
    return total


def makes_five(grid, x, y, color):
    for dx, dy in DIRS:
        n = 1
        for s in (1, -1):
            i, j = x + dx * s, y + dy * s
            while 0 <= i < SIZE and 0 <= j < SIZE and grid[j][i] == color:
                n += 1
                i += dx * s
                j += dy * s
        if n >= 5:
            return True
    return False


def candidates(grid, color, width):
    found = []
    any_stone = False
    for y in range(SIZE):
        for x in range(SIZE):
            if grid[y][x]:
                any_stone = True
                continue
            near = False
            for j in range(max(0, y - 1), min(SIZE, y + 2)):
                for i in range(max(0, x - 1), min(SIZE, x + 2)):
                    if grid[j][i]:
                        near = True
            if near:
                s = point_score(grid, x, y, color) + point_score(grid, x, y, 3 - color)
                found.append((s, -abs(x - 7) - abs(y - 7), x, y))
    if not any_stone:
        return [(SIZE // 2, SIZE // 2)]
    found.sort(reverse=True)
    return [(x, y) for _, _, x, y in found[:width]]


def alphabeta(grid, color, me, depth, alpha, beta, width):
    """Negamax from `color`'s view; leaf = color's score - opponent's."""
    if depth == 0:
        return position_score(grid, color) - position_score(grid, 3 - color)
    moves = candidates(grid, color, width)
    if not moves:
        return 0
    best = -WIN * 10
    for x, y in moves:
        if makes_five(grid, x, y, color):
            return WIN + depth
        grid[y][x] = color
        v = -alphabeta(grid, 3 - color, me, depth - 1, -beta, -alpha, width)
        grid[y][x] = 0
        if v > best:
            best = v
        if best > alpha:
            alpha = best
        if alpha >= beta:
            break
    return best


def choose(grid, me, rule=0, last=None, width=5, depth=3):
    """The reference move for `me` (1 black, 2 white) on grid[y][x]."""
    moves = candidates(grid, me, width)
    best, best_move = None, moves[0]
    alpha = -WIN * 10
    for x, y in moves:
        if makes_five(grid, x, y, me):
            return x, y
        grid[y][x] = me
        v = -alphabeta(grid, 3 - me, me, depth - 1, -WIN * 10, -alpha, width)
        grid[y][x] = 0
        if best is None or v > best:
            best, best_move = v, (x, y)
        if v > alpha:
            alpha = v
    return best_move


def main(argv=None):
    ap = argparse.ArgumentParser(description="seed-001-style alpha-beta Gomocup brain")
    ap.add_argument("--width", type=int, default=5, help="candidates kept per node")
    ap.add_argument("--depth", type=int, default=3, help="plies")
    ap.add_argument("--seed", type=int, default=0, help="ignored (deterministic)")
    args = ap.parse_args(argv)
    import brainloop

    def brain_choose(grid, me, rule, last):
        return choose(grid, me, rule, last, args.width, args.depth)

    brainloop.serve(brain_choose, name="ref_alphabeta", rules=RULES)
    return 0


if __name__ == "__main__":
    sys.exit(main())
