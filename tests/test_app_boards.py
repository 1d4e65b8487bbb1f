"""The same firmware on every board: the ESP32's landscape ILI9341 with an
MPU6050 and three keys (no joystick), the Pico-LCD-1.3 in its hat's
rotation, the simulator's board: menu by keys, cursor by tilt, stones by
pixels."""
import pytest

import host_sim

host_sim.install()

import board_esp32_ili9341  # noqa: E402
import board_pico_lcd13  # noqa: E402
import board_sim  # noqa: E402
import board_view as bv  # noqa: E402
from app_script import Script, layout, run_device, screen_text, stone_point  # noqa: E402

BOARDS = [board_sim, board_pico_lcd13, board_esp32_ili9341]


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: b.NAME)
def test_two_player_moves_by_tilt_and_keys(board, flash):
    view = layout(board)
    # the ESP32's ILI9341 at 10 MHz: its boot screens are up 0.3 s later
    s = Script(start_ms=900 if board is board_esp32_ili9341 else 600)
    s.start_two_players()
    a, b = 5 * 15 + 9, 9 * 15 + 4
    s.place(a, how="tilt")
    s.place(b, how="tilt")
    s.wait(300)
    s.snap("stones", [stone_point(view, i) for i in range(225)])
    s.snap("cursor", [view.origin(i) for i in range(225)])
    s.tap("back")       # undo white
    s.wait(300)
    s.snap("undone", [stone_point(view, i) for i in range(225)])
    dev = run_device(board, s.end(), str(flash))
    want = [0] * 225
    want[a] = bv.BLACK
    want[b] = bv.WHITE
    got = [p if p in (bv.BLACK, bv.WHITE) else 0
           for p in dev.snaps["stones"]]
    assert got == want
    assert [i for i in range(225) if dev.snaps["cursor"][i] == bv.CURSOR] \
        == [b]
    want[b] = 0
    assert [p if p in (bv.BLACK, bv.WHITE) else 0
            for p in dev.snaps["undone"]] == want


def test_missing_display_is_named_and_retried(tmp_path, capsys):
    from host_sim import device
    dev = device.Device(board_esp32_ili9341, str(tmp_path), lcd=False)
    dev.run(until_ms=12000)
    out = capsys.readouterr().out
    assert out.count("Display ILI9341 not found (SPI2 sck=18 mosi=23 "
                     "miso=19 cs=5 dc=4 rst=15)") >= 2   # at boot, on retry


def test_missing_radio_is_named_and_wireless_is_not_offered(flash, capsys):
    s = Script(start_ms=700)
    s.note_then_a_move_vs_ai(layout(board_sim))
    dev = run_device(board_sim, s.end(), str(flash), radio=False)
    out = capsys.readouterr().out
    assert "Radio NRF24L01 not found (SPI0 sck=6 mosi=7 miso=4 cs=5 ce=14 " \
        "irq=22)" \
        in out
    assert bv.ALERT in dev.snaps["note"]
    stones = dev.snaps["stones"]
    assert stones.count(bv.BLACK) == 1 and stones.count(bv.WHITE) == 1


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: b.NAME)
def test_missing_gyro_names_chip_bus_pins_and_hex_address(board, tmp_path,
                                                           capsys):
    from host_sim import device
    dev = device.Device(board, str(tmp_path), gyro=False)
    dev.run(until_ms=900)
    out = capsys.readouterr().out
    g = board.GYRO
    assert "Gyro %s not found (I2C%d scl=%d sda=%d addr=0x%02x)" % (
        g["chip"].upper(), g["i2c"], g["scl"], g["sda"], g["addr"]) in out


def _run_recording_text(board, events, flash, calls=(), **kw):
    """run_device, and every text row of the screen as it reads after each
    string the firmware writes (lines redraw only the characters that
    change: the rows are put together from the pieces). calls: (ms, fn)
    to run at those times on the device's clock."""
    from host_sim import device
    texts = []
    rows = {}

    def main():
        fw = device._fresh_firmware()
        import lcd_base
        draw = lcd_base.LCD.text
        fill = lcd_base.LCD.fill_rect

        def wipe(lcd, x, y, w, h, c):
            fw = lcd_base.FONT_W
            for ty, row in rows.items():
                if y <= ty < y + h:
                    row[x // fw:(x + w) // fw] = [" "] * ((x + w) // fw
                                                         - x // fw)
            return fill(lcd, x, y, w, h, c)

        def text(lcd, s, x, y, *a, **k):
            row = rows.setdefault(y, [" "] * (lcd.width // lcd_base.FONT_W))
            col = x // lcd_base.FONT_W
            row[col:col + len(s)] = list(s)
            texts.append(" ".join("".join(row).split()))
            return draw(lcd, s, x, y, *a, **k)
        lcd_base.LCD.text = text
        lcd_base.LCD.fill_rect = wipe
        fw.main()
    dev = device.Device(board, flash, **kw)
    import sim_clock
    for ms, fn in calls:
        sim_clock.call_at(ms * 1000, fn)
    old = dev.run
    dev.run = lambda script: old(script, main=main)
    run_device(board, events, flash, dev=dev)
    return dev, texts


def test_esp32_without_gyro_steers_with_its_three_keys(flash, capsys):
    """No joystick, no gyro: tap place steps right, tap back steps down
    (wrapping round), hold place puts the stone, hold back undoes; every
    hint names the ESP32's keys, never a joystick or keys A/B/X."""
    board = board_esp32_ili9341
    view = layout(board)
    s = Script(start_ms=900)
    s.tap("place")                  # dismiss the gyro note
    s.wait(200)                     # a full screen takes 0.2 s at 10 MHz
    s.tap("place")                  # the menu opens on Start: vs AI
    s.wait(300)
    for _ in range(9):              # right 9 from column 7: wraps to 1
        s.tap("place")
    s.tap("back")                   # down: row 8
    s.wait(100)
    s.snap("cursor", [view.origin(i) for i in range(225)])
    s.tap("place", 700)             # held: the stone
    s.wait(600)                     # the AI answers
    s.snap("stones", [stone_point(view, i) for i in range(225)])
    s.tap("back", 700)              # held: undo both
    s.wait(300)
    s.snap("undone", [stone_point(view, i) for i in range(225)])
    s.tap("menu")                   # the pause menu, then resume
    s.tap("place")
    dev, texts = _run_recording_text(board, s.end(), str(flash),
                                     gyro=False)
    out = capsys.readouterr().out
    mine = 8 * 15 + 1
    assert [i for i in range(225) if dev.snaps["cursor"][i] == bv.CURSOR] \
        == [mine]
    stones = dev.snaps["stones"]
    assert stones[mine] == bv.BLACK
    assert stones.count(bv.BLACK) == 1 and stones.count(bv.WHITE) == 1
    assert bv.BLACK not in dev.snaps["undone"]
    assert bv.WHITE not in dev.snaps["undone"]
    shown = " ".join(texts)
    assert "tap Place to step right" in out and "tap Place" in shown
    assert "Place: right Back: down hold Place: put stone" in texts
    assert "Place: change/start" in shown and "Menu: next" in shown
    assert "Menu: next Back: previous" in texts     # the menu's hint
    assert "joystick" not in shown.lower() + out.lower()
    # the pause line does not read "Menu: ... Menu: next"
    assert "Paused: < Resume > Menu: next Place: ok" in texts
    # only key letters are renamed, not words that start with one
    assert "AI thinking..." in texts and "Black (you) to move" in shown
    for letter in "ABXY":
        assert letter + ":" not in shown.split()


def test_a_joystick_board_without_its_gyro_names_the_joystick_in_the_menu(
        flash):
    """The gyro missing on a board with a joystick: once its note is read,
    the menu's hint offers the joystick for choosing, not the tilt (gone)
    nor only the keys (the hint of a board with neither)."""
    s = Script(start_ms=600)
    s.tap("place")                  # dismiss the gyro note
    s.wait(300)
    dev, texts = _run_recording_text(board_sim, s.end(), str(flash),
                                     gyro=False)
    assert "joystick: choose" in texts
    assert not [t for t in texts if "tilt/" in t or "tilt:" in t]


def _gyro_wires(board):
    """-> unplug(), replug(): the board's gyro module off its wires (it
    NACKs) and back, for `calls` at times on the device's clock."""
    import machine
    g = board.GYRO
    held = []

    def unplug():
        held.append(machine._i2c_devices[g["i2c"]].pop(g["addr"]))

    def replug():
        machine._i2c_devices[g["i2c"]][g["addr"]] = held.pop()
    return unplug, replug


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: b.NAME)
def test_a_gyro_lost_mid_game_is_named_first_and_the_game_goes_on(board,
                                                                 flash,
                                                                 capsys):
    """The gyro drops off the bus in a game: the player's first word of it
    is the boot's clear note (chip, bus, pins, how to steer now), not
    "Error (OSError: 19)"; the game resumes from its save, steered by the
    joystick, or by the keys on a board without one."""
    view = layout(board)
    s = Script(start_ms=900 if board is board_esp32_ili9341 else 600)
    s.start_two_players()
    s.place(7 * 15 + 6, how="tilt")
    s.wait(300)
    off = s.t
    s.wait(2000)
    s.tap("place")                  # the note read
    s.wait(300)
    s.tap("place")                  # "Saved game found": resume
    s.wait(400)
    if "up" in board.BUTTONS:
        s.tap("right")              # white, by the joystick
    else:
        s.tap("place")              # a tap steps right; held, the stone
    s.wait(200)
    s.tap("place", 700 if board is board_esp32_ili9341 else 80)
    s.wait(400)
    s.snap("stones", [stone_point(view, i) for i in range(225)])
    g = board.GYRO
    unplug, _ = _gyro_wires(board)
    dev, texts = _run_recording_text(board, s.end(), str(flash),
                                     calls=[(off, unplug)])
    out = capsys.readouterr().out
    note = "Gyro %s not found (I2C%d scl=%d sda=%d addr=0x%02x)" % (
        g["chip"].upper(), g["i2c"], g["scl"], g["sda"], g["addr"])
    assert note in out
    # the console keeps the fault, for a bug report
    assert "Traceback" in out and "gomoku: OSError" in out
    assert not [t for t in texts if "Error" in t], texts
    assert [t for t in texts if t.startswith("Gyro %s not found"
                                             % g["chip"].upper())]
    stones = dev.snaps["stones"]
    assert stones[7 * 15 + 6] == bv.BLACK and stones[7 * 15 + 7] == bv.WHITE
    assert stones.count(bv.BLACK) == 1 and stones.count(bv.WHITE) == 1


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: b.NAME)
def test_a_gyro_glitch_of_a_few_reads_neither_restarts_nor_stops_the_tilt(
        board, flash, capsys):
    """The gyro NACKs three reads in a row (a loose wire's moment) and
    answers again, twice: the game goes on with no restart and no note
    (the glitches do not add up), and the tilt still moves the cursor; the
    stones placed by tilt after them land where the tilt put them."""
    view = layout(board)
    s = Script(start_ms=900 if board is board_esp32_ili9341 else 600)
    s.start_two_players()
    s.place(7 * 15 + 6, how="tilt")
    unplug, replug = _gyro_wires(board)
    calls = []
    for _ in range(2):
        s.wait(300)
        calls.append((s.t, unplug))
        s.wait(60)
        calls.append((s.t, replug))
    s.wait(200)
    s.place(7 * 15 + 8, how="tilt")
    s.wait(400)
    s.snap("stones", [stone_point(view, i) for i in range(225)])
    dev, texts = _run_recording_text(board, s.end(), str(flash), calls=calls)
    out = capsys.readouterr().out
    assert "Traceback" not in out and "not found" not in out
    assert not [t for t in texts if "Error" in t or "Saved game" in t], texts
    stones = dev.snaps["stones"]
    assert stones[7 * 15 + 6] == bv.BLACK and stones[7 * 15 + 8] == bv.WHITE
    assert stones.count(bv.BLACK) == 1 and stones.count(bv.WHITE) == 1


def test_occupied_point_is_refused_in_the_players_words(flash):
    """Placing on a stone says so without the engine's (x, y) numbers,
    which the board does not show; the board is unchanged."""
    view = layout(board_sim)
    s = Script()
    s.start_two_players()
    s.place(7 * 15 + 7)
    s.tap("place")      # white on black's stone
    s.wait(200)
    s.snap("stones", [stone_point(view, i) for i in range(225)])
    dev, texts = _run_recording_text(board_sim, s.end(), str(flash))
    assert "Taken: choose an empty point" in texts
    assert not [t for t in texts if "occupied" in t]
    stones = dev.snaps["stones"]
    assert stones.count(bv.BLACK) == 1 and bv.WHITE not in stones


@pytest.fixture
def flash_full(monkeypatch):
    """Writing the save's temp file fails as a full flash does (ENOSPC)."""
    import builtins
    import errno
    import savegame
    real = builtins.open

    def full(path, mode="r", *a, **k):
        if path == savegame.TMP and "w" in mode:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(path, mode, *a, **k)
    monkeypatch.setattr(builtins, "open", full)


def test_a_full_flash_is_reported_in_the_players_words(flash, flash_full):
    """A save that cannot be written says so plainly ("Not saved: flash
    full"), not with the OS's errno text; the game goes on."""
    import savegame
    view = layout(board_sim)
    s = Script()
    s.start_two_players()
    s.place(7 * 15 + 7)
    s.wait(200)
    s.place(7 * 15 + 8)
    s.wait(200)
    s.snap("stones", [stone_point(view, i) for i in range(225)])
    dev, texts = _run_recording_text(board_sim, s.end(), str(flash))
    assert "Not saved: flash full" in texts
    assert not [t for t in texts if "rrno" in t or "space" in t]
    stones = dev.snaps["stones"]
    assert stones.count(bv.BLACK) == 1 and stones.count(bv.WHITE) == 1
    assert not (flash / savegame.PATH).exists()


def test_a_failed_save_stays_on_screen_after_the_move(flash, flash_full):
    """"Not saved: flash full" is still there for the player to read once
    the move is drawn: the line is not cleared after the failed save (two
    players: no AI reply says it again)."""
    view = layout(board_sim)
    line = [(x, view.message.y + y) for y in range(view.message.h)
            for x in range(240)]
    s = Script()
    s.start_two_players()
    s.place(7 * 15 + 7)
    s.wait(200)
    s.snap("msg1", line)
    s.place(7 * 15 + 8)
    s.wait(200)
    s.snap("msg2", line)
    dev = run_device(board_sim, s.end(), str(flash))
    assert screen_text(dev.snaps["msg1"], layout(board_sim).message.h) == ["Not saved: flash full"]
    assert screen_text(dev.snaps["msg2"], layout(board_sim).message.h) == ["Not saved: flash full"]


def test_a_firmware_fault_is_shown_and_the_game_restarts(tmp_path, capsys):
    """Any exception out of the game (here a RuntimeError, which the old
    list of caught types missed: the device dropped to the REPL with the
    screen frozen) is printed and shown by its type and text, and the game
    starts again."""
    from host_sim import device
    runs = []

    def main():
        fw = device._fresh_firmware()
        import app
        run = app.App.run

        def faulty(a):
            runs.append(1)
            if len(runs) == 1:
                raise RuntimeError("maximum recursion depth exceeded")
            return run(a)
        app.App.run = faulty
        fw.main()
    import sim_clock
    from app_script import band
    dev = device.Device(board_sim, str(tmp_path))
    screens = {}
    # the note waits 5 s for a key: up at 2 s, the game's menu back by 9 s
    for t in (2000, 9000):
        sim_clock.call_at(t * 1000, lambda t=t: screens.__setitem__(
            t, screen_text([dev.lcd.pixel(x, y) for x, y in band(0, 240)],
                           240)))
    dev.run(until_ms=12000, main=main)
    out = capsys.readouterr().out
    note = "Error (RuntimeError: maximum recursion depth exceeded). The game restarts."
    assert "gomoku: RuntimeError: maximum recursion depth exceeded" in out
    # the traceback, for a bug report: where it happened
    assert "Traceback" in out and "in faulty" in out
    assert note in out
    # on the screen, where the player reads it (wrapped at the glass's width)
    assert " ".join(screens[2000][:2]) == note, screens[2000]
    assert len(runs) == 2 and "> Start" in screens[9000], screens[9000]


def test_an_os_error_without_a_gyro_since_boot_is_shown(tmp_path, capsys):
    """Only a gyro lost in play is left to the boot's note: on a device
    that had none from power-on, an OSError out of the game (a radio wire
    come off, say) is shown as any fault is."""
    from host_sim import device
    import sim_clock
    from app_script import band

    def main():
        fw = device._fresh_firmware()
        import app

        def faulty(a):
            raise OSError(5)
        app.App.run = faulty
        fw.main()
    dev = device.Device(board_sim, str(tmp_path), gyro=False)
    screens = []
    sim_clock.call_at(2000 * 1000, lambda: screens.append(screen_text(
        [dev.lcd.pixel(x, y) for x, y in band(0, 240)], 240)))
    dev.run(until_ms=2500, main=main)
    assert "gomoku: OSError: 5" in capsys.readouterr().out
    assert screens[0][:1] == ["Error (OSError: 5). The game restarts."], \
        screens


def test_a_fault_at_boot_is_shown_and_the_boot_tried_again(tmp_path, capsys):
    """A fault before the game exists (here in building the controls) was
    a traceback on the console and a blank screen: it is shown as any
    fault is, on the display alone, and the boot tried again."""
    from host_sim import device
    import sim_clock
    from app_script import band
    builds = []

    def main():
        fw = device._fresh_firmware()
        import controls

        def faulty(c, *a):
            builds.append(1)
            raise RuntimeError("no controls")
        controls.Controls.__init__ = faulty
        fw.main()
    dev = device.Device(board_sim, str(tmp_path))
    screens = []
    sim_clock.call_at(2000 * 1000, lambda: screens.append(screen_text(
        [dev.lcd.pixel(x, y) for x, y in band(0, 40)], 40)))
    dev.run(until_ms=8000, main=main)
    out = capsys.readouterr().out
    assert "Traceback" in out and "gomoku: RuntimeError: no controls" in out
    assert screens[0][:2] == ["Error (RuntimeError: no controls). The",
                              "game restarts."], screens
    assert len(builds) == 2


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: b.NAME)
def test_a_key_down_at_power_on_is_named_and_works_once_let_go(board, flash,
                                                               capsys):
    # a stuck key is taken as the buttons' baseline and never reads as a
    # press: the player is told which, by its name and pin in board.py
    s = Script(start_ms=0)
    s.at("press", "place")
    s.wait(8000)                            # the note, shown 5 s or more
    s.at("release", "place")
    s.wait(300)
    s.start_two_players()
    s.place(7 * 15 + 7)
    s.wait(300)
    s.snap("stones", [stone_point(layout(board), i) for i in range(225)])
    dev = run_device(board, s.end(), str(flash))
    out = capsys.readouterr().out
    assert "Key place (pin %s) is down at power-on: stuck or shorted? It " \
        "works once let go" % (board.BUTTONS["place"],) in out, out
    assert dev.snaps["stones"].count(bv.BLACK) == 1


# ---- a firmware file missing or broken on the flash (the unix port) -------

SHOTS = """\
import board
import app_script
import sim_clock
rig = app_script.Rig(board)
W = board.LCD["width"]


def shot(label):
    def fn():
        for y in range(80):
            print(label, repr("".join("%%04x" %% rig.lcd.pixel(x, y)
                                      for x in range(W))))
    return fn
for ms in %r:
    sim_clock.call_at(ms * 1000, shot("AT%%d" %% ms))
print("RESULT", repr(rig.run([(%d, "end")])))
"""


def _boot_screens(flash, times, end_ms):
    """Boot the flash on the unix port; -> (the text on the top 80 rows of
    the screen at each of times (ms), the console)."""
    import built_device
    out = built_device.run_on_flash(flash, SHOTS % (times, end_ms))
    assert built_device.lines_with(out, "RESULT") == ["end"]
    screens = []
    for ms in times:
        rows = built_device.lines_with(out, "AT%d" % ms)
        w = len(rows[0]) // 4
        px = [int(r[k:k + 4], 16) for r in rows for k in range(0, 4 * w, 4)]
        screens.append(" ".join(screen_text(px, len(rows), w)))
    return screens, out


@pytest.mark.parametrize("board, module, empty", [
    ("pico_lcd13", "app", False),           # the boot's, the display up
    ("pico_lcd13", "textline", False),      # one app's imports need
    ("pico_lcd13", "notes", False),         # what a note is drawn with
    ("esp32_ili9341", "controls", False),
    ("pico_lcd13", "app", True),            # a copy cut off at its start
])
def test_a_firmware_file_missing_at_boot_is_named_on_the_screen(
        tmp_path, built, board, module, empty):
    """A core module deleted from the flash (or left empty by a copy cut
    short): the screen names the file and what to do, and keeps it there
    (no restart brings the file back); the console has the traceback.
    It was a black screen, the traceback on the console only."""
    import built_device
    flash = tmp_path / "flash"
    built_device.flash_from_build(built[board][0] / board, flash)
    f = flash / "lib" / (module + ".mpy")
    if empty:
        f.write_bytes(b"")
        said = "ValueError: incompatible .mpy file: "
    else:
        f.unlink()
        said = "Missing file %s.mpy: " % module
    said += "copy the firmware to the device again"
    screens, out = _boot_screens(flash, (3000, 12000), 12500)
    assert screens == [said, said], screens
    assert out.count("Traceback") == 1, out
    assert (".mpy file" if empty else "no module named '%s'" % module) in out
    assert said in out


def test_a_firmware_file_missing_in_play_is_named_and_the_game_restarts(
        tmp_path, built):
    """The menu's module, loaded only when the menu opens, missing: a note
    names it; after it the game starts again (a save would resume)."""
    import built_device
    flash = tmp_path / "flash"
    built_device.flash_from_build(built["pico_lcd13"][0] / "pico_lcd13",
                                  flash)
    (flash / "lib" / "menu.mpy").unlink()
    screens, out = _boot_screens(flash, (3000, ), 12000)
    assert screens[0] == "Missing file menu.mpy: copy the firmware to the " \
        "device again A: continue", screens
    assert out.count("no module named 'menu'") >= 2    # it started again
