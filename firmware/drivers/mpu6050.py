"""InvenSense MPU-6050 or MPU-6500 gyroscope + accelerometer on I2C
(GY-521: 0x68). GY-521 boards sold today often carry the MPU-6500
(WHO_AM_I 0x70) in place of the MPU-6050 (0x68): both are accepted, and
`part` says which answered ("MPU6050" or "MPU6500").

    imu = MPU6050(i2c, addr=0x68, dps=250, g=2)
    rates = [0, 0, 0]
    acc = [0, 0, 0]
    imu.read_rates(rates)       # x, y, z in millidegrees per second
    imu.read_accel(acc)         # x, y, z in milli-g
    imu.read_all(acc, rates)    # both from one 14-byte burst

Resets the part (and waits 100 ms), wakes it with CLKSEL 1 (the 6050's X
gyro PLL; the 6500's PLL once ready), 100 Hz sample rate (1 kHz / (1 +
9)), DLPF_CFG 3: on the 6050 gyro 42 Hz and accel 44 Hz; on the 6500
the gyro 41 Hz (GYRO_CONFIG FCHOICE_B 00 keeps the DLPF and the divider
in use) and, as the 6500 filters its accelerometer separately,
ACCEL_CONFIG2 A_DLPF_CFG 3 (accel 41 Hz). Same full scales and LSB
sizes on both. Waits out the gyro's 30 ms start-up, then enables the
data-ready interrupt (INT_STATUS shows only enabled ones) and waits (up
to 50 ms) for the first sample. The reads allocate nothing.
"""
import time
from errno import EIO, ENODEV, ETIMEDOUT
from micropython import const

# what the ports raise for an address no chip ACKs (esp32's ETIMEDOUT is
# its C library's 116, which its errno module gives)
_ABSENT = (ENODEV, EIO, ETIMEDOUT)

_SMPLRT_DIV = const(0x19)
_INT_ENABLE = const(0x38)
_INT_STATUS = const(0x3A)
_DATA_RDY = const(0x01)         # DATA_RDY_EN / RAW_RDY_EN, and its _INT
_ACCEL_XOUT_H = const(0x3B)
_GYRO_XOUT_H = const(0x43)
_PWR_MGMT_1 = const(0x6B)
_WHO_AM_I = const(0x75)
_ID_6050 = const(0x68)
_ID_6500 = const(0x70)
_DEVICE_RESET = const(0x80)     # H_RESET on the 6500
_CLK_PLL = const(0x01)          # SLEEP=0, CYCLE=0, temperature on, CLKSEL 1
_GYRO_START_MS = const(30)
_DIV_100HZ = const(9)           # 1 kHz / (1 + 9)
_DLPF_42HZ = const(0x03)        # 6050: gyro 42, accel 44 Hz; 6500: gyro 41
_A_DLPF_41HZ = const(0x03)      # 6500 ACCEL_CONFIG2 (0x1D): ACCEL_FCHOICE_B
                                # 0, A_DLPF_CFG 3: accel 41 Hz at 1 kHz

# dps -> (FS_SEL bits, LSB per dps x10); g -> (AFS_SEL bits, LSB per g).
# GYRO_CONFIG bits 1:0 stay 0: the 6500's FCHOICE_B 00 (DLPF on)
_GYRO = {250: (0x00, 1310), 500: (0x08, 655), 1000: (0x10, 328),
         2000: (0x18, 164)}
_ACCEL = {2: (0x00, 16384), 4: (0x08, 8192), 8: (0x10, 4096),
          16: (0x18, 2048)}


class MPU6050:
    def __init__(self, i2c, addr=0x68, dps=250, g=2):
        if dps not in _GYRO:
            raise ValueError("MPU6050 gyro full scale must be 250, 500, 1000 "
                             "or 2000 dps")
        if g not in _ACCEL:
            raise ValueError("MPU6050 accel full scale must be 2, 4, 8 or 16 g")
        self._i2c = i2c
        self._addr = addr
        self._buf = bytearray(14)
        mv = memoryview(self._buf)
        self._one = mv[:1]
        self._six = mv[:6]
        self._m6500 = self._check() == _ID_6500
        self.part = "MPU6500" if self._m6500 else "MPU6050"
        fs, self._glsb10 = _GYRO[dps]
        afs, self._alsb = _ACCEL[g]
        self.dps = dps
        self.g = g
        b = self._buf
        b[0] = _DEVICE_RESET
        i2c.writeto_mem(addr, _PWR_MGMT_1, self._one)
        time.sleep_ms(100)
        b[0] = _CLK_PLL
        i2c.writeto_mem(addr, _PWR_MGMT_1, self._one)
        # SMPLRT_DIV, CONFIG, GYRO_CONFIG, ACCEL_CONFIG in one burst, and on
        # the 6500 ACCEL_CONFIG2 (0x1D, undocumented on the 6050) after them
        b[0] = _DIV_100HZ
        b[1] = _DLPF_42HZ
        b[2] = fs
        b[3] = afs
        b[4] = _A_DLPF_41HZ
        i2c.writeto_mem(addr, _SMPLRT_DIV, mv[:5] if self._m6500 else mv[:4])
        # the gyro's zero-rate output settles within 30 ms of its start
        # (product specification 6.1); INT_STATUS shows only the interrupts
        # INT_ENABLE generates, so the sample waited for below is a later one
        time.sleep_ms(_GYRO_START_MS)
        b[0] = _DATA_RDY
        i2c.writeto_mem(addr, _INT_ENABLE, self._one)
        for _ in range(25):
            i2c.readfrom_mem_into(addr, _INT_STATUS, self._one)
            if self._one[0] & _DATA_RDY:
                break
            time.sleep_ms(2)

    def _check(self):
        """-> WHO_AM_I, if it is an accepted part's."""
        one = self._one
        try:
            self._i2c.readfrom_mem_into(self._addr, _WHO_AM_I, one)
        except OSError as e:
            if e.args and e.args[0] in _ABSENT:
                raise OSError(
                    "MPU6050 not found at I2C address 0x%02x on %r: nothing "
                    "answered; check wiring, power and the AD0 address pin"
                    % (self._addr, self._i2c))
            raise
        if one[0] != _ID_6050 and one[0] != _ID_6500:
            raise OSError(
                "MPU6050 not found at I2C address 0x%02x on %r: WHO_AM_I "
                "reads 0x%02X, expected 0x%02X (MPU-6050) or 0x%02X "
                "(MPU-6500); another chip at this address?"
                % (self._addr, self._i2c, one[0], _ID_6050, _ID_6500))
        return one[0]

    def _words(self, first, out, mul, div):
        b = self._buf
        for i in range(3):
            v = (b[first + 2 * i] << 8) | b[first + 2 * i + 1]
            if v & 0x8000:
                v -= 0x10000
            out[i] = v * mul // div

    def read_rates(self, out):
        """out[0..2] = x, y, z angular rate in millidegrees per second."""
        self._i2c.readfrom_mem_into(self._addr, _GYRO_XOUT_H, self._six)
        self._words(0, out, 10000, self._glsb10)

    def read_accel(self, out):
        """out[0..2] = x, y, z acceleration in milli-g."""
        self._i2c.readfrom_mem_into(self._addr, _ACCEL_XOUT_H, self._six)
        self._words(0, out, 1000, self._alsb)

    def read_all(self, accel, rates):
        """Both from one sampling instant (14-byte burst from ACCEL_XOUT_H)."""
        self._i2c.readfrom_mem_into(self._addr, _ACCEL_XOUT_H, self._buf)
        self._words(0, accel, 1000, self._alsb)
        self._words(8, rates, 10000, self._glsb10)

    def temperature_centi(self):
        """Die temperature in 1/100 degrees C from the last read_all():
        TEMP_OUT / 340 + 36.53 on the 6050, / 333.87 + 21 on the 6500."""
        b = self._buf
        v = (b[6] << 8) | b[7]
        if v & 0x8000:
            v -= 0x10000
        if self._m6500:
            return v * 10000 // 33387 + 2100
        return v * 100 // 340 + 3653
