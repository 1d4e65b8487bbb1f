"""Whole-screen text: the lines of a phase's screen, and a note the player
reads (a chip that did not answer, a save set aside, a radio that failed,
a fault).

Loaded by the phases that show them (and by main.py on a fault): a game's
heap does not hold it.
"""
from board_view import ALERT, TEXT, SCREEN
from controls import PLACE, BACK, MENU


def lines(app, texts, colour=TEXT):
    """A fresh screen of texts, one a line, the keys in them named."""
    lcd = app.lcd
    lcd.fill(SCREEN)
    lh = app.fh + 4
    y = 8
    for text in texts:
        lcd.text(app.controls.keys(text), 6, y, colour, SCREEN)
        y += lh


def show(app, note, until_key=False):
    """The note until a key, or (unless until_key: something the player lost,
    which they must not miss) time to read it: 5 s, 60 ms a character for a
    long one (a missing gyro's note, with how to steer, is 250)."""
    note = app.controls.keys(note)
    print(note)
    lines(app, wrap(note, (app.lcd.width - 12) // app.fw) + ["", "A: continue"],
          ALERT)
    app.wait_key((PLACE, BACK, MENU), 0 if until_key else max(5000, 60 * len(note)))


def wrap(text, width):
    """Split text into lines of at most width characters, at spaces."""
    out = []
    for para in text.split("\n"):
        line = ""
        for word in para.split(" "):
            while len(word) > width:
                if line:
                    out.append(line)
                    line = ""
                out.append(word[:width])
                word = word[width:]
            if not line:
                line = word
            elif len(line) + 1 + len(word) <= width:
                line += " " + word
            else:
                out.append(line)
                line = word
        out.append(line)
    return out
