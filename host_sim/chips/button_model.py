"""The handheld's push buttons: contacts to ground on pulled-up pins.

    pad = button_model.ButtonPad(board.BUTTONS)
    pad.press("place")                  # the pin reads 0 until released
    pad.release("place")
    pad.press("place", bounce_ms=2)     # contact bounce, then held
    pad.tap("place", hold_ms=80)        # press now, release later (sim time)

Drives the pins with machine.drive_pin, so the firmware reads them through
machine.Pin as on a board; timed parts use sim_clock.call_at.
Runs on CPython and the MicroPython unix port.
"""
import machine
import sim_clock

_BOUNCE_STEP_US = 300


class ButtonPad:
    def __init__(self, pins):
        self.pins = dict(pins)

    def _pin(self, name):
        try:
            return self.pins[name]
        except KeyError:
            raise ValueError("no button named %r (have %s)"
                             % (name, ", ".join(sorted(self.pins))))

    def press(self, name, bounce_ms=0):
        """Close the contact; with bounce_ms it chatters that long first."""
        pin = self._pin(name)
        machine.drive_pin(pin, 0)
        if bounce_ms:
            self._chatter(pin, 0, bounce_ms)

    def release(self, name, bounce_ms=0):
        """Open the contact: the pull-up takes the pin high again."""
        pin = self._pin(name)
        machine.drive_pin(pin, None)
        if bounce_ms:
            self._chatter(pin, None, bounce_ms)

    def tap(self, name, hold_ms=80, bounce_ms=0):
        """Press now, release hold_ms later (in simulated time)."""
        self.press(name, bounce_ms)
        sim_clock.call_at(sim_clock.now_us() + hold_ms * 1000,
                          lambda: self.release(name, bounce_ms))

    def is_pressed(self, name):
        return machine.pin_level(self._pin(name)) == 0

    def _chatter(self, pin, final, bounce_ms):
        now = sim_clock.now_us()
        end = now + bounce_ms * 1000
        t = now + _BOUNCE_STEP_US
        other = None if final == 0 else 0
        level = other
        while t < end:
            sim_clock.call_at(t, _driver(pin, level))
            level = final if level == other else other
            t += _BOUNCE_STEP_US
        sim_clock.call_at(end, _driver(pin, final))


def _driver(pin, level):
    return lambda: machine.drive_pin(pin, level)
