"""Level 2 on the emulated micro:bit: what it lacks to fit, what a move would cost.

Level 2 (search, candscan, vcf, movepick) does not fit the micro:bit's heap
next to the engine and a Game: the first lines measure by how much. Its
move time there is then estimated from measured parts. A level-2 move is
made of table scans (candscan.gen, one per search node) and moves made and
taken back (Game.play/undo); the rest is a few loops around them. CPython
counts the scans and moves of every level-2 move of two games; the board
times one scan and one play/undo pair in each position of the same games,
with the heap locked. Estimate per move = scans x scan time + pairs x pair
time, in that position: a lower bound, the loops around them left out.
"""
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "firmware" / "engine")]
import mcu  # noqa: E402

import ai  # noqa: E402
import candscan  # noqa: E402
import gomoku  # noqa: E402

LEVEL = 2
OPENINGS = (1, 2, 3, 4)     # mcu.opening seeds: level 2 on both sides
WIDTH = 7                   # the scan width level 2 asks for at the root
PARTS = ("candscan", "vcf", "movepick", "search")


def counted_games():
    """Level-2 self-play games on CPython: per move the position before it
    (moves so far), the scans and the play/undo pairs it made."""
    counts = {"gen": 0, "play": 0}
    gen, play = candscan.gen, gomoku.Game.play

    def counting_gen(*a):
        counts["gen"] += 1
        return gen(*a)

    def counting_play(self, x, y):
        counts["play"] += 1
        return play(self, x, y)

    candscan.gen = counting_gen
    gomoku.Game.play = counting_play
    moves = []
    try:
        for seed in OPENINGS:
            ai.seed(seed)
            g = gomoku.Game(0)
            for m in mcu.opening(seed):
                play(g, m % 15, m // 15)
            while not g.winner:
                counts["gen"] = counts["play"] = 0
                before = [g.hist[k] for k in range(g.moves)]
                m = ai.best_move(g, LEVEL)
                moves.append((before, counts["gen"], counts["play"]))
                play(g, m % 15, m // 15)
    finally:
        candscan.gen = gen
        gomoku.Game.play = play
    return moves


PROBE = """import utime,micropython as u
G=[]
def new():
 import gamestate
 if not G:G.append(gamestate.Game(0))
 while G[0].moves:G[0].undo()
def p(m):
 G[0].play(m%%15,m//15)
def run():
 import candscan as C
 g=G[0]
 C._g[11]=%d
 u.heap_lock()
 try:
  t=utime.ticks_us()
  n=C.gen(g,0,g.turn)
  a=utime.ticks_diff(utime.ticks_us(),t)
  q=C._mv[0]
  t=utime.ticks_us()
  g.play(q%%15,q//15)
  g.undo()
  b=utime.ticks_diff(utime.ticks_us(),t)
 finally:
  u.heap_unlock()
 print(a,b)
""" % WIDTH


def board_times(positions):
    """(scan us, play/undo us) on the board in each position."""
    names = ["shapes", "pattern", "gamestate", "candscan"]
    out = []
    with mcu.MicroBit() as mb:
        mb.soft_reset()
        for old in mb.listdir():
            mb.remove(old)
        mb.put("probe.py", PROBE)
        for n in names:
            mb.put(n + ".py", mcu.device_source((mcu.ENGINE / (n + ".py")).read_text(), n))
        mb.soft_reset()
        mb.call("import probe")             # compiled first, on an empty heap
        for n in ("shapes", "pattern", "candscan", "gamestate"):   # what fits
            mb.call("import " + n)
        on = None                           # the moves on the board's game
        for seq in positions:
            if on is None or seq[:len(on)] != on:   # another game
                mb.call("probe.new()")
                on = []
            for m in seq[len(on):]:
                mb.call("probe.p(%d)" % m)
            on = list(seq)
            a, b = mb.call("probe.run()").split()   # at the top level: C stack
            out.append((int(a), int(b)))
    return out


def fit():
    """Heap: the engine and a Game as a level-1 game has them, against what
    the level-2 parts take on an empty heap."""
    rep = mcu.play_game(level=1, rule=0, seed=1)
    left = rep["min_free_during_game"]
    with mcu.MicroBit() as mb:
        mb.soft_reset()
        for old in mb.listdir():
            mb.remove(old)
        for n in ("candscan", "vcf", "movepick", "search"):
            mb.put(n + ".py", mcu.device_source((mcu.ENGINE / (n + ".py")).read_text(), n))
        mb.soft_reset()
        free = empty = mb.mem_free()
        costs = []
        for n in PARTS:
            mb.call("import " + n)
            now = mb.mem_free()
            costs.append("%s %d" % (n, free - now))
            free = now
    need = empty - free
    print("level2 on micro:bit: does not fit: its modules take %d bytes (%s) on an empty "
          "heap of %d; a level-1 game leaves %d free at its fullest: short by %d bytes"
          % (need, ", ".join(costs), empty, left, need - left))
    return empty


def bigger_levels(heap):
    """Levels 3+ allocate a transposition table bigger than the whole heap."""
    import deepsearch
    for k, lv in enumerate(deepsearch.levels()):
        print("level%d on micro:bit: does not fit: its transposition table alone is %d bytes "
              "(the empty heap: %d)" % (lv, deepsearch._LV[k][4], heap))


def main():
    bigger_levels(fit())
    moves = counted_games()
    times = board_times([m[0] for m in moves])
    est = [(gens * a + plays * b) / 1000 for (_, gens, plays), (a, b) in zip(moves, times)]
    scans = [a / 1000 for a, _ in times]
    pairs = [b / 1000 for _, b in times]
    print("level2 parts on micro:bit (heap locked, %d positions of %d level-2 games): scan "
          "median %.0f ms, max %.0f ms; play+undo median %.0f ms, max %.0f ms"
          % (len(times), len(OPENINGS), statistics.median(scans), max(scans),
             statistics.median(pairs), max(pairs)))
    print("level2 per move on CPython: median %d scans and %d play/undo pairs (max %d, %d)"
          % (statistics.median(m[1] for m in moves), statistics.median(m[2] for m in moves),
             max(m[1] for m in moves), max(m[2] for m in moves)))
    print("level2 move on micro:bit, estimated from those parts (lower bound): median %.1f s, "
          "max %.1f s (budget: median <= 10 s)"
          % (statistics.median(est) / 1000, max(est) / 1000))
    return 0


if __name__ == "__main__":
    sys.exit(main())
