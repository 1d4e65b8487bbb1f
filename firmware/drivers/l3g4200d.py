"""ST L3G4200D three-axis gyroscope on I2C (e.g. the GY-50 module, 0x69).

    gyro = L3G4200D(i2c, addr=0x69, dps=250)
    rates = [0, 0, 0]
    gyro.read_rates(rates)      # x, y, z in millidegrees per second

Powers up at 100 Hz ODR (25 Hz cut-off), all axes, block data update,
little-endian outputs, and waits (up to 50 ms) for the first sample.
read_rates() allocates nothing.
"""
import time
from errno import EIO, ENODEV, ETIMEDOUT
from micropython import const

# what the ports raise for an address no chip ACKs (esp32's ETIMEDOUT is
# its C library's 116, which its errno module gives)
_ABSENT = (ENODEV, EIO, ETIMEDOUT)

_WHO_AM_I = const(0x0F)
_CHIP_ID = const(0xD3)
_CTRL_REG1 = const(0x20)
_STATUS_REG = const(0x27)
_OUT_X_L = const(0x28)
_AUTO_INC = const(0x80)
_ZYXDA = const(0x08)
# CTRL_REG1: DR=00 (100 Hz), BW=01 (25 Hz), PD=1, Zen Yen Xen
_CTRL1_ON = const(0x1F)
_CTRL4_BDU = const(0x80)

# full scale (dps) -> (FS bits of CTRL_REG4, sensitivity in 1/100 mdps)
_SCALES = {250: (0x00, 875), 500: (0x10, 1750), 2000: (0x20, 7000)}


class L3G4200D:
    def __init__(self, i2c, addr=0x69, dps=250):
        if dps not in _SCALES:
            raise ValueError("L3G4200D full scale must be 250, 500 or 2000 dps")
        self._i2c = i2c
        self._addr = addr
        self._buf = bytearray(6)
        self._one = memoryview(self._buf)[:1]
        self._check()
        fs, self._centi = _SCALES[dps]
        self.dps = dps
        # CTRL_REG1..5 in one auto-increment write: on; HPF normal; no
        # interrupts; BDU + full scale, BLE=0; FIFO and HPF off.
        b = self._buf
        b[0] = _CTRL1_ON
        b[1] = 0
        b[2] = 0
        b[3] = _CTRL4_BDU | fs
        b[4] = 0
        i2c.writeto_mem(addr, _CTRL_REG1 | _AUTO_INC, memoryview(b)[:5])
        for _ in range(25):
            if self.data_ready():
                break
            time.sleep_ms(2)

    def _check(self):
        try:
            self._i2c.readfrom_mem_into(self._addr, _WHO_AM_I, self._one)
        except OSError as e:
            if e.args and e.args[0] in _ABSENT:
                raise OSError(
                    "L3G4200D not found at I2C address 0x%02x on %r: nothing "
                    "answered; check wiring, power and the SDO address pin"
                    % (self._addr, self._i2c))
            raise
        if self._one[0] != _CHIP_ID:
            raise OSError(
                "L3G4200D not found at I2C address 0x%02x on %r: WHO_AM_I "
                "reads 0x%02X, expected 0x%02X (another chip at this address?)"
                % (self._addr, self._i2c, self._one[0], _CHIP_ID))

    def data_ready(self):
        """True when a new x, y, z set has been sampled since the last read."""
        self._i2c.readfrom_mem_into(self._addr, _STATUS_REG, self._one)
        return bool(self._one[0] & _ZYXDA)

    def read_raw(self, out):
        """out[0..2] = the output registers, signed digits."""
        b = self._buf
        self._i2c.readfrom_mem_into(self._addr, _OUT_X_L | _AUTO_INC, b)
        for i in range(3):
            v = b[2 * i] | (b[2 * i + 1] << 8)
            if v & 0x8000:
                v -= 0x10000
            out[i] = v

    def read_rates(self, out):
        """out[0..2] = x, y, z angular rate in millidegrees per second."""
        self.read_raw(out)
        c = self._centi
        for i in range(3):
            out[i] = out[i] * c // 100
