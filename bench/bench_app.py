"""The app's budgets: heap on the MicroPython unix port during a full game,
SPI bytes per cursor step and per placed stone, press-to-stone time.

Heap: the firmware compiled to .mpy (as a board gets it), a whole game
against the AI on the unix port with host_sim's chip models; the live heap
(after a collection, at every sleep of the firmware) minus what the models
and the script held before boot, plus the entries of the names (qstrs) the
firmware interned, which land in a pool the rig allocates before boot. The
most of three runs, the heap's blocks shifted a little each time (SHIFTS).
"""
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT)]
import conftest  # noqa: E402,F401
import host_sim  # noqa: E402

host_sim.install()
import sim_clock  # noqa: E402
from budget import verdict  # noqa: E402
import board_sim  # noqa: E402
import board_pico_lcd13  # noqa: E402
import spi_clock  # noqa: E402
import board_view as bv  # noqa: E402
from app_script import Rig, Script, layout, plan_lost_game, stone_point  # noqa: E402
from test_app_upy import LOAD_RIG, run_script  # noqa: E402
from upy import QSTR_ENTRY, names_entries, names_lines  # noqa: E402

VIEW = layout(board_sim)
# the engine modules each level adds to gomoku and ai
LEVEL_MODULES = {1: (), 2: ("candscan", "vcf", "movepick", "search")}
SPI_HZ = board_sim.LCD["baudrate"]      # the simulator clocks the rate asked
# the board it lays out, a Pico, divides that down
PICO_SPI_HZ = spi_clock.bus_hz(board_pico_lcd13.PORT, board_pico_lcd13.LCD["baudrate"])

HEAP_RUN = LOAD_RIG + """
import micropython
for k in range(%d):
    getattr(rig, "shift" + str(k), None)
before = set(sys.modules)
r = rig.run(events)
peak = rig.heap_peak
micropython.qstr_info()
used = [m for m in %r if m in sys.modules]
sys.modules["board"] = board
rig = events = None
for m in list(sys.modules):
    if m not in before:
        del sys.modules[m]
gc.collect()
a = gc.mem_alloc()
for m in ("app", "buttons", "st7789", "l3g4200d", "gomoku", "ai") + %r:
    __import__(m)
gc.collect()
print(json.dumps({"r": r, "peak": peak, "code": gc.mem_alloc() - a, "used": used}))
"""


# Names the rig interns before each run: the heap's blocks shifted a little.
# The collector takes any word on the C stack that points at a block for a
# reference, so a stale word keeps some garbage alive, more or less by where
# the blocks lie (up to 1 KB between runs here): the figure is the most.
SHIFTS = (0, 17, 41)


def heap(level=1):
    """The heap figures for a game against the AI at `level` (the menu set
    to it first), the AI's modules counted as loaded code: the most of a
    run for each of SHIFTS."""
    import ai
    ai.seed(1)              # as a fresh board's AI starts
    moves, g = plan_lost_game(0, level, 1)
    s = Script()
    if level != 1:
        s.choose_level(ai.LEVELS.index(level))
    s.play_black_moves(moves)
    s.tap("place")          # rematch
    s.wait(300)
    s.place(3 * 15 + 3)
    s.wait(300)
    runs = [heap_run(level, s.end(), k) for k in SHIFTS]
    peak, code, start, end = max(runs)
    entries = names_entries(start, end)
    print("app heap on the unix port, full game vs AI level %d (%d moves) + rematch: "
          "peak %.1f KB total (budget: <= 64 KB) %s"
          % (level, len(moves), peak / 1024, verdict(peak <= 64 * 1024)))
    print("app heap at AI level %d: loaded code %.1f KB, working set beyond it %.1f KB"
          % (level, code / 1024, (peak - code) / 1024))
    print("app heap at AI level %d: of that, %d names interned (qstrs): their text %.1f KB, "
          "their pool entries %.1f KB (%d bytes each)"
          % (level, end[1] - start[1], (end[2] - start[2]) / 1024, entries / 1024,
             QSTR_ENTRY))
    print("app heap at AI level %d: the most of %d runs, the rig's heap shifted a little "
          "each time (a stale word on the C stack keeps garbage by layout): %.1f to %.1f KB"
          % (level, len(runs), min(runs)[0] / 1024, peak / 1024))


def heap_run(level, events, shift):
    """One run of the game, the rig having interned `shift` names first:
    -> (peak with the names' entries, loaded code, qstr_info line before the
    game, the line after it)."""
    with tempfile.TemporaryDirectory() as d:
        out = run_script(HEAP_RUN % (d, "board_sim", {"heap_every": 1}, shift,
                                     LEVEL_MODULES[level], LEVEL_MODULES[level]),
                         events, Path(d), "1024k")
    res = json.loads(out.strip().splitlines()[-1])
    assert res["r"] == "end", res
    assert res["used"] == list(LEVEL_MODULES[level]), res     # the AI played at `level`
    # the names the firmware interned (the rig's lines before the game and
    # after it): their text is in the peak, their entries are added
    start, end = names_lines(out)
    return res["peak"] + names_entries(start, end), res["code"], start, end


def spi_and_latency():
    with tempfile.TemporaryDirectory() as d:
        old = os.getcwd()
        os.chdir(d)
        try:
            rig = Rig(board_sim)
            s = Script()
            s.tap("menu")       # two players: no AI reply in the figures
            s.tap("place")
            s.tap("menu")
            s.tap("menu")
            s.tap("place")
            s.wait(500)
            s.snap("c0", [])
            s.tap("right", 60, 300)
            s.snap("c1", [])
            s.tap("down", 60, 300)
            s.snap("c2", [])
            s.tap("place", 80, 400)     # black at (8, 8)
            s.snap("p1", [])
            s.tap("right", 60, 300)
            s.snap("c3", [])
            press_at = s.t
            s.tap("place", 80, 400)     # white at (9, 8)
            s.snap("p2", [])
            target = stone_point(VIEW, 8 * 15 + 9)
            seen = []

            def watch(now_us):
                if not seen and now_us >= press_at * 1000 and \
                        rig.lcd.pixel(*target) == bv.WHITE:
                    seen.append(now_us)
            sim_clock.add_hook(watch)
            rig.count_spi()
            r = rig.run(s.end())
            assert r == "end", r
        finally:
            os.chdir(old)
    b = rig.bytes_at
    step = max(b["c1"] - b["c0"], b["c2"] - b["c1"], b["c3"] - b["p1"])
    stone = max(b["p1"] - b["c2"], b["p2"] - b["c3"])
    print("SPI bytes per cursor step: %d (budget: <= 2048) %s" % (step, verdict(step <= 2048)))
    print("SPI bytes per placed stone (stone, last-move mark, status, "
          "cursor): %d (budget: <= 2048) %s" % (stone, verdict(stone <= 2048)))
    print("SPI time per placed stone at %s (pico_lcd13's clock): %.2f ms"
          % (spi_clock.mhz(PICO_SPI_HZ), stone * 8 * 1000 / PICO_SPI_HZ))
    if seen:
        print("press to stone on screen (sim clock: debounce, poll, engine "
              "bookkeeping on the virtual clock, SPI at %d MHz): %.1f ms"
              % (SPI_HZ // 1000000, (seen[0] - press_at * 1000) / 1000))
    else:
        print("press to stone on screen: not measured (the white stone never "
              "appeared at its point)")


if __name__ == "__main__":
    spi_and_latency()
    heap(1)
    heap(2)             # the handheld's top level
