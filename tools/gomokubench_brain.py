"""PyPI `gomokubench`'s alpha-beta engine as a Gomocup brain (15x15).

    python tools/gomokubench_brain.py [--level hard] [--seed N]

gomokubench (libs.ai) plays on a numpy board with black = 1, white = -1,
rows first; its "hard" setting searches 3 plies over 12 root candidates.
Its own random first move is seeded by --seed so games repeat.
"""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
from libs import ai as gb_ai  # noqa: E402
from libs import piece  # noqa: E402
from libs.board import BoardState  # noqa: E402

SIZE = 15
RULES = (0,)        # gomokubench plays freestyle only


def make_choose(level="hard"):
    settings = gb_ai.resolve_ai_settings(level=level)

    def choose(grid, me, rule=0, last=None):
        values = np.full((SIZE, SIZE), piece.EMPTY)
        for y in range(SIZE):
            for x in range(SIZE):
                if grid[y][x]:
                    values[y, x] = piece.BLACK if grid[y][x] == 1 else piece.WHITE
        mine = piece.BLACK if me == 1 else piece.WHITE
        state = BoardState(size=SIZE, values=values, color=-mine)
        if last is not None:
            state.last_move = (last[1], last[0])
        elif np.any(values != piece.EMPTY):
            ys, xs = np.nonzero(values == -mine)
            if len(ys):
                state.last_move = (int(ys[-1]), int(xs[-1]))
            else:
                ys, xs = np.nonzero(values)
                state.last_move = (int(ys[0]), int(xs[0]))
        move, _ = gb_ai.get_best_move(
            state, settings["depth"], mine == piece.BLACK,
            candidate_count=settings["candidate_count"],
            random_top_n=settings["random_top_n"])
        row, col = int(move[0]), int(move[1])
        if not (0 <= row < SIZE and 0 <= col < SIZE) or grid[row][col]:
            # gomokubench's second_move can aim at an occupied point: take a free neighbour
            for r, c in sorted(((r, c) for r in range(SIZE) for c in range(SIZE) if not grid[r][c]),
                               key=lambda p: abs(p[0] - row) + abs(p[1] - col)):
                return c, r
        return col, row

    return choose


def main(argv=None):
    ap = argparse.ArgumentParser(description="gomokubench alpha-beta as a Gomocup brain")
    ap.add_argument("--level", default="hard", choices=sorted(gb_ai.AI_LEVELS))
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    np.random.seed(args.seed)
    import brainloop
    brainloop.serve(make_choose(args.level), name="gomokubench-" + args.level,
                    rules=RULES)
    return 0


if __name__ == "__main__":
    sys.exit(main())
