"""Mutation review T of the PC front ends a player touches: the terminal
view (host_sim/terminal.py) and the pygame window (host_sim/window.py):
their keys and mouse on boards with and without a joystick or gyroscope,
the LCD's text read back and laid over a shrunken picture, the PNG key,
the window's layout and picture on a non-square LCD."""
import io
import os
import types

import pytest

import host_sim

host_sim.install()
from host_sim import device  # noqa: E402
from host_sim import terminal  # noqa: E402
import board_sim  # noqa: E402
import board_esp32_ili9341  # noqa: E402
from test_device import _plain, render_text  # noqa: E402


def pressed(dev):
    return sorted(n for n in dev.buttons.pins if dev.buttons.is_pressed(n))


def no_gyro_board():
    """board_sim without its GYRO entry: a handheld built with no
    gyroscope (the device and both front ends allow for one)."""
    b = types.ModuleType("board_sim_no_gyro")
    for k in ("NAME", "LCD", "BUTTONS"):
        setattr(b, k, getattr(board_sim, k))
    return b


def term_view(board, tmp_path, **kw):
    dev = device.Device(board, str(tmp_path / "flash"))
    return dev, terminal.TerminalView(dev, out=io.StringIO(), keys=False,
                                      shots_dir=str(tmp_path), **kw)


# ---- terminal: keys -----------------------------------------------------------

def test_terminal_keys_a_board_lacks_do_nothing(tmp_path):
    """The ESP32 board has place, back and menu only: its joystick keys,
    e and Delete/Home/F5 (CSI sequences that are no arrow) press nothing
    and raise nothing; the keys it has still work after them."""
    dev, view = term_view(board_esp32_ili9341, tmp_path)
    view._handle("ijklo" + "eE" + "\x1b[3~\x1b[H\x1b[15~\x1bOP")
    assert pressed(dev) == []
    assert view.hand.target == [0.0, 0.0]
    view._handle("m")
    assert pressed(dev) == ["menu"]


def test_terminal_sequence_ends_at_its_final_byte(tmp_path):
    """An escape sequence ends at its final byte (0x40-0x7E, ECMA-48): a
    key typed right after Delete or Page Up in the same read still counts."""
    dev, view = term_view(board_sim, tmp_path)
    view._handle("\x1b[3~m")
    assert pressed(dev) == ["menu"]
    dev2, view2 = term_view(board_sim, tmp_path / "2")
    view2._handle("\x1b[5~\x1b[1;5C")       # Page Up, then Ctrl+Right
    assert pressed(dev2) == ["right"]


def test_terminal_capitals_work_as_the_small_letters(tmp_path):
    """With Caps Lock on: W/A/S/D tilt, P saves a PNG, Q quits."""
    dev, view = term_view(board_sim, tmp_path)
    for key, target in (("W", [0, 20]), ("A", [-20, 0]), ("S", [0, -20]),
                        ("D", [20, 0])):
        view._handle(key)
        assert view.hand.target == target, key
    view._handle("P")
    assert os.path.exists(tmp_path / "screen-001.png")
    assert not dev._done
    view._handle("Q")
    assert dev._done


def test_terminal_without_a_gyroscope(tmp_path):
    """No gyroscope: w/a/s/d and arrows on a board without a joystick
    tilt nothing and raise nothing; the help names no tilt; the clock
    hook runs on (no tilt to level)."""
    import sim_clock
    b = no_gyro_board()
    b.BUTTONS = dict(board_esp32_ili9341.BUTTONS)
    dev, view = term_view(b, tmp_path)
    assert view.hand is None
    view._handle("wasd\x1b[A\x1b[D")
    assert pressed(dev) == []
    assert "tilt" not in view.message and "arrows" not in view.message
    view._hook(sim_clock.now_us())
    sim_clock.advance_us(1000000)
    view._hook(sim_clock.now_us())
    view._handle(" ")
    assert pressed(dev) == ["place"]


def test_terminal_reads_no_keys_when_input_is_no_terminal(tmp_path,
                                                          monkeypatch):
    """stdin a pipe or a file (a script, CI): no keys read, and the
    terminal's modes left alone (tcgetattr would fail on it)."""
    import sys
    monkeypatch.setattr(sys.stdin, "isatty", lambda: False, raising=False)
    dev = device.Device(board_sim, str(tmp_path))
    assert terminal.TerminalView(dev, out=io.StringIO()).keys is False


def test_terminal_help_names_what_the_board_has(tmp_path):
    """A joystick board: arrows move, w/a/s/d tilt; no joystick: arrows
    tilt, and no w/a/s/d hint."""
    _, view = term_view(board_sim, tmp_path)
    assert view.message.startswith("arrows move  wasd tilt  Enter place")
    _, view = term_view(board_esp32_ili9341, tmp_path / "esp")
    assert view.message.startswith("arrows tilt  Enter place")


def test_terminal_png_key_saves_the_lcd_and_says_where(tmp_path,
                                                       monkeypatch):
    """p writes screen-001.png, screen-002.png, ... of exactly the LCD's
    pixels, and the help line (redrawn though the LCD did not change)
    says where."""
    from PIL import Image
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setenv("LINES", "50")
    dev, view = term_view(board_sim, tmp_path)
    dev.run(until_ms=1500)
    view.draw()
    for n in (1, 2):
        view.out.seek(0)
        view.out.truncate()
        view._handle("p")
        view.draw()
        path = os.path.join(str(tmp_path), "screen-%03d.png" % n)
        assert "saved " + path in _plain(view.out.getvalue())
        png = Image.open(path).convert("RGB")
        assert png.size == (240, 240)
        assert png.tobytes() == device.frame_image(dev.lcd).tobytes()


def test_terminal_rewrites_only_the_rows_that_change(tmp_path, monkeypatch):
    """A cursor step redraws a few rows of the picture, not all of them
    (a whole screen a key is slow over ssh or in a tmux pane)."""
    import sim_clock
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setenv("LINES", "50")
    dev, view = term_view(board_sim, tmp_path)
    out, writes = view.out, []

    def draw():
        view.draw()
        writes.append(out.getvalue())
        out.seek(0)
        out.truncate()
    for ms in (2300, 2400, 3200):
        sim_clock.call_at(ms * 1000, draw)
    dev.run(device.Script.parse("at 1500\ntap place\nat 2500\ntap right\n"
                                "at 3300\n"))
    lines = len(view._lines)
    assert writes[0].startswith("\x1b[2J") and writes[1] == ""
    written = [k for k in range(1, lines + 1)
               if "\x1b[%d;1H" % k in writes[2]]
    assert 0 < len(written) < lines // 4, (written, lines)


# ---- terminal: the picture and its text --------------------------------------

def test_half_blocks_of_an_odd_height():
    """An odd number of rows: the last line's upper halves are the last
    pixel row."""
    rgb = bytes(range(2 * 3 * 3))           # 2 x 3, every pixel distinct
    lines = terminal.half_blocks(rgb, 2, 3)
    assert len(lines) == 2
    assert lines[1].startswith("\x1b[38;2;12;13;14m")


def test_fit_never_enlarges_the_lcd():
    """A terminal with room for more shows the LCD pixel for pixel (each
    cell two pixels, one above the other), not stretched."""
    assert terminal.fit(240, 240, 300, 200) == (240, 240)
    assert terminal.fit(320, 240, 400, 125) == (320, 240)
    assert terminal.fit(240, 240, 120, 200) == (120, 120)


def test_read_text_needs_two_characters():
    """A lone glyph-like mark (a stone, a grid crossing, a digit alone)
    is left to the picture; two characters are text."""
    rgb, w, h = render_text(["x", "", "ab", "", "7"])
    assert [(y // 8, t) for x, y, t, fg, bg in terminal.read_text(rgb, w, h)] \
        == [(2, "ab")]


def test_read_text_wants_the_blank_column_after_each_glyph():
    """Letters whose sixth column (the gap the font leaves) has ink, as
    where a grid line runs beside them, are not text."""
    rgb, w, h = render_text(["ab", "ab"])
    px = bytearray(rgb)
    for y in range(1, 7):               # a line down column 5, first row
        a = 3 * (y * w + 5)
        px[a:a + 3] = bytes((255, 255, 255))
    found = terminal.read_text(bytes(px), w, h)
    assert [(y // 8, t) for x, y, t, fg, bg in found] == [(1, "ab")]


def blank_grid(rows, cols):
    return [[["\u2580", (1, 1, 1), (2, 2, 2)] for _ in range(cols)]
            for _ in range(rows)]


def test_overlay_clears_the_text_rows_and_writes_on_the_middle_one():
    """Text at LCD row 40, drawn at sy = 1 (two LCD rows a cell row): its
    ink rows 40-46 are cell rows 20-23, cleared to the text's background;
    the characters stand on a middle row (that of LCD row 43 or 44), from
    the column where the text starts."""
    grid = blank_grid(30, 80)
    fg, bg = (255, 255, 255), (0, 0, 40)
    terminal.overlay(grid, [(30, 40, "Hello", fg, bg)], 1.0, 1.0)
    text_rows = [r for r in range(30)
                 if "".join(c[0] for c in grid[r]).strip("\u2580 ")]
    assert text_rows in ([21], [22])
    r = text_rows[0]
    assert "".join(c[0] for c in grid[r][30:35]) == "Hello"
    assert grid[r][30][1:] == [fg, bg]
    for row in range(20, 24):
        assert all(c[1:] == [fg, bg] for c in grid[row][30:60]), row
    for row in (19, 24):
        assert all(c == ["\u2580", (1, 1, 1), (2, 2, 2)] for c in grid[row])


@pytest.mark.parametrize("x, text", [(0, "Black: you"), (180, "Black: you"),
                                     (228, "#2")])
def test_overlay_keeps_all_the_text_in_a_tiny_terminal(x, text):
    """In a 24 column terminal (the LCD shrunk to a tenth) a text is
    wider than its shrunken place: all of it still shows, on the grid,
    and one at the right edge ends at the last column."""
    grid = blank_grid(12, 24)
    terminal.overlay(grid, [(x, 100, text, (9, 9, 9), (0, 0, 0))], 0.1, 0.1)
    shown = ["".join(c[0] for c in row) for row in grid]
    hit = [line for line in shown if line.strip("\u2580 ")]
    assert len(hit) == 1 and hit[0].strip("\u2580 ") == text
    if x + 6 * len(text) == 240:
        assert hit[0].endswith(text)


# ---- window --------------------------------------------------------------------

def window_of(board, tmp_path, until_ms=None):
    from host_sim import window
    dev = device.Device(board, str(tmp_path / "flash"))
    if until_ms:
        dev.run(until_ms=until_ms)
    return dev, window.WindowView(dev, scale=2, shots_dir=str(tmp_path))


def post(pg, view, kind, **kw):
    pg.event.post(pg.event.Event(kind, **kw))
    view.events()


def test_window_layout_joystick_cross_and_keys_beside_it():
    """Under the screen: the joystick as a cross (up above the press,
    down below, left and right beside it), the keys to its right; no two
    buttons overlap, all inside the window, the screen the LCD scaled."""
    from host_sim import window
    screen, rects, (ww, wh) = window.layout(board_sim.BUTTONS, 240, 240, 2)
    assert screen[2:] == (480, 480)
    sx, sy, sw, sh = screen
    cx = {n: rects[n][0] + rects[n][2] / 2 for n in rects}
    cy = {n: rects[n][1] + rects[n][3] / 2 for n in rects}
    assert cx["up"] == cx["press"] == cx["down"]
    assert cy["left"] == cy["press"] == cy["right"]
    assert cy["up"] < cy["press"] < cy["down"]
    assert cx["left"] < cx["press"] < cx["right"]
    pad_right = max(rects[n][0] + rects[n][2] for n in
                    ("up", "down", "left", "right", "press"))
    for n in ("place", "back", "menu", "extra"):
        assert rects[n][0] >= pad_right, n
    names = sorted(rects)
    for i, a in enumerate(names):
        ax, ay, aw, ah = rects[a]
        # below the screen, above the two 20 px status lines at the bottom
        assert ay >= sy + sh and ax + aw <= ww and ay + ah <= wh - 40, a
        for b in names[i + 1:]:
            bx, by, bw, bh = rects[b]
            assert (ax + aw <= bx or bx + bw <= ax or ay + ah <= by
                    or by + bh <= ay), (a, b)


def test_window_shows_a_landscape_lcd_pixel_for_pixel(tmp_path, pg):
    """The ESP32 board's 320 x 240 LCD: a 640 x 480 screen in the window,
    each LCD pixel a 2 x 2 block of its own colour (red stays red)."""
    from PIL import Image
    dev, view = window_of(board_esp32_ili9341, tmp_path, until_ms=1500)
    x, y, w, h = view.screen_rect
    assert (w, h) == (640, 480)
    view.draw()
    shown = pg.image.tostring(view.win.subsurface((x, y, w, h)), "RGB")
    im = device.frame_image(dev.lcd)
    assert im.size == (320, 240)
    assert len(im.getcolors(1 << 16)) > 2       # a picture, not a blank
    assert shown == im.resize((640, 480), Image.NEAREST).tobytes()
    _, _, ww, wh = (0, 0) + view.win.get_size()
    assert all(rx + rw <= ww and ry + rh <= wh and ry >= y + h
               for rx, ry, rw, rh in view.rects.values())
    # the keys right under the screen, as on the handheld
    assert min(ry for rx, ry, rw, rh in view.rects.values()) <= y + h + 32


def test_window_png_key_saves_the_lcd_and_says_where(tmp_path, pg):
    from PIL import Image
    dev, view = window_of(board_sim, tmp_path, until_ms=1500)
    post(pg, view, pg.KEYDOWN, key=pg.K_p)
    post(pg, view, pg.KEYUP, key=pg.K_p)
    path = os.path.join(str(tmp_path), "screen-001.png")
    assert view.message == "saved " + path
    png = Image.open(path).convert("RGB")
    assert png.tobytes() == device.frame_image(dev.lcd).tobytes()


def test_window_keys_a_board_lacks_do_nothing(tmp_path, pg):
    """On the ESP32 board (no joystick, no extra key) I/J/K/L/O/E down and
    up press nothing and raise nothing; a click beside every button
    neither."""
    dev, view = window_of(board_esp32_ili9341, tmp_path)
    for key in (pg.K_i, pg.K_j, pg.K_k, pg.K_l, pg.K_o, pg.K_e):
        post(pg, view, pg.KEYDOWN, key=key)
        assert pressed(dev) == []
        post(pg, view, pg.KEYUP, key=key)
    import sim_clock
    sim_clock.advance_us(100000)            # past any tap's release
    for _ in range(dev.TAP_SLEEPS):
        dev._slept()
    assert view.held == set() and pressed(dev) == []
    post(pg, view, pg.KEYDOWN, key=pg.K_m)
    assert pressed(dev) == ["menu"]


def test_window_only_the_left_button_clicks_and_drags(tmp_path, pg):
    """The wheel (buttons 4, 5) or a right click over a key presses
    nothing, and a right button let go does not end a left click; nor do
    they start a drag on the screen."""
    dev, view = window_of(board_sim, tmp_path)
    bx, by, bw, bh = view.rects["place"]
    on = (bx + bw // 2, by + bh // 2)
    for b in (3, 4, 5):
        post(pg, view, pg.MOUSEBUTTONDOWN, button=b, pos=on)
        assert pressed(dev) == [], b
    post(pg, view, pg.MOUSEBUTTONDOWN, button=1, pos=on)
    post(pg, view, pg.MOUSEBUTTONUP, button=3, pos=on)
    assert view.held == {"place"}
    post(pg, view, pg.MOUSEBUTTONUP, button=1, pos=on)
    assert view.held == set()
    x, y, w, h = view.screen_rect
    post(pg, view, pg.MOUSEBUTTONDOWN, button=3, pos=(x + 10, y + 10))
    post(pg, view, pg.MOUSEMOTION, pos=(x + 200, y + 10), rel=(190, 0),
         buttons=(0, 0, 1))
    assert view.hand.target == [0.0, 0.0]


def test_window_drag_starts_only_on_the_screen(tmp_path, pg):
    """A press on the window's bare background (beside the screen and the
    keys) and a move tilt nothing."""
    dev, view = window_of(board_sim, tmp_path)
    ww, wh = view.win.get_size()
    x, y, w, h = view.screen_rect
    for pos in ((x + w + 5, y + 10), (x + 10, y + h + 5), (2, 2)):
        assert view._hit(pos) is None
        post(pg, view, pg.MOUSEBUTTONDOWN, button=1, pos=pos)
        post(pg, view, pg.MOUSEMOTION, pos=(pos[0] + 80, pos[1] + 80),
             rel=(80, 80), buttons=(1, 0, 0))
        assert view.hand.target == [0.0, 0.0], pos
        post(pg, view, pg.MOUSEBUTTONUP, button=1, pos=pos)


def test_window_draws_a_held_key_pressed(tmp_path, pg):
    """A key held down is drawn in another colour until it is let go."""
    dev, view = window_of(board_sim, tmp_path)
    bx, by, bw, bh = view.rects["back"]
    spot = (bx + 3, by + bh // 2)           # keycap, not its label

    def cap():
        view.draw()
        return tuple(view.win.get_at(spot))[:3]
    up = cap()
    post(pg, view, pg.KEYDOWN, key=pg.K_BACKSPACE)
    assert cap() != up
    post(pg, view, pg.KEYUP, key=pg.K_BACKSPACE)
    import sim_clock
    sim_clock.advance_us(100000)
    for _ in range(dev.TAP_SLEEPS):
        dev._slept()
    assert cap() == up


def test_window_without_a_gyroscope(tmp_path, pg):
    """No gyroscope: arrows and a drag tilt nothing and raise nothing; the
    window draws and its keys still press."""
    dev, view = window_of(no_gyro_board(), tmp_path)
    assert view.hand is None
    x, y, w, h = view.screen_rect
    post(pg, view, pg.KEYDOWN, key=pg.K_UP)
    post(pg, view, pg.KEYUP, key=pg.K_UP)
    post(pg, view, pg.MOUSEBUTTONDOWN, button=1, pos=(x + 10, y + 10))
    post(pg, view, pg.MOUSEMOTION, pos=(x + 90, y + 10), rel=(80, 0),
         buttons=(1, 0, 0))
    post(pg, view, pg.MOUSEBUTTONUP, button=1, pos=(x + 90, y + 10))
    view.draw()
    post(pg, view, pg.KEYDOWN, key=pg.K_RETURN)
    assert pressed(dev) == ["place"]


def test_window_available_on_macos_without_display(monkeypatch):
    """macOS (and Windows) draw windows without $DISPLAY."""
    from host_sim import window
    for k in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(k, raising=False)
    real = os.uname()
    monkeypatch.setattr(os, "uname", lambda: types.SimpleNamespace(
        sysname="Darwin", release=real.release))
    assert window.display_available() is True
