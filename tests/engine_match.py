"""Level 1 against the seed scorer (tools/seed_scorer.py): shared by the
test (a small sample) and bench/bench_engine.py (the full figure)."""
import random

import ai
import gomoku
import seed_scorer


def opening(seed):
    """1 to 4 random stones near the centre, different for each seed."""
    rnd = random.Random(seed)
    stones = []
    for _ in range(rnd.randint(1, 4)):
        while True:
            p = (rnd.randint(4, 10), rnd.randint(4, 10))
            if p not in stones:
                stones.append(p)
                break
    return stones


def play(stones, level1_black, rule=gomoku.FREESTYLE):
    """One game from the opening; returns the finished Game."""
    g = gomoku.Game(rule)
    for x, y in stones:
        g.play(x, y)
    while not g.winner:
        if (g.turn == 1) == level1_black:
            m = ai.best_move(g, 1)
        else:
            m = seed_scorer.best_move(g)
        g.play(m % 15, m // 15)
    return g


def match(openings, rule=gomoku.FREESTYLE):
    """Each opening twice, colours swapped: (level-1 wins, games, the games
    not won: (opening, level 1's colour, winner (3: drawn), moves))."""
    wins, lost = 0, []
    for seed in openings:
        stones = opening(seed)
        for black in (True, False):
            g = play(stones, black, rule)
            if g.winner == (1 if black else 2):
                wins += 1
            else:
                lost.append((seed, "black" if black else "white", g.winner, g.moves))
    return wins, 2 * len(openings), lost
