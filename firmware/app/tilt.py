"""Tilting the handheld moves the cursor: gyro rates -> tilt angles -> steps.

Works with any tilt source that has `read_rates(out)` (millidegrees per
second, chip axes): the L3G4200D and the MPU6050 drivers. The board's GYRO
"axes"/"signs" say which chip axis turns when the device tilts right and
forward. The rate bias is measured at rest; rates inside a small band count
as zero so the angle does not drift while the device is still, and inside
the dead zone the angle settles back to level. Beyond the dead zone the
cursor steps once at once, then repeats after a pause, faster the longer
and the further it is tilted. A slow rate that holds steady for seconds is
bias the calibration missed (the device turned while it calibrated), not a
hand: it is taken into the bias, and the device as level.
"""
import time
from micropython import const

RIGHT = const(1)
LEFT = const(2)
UP = const(3)
DOWN = const(4)

_RATE_BAND = const(2500)     # mdps: slower than this is noise or drift
_DEAD = const(9000)          # mdeg: tilt before the first step
_RELEASE = const(6000)       # mdeg: back inside this ends the tilt
_LIMIT = const(180000)       # mdeg: integration clamp (half a turn: a
                             # lower one loses the angle past it, and the
                             # device back at level reads as tilted)
_FIRST_MS = const(450)       # pause before auto-repeat
_SLOW_MS = const(300)        # first repeat interval
_FAST_MS = const(90)         # fastest repeat interval
_FASTER_MS = const(15)       # the interval's cut for each repeat made,
_STEEPER = const(200)        # and 1 ms for each this many mdeg past _DEAD
_MAX_DT_MS = const(200)      # a longer pause between polls is not a longer tilt
_STILL_BAND = const(4 * _RATE_BAND)  # calibrated still: each rate spans less
_SETTLE_MS = const(1500)     # time constant of the return to level
_RELEVEL_MS = const(6000)    # an angle carried over a spell without
                             # polls, held still this long past the dead
                             # zone: level (a turn made unseen)
_DRIFT_MS = const(3000)      # rates slower than _DRIFT_MAX this long,
_DRIFT_MAX = const(8000)     # mdps: (a hand's tilt is faster) at a mean
                             # past _RATE_BAND: bias, not a turn
_NO_RATE = const(1 << 29)    # mdps: past any full scale, and a small int


class Tilt:
    def __init__(self, gyro, axes=(0, 1), signs=(1, 1)):
        self.gyro = gyro
        self._axes = (axes[0], axes[1])
        self._signs = (signs[0], signs[1])
        self._raw = [0, 0, 0]
        self.bias = [0, 0, 0]
        self.angle = [0, 0]         # mdeg: right, forward
        self._due = [0, 0]          # ticks_ms of the next step per axis
        self._held = [0, 0]         # steps made in the current tilt
        self._still = [0, 0]        # ms held still past the dead zone
        self._unseen = 0            # bit per axis: its angle is from before
                                    # reset() and not yet turned back inside
                                    # the dead zone
        self._guessed = 0           # bit per axis: levelled by _RELEVEL_MS
                                    # and not turned out of the dead zone since
        self._quiet = False         # reset(True): no steps while unseen
        self._last = None
        self._pending = 0
        # per axis, since its rate was last _DRIFT_MAX or more: ms, and
        # rate x ms (_drift)
        self._slow = [0] * 4

    def calibrate(self, samples=32, gap_ms=5, tries=3):
        """Average rates at rest; retries while the device is moving."""
        raw = self._raw
        for _ in range(tries):
            lo = [_NO_RATE] * 3
            hi = [-_NO_RATE] * 3
            acc = [0, 0, 0]
            for _ in range(samples):
                self.gyro.read_rates(raw)
                for i in range(3):
                    v = raw[i]
                    acc[i] += v
                    if v < lo[i]:
                        lo[i] = v
                    if v > hi[i]:
                        hi[i] = v
                time.sleep_ms(gap_ms)
            for i in range(3):
                self.bias[i] = acc[i] // samples
            if max(hi[i] - lo[i] for i in range(3)) < _STILL_BAND:
                break
        self.angle[0] = self.angle[1] = 0      # held flat: level
        self.reset()
        return self.bias

    def reset(self, quiet=False):
        """After a spell without polls (a long AI move, a screen): start the
        steps afresh. The angle stays, as the device most likely does:
        taken as level there, a device tilted through the spell read its
        return to level as a tilt the other way, for good. A turn made in
        the spell is not seen: until the angle comes back inside the dead
        zone, held still past it for _RELEVEL_MS, the device is taken as
        level. Never for a tilt the gyro saw: the player holding the
        cursor against the edge, levelling, would send it back across.
        That level is a guess (the player may still be holding the tilt):
        the axis stays unseen until a turn brings it back inside the dead
        zone, so a wrong guess is undone by the same rule.
        quiet (a menu): an axis makes no steps until it has been seen
        level, so a tilt held into the menu does not run through it.
        A pause no longer than _MAX_DT_MS between polls is no spell: the
        gyro saw every turn, and only the steps start afresh."""
        self._held[0] = self._held[1] = 0
        self._quiet = quiet
        self._pending = 0
        last = self._last
        if not quiet and last is not None and \
                time.ticks_diff(time.ticks_ms(), last) <= _MAX_DT_MS:
            return
        self._still[0] = self._still[1] = 0
        self._unseen = 3
        self._guessed = 0
        self._last = None
        w = self._slow
        w[0] = w[1] = w[2] = w[3] = 0   # _drift's times and rate sums alike

    def poll(self, now):
        """Read the gyro; -> RIGHT/LEFT/UP/DOWN for one cursor step, or 0."""
        if self._pending:
            ev = self._pending
            self._pending = 0
            return ev
        raw = self._raw
        self.gyro.read_rates(raw)
        if self._last is None:
            self._last = now
            return 0
        dt = time.ticks_diff(now, self._last)
        self._last = now
        if dt <= 0:
            return 0
        if dt > _MAX_DT_MS:
            dt = _MAX_DT_MS
        ev = 0
        for a in range(2):
            ax = self._axes[a]
            rate = (raw[ax] - self.bias[ax]) * self._signs[a]
            bit = 1 << a
            if self._drift(a, rate, dt):
                # the angle is the drift's: taken as level, a guess the
                # relevel rule below undoes if the device was tilted
                rate = ang = 0
                self._unseen |= bit
                self._guessed |= bit
            else:
                if -_RATE_BAND < rate < _RATE_BAND:
                    rate = 0
                ang = self.angle[a] + rate * dt // 1000
                if rate == 0 and -_DEAD < ang < _DEAD:
                    ang -= ang * dt // _SETTLE_MS
            if -_DEAD < ang < _DEAD:
                if not self._guessed & bit:
                    self._unseen &= ~bit
                self._still[a] = 0
            elif rate or not self._unseen & bit:
                self._guessed &= ~bit
                self._still[a] = 0
            else:
                self._still[a] += dt
                if self._still[a] >= _RELEVEL_MS:
                    ang = 0
                    self._guessed |= bit
            if ang > _LIMIT:
                ang = _LIMIT
            elif ang < -_LIMIT:
                ang = -_LIMIT
            self.angle[a] = ang
            if self._quiet and self._unseen & bit:
                continue
            step = self._step(a, ang, now)
            if step:
                if ev:
                    self._pending = step
                else:
                    ev = step
        return ev

    def _drift(self, a, rate, dt):
        """True when axis a's rate has stayed under _DRIFT_MAX for
        _DRIFT_MS at a mean past _RATE_BAND: that mean is then taken into
        the bias (a calibration made while the device turned slowly)."""
        w = self._slow
        k = a << 1
        if not -_DRIFT_MAX < rate < _DRIFT_MAX:
            w[k] = w[k + 1] = 0         # a hand turning the device
            return False
        w[k] += dt
        w[k + 1] += rate * dt
        if w[k] < _DRIFT_MS:
            return False
        mean = w[k + 1] // w[k]
        w[k] = w[k + 1] = 0
        if -_RATE_BAND < mean < _RATE_BAND:
            return False
        self.bias[self._axes[a]] += mean * self._signs[a]
        return True

    def _step(self, a, ang, now):
        mag = ang if ang >= 0 else -ang
        held = self._held[a]
        if held == 0:
            if mag < _DEAD:
                return 0
            self._due[a] = time.ticks_add(now, _FIRST_MS)
        else:
            if mag < _RELEASE:
                self._held[a] = 0
                return 0
            if time.ticks_diff(now, self._due[a]) < 0:
                return 0
            # faster with each repeat and with a steeper tilt
            gap = _SLOW_MS - _FASTER_MS * held - (mag - _DEAD) // _STEEPER
            if gap < _FAST_MS:
                gap = _FAST_MS
            self._due[a] = time.ticks_add(now, gap)
        self._held[a] = held + 1
        if a == 0:
            return RIGHT if ang > 0 else LEFT
        return UP if ang > 0 else DOWN
