"""The simulated handheld in a terminal: the LCD in truecolour half-blocks
(each character cell shows two pixels, upper in the foreground colour of
'\u2580', lower in the background), scaled to fit, redrawn when it changes.

A terminal rarely has room for the LCD's 240 x 240 pixels, and its 6 x 8
pixel text shrunk to half or less cannot be read: the text on the LCD is
then read back from the pixels (the firmware's 5x7 font, font5x7.py) and
written over the picture as terminal characters, in its own colours, where
it stands on the screen. The picture stays what the LCD shows.

Keys: arrows move the cursor with the joystick (one step a press) on a
board that has one, else they tilt the device; w/a/s/d tilt it (forward,
left, back, right: held a moment, longer while the key repeats; a terminal
sends no key-up); Enter/space place, Backspace back, m menu, e extra,
i/j/k/l joystick up/left/down/right, o joystick press, p saves a PNG,
q quits.
"""
import math
import os
import select
import shutil
import sys
import time

import sim_clock
from host_sim import save_screen

_TILT_DEG = 20.0
_KEY_HOLD_S = 0.25      # a terminal sends no key-up: a tilt this long is
                        # one step (key repeats extend it: steps repeat)
_WASD = {"w": "up", "a": "left", "s": "down", "d": "right"}
_FRAME_S = 0.08
_TEXT_BELOW = 0.75      # overlay the LCD's text when shrunk below this
_HALF = "\u2580"


def cells(rgb, w, h):
    """Rows of [char, fg, bg] cells: half blocks for an RGB888 image."""
    rows = []
    for y in range(0, h, 2):
        row = []
        for x in range(w):
            a = 3 * (y * w + x)
            top = rgb[a], rgb[a + 1], rgb[a + 2]
            if y + 1 < h:
                b = a + 3 * w
                bot = rgb[b], rgb[b + 1], rgb[b + 2]
            else:
                bot = (0, 0, 0)
            row.append([_HALF, top, bot])
        rows.append(row)
    return rows


def ansi(rows):
    """Lines of ANSI truecolour text for rows of [char, fg, bg] cells."""
    lines = []
    for row in rows:
        parts = []
        last = None
        for ch, fg, bg in row:
            if (fg, bg) != last:
                parts.append("\x1b[38;2;%d;%d;%dm\x1b[48;2;%d;%d;%dm"
                             % (fg + bg))
                last = (fg, bg)
            parts.append(ch)
        parts.append("\x1b[0m")
        lines.append("".join(parts))
    return lines


def half_blocks(rgb, w, h):
    """Lines of ANSI truecolour text for an RGB888 image (h even or odd)."""
    return ansi(cells(rgb, w, h))


_FONT = None


def _font():
    """The firmware's font for reading: {5 column bytes of a glyph (bit 0
    the top row): its character}, the same bytes as little-endian numbers,
    and the fewest ink pixels two glyphs can have."""
    global _FONT
    if _FONT is None:
        import numpy as np
        import font5x7 as f
        glyphs = {}
        for c in range(f.FIRST + 1, f.LAST + 1):     # a space has no ink
            k = 5 * (c - f.FIRST)
            glyphs[bytes(f.GLYPHS[k:k + 5])] = chr(c)
        keys = np.array([int.from_bytes(k, "little") for k in glyphs],
                        np.uint64)
        ink = min(sum(bin(b).count("1") for b in k) for k in glyphs)
        _FONT = glyphs, keys, 2 * ink
    return _FONT


def read_text(rgb, w, h, fw=6, fh=8):
    """The LCD's text, read off its RGB888 pixels: [(x, y, text, fg, bg)]
    for each run of at least two characters of the firmware's font at
    scale 1 (fw x fh cells, ink in one colour on one background colour;
    spaces between words kept). Pixels that only look like a glyph
    (stones, grid) are not on a clean cell of one background, or stand
    alone, and are left to the picture."""
    import numpy as np
    glyphs, keys, fewest = _font()
    px = np.frombuffer(rgb, np.uint8, 3 * w * h).reshape(h * w, 3)
    rgb24 = (px[:, 0].astype(np.uint32) << 16 | px[:, 1].astype(np.uint32) << 8
             | px[:, 2])
    colours, first, which, count = np.unique(
        rgb24, return_index=True, return_inverse=True, return_counts=True)
    which = which.reshape(h, w)
    rows = h - fh + 1           # the rows a glyph's cell can start on
    colmask = {}                # colour -> per column: bit y set where it is
    starts = []                 # per colour: where a glyph of it can start
    for i in np.argsort(first, kind="stable"):     # first seen, row by row
        if count[i] < fewest:
            continue    # too few pixels for two glyphs' ink, or background
        ink = which == i
        c = int(colours[i]).to_bytes(3, "big")
        cols = np.packbits(ink, axis=0, bitorder="little").T.copy()
        colmask[c] = cm = [int.from_bytes(b, "little") for b in cols]
        code = np.zeros((rows, w), np.uint64)   # column x's ink from row y0
        for k in range(fh):
            code |= ink[k:rows + k].astype(np.uint64) << np.uint64(k)
        key = np.zeros((rows, w - fw + 1), np.uint64)  # fw - 1 columns' ink
        for k in range(fw - 1):
            key |= code[:, k:w - fw + 1 + k] << np.uint64(8 * k)
        ys, xs = np.nonzero((key != 0) & (code[:, fw - 1:] == 0))
        key = key[ys, xs]
        glyph = np.isin(key, keys)
        if glyph.any():
            starts.append((c, cm, zip(ys[glyph].tolist(), xs[glyph].tolist(),
                                      key[glyph].tolist())))
    found = []
    taken = [0] * w             # per column: rows already read as text
    full = (1 << fh) - 1
    for c, cm, cells in starts:
        # visited row by row, by where the ink begins: a glyph may start
        # with blank columns ("1" is 00 42 ...) and the first glyph whose
        # ink begins at a column is the one tried first
        order = []
        for y0, x, key in cells:
            blank = 0
            while not key & 0xFF:
                key >>= 8
                blank += 1
            order.append((y0, x + blank, blank, x))
        order.sort()
        end = y_end = -1
        for y0, ink_x, _, x in order:
            if y0 == y_end and ink_x < end:
                continue        # inside the run just read on this row
            if (taken[ink_x] >> y0) & full:
                continue
            run = _run(colmask, cm, glyphs, rgb, 3 * w, w, x, y0, fw, fh)
            if run is None:
                continue
            text, end, bg = run
            y_end = y0
            found.append((x, y0, text, tuple(c), tuple(bg)))
            for k in range(x, end):
                taken[k] |= full << y0
    found.sort(key=lambda t: (t[1], t[0]))
    return found


def _run(colmask, cm, glyphs, rgb, stride, w, x, y0, fw, fh):
    """Characters from (x, y0) on: (text, end x, bg) or None if fewer
    than two glyphs."""
    full = (1 << fh) - 1
    a = y0 * stride + 3 * (x + fw - 1)
    bg = rgb[a:a + 3]       # a glyph's blank column is background
    bm = colmask.get(bg)
    if bm is None or bm is cm:
        return None
    out = []
    n = 0
    spaces = 0
    while x + fw <= w:
        key = bytearray(fw - 1)
        clean = True
        for k in range(fw):
            ink = (cm[x + k] >> y0) & full
            if (bm[x + k] >> y0) & full != full ^ ink:
                clean = False
                break
            if k < fw - 1:
                key[k] = ink
            elif ink:
                clean = False
        if not clean:
            break
        ch = glyphs.get(bytes(key))
        if ch is None:
            if any(key) or spaces >= 3 or not n:
                break
            spaces += 1
            out.append(" ")
        else:
            spaces = 0
            n += 1
            out.append(ch)
        x += fw
    while out and out[-1] == " ":
        out.pop()
        x -= fw
    if n < 2:
        return None
    return "".join(out), x, bg


def fit(w, h, cols, rows):
    """Size (pixels) to show a w x h screen in cols x rows cells."""
    s = min(cols / w, 2 * rows / h, 1.0)
    return max(1, int(w * s)), max(2, int(h * s) // 2 * 2)


def overlay(grid, texts, sx, sy, fw=6, fh=8):
    """Write text read off the LCD (read_text) over the picture's cells:
    sx, sy picture pixels per LCD pixel, two picture rows per cell row.
    The rows the shrunken text covers are cleared to its background; the
    characters go on the middle one, from where the text starts."""
    if not grid:
        return
    w = len(grid[0])
    for x, y, text, fg, bg in texts:
        r0 = min(int(y * sy / 2), len(grid) - 1)
        r1 = min(int((y + fh - 2) * sy / 2), len(grid) - 1)
        mid = min(int((y + fh / 2 - 0.5) * sy / 2), len(grid) - 1)
        c0 = int(x * sx)
        n = len(text)
        c1 = min(w, max(c0 + n, math.ceil((x + fw * n) * sx)))
        c0 = max(0, min(c0, c1 - n))
        for r in range(r0, r1 + 1):
            for c in range(c0, c1):
                grid[r][c] = [" ", fg, bg]
        for k, ch in enumerate(text[:c1 - c0]):
            grid[mid][c0 + k] = [ch, fg, bg]


def escape_end(data, i):
    """Where the escape sequence at data[i] ends: after its final byte
    (0x40-0x7E, ECMA-48) for ESC [ (CSI) or ESC O (SS3, arrows in
    application mode), after the ESC for a lone one; None if data ends
    first."""
    if i + 1 == len(data):
        return None
    if data[i + 1] not in "[O":
        return i + 1
    for j in range(i + 2, len(data)):
        if "@" <= data[j] <= "~":
            return j + 1
    return None


class TerminalView:
    def __init__(self, device, out=None, keys=True, shots_dir="."):
        self.device = device
        self.out = out or sys.stdout
        self.keys = keys and sys.stdin.isatty()
        self.shots_dir = shots_dir
        self._version = -1
        self._last = 0.0
        self._tilt_until = 0         # device us: the tilt ends
        self._escape = ""           # an escape sequence a read cut
        self._old = None
        self._size = None
        self._lines = None          # what the terminal shows now
        self.hand = device.hand() if device.tilt_source is not None else None
        joy = "up" in device.buttons.pins
        hints = ["arrows move" if joy else "arrows tilt" if self.hand else ""]
        if joy and self.hand:
            hints.append("wasd tilt")
        self.message = "  ".join(k for k in hints if k) + \
            "  Enter place  Bksp back  m menu  p PNG  q quit"

    def frame_lines(self):
        from PIL import Image
        from host_sim import device as dev
        im = dev.frame_image(self.device.lcd)
        cols, rows = shutil.get_terminal_size((80, 40))
        w, h = fit(im.width, im.height, cols, rows - 2)
        grid = cells(im.resize((w, h), Image.BOX).tobytes(), w, h)
        if w < im.width * _TEXT_BELOW:
            overlay(grid, read_text(im.tobytes(), im.width, im.height),
                    w / im.width, h / im.height)
        return ansi(grid)

    def draw(self, force=False):
        lcd = self.device.lcd
        size = shutil.get_terminal_size((80, 40))
        clear = ""
        if size != self._size:          # resized: old picture off first
            self._size = size
            clear = "\x1b[2J"
            force = True
        if not force and lcd.version == self._version:
            return
        self._version = lcd.version
        # the help line cut to the width: wrapped, it would scroll the
        # picture up a row (a tmux pane of make sim-pair-tmux is narrow)
        lines = self.frame_lines() + [
            "\x1b[K" + self.message[:max(1, size.columns - 1)]]
        old = self._lines
        self._lines = lines
        if clear or old is None or len(old) != len(lines):
            self.out.write(clear + "\x1b[H" + "\n".join(lines) + "\n")
        else:               # only the rows that changed: a cursor step is
            self.out.write("".join(     # a row or two, not the screen
                "\x1b[%d;1H%s" % (k + 1, line)
                for k, line in enumerate(lines) if line != old[k]))
        self.out.flush()

    # ---- keyboard ----------------------------------------------------------
    def _keys(self):
        if not self.keys:
            return
        came = False
        while select.select([sys.stdin], [], [], 0)[0]:
            data = os.read(sys.stdin.fileno(), 64)
            if not data:
                return
            came = True
            self._handle(data.decode("latin-1"))
        if not came:
            self._keys_paused()

    def _keys_paused(self):
        """A poll found no keys: an escape sequence still unfinished was
        Esc pressed alone (no key here) or one cut short: dropped."""
        self._escape = ""

    def _handle(self, data):
        d = self.device
        names = d.buttons.pins
        data = self._escape + data
        self._escape = ""
        i = 0
        while i < len(data):
            ch = data[i]
            if ch == "\x1b":
                end = escape_end(data, i)
                if end is None:         # cut by the read: the rest comes
                    self._escape = data[i:]     # with the next one
                    return
                final = data[end - 1] if end - i > 2 else ""  # Esc alone
                arrow = {"A": "up", "B": "down", "C": "right",
                         "D": "left"}.get(final)
                if arrow in names:
                    d.tap(arrow, 80)        # the joystick: one step a press
                elif arrow:
                    self.tilt(arrow)
                i = end
                continue
            i += 1
            name = {"\r": "place", "\n": "place", " ": "place",
                    "\x7f": "back", "\x08": "back", "m": "menu", "e": "extra",
                    "i": "up", "k": "down", "j": "left", "l": "right",
                    "o": "press"}.get(ch.lower() if ch.isalpha() else ch)
            if name and name in names:
                d.tap(name, 80)
            elif ch.lower() in _WASD and ch.isalpha():
                self.tilt(_WASD[ch.lower()])
            elif ch in "pP":
                self.message = "saved " + save_screen(d, self.shots_dir)
                self._version = -1      # redraw: the message line changed
            elif ch in "qQ\x03":
                d.stop()

    def tilt(self, way):
        """Lean the device that way a moment: a terminal sends no key-up,
        so the tilt lasts _KEY_HOLD_S (longer while the key repeats)."""
        if self.hand is None:
            return
        self.hand.hold(*{"up": (0, _TILT_DEG), "down": (0, -_TILT_DEG),
                         "right": (_TILT_DEG, 0),
                         "left": (-_TILT_DEG, 0)}[way])
        self._tilt_until = sim_clock.now_us() + int(_KEY_HOLD_S * 1e6)

    def _hook(self, now_us):
        if self._tilt_until and now_us >= self._tilt_until:
            self._tilt_until = 0
            self.hand.hold(0, 0)
        t = time.monotonic()
        if t - self._last < _FRAME_S:
            return
        self.draw()
        self._keys()    # after drawing: a tap's hold starts once we are free
        self._last = time.monotonic()   # and the firmware runs a frame's
                                        # time before the next drawing

    def run(self, script=None):
        """Play interactively (real time) until q, or until a script ends."""
        import termios
        import tty
        fd = sys.stdin.fileno()
        if self.keys:
            self._old = termios.tcgetattr(fd)
            tty.setcbreak(fd)
        # the alternate screen: on quit the shell comes back as it was
        self.out.write("\x1b[?1049h\x1b[2J\x1b[?25l")
        try:
            return self.device.run_live(self._hook, script)
        finally:
            if self._old is not None:
                termios.tcsetattr(fd, termios.TCSADRAIN, self._old)
            self.out.write("\x1b[0m\x1b[?25h\x1b[?1049l")
            self.out.flush()
