"""Build the drivers `board` describes; name a chip that does not answer,
a board file the game cannot be played with, a folder in a save's way,
and a firmware file missing.

Used at boot by main.py (again for the radio when a wireless game starts,
and by main.py for a fault with no app or a file missing), then unloaded:
its code does not stay in the heap.
"""
import gc
import os
import sys
import time
import board

_ERRORS = (OSError, ValueError, TypeError, IndexError, KeyError,
           AttributeError, MemoryError, ImportError)
_KEYS = ("place", "back", "menu")   # the keys the game is played with


def _pins(cfg, names):
    return " ".join(("%s=0x%02x" if n == "addr" else "%s=%s") % (n, cfg[n])
                    for n in names if cfg.get(n) is not None)


def _missing(kind, cfg, bus, pins, err, then, what="not found"):
    if isinstance(err, KeyError):
        err = "no %r in board.py" % (err.args[0],)
    elif isinstance(err, MemoryError):
        what = "not set up"         # it may well be there: the heap was not
    elif isinstance(err, ImportError):
        what = "no driver"          # on the device: the wiring is not to blame
    return "%s %s %s (%s %s): %s. %s" % (
        kind, cfg.get("chip", "?").upper(), what, bus, _pins(cfg, pins), err,
        then)


def build_lcd():
    """-> (display, None) or (None, message)."""
    cfg = board.LCD
    try:
        import lcd_base
        return lcd_base.from_board(cfg), None
    except _ERRORS as e:
        return None, _missing("Display", cfg, "SPI%s" % cfg.get("spi"),
                              ("sck", "mosi", "miso", "cs", "dc", "rst", "bl"),
                              e,
                              "Cannot play without it")


def build_keys():
    """-> (buttons, None) or (None, message): board.BUTTONS without a key the
    game cannot be played without, or with a pin the port refuses."""
    cfg = getattr(board, "BUTTONS", None) or {}
    try:
        for name in _KEYS:
            cfg[name]
        import buttons
        return buttons.Buttons(cfg), None
    except _ERRORS as e:
        if isinstance(e, KeyError):
            e = "no %r in board.py's BUTTONS" % (e.args[0],)
        return None, "Buttons not set up (%s): %s. Cannot play without them" % (
            _pins(cfg, _KEYS), e)


def build_tilt(notes):
    cfg = getattr(board, "GYRO", None)
    if not cfg:
        return None
    try:
        from machine import I2C, Pin
        import tilt
        chip = cfg["chip"]
        cls = getattr(__import__(chip), chip.upper())
        i2c = I2C(cfg["i2c"], scl=Pin(cfg["scl"]), sda=Pin(cfg["sda"]),
                  freq=cfg.get("freq", 400000))
        gyro = cls(i2c, cfg["addr"])
        t = tilt.Tilt(gyro, cfg.get("axes", (0, 1)), cfg.get("signs", (1, 1)))
        t.calibrate()
        return t
    except _ERRORS as e:
        if "up" in (getattr(board, "BUTTONS", None) or ()):
            then = "Tilt is off: steer with the joystick"
        else:
            then = ("Tilt is off. On the board tap A to step right, B to "
                    "step down; hold A to place a stone, hold B to undo")
        notes.append(_missing("Gyro", cfg, "I2C%s" % cfg.get("i2c"),
                              ("scl", "sda", "addr"), e, then))
        return None


def key_labels():
    """How hints name the keys: board.KEY_LABELS (hint letter -> label) if
    the board has it; None (the letters A B X Y) on the Pico-LCD hat's four
    lettered keys; else each key by its name (Place, Back, Menu)."""
    lab = getattr(board, "KEY_LABELS", None)
    if lab:
        return lab
    keys = board.BUTTONS
    if "extra" in keys:
        return None
    lab = {}
    for letter, name in (("A", "place"), ("B", "back"), ("X", "menu"),
                         ("Y", "extra")):
        if name in keys:
            lab[letter] = name[0].upper() + name[1:]
    return lab


def make_radio():
    """The radio driver for board.RADIO (OSError if the chip does not answer)."""
    from machine import SPI, Pin
    cfg = board.RADIO
    chip = cfg["chip"]
    cls = getattr(__import__(chip), chip.upper())
    spi = SPI(cfg["spi"], baudrate=cfg.get("baudrate", 4000000),
              sck=Pin(cfg["sck"]), mosi=Pin(cfg["mosi"]), miso=Pin(cfg["miso"]))
    irq = cfg.get("irq")
    # CS starts high (low, it would select the chip), CE low (standby)
    return cls(spi, Pin(cfg["cs"], Pin.OUT, value=1),
               Pin(cfg["ce"], Pin.OUT, value=0),
               None if irq is None else Pin(irq, Pin.IN))


def check_radio(notes):
    """-> True if the radio answers and its CE and IRQ wires work (a
    self-test that sends one packet no one hears), else False (and a note).
    The driver is unloaded again: its code stays out of the heap until a
    wireless game."""
    cfg = getattr(board, "RADIO", None)
    if not cfg:
        return False
    what = "not found"
    try:
        r = make_radio()
        what = "miswired"
        r.check_wires()
        r.power_down()
        return True
    except _ERRORS as e:
        notes.append(_missing("Radio", cfg, "SPI%s" % cfg.get("spi"),
                              ("sck", "mosi", "miso", "cs", "ce", "irq"), e,
                              "Wireless match is off", what))
        return False
    finally:
        r = None
        sys.modules.pop(cfg.get("chip"), None)
        gc.collect()


def check_flash(notes):
    """A folder of a save file's name (gomoku.*: made by hand) fails every
    save: an empty one goes; one with files in it is named."""
    for name in os.listdir():
        if name.startswith("gomoku.") and os.stat(name)[0] & 0x4000:  # S_IFDIR
            try:
                os.rmdir(name)
            except OSError:
                notes.append("%s is a folder: nothing is saved until it is "
                             "deleted" % name)


def build_app():
    """The app with every chip that answers, or None without a display.
    Keys the game needs that the board file leaves out (or gives pins the
    port refuses) are named on the screen, which stays until a reset."""
    lcd, err = build_lcd()
    if lcd is None:
        print(err)
        return None
    notes = []
    check_flash(notes)
    import controls
    import app
    tilt = build_tilt(notes)
    has_radio = check_radio(notes)
    keys, err = build_keys()
    import lcd_base
    if keys is None:
        for note in notes:
            print(note)
        print(err)
        # on an app with no keys, as notes draws a phase's screen
        from notes import lines, wrap
        from board_view import ALERT
        a = app.App(lcd, controls.Controls(None), lcd_base.FONT_W,
                    lcd_base.FONT_H)
        lines(a, wrap(err, (lcd.width - 12) // a.fw), ALERT)
        while True:         # no retry mends a board file: shown until reset
            time.sleep_ms(1000)
    for name in keys.names:
        if keys.is_down(name):
            # Buttons takes it as it is: a press counts once it is let go
            notes.append("Key %s (pin %s) is down at power-on: stuck or "
                         "shorted? It works once let go"
                         % (name, board.BUTTONS[name]))
    gc.collect()
    c = controls.Controls(keys, tilt, key_labels())
    return app.App(lcd, c, lcd_base.FONT_W, lcd_base.FONT_H, has_radio, notes)


def fault(a, msg):
    """main.py's note of a fault (msg: "type: text") where no app shows it,
    or a firmware file is missing or broken (a copy cut short): the file
    named. With no app, or no notes to draw it with, on the display alone;
    a file missing, until a reset (no restart brings it back)."""
    lost = "named '" in msg or ".mpy" in msg
    if "named '" in msg:                # no module named 'app'
        msg = "Missing file %s.mpy" % msg.split("'")[1]
    msg = ("%s: copy the firmware to the device again" if lost
           else "Error (%s). The game restarts.") % msg
    if a is not None:
        try:
            import notes
            return notes.show(a, msg)
        except ImportError:
            pass
    print(msg)
    import lcd_base
    lcd = build_lcd()[0]
    lcd.fill(0)
    n = (lcd.width - 12) // lcd_base.FONT_W
    y = 8
    while msg:          # at spaces, as notes.wrap; in board_view.ALERT
        k = n if len(msg) <= n else msg.rfind(" ", 0, n + 1)
        if k < 1:
            k = n
        lcd.text(msg[:k], 6, y, 0xFACB, 0)
        msg = msg[k:].lstrip()
        y += 12
    while lost:
        time.sleep_ms(1000)
    time.sleep_ms(5000)
