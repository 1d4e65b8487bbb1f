"""The simulated handheld in a terminal: the LCD in truecolour half-blocks
(each character cell shows two pixels, upper in the foreground colour of
'\u2580', lower in the background), scaled to fit, redrawn when it changes.

Keys: arrows tilt the device (held a moment, longer while the key repeats),
Enter/space place, Backspace back, m menu, e extra, i/j/k/l joystick
up/left/down/right, o joystick press, p saves a PNG, q quits.
"""
import os
import select
import shutil
import sys
import time

import sim_clock

_TILT_DEG = 20.0
_KEY_HOLD_S = 0.35      # a terminal sends no key-up: a tilt lasts this long
_FRAME_S = 0.08


def half_blocks(rgb, w, h):
    """Lines of ANSI truecolour text for an RGB888 image (h even or odd)."""
    lines = []
    for y in range(0, h, 2):
        parts = []
        last = None
        for x in range(w):
            a = 3 * (y * w + x)
            top = rgb[a], rgb[a + 1], rgb[a + 2]
            if y + 1 < h:
                b = a + 3 * w
                bot = rgb[b], rgb[b + 1], rgb[b + 2]
            else:
                bot = (0, 0, 0)
            if (top, bot) != last:
                parts.append("\x1b[38;2;%d;%d;%dm\x1b[48;2;%d;%d;%dm"
                             % (top + bot))
                last = (top, bot)
            parts.append("\u2580")
        parts.append("\x1b[0m")
        lines.append("".join(parts))
    return lines


def fit(w, h, cols, rows):
    """Size (pixels) to show a w x h screen in cols x rows cells."""
    s = min(cols / w, 2 * rows / h, 1.0)
    return max(1, int(w * s)), max(2, int(h * s) // 2 * 2)


class TerminalView:
    def __init__(self, device, out=None, keys=True, shots_dir="."):
        self.device = device
        self.out = out or sys.stdout
        self.keys = keys and sys.stdin.isatty()
        self.shots_dir = shots_dir
        self._version = -1
        self._last = 0.0
        self._tilt_until = 0.0
        self._shot = 0
        self._old = None
        self.hand = device.hand() if device.tilt_source is not None else None
        self.message = "arrows tilt  Enter place  Bksp back  m menu  p PNG  q quit"

    def frame_lines(self):
        from PIL import Image
        from host_sim import device as dev
        im = dev.frame_image(self.device.lcd)
        cols, rows = shutil.get_terminal_size((80, 40))
        w, h = fit(im.width, im.height, cols, rows - 2)
        im = im.resize((w, h), Image.BOX)
        return half_blocks(im.tobytes(), w, h)

    def draw(self, force=False):
        lcd = self.device.lcd
        if not force and lcd.version == self._version:
            return
        self._version = lcd.version
        lines = self.frame_lines()
        self.out.write("\x1b[H" + "\n".join(lines) + "\n\x1b[K" + self.message
                       + "\n")
        self.out.flush()

    # ---- keyboard ----------------------------------------------------------
    def _keys(self):
        if not self.keys:
            return
        while select.select([sys.stdin], [], [], 0)[0]:
            data = os.read(sys.stdin.fileno(), 64)
            if not data:
                return
            self._handle(data.decode("latin-1"))

    def _handle(self, data):
        d = self.device
        names = d.buttons.pins
        i = 0
        while i < len(data):
            ch = data[i]
            if data.startswith("\x1b[", i) and i + 2 < len(data):
                arrow = data[i + 2]
                i += 3
                tilt = {"A": (0, _TILT_DEG), "B": (0, -_TILT_DEG),
                        "C": (_TILT_DEG, 0), "D": (-_TILT_DEG, 0)}.get(arrow)
                if tilt and self.hand:
                    self.hand.hold(*tilt)
                    self._tilt_until = time.monotonic() + _KEY_HOLD_S
                continue
            i += 1
            name = {"\r": "place", "\n": "place", " ": "place",
                    "\x7f": "back", "\x08": "back", "m": "menu", "e": "extra",
                    "i": "up", "k": "down", "j": "left", "l": "right",
                    "o": "press"}.get(ch.lower() if ch.isalpha() else ch)
            if name and name in names:
                d.tap(name, 80)
            elif ch in "pP":
                self._shot += 1
                path = os.path.join(self.shots_dir, "screen-%03d.png" % self._shot)
                d.screenshot(path)
                self.message = "saved " + path
                self._version = -1
            elif ch in "qQ\x03":
                d.stop()

    def _hook(self, now_us):
        t = time.monotonic()
        if self._tilt_until and t >= self._tilt_until:
            self._tilt_until = 0.0
            self.hand.hold(0, 0)
        if t - self._last < _FRAME_S:
            return
        self._last = t
        self._keys()
        self.draw()

    def run(self, script=None):
        """Play interactively (real time) until q, or until a script ends."""
        import termios
        import tty
        fd = sys.stdin.fileno()
        if self.keys:
            self._old = termios.tcgetattr(fd)
            tty.setcbreak(fd)
        self.out.write("\x1b[2J\x1b[?25l")
        sim_clock.set_real(True)
        sim_clock.add_hook(self._hook)
        try:
            return self.device.run(script)
        finally:
            sim_clock.set_real(False)
            if self._old is not None:
                termios.tcsetattr(fd, termios.TCSADRAIN, self._old)
            self.out.write("\x1b[0m\x1b[?25h\n")
            self.out.flush()
