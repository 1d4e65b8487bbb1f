"""Scripted handheld for the app tests, on CPython and on the unix port.

A script is data: a list of (t_ms, action, *args) built by `Script` (on
CPython, where the tests plan games with the engine), run by `Rig` on either
runtime. The rig wires host_sim's chip models to the board's pins, as the
simulator does, runs firmware main.main() on the virtual clock, performs the
actions when the clock reaches them (button taps, tilts, pixel snapshots, a
power cut) and stops at the script's end from inside a sleep.

Actions: ("tap", name, hold_ms), ("press", name), ("release", name),
("tilt", right_dps, forward_dps), ("snap", label, [x0, y0, x1, y1, ...]),
("reset",) (machine.reset(): a power cut), ("heapmap", label) (on the unix
port: the modules loaded and micropython.mem_info(1)'s map of the heap,
printed between "HEAPMAP label" and "HEAPMAP END"), ("end",). A snap's
points are one flat list: on the unix port a list of [x, y] pairs took
three times the heap.
"""
import sys
import time     # on the unix port host_sim's shim: loaded before any heap base

import machine
import sim_clock

STEP_DPS = 60       # a tilt gesture: this rate for STEP_MS, then back
STEP_MS = 200


class Stop(BaseException):
    """The script ended: unwinds main() from inside a sleep (a BaseException,
    as a reset is: main.py's fault handler catches Exception)."""


class RigFault(BaseException):
    """The rig itself failed inside a firmware sleep (a snapshot out of
    memory, say): a BaseException, so main.py's fault handler cannot take it
    for the firmware's own error and restart the game."""


def fresh_names_pool(size=8192):
    """Intern throwaway names until MicroPython allocates a new pool for
    names (qstrs) of at least `size` bytes: the heap grows by that much at
    one name, where a name's text alone takes a few bytes. -> names interned."""
    import gc
    k = 0
    while 1:
        a = gc.mem_alloc()
        getattr(Stop, "_pool%d" % k, None)
        k += 1
        if gc.mem_alloc() - a >= size:
            return k


def pixels(lcd, flat):
    """The LCD model's pixels at a snap's flat [x0, y0, x1, y1, ...]."""
    return [lcd.pixel(flat[k], flat[k + 1]) for k in range(0, len(flat), 2)]


class Script:
    """Builds the event list; `t` is the time of the next event (ms)."""

    def __init__(self, start_ms=600):
        self.t = start_ms
        self.events = []
        self.cursor = 7 * 15 + 7

    def at(self, *ev):
        self.events.append((self.t,) + ev)

    def wait(self, ms):
        self.t += ms

    def choose_level(self, steps):
        """From Start on the menu (vs AI): the Level line stepped `steps`
        times on from level 1 (ai.LEVELS' index), then back on Start."""
        self.tap("menu")        # Mode
        self.tap("menu")        # Level
        for _ in range(steps):
            self.tap("place")
        for _ in range(3):      # Rule, Black, Start
            self.tap("menu")

    def start_two_players(self):
        """From the start menu: 2 players, freestyle, Start; then settle."""
        self.tap("menu")        # Mode
        self.tap("place")       # 2 players
        self.tap("menu")        # Rule
        self.tap("menu")        # Start
        self.tap("place")
        self.wait(300)

    def black_wins_two_players(self):
        """From the start menu: 2 players; black's five on row 7 (white
        plays row 9), and the end screen shows."""
        self.start_two_players()
        for k in range(5):
            self.place(7 * 15 + 3 + k)
            if k < 4:
                self.place(9 * 15 + 3 + k)
        self.wait(300)

    def new_game_from_pause(self, settle=300):
        """In a game: the pause menu's New game; then settle."""
        self.tap("menu")        # Paused: < Resume >
        self.tap("menu")        # Undo
        self.tap("menu")        # New game
        self.tap("place")
        self.wait(settle)

    def start_as_white_vs_ai(self):
        """From the start menu: Black: AI, Start; the AI opens."""
        self.tap("back")        # from Start up to "Black: you"
        self.tap("place")       # Black: AI
        self.tap("menu")        # Start
        self.tap("place")
        self.wait(600)          # the AI opens

    def note_then_a_move_vs_ai(self, view):
        """A boot note on screen (snapshot "note"), dismissed; Mode steps
        from vs AI to 2 players and on, which must be vs AI again (no
        Wireless without a radio); Start; one move and the AI's reply
        (snapshot "stones")."""
        self.snap("note", [(x, y) for x in range(0, 240, 3)
                           for y in range(0, 80, 2)])
        self.tap("place")       # dismiss the note
        self.tap("menu")        # Mode
        self.tap("place")       # 2 players
        self.tap("place")       # vs AI again
        import ai
        for _ in range(4 if len(ai.LEVELS) > 1 else 3):
            self.tap("menu")    # (Level when there are levels) Rule, Black, Start
        self.tap("place")
        self.wait(300)
        self.place(7 * 15 + 8)
        self.wait(400)
        self.snap("stones", [stone_point(view, i) for i in range(225)])

    def tap(self, name, hold=80, gap=120):
        self.at("tap", name, hold)
        self.t += hold + gap

    def tilt_step(self, right, forward):
        """One cursor step: tilt past the dead zone and straight back."""
        self.at("tilt", right * STEP_DPS, forward * STEP_DPS)
        self.t += STEP_MS
        self.at("tilt", -right * STEP_DPS, -forward * STEP_DPS)
        self.t += STEP_MS
        self.at("tilt", 0, 0)
        self.t += 150

    def goto(self, i, how="joy"):
        """Move the cursor to point i by joystick taps or tilt gestures."""
        x, y = self.cursor % 15, self.cursor // 15
        tx, ty = i % 15, i // 15
        while (x, y) != (tx, ty):
            dx = (tx > x) - (tx < x)
            dy = (ty > y) - (ty < y)
            if how == "tilt":
                if dx:
                    self.tilt_step(dx, 0)
                if dy:
                    self.tilt_step(0, -dy)      # forward: cursor up
            else:
                if dx:
                    self.tap("right" if dx > 0 else "left", 60, 60)
                if dy:
                    self.tap("down" if dy > 0 else "up", 60, 60)
            x += dx
            y += dy
        self.cursor = i

    def place(self, i, how="joy", key="place"):
        self.goto(i, how)
        self.tap(key)

    def play_black_moves(self, moves):
        """From Start on the menu: start, then black's moves of a planned
        game against the AI (every other one from the first), by tilt every
        fourth and joystick otherwise, the AI answering each; settle."""
        self.tap("place")
        self.wait(300)
        for k in range(0, len(moves), 2):
            self.place(moves[k], how="tilt" if k % 8 == 0 else "joy")
            self.wait(250)
        self.wait(300)

    def snap(self, label, points):
        self.at("snap", label, [c for p in points for c in p])
        self.t += 20

    def reset(self):
        self.at("reset")
        self.t += 50

    def end(self, after=300):
        self.t += after
        self.at("end")
        return self.events


class Rig:
    """The handheld of `board` on the host_sim models, flash in the cwd."""

    def __init__(self, board, gyro=True, bias=None, radio=True, medium=None,
                 heap_every=0):
        import tilt_model
        import button_model
        machine.forget_all()
        machine.hardware(board)
        sim_clock.reset()
        self.board = board
        self.snaps = {}
        self.done = False
        lcd = board.LCD
        chip = lcd["chip"]
        mod = __import__(chip + "_model")
        cls = getattr(mod, chip.upper() + "Model")
        rot = lcd.get("rotation", 0)
        if rot in (90, 270):
            gw, gh = lcd["height"], lcd["width"]
        else:
            gw, gh = lcd["width"], lcd["height"]
        self.lcd = cls(lcd["dc"], lcd.get("rst"), lcd.get("bl"), gw, gh,
                       lcd.get("x_offset", 0), lcd.get("y_offset", 0), rot)
        machine.attach_spi(lcd["spi"], lcd["cs"], self.lcd, chip, dc=lcd["dc"])
        g = board.GYRO
        kw = {} if bias is None else {"bias_mdps": bias}
        self.tilt = tilt_model.TiltModel(g["axes"], g["signs"], **kw)
        if gyro:
            gm = __import__(g["chip"] + "_model")
            self.gyro = getattr(gm, g["chip"].upper() + "Model")(self.tilt)
            machine.attach_i2c(g["i2c"], g["addr"], self.gyro, g["chip"])
        else:
            self.gyro = None
        self.pad = button_model.ButtonPad(board.BUTTONS)
        r = getattr(board, "RADIO", None)
        self.radio = None
        if r and radio:
            import nrf24l01_model
            self.radio = nrf24l01_model.NRF24L01Model(
                r["ce"], r.get("irq"), None if medium is None else medium)
            machine.attach_spi(r["spi"], r["cs"], self.radio, r["chip"])
        self.spi_bytes = 0
        self.bytes_at = {}
        self.heap_every = heap_every    # run() watches the heap (heap_watch)
        self.heap_peak = None

    def _count(self, rec):
        if rec.get("dev") == self.board.LCD["chip"]:
            self.spi_bytes += len(rec["tx"]) // 2

    def count_spi(self):
        machine.set_trace(self._count)

    def _do(self, ev):
        kind = ev[1]
        if kind == "tap":
            self.pad.tap(ev[2], ev[3])
        elif kind == "press":
            self.pad.press(ev[2])
        elif kind == "release":
            self.pad.release(ev[2])
        elif kind == "tilt":
            self.tilt.set_tilt(ev[2], ev[3])
        elif kind == "snap":
            self.snaps[ev[2]] = pixels(self.lcd, ev[3])
            self.bytes_at[ev[2]] = self.spi_bytes
        elif kind == "heapmap":
            import gc
            import micropython
            gc.collect()
            mods = {}
            for name, m in sys.modules.items():
                mods[id(m)] = name
            print("HEAPMAP", ev[2], " ".join(sorted(mods.values())))
            micropython.mem_info(1)
            print("HEAPMAP END")
        elif kind == "reset":
            machine.reset()
        elif kind == "end":
            self.done = True

    def run(self, events):
        """Run main() until the script ends ("end") or the device resets.

        -> "end" or "reset".
        """
        # one timer walks the events: a timer each, freed as it fired, hid
        # as much of a watched heap as the script had used up
        self._events = sorted(events, key=lambda ev: ev[0])
        self._next = 0
        if self._events:
            sim_clock.call_at(self._events[0][0] * 1000, self._feed)
        if self.heap_every:
            self.heap_watch(self.heap_every)    # the schedule is not firmware
        sys.modules["board"] = self.board
        sleep = time.sleep_ms
        rig = self

        def sleep_ms(ms):
            if rig.done:
                raise Stop()
            if rig.heap_every:
                rig._sample()
            sleep(ms)
            if rig.done:
                raise Stop()
        time.sleep_ms = sleep_ms
        try:
            import main
            main.main()
        except Stop:
            return "end"
        except machine.SimReset:
            return "reset"
        finally:
            time.sleep_ms = sleep
        raise AssertionError("main() returned")

    def _guarded(self, ev):
        try:
            self._do(ev)
        except Exception as e:
            raise RigFault("script event %r: %r" % (ev[:3], e))

    def _feed(self):
        """The events due now, then a timer for the next."""
        evs = self._events
        now = sim_clock.now_us()
        while self._next < len(evs) and evs[self._next][0] * 1000 <= now:
            self._next += 1
            self._guarded(evs[self._next - 1])
        if self._next < len(evs):
            sim_clock.call_at(evs[self._next][0] * 1000, self._feed)

    def heap_watch(self, every=1):
        """Track the live heap (after a collection) at every `every`-th sleep
        of the firmware, relative to now: `heap_peak` (bytes).

        First a fresh pool for the firmware's names (qstrs): MicroPython
        allocates a pool twice the last one's size when the last is full, so
        the names the firmware interns put a whole pool into the peak (14 KB
        on this port) or nothing, by how many names the rig had interned
        before. Their entries are the caller's to count (upy.names_entries)
        from the lines micropython.qstr_info() prints: here, and after."""
        import gc
        import micropython
        fresh_names_pool()
        gc.collect()
        micropython.qstr_info()
        self.heap_base = gc.mem_alloc()
        self.heap_peak = 0
        self.heap_every = every
        self._sleeps = 0

    def _sample(self):
        import gc
        self._sleeps += 1
        if self._sleeps % self.heap_every:
            return
        gc.collect()
        used = gc.mem_alloc() - self.heap_base
        if used > self.heap_peak:
            self.heap_peak = used


# ---- planning and reading the screen (CPython side) ---------------------

class _Glass:
    def __init__(self, w, h):
        self.width = w
        self.height = h


def layout(board):
    """The firmware's own board geometry for this board's screen."""
    import board_view
    import lcd_base
    lcd = board.LCD
    return board_view.BoardView(_Glass(lcd["width"], lcd["height"]),
                                lcd_base.FONT_W, lcd_base.FONT_H)


def stone_point(view, i):
    """A pixel inside point i's stone, clear of the last-move mark."""
    x, y = view.center(i)
    return x, y + view.radius // 2 + 1


def plan_vs_ai(rule, level, human, limit=225):
    """A whole game the firmware will play: the player's moves are chosen by
    the AI too (deterministic), the firmware's AI answers. -> move list."""
    import gomoku
    import ai
    g = gomoku.Game(rule)
    moves = []
    while not g.winner and len(moves) < limit:
        lv = level if g.turn != human else 1
        m = ai.best_move(g, lv)
        g.play(m % 15, m // 15)
        moves.append(m)
    return moves, g


SCATTER = [y * 15 + x for y in range(0, 15, 2) for x in range(0, 15, 3)]


def plan_lost_game(rule, level, human, limit=160):
    """The player drops stones that never touch (no five possible), the
    firmware's AI plays to win. -> (moves, final game)."""
    import gomoku
    import ai
    g = gomoku.Game(rule)
    moves = []
    while not g.winner and len(moves) < limit:
        if g.turn == human:
            m = [p for p in SCATTER if not g.stone(p % 15, p // 15)][0]
        else:
            m = ai.best_move(g, level)
        g.play(m % 15, m // 15)
        moves.append(m)
    return moves, g


def run_device(board, events, flash_dir, dev=None, **kw):
    """Run a Script's events on host_sim.device.Device (CPython): the
    device's own events go to its script, snapshots are taken from its LCD
    model on the clock. -> the device, with `.snaps`."""
    from host_sim import device
    if dev is None:
        dev = device.Device(board, flash_dir, **kw)
    snaps = {}

    def snap(label, points):
        return lambda: snaps.__setitem__(label, pixels(dev.lcd, points))
    own = []
    for ev in events:
        if ev[1] == "snap":
            sim_clock.call_at(ev[0] * 1000, snap(ev[2], ev[3]))
        else:
            own.append(ev)
    dev.run(device.Script(own))
    dev.snaps = snaps
    return dev


def band(y, h, w=240):
    """The points of rows y .. y+h-1 across the screen: what to snap for
    screen_text."""
    return [(x, y + dy) for dy in range(h) for x in range(w)]


def screen_text(pixels, h, w=240):
    """The lines of text a snapshot of a band (w wide, h high) reads, as the
    terminal front end reads the LCD (CPython)."""
    from host_sim.device import rgb888
    from host_sim.terminal import read_text
    rgb = b"".join(bytes(rgb888(p)) for p in pixels)
    return [t[2] for t in read_text(rgb, w, h)]
