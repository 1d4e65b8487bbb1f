"""Buttons, joystick and tilt merged into one stream of player events.

A held joystick direction repeats; tilt steps come from `tilt.Tilt`.
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
_DIRS = (("up", UP), ("down", DOWN), ("left", LEFT), ("right", RIGHT))
_REPEAT_FIRST = const(400)
_REPEAT_MS = const(110)
POLL_MS = const(20)


class Controls:
    def __init__(self, buttons, tilt=None):
        self.buttons = buttons
        self.tilt = tilt
        self._rep_ev = 0
        self._rep_due = 0

    def poll(self, now=None):
        """One event or 0; call every POLL_MS."""
        if now is None:
            now = time.ticks_ms()
        name = self.buttons.poll(now)
        if name is not None:
            ev = _NAMES.get(name, 0)
            if 0 < ev <= DOWN:     # RIGHT, LEFT, UP, DOWN are 1..4
                self._rep_ev = ev
                self._rep_due = time.ticks_add(now, _REPEAT_FIRST)
            if ev:
                return ev
        if self._rep_ev:
            ev = self._rep_ev
            if not self._down(ev):
                self._rep_ev = 0
            elif time.ticks_diff(now, self._rep_due) >= 0:
                self._rep_due = time.ticks_add(now, _REPEAT_MS)
                return ev
        if self.tilt is not None:
            return self.tilt.poll(now)
        return 0

    def _down(self, ev):
        for name, e in _DIRS:
            if e == ev:
                try:
                    return self.buttons.is_down(name)
                except (KeyError, ValueError):
                    return False
        return False

    def wait(self):
        """Sleep one poll period, then poll."""
        time.sleep_ms(POLL_MS)
        return self.poll()

    def settle(self):
        """Forget tilt and repeats (after a long computation or a screen)."""
        self._rep_ev = 0
        if hasattr(self.buttons, "clear"):
            self.buttons.clear()    # no presses queued while busy
        if self.tilt is not None:
            self.tilt.reset()
