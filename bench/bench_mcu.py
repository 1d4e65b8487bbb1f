"""Level-1 engine on the emulated micro:bit: move time, allocation, heap.

Plays level-1 games (AI vs AI from fixed openings, each rule) on
MicroPython 1.9.2 in qemu (`-icount shift=6`: guest time is an instruction
count at ~15.6 MHz, so the figures repeat) with the heap locked around every
best_move, and prints the measured figures against the budgets.
"""
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import mcu  # noqa: E402
from budget import verdict  # noqa: E402

GAMES = [(0, 1), (0, 2), (1, 3), (4, 4), (4, 5)]     # (rule, opening seed)
MARGIN_GAMES = [(0, 1), (4, 4)]   # how far from failing: heap and C stack
FLASH = 15100          # bytes the micro:bit's file system took in a fill test


def main(argv):
    engine = Path(argv[0]) if argv else mcu.ENGINE     # another engine folder
    reports, failed = [], []
    with mcu.MicroBit() as mb:
        for rule, seed in GAMES:
            rep = mcu.play_game(level=1, rule=rule, seed=seed, mb=mb, engine=engine)
            if not (rep["error"] or rep["problems"]):
                reports.append(rep)
                continue
            failed.append(rep)
            print("level1 game on micro:bit (rule %d, opening %d) FAILED%s: %s %s"
                  % (rule, seed, " at " + rep["failed_at"] if "failed_at" in rep else "",
                     rep["error"], rep["problems"]))
            for key in ("free_before_import", "free_after_import", "free_before_game",
                        "largest_free_block_before_game", "lazy_modules"):
                if key in rep:
                    print("  %s: %s" % (key, rep[key]))
            if rep.get("traceback"):
                print("  " + rep["traceback"].rstrip().replace("\n", "\n  "))
        margins = [mcu.margins(1, rule, seed, mb=mb, engine=engine)
                   for rule, seed in MARGIN_GAMES]
    if not reports:
        return 1
    ms = [t for r in reports for t in r["move_ms"]]
    med, mx = statistics.median(ms), max(ms)
    print("level1 move on micro:bit: median %.0f ms, max %.0f ms over %d moves in %d games "
          "(budget: median <= 300, max <= 600) %s"
          % (med, mx, len(ms), len(reports), verdict(med <= 300 and mx <= 600)))
    for rule in sorted({x["rule"] for x in reports}):
        rms = [t for x in reports if x["rule"] == rule for t in x["move_ms"]]
        print("  rule %d: median %.0f ms, max %.0f ms over %d moves"
              % (rule, statistics.median(rms), max(rms), len(rms)))
    print("level1 move allocation on micro:bit: 0 bytes (heap_lock held for all %d moves; "
          "budget: 0) ok" % sum(r["heap_locked_moves"] for r in reports))
    r = reports[0]
    mods = ", ".join("%s %d" % (n, m["import_bytes"]) for n, m in r["modules"].items())
    free_min = min(min(x["min_free_during_game"], x["free_at_end"]) for x in reports)
    print("engine import on micro:bit: %d bytes of heap (%s); free heap %d before import, "
          "%d after (budget: fits in ~9 KB) %s"
          % (r["import_bytes"], mods, r["free_before_import"], r["free_after_import"],
             verdict(r["free_after_import"] > 0)))
    print("engine game on micro:bit: free heap %d before the game (after the %d-byte test "
          "driver; largest free block %d), %d at the lowest during a game (budget: > 0) %s"
          % (r["free_before_game"], r["driver_bytes"], r["largest_free_block_before_game"],
             free_min, verdict(free_min > 0)))
    flash = max(x["uploaded_bytes"] for x in reports + failed if "uploaded_bytes" in x)
    source = sum(m["source_bytes"] for m in r["modules"].values())
    lazy = sorted({n for x in reports + failed for n in x["lazy_modules"]})
    print("engine on micro:bit flash: up to %d bytes uploaded (top-level modules %d bytes in "
          "source; comments, docstrings and indentation stripped%s) of ~%d bytes of file "
          "system" % (flash, source, "; also loaded when needed: " + ", ".join(lazy)
                      if lazy else "", FLASH))
    for (rule, seed), m in zip(MARGIN_GAMES, margins):
        print("level1 game on micro:bit, rule %d opening %d, margins: it still completes holding "
              "%d more bytes of heap (one block) and under %d more Python calls (C stack; "
              "heap_lock puts frames there); its engine still compiles on import holding %d "
              "(budget: > 0) %s"
              % (rule, seed, m["heap_bytes"], m["stack_frames"], m["import_bytes"],
                 verdict(m["heap_bytes"] > 0 and m["stack_frames"] > 0
                         and m["import_bytes"] > 0)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
