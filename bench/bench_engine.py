"""Engine figures: table memory, level-1 speed on CPython, strength against
the seed's scorer, allocation on the MicroPython unix port, and a level-1
game on the emulated micro:bit timed with the table updates included.

    .venv/bin/python bench/bench_engine.py [--games N] [--no-mcu]
"""
import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT / "firmware" / "engine", ROOT / "tests", ROOT / "tools", ROOT):
    sys.path.insert(0, str(p))
import ai  # noqa: E402
import engine_match  # noqa: E402
import gomoku  # noqa: E402
import renju  # noqa: E402
import upy  # noqa: E402
from budget import target, verdict  # noqa: E402


def memory():
    g = gomoku.Game()
    tables = len(g.board) + len(g.pat)
    print("board + pattern tables: %d bytes (board %d, tables %d; budget <= 1024) %s"
          % (tables, len(g.board), len(g.pat), verdict(tables <= 1024)))
    print("move history: %d bytes; renju's line and stack: %d bytes"
          % (len(g.hist), len(renju.LINE)))


def cpython_speed():
    moves = plays = 0
    t_ai = t_play = 0.0
    for seed in range(1, 6):
        g = gomoku.Game()
        for x, y in engine_match.opening(seed):
            g.play(x, y)
        while not g.winner:
            t0 = time.perf_counter()
            m = ai.best_move(g, 1)
            t1 = time.perf_counter()
            g.play(m % 15, m // 15)
            t2 = time.perf_counter()
            t_ai += t1 - t0
            t_play += t2 - t1
            moves += 1
            plays += 1
    print("CPython level-1 move: %.0f us (best_move), play() with table update: %.0f us"
          % (t_ai / moves * 1e6, t_play / plays * 1e6))


def strength(games):
    wins, n, lost = engine_match.match(range(1, games // 2 + 1))
    pct = 100.0 * wins / n
    print("level 1 vs seed 000 scorer: %d/%d games won = %.1f%% (budget >= 95%%) %s"
          % (wins, n, pct, target(pct >= 95)))
    for seed, colour, winner, moves in lost:
        print("  %s: opening %d, level 1 %s, after %d moves"
              % ("drawn" if winner == 3 else "lost", seed, colour, moves))


UPY_ALLOC = """
import gc, gomoku, ai
from heaplock import locked
worst = moves = a = b = m = 0     # the script's globals exist before it measures
for rule in (0, 1, 4):
    g = gomoku.Game(rule)
    for x, y in ((7, 7), (8, 8), (6, 8)):
        g.play(x, y)
    while not g.winner:
        gc.collect()
        a = gc.mem_alloc()
        m = ai.best_move(g, 1)
        b = gc.mem_alloc()
        if b - a > worst:
            worst = b - a
        locked(g)
        g.play(m % 15, m // 15)
        moves += 1
print(moves, worst)
"""


def unix_port():
    moves, worst = map(int, upy.run(UPY_ALLOC, heapsize="32k", extra_path=[ROOT / "tests"]).split())
    print("unix port level-1 allocation: %d bytes max over %d moves (3 rules), "
          "every move also run under heap_lock (budget 0) %s" % (worst, moves, verdict(worst == 0)))


# Imported before the engine, as a device's main.py is; the rule and the
# opening are written in, so nothing is compiled between import and game.
MCU_DRIVER = """\
import gc,utime,micropython as u
def game():
 import gomoku,ai
 g=gomoku.Game({rule})
 for m in {opening}:g.play(m%15,m//15)
 while g.winner==0:
  gc.collect()
  u.heap_lock()
  t=utime.ticks_us()
  m=ai.best_move(g,1)
  t1=utime.ticks_us()
  u.heap_unlock()
  g.play(m%15,m//15)
  print(m,utime.ticks_diff(t1,t),utime.ticks_diff(utime.ticks_us(),t1))
 print('W',g.winner)
"""


def microbit_game(mb, names, rule, seed):
    """One level-1 game on the board: free heap before/after import, and a
    row per move (move, best_move us, play us)."""
    mb.soft_reset()                     # the last game's heap first
    import mcu
    mb.put("engdrv.py", MCU_DRIVER.format(rule=rule, opening=tuple(mcu.opening(seed))))
    mb.soft_reset()
    free0 = mb.mem_free()
    mb.call("import engdrv")
    for name in names:
        mb.call("import " + name)
        mb.mem_free()                   # a collection between imports, as mcu does
    free1 = mb.mem_free()
    out = mb.call("engdrv.game()", timeout=1800)
    rows = [list(map(int, ln.split())) for ln in out.split("\n")
            if ln.strip() and not ln.startswith("W")]
    return free0, free1, rows


def microbit():
    import mcu
    names = mcu.engine_modules()
    rows = {}
    with mcu.MicroBit() as mb:
        for old in mb.listdir():
            if old.endswith(".py"):
                mb.remove(old)
        for name in names:
            mb.put(name + ".py", mcu.device_source((mcu.ENGINE / (name + ".py")).read_text(), name))
        for rule, seed in ((0, 1), (1, 2), (4, 4)):
            free0, free1, rows[rule] = microbit_game(mb, names, rule, seed)
    every = [r for rule in rows for r in rows[rule]]
    total = [(a + b) / 1000 for _, a, b in every]
    best = [a / 1000 for _, a, _ in every]
    upd = [b / 1000 for _, _, b in every]
    med, top = statistics.median(total), max(total)
    print("micro:bit heap: %d bytes free after import of a driver and %s (of %d)"
          % (free1, "+".join(names), free0))
    print("level1 move on micro:bit incl. table updates (best_move + play): median %.0f ms, "
          "max %.0f ms over %d moves in 3 games, one each of freestyle, standard, renju "
          "(budget: median <= 300, max <= 600) %s"
          % (med, top, len(total), verdict(med <= 300 and top <= 600)))
    print("  of which best_move: median %.0f ms, max %.0f ms; play(): median %.0f ms, max %.0f ms"
          % (statistics.median(best), max(best), statistics.median(upd), max(upd)))
    for rule in rows:
        t = [(a + b) / 1000 for _, a, b in rows[rule]]
        print("  rule %d: median %.0f ms, max %.0f ms over %d moves"
              % (rule, statistics.median(t), max(t), len(t)))


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--no-mcu", action="store_true")
    a = ap.parse_args(argv)
    memory()
    cpython_speed()
    strength(a.games)
    unix_port()
    if not a.no_mcu:
        microbit()


if __name__ == "__main__":
    main()
