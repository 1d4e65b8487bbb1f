"""AI strength and cost: arena matches, micro:bit move times and heap, unix-port heap.

Matches run through tools/arena.py (Gomocup brains, colours swapped in each
pair, varied openings, freestyle). Device figures come from tools/mcu.py's
emulated micro:bit; the big level's heap from the MicroPython unix port.
"""
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "firmware" / "engine"))

import arena  # noqa: E402

PY = sys.executable
TOP = 2                 # the handheld's top level
LEVELS = (1, 2, 3, 4)


def brain(level):
    return "%s tools/pbrain.py --level %d" % (PY, level)


def match(a, b, games, label_a, label_b, budget, timeout=60):
    t0 = time.monotonic()
    res = arena.run_match(a, b, games=games, timeout=timeout, seed=2026, workers=2,
                          names=[label_a, label_b])
    st = res.time_stats(0)
    print("%s vs %s: %.1f%% (%d won, %d lost, %d drawn of %d games; budget >= %d%%)"
          " [%s: median %.1f ms, max %.1f ms a move on CPython; %.0f s]" % (
              label_a, label_b, 100 * res.score(0), res.wins(0), res.wins(1), res.draws(),
              len(res.games), budget, label_a, st["median"] * 1000, st["max"] * 1000,
              time.monotonic() - t0), flush=True)
    faults = [r.reason for r in res.games if "five" not in r.reason and r.reason != "draw"]
    if faults:
        print("  faults: " + "; ".join(faults[:4]))
    return res


# -- the emulated micro:bit -------------------------------------------------
def device():
    """Level 1 and level 2 games on the emulated micro:bit (tools/mcu.py), the
    search imported before the heap is locked for each move."""
    import mcu
    drv = mcu.DRIVER_SOURCE
    game_bytes = None           # a Game's heap, from the level-1 game
    for lv in (1, TOP):
        if lv > 1:
            mcu.DRIVER_SOURCE = drv.replace(" import gomoku,ai\n", " import gomoku,ai,search\n")
        try:
            rep = mcu.play_game(level=lv)
        finally:
            mcu.DRIVER_SOURCE = drv
        if rep["error"]:
            print("level%d on micro:bit: failed: %s (engine import leaves %s bytes free)" % (
                lv, rep["error"], rep.get("free_after_import")))
            if lv > 1:
                left = rep.get("free_after_import")
                search_cost(left - game_bytes if left and game_bytes else None)
            continue
        if lv == 1:
            game_bytes = rep["free_after_import"] - rep["min_free_during_game"]
        budget = " (budget: median <= 10000)" if lv == TOP else ""
        print("level%d move on micro:bit: median %.0f ms, max %.0f ms over %d moves%s" % (
            lv, rep["median_ms"], rep["max_ms"], len(rep["move_ms"]), budget))
        print("level%d heap on micro:bit: %d bytes free after import, %d at least before"
              " a move; 0 bytes allocated by a move (heap locked)" % (
                  lv, rep["free_after_import"], rep["min_free_during_game"]))


def search_cost(left=None):
    """Heap the level-2 modules take on an empty micro:bit heap, against
    `left`: what the engine's import and a Game leave free."""
    import mcu
    eng = ROOT / "firmware" / "engine"
    names = ("candscan", "vcf", "movepick", "search")
    with mcu.MicroBit() as mb:
        mb.soft_reset()
        for n in names:
            mb.put(n + ".py", mcu.strip_source((eng / (n + ".py")).read_text()))
        mb.soft_reset()
        free = empty = mb.mem_free()
        costs = []
        for n in names:
            mb.call("import " + n)
            now = mb.mem_free()
            costs.append("%s %d" % (n, free - now))
            free = now
    need = empty - free
    short = "" if left is None else (
        "; %d needed, %d left after the engine and a Game: short by %d bytes" % (
            need, left, need - left))
    print("level%d modules on micro:bit: %s bytes on import (of %d free on an empty heap)%s" % (
        TOP, ", ".join(costs), empty, short))


# -- the unix port -------------------------------------------------------------
UNIX = """
import gc, micropython
gc.collect()
f0 = gc.mem_free()
import gomoku, search, deepsearch
g = gomoku.Game(0)
for m in (112, 113, 97, 128, 98):
    g.play(m %% 15, m // 15)
deepsearch.prepare(%d)
gc.collect()
f1 = gc.mem_free()
m = 0
micropython.heap_lock()
m = search.best_move(g, %d)
micropython.heap_unlock()
gc.collect()
print(f0 - f1, f1 - gc.mem_free(), m)
"""


def unix_heap(level):
    sys.path.insert(0, str(ROOT / "tests"))
    import upy
    for kb in (48, 64, 96, 128, 192, 256):
        try:
            out = upy.run(UNIX % (level, level), heapsize="%dk" % kb)
        except AssertionError:
            continue
        used = int(out.split()[0])
        print("level%d heap on the unix port: %d bytes for engine + search + buffers (TT %d bytes);"
              " a move runs under heap_lock (0 bytes); fits -X heapsize=%dk" % (
                  level, used, __import__("deepsearch")._LV[level - 3][4], kb))
        return
    print("level%d heap on the unix port: does not run in 256k" % level)


def main():
    t0 = time.monotonic()
    seed_b = "%s tools/seed_brain.py" % PY
    ref_b = "%s tools/ref_alphabeta.py" % PY
    gb_b = "%s tools/gomokubench_brain.py --level hard --seed {seed}" % PY
    top = "level%d" % TOP
    match(brain(TOP), seed_b, 40, top, "seed000 scorer", 99)
    match(brain(TOP), ref_b, 20, top, "ref_alphabeta (seed 001, 5 wide, 3 plies)", 90)
    match(brain(TOP), gb_b, 6, top, "gomokubench hard", 90, timeout=120)
    # level 3, the first level for bigger boards, against the same references
    match(brain(3), seed_b, 20, "level3", "seed000 scorer", 99)
    match(brain(3), ref_b, 20, "level3", "ref_alphabeta (seed 001, 5 wide, 3 plies)", 90)
    match(brain(3), gb_b, 6, "level3", "gomokubench hard", 90, timeout=120)
    for lv, games in ((2, 20), (3, 20), (4, 4)):
        match(brain(lv), brain(lv - 1), games, "level%d" % lv, "level%d" % (lv - 1), 70)
    unix_heap(4)
    try:
        device()
    except Exception as e:          # no qemu, or the link failed: say so
        print("micro:bit figures: unavailable (%s: %s)" % (type(e).__name__, e))
    print("bench_ai total: %.0f s" % (time.monotonic() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
