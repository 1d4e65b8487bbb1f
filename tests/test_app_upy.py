"""The whole firmware on the MicroPython unix port, host_sim's chip models
under it, a fixed heap: a complete game against the AI through buttons and
tilt, checked by the LCD model's pixels.

The firmware is compiled with mpy-cross and loaded as .mpy, as a board
gets it. Heap: 1 MB for everything in the process (-X heapsize=1024k), as
bench/bench_app.py runs it. The shims and the chip models take about 230 KB
of it (the ST7789 model's frame memory alone is 150 KB), the script's events
15 KB, the firmware about 70 KB at its peak; the full game against the AI
runs out below about 325 KB here. The rest is headroom: the unix port's
collector scans the C stack conservatively, so what stays live differs
between machines, builds and the rig's own code (a CI machine ran out at
384 KB; at 448 KB, 17 more lines in app_script.Script made one test here run
out). The firmware's own budget (64 KB) is measured by bench/bench_app.py.
"""
import json
import re

import pytest

import host_sim

host_sim.install()

import board_sim  # noqa: E402
import board_view as bv  # noqa: E402
import gomoku  # noqa: E402
import upy  # noqa: E402
from app_script import Script, layout, plan_lost_game, stone_point  # noqa: E402
from test_app_wireless import start_hosting  # noqa: E402

HEAP = "1024k"
VIEW = layout(board_sim)

# The rig for a board (by name, with Rig's keywords) on the flash folder
# that run_script() fills, and the script's events, as `rig` and `events`.
LOAD_RIG = """
import gc, json, os, sys
os.chdir(%r)
import app_script
board = __import__(%r)
rig = app_script.Rig(board, **%r)
with open("events.json") as f:
    events = json.load(f)
"""
RUNNER = LOAD_RIG + """
gc.collect()
r = rig.run(events)
print(json.dumps({"r": r, "snaps": rig.snaps, "peak": rig.heap_peak}))
"""


def run_script(code, events, flash, heap=HEAP):
    """Run `code` on the unix port with the firmware as .mpy in flash/lib,
    the script's events in flash/events.json, the rig and the chip models
    on its path. -> its stdout."""
    flash.mkdir(parents=True, exist_ok=True)
    (flash / "events.json").write_text(json.dumps(events))
    upy.compile_firmware(flash / "lib")
    # "lib" as a board has it, found from flash (LOAD_RIG's cwd): a module's
    # file name, lib/app.mpy, is a name on the heap, the same wherever flash is
    return upy.run(code, heapsize=heap, shims=True,
                   extra_path=[upy.ROOT / "tests",
                               upy.ROOT / "host_sim" / "chips", "lib"])


def run_upy(events, flash, heap=HEAP, board="board_sim", **rig):
    """RUNNER on `board`: -> {"r": "end" or "reset", "snaps", "peak"}."""
    out = run_script(RUNNER % (str(flash), board, rig), events, flash, heap)
    return json.loads(out.strip().splitlines()[-1])


def test_the_firmware_carries_no_path_of_the_checkout(tmp_path):
    """Each module's source name is a qstr on the heap: a full path would make
    the app's heap figure grow with where the repository was cloned."""
    lib = upy.compile_firmware(tmp_path / "lib")
    names = sorted(p.name for p in lib.glob("*.mpy"))
    assert "app.mpy" in names and "search.mpy" in names
    for mpy in lib.glob("*.mpy"):
        data = mpy.read_bytes()
        assert str(upy.ROOT).encode() not in data, mpy.name
        assert (mpy.stem + ".py").encode() in data, mpy.name


def test_full_game_vs_ai_on_the_unix_port(tmp_path):
    moves, g = plan_lost_game(gomoku.FREESTYLE, 1, 1)
    assert g.winner == 2
    s = Script()
    s.play_black_moves(moves)
    s.snap("stones", [stone_point(VIEW, i) for i in range(225)])
    s.snap("banner", [(1, 1)])
    s.tap("back")           # undo at the end: the AI's five and your move
    s.wait(300)
    s.snap("undone", [stone_point(VIEW, i) for i in range(225)])
    res = run_upy(s.end(), tmp_path)
    assert res["r"] == "end"
    want = gomoku.Game()
    for m in moves:
        want.play(m % 15, m // 15)
    colour = {0: (bv.GRID, bv.WOOD, bv.WIN), 1: (bv.BLACK,), 2: (bv.WHITE,)}
    for i, px in enumerate(res["snaps"]["stones"]):
        assert px in colour[want.stone(i % 15, i // 15)], i
    assert res["snaps"]["banner"] == [bv.BANNER]
    want.undo()
    want.undo()
    for i, px in enumerate(res["snaps"]["undone"]):
        assert px in colour[want.stone(i % 15, i // 15)], i


def test_the_end_screen_lets_go_of_the_code_that_found_the_five(tmp_path):
    """winrow, loaded at a game's end to find the five, leaves the heap once
    the row is drawn: it lay in a level-2 game's heap peak, which runs from
    the winning move through the rematch (0.6 KB of it on this port)."""
    s = Script()
    s.black_wins_two_players()
    s.snap("bg", [(VIEW.origin(i)[0] + 1, VIEW.origin(i)[1] + 1)
                  for i in range(225)])
    code = LOAD_RIG % (str(tmp_path), "board_sim", {}) + """
r = rig.run(events)
print(json.dumps({"r": r, "snaps": rig.snaps,
                  "held": [m for m in ("winrow", "gamestate") if m in sys.modules]}))
"""
    res = json.loads(run_script(code, s.end(), tmp_path).strip().splitlines()[-1])
    assert res["r"] == "end"
    assert [i for i in range(225) if res["snaps"]["bg"][i] == bv.WIN] == \
        [7 * 15 + 3 + k for k in range(5)]
    assert res["held"] == ["gamestate"]     # the game's own code stays


def test_esp32_board_two_players_by_tilt_on_the_unix_port(tmp_path):
    """The ESP32 build: landscape ILI9341, MPU6050, three keys, no joystick."""
    import board_esp32_ili9341 as esp
    view = layout(esp)
    s = Script(start_ms=900)    # its ILI9341 at 10 MHz: boot screens 0.3 s later
    s.start_two_players()
    a, b = 6 * 15 + 9, 8 * 15 + 6
    s.place(a, how="tilt")
    s.place(b, how="tilt")
    s.wait(300)
    s.snap("stones", [stone_point(view, i) for i in range(225)])
    res = run_upy(s.end(), tmp_path, board="board_esp32_ili9341")
    assert res["r"] == "end"
    got = res["snaps"]["stones"]
    assert [i for i in range(225) if got[i] == bv.BLACK] == [a]
    assert [i for i in range(225) if got[i] == bv.WHITE] == [b]


def test_esp32_without_gyro_steers_by_keys_on_the_unix_port(tmp_path):
    """Its MPU6050 missing, the ESP32 build steers with its three keys:
    tap place right, tap back down, hold place for the stone."""
    import board_esp32_ili9341 as esp
    view = layout(esp)
    s = Script(start_ms=900)
    s.tap("place")          # dismiss the gyro note
    s.wait(200)             # the menu: a full screen, 0.2 s at 10 MHz
    s.start_two_players()
    s.tap("place")          # (8, 7)
    s.tap("back")           # (8, 8)
    s.tap("place", 700)     # black
    s.tap("back")           # (8, 9)
    s.tap("place", 700)     # white
    s.wait(300)
    s.snap("stones", [stone_point(view, i) for i in range(225)])
    res = run_upy(s.end(), tmp_path, board="board_esp32_ili9341", gyro=False)
    assert res["r"] == "end"
    got = res["snaps"]["stones"]
    assert [i for i in range(225) if got[i] == bv.BLACK] == [8 * 15 + 8]
    assert [i for i in range(225) if got[i] == bv.WHITE] == [9 * 15 + 8]


# How far apart two heap peaks of the same game may lie: the least of three
# runs still differs by up to about 1.4 KB with the heap's layout (see
# heap_peak); the script's length and the rig's names, which the two tests
# below guard against, moved it by 8 and 14 KB.
PEAK_NOISE = 2048


def heap_peak(events, flash, names=0):
    """The rig's heap peak for `events`, as bench_app takes it, after the rig
    has interned `names` names of its own: the least of three runs, the
    rig's heap shifted a little each time (a few names more). The collector
    takes any word on the C stack that points at a block for a reference,
    so a stale word keeps some garbage alive, more or less by where the
    blocks lie: up to 1.4 KB apart between two runs of the same game."""
    return min(_heap_peak(events, flash / str(k), names + k) for k in (0, 17, 41))


def shifted(code, names):
    """RUNNER's `code` with the rig interning `names` names of its own first:
    the heap's blocks shifted."""
    pad = "for k in range(%d):\n    getattr(rig, 'rig%%d' %% k, None)\n" % names
    out = code.replace("gc.collect()\nr = rig.run", pad + "gc.collect()\nr = rig.run")
    assert pad in out
    return out


def _heap_peak(events, flash, names):
    code = shifted(RUNNER % (str(flash), "board_sim", {"heap_every": 1}), names)
    res = json.loads(run_script(code, events, flash, "1024k").strip().splitlines()[-1])
    assert res["r"] == "end"
    return res["peak"]


def two_player_game(pad=0):
    """Four moves each in a two-player game, after `pad` level tilts that
    move nothing at power-on."""
    s = Script()
    s.start_two_players()
    for k in range(4):
        s.place(7 * 15 + 3 + k)
        s.place(9 * 15 + 3 + k)
    return [(1, "tilt", 0, 0)] * pad + s.end()


def test_the_heap_peak_is_the_firmwares_however_long_the_script(tmp_path):
    """bench_app's figure: the script's events, scheduled before the heap's
    base was taken, were freed one by one as they fired (about 230 bytes
    each), so a longer script hid more of the firmware's heap (8 KB of a
    level-2 game). The same game with 200 more events at power-on (level
    tilts that move nothing) peaks the same."""
    short = heap_peak(two_player_game(0), tmp_path / "short")
    padded = heap_peak(two_player_game(200), tmp_path / "padded")
    assert abs(padded - short) < PEAK_NOISE, (short, padded)


def test_the_heap_peak_is_the_firmwares_however_many_names_the_rig_interned(tmp_path):
    """The names (qstrs) the firmware interns go into a pool MicroPython
    allocates, twice the last one's size, when the last is full: where the
    rig's own names had nearly filled one, the firmware's allocated the next
    (14 KB) inside the peak, elsewhere nothing. With 400 names more in the
    rig, the same game peaks the same."""
    plain = heap_peak(two_player_game(), tmp_path / "plain")
    named = heap_peak(two_player_game(), tmp_path / "named", names=400)
    assert abs(named - plain) < PEAK_NOISE, (plain, named)


def test_the_heap_peak_is_the_firmwares_wherever_its_flash_folder_is(tmp_path):
    """Each module's file name is a name on the heap: from a flash folder
    100 characters deeper, with the firmware's 25 modules in its lib, the
    same game peaks the same."""
    near = heap_peak(two_player_game(), tmp_path / "f")
    far = heap_peak(two_player_game(), tmp_path / ("f" * 100))
    # counted, the names would add 2.5 KB; the layout alone moves the peak
    # by about 1.2 KB either way (PEAK_NOISE)
    assert far - near < 1024, (near, far)


def test_leave_free_fills_the_heap_but_the_room_asked(tmp_path):
    """bench_build's smallest heap is the room leave_free() leaves once the
    chip models are built: that room, give or take the filler's own list,
    and in one block, as a board's heap is after boot, however the models
    left the heap in pieces."""
    code = LOAD_RIG + """
import gc, micropython
import heap_fill
gc.collect()
print(heap_fill.leave_free(None))
for room in (30000, 80000):
    filler = heap_fill.leave_free(room)
    gc.collect()
    print("ROOM", room, gc.mem_free())
    micropython.mem_info()
    filler = None
    gc.collect()
"""
    out = run_script(code % (str(tmp_path), "board_sim", {}), [], tmp_path)
    assert out.splitlines()[0] == "None"
    rooms = re.findall(r"ROOM (\d+) (\d+)\n(?:.*\n)*?.*max free sz: (\d+)", out)
    assert len(rooms) == 2, out
    for room, free, blocks in rooms:
        room, free = int(room), int(free)
        assert room - 1024 <= free <= room + 1024, (room, free)
        # the unix port's allocator counts in blocks of 32 bytes (64-bit)
        assert int(blocks) * 32 >= room - 1024, (room, blocks)


def test_a_fault_of_the_rig_stops_the_run_not_the_firmware(tmp_path):
    """A snapshot that fails (here a point off the screen; on CI it was a
    MemoryError) ends the run with its cause. Caught by main.py's fault
    handler as the firmware's own error, it restarted the game and the test
    failed later on a missing snapshot."""
    s = Script()
    s.wait(300)
    s.snap("off", [(999, 0)])
    s.snap("after", [(1, 1)])
    with pytest.raises(AssertionError) as e:
        run_upy(s.end(), tmp_path)
    assert "RigFault" in str(e.value)
    assert "pixel (999,0) outside" in str(e.value)


def heap_modules(out, label):
    """From a "heapmap" action's output: (the modules sys.modules holds, one
    name each, and how many module objects the heap holds)."""
    lines = out.splitlines()
    k = next(i for i, line in enumerate(lines)
             if line.startswith("HEAPMAP %s " % label))
    names = lines[k].split()[2:]
    end = lines.index("HEAPMAP END", k)
    blocks = "".join(line.split(": ", 1)[1] for line in lines[k + 1:end]
                     if len(line) > 10 and line[8:10] == ": ")
    return names, blocks.count("M")     # mem_info's mark of a module object


def test_each_phase_leaves_the_heap_with_its_modules_on_the_unix_port(tmp_path):
    """Boot (hw_setup, startup, notes, saveread, match_menu), the menu (menu,
    settings) and the game each load their own modules and free them when
    they end: in the menu and in a game against the AI the heap holds a
    module object for each module loaded, and none of another phase's. A
    module named in App.run itself stayed on its frame's stack out of
    sys.modules, never freed (2.8 KB). A stale word on the C stack can hold
    one too, by where the blocks lie: three runs, the rig's heap shifted a
    little each time; a module a reference holds is there in all three."""
    s = Script()
    s.wait(300)
    s.at("heapmap", "menu")
    s.t += 20
    s.tap("place")          # Start: vs AI, level 1
    s.wait(300)
    s.place(3 * 15 + 3)
    s.wait(300)
    s.at("heapmap", "game")
    others = {"hw_setup", "startup", "notes", "saveread", "match_menu",
              "wireless", "match", "link", "nrf24l01"}
    extra = {"menu": [], "game": []}
    for k in (0, 17, 41):
        flash = tmp_path / str(k)
        out = run_script(shifted(RUNNER % (str(flash), "board_sim", {}), k),
                         s.end(), flash)
        names, objects = heap_modules(out, "menu")
        assert {"menu", "settings"} <= set(names) and not others & set(names)
        extra["menu"].append(objects - len(names))
        names, objects = heap_modules(out, "game")
        assert "gomoku" in names and not (others | {"menu", "settings"}) & set(names)
        extra["game"].append(objects - len(names))
    assert min(extra["menu"]) == 0 and min(extra["game"]) == 0, extra


def test_round_after_round_of_every_mode_the_heap_comes_back_the_same(tmp_path):
    """A long session: rounds of a level-2 game left by the pause menu, a
    two-player game won, and a wireless match hosted and cancelled while it
    waits. The first round loads every phase once and interns its names
    (those stay: about 1.5 KB once Wireless is chosen); from then on each
    phase must give back all it took. At every return to the menu after
    the first round the heap holds the same bytes and the same names: a
    list that grew by a game, a cache kept across phases, or names made up
    at run time would show here, where one game's peak does not."""
    s = Script()
    s.wait(300)
    s.choose_level(1)               # level 2
    for _ in range(4):
        s.cursor = 7 * 15 + 7
        s.tap("place")              # Start: vs AI, level 2
        s.wait(300)
        s.place(3 * 15 + 3)
        s.wait(1500)                # the AI answers
        for _ in range(4):
            s.tap("menu")           # Paused: Resume, Undo, New game, Main menu
        s.tap("place")
        s.wait(300)
        s.cursor = 7 * 15 + 7
        s.black_wins_two_players()  # Mode: 2 players, Start, the five
        s.tap("menu")               # the end screen's X: menu
        s.wait(300)
        start_hosting(s, 1)         # from 2 players; no one joins
        s.tap("back")               # cancelled while it waits
        s.wait(500)
        s.tap("menu")               # Mode
        s.tap("place")              # vs AI
        for _ in range(4):
            s.tap("menu")           # Level, Rule, Black, Start
    runner = LOAD_RIG + """
import app, micropython
_phase = app.App.phase
def phase(self, module, fn, *args):
    if module == "menu":
        gc.collect()
        print("MENU", gc.mem_alloc())
        micropython.qstr_info()
    return _phase(self, module, fn, *args)
app.App.phase = phase
_play = app.App.play
def play(self, resume=None):
    print("PLAY", self.mode, self.level)
    return _play(self, resume)
app.App.play = play
print(json.dumps({"r": rig.run(events)}))
"""
    out = run_script(runner % (str(tmp_path), "board_sim", {}), s.end(),
                     tmp_path, "1024k")
    assert json.loads(out.strip().splitlines()[-1])["r"] == "end"
    assert "gomoku:" not in out                     # no fault, no restart
    plays = [line.split()[1:] for line in out.splitlines()
             if line.startswith("PLAY ")]
    assert plays == [["0", "2"], ["1", "2"]] * 4, plays
    lines = out.splitlines()
    heap = [(int(line.split()[1]), lines[k + 1]) for k, line in enumerate(lines)
            if line.startswith("MENU ")]
    assert len(heap) == 1 + 3 * 4, heap
    assert "n_qstr=" in heap[0][1], heap[0]
    later = heap[4:]                # from the first return after round 1
    assert len({names for _, names in later}) == 1, later
    assert max(b for b, _ in later) - min(b for b, _ in later) <= 64, later


def test_a_restart_after_a_fault_leaves_no_module_of_the_phase_that_failed(
        tmp_path):
    """A fault in a game (here the first save raises) is caught by main.py,
    which builds the app again: the game's modules (the engine) must leave
    the heap with it, as a phase that ends does. They stayed loaded until
    power-off (3.7 KB), against a level-2 game's 64 KB."""
    s = Script()
    s.wait(300)
    s.tap("place")          # Start: vs AI, level 1
    s.wait(300)
    s.place(3 * 15 + 3)     # the save raises: main.py restarts the app
    s.wait(500)
    s.tap("place")          # the error's note
    s.wait(3000)            # boot again: the menu
    s.at("heapmap", "menu")
    s.t += 20
    runner = LOAD_RIG + """
import savegame
_write = savegame.write
_calls = []
def _fails_once(*a):
    _calls.append(1)
    if len(_calls) == 1:
        raise RuntimeError("injected")
    return _write(*a)
savegame.write = _fails_once
gc.collect()
print(json.dumps({"r": rig.run(events)}))
"""
    out = run_script(runner % (str(tmp_path), "board_sim", {}), s.end(),
                     tmp_path)
    assert "gomoku: RuntimeError: injected" in out
    names, _ = heap_modules(out, "menu")
    assert {"menu", "settings"} <= set(names)
    left = {"gomoku", "gamestate", "pattern", "shapes", "winrow"} & set(names)
    assert not left, left


def centre_answer(seed):
    """Level 2's answer to a stone on the centre, the AI seeded so."""
    import ai
    ai.seed(seed)
    g = gomoku.Game(gomoku.FREESTYLE)
    g.play(7, 7)
    return ai.best_move(g, 2)


def test_a_new_game_from_the_menu_does_not_replay_the_ais_choices(tmp_path):
    """Level 2 picks among near-best moves by a seeded PRNG that lives in
    the search's modules, which each game's phase loads afresh: on
    MicroPython every game from the menu began at the same seed, and the
    same moves drew the same answers (a beaten line could be played again).
    Seeded by the games begun since boot, the second game's first answer to
    the same opening is not the first game's; the first game plays as a
    fresh board's AI (seed 1)."""
    fresh = centre_answer(1)
    s = Script()
    s.choose_level(1)       # level 2
    for game in ("first", "second"):
        s.tap("place")      # Start
        s.wait(300)
        s.place(7 * 15 + 7)
        s.wait(600)         # the AI answers
        s.snap(game, [stone_point(VIEW, i) for i in range(225)])
        for _ in range(4):  # paused: Resume, Undo, New game, Main menu
            s.tap("menu")
        s.tap("place")
        s.wait(300)         # the menu, on Start
    r = run_upy(s.end(), tmp_path)
    assert r["r"] == "end"
    answers = [[i for i in range(225) if r["snaps"][game][i] == bv.WHITE]
               for game in ("first", "second")]
    assert answers[0] == [fresh], answers
    assert len(answers[1]) == 1 and answers[1] != answers[0], answers


def test_the_first_game_after_a_power_on_does_not_replay_the_last_boots(tmp_path):
    """The games-begun seed starts again at each boot: without more, the
    first game after every power-on drew the same answers. The boots are
    counted in the settings file, and each boot's seeds start 64 on, so
    the second boot's first game answers as seed 65 does."""
    answers = [centre_answer(1), centre_answer(65)]
    assert answers[0] != answers[1]
    s = Script()
    s.choose_level(1)       # level 2
    boots = [s]
    s = Script()
    s.tap("back")           # the game left in play: not resumed
    s.wait(300)
    boots.append(s)         # the menu remembers level 2, on Start
    seen = []
    for s in boots:
        s.tap("place")      # Start
        s.wait(300)
        s.place(7 * 15 + 7)
        s.wait(600)         # the AI answers; then the power goes off
        s.snap("stones", [stone_point(VIEW, i) for i in range(225)])
        r = run_upy(s.end(), tmp_path)
        assert r["r"] == "end"
        seen += [i for i in range(225) if r["snaps"]["stones"][i] == bv.WHITE]
    assert seen == answers
