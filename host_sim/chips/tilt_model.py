"""The simulated handheld's motion, which the gyroscope models read.

    tilt = tilt_model.TiltModel(axes=board.GYRO["axes"],
                                signs=board.GYRO["signs"])
    tilt.set_tilt(right_dps, forward_dps)   # held until changed
    tilt.set_motion(fn)     # fn(t_ms) -> (right_dps, forward_dps): scripted
    tilt.hold_still()       # no motion: only the sensor's bias and noise
    tilt.set_rates(x, y, z) # chip-frame rates in dps, bypassing the mapping

The device frame: tilting right (right edge down) and tilting forward (far
edge down), in degrees per second. `axes`/`signs` are the board's GYRO
mapping (chip axis that turns when the device tilts right / forward, and its
sign), so the firmware's mapping of chip axes back to the device is tested.

The chip models ask `rates_mdps()` (x, y, z in millidegrees per second, chip
frame, with a fixed zero-rate bias and uniform noise, as a real MEMS gyro
reads while held still: calibration matters) and `gravity_mg()` (the
accelerometer's view: milli-g along the chip axes, from the integrated
orientation). Noise comes from a seeded generator: runs repeat exactly.

Times come from sim_clock (microseconds). Runs on CPython and on the
MicroPython unix port.
"""
import math

import sim_clock

# A plausible zero-rate level for a hand-held MEMS gyro (the L3G4200D's
# datasheet allows +-10 dps; the MPU6050's +-20 dps): small, but it drifts
# a cursor within seconds unless the firmware calibrates it away.
DEFAULT_BIAS_MDPS = (1200, -1800, 500)
DEFAULT_NOISE_MDPS = 250


class TiltModel:
    def __init__(self, axes=(1, 0), signs=(1, -1), bias_mdps=DEFAULT_BIAS_MDPS,
                 noise_mdps=DEFAULT_NOISE_MDPS, seed=12345):
        a_right, a_fwd = axes
        if a_right == a_fwd or not (0 <= a_right <= 2 and 0 <= a_fwd <= 2):
            raise ValueError("axes must be two different chip axes 0..2, got %r"
                             % (axes,))
        if signs[0] not in (1, -1) or signs[1] not in (1, -1):
            raise ValueError("signs must be 1 or -1, got %r" % (signs,))
        # chip = M . device, device axes x right, y forward, z up.
        # Tilting right turns the device about +y, forward about -x.
        m = [[0, 0, 0], [0, 0, 0], [0, 0, 0]]
        m[a_right][1] = signs[0]
        m[a_fwd][0] = -signs[1]
        a_yaw = 3 - a_right - a_fwd
        m[a_yaw][2] = 1
        if _det3(m) < 0:
            m[a_yaw][2] = -1
        self._m = m
        self.bias_mdps = tuple(bias_mdps)
        self.noise_mdps = noise_mdps
        self._seed = seed & 0x7FFFFFFF or 1
        self._dev = [0.0, 0.0, 0.0]     # device-frame rates (dps)
        self._chip = None               # chip-frame override (dps) or None
        self._motion = None
        self._roll = 0.0                # right tilt angle (degrees)
        self._pitch = 0.0               # forward tilt angle (degrees)
        self._last_us = sim_clock.now_us()

    # -- what a test, script or front end sets -------------------------
    def set_tilt(self, right_dps, forward_dps, yaw_dps=0):
        self._advance()
        self._motion = None
        self._chip = None
        self._dev = [-float(forward_dps), float(right_dps), float(yaw_dps)]

    def set_rates(self, x, y, z):
        """Chip-frame angular rates in dps (what the chip itself turns at)."""
        self._advance()
        self._motion = None
        self._chip = (float(x), float(y), float(z))

    def set_motion(self, fn):
        """fn(t_ms) -> (right_dps, forward_dps), evaluated at each read."""
        self._advance()
        self._chip = None
        self._motion = fn

    def hold_still(self):
        self.set_tilt(0, 0)

    def level(self):
        """Put the device flat again (angles zero), motion unchanged."""
        self._advance()
        self._roll = 0.0
        self._pitch = 0.0

    # -- what the chip models read ---------------------------------------
    def true_rates_dps(self, now_us=None):
        """Chip-frame rates (dps, floats) without bias and noise."""
        if now_us is None:
            now_us = sim_clock.now_us()
        if self._chip is not None:
            return self._chip
        d = self._device_rates(now_us)
        m = self._m
        return tuple(m[i][0] * d[0] + m[i][1] * d[1] + m[i][2] * d[2]
                     for i in range(3))

    def rates_mdps(self, now_us=None):
        """Chip-frame rates as the sensing element sees them: x, y, z ints
        in mdps, with the fixed bias and fresh noise."""
        self._advance(now_us)
        r = self.true_rates_dps(now_us)
        b = self.bias_mdps
        out = []
        for i in range(3):
            v = int(round(r[i] * 1000)) + b[i]
            if self.noise_mdps:
                v += self._rand(self.noise_mdps)
            out.append(v)
        return tuple(out)

    def gravity_mg(self, now_us=None):
        """What an accelerometer on the chip reads at rest: +1000 mg up."""
        self._advance(now_us)
        r = math.radians(self._roll)
        f = math.radians(self._pitch)
        dev = (-math.sin(r) * math.cos(f), -math.sin(f),
               math.cos(r) * math.cos(f))
        m = self._m
        return tuple(int(round(1000 * (m[i][0] * dev[0] + m[i][1] * dev[1]
                                       + m[i][2] * dev[2])))
                     for i in range(3))

    def angles(self):
        """(right, forward) tilt angles in degrees since level."""
        self._advance()
        return (self._roll, self._pitch)

    # -- internals -------------------------------------------------------
    def _device_rates(self, now_us):
        if self._motion is not None:
            right, fwd = self._motion(now_us // 1000)[:2]
            return (-float(fwd), float(right), 0.0)
        if self._chip is not None:
            m = self._m      # orthonormal: device = M^T . chip
            c = self._chip
            return tuple(m[0][j] * c[0] + m[1][j] * c[1] + m[2][j] * c[2]
                         for j in range(3))
        return self._dev

    def _advance(self, now_us=None):
        if now_us is None:
            now_us = sim_clock.now_us()
        dt = (now_us - self._last_us) / 1000000
        if dt <= 0:
            return
        d = self._device_rates(now_us)
        self._roll += d[1] * dt
        self._pitch -= d[0] * dt
        self._last_us = now_us

    def _rand(self, amplitude):
        # Park-Miller minimal standard generator: the same on both runtimes
        self._seed = (self._seed * 48271) % 0x7FFFFFFF
        return self._seed % (2 * amplitude + 1) - amplitude


def _det3(m):
    return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))
