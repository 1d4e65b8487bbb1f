"""The arena's games in one process: for comparing engine variants quickly.

`tools/arena.py` runs each player as a Gomocup brain in a process of its
own. This plays the same games without the processes: the same openings,
the same per-game seeds, colours swapped in each pair, each player its own
PRNG. Every game is move for move the arena's (tests/test_arena.py checks
it), in half the arena's CPU time, and a lost game can be printed for
replaying. A player is a level of this engine (1, 2, 3), `ref`
(tools/ref_alphabeta.py, 5 wide, 3 plies) or `seed` (tools/seed_scorer.py).

    .venv/bin/python tools/quickmatch.py 2 ref --seeds 11-18
    .venv/bin/python tools/quickmatch.py 2 seed --seeds 11 --losses
"""
import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import arena  # noqa: E402  (puts firmware/engine on sys.path)
import ai  # noqa: E402
import ref_alphabeta  # noqa: E402
import seed_scorer  # noqa: E402
from candscan import _g, _PRNG  # noqa: E402  (the search levels' xorshift state)


class Level:
    """A level of this engine with a PRNG of its own, as in its own brain."""
    rules = (0, 1, 4)

    def __init__(self, level):
        self.name = "level%d" % level
        self.level = level
        self.state = 0

    def start(self, seed):
        ai.seed(seed)                   # what pbrain's --seed does
        self.state = _g[_PRNG]

    def move(self, g):
        _g[_PRNG] = self.state
        m = ai.best_move(g, self.level)
        self.state = _g[_PRNG]
        return m


class Reference:
    """ref_alphabeta or the seed scorer: deterministic, no seed."""

    def __init__(self, name):
        if name not in ("ref", "seed"):
            raise ValueError("unknown player %r: a level (1, 2, 3), ref or seed" % name)
        self.name = "ref_alphabeta" if name == "ref" else "seed000 scorer"
        self.ref = name == "ref"
        self.rules = ref_alphabeta.RULES if self.ref else Level.rules

    def start(self, seed):
        pass

    def move(self, g):
        if not self.ref:
            return seed_scorer.best_move(g)
        grid = [[g.stone(x, y) for x in range(15)] for y in range(15)]
        x, y = ref_alphabeta.choose(grid, g.turn, g.rule)
        return y * 15 + x


def player(name):
    """A player from its command-line name: 1, 2, 3, ref or seed."""
    if not name.isdigit():
        return Reference(name)
    from pbrain import engine_levels
    levels = engine_levels()
    if int(name) not in levels:
        raise ValueError("level %s not available (levels: %s)"
                         % (name, ", ".join(map(str, levels))))
    return Level(int(name))


def play_game(black, white, opening, rule=arena.FREESTYLE, seed=0):
    """(winner colour or 0 for a draw, moves after the opening), as the arena
    plays it with game seed `seed`: an illegal move loses."""
    g = arena._gomoku().Game(rule=rule)
    for x, y in opening:
        g.play(x, y)
    black.start(arena.brain_seed(seed, 1))
    white.start(arena.brain_seed(seed, 2))
    moves = []
    while not g.winner:
        m = (black if g.turn == 1 else white).move(g)
        try:
            g.play(m % 15, m // 15)
        except ValueError:
            return 3 - g.turn, moves
        moves.append((m % 15, m // 15))
    return (g.winner if g.winner < 3 else 0), moves     # 3: drawn


def run_match(a, b, games=80, seed=1, rule=arena.FREESTYLE, lost=None):
    """Player a against b, the games of arena.run_match: (won as black,
    pairs, won as white, draws); a's lost games go to lost(opening, moves)."""
    wb = ww = dr = pairs = 0
    for op, a_black, n in arena.schedule(games, seed, rule):
        pairs += a_black
        black, white = (a, b) if a_black else (b, a)
        w, moves = play_game(black, white, op, rule, n)
        if not w:
            dr += 1
        elif w == (1 if a_black else 2):
            if a_black:
                wb += 1
            else:
                ww += 1
        elif lost:
            lost(op, moves)
    return wb, pairs, ww, dr


def _seeds(text):
    """'11-18' or '11,19' -> the seeds; ValueError naming what is wrong."""
    out = []
    for part in text.split(","):
        try:
            lo, hi = arena.number_range(part)
        except ValueError as e:
            raise ValueError("--seeds %s (like 11-18 or 11,19)" % e) from None
        out += range(lo, hi + 1)
    return out


def _pairs(text):
    n = int(text)
    if n < 2 or n % 2:
        raise argparse.ArgumentTypeError("%s: want an even number of games, 2 or more"
                                         % text)
    return n


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a", help="player: a level (1, 2, 3), ref or seed")
    ap.add_argument("b", help="its opponent")
    ap.add_argument("--games", type=_pairs, default=80,
                    help="games per opening seed (an even number: colours swap in each pair)")
    ap.add_argument("--seeds", default="1", help="opening seeds, e.g. 11-18 or 11,19")
    ap.add_argument("--rule", type=int, default=0, choices=(0, 1, 4),
                    help="0 freestyle, 1 standard, 4 renju")
    ap.add_argument("--losses", action="store_true",
                    help="print a's lost games: opening, then the moves")
    args = ap.parse_args(argv)
    try:
        a, b = player(args.a), player(args.b)
        seeds = _seeds(args.seeds)
    except ValueError as e:
        ap.error(str(e))
    for p in (a, b):
        if args.rule not in p.rules:
            ap.error("%s plays freestyle only, not --rule %d" % (p.name, args.rule))
    show = (lambda op, mv: print("lost", op, mv)) if args.losses else None
    t0 = time.time()
    tot = [0, 0, 0, 0]
    for s in seeds:
        r = run_match(a, b, args.games, s, args.rule, show)
        tot = [x + y for x, y in zip(tot, r)]
        print("seed %d: won %d of %d as black, %d of %d as white, %d drawn"
              % (s, r[0], r[1], r[2], r[1], r[3]), flush=True)
    wb, n, ww, dr = tot
    # the arena's score: a win 1, a draw 1/2 (n pairs: 2n games)
    print("%s vs %s: %.1f%% (won %d of %d as black, %d of %d as white, %d drawn; %.0f s)"
          % (a.name, b.name, 50.0 * (wb + ww + 0.5 * dr) / n, wb, n, ww, n, dr,
             time.time() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
