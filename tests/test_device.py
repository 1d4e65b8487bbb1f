"""host_sim.device: the simulated handheld running firmware main.py from a
script, its screenshots, bus trace and front ends (terminal, window)."""
import io
import json
import os
import sys

import pytest

import host_sim

host_sim.install()
from host_sim import device  # noqa: E402
from host_sim import terminal  # noqa: E402
import board_sim  # noqa: E402
import board_esp32_ili9341  # noqa: E402
import board_view  # noqa: E402
import lcd_base  # noqa: E402


class _Glass:
    def __init__(self, w, h):
        self.width, self.height = w, h


def view_of(board):
    return board_view.BoardView(_Glass(board.LCD["width"], board.LCD["height"]),
                                lcd_base.FONT_W, lcd_base.FONT_H)


def stones(dev, board):
    """(black, white) points read off the screen at the stones' centres."""
    v = view_of(board)
    black, white = [], []
    for i in range(225):
        x, y = v.center(i)
        c = dev.lcd.pixel(x, y + v.radius // 2 + 1)
        if c == board_view.BLACK:
            black.append(i)
        elif c == board_view.WHITE:
            white.append(i)
    return black, white


GAME = """
# start a game against the AI from the menu, play the centre
at 1500
tap place
wait 600
shot menu-gone.png
tap place
wait 4000
shot first-moves.png
"""


@pytest.mark.parametrize("board", [board_sim, board_esp32_ili9341])
def test_scripted_headless_game(tmp_path, board):
    dev = device.Device(board, str(tmp_path / "flash"))
    end = dev.run(device.Script.parse(GAME), shots_dir=str(tmp_path))
    assert end >= 5100
    assert dev.lcd.errors == [] and dev.lcd.unknown == []
    black, white = stones(dev, board)
    assert black == [7 * 15 + 7]
    assert len(white) == 1 and white[0] != 112
    shot = tmp_path / "first-moves.png"
    from PIL import Image
    im = Image.open(shot)
    assert im.size == (board.LCD["width"], board.LCD["height"])
    v = view_of(board)
    x, y = v.center(112)
    y += v.radius // 2 + 1
    assert im.getpixel((x, y)) == device.rgb888(board_view.BLACK)


def test_frame_image_matches_the_model_pixel_by_pixel(tmp_path):
    for board in (board_sim, board_esp32_ili9341):
        dev = device.Device(board, str(tmp_path))
        dev.run(until_ms=1500)
        rgb = dev.frame_rgb()
        w, h = dev.lcd.width, dev.lcd.height
        assert len(rgb) == 3 * w * h
        for y in range(h):
            for x in range(w):
                a = 3 * (y * w + x)
                assert tuple(rgb[a:a + 3]) == device.rgb888(dev.lcd.pixel(x, y))


def test_trace_lines(tmp_path):
    dev = device.Device(board_sim, str(tmp_path))
    path = tmp_path / "trace.jsonl"
    dev.trace_to(str(path))
    dev.run(until_ms=600)
    dev.close()
    recs = [json.loads(line) for line in path.read_text().splitlines()]
    lcd = [r for r in recs if r["dev"] == "st7789"]
    gyro = [r for r in recs if r["dev"] == "l3g4200d"]
    assert lcd and gyro
    assert all(set(r) == {"t", "bus", "dev", "dc", "tx", "rx"} for r in lcd)
    assert lcd[0]["bus"] == "spi1" and lcd[0]["dc"] == 0
    assert lcd[0]["tx"] == "11" and lcd[0]["t"] >= 120000   # SLPOUT after reset
    assert all(r["bus"] == "i2c1" and "dc" not in r for r in gyro)
    assert [r["t"] for r in recs] == sorted(r["t"] for r in recs)
    assert recs[-1]["t"] <= 600 * 1000 + 50000


def test_script_parsing_and_errors():
    s = device.Script.parse("at 100\npress place\nwait 50\nrelease place\n"
                            "tilt 30 -10.5\ntap menu 40\nshot a.png\nreset\n")
    assert s.events == [(100, "press", "place"), (150, "release", "place"),
                        (150, "tilt", 30.0, -10.5), (150, "tap", "menu", 40),
                        (150, "shot", "a.png"), (150, "reset")]
    assert s.end_ms() == 150
    assert device.Script.parse("at 10\ntap place\nwait 300\n").end_ms() == 310
    for bad, why in (("jump 3", "unknown event"), ("wait", "one number"),
                     ("wait -5", "negative"), ("tilt 1", "takes 2"),
                     ("tap a 1 2", "1 or 2"), ("tilt a b", "tilt wants numbers")):
        with pytest.raises(device.ScriptError, match=why):
            device.Script.parse("at 1\n" + bad, "s.txt")
    with pytest.raises(device.ScriptError, match="s.txt:2"):
        device.Script.parse("at 1\nbogus", "s.txt")


def test_unknown_button_is_a_clear_error(tmp_path):
    dev = device.Device(board_sim, str(tmp_path))
    with pytest.raises(device.ScriptError, match="no button named 'fire'"):
        dev.run(device.Script.parse("at 500\ntap fire"))
    # refused before the run, naming the script's file and line
    dev = device.Device(board_sim, str(tmp_path))
    with pytest.raises(device.ScriptError,
                       match=r"^game\.txt:4: at 1700 ms: no button named 'fire'"):
        dev.schedule(device.Script.parse(
            "at 900\ntap place\nat 1700\ntap fire  # late\n", "game.txt"))
    # after an await, its time counts from the await: said so
    dev = device.Device(board_sim, str(tmp_path))
    with pytest.raises(device.ScriptError, match=r"^g\.txt:4: 50 ms after the "
                       r"await on line 2: no button named 'fire'"):
        dev.schedule(device.Script.parse(
            "tap place\nawait Start\nwait 50\ntap fire\n", "g.txt"))
    # an event that fails while the firmware runs stops the run with its
    # error, naming the line
    dev = device.Device(board_sim, str(tmp_path))
    with pytest.raises(device.ScriptError,
                       match=r"^s\.txt:2: at 500 ms: shot .*x\.png failed") as e:
        dev.run(device.Script.parse("at 500\nshot %s/no/such/dir/x.png"
                                    % tmp_path, "s.txt"))
    assert isinstance(e.value.__cause__, OSError)


def test_tilt_on_a_board_without_gyroscope_names_file_and_line(tmp_path):
    import types
    board = types.SimpleNamespace(**{k: v for k, v in vars(board_sim).items()
                                     if k != "GYRO" and not k.startswith("__")})
    dev = device.Device(board, str(tmp_path))
    with pytest.raises(device.ScriptError,
                       match=r"^t\.txt:2: at 0 ms: lean, but this board has no"):
        dev.schedule(device.Script.parse("# hold it\nlean 20 0\n", "t.txt"))


def test_reset_restarts_main_and_keeps_flash(tmp_path):
    import savegame
    import saveread
    flash = tmp_path / "flash"
    dev = device.Device(board_sim, str(flash))
    dev.run(device.Script.parse(GAME + "reset\nwait 3000\n"))
    assert dev.resets == 1
    assert dev.lcd.errors == []
    # the save file survived: the centre and the AI's answer
    saved = saveread.decode((flash / savegame.PATH).read_bytes())
    assert len(saved.moves) == 2 and saved.moves[0] == 7 * 15 + 7
    # and main.py booted again and found it: its resume offer is on the LCD
    im = device.frame_image(dev.lcd)
    shown = [t[2] for t in terminal.read_text(im.tobytes(), im.width,
                                               im.height)]
    assert "Saved game found:" in shown, shown


def test_lean_moves_the_cursor_by_tilt(tmp_path):
    """Start a game, lean right and back: the cursor leaves the centre to
    the right; a placed stone lands there."""
    dev = device.Device(board_sim, str(tmp_path))
    dev.run(device.Script.parse(
        "at 1500\ntap place\nwait 800\nlean 20 0\nwait 300\nlean 0 0\n"
        "wait 800\ntap place\nwait 300"))
    black, white = stones(dev, board_sim)
    assert len(black) == 1 and black[0] // 15 == 7 and black[0] % 15 > 7


def test_hand_tilts_at_a_human_pace_and_holds_still(tmp_path):
    import sim_clock
    dev = device.Device(board_sim, str(tmp_path))
    hand = dev.hand()
    hand.hold(20, -10)
    for _ in range(300):
        sim_clock.advance_us(5000)
    assert hand.angle == pytest.approx([20, -10], abs=0.1)
    assert dev.tilt_source.true_rates_dps is not None
    assert hand._rates == (0.0, 0.0)            # held: no rate


def test_terminal_view_renders_half_blocks_and_keys(tmp_path):
    dev = device.Device(board_sim, str(tmp_path))
    dev.run(until_ms=1500)
    out = io.StringIO()
    view = terminal.TerminalView(dev, out=out, keys=False,
                                 shots_dir=str(tmp_path))
    view.draw(force=True)
    text = out.getvalue()
    assert "\u2580" in text and "\x1b[38;2;" in text
    assert text.count("\n") >= 20
    view._handle("p")
    assert os.path.exists(tmp_path / "screen-001.png")
    view._handle(" ")
    assert dev.buttons.is_pressed("place")
    view._handle("\x1b[C")                 # an arrow: the joystick
    assert dev.buttons.is_pressed("right")
    assert view.hand.target == [0.0, 0.0]
    view._handle("d")                       # w/a/s/d: tilt
    assert view.hand.target == [20.0, 0.0]
    # a board without a joystick: arrows tilt
    esp = device.Device(board_esp32_ili9341, str(tmp_path / "esp"))
    view = terminal.TerminalView(esp, out=out, keys=False)
    view._handle("\x1b[A")
    assert view.hand.target == [0.0, 20.0]
    assert "arrows tilt" in view.message


def test_half_blocks_colours():
    rgb = bytes([255, 0, 0, 0, 0, 255, 0, 255, 0, 1, 2, 3])   # 2 x 2
    lines = terminal.half_blocks(rgb, 2, 2)
    assert lines == ["\x1b[38;2;255;0;0m\x1b[48;2;0;255;0m\u2580"
                     "\x1b[38;2;0;0;255m\x1b[48;2;1;2;3m\u2580\x1b[0m"]
    assert terminal.fit(240, 240, 80, 38) == (76, 76)


def render_text(lines, w=240, fg=(255, 255, 255), bg=(0, 0, 40)):
    """RGB888 of text lines in the firmware's font, 6 x 8 cells, as the LCD
    drivers draw it (a blank column and row after each glyph)."""
    import font5x7 as f
    h = 8 * len(lines)
    px = bytearray(bytes(bg) * (w * h))
    for row, text in enumerate(lines):
        for i, ch in enumerate(text):
            k = 5 * (ord(ch) - f.FIRST)
            for col in range(5):
                bits = f.GLYPHS[k + col]
                for y in range(7):
                    if bits >> y & 1:
                        a = 3 * ((8 * row + y) * w + 6 * i + col)
                        px[a:a + 3] = bytes(fg)
    return bytes(px), w, h


def test_read_text_reads_every_glyph_and_a_leading_one():
    """The terminal's text comes from the pixels: every character of the
    font, and a "1" (its first column blank) at the start of a word even
    where its next column looks like the start of a "2"."""
    import font5x7 as f
    every = "".join(chr(c) for c in range(f.FIRST + 1, f.LAST + 1))
    lines = [every[:38], every[38:76], every[76:], "1 move", "x 1 12 21 1"]
    rgb, w, h = render_text(lines)
    found = [(y // 8, text) for x, y, text, fg, bg in terminal.read_text(rgb, w, h)]
    assert found == list(enumerate(lines))


def test_window_front_end_with_sdl_dummy(tmp_path, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    import pygame           # pinned in requirements.txt: missing is a failure
    from host_sim import window
    assert not window.display_available()
    dev = device.Device(board_sim, str(tmp_path))
    dev.run(until_ms=1500)
    view = window.WindowView(dev, scale=2, shots_dir=str(tmp_path))
    try:
        view.draw()
        x, y, w, h = view.screen_rect
        assert (w, h) == (480, 480)
        # the LCD scaled into the window
        px = view.win.get_at((x + 2 * 10 + 1, y + 2 * 200 + 1))[:3]
        assert tuple(px) == device.rgb888(dev.lcd.pixel(10, 200))
        bx, by, bw, bh = view.rects["place"]
        pygame.event.post(pygame.event.Event(
            pygame.MOUSEBUTTONDOWN, button=1, pos=(bx + 5, by + 5)))
        view.events()
        assert dev.buttons.is_pressed("place")
        pygame.event.post(pygame.event.Event(
            pygame.MOUSEBUTTONUP, button=1, pos=(bx + 5, by + 5)))
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_UP))
        view.events()
        # a click quicker than the firmware's polls: held until it has
        # polled (slept) TAP_SLEEPS times and 80 ms have passed
        assert dev.buttons.is_pressed("place")
        import sim_clock
        sim_clock.advance_us(80000)
        for _ in range(dev.TAP_SLEEPS):
            assert dev.buttons.is_pressed("place")
            dev._slept()
        assert not dev.buttons.is_pressed("place")
        assert view.hand.target == [0.0, 20.0]
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_p))
        view.events()
        assert os.path.exists(tmp_path / "screen-001.png")
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        view.events()
        assert dev._done
    finally:
        pygame.quit()


def test_cli_headless_script_shots_and_trace(tmp_path):
    import subprocess
    import sys
    script = tmp_path / "s.txt"
    script.write_text("at 1200\nshot menu.png\ntap place\nwait 500\n"
                      "shot board.png\n")
    cmd = [sys.executable, "-m", "host_sim", "--headless", "--board", "sim",
           "--script", str(script), "--shots", str(tmp_path / "shots"),
           "--trace", str(tmp_path / "t.jsonl"), "--flash",
           str(tmp_path / "flash")]
    out = subprocess.run(cmd, cwd=str(host_sim.ROOT), capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "2 screenshot(s)" in out.stdout
    assert (tmp_path / "shots" / "menu.png").exists()
    assert (tmp_path / "shots" / "board.png").exists()
    first = json.loads((tmp_path / "t.jsonl").read_text().splitlines()[0])
    assert first["dev"] == "st7789"
    script.write_text("at 10\npress nosuchkey\n")
    out = subprocess.run(cmd, cwd=str(host_sim.ROOT), capture_output=True,
                         text=True, timeout=120)
    assert out.returncode != 0 and "no button named 'nosuchkey'" in out.stderr
    out = subprocess.run(cmd[:4] + ["--board", "nope", "--until", "5"],
                         cwd=str(host_sim.ROOT), capture_output=True,
                         text=True, timeout=120)
    assert out.returncode != 0 and "no board 'nope'" in out.stderr


def test_cli_window_without_a_display_says_so(tmp_path):
    """--window (make sim-pair) with no display: SDL falls back to its
    invisible offscreen driver, and the run went on with no window and no
    word; it must stop and name the front ends that work."""
    import subprocess
    import sys
    if os.name == "nt" or os.uname().sysname == "Darwin":
        pytest.skip("a display is always there")
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    env["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    cmd = [sys.executable, "-m", "host_sim", "--window", "--until", "300",
           "--flash", str(tmp_path / "flash")]
    out = subprocess.run(cmd, cwd=str(host_sim.ROOT), capture_output=True,
                         text=True, timeout=120, env=env,
                         stdin=subprocess.DEVNULL)
    assert out.returncode != 0, out.stdout
    assert "no window" in out.stderr and "--terminal" in out.stderr, out.stderr


def test_cli_erase_removes_only_the_firmware_files(tmp_path):
    from host_sim import __main__ as cli
    for name in ("gomoku.cfg", "gomoku.sav", "gomoku.mat", "notes.txt"):
        (tmp_path / name).write_bytes(b"x")
    cli.erase(str(tmp_path))
    assert sorted(os.listdir(tmp_path)) == ["notes.txt"]
    cli.erase(str(tmp_path / "missing"))        # no flash yet: nothing to do


def _plain(text):
    """Terminal output without its colour escapes."""
    import re
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)


def test_terminal_shows_the_lcd_text_readably_when_shrunk(tmp_path,
                                                          monkeypatch):
    # 120 x 50 cells: the 240 px LCD shrinks to 96 px, its 6 px letters
    # to 2.4 px; the menu must still read as text
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setenv("LINES", "50")
    dev = device.Device(board_sim, str(tmp_path))
    dev.run(until_ms=1500)
    out = io.StringIO()
    view = terminal.TerminalView(dev, out=out, keys=False)
    view.draw(force=True)
    lines = [_plain(line) for line in out.getvalue().split("\n")]
    for want in ("Mode:  vs AI", "Level: 1", "Rule:  Freestyle",
                 "Black: you", "> Start", "A: change/start  X: next"):
        assert any(want in line for line in lines), want
    assert len(lines[1]) >= 96 and "\u2580" in lines[1]    # still a picture
    # in order, top to bottom, as on the LCD
    rows = [next(k for k, line in enumerate(lines) if want in line)
            for want in ("Mode:", "Level:", "Rule:", "Black:", "> Start")]
    assert rows == sorted(rows) and len(set(rows)) == 5
    # read off the pixels: what the firmware drew, in its colours
    im = device.frame_image(dev.lcd)
    found = terminal.read_text(im.tobytes(), im.width, im.height)
    start = [f for f in found if f[2] == "> Start"][0]
    assert start[3] == device.rgb888(board_view.BANNER_TEXT)
    assert start[4] == device.rgb888(board_view.BANNER)


def test_terminal_redraws_after_a_resize(tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setenv("LINES", "50")
    dev = device.Device(board_sim, str(tmp_path))
    dev.run(until_ms=1500)
    out = io.StringIO()
    view = terminal.TerminalView(dev, out=out, keys=False)
    view.draw()
    out.seek(0)
    out.truncate()
    view.draw()
    assert out.getvalue() == ""             # nothing changed
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    view.draw()
    assert out.getvalue().startswith("\x1b[2J")     # the old picture goes
    assert "Mode:" in _plain(out.getvalue())


def test_terminal_escape_sequences_are_not_keys(tmp_path):
    dev = device.Device(board_sim, str(tmp_path))
    view = terminal.TerminalView(dev, out=io.StringIO(), keys=False)
    # arrows in application cursor mode (ESC O C), shift+up (ESC [1;2A),
    # Delete (ESC [3~), a lone Esc: the joystick or nothing, never another
    # button ('O' is the joystick press, '~' nothing)
    view._handle("\x1bOC")
    assert dev.buttons.is_pressed("right")
    view._handle("\x1b[1;2A")
    assert dev.buttons.is_pressed("up")
    view._handle("\x1b[3~\x1b")
    assert sorted(n for n in dev.buttons.pins if dev.buttons.is_pressed(n)) \
        == ["right", "up"]
    view._handle("o")
    assert dev.buttons.is_pressed("press")


def test_terminal_front_end_in_a_pty_menu_game_undo_quit(tmp_path):
    """`python -m host_sim --terminal` as a person runs it: a 120 x 50
    terminal, keys typed; the screens read as text, q quits cleanly."""
    from term_screen import PtyRun
    t = PtyRun(["--terminal", "--flash", str(tmp_path / "flash"),
                "--shots", str(tmp_path)])
    try:
        t.wait_for("> Start")
        t.key(b"\r")                            # A: start vs AI
        t.wait_for("Black (you) to move")
        t.key(b"\r")                            # place at the centre
        screen = t.wait_for("#2")               # ... and the AI answered
        assert "Black (you) to move" in screen
        t.key(b"\x7f")                          # B: undo both
        screen = t.wait_for("Undone")
        assert "#0" in screen
        t.key(b"p")
        t.wait_for("saved ")
        t.key(b"q")
        assert t.wait_exit() == 0, t.p.stderr.read()
        assert "".join(t.raw).endswith("\x1b[?1049l")   # the shell is back
        assert (tmp_path / "screen-001.png").exists()
    finally:
        t.close()


def test_wall_clock_taps_wait_for_the_firmware_to_poll(tmp_path, monkeypatch):
    """On the wall clock a slow host must not lose a key: a tap is held
    until the firmware has slept (polled) TAP_SLEEPS times, and a second
    tap of the same key typed meanwhile follows it instead of vanishing.
    The host here polls every 100 ms, slower than a tap's 80 ms hold, on a
    wall clock of the test's own (so the host's load changes nothing); the
    firmware's debounced Buttons must report both taps."""
    import sim_clock
    import buttons
    dev = device.Device(board_sim, str(tmp_path))
    dev.tap("back", 80)                 # virtual clock: the script's tap
    sim_clock.advance_us(90000)
    assert not dev.buttons.is_pressed("back")
    wall = [10 ** 9]
    monkeypatch.setattr(sim_clock, "_wall_us", lambda: wall[0])
    keys = buttons.Buttons(board_sim.BUTTONS)
    sim_clock.set_real(True)
    try:
        dev.tap("place", 80)
        dev.tap("place", 80)            # typed twice, quickly
        seen = []
        presses = []
        for _ in range(40):
            wall[0] += 100000           # the firmware polls late: slow host
            level = dev.buttons.is_pressed("place")
            if not seen or seen[-1] != level:
                seen.append(level)
            name = keys.poll(sim_clock.now_us() // 1000)
            if name is not None:
                presses.append(name)
            dev._slept()
    finally:
        sim_clock.set_real(False)
    assert seen == [True, False, True, False]
    assert presses == ["place", "place"]


def test_wall_clock_tap_just_after_a_release_waits_for_it_to_be_seen(tmp_path):
    """A key typed again just after the last tap was released, before the
    firmware has polled the release (a busy host): pressed at once, the
    firmware would see one long press and lose the second. It is pressed
    once the release has been polled TAP_SLEEPS times."""
    import time
    import sim_clock
    dev = device.Device(board_sim, str(tmp_path))
    sim_clock.set_real(True)
    try:
        dev.tap("place", 80)
        end = time.monotonic() + 10     # a guard only: a busy host is slow
        while dev.buttons.is_pressed("place") and time.monotonic() < end:
            time.sleep(0.03)
            dev._slept()
        released_at = dev.sleeps
        dev.tap("place", 80)
        assert not dev.buttons.is_pressed("place")
        while not dev.buttons.is_pressed("place") and time.monotonic() < end:
            time.sleep(0.03)
            dev._slept()
    finally:
        sim_clock.set_real(False)
    assert dev.buttons.is_pressed("place")
    assert dev.sleeps >= released_at + dev.TAP_SLEEPS

def test_wall_clock_taps_of_two_keys_keep_their_order(tmp_path):
    """A terminal that reads two keys at once (its host was busy) must not
    press them together: the firmware would take them in its own button
    order, and Left then Enter would place before stepping."""
    import time
    import sim_clock
    dev = device.Device(board_sim, str(tmp_path))
    sim_clock.set_real(True)
    try:
        dev.tap("left", 80)
        dev.tap("place", 80)            # read in the same chunk
        seen = []
        end = time.monotonic() + 10     # a guard only: a busy host is slow
        after = 10                      # polls past the last release: no more
        while time.monotonic() < end and after:
            time.sleep(0.03)
            down = tuple(k for k in ("left", "place") if dev.buttons.is_pressed(k))
            if not seen or seen[-1] != down:
                seen.append(down)
            if len(seen) >= 4:
                after -= 1
            dev._slept()
    finally:
        sim_clock.set_real(False)
    assert seen == [("left",), (), ("place",), ()]


def test_a_front_end_runs_on_the_wall_clock_and_leaves_it_virtual(tmp_path):
    """A view's run follows the wall clock, drawing at its hook; once the
    run ends the clock is virtual again and the hook is gone, so a device
    run after it is as repeatable as any headless one."""
    import sim_clock
    dev = device.Device(board_sim, str(tmp_path))
    out = io.StringIO()
    view = terminal.TerminalView(dev, out=out, keys=False)
    wall = sim_clock._wall_us()
    dev.run_live(view._hook, device.Script.parse("at 400\nend\n"))
    assert sim_clock._wall_us() - wall >= 400000
    assert "\u2580" in out.getvalue()              # drawn while it ran
    assert view._hook not in sim_clock._hooks and not sim_clock._real
    start = sim_clock.now_us()
    wall = sim_clock._wall_us()
    dev.run(until_ms=start // 1000 + 5000)
    assert sim_clock._wall_us() - wall < 4000000


def test_terminal_arrow_press_is_one_cursor_step(tmp_path):
    """An arrow press is one joystick tap: one cursor step, never two."""
    import sim_clock
    dev = device.Device(board_sim, str(tmp_path))
    view = terminal.TerminalView(dev, out=io.StringIO(), keys=False)
    sim_clock.add_hook(view._hook)
    presses = 4
    for k in range(presses):
        sim_clock.call_at((2500 + 900 * k) * 1000,
                          lambda: view._handle("\x1b[C"))
    end = 2500 + 900 * presses + 300
    dev.run(device.Script.parse("at 1500\ntap place\nat %d\ntap place\n"
                                "wait 300\n" % end))
    black, white = stones(dev, board_sim)
    assert black == [7 * 15 + 7 + presses]


def test_terminal_arrow_tilt_leaves_a_slow_host_room(tmp_path):
    """The tilt of one arrow press passes the firmware's dead zone surely,
    and is back inside its release band long before the firmware's first
    auto-repeat: 100 ms are left for a host that polls late (a 0.35 s tilt
    left 40 ms, and a busy terminal made double steps)."""
    import sim_clock
    import tilt
    dev = device.Device(board_sim, str(tmp_path))
    view = terminal.TerminalView(dev, out=io.StringIO(), keys=False)
    sim_clock.add_hook(view._hook)
    view._handle("a")
    angles = []
    for _ in range(200):
        sim_clock.advance_us(5000)
        angles.append(-view.hand.angle[0] * 1000)      # mdeg, to the left
    assert max(angles) >= tilt._DEAD + 3000
    step = 5 * next(k for k, a in enumerate(angles) if a >= tilt._DEAD)
    back = 5 * max(k for k, a in enumerate(angles) if a >= tilt._RELEASE)
    assert back - step <= tilt._FIRST_MS - 100


def test_cli_refuses_what_it_cannot_run(tmp_path, monkeypatch):
    """Each refusal is one line saying what is wrong, before the firmware
    runs: a headless run with nothing to end it (it would run forever; with
    no display and no terminal it is headless unasked, and says so),
    --peer without --udp (no radio to send from), a script file that is
    not there (not a FileNotFoundError traceback), a board that does not
    exist (naming those that do)."""
    from host_sim import __main__ as cli

    def ran(*args, **kw):
        raise AssertionError("the firmware ran")
    monkeypatch.setattr(device.Device, "run", ran)
    from host_sim import window
    monkeypatch.setattr(window, "display_available", lambda: False)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: False, raising=False)
    (tmp_path / "utf16.txt").write_text("wait 10\n", encoding="utf-16")
    for args, why in (
            (["--headless"], r"^headless needs --script FILE or --until MS$"),
            ([], r"^no display and no terminal to draw on: run it in a terminal "
                 r"\(or pass --terminal\), or --headless with --script FILE or --until MS$"),
            (["--headless", "--until", "5", "--peer", "47102"],
             r"^--peer needs --udp PORT$"),
            (["--headless", "--script", str(tmp_path / "none.txt")],
             r"^script: .*No such file.*none\.txt"),
            (["--headless", "--script", str(tmp_path / "utf16.txt")],
             r"^script: .*utf16\.txt: not UTF-8 text \(byte 0\)$"),
            (["--headless", "--until", "5", "--shots", str(tmp_path / "utf16.txt")],
             r"^--shots .*utf16\.txt: a file, not a folder$"),
            (["--until", "5", "--board", "nope"],
             r"^no board 'nope' \(have: .*\bsim\b.*\)$")):
        with pytest.raises(SystemExit, match=why):
            cli.main(args + ["--flash", str(tmp_path / "flash")])


def test_cli_saves_the_game_in_its_flash_dir(tmp_path, monkeypatch):
    """The game goes to --flash DIR, and with no --flash to
    build/flash-<board>: one flash per board, where the next run of that
    board finds its game (and nothing lands in a flash that was not named)."""
    import savegame
    import saveread
    from host_sim import __main__ as cli
    script = tmp_path / "game.txt"
    script.write_text(GAME)
    root = tmp_path / "root"
    monkeypatch.setattr(cli, "ROOT", str(root))
    for board, args, flash in (
            ("sim", ["--flash", str(tmp_path / "mine")], tmp_path / "mine"),
            ("esp32_ili9341", [], root / "build" / "flash-esp32_ili9341")):
        assert cli.main(["--headless", "--board", board, "--script",
                         str(script), "--shots", str(tmp_path)] + args) == 0
        saved = saveread.decode((flash / savegame.PATH).read_bytes())
        assert saved.moves[0] == 7 * 15 + 7, board
    assert sorted(os.listdir(root / "build")) == ["flash-esp32_ili9341"]


def test_cli_realtime_puts_a_headless_run_on_the_wall_clock(tmp_path,
                                                            monkeypatch):
    """--realtime: script times are real milliseconds (two simulators
    sharing a radio need it); without it a headless run is on the virtual
    clock, as fast as the host allows."""
    import sim_clock
    from host_sim import __main__ as cli
    real = []
    monkeypatch.setattr(sim_clock, "set_real", real.append)
    flash = ["--flash", str(tmp_path)]
    cli.main(["--headless", "--until", "5"] + flash)
    assert real == []
    cli.main(["--headless", "--realtime", "--until", "5"] + flash)
    assert real == [True]


def test_cli_window_scale(tmp_path, monkeypatch):
    """--scale N zooms the window's LCD N times (2 unless told)."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    import pygame
    from host_sim import __main__ as cli
    from host_sim import window
    shown = []
    monkeypatch.setattr(window.WindowView, "run",
                        lambda self, script=None: shown.append(
                            self.screen_rect[2:]))
    try:
        for args, scale in (([], 2), (["--scale", "3"], 3)):
            cli.main(["--window", "--until", "5", "--flash",
                      str(tmp_path)] + args)
            assert shown.pop() == (240 * scale, 240 * scale)
    finally:
        pygame.quit()


def _no_display(**env):
    env = dict({k: v for k, v in os.environ.items()
                if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")},
               PYGAME_HIDE_SUPPORT_PROMPT="1", **env)
    return env


def test_cli_with_no_front_end_named_plays_in_the_terminal(tmp_path):
    """`make sim` in a terminal with no display: the terminal view (not a
    headless run refused for want of a script); with a $DISPLAY no window
    opens on, it says so and uses the terminal; --window there is an
    error, not a quiet switch. --until ends a terminal run by itself."""
    from term_screen import PtyRun
    flash = ["--flash", str(tmp_path / "flash")]
    for env, says in ((_no_display(), None),
                      (_no_display(DISPLAY=":99"), "no window (")):
        t = PtyRun(flash, env=env)
        try:
            t.wait_for("> Start")
            t.key(b"q")
            assert t.wait_exit() == 0, t.p.stderr.read()
            raw = "".join(t.raw)
            assert says is None or (says in raw
                                    and "using the terminal" in raw), raw[:300]
        finally:
            t.close()
    t = PtyRun(flash + ["--until", "1000"], env=_no_display())
    try:
        assert t.wait_exit() == 0, t.p.stderr.read()      # no key pressed
    finally:
        t.close()
    t = PtyRun(["--window"] + flash, env=_no_display(DISPLAY=":99"))
    try:
        assert t.wait_exit() != 0
        assert "no window" in t.p.stderr.read().decode()
    finally:
        t.close()


def test_terminal_front_end_ctrl_c_gives_the_shell_back(tmp_path):
    """Ctrl-C (SIGINT) ends the terminal view as q does: status 0, no
    traceback, and the terminal as it was before: line mode and echo,
    the cursor shown, the shell's screen back."""
    import signal
    import termios
    from term_screen import PtyRun
    t = PtyRun(["--terminal", "--flash", str(tmp_path / "flash")])
    try:
        before = termios.tcgetattr(t.master)
        t.wait_for("> Start")
        assert not termios.tcgetattr(t.master)[3] & termios.ICANON  # keys
        t.p.send_signal(signal.SIGINT)
        assert t.wait_exit() == 0
        assert b"Traceback" not in t.p.stderr.read()
        assert termios.tcgetattr(t.master) == before
        assert "".join(t.raw).endswith("\x1b[?25h\x1b[?1049l")
    finally:
        t.close()


def test_terminal_keys_press_what_the_help_says(tmp_path):
    """Every key the terminal's help names, one button each (Backspace is
    DEL or ^H, as terminals differ); w/a/s/d tilt forward/left/back/right."""
    import sim_clock
    dev = device.Device(board_sim, str(tmp_path))
    view = terminal.TerminalView(dev, out=io.StringIO(), keys=False)
    for keys, name in (("\r", "place"), ("\n", "place"), (" ", "place"),
                       ("\x7f", "back"), ("\x08", "back"), ("m", "menu"),
                       ("M", "menu"), ("e", "extra"), ("i", "up"),
                       ("k", "down"), ("j", "left"), ("l", "right"),
                       ("o", "press"), ("\x1b[A", "up"), ("\x1b[B", "down"),
                       ("\x1b[C", "right"), ("\x1b[D", "left")):
        view._handle(keys)
        assert [n for n in dev.buttons.pins if dev.buttons.is_pressed(n)] \
            == [name], repr(keys)
        sim_clock.advance_us(200000)            # the tap is over
        assert not any(dev.buttons.is_pressed(n) for n in dev.buttons.pins)
    for key, target in (("w", [0, 20]), ("s", [0, -20]), ("a", [-20, 0]),
                        ("d", [20, 0])):
        view._handle(key)
        assert view.hand.target == target, key


def test_terminal_rewrites_only_changed_rows_yet_shows_the_lcd(tmp_path,
                                                               monkeypatch):
    """After the first picture the terminal rewrites only the rows that
    changed (a cursor step is a row or two, not the screen); through the
    menu, a game's start, a cursor step and a move with the AI's answer,
    it shows exactly what one fresh drawing of the LCD would, colours
    and text, every row."""
    import sim_clock
    from term_screen import Screen
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setenv("LINES", "50")
    dev = device.Device(board_sim, str(tmp_path))
    out = io.StringIO()
    view = terminal.TerminalView(dev, out=out, keys=False)
    for ms in (1400, 2200, 2800, 4500):
        sim_clock.call_at(ms * 1000, view.draw)
    dev.run(device.Script.parse("at 1500\ntap place\nat 2500\ntap right\n"
                                "at 3000\ntap place\nat 4600\n"))
    assert out.getvalue().count("\x1b[2J") == 1     # one full drawing
    shown = Screen(50, 120)
    shown.feed(out.getvalue())
    fresh = io.StringIO()
    terminal.TerminalView(dev, out=fresh, keys=False).draw()
    want = Screen(50, 120)
    want.feed(fresh.getvalue())
    assert "#2" in want.text()              # the move and the AI's answer
    for r in range(50):
        assert (shown.cells[r], shown.colours[r]) == \
            (want.cells[r], want.colours[r]), "row %d" % (r + 1)


def test_window_chosen_only_where_one_can_open(monkeypatch):
    """A window is the default front end with X11 or Wayland, or an SDL
    driver the user named; never with SDL's invisible drivers."""
    from host_sim import window
    for k in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(k, raising=False)
    for env, want in (({}, False), ({"DISPLAY": ":0"}, True),
                      ({"WAYLAND_DISPLAY": "wayland-0"}, True),
                      ({"SDL_VIDEODRIVER": "kmsdrm"}, True),
                      ({"SDL_VIDEODRIVER": "offscreen", "DISPLAY": ":0"},
                       False)):
        with monkeypatch.context() as m:
            for k, v in env.items():
                m.setenv(k, v)
            assert window.display_available() is want, env


def test_window_keys_mouse_and_drag(tmp_path, monkeypatch):
    """The window's keys as its help says, each pressing one button until
    let go; arrows tilt while held; every drawn button clicks itself;
    a drag on the screen tilts towards it, letting go levels; Esc quits."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    import pygame
    import sim_clock
    from host_sim import window
    dev = device.Device(board_sim, str(tmp_path))
    view = window.WindowView(dev, scale=2, shots_dir=str(tmp_path))

    def post(kind, **kw):
        pygame.event.post(pygame.event.Event(kind, **kw))
        view.events()

    def down():
        return [n for n in dev.buttons.pins if dev.buttons.is_pressed(n)]

    def let_go():
        sim_clock.advance_us(100000)
        for _ in range(dev.TAP_SLEEPS):
            dev._slept()
        assert down() == []

    try:
        for key, name in ((pygame.K_RETURN, "place"),
                          (pygame.K_KP_ENTER, "place"),
                          (pygame.K_SPACE, "place"),
                          (pygame.K_BACKSPACE, "back"), (pygame.K_m, "menu"),
                          (pygame.K_e, "extra"), (pygame.K_i, "up"),
                          (pygame.K_k, "down"), (pygame.K_j, "left"),
                          (pygame.K_l, "right"), (pygame.K_o, "press")):
            post(pygame.KEYDOWN, key=key)
            assert down() == [name], pygame.key.name(key)
            post(pygame.KEYUP, key=key)
            let_go()
        for key, target in ((pygame.K_UP, [0, 20]), (pygame.K_DOWN, [0, -20]),
                            (pygame.K_LEFT, [-20, 0]),
                            (pygame.K_RIGHT, [20, 0])):
            post(pygame.KEYDOWN, key=key)
            assert view.hand.target == target, pygame.key.name(key)
            post(pygame.KEYUP, key=key)
            assert view.hand.target == [0, 0]
        w, h = view.win.get_size()
        assert sorted(view.rects) == sorted(dev.buttons.pins)
        for name, (x, y, bw, bh) in view.rects.items():
            assert 0 <= x and x + bw <= w and 0 <= y and y + bh <= h, name
            for pos in ((x, y), (x + bw - 1, y + bh - 1)):
                post(pygame.MOUSEBUTTONDOWN, button=1, pos=pos)
                assert down() == [name], (name, pos)
                post(pygame.MOUSEBUTTONUP, button=1, pos=pos)
                let_go()
        x, y, sw, sh = view.screen_rect
        mid = (x + sw // 2, y + sh // 2)
        post(pygame.MOUSEBUTTONDOWN, button=1, pos=mid)
        post(pygame.MOUSEMOTION, pos=(mid[0] + 40, mid[1] - 20), rel=(40, -20),
             buttons=(1, 0, 0))
        r, f = view.hand.target
        assert r > 0 and f > 0 and r == 2 * f       # right and forward
        post(pygame.MOUSEBUTTONUP, button=1, pos=(mid[0] + 40, mid[1] - 20))
        assert view.hand.target == [0, 0] and down() == []
        assert not dev._done
        post(pygame.KEYDOWN, key=pygame.K_ESCAPE)
        assert dev._done
    finally:
        pygame.quit()


def test_terminal_picture_and_help_line_fit_the_terminal(tmp_path,
                                                         monkeypatch):
    """Whatever the terminal's shape, the picture and the help line fit:
    nothing scrolls off its top (the LCD's top row is whose turn it is)
    and no row wraps."""
    dev = device.Device(board_sim, str(tmp_path))
    dev.run(until_ms=1500)
    for cols, rows in ((200, 24), (60, 50), (100, 30)):
        monkeypatch.setenv("COLUMNS", str(cols))
        monkeypatch.setenv("LINES", str(rows))
        out = io.StringIO()
        terminal.TerminalView(dev, out=out, keys=False).draw()
        text = out.getvalue()
        assert text.count("\n") <= rows - 1, (cols, rows)
        assert max(len(_plain(line)) for line in text.split("\n")) <= cols
