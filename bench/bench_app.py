"""The app's budgets: heap on the MicroPython unix port during a full game,
SPI bytes per cursor step and per placed stone, press-to-stone time.

Heap: the firmware compiled to .mpy (as a board gets it), a whole game
against the AI on the unix port with host_sim's chip models; the live heap
(after a collection, at every sleep of the firmware) minus what the models
and the script held before boot, plus the entries of the names (qstrs) the
firmware interned, which land in a pool the rig allocates before boot. The
most of three runs, the heap's blocks shifted a little each time (SHIFTS).
The same for a wireless match hosted, played and left (match_heap): a
figure with no budget, as a board without a radio never loads it.
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
from test_app_wireless import start_hosting  # noqa: E402
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


# A wireless match on the unix port: the rig's radio on a medium it shares
# with the other handheld, a Match on a radio of its own built in this
# process once the firmware has loaded the match's code (so that code is
# counted once, as the firmware's). What the peer holds (its radio model,
# driver and Match, measured as it is built) is taken out of every sample.
MATCH_RUN = """
import gc, json, os, sys, time, micropython
sys.path.append(%r)         # radio_medium: after the firmware
os.chdir(%r)
import app_script, sim_clock, machine
from radio_medium import Medium
board = __import__("board_sim")
med = Medium(seed=3)
rig = app_script.Rig(board, medium=med)
with open("events.json") as f:
    events = json.load(f)
peer = [None, 0]
FAR = [12 * 15 + x for x in range(1, 14)]
def tick():
    m = peer[0]
    if m is None:
        if "wireless" in sys.modules:
            import nrf24l01, nrf24l01_model, match
            gc.collect()
            a = gc.mem_alloc()
            # the bus and pins of host_sim.match.Node(1), clear of the board's
            model = nrf24l01_model.NRF24L01Model(114, 122, med)
            machine.attach_spi(10, 105, model, "nrf1")
            radio = nrf24l01.NRF24L01(machine.SPI(10, baudrate=4000000),
                                      machine.Pin(105), machine.Pin(114),
                                      machine.Pin(122))
            m = match.Match(radio, host=False, seed=77, now_ms=time.ticks_ms())
            gc.collect()
            peer[0] = m
            peer[1] = gc.mem_alloc() - a
    elif "wireless" in sys.modules:
        now = time.ticks_ms()
        while m.poll(now) is not None:
            pass
        if m.my_turn() and not m.game.winner:
            g = m.game
            p = [i for i in FAR if not g.stone(i %% 15, i // 15)][0]
            m.send_move(p %% 15, p // 15)
    sim_clock.call_at(sim_clock.now_us() + 10000, tick)
sim_clock.call_at(300000, tick)
rig.heap_watch(1)
peak = [0]
def sample():
    gc.collect()
    used = gc.mem_alloc() - rig.heap_base - (peer[1] if peer[0] else 0)
    if used > peak[0]:
        peak[0] = used
rig._sample = sample
r = rig.run(events)
micropython.qstr_info()
print(json.dumps({"r": r, "peak": peak[0], "peer": peer[1],
                  "moves": peer[0].count if peer[0] else 0,
                  "winner": peer[0].game.winner if peer[0] else 0}))
"""


def match_heap():
    """The heap of a wireless match: hosted from the menu, the peer joins,
    black's five against the peer's stones, then leave."""
    s = Script()
    s.wait(300)
    start_hosting(s)
    for x in range(3, 8):
        s.place(7 * 15 + x)
        s.wait(400)
    s.wait(500)
    s.tap("menu")           # X: leave
    s.wait(1000)
    with tempfile.TemporaryDirectory() as d:
        out = run_script(MATCH_RUN % (str(ROOT / "host_sim"), d), s.end(),
                         Path(d), "1024k")
    res = json.loads(out.strip().splitlines()[-1])
    assert res["r"] == "end" and res["moves"] == 9 and res["winner"] == 1, res
    start, end = names_lines(out)[-2:]      # heap_watch's line, and the last
    peak = res["peak"] + names_entries(start, end)
    print("app heap on the unix port, wireless match hosted, 5 stones each, "
          "won and left: peak %.1f KB total (no budget: a board without a radio "
          "never loads it; the other handheld's %.1f KB taken out)"
          % (peak / 1024, res["peer"] / 1024))


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
    match_heap()
