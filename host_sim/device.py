"""The simulated handheld: a board's chips as host_sim models, and the
firmware's main.py running on them.

    dev = Device(board_sim, flash_dir)      # a fresh board, clock at 0
                                            # (flash_dir None: a temp dir)
    dev.run(Script.parse(text))             # main() until the script ends
    dev.lcd.pixel(x, y); dev.screenshot("s.png")

Every chip the board lists gets its model, imported by chip name from
host_sim/chips (`<chip>_model.<CHIP>Model`): `.lcd`, `.gyro` (with `.tilt`,
the motion it reads), `.radio`, `.buttons` (the pad). `press`/`release`/
`tap` work the buttons, `tilt(right_dps, forward_dps)` holds a tilt.

Scripts (headless runs, tests, bug reports) are text, one event a line;
times in milliseconds of simulated time since power-on:

    # a comment
    at 1500            # absolute time for the next events
    wait 200           # move the time on
    press place        # hold a button (names from the board's BUTTONS)
    release place
    tap place 80       # press, release 80 ms later (default 80); on the
                       # wall clock not before the firmware polled it
    tilt 40 0          # tilt: right, forward in degrees/second, held
    tilt 0 0           # ... until changed
    lean 20 0          # tilt the device TO 20 degrees right (a hand turns
                       # it there at up to 120 dps and holds it: the window's
                       # arrow keys do this); lean 0 0 levels it
    shot start.png     # PNG of the screen (relative to the shots dir)
    reset              # machine.reset(): main.py starts again; flash and chips keep state
    await to move      # until a line on the screen shows this text (at most
                       # AWAIT_MS); later lines count their time from then;
                       # the rest of the screen may still be drawing: a
                       # shot that needs it whole waits first (wait 50)
    await "#3"         # in double quotes the text may hold a # (or edge spaces)
    end                # stop here (the script's last line otherwise)

The run stops at the script's end (or `until_ms`): a ScriptDone is raised
from inside the firmware's next sleep and caught by `run`.
"""
import json
import math
import os
import random
import sys

import host_sim

host_sim.install()
import machine  # noqa: E402
import sim_clock  # noqa: E402

_RANDOM_SEED = 0x5EED
# a script's tilt rates (dps) and leans (degrees): 50 times the gyros' full
# scale, room enough to test their saturation
_SCRIPT_TILT_MAX = 100000
FIRMWARE_DIRS = tuple(os.path.normcase(p) for p in host_sim.FIRMWARE_PATH)


class ScriptDone(BaseException):
    """The script is over: unwinds main() from inside a sleep (a
    BaseException, so firmware catching Exception does not swallow it)."""


class ScriptError(ValueError):
    pass


class Event(tuple):
    """(t_ms, kind, args...), and `where` it was written: "file:line: " for a
    parsed line, "" for an event made in code."""

    def __new__(cls, items, where=""):
        ev = tuple.__new__(cls, items)
        ev.where = where
        return ev


def _timed(script):
    """A Script's events, each with its time as a message names it: "at 700
    ms" (since power-on) before any await, "700 ms after the await on line
    5" after one, whose times count from the moment its text appeared."""
    out = [(ev, "at %d ms" % ev[0]) for ev in script.events]
    since = None
    for aw, evs, _ in script.parts:
        out.append((aw, _since(aw[0], since)))
        since = aw
        out += [(ev, _since(ev[0], since)) for ev in evs]
    return out


def _since(t, aw):
    if aw is None:
        return "at %d ms" % t
    line = getattr(aw, "where", "").rstrip(": ").rpartition(":")[2]
    return "%d ms after the await%s" % (t, " on line " + line if line else "")


class Script:
    """Parsed events: [(t_ms, kind, args...)] in time order. A script with
    `await` lines runs in parts: `parts` holds, for each await, the
    (t_ms, "await", text) event, timed in the part before it, and the
    events and end of the part after it, timed from the moment the text
    appeared."""

    KINDS = {"press": 1, "release": 1, "tap": (1, 2), "tilt": 2, "lean": 2,
             "shot": 1, "reset": 0, "end": 0}
    AWAIT_MS = 60000        # an await not met by then fails the run

    def __init__(self, events=(), end_ms=0, parts=()):
        self.events = sorted(events, key=lambda e: e[0])
        self._end = end_ms
        self.parts = list(parts)        # [(await event, events, end_ms)]

    @classmethod
    def parse(cls, text, name="<script>"):
        t = 0
        before = 0                      # the parts above the one being read
        events = []                     # the part being read
        first = None                    # the events before any await
        parts = []                      # [await event, its part's events, end]
        for n, line in enumerate(text.splitlines(), 1):
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            kind, args = words[0].lower(), words[1:]
            where = "%s:%d: " % (name, n)
            try:
                if kind == "await":
                    ev = Event((t, "await", _await_text(line)), where)
                    if first is None:
                        first = events
                    else:
                        parts[-1][1:] = [events, t]
                    parts.append([ev, [], 0])
                    before += t
                    t = 0
                    events = []
                    continue
                if kind in ("at", "wait"):
                    if len(args) != 1:
                        raise ValueError("needs one number (ms)")
                    v = _ms(args[0], kind)
                    if v < 0:
                        raise ValueError("negative time")
                    if kind == "at" and parts:
                        raise ValueError("at after an await: times there count "
                                         "from the await; use wait")
                    if kind == "at" and v < t:
                        raise ValueError("at %d: the lines above already reach "
                                         "%d ms (a script runs top to bottom)"
                                         % (v, t))
                    t = v if kind == "at" else t + v
                    if before + t > host_sim.DAY_MS:
                        raise ValueError("%s %d: the script would run past a "
                                         "day of device time (%d ms), its "
                                         "parts added up" % (kind, v, host_sim.DAY_MS))
                    continue
                want = cls.KINDS.get(kind)
                if want is None:
                    raise ValueError("unknown event %r (have at, wait, await, %s)"
                                     % (kind, ", ".join(sorted(cls.KINDS))))
                lo, hi = want if isinstance(want, tuple) else (want, want)
                if not lo <= len(args) <= hi:
                    raise ValueError("%s takes %s argument(s)" % (
                        kind, lo if lo == hi else "%d or %d" % (lo, hi)))
                if kind in ("tilt", "lean"):
                    try:
                        args = [float(a) for a in args]
                    except ValueError:
                        raise ValueError("%s wants numbers (right, forward), "
                                         "not %s" % (kind, " ".join(words[1:])))
                    if not all(math.isfinite(a) for a in args):
                        # inf/nan would reach the gyro model as a NaN
                        # rate, failing inside the firmware's read
                        raise ValueError("%s wants finite numbers, not %s"
                                         % (kind, " ".join(words[1:])))
                    if not all(abs(a) <= _SCRIPT_TILT_MAX for a in args):
                        # 1e306 overflows the gyro model's mdps the same way
                        raise ValueError("%s wants numbers within +-%d, "
                                         "not %s" % (kind, _SCRIPT_TILT_MAX,
                                                     " ".join(words[1:])))
                elif kind == "shot" and not args[0].lower().endswith(".png"):
                    raise ValueError("shot %s: a .png file" % args[0])
                elif kind == "tap" and len(args) == 2:
                    args = [args[0], _ms(args[1], "tap's hold")]
                    if args[1] < 1:
                        raise ValueError("tap: hold %d ms, at least 1 ms"
                                         % args[1])
            except ValueError as e:
                raise ScriptError(where + str(e))
            events.append(Event((t, kind) + tuple(args), where))
        if first is None:
            return cls(events, t)       # a closing `wait` runs that much longer
        parts[-1][1:] = [events, t]
        return cls(first, 0, [(ev, sorted(evs, key=lambda e: e[0]), end)
                              for ev, evs, end in parts])

    @classmethod
    def load(cls, path):
        with open(path, encoding="utf-8") as f:
            try:
                text = f.read()
            except UnicodeDecodeError as e:
                raise ScriptError("%s: not UTF-8 text (byte %d)" % (path, e.start)) from None
        return cls.parse(text, path)

    def end_ms(self):
        """When the run ends (ms since power-on); None with awaits, where
        it is known only once the last one is met."""
        if self.parts:
            return None
        return _end(self.events, self._end)

    def all_events(self):
        return self.events + [e for ev, evs, _ in self.parts for e in [ev] + evs]



def _ms(word, what):
    """A script's time in whole ms; ValueError naming what it is for."""
    try:
        if "_" in word:
            raise ValueError    # int() takes 1_000; a script means digits
        return int(word)
    except ValueError:
        raise ValueError("%s: %r is not a whole number of ms" % (what, word)) \
            from None


def _await_text(line):
    """The text of an `await` line: the rest of the line up to a comment,
    or in double quotes (which may hold a #)."""
    rest = line.split(None, 1)[1] if len(line.split(None, 1)) > 1 else ""
    if rest.startswith('"'):
        want, quote, after = rest[1:].partition('"')
        if not quote:
            raise ValueError("await: the text's closing \" is missing")
        if after.split("#", 1)[0].strip():
            raise ValueError("await: only a comment may follow the quoted text")
    else:
        want = rest.split("#", 1)[0].strip()
    if not want:
        raise ValueError("await needs the text to wait for")
    return want


def _end(events, end):
    return max(end, events[-1][0] if events else 0)


def _wall_clock():
    return bool(getattr(sim_clock, "_real", False))


def _chip_model(chip):
    mod = __import__(chip + "_model")
    return getattr(mod, chip.upper() + "Model")


class Device:
    def __init__(self, board_module, flash_dir=None, medium=None, gyro=True,
                 radio=True, lcd=True, irq_wire=True):
        machine.forget_all()
        sim_clock.reset()
        # MicroPython seeds `random` at boot (the match's session ids mix
        # it in): here from a constant, so a run on the virtual clock
        # repeats exactly
        random.seed(_RANDOM_SEED)
        self.board = board_module
        self._own_flash = None
        if flash_dir is None:       # never the caller's cwd: a fresh flash,
            import tempfile         # removed with the Device
            self._own_flash = tempfile.TemporaryDirectory(prefix="gomoku-flash-")
            flash_dir = self._own_flash.name
        self.flash_dir = flash_dir
        self.shots_dir = None
        self.shots = []
        self.resets = 0
        self._done = False
        self._runs_ended = 0        # an await's watch lasts one run
        self._trace_file = None
        self._hand = None
        self.sleeps = 0             # the firmware's sleep_ms/sleep calls
        self._down_at = {}          # button -> (us, sleeps) when pressed
        self._letting_go = {}       # button -> (due_us, sleeps) to release
        self._taps = []             # (button, hold_ms) typed, in order
        self._gap = (0, 0)          # (us, sleeps) before the next tap
        self._taps_up_us = 0        # virtual clock: when the last tap lets go
        self.lcd = self._attach_lcd() if lcd else None
        self.gyro = None
        self.tilt_source = None
        cfg = getattr(board_module, "GYRO", None)
        if cfg:
            import tilt_model
            self.tilt_source = tilt_model.TiltModel(cfg.get("axes", (0, 1)),
                                                    cfg.get("signs", (1, 1)))
            if gyro:
                # "part": which of the driver's parts the board carries
                # (e.g. the MPU-6500 on a GY-521), where the model has a choice
                kw = {"part": cfg["part"]} if "part" in cfg else {}
                self.gyro = _chip_model(cfg["chip"])(self.tilt_source, **kw)
                machine.attach_i2c(cfg["i2c"], cfg["addr"], self.gyro,
                                   cfg["chip"])
        self.radio = None
        cfg = getattr(board_module, "RADIO", None)
        if cfg and radio:
            if hasattr(medium, "install_hook"):
                medium.install_hook()   # the clock was just reset
            if medium is None:
                from host_sim import radio_medium
                medium = radio_medium.Medium()
            self.medium = medium
            # irq_wire False: the radio's IRQ output goes nowhere, the
            # board's irq pin (if any) reads its pull-up
            irq = cfg.get("irq") if irq_wire else None
            self.radio = _chip_model(cfg["chip"])(cfg.get("ce"), irq,
                                                  medium=medium)
            machine.attach_spi(cfg["spi"], cfg["cs"], self.radio, cfg["chip"])
        import button_model
        self.buttons = button_model.ButtonPad(getattr(board_module, "BUTTONS",
                                                      {}))

    def _attach_lcd(self):
        cfg = self.board.LCD
        rot = cfg.get("rotation", 0)
        w, h = cfg["width"], cfg["height"]
        if rot in (90, 270):
            w, h = h, w         # the glass in its native orientation
        # the glass is mounted as the board's rotation turns the picture:
        # pixel(x, y) is what the player sees
        model = _chip_model(cfg["chip"])(cfg["dc"], cfg.get("rst"),
                                         cfg.get("bl"), w, h,
                                         cfg.get("x_offset", 0),
                                         cfg.get("y_offset", 0), rot)
        machine.attach_spi(cfg["spi"], cfg["cs"], model, cfg["chip"],
                           dc=cfg["dc"])
        return model

    # ---- the player's hands ------------------------------------------------
    # On the wall clock (window, terminal, --realtime) the host can fall
    # behind: a tap released after a fixed time may come and go between two
    # of the firmware's polls, as if never pressed. There a key is held
    # until it has been down hold_ms AND the firmware has slept (so polled
    # its buttons) TAP_SLEEPS times since it went down. Taps are played one
    # after another, as typed: a terminal that reads two keys at once (the
    # host was busy) must not press them together, or the firmware sees
    # them in its own button order.
    TAP_SLEEPS = 3
    _TAP_GAP_MS = 40        # between two taps typed quickly
    # an await met while a scripted tap is still down: what follows starts
    # this long after it lets go, so that a tap of the same button right
    # after the await is a press of its own (debounce and poll: 40 ms)
    AWAIT_SETTLE_MS = 100

    def press(self, name):
        self.buttons.press(name)
        self._down_at[name] = (sim_clock.now_us(), self.sleeps)

    def release(self, name):
        self._down_at.pop(name, None)
        self._letting_go.pop(name, None)
        self.buttons.release(name)

    def let_go(self, name, hold_ms=80):
        """Release once the press has surely been seen (see TAP_SLEEPS):
        a front end's key-up or mouse-up."""
        t0, s0 = self._down_at.get(name, (sim_clock.now_us(), self.sleeps))
        self._letting_go[name] = (t0 + hold_ms * 1000, s0 + self.TAP_SLEEPS)
        self._let_go_due()

    def tap(self, name, hold_ms=80):
        """Press now, release hold_ms later; on the wall clock not before
        the firmware has polled it, and not before the taps typed earlier
        have been released and their release polled (a key pressed again
        before the firmware saw it up would be one long press)."""
        if not _wall_clock():
            self.buttons.tap(name, hold_ms)
            self._taps_up_us = max(self._taps_up_us,
                                   sim_clock.now_us() + hold_ms * 1000)
            return
        self._taps.append((name, hold_ms))
        self._let_go_due()

    def _slept(self):
        """The firmware slept: it has had a chance to poll its buttons."""
        self.sleeps += 1
        if self._letting_go or self._taps:
            self._let_go_due()

    def _let_go_due(self):
        now = sim_clock.now_us()
        for name, (due, sleeps) in list(self._letting_go.items()):
            if now >= due and self.sleeps >= sleeps:
                self.release(name)
                self._gap = (now + self._TAP_GAP_MS * 1000,
                             self.sleeps + self.TAP_SLEEPS)
        if (self._taps and not self._letting_go and now >= self._gap[0]
                and self.sleeps >= self._gap[1]):
            name, hold_ms = self._taps.pop(0)
            self.press(name)
            self._letting_go[name] = (now + hold_ms * 1000,
                                      self.sleeps + self.TAP_SLEEPS)

    def hand(self):
        """The Hand that tilts this device to target angles (front ends)."""
        if self._hand is None:
            self._hand = Hand(self)
        return self._hand

    def tilt(self, x_dps, y_dps):
        """Hold a tilt: x to the right, y forward (degrees per second)."""
        if self.tilt_source is None:
            raise ValueError("this board has no gyroscope")
        self.tilt_source.set_tilt(x_dps, y_dps)

    # ---- the screen ------------------------------------------------------------
    def frame_rgb(self):
        """The screen as the player sees it: RGB888 bytes, row by row."""
        return frame_rgb(self.lcd)

    def screenshot(self, path):
        frame_image(self.lcd).save(path)
        self.shots.append(path)
        return path

    # ---- bus trace ---------------------------------------------------------------
    def trace_to(self, path):
        """Every SPI/I2C transaction as a JSON line (None stops)."""
        if self._trace_file is not None:
            self._trace_file.close()
            self._trace_file = None
            machine.set_trace(None)
        if path is None:
            return
        f = open(path, "w")
        self._trace_file = f

        def rec(d):
            f.write(json.dumps(d, separators=(",", ":")) + "\n")
        machine.set_trace(rec)

    def close(self):
        self.trace_to(None)

    # ---- running the firmware ------------------------------------------------------
    def _do(self, ev):
        kind = ev[1]
        if kind == "press":
            self.press(ev[2])
        elif kind == "release":
            self.release(ev[2])
        elif kind == "tap":
            self.tap(*ev[2:])
        elif kind == "tilt":
            self.tilt(ev[2], ev[3])
        elif kind == "lean":
            self.hand().hold(ev[2], ev[3])
        elif kind == "shot":
            path = ev[2]
            if self.shots_dir:
                path = os.path.join(self.shots_dir, path)
            self.screenshot(path)
        elif kind == "reset":
            machine.reset()
        elif kind == "end":
            self._done = True

    def schedule(self, script):
        """Put a Script's events on the simulated clock (a part after an
        await goes on once its text has appeared)."""
        if isinstance(script, str):
            script = Script.parse(script)
        for ev, when in _timed(script):
            where = getattr(ev, "where", "")
            if ev[1] in ("press", "release", "tap") \
                    and ev[2] not in self.buttons.pins:
                raise ScriptError("%s%s: no button named %r (have %s)" % (
                    where, when, ev[2], ", ".join(sorted(self.buttons.pins))))
            if ev[1] in ("tilt", "lean") and self.tilt_source is None:
                raise ScriptError("%s%s: %s, but this board has no "
                                  "gyroscope" % (where, when, ev[1]))
            if ev[1] == "await" and self.lcd is None:
                raise ScriptError("%sawait %s, but this device has no screen"
                                  % (where, ev[2]))
        self._schedule_part(script, -1, 0)
        return script

    def _schedule_part(self, script, k, t0_us):
        """Part k + 1 of the script (0: the events before any await) from
        t0_us on; then the watch for the next await, or the end."""
        events = script.events if k < 0 else script.parts[k][1]
        for ev in events:
            self._call_at(t0_us + ev[0] * 1000, self._event(ev))
        if k + 1 < len(script.parts):
            ev = script.parts[k + 1][0]
            self._watch(script, k + 1, t0_us + ev[0] * 1000)
        elif k >= 0:
            self._call_at(t0_us + _end(events, script.parts[k][2]) * 1000,
                          self.stop)

    def _call_at(self, due_us, fn):
        """sim_clock.call_at for this run only: a run stopped early leaves
        its timers on the clock, and the next run must not meet them."""
        run = self._runs_ended

        def call():
            if self._runs_ended == run:
                fn()
        sim_clock.call_at(due_us, call)

    def _watch(self, script, k, from_us):
        """From from_us, look at the screen every 50 ms (when it changed)
        for the text of part k's await; then run that part. The watch ends
        with the run."""
        ev = script.parts[k][0]
        text = ev[2]
        seen = [None, []]           # the screen's version and text, last read

        def look():
            now = sim_clock.now_us()
            if self.lcd.version != seen[0]:
                seen[0] = self.lcd.version
                seen[1] = self.screen_text()
                if any(text in line for line in seen[1]):
                    self._schedule_part(script, k, max(
                        now, self._taps_up_us + self.AWAIT_SETTLE_MS * 1000))
                    return
            if now - from_us >= script.AWAIT_MS * 1000:
                self._failed = ScriptError(
                    "%sawait %s: not on the screen after %d ms (it shows: %s)" % (
                        getattr(ev, "where", ""), text, script.AWAIT_MS,
                        " | ".join(seen[1]) or "no text"))
                self._done = True
                return
            self._call_at(now + 50000, look)
        self._call_at(from_us, look)

    def screen_text(self):
        """The lines of text on the screen, top to bottom, as the terminal
        view reads them off the pixels."""
        from host_sim.terminal import read_text
        im = frame_image(self.lcd)
        return [t[2] for t in read_text(im.tobytes(), im.width, im.height)]

    def _event(self, ev):
        def fire():
            if ev[1] == "reset":
                self._pending_reset = True
                return
            try:
                self._do(ev)
            except Exception as e:     # not the firmware's: stop the run
                err = ScriptError("%sat %d ms: %s failed: %s" % (
                    getattr(ev, "where", ""), ev[0],
                    " ".join(str(a) for a in ev[1:]), e))
                err.__cause__ = e
                self._failed = err
                self._done = True
        return fire

    def stop(self):
        """End the run at the firmware's next sleep."""
        self._done = True

    def run(self, script=None, until_ms=None, shots_dir=None, main=None):
        """Run firmware main.main() until the script ends (or until_ms,
        or stop()); a scripted `reset` restarts it. -> the end time (ms)."""
        if shots_dir is not None:
            self.shots_dir = shots_dir
        self._done = False
        self._failed = None
        self._pending_reset = False
        end = None
        if script is not None:
            script = self.schedule(script)
            end = script.end_ms()
        if until_ms is not None:
            end = until_ms if end is None else min(end, until_ms)
        if end is not None:
            self._call_at(end * 1000, self.stop)
        sys.modules["board"] = self.board
        cwd = os.getcwd()
        os.makedirs(self.flash_dir, exist_ok=True)
        os.chdir(self.flash_dir)
        import time
        saved = time.sleep_ms, time.sleep_us, time.sleep
        dev = self

        def check():
            # a reset or the end meets the firmware in its own sleep, not a
            # peer's in a timer (a simulated handheld's send cut off there
            # left its radio transmitting and its loop dead)
            if sim_clock.in_timer():
                return
            if dev._pending_reset:
                dev._pending_reset = False
                raise machine.SimReset()
            if dev._done:
                raise ScriptDone()

        def sleep_ms(ms):
            check()
            saved[0](ms)
            dev._slept()
            check()

        def sleep_us(us):
            check()
            saved[1](us)
            check()

        def sleep(s):       # MicroPython's: seconds, on the simulated clock
            check()
            sim_clock.advance_us(int(s * 1000000))
            dev._slept()
            check()
        time.sleep_ms, time.sleep_us, time.sleep = sleep_ms, sleep_us, sleep
        try:
            while True:
                try:
                    if main is not None:
                        main()
                    else:
                        _fresh_firmware().main()
                    return sim_clock.now_us() // 1000
                except ScriptDone:
                    if self._failed is not None:
                        raise self._failed
                    return sim_clock.now_us() // 1000
                except machine.SimReset:
                    self.resets += 1
                    continue
        finally:
            time.sleep_ms, time.sleep_us, time.sleep = saved
            os.chdir(cwd)
            self._runs_ended += 1

    def run_live(self, hook, script=None):
        """run() on the wall clock, hook(now_us) called at every tick: a
        front end's frame. The clock is virtual again after."""
        sim_clock.set_real(True)
        sim_clock.add_hook(hook)
        try:
            return self.run(script)
        finally:
            sim_clock.remove_hook(hook)
            sim_clock.set_real(False)


def forget_firmware():
    """Unload every firmware module (the chip models and shims stay: they
    are the hardware), as a reset does."""
    for name, mod in list(sys.modules.items()):
        f = getattr(mod, "__file__", None)
        if f and os.path.normcase(os.path.dirname(os.path.abspath(f))) \
                in FIRMWARE_DIRS and name != "board":
            del sys.modules[name]


def _fresh_firmware():
    """Import main.py as after a reset: no firmware module kept from before."""
    forget_firmware()
    import main
    return main


class Hand:
    """A player's hand holding the device at a target tilt: the front ends
    set target angles (keys, mouse drag) and the hand turns the device
    there at a human pace, so the gyroscope sees rates as when tilting a
    real handheld, and zero while it is held still."""

    MAX_DPS = 120.0
    GAIN = 8.0              # per second: how briskly the hand follows

    def __init__(self, device):
        self.device = device
        self.target = [0.0, 0.0]    # degrees: right, forward
        self.angle = [0.0, 0.0]
        self._last = sim_clock.now_us()
        self._rates = (0.0, 0.0)
        sim_clock.add_hook(self.update)

    def hold(self, right_deg, forward_deg):
        self.target[0] = float(right_deg)
        self.target[1] = float(forward_deg)

    def update(self, now_us):
        dt = (now_us - self._last) / 1e6
        if dt < 0.004:
            return
        self._last = now_us
        rates = []
        for i in (0, 1):
            err = self.target[i] - self.angle[i]
            r = max(-self.MAX_DPS, min(self.MAX_DPS, err * self.GAIN))
            if abs(err) < 0.05:
                r = 0.0
            # never overshoot within one step
            if abs(r * dt) > abs(err):
                r = err / dt
            self.angle[i] += r * dt
            rates.append(r)
        rates = tuple(rates)
        if rates != self._rates and self.device.tilt_source is not None:
            self._rates = rates
            self.device.tilt_source.set_tilt(rates[0], rates[1])


# ---- the screen as an image (CPython: Pillow does the pixel work) ----------------
_INVERT = bytes(255 - i for i in range(256))


def rgb888(v):
    """RGB565 -> (r, g, b) 8-bit, as the screenshots expand it."""
    return ((v >> 11) * 255 // 31, (v >> 5 & 0x3F) * 255 // 63,
            (v & 0x1F) * 255 // 31)


def frame_image(lcd):
    """A PIL RGB image of what the player sees on the model's glass."""
    from PIL import Image, ImageOps
    if lcd is None or not lcd.lit():
        w, h = (lcd.width, lcd.height) if lcd else (240, 240)
        return Image.new("RGB", (w, h))
    ram = bytes(lcd.ram)
    if lcd.GLASS_IPS != lcd.inverted:
        ram = ram.translate(_INVERT)
    # RGB565 big-endian -> little-endian for Pillow's "BGR;16" unpacker
    le = bytearray(len(ram))
    le[0::2] = ram[1::2]
    le[1::2] = ram[0::2]
    im = Image.frombuffer("RGB", (lcd.RAM_W, lcd.RAM_H), bytes(le), "raw",
                          "BGR;16", 0, 1)
    x0 = lcd.x_offset
    y0 = lcd.y_offset
    im = im.crop((x0, y0, x0 + lcd.glass_w, y0 + lcd.glass_h))
    if lcd.GLASS_MIRROR_X:
        im = ImageOps.mirror(im)
    if bool(lcd.madctl & 0x08) != lcd.GLASS_BGR:
        r, g, b = im.split()
        im = Image.merge("RGB", (b, g, r))
    if lcd.mount:
        # the glass turned clockwise in the case: the viewer turns it back
        im = im.rotate(lcd.mount, expand=True)
    return im


def frame_rgb(lcd):
    return frame_image(lcd).tobytes()
