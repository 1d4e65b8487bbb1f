"""Levels 1 and 2 on the emulated micro:bit, the engine frozen into flash.

Stock micro:bit MicroPython compiles modules into its ~9 KB heap: the engine
and level 1 fit (bench_mcu), level 2's search does not. The firmware built by
tools/mcu_firmware.py has the engine frozen into flash and Python calls off
the C stack (MICROPY_STACKLESS). This measures level 2 there:
- its heap;
- its move time over games in all three rules (guest time: qemu -icount, so
  the times repeat);
- that every move is the one CPython plays;
- its margin: how much more heap the game with the least free before a move
  could hold and still complete (one block held from its start, bisected as
  bench_mcu's level-1 margins).

The free heap before a move is not repeatable to the byte: over runs of the
same firmware its least has read 3856 to 4544 bytes, likely as the REPL, fed
at the host's pace, lays the heap out a little differently each time. The
margin is the figure to watch.

Level 3 needs a transposition table bigger than the whole heap: the last
line says by how much.
"""
import re
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "firmware" / "engine")]
import mcu  # noqa: E402
import mcu_firmware  # noqa: E402
from budget import verdict  # noqa: E402


GAMES = [(rule, seed) for rule in (0, 1, 4) for seed in (1, 2, 3, 4)]
LEVEL1_GAMES = [(0, 1), (4, 4)]
BUDGET_MS = 10000       # level 2 median (issue 3: ~1 s on an RP2040 at 8x the clock)
RULES = {0: "freestyle", 1: "standard", 4: "renju"}


def flash_line():
    log = (mcu_firmware.OUT / "build.log").read_text()
    m = re.search(r"^\s*(\d+)\s+(\d+)\s+\d+\s+\d+\s+\w+\s+\S*microbit-micropython$", log, re.M)
    if m:
        print("frozen-engine firmware: %d bytes of the micro:bit's 262144 of flash (code %d, "
              "data %d); %d engine modules frozen: %s"
              % (int(m.group(1)) + int(m.group(2)), int(m.group(1)), int(m.group(2)),
                 len(mcu_firmware.frozen_names()), ", ".join(mcu_firmware.frozen_names())))
    else:
        print("frozen-engine firmware: size not measured (no size line in %s)"
              % (mcu_firmware.OUT / "build.log"))


def heap_lines(mb):
    mb.soft_reset()
    boot = mb.mem_free()
    # level 1 with the modules it imports when needed, as the games have them
    level1 = mcu.engine_modules(entry=("gomoku", "ai", "refusal", "winrow"))
    level2 = [n for n in mcu.engine_modules(entry=("search",)) if n not in level1]
    mb.exec("import " + ",".join(level1))
    engine = boot - mb.mem_free()
    mb.exec("import " + ",".join(level2))
    search = boot - engine - mb.mem_free()
    mb.exec("g=gomoku.Game(4)")
    game = boot - engine - search - mb.mem_free()
    print("level2 heap on micro:bit (frozen engine): %d bytes free at boot; the engine's import "
          "takes %d, level 2's search %d, a Game %d: %d free for a move's call frames "
          "(budget: > 0) %s" % (boot, engine, search, game, mb.mem_free(),
                                verdict(mb.mem_free() > 0)))


def main():
    hexfile = mcu_firmware.build()
    flash_line()
    ms, by_rule, after, before, same, n_games = [], {}, [], [], 0, 0
    tightest = None     # (least free heap before a move, rule, seed)
    with mcu.MicroBit(firmware=str(hexfile)) as mb:
        heap_lines(mb)
        for rule, seed in GAMES:
            rep = mcu_firmware.play_game(mb, level=2, rule=rule, seed=seed)
            n_games += 1
            same += rep["moves"] == mcu_firmware.host_game(2, rule, seed)[0]
            ms += rep["move_ms"]
            by_rule.setdefault(rule, []).extend(rep["move_ms"])
            after += rep["free_after_move"]
            before += rep["free_before_move"]
            least = (min(rep["free_before_move"]), rule, seed)
            tightest = min(tightest or least, least)
        spare = mcu_firmware.margin(mb, 2, tightest[1], tightest[2])
        l1 = []
        for rule, seed in LEVEL1_GAMES:
            l1 += mcu_firmware.play_game(mb, level=1, rule=rule, seed=seed)["move_ms"]
    med = statistics.median(ms)
    print("level2 move on micro:bit (frozen engine): median %.1f s, max %.1f s over %d moves "
          "in %d games, all three rules (budget: median <= %d s) %s"
          % (med / 1000, max(ms) / 1000, len(ms), n_games, BUDGET_MS // 1000,
             verdict(med <= BUDGET_MS)))
    print("level2 move on micro:bit by rule: " + "; ".join(
        "%s median %.1f s, max %.1f s" % (RULES[r], statistics.median(v) / 1000, max(v) / 1000)
        for r, v in sorted(by_rule.items())))
    print("level2 games on micro:bit: %d of %d play every move CPython plays (budget: all) %s"
          % (same, n_games, verdict(same == n_games)))
    print("level2 allocation on micro:bit: call frames only (collected between moves); free heap "
          "before a move at least %d bytes, right after one at least %d (budget: > 0) %s"
          % (min(before), min(after), verdict(min(after) > 0)))
    print("level2 game on micro:bit, rule %d opening %d (the least free heap before a move), "
          "margin: %s (budget: > 0) %s"
          % (tightest[1], tightest[2],
             "it still completes holding %d more bytes of heap (one block)" % spare
             if spare >= 0 else "it does not complete even holding nothing more",
             verdict(spare > 0)))
    print("level1 move on micro:bit (frozen engine, heap locked): median %d ms, max %d ms "
          "over %d moves (budget: median <= 300, max <= 600) %s"
          % (statistics.median(l1), max(l1), len(l1),
             verdict(statistics.median(l1) <= 300 and max(l1) <= 600)))
    bigger_levels(before and max(before))
    return 0 if same == n_games else 1


def bigger_levels(heap):
    """Level 3 allocates a transposition table bigger than the whole heap."""
    import deepsearch
    for k, lv in enumerate(deepsearch.levels()):
        print("level%d on micro:bit: does not fit: its transposition table alone is %d bytes "
              "(free before a level-2 move: %d)" % (lv, deepsearch._LV[k][4], heap))


if __name__ == "__main__":
    sys.exit(main())
