"""Push buttons, active low with the pins' pull-ups, debounced by polling.

    keys = Buttons(board.BUTTONS)          # {"place": 15, "back": 17, ...}
    name = keys.poll(time.ticks_ms())      # a newly pressed button or None
    keys.is_down("place")                  # the debounced state
    keys.is_held("place")                  # and not being let go

A pin must read the same level for `debounce_ms` before its change counts;
a press is reported once, when it becomes stable. A button held at start,
or through a `clear()`, is not a press until released and pressed again.
When several buttons are pressed together, successive polls report them
one by one. Poll faster than the shortest press (every few ms to ~20 ms).
No allocation per poll.
"""
from machine import Pin
from time import ticks_diff


class Buttons:
    def __init__(self, pins, debounce_ms=20):
        if not pins:
            raise ValueError("Buttons: no buttons given")
        self.names = tuple(pins)
        self._pins = tuple(Pin(pins[n], Pin.IN, Pin.PULL_UP)
                           for n in self.names)
        self.debounce_ms = debounce_ms
        n = len(self.names)
        self._raw = bytearray(n)        # last level seen, 1 = pressed
        self._down = bytearray(n)       # debounced state
        self._fresh = bytearray(n)      # presses not yet reported
        self._since = [0] * n           # ticks_ms of the last raw change
        for i in range(n):
            self._raw[i] = self._down[i] = 1 - self._pins[i].value()

    def poll(self, now_ms):
        """Sample every pin; return one newly pressed button's name or None."""
        raw = self._raw
        down = self._down
        fresh = self._fresh
        since = self._since
        for i in range(len(raw)):
            level = 1 - self._pins[i].value()
            if level != raw[i]:
                raw[i] = level
                since[i] = now_ms
            elif level != down[i] and ticks_diff(
                    now_ms, since[i]) >= self.debounce_ms:
                down[i] = level
                if level:
                    fresh[i] = 1
        for i in range(len(fresh)):
            if fresh[i]:
                fresh[i] = 0
                return self.names[i]
        return None

    def is_down(self, name):
        """The debounced state of one button."""
        return self._down[self._index(name)] == 1

    def is_held(self, name):
        """Down, and read down by the last poll too: a button being let go
        is not held, though its release is not stable yet. What a repeat or
        a long press asks: a poll late after a release (a slow redraw)
        must not take the key for still held."""
        i = self._index(name)
        return self._down[i] == 1 and self._raw[i] == 1

    def _index(self, name):
        try:
            return self.names.index(name)
        except ValueError:
            raise ValueError("no button named %r (have %s)"
                             % (name, ", ".join(self.names)))

    def clear(self):
        """After a spell without polls (a long AI move, a slow redraw):
        forget presses not yet reported and take each button as it is now.
        One held through the spell is not a press until released and
        pressed again, as at start; one released in it unseen can be
        pressed again at once."""
        for i in range(len(self._fresh)):
            self._fresh[i] = 0
            self._raw[i] = self._down[i] = 1 - self._pins[i].value()
