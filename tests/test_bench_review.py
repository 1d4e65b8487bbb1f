"""Mutation review of bench/bench_*.py: each figure `make bench` prints is the
one its inputs give, under the name it carries, against the budget its line
states. The slow parts (arena, boards, the unix-port heap runs) are replaced
by fakes whose figures follow from arithmetic on their inputs; the quick
simulator measurements run for real and are checked against datasheet facts."""
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from test_bench_figures import (FakeBoard, FrozenBoard, _bench_mcu, _mcu_report, bench,
                                lines, sensors_main, spi_run)

ROOT = Path(__file__).resolve().parents[1]


# -- bench_ai: which level plays which, against which target -----------------------

def test_ai_main_scores_each_level_under_its_own_name_against_its_target(monkeypatch):
    bench_ai = bench("bench_ai")
    calls = []
    monkeypatch.setattr(bench_ai, "match", lambda a, b, games, la, lb, budget, timeout=60,
                        stones=(2, 4): calls.append((a, b, la, lb, budget, stones)) or True)
    monkeypatch.setattr(bench_ai, "unix_heap", lambda level: True)
    assert bench_ai.main() == 0

    def level(cmd):
        m = re.search(r"pbrain\.py --level (\d) --seed \{seed\}$", cmd)
        return m and int(m.group(1))

    # one figure without a target: the top level's first reply to a lone stone
    lone = [c for c in calls if c[5] != (2, 4)]
    assert [(c[2], c[4], c[5]) for c in lone] == [("level2", None, (1, 1))]
    assert "ref_alphabeta" in lone[0][1] and "one stone" in lone[0][3]
    calls = [c[:5] for c in calls if c[5] == (2, 4)]
    for a, b, la, lb, budget in calls:
        assert la == "level%d" % level(a), (a, la)      # the scored side is the named one
        if "pbrain" in b:
            assert lb == "level%d" % level(b) and level(b) == level(a) - 1
            assert budget == 70                          # each level beats the one below
        elif "seed_brain" in b:
            assert budget == 99                          # the seed scorer's target
        else:
            assert budget == 90
    # the handheld's top level (README: level 2) plays the three references
    tops = [la for a, b, la, lb, budget in calls if "pbrain" not in b]
    assert tops[:3] == ["level2"] * 3 and tops[3:] == ["level3"] * 3
    assert [la for a, b, la, lb, budget in calls if "pbrain" in b] == ["level2", "level3"]


# -- bench_app: the heap verdict, the press-to-stone figure --------------------------

QSTR_LINE = "qstr pool: n_pool=%d, n_qstr=%d, n_str_data_bytes=%d, n_total_bytes=%d"


def qstr_line(names, pools=7):
    """micropython.qstr_info()'s line after `names` names of 8 bytes each
    joined 1000 others, in `pools` pools."""
    return QSTR_LINE % (pools, 1000 + names, 9000 + 8 * names, 30000 + 8 * names)


def _app_heap(monkeypatch, level, names=0, pools=7, **res):
    """bench_app.heap(level) with the unix-port run faked: it reports `res`,
    and `names` names interned in the game, the names' pools `pools` after
    it (7 before)."""
    import json
    bench_app = bench("bench_app")
    monkeypatch.setattr(bench_app, "plan_lost_game",
                        lambda rule, lv, human: ([112, 113, 114, 115], None))
    out = dict({"r": "end", "code": 30 * 1024,
                "used": list(bench_app.LEVEL_MODULES[level])}, **res)
    qstr = qstr_line(0) + "\nboot\n" + qstr_line(names, pools)
    monkeypatch.setattr(bench_app, "run_script",
                        lambda code, events, flash, heap: qstr + "\n" + json.dumps(out))
    bench_app.heap(level)


@pytest.mark.parametrize("peak, word", [(64 * 1024, "ok"), (64 * 1024 + 1, "OVER BUDGET")])
def test_app_heap_is_within_budget_up_to_64_kb(monkeypatch, capsys, peak, word):
    _app_heap(monkeypatch, 2, peak=peak)
    out = lines(capsys)
    assert out[0] == ("app heap on the unix port, full game vs AI level 2 (4 moves) + rematch: "
                      "peak 64.0 KB total (budget: <= 64 KB) %s" % word)
    assert out[1] == "app heap at AI level 2: loaded code 30.0 KB, working set beyond it %.1f KB" \
        % ((peak - 30 * 1024) / 1024)


def test_app_heap_counts_the_names_the_firmware_interned(monkeypatch, capsys):
    """Their text is in the rig's peak; their entries, in a pool the rig
    allocated before the game, are added: 11 bytes each on the unix port."""
    _app_heap(monkeypatch, 2, names=1024, peak=50 * 1024)
    out = lines(capsys)
    assert out[0].endswith("peak 61.0 KB total (budget: <= 64 KB) ok")
    assert out[1].endswith("loaded code 30.0 KB, working set beyond it 31.0 KB")
    assert out[2] == ("app heap at AI level 2: of that, 1024 names interned (qstrs): "
                      "their text 8.0 KB, their pool entries 11.0 KB (11 bytes each)")


def test_app_heap_is_the_most_of_its_shifted_runs(monkeypatch, capsys):
    """A stale word on the C stack keeps some garbage alive by where the
    blocks lie: the figure is the highest of the runs, the range printed."""
    import json
    bench_app = bench("bench_app")
    monkeypatch.setattr(bench_app, "plan_lost_game",
                        lambda rule, lv, human: ([112, 113, 114, 115], None))
    peaks = iter([61 * 1024, 63 * 1024, 62 * 1024])
    shifts = []

    def run_script(code, events, flash, heap):
        shifts.append(code.count("shift"))
        out = {"r": "end", "code": 30 * 1024, "peak": next(peaks),
               "used": list(bench_app.LEVEL_MODULES[2])}
        return qstr_line(0) + "\nboot\n" + qstr_line(0) + "\n" + json.dumps(out)
    monkeypatch.setattr(bench_app, "run_script", run_script)
    bench_app.heap(2)
    out = lines(capsys)
    assert out[0].endswith("peak 63.0 KB total (budget: <= 64 KB) ok")
    assert out[3].endswith("keeps garbage by layout): 61.0 to 63.0 KB")
    assert len(shifts) == len(bench_app.SHIFTS) == 3


@pytest.mark.parametrize("res, why", [({"r": "timeout"}, "timeout"),
                                      ({"used": ["candscan", "vcf"]}, "vcf"),
                                      ({"pools": 8}, "a pool for names")])
def test_app_heap_refuses_a_game_that_did_not_end_or_ran_another_level(monkeypatch, res, why):
    """...or one in which a pool for names was allocated: its whole size
    would be in the peak, however few names filled the last one."""
    with pytest.raises(AssertionError, match=why):
        _app_heap(monkeypatch, 1, peak=1000, **res)


def test_app_press_to_stone_is_the_time_from_the_press(capsys):
    bench_app = bench("bench_app")
    try:
        bench_app.spi_and_latency()
    finally:
        bench_app.sim_clock.reset()             # its pixel watch off the shared clock
    out = lines(capsys)
    got = [ln for ln in out if ln.startswith("press to stone on screen")]
    assert len(got) == 1, out                   # the figure is there, not dropped
    ms = float(got[0].rsplit(": ", 1)[1].split()[0])
    # the press is held 80 ms and the next snapshot is 400 ms after the
    # release, with the white stone already drawn
    assert 0 < ms < 480, got


ONE_STEP = {"c0": 0, "c1": 100, "c2": 200, "p1": 1200, "c3": 1300, "p2": 2300}


def test_app_spi_figures_refuse_a_run_that_did_not_reach_its_end(monkeypatch):
    with pytest.raises(AssertionError, match="timeout"):
        spi_run(monkeypatch, ONE_STEP, "timeout")


def test_app_press_to_stone_not_seen_is_said_not_dropped(monkeypatch, capsys):
    spi_run(monkeypatch, ONE_STEP)
    got = [ln for ln in lines(capsys) if ln.startswith("press to stone on screen")]
    assert len(got) == 1 and "not measured" in got[0], got


# -- bench_build: a failed boot, the lines and the json ------------------------------

# the base, then each figure, each with the names' line after it: 10, 20,
# 30 names interned by the menu, the move and the end
GOOD_BOOT = "".join(
    line + "\n" + qstr_line(names) + "\n"
    for line, names in (("BASE 1000", 0), ("HEAP ('menu', 500)", 10),
                        ("HEAP ('move', 800)", 20), ("HEAP ('peak', 900)", 30))
) + "SOURCES ['.mpy']\n"


@pytest.mark.parametrize("rc, out, err, ok", [
    (0, GOOD_BOOT, "", True),
    (1, GOOD_BOOT, "", False),                                  # the run failed
    (0, GOOD_BOOT + "MemoryError: memory allocation failed\n", "", False),
    (0, GOOD_BOOT, "MemoryError: memory allocation failed\n", False),
    # a MemoryError the firmware caught at boot, reported as the chip it was
    # building: the game went on without that chip
    (0, "Display ST7789 not found (SPI1 sck=10): memory allocation failed, "
        "allocating 1025 bytes. Cannot play without it\n" + GOOD_BOOT, "", False),
    (0, GOOD_BOOT.replace("HEAP ('peak', 900)\n", ""), "", False),   # cut short
])
def test_build_measure_is_none_when_the_boot_fails(monkeypatch, tmp_path, rc, out, err, ok):
    bench_build = bench("bench_build")
    monkeypatch.setattr(bench_build.subprocess, "run", lambda *a, **kw: SimpleNamespace(
        returncode=rc, stdout=out, stderr=err))
    got = bench_build.measure(tmp_path, heap_kb=64)
    if ok:
        # each figure with its names' pool entries, 11 bytes a name, and
        # the entries of all the names interned by the end
        assert got == {"menu": 610, "move": 1020, "peak": 1230, "base": 1000,
                       "names": 330, "kinds": [".mpy"]}
    else:
        assert got is None


def test_build_measure_refuses_a_pool_for_names_allocated_in_the_boot(monkeypatch, tmp_path):
    bench_build = bench("bench_build")
    grown = GOOD_BOOT.replace(qstr_line(30), qstr_line(30, pools=8))
    assert grown != GOOD_BOOT
    monkeypatch.setattr(bench_build.subprocess, "run", lambda *a, **kw: SimpleNamespace(
        returncode=0, stdout=grown, stderr=""))
    with pytest.raises(AssertionError, match="a pool for names"):
        bench_build.measure(tmp_path)


def test_build_main_reports_each_heap_under_its_name(monkeypatch, capsys):
    import json
    bench_build = bench("bench_build")
    need = {None: 100, "src": 160}       # KB of heap each kind of boot needs

    def measure(flash, heap_kb=1024, room_kb=None):
        kind = "src" if flash.name.startswith("src-") else None
        if room_kb is not None and room_kb < need[kind]:
            return None
        return {"base": 20 * 1024, "menu": 3000, "move": 5000, "peak": 7000,
                "names": 1024, "kinds": [".py" if kind else ".mpy"]}

    monkeypatch.setattr(bench_build, "measure", measure)
    monkeypatch.setattr(bench_build.build, "build", lambda board, out, opt=1: {
        "modules": [{"module": "a", "mpy_bytes": 10}], "total_mpy_bytes": 10,
        "total_py_bytes": 20, "main_py_bytes": 1234})
    monkeypatch.setattr(bench_build.built_device, "flash_from_build", lambda build, flash: None)
    assert bench_build.main() == 0
    out = lines(capsys)
    assert out[0].endswith("main.py 1234 bytes as source")
    for board in bench_build.BOARDS:
        heap = [ln for ln in out if ln.startswith(board + " heap after boot")]
        assert heap == ["%s heap after boot from .mpy (menu shown): 3000 bytes; after the first "
                        "move: 5000 bytes; peak (sampled every 10 ms): 7000 bytes (firmware "
                        "only, 64-bit unix port: a 32-bit board needs less)" % board]
        (small,) = [ln for ln in out if ln.startswith(board + " smallest heap")]
        mpy_kb, src_kb = map(int, re.search(r": (\d+) KB from \.mpy, (\d+) KB from \.py",
                                            small).groups())
        # the least room left beside the models that boots, to within
        # 4 KB, and the names' 1 KB of pool entries
        assert 101 <= mpy_kb < 105 and 161 <= src_kb < 165, small
        (js,) = [json.loads(ln[5:]) for ln in out if ln.startswith("json ")
                 and '"%s"' % board in ln]
        assert (js["heap_menu"], js["heap_move"], js["heap_peak"]) == (3000, 5000, 7000)
        assert js["min_heap_mpy"] // 1024 == mpy_kb and js["min_heap_py"] // 1024 == src_kb


# -- tools/spi_clock (bench_display, bench_app, the wiring tables): the SPI divider

@pytest.mark.parametrize("asked, rp2040, esp32", [
    (62500000, 24000000, 40000000),     # 48/(2*1); 80/2
    (40000000, 24000000, 40000000),     # 48/(2*1); 80/2
    (10000000, 8000000, 10000000),      # 48/(2*3); 80/8
    (4000000, 4000000, 4000000),        # 48/(2*6); 80/20
    (3000000, 3000000, 2962962),        # 48/(2*8); 80/27
    (1000000, 1000000, 1000000),        # 48/(2*24); 80/80
    (100000, 100000, 100000),           # 48/(2*240); 80/800
    # the pico-sdk's prescale: the smallest even one with 48 MHz <
    # (prescale + 2) * 256 * rate, 2, whose slowest rate is above the one asked
    (50000, 93750, 50000),              # 48/(2*256); 80/1600
])
def test_spi_clock_divides_as_the_pico_sdk_and_esp32_do(asked, rp2040, esp32):
    import spi_clock
    assert spi_clock.rp2040(asked) == rp2040 and spi_clock.esp32(asked) == esp32


def test_spi_clock_refuses_a_rate_below_the_rp2040s_slowest():
    import spi_clock
    assert spi_clock.rp2040(733) == 738     # 48 MHz / (254 * 256)
    with pytest.raises(ValueError, match="slowest"):
        spi_clock.rp2040(732)


# -- bench_display: what counts as a byte and a RAMWR window -------------------------

def test_display_count_is_bus_bytes_and_ramwr_commands(monkeypatch):
    bench_display = bench("bench_display")
    monkeypatch.setattr(bench_display, "counts", {"bytes": 0, "windows": 0})
    # CASET, RASET, RAMWR (0x2C) as commands: one window of 11 bytes
    bench_display.count({"bus": "spi1", "dc": 0, "tx": "2a000000ef2b000000ef2c"})
    # RASET and RAMWR again, the columns kept: a second window
    bench_display.count({"bus": "spi1", "dc": 0, "tx": "2b000a000a2c"})
    # pixels 0x2C2C and the command 0x12 0xC3: data and no RAMWR
    bench_display.count({"bus": "spi1", "dc": 1, "tx": "2c2c"})
    bench_display.count({"bus": "spi1", "dc": 0, "tx": "12c3"})
    assert bench_display.counts == {"bytes": 11 + 6 + 2 + 2, "windows": 2}


def test_display_seed_grid_is_15_lines_over_14_pitches():
    bench_display = bench("bench_display")
    calls = []
    d = SimpleNamespace(width=240, height=240,
                        fill_rect=lambda *a: calls.append(("rect",) + a),
                        hline=lambda *a: calls.append(("h",) + a),
                        vline=lambda *a: calls.append(("v",) + a))
    bench_display.seed_board(d, 13)
    span = 14 * 13 + 1                          # 15 lines, 14 gaps, 1 px each
    h = [c for c in calls if c[0] == "h"]
    assert len(h) == 15 and {c[3] for c in h} == {span}
    assert h[-1][2] - h[0][2] == 14 * 13
    x0 = h[0][1]
    assert abs(x0 - (240 - x0 - span)) <= 1          # centred


def test_display_figures_fail_when_the_model_saw_a_wrong_command(monkeypatch, capsys):
    bench_display = bench("bench_display")

    class Noted(bench_display.st7789_model.ST7789Model):
        def __init__(self, *a, **kw):
            super().__init__(*a, **kw)
            self.errors.append("ST7789 @0 us: a command during reset")

    monkeypatch.setattr(bench_display.st7789_model, "ST7789Model", Noted)
    try:
        with pytest.raises(AssertionError, match="a command during reset"):
            bench_display.figures("st7789")
    finally:
        bench_display.machine.set_trace(None)
        bench_display.machine.forget_all()


# -- bench_engine: CPython move time, the unix port, the micro:bit rows ---------------

def test_engine_cpython_times_best_move_and_play_apart(monkeypatch, capsys):
    bench_engine = bench("bench_engine")
    clock = [0.0]

    class Game:                                 # four moves, then a winner
        def __init__(self):
            self.n, self.winner = 0, 0

        def play(self, x, y):
            clock[0] += 10e-6
            self.n += 1
            self.winner = 1 if self.n == 4 else 0

    def best_move(g, level):
        assert level == 1
        clock[0] += 100e-6 * (g.n + 1)          # 100, 200, 300, 400 us
        return 112

    monkeypatch.setattr(bench_engine, "time", SimpleNamespace(perf_counter=lambda: clock[0]))
    monkeypatch.setattr(bench_engine.gomoku, "Game", Game)
    monkeypatch.setattr(bench_engine.engine_match, "opening", lambda seed: [])
    monkeypatch.setattr(bench_engine.ai, "best_move", best_move)
    bench_engine.cpython_speed()
    assert lines(capsys) == ["CPython level-1 move: 250 us (best_move), play() with table "
                             "update: 10 us"]


def test_engine_unix_port_any_allocation_is_over_budget(monkeypatch, capsys):
    bench_engine = bench("bench_engine")
    monkeypatch.setattr(bench_engine.upy, "run", lambda code, **kw: "30 16\n")
    bench_engine.unix_port()
    assert lines(capsys) == ["unix port level-1 allocation: 16 bytes max over 30 moves (3 rules), "
                             "every move also run under heap_lock (budget 0) OVER BUDGET"]


RULES_SEEN = """
import gomoku
_Game, _rules = gomoku.Game, []
def _game(rule=0):
    _rules.append(rule)
    return _Game(rule)
gomoku.Game = _game
"""


def test_engine_unix_port_plays_the_three_rules(monkeypatch, capsys):
    bench_engine = bench("bench_engine")
    real, seen = bench_engine.upy.run, []

    def run(code, **kw):
        out = real(RULES_SEEN + code + "print(_rules)\n", **kw).strip().splitlines()
        seen.append(out.pop())
        return "\n".join(out)

    monkeypatch.setattr(bench_engine.upy, "run", run)
    bench_engine.unix_port()
    assert seen == ["[0, 1, 4]"]                # freestyle, standard, renju
    assert lines(capsys)[0].endswith("(budget 0) ok")


class EngineBoard:
    """A micro:bit for microbit_game: 9000 bytes free after a reset, each
    import takes its share; the game prints two moves and the winner."""
    COST = {"import engdrv": 500, "import gomoku": 3000, "import ai": 2000}

    def __init__(self):
        self.files = {}

    def soft_reset(self):
        self.free = 9000

    def put(self, name, text):
        self.files[name] = text

    def mem_free(self):
        return self.free

    def call(self, code, timeout=None):
        if code == "engdrv.game()":
            return "112 250000 30000\n113 260000 31000\nW 1\n"
        self.free -= self.COST[code]
        return ""


def test_engine_microbit_game_heap_before_and_after_import_and_its_rows():
    bench_engine = bench("bench_engine")
    mb = EngineBoard()
    free0, free1, rows = bench_engine.microbit_game(mb, ["gomoku", "ai"], 4, 4)
    assert (free0, free1) == (9000, 9000 - 500 - 3000 - 2000)
    assert rows == [[112, 250000, 30000], [113, 260000, 31000]]
    assert "g=gomoku.Game(4)" in mb.files["engdrv.py"]


def test_engine_microbit_driver_times_best_move_and_play_apart(monkeypatch, capsys):
    """MCU_DRIVER on CPython with a fake clock: each row is the move, the
    best_move time and the play() time, best_move under heap_lock."""
    bench_engine = bench("bench_engine")
    clock, locked = [0], [False]
    mp = SimpleNamespace(heap_lock=lambda: locked.__setitem__(0, True),
                         heap_unlock=lambda: locked.__setitem__(0, False))
    utime = SimpleNamespace(ticks_us=lambda: clock[0], ticks_diff=lambda a, b: a - b)

    class Game:
        def __init__(self, rule):
            self.n, self.winner = 0, 0

        def play(self, x, y):
            clock[0] += 300
            self.n += 1
            self.winner = 2 if self.n == 3 else 0

    def best_move(g, level):
        assert locked[0] and level == 1
        clock[0] += 7000
        return 100 + g.n

    for name, mod in (("micropython", mp), ("utime", utime),
                      ("gomoku", SimpleNamespace(Game=Game)),
                      ("ai", SimpleNamespace(best_move=best_move))):
        monkeypatch.setitem(sys.modules, name, mod)
    scope = {}
    exec(bench_engine.MCU_DRIVER.format(rule=0, opening=(112,)), scope)
    scope["game"]()
    assert lines(capsys) == ["101 7000 300", "102 7000 300", "W 2"]


def test_engine_main_runs_the_microbit_game_unless_told_not_to(monkeypatch):
    bench_engine = bench("bench_engine")
    ran = []
    for name in ("memory", "cpython_speed", "unix_port", "microbit"):
        monkeypatch.setattr(bench_engine, name, lambda name=name: ran.append(name))
    monkeypatch.setattr(bench_engine, "strength", lambda games: ran.append(games))
    bench_engine.main(["--no-mcu", "--games", "10"])
    assert ran == ["memory", "cpython_speed", 10, "unix_port"]
    del ran[:]
    bench_engine.main([])
    assert ran[-1] == "microbit"


# -- bench_mcu: a game with problems, both margins, another engine -------------------

def test_mcu_game_with_problems_fails_and_shows_its_heap(monkeypatch, capsys):
    ok = _mcu_report(0, [100], 500, 500, 11000)
    bad = _mcu_report(4, [120], 500, 500, 11000,
                      problems=["winner 1 claimed without a winning line"])
    assert _bench_mcu(monkeypatch, [ok, ok, ok, bad, ok]) == 1
    out = lines(capsys)
    assert out[0] == ("level1 game on micro:bit (rule 4, opening 4) FAILED: None "
                      "['winner 1 claimed without a winning line']")
    assert "  free_before_import: 8000" in out and "  free_after_import: 3000" in out
    assert any(ln.startswith("level1 move on micro:bit: median 100 ms, max 100 ms over 4 "
                             "moves in 4 games") for ln in out)


def test_mcu_margins_line_for_each_margin_game(monkeypatch, capsys):
    bench_mcu = bench("bench_mcu")
    _bench_mcu(monkeypatch, [_mcu_report(0, [100], 500, 500, 1)] * 5)
    margins = [re.match(r"level1 game on micro:bit, rule (\d) opening (\d), margins", ln)
               for ln in lines(capsys)]
    assert [m.groups() for m in margins if m] == [
        (str(r), str(s)) for r, s in bench_mcu.MARGIN_GAMES]
    assert len(bench_mcu.MARGIN_GAMES) == 2


def test_mcu_measures_the_engine_folder_it_is_given(monkeypatch, capsys):
    bench_mcu = bench("bench_mcu")
    used = []

    def play_game(**kw):
        used.append(kw["engine"])
        return _mcu_report(0, [100], 500, 500, 1)

    def margins(level, rule, seed, mb=None, engine=None):
        used.append(engine)
        return {"heap_bytes": 1, "stack_frames": 1, "import_bytes": 1}

    monkeypatch.setattr(bench_mcu.mcu, "MicroBit", FakeBoard)
    monkeypatch.setattr(bench_mcu.mcu, "play_game", play_game)
    monkeypatch.setattr(bench_mcu.mcu, "margins", margins)
    assert bench_mcu.main(["/elsewhere/engine"]) == 0
    assert used == [Path("/elsewhere/engine")] * 7


# -- bench_mcu_ai: the level-1 line's maximum, the flash line -------------------------

def _mcu_ai(monkeypatch, tmp_path, worst=100, log=""):
    """bench_mcu_ai.main() on fake games: level 1 plays 100 ms moves and one
    of `worst`; level 2 one 1 s move a game, CPython's."""
    bench_mcu_ai = bench("bench_mcu_ai")
    mf = bench_mcu_ai.mcu_firmware
    (tmp_path / "build.log").write_text(log)

    def play_game(mb, level, rule, seed, ballast=0):
        if level == 1:                          # median 100 ms either way
            return {"move_ms": [100, 100] if rule == 0 else [100, worst]}
        return {"moves": [112], "move_ms": [1000], "free_before_move": [4000],
                "free_after_move": [3000]}

    monkeypatch.setattr(mf, "OUT", tmp_path)
    monkeypatch.setattr(mf, "build", lambda: tmp_path / "fw.hex")
    monkeypatch.setattr(mf, "play_game", play_game)
    monkeypatch.setattr(mf, "host_game", lambda level, rule, seed: ([112], 1))
    monkeypatch.setattr(mf, "frozen_names", lambda: ["gomoku"])
    monkeypatch.setattr(bench_mcu_ai.mcu, "MicroBit", FrozenBoard)
    monkeypatch.setattr(bench_mcu_ai.mcu, "engine_modules", lambda entry: list(entry))
    return bench_mcu_ai.main()


@pytest.mark.parametrize("worst, word", [(600, "ok"), (601, "OVER BUDGET")])
def test_mcu_ai_level1_max_is_within_budget_up_to_600_ms(monkeypatch, tmp_path, capsys,
                                                         worst, word):
    assert _mcu_ai(monkeypatch, tmp_path, worst) == 0
    (l1,) = [ln for ln in lines(capsys) if ln.startswith("level1 move on micro:bit")]
    assert l1.endswith("median 100 ms, max %d ms over 4 moves (budget: median <= 300, "
                       "max <= 600) %s" % (worst, word))


def test_mcu_ai_firmware_size_not_in_the_log_is_said_not_dropped(monkeypatch, tmp_path,
                                                                  capsys):
    assert _mcu_ai(monkeypatch, tmp_path, log="make: *** [build] Error 2\n") == 0
    first = lines(capsys)[0]
    assert first.startswith("frozen-engine firmware: ") and "not measured" in first, first


# -- bench_sensors: bytes on the wire per read, init times ----------------------------

def test_sensors_bytes_on_the_wire_per_read(monkeypatch, capsys):
    sensors_main(monkeypatch)
    got = [re.match(r"(.*) at 400 kHz: (\d+) bytes on the wire", ln) for ln in lines(capsys)]
    # address+W, register, address+R (repeated start), then the data: the
    # L3G4200D's OUT_X_L..OUT_Z_H and the MPU6050's GYRO_XOUT_H..GYRO_ZOUT_L
    # are 6 bytes, ACCEL_XOUT_H..GYRO_ZOUT_L (0x3B..0x48) 14
    assert [(m.group(1).split(" (")[0], int(m.group(2))) for m in got if m] == [
        ("L3G4200D read_rates", 3 + 6), ("MPU6050 read_rates", 3 + 6),
        ("MPU6050 read_all", 3 + 14)]


def test_sensors_init_time_in_ms(monkeypatch, capsys):
    sensors_main(monkeypatch, times=[100, 100, 100, 1000, 2500, 12345])  # reads, inits
    out = lines(capsys)
    assert [ln.split(", ")[1] for ln in out[3:6]] == [
        "1.0 ms including waits", "2.5 ms including waits", "12.3 ms including waits"]


def test_sensors_clone_init_is_measured_on_an_mpu6500():
    bench_sensors = bench("bench_sensors")
    try:
        bench_sensors.mpu_setup(None, "6500")
        i2c = bench_sensors.machine.I2C(0, scl=bench_sensors.machine.Pin(22),
                                        sda=bench_sensors.machine.Pin(21))
        assert i2c.readfrom_mem(0x68, 0x75, 1) == b"\x70"   # the MPU-6500's WHO_AM_I
    finally:
        bench_sensors.machine.forget_all()
