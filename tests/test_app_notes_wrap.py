"""A note on every board's screen (a boot note, an error): wrapped to the
screen's width, each line inside the 6-pixel margins (the LCD leaves out
what does not fit, so a line too long loses its end without a sign), all
lines on the screen, no word lost, and a word longer than a line cut at
the line's end with no blank line after it."""
import types

import pytest

import host_sim

host_sim.install()

import board_esp32_ili9341  # noqa: E402
import board_pico_lcd13  # noqa: E402
import board_sim  # noqa: E402
from app_script import Script, run_device  # noqa: E402
from board_view import ALERT  # noqa: E402
from lcd_base import FONT_H, FONT_W  # noqa: E402
import notes  # noqa: E402
from test_app_review_hw_setup import board_like  # noqa: E402

BOARDS = [board_sim, board_pico_lcd13, board_esp32_ili9341]
MARGIN = 6              # notes.lines starts a line at x = 6: as much right


def fits(width, height, drawn):
    """Every (x, y, text) of a screen inside the margins and the screen."""
    for x, y, s in drawn:
        assert x >= MARGIN and x + len(s) * FONT_W <= width - MARGIN, \
            (width, x, s)
        assert y + FONT_H <= height, (height, y, s)


def words(s):
    return " ".join(s.split())


def record_screens(board, flash, events, **kw):
    """Boot `board` on its script; -> (lcd width, height, [screen]), a
    screen the [(x, y, text)] drawn in ALERT after a fill of the whole
    LCD (how notes.lines and hw_setup's key error start)."""
    from host_sim import device
    screens = []
    size = []

    def main():
        fw = device._fresh_firmware()
        import lcd_base
        draw, fill = lcd_base.LCD.text, lcd_base.LCD.fill

        def text(lcd, s, x, y, fg, *a, **k):
            if fg == ALERT and screens:
                screens[-1].append((x, y, s))
            return draw(lcd, s, x, y, fg, *a, **k)

        def clear(lcd, c):
            size[:] = [lcd.width, lcd.height]
            screens.append([])
            return fill(lcd, c)
        lcd_base.LCD.text = text
        lcd_base.LCD.fill = clear
        fw.main()
    dev = device.Device(board, flash, **kw)
    old = dev.run
    dev.run = lambda script: old(script, main=main)
    run_device(board, events, flash, dev=dev)
    return size[0], size[1], [s for s in screens if s]


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: b.NAME)
def test_boot_notes_fit_each_boards_screen(board, flash, capsys):
    """No gyro and no radio: two notes at boot, the gyro's the longest the
    game shows (on the ESP32 it says how to steer with three keys). Each
    line fits, and the screen reads the note the console prints."""
    s = Script(start_ms=1500)
    s.tap("place")          # the gyro's note
    s.wait(300)
    s.tap("place")          # the radio's
    width, height, screens = record_screens(board, str(flash), s.end(),
                                            gyro=False, radio=False)
    out = capsys.readouterr().out.splitlines()
    assert width == board.LCD["width"]
    assert len(screens) == 2
    for screen, chip in zip(screens, ("Gyro ", "Radio ")):
        fits(width, height, screen)
        assert screen[-2][2] == "" and screen[-1][2].endswith(": continue")
        shown = words(" ".join(t for _, _, t in screen[:-2]))
        assert shown.startswith(chip) and shown in map(words, out), shown
        assert len(screen) > 4      # wrapped: more than one line of note


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: b.NAME)
def test_the_missing_keys_error_fits_each_boards_screen(board, flash, capsys):
    """hw_setup's screen for a board file without the game's keys wraps
    the same way (it stays until a reset)."""
    keys = {k: v for k, v in board.BUTTONS.items() if k != "menu"}
    bad = board_like(board, "board_no_menu_key", BUTTONS=keys)
    s = Script(start_ms=1500)
    width, height, screens = record_screens(bad, str(flash), s.end(),
                                            gyro=False)
    out = capsys.readouterr().out.splitlines()
    assert len(screens) == 1 and len(screens[0]) > 1
    fits(width, height, screens[0])
    shown = words(" ".join(t for _, _, t in screens[0]))
    assert shown.startswith("Buttons not set up") and shown in out


class Screen:
    """An LCD of a board's size that keeps what is drawn on it."""

    def __init__(self, board):
        self.width = board.LCD["width"]
        self.height = board.LCD["height"]
        self.drawn = []

    def fill(self, c):
        self.drawn = []

    def text(self, s, x, y, fg, bg):
        self.drawn.append((x, y, s))


def shown(board, note):
    """notes.show(note) on board's screen -> [(x, y, text)] drawn."""
    lcd = Screen(board)
    app = types.SimpleNamespace(
        lcd=lcd, fw=FONT_W, fh=FONT_H,
        controls=types.SimpleNamespace(keys=lambda t: t),
        wait_key=lambda keys, ms: None)
    notes.show(app, note)
    return lcd.width, lcd.height, lcd.drawn


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: b.NAME)
def test_a_word_longer_than_a_line_is_cut_at_the_lines_end(board):
    """A path or a repr in an error can be longer than a line: it is cut
    into lines that each fit, no character lost, and a word just a line
    long that ends the note leaves no blank line before the key's."""
    cols = (board.LCD["width"] - 2 * MARGIN) // FONT_W
    long = [("%d" % n) * (n + cols) for n in range(1, 8)]
    note = "Error (OSError: %s %s) in %s" % (long[0], long[5],
                                           "/".join(long) + "x" * cols)
    word = "y" * cols
    for text in (note, "Saved game set aside: " + word,
                 "Saved game set aside:\n" + word + "\nThe game starts anew"):
        width, height, drawn = shown(board, text)
        fits(width, height, drawn)
        lines = [t for _, _, t in drawn]
        assert lines[-2:] == ["", "A: continue"]
        body = lines[:-2]
        assert "" not in body, body
        assert "".join(body).replace(" ", "") == \
            text.replace(" ", "").replace("\n", "")
        assert max(map(len, body)) == cols       # the whole width is used


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: b.NAME)
def test_words_that_just_fill_a_line_stay_on_it(board):
    """Wrapping breaks a line only where the next word would not fit: a
    note of two words filling the width exactly is one line."""
    cols = (board.LCD["width"] - 2 * MARGIN) // FONT_W
    for text in ("x" * (cols - 2) + " a", "Key A " + "b" * (cols - 6)):
        width, height, drawn = shown(board, text)
        fits(width, height, drawn)
        assert [t for _, _, t in drawn][:-2] == [text]
