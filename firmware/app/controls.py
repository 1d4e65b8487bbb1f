"""Buttons, joystick and tilt merged into one stream of player events.

A held joystick direction repeats; tilt steps come from `tilt.Tilt`.

Key steering: a board with neither a joystick nor a working gyroscope (the
ESP32 board with its gyro missing has only place, back and menu) steers
with its keys on the board: a tap of place steps the cursor right, a tap
of back steps it down (both wrap round at the edge); held for LONG_MS,
place puts the stone and back undoes. `wait(False)` (menus, notes) reads
the keys plainly in every case.

Hints on screen name keys by the Pico-LCD hat's letters (A place, B back,
X menu, Y extra); `keys(text)` names them as the board's `labels` say.
"""
import time
from micropython import const
from tilt import RIGHT, LEFT, UP, DOWN

PLACE = const(5)
BACK = const(6)
MENU = const(7)

_NAMES = {"place": PLACE, "press": PLACE, "back": BACK, "menu": MENU,
          "extra": BACK, "up": UP, "down": DOWN, "left": LEFT,
          "right": RIGHT}
_REPEAT_FIRST = const(400)
_REPEAT_MS = const(110)
LONG_MS = const(500)
POLL_MS = const(20)
_TILT_MISSES = const(5)     # failed gyro reads in a row: off the bus


class Controls:
    def __init__(self, buttons, tilt=None, labels=None):
        self.buttons = buttons
        self.tilt = tilt
        self.labels = labels        # {"A": "Place", ...} or None: lettered
        names = getattr(buttons, "names", ())
        self.joystick = "up" in names
        self.steer = tilt is None and not self.joystick
        self._rep_ev = 0            # the direction held, and its key's name
        self._rep_name = None
        self._rep_due = 0
        self._held = None           # key steering: the key held, and since
        self._held_at = 0
        self._polled = 0            # ticks_ms of the last poll
        self._misses = 0            # failed tilt reads since the last good one

    def keys(self, text):
        """text with its key letters (A:, B:, X:, Y:) named for this board."""
        lab = self.labels
        if not lab or not text:
            return text
        words = text.split(" ")
        for k in range(len(words)):
            w = words[k]
            if w and w[0] in lab and (len(w) == 1 or w[1] == ":"):
                words[k] = lab[w[0]] + w[1:]
        return " ".join(words)

    def poll(self, now=None, steer=True):
        """One event or 0; call every POLL_MS."""
        if now is None:
            now = time.ticks_ms()
        last = self._polled
        self._polled = now
        if time.ticks_diff(now, last) > _REPEAT_MS:
            # busy since the last poll (a slow redraw): a key held through
            # that spell was not seen held, so the spell counts neither
            # towards a repeat nor towards a long press
            d = time.ticks_diff
            self._rep_due = time.ticks_add(now, d(self._rep_due, last))
            self._held_at = time.ticks_add(now, d(self._held_at, last))
        name = self.buttons.poll(now)
        if steer and self.steer:
            return self._steer(name, now)
        if name is not None:
            ev = _NAMES.get(name, 0)
            if 0 < ev <= DOWN:     # RIGHT, LEFT, UP, DOWN are 1..4
                self._rep_ev = ev
                self._rep_name = name
                self._rep_due = time.ticks_add(now, _REPEAT_FIRST)
            if ev:
                return ev
        if self._rep_ev:
            ev = self._rep_ev
            if not self.buttons.is_held(self._rep_name):
                self._rep_ev = 0
            elif time.ticks_diff(now, self._rep_due) >= 0:
                self._rep_due = time.ticks_add(now, _REPEAT_MS)
                return ev
        if self.tilt is not None:
            try:
                ev = self.tilt.poll(now)
            except OSError:
                self._misses += 1
                if self._misses < _TILT_MISSES:
                    return 0        # a glitch on the bus: read again next poll
                self.tilt = None    # off the bus: main.py restarts, and
                raise               # the boot names it, with its pins
            self._misses = 0
            return ev
        return 0

    def _steer(self, name, now):
        if name is not None:
            ev = _NAMES.get(name, 0)
            if ev in (PLACE, BACK):
                self._held = name
                self._held_at = now
                return 0
            return ev
        held = self._held
        if held is None:
            return 0
        ev = _NAMES[held]
        if not self.buttons.is_held(held):
            self._held = None
            return RIGHT if ev == PLACE else DOWN
        if time.ticks_diff(now, self._held_at) >= LONG_MS:
            self._held = None       # its release is not a tap
            return ev
        return 0

    def wait(self, steer=True):
        """Sleep one poll period, then poll (steer=False: keys plainly)."""
        time.sleep_ms(POLL_MS)
        return self.poll(None, steer)

    def settle(self, menu=False):
        """Forget tilt and repeats (after a long computation or a screen);
        menu: a tilt carried in steps nothing until the device is level."""
        self._rep_ev = 0
        self._held = None
        self.buttons.clear()        # no presses queued while busy
        if self.tilt is not None:
            self.tilt.reset(menu)
