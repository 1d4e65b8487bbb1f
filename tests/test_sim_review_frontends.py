"""Review of the PC front ends' keys: an escape sequence the terminal's
reads cut in two is still one key, the P key never writes over an earlier
session's screenshots, and the window's help line names the keys the
board has (host_sim/terminal.py, host_sim/window.py)."""
import io
import os
import sys
import types

import pytest

import host_sim

host_sim.install()
from host_sim import device  # noqa: E402
from host_sim import terminal  # noqa: E402
import board_sim  # noqa: E402
import board_esp32_ili9341  # noqa: E402

# arrows (CSI and application mode), Ctrl+Up, F1 (ESC O P), keypad 8 in
# application mode (ESC O x), Delete, Alt+Down (ESC ESC [ B), then m: no
# letter but the last may come out of them
KEYS = ("\x1b[D\x1bOC\x1b[1;5A\x1bOP\x1bOx\x1b[3~\x1b\x1b[B" * 2) + "m"
JOYSTICK_TAPS = [("tap", "left"), ("tap", "right"), ("tap", "up"),
                 ("tap", "down")] * 2 + [("tap", "menu")]


def no_gyro_board(buttons=board_sim.BUTTONS):
    """board_sim without its GYRO entry, with these buttons."""
    b = types.ModuleType("board_sim_no_gyro")
    b.NAME, b.LCD, b.BUTTONS = board_sim.NAME, board_sim.LCD, dict(buttons)
    return b


def recorded_view(board, tmp_path, monkeypatch):
    """A terminal view whose taps, tilts, screenshots and quit are
    recorded in its list `got` instead of done."""
    dev = device.Device(board, str(tmp_path / "flash"))
    view = terminal.TerminalView(dev, out=io.StringIO(), keys=False,
                                 shots_dir=str(tmp_path))
    view.got = got = []
    monkeypatch.setattr(dev, "tap", lambda name, ms: got.append(("tap", name)))
    monkeypatch.setattr(view, "tilt", lambda way: got.append(("tilt", way)))
    monkeypatch.setattr(dev, "screenshot",
                        lambda path: got.append(("shot",)) or path)
    monkeypatch.setattr(dev, "stop", lambda: got.append(("quit",)))
    return view


def fed(view, chunks):
    """What the view did with these reads."""
    del view.got[:]
    for chunk in chunks:
        view._handle(chunk)
    return list(view.got)


# ---- terminal: escape sequences across reads ------------------------------------

@pytest.mark.parametrize("board, want", [
    (board_sim, JOYSTICK_TAPS),
    (board_esp32_ili9341, [("tilt", "left"), ("tilt", "right"),
                           ("tilt", "up"), ("tilt", "down")] * 2
     + [("tap", "menu")])])
def test_terminal_sequence_cut_anywhere_is_still_its_key(board, want, tmp_path,
                                                         monkeypatch):
    """However the reads cut the keys (in two at every place, or a byte
    a read), each sequence is its arrow or nothing: never the letters
    in it (D tilts right, O presses the joystick, P saves a PNG)."""
    view = recorded_view(board, tmp_path, monkeypatch)
    assert fed(view, [KEYS]) == want
    for k in range(len(KEYS) + 1):
        assert fed(view, [KEYS[:k], KEYS[k:]]) == want, repr(KEYS[:k])
    assert fed(view, list(KEYS)) == want


def test_terminal_esc_alone_then_a_pause_leaves_the_next_key_alone(
        tmp_path, monkeypatch):
    """Esc pressed alone, a poll with no keys, then O: the joystick press
    (Esc means nothing here); a sequence whose rest comes with the next
    read is still one key."""
    view = recorded_view(board_sim, tmp_path, monkeypatch)
    assert fed(view, ["\x1b"]) == []
    view._keys_paused()
    assert fed(view, ["O"]) == [("tap", "press")]
    assert fed(view, ["\x1bO", "x"]) == []
    assert fed(view, ["\x1b[", "1;5", "D"]) == [("tap", "left")]


@pytest.fixture
def stdin_pipe(monkeypatch):
    """The terminal's input as a pipe: write to the returned fd."""
    r, w = os.pipe()
    keys_in = os.fdopen(r, "rb", buffering=0)
    monkeypatch.setattr(sys, "stdin", keys_in)
    yield w
    os.close(w)
    keys_in.close()


def test_terminal_reads_keys_piled_up_past_a_read(tmp_path, monkeypatch,
                                                  stdin_pipe):
    """Left held while the firmware was busy: 30 ESC [ D (90 bytes, read
    64 at a time) are 30 joystick steps left and nothing else; an Esc
    with nothing after it by the next poll is dropped, one cut in the
    pipe is joined with its rest."""
    view = recorded_view(board_sim, tmp_path, monkeypatch)
    view.keys = True
    os.write(stdin_pipe, b"\x1b[D" * 30)
    view._keys()
    assert view.got == [("tap", "left")] * 30
    del view.got[:]
    os.write(stdin_pipe, b"\x1bO")
    view._keys()
    os.write(stdin_pipe, b"C")
    view._keys()
    assert view.got == [("tap", "right")]
    os.write(stdin_pipe, b"\x1b")
    view._keys()
    view._keys()                    # a poll with no keys
    os.write(stdin_pipe, b"OD")
    view._keys()
    assert view.got == [("tap", "right"), ("tap", "press"), ("tilt", "right")]


# ---- the P key: every session's shots kept -----------------------------------------

def window_view(board, tmp_path, shots=None):
    from host_sim import window
    dev = device.Device(board, str(tmp_path / "flash"))
    return window.WindowView(dev, scale=2, shots_dir=str(shots or tmp_path))


def terminal_view(board, tmp_path, shots):
    dev = device.Device(board, str(tmp_path / "flash"))
    return terminal.TerminalView(dev, out=io.StringIO(), keys=False,
                                 shots_dir=str(shots))


def test_png_key_keeps_the_shots_of_earlier_sessions(tmp_path, pg):
    """Two terminal sessions and a window one saving into one folder
    (and a shot left there before): every shot a new file, the first
    free name, each message naming its own."""
    shots = tmp_path / "shots"
    shots.mkdir()
    (shots / "screen-002.png").write_bytes(b"an earlier shot")
    saved = []
    for _ in range(2):                      # two terminal sessions
        view = terminal_view(board_sim, tmp_path, shots)
        for _ in range(2):
            view._handle("p")
            saved.append(view.message)
    view = window_view(board_sim, tmp_path, shots)
    view.save_png()
    saved.append(view.message)
    names = [1, 3, 4, 5, 6]
    assert saved == ["saved " + os.path.join(str(shots), "screen-%03d.png" % n)
                     for n in names]
    assert (shots / "screen-002.png").read_bytes() == b"an earlier shot"
    assert sorted(os.listdir(shots)) == ["screen-%03d.png" % n
                                         for n in sorted(names + [2])]
    assert all((shots / ("screen-%03d.png" % n)).read_bytes()
               .startswith(b"\x89PNG") for n in names)


def test_save_screen_claims_its_name_before_writing(tmp_path):
    """Two simulators saving into one folder (make sim-pair) at once:
    the name is claimed (created) before the picture is written, so
    the other one's next free name is another."""
    seen = []

    class Dev:
        def screenshot(self, path):
            seen.append(sorted(os.listdir(tmp_path)))
            other = host_sim.save_screen(Quiet(), str(tmp_path))
            return path, other

    class Quiet:
        def screenshot(self, path):
            return path

    mine, other = host_sim.save_screen(Dev(), str(tmp_path))
    assert seen == [["screen-001.png"]]
    assert (os.path.basename(mine), os.path.basename(other)) == \
        ("screen-001.png", "screen-002.png")


# ---- the window's help line -----------------------------------------------------------

def window_help(board, tmp_path):
    return window_view(board, tmp_path).message.split("  ")


def test_window_help_names_the_keys_of_the_default_board(tmp_path, pg):
    """board_sim: a gyroscope, the joystick and four keys, each named
    with its key; P and Esc too."""
    assert window_help(board_sim, tmp_path) == [
        "arrows/drag: tilt", "IJKL: joystick", "O: press", "Enter: place",
        "Bksp: back", "M: menu", "E: extra", "P: PNG", "Esc: quit"]


def test_window_help_on_the_esp32_board_has_no_joystick(tmp_path, pg):
    """The ESP32 board: a gyroscope and three keys, no joystick, no
    extra key."""
    assert window_help(board_esp32_ili9341, tmp_path) == [
        "arrows/drag: tilt", "Enter: place", "Bksp: back", "M: menu",
        "P: PNG", "Esc: quit"]


@pytest.mark.parametrize("buttons", [board_sim.BUTTONS,
                                     board_esp32_ili9341.BUTTONS])
def test_window_help_without_a_gyroscope_names_no_tilt(buttons, tmp_path,
                                                       pg):
    """No gyroscope: nothing tilts, and the help says no arrows or drag."""
    hints = window_help(no_gyro_board(buttons), tmp_path)
    assert not [h for h in hints if "tilt" in h or "arrows" in h]
    assert ("IJKL: joystick" in hints) == ("up" in buttons)
    assert hints[-2:] == ["P: PNG", "Esc: quit"]


@pytest.mark.parametrize("board", [board_sim, board_esp32_ili9341])
@pytest.mark.parametrize("scale", [1, 2])
def test_window_help_fits_the_window(board, scale, tmp_path, pg):
    """At any scale the help is drawn whole in the window: in lines no
    wider than it, on the status rows under the keys."""
    from host_sim import window
    dev = device.Device(board, str(tmp_path / "flash"))
    view = window.WindowView(dev, scale=scale, shots_dir=str(tmp_path))
    lines = view.message_lines()
    assert "  ".join(lines) == view.message
    ww, wh = view.win.get_size()
    x = view.screen_rect[0]
    assert all(x + view.font.size(line)[0] <= ww - x for line in lines)
    # the three status rows under the keys: the tilt, the help in two
    assert len(lines) <= 2
    assert max(ry + rh for rx, ry, rw, rh in view.rects.values()) <= wh - 60


def test_wrap_breaks_between_hints_only():
    """Lines as long as fit, broken only at the two spaces between
    hints; a hint too long for a line stays whole on its own."""
    from host_sim import window
    assert window.wrap("aa b  cc  dddddd  e", 5, len) == \
        ["aa b", "cc", "dddddd", "e"]
    assert window.wrap("a  b  c", 7, len) == ["a  b  c"]
    assert window.wrap("saved /x/screen-001.png", 3, len) == \
        ["saved /x/screen-001.png"]
