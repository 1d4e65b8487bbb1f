"""InvenSense MPU-6050 gyroscope + accelerometer, I2C side, from its
register map (RM-MPU-6000A) and product specification.

    model = mpu6050_model.MPU6050Model(tilt)     # tilt: tilt_model.TiltModel
    machine.attach_i2c(0, 0x68, model, "mpu6050")

What the documents define and this model does:
- Every register resets to 0x00 except PWR_MGMT_1 (0x6B) = 0x40 (SLEEP)
  and WHO_AM_I (0x75) = 0x68. The part wakes when SLEEP is cleared; asleep
  (or in CYCLE mode, for the gyro) its sensor registers are not updated:
  they keep their last values, zeros after reset. PWR_MGMT_1 DEVICE_RESET
  (bit 7) restores all defaults and clears itself. PWR_MGMT_2 STBY_* bits
  freeze single axes.
- The register address increments after each byte of every burst read or
  write (FIFO_R_W excepted).
- Sample rate = gyroscope output rate / (1 + SMPLRT_DIV), the output rate
  8 kHz with the DLPF off (CONFIG DLPF_CFG 0 or 7), else 1 kHz; a new rate
  takes over from the write that sets it.
- GYRO_CONFIG (0x1B) FS_SEL: 131 / 65.5 / 32.8 / 16.4 LSB per dps;
  ACCEL_CONFIG (0x1C) AFS_SEL: 16384 / 8192 / 4096 / 2048 LSB per g; both
  taken at each sample. Temperature: TEMP_OUT / 340 + 36.53 degrees C.
- ACCEL_XOUT_H (0x3B) .. GYRO_ZOUT_L (0x48): big-endian two's complement;
  a burst read sees one sampling instant (the user-facing registers copy the
  internal set while the bus is idle). INT_STATUS shows the interrupts
  INT_ENABLE (0x38) generates: DATA_RDY_INT is set by a sample only while
  DATA_RDY_EN is set, and cleared by reading INT_STATUS.
- Writes to read-only or undocumented registers are ignored and noted in
  `errors`.
Not modelled: FIFO, DMP, the auxiliary I2C master, interrupts pins,
self-test, the DLPF's effect on the signal.

Runs on CPython and the MicroPython unix port.
"""
import sim_clock

SMPLRT_DIV = 0x19
CONFIG = 0x1A
GYRO_CONFIG = 0x1B
ACCEL_CONFIG = 0x1C
MOT_THR = 0x1F
INT_ENABLE = 0x38
INT_STATUS = 0x3A
ACCEL_XOUT_H = 0x3B
TEMP_OUT_H = 0x41
GYRO_XOUT_H = 0x43
PWR_MGMT_1 = 0x6B
PWR_MGMT_2 = 0x6C
FIFO_R_W = 0x74
WHO_AM_I = 0x75

CHIP_ID = 0x68
GYRO_LSB_PER_DPS_X10 = (1310, 655, 328, 164)
GYRO_FULL_SCALE_DPS = (250, 500, 1000, 2000)
ACCEL_LSB_PER_G = (16384, 8192, 4096, 2048)

_WRITABLE = (set(range(0x0D, 0x11)) | set(range(SMPLRT_DIV, ACCEL_CONFIG + 1))
             | {MOT_THR}
             | set(range(0x23, 0x36)) | {0x37, INT_ENABLE}
             | set(range(0x63, 0x69)) | {0x6A, PWR_MGMT_1, PWR_MGMT_2}
             | {0x72, 0x73, FIFO_R_W})
_READ_ONLY = ({0x36, INT_STATUS, WHO_AM_I} | set(range(ACCEL_XOUT_H, 0x61)))


class MPU6050Model:
    def __init__(self, tilt, temperature_c=25.0):
        self.tilt = tilt
        self.temperature_c = temperature_c
        self.errors = []
        self.regs = bytearray(0x80)
        self.reset()

    def reset(self):
        """Power-on reset (and DEVICE_RESET): the documented defaults."""
        regs = self.regs
        for i in range(len(regs)):
            regs[i] = 0
        regs[PWR_MGMT_1] = 0x40
        regs[WHO_AM_I] = CHIP_ID
        self._ptr = 0
        self._t0 = None
        self._sample = 0

    # -- what the settings mean ------------------------------------------
    def asleep(self):
        return bool(self.regs[PWR_MGMT_1] & 0x40)

    def clock_source(self):
        return self.regs[PWR_MGMT_1] & 0x07

    def sample_rate_hz(self):
        dlpf = self.regs[CONFIG] & 0x07
        base = 8000 if dlpf in (0, 7) else 1000
        return base / (1 + self.regs[SMPLRT_DIV])

    def gyro_lsb_per_dps(self):
        return GYRO_LSB_PER_DPS_X10[(self.regs[GYRO_CONFIG] >> 3) & 3] / 10

    def gyro_full_scale_dps(self):
        return GYRO_FULL_SCALE_DPS[(self.regs[GYRO_CONFIG] >> 3) & 3]

    def accel_lsb_per_g(self):
        return ACCEL_LSB_PER_G[(self.regs[ACCEL_CONFIG] >> 3) & 3]

    def _running(self):
        return not self.asleep()

    # -- I2C ----------------------------------------------------------------
    def i2c_write(self, data):
        if not data:
            return
        self._ptr = data[0] & 0x7F
        for b in data[1:]:
            self._write(self._ptr, b)
            self._step()

    def i2c_read(self, n):
        self._sample_due()
        out = bytearray(n)
        for i in range(n):
            out[i] = self._read(self._ptr)
            self._step()
        return bytes(out)

    def _step(self):
        if self._ptr != FIFO_R_W:
            self._ptr = (self._ptr + 1) & 0x7F

    # -- registers ------------------------------------------------------------
    def _write(self, addr, value):
        if addr in _READ_ONLY:
            self.errors.append("write 0x%02x to read-only register 0x%02x"
                               % (value, addr))
            return
        if addr not in _WRITABLE:
            self.errors.append("write 0x%02x to undocumented register 0x%02x"
                               % (value, addr))
            return
        if addr == PWR_MGMT_1:
            if value & 0x80:
                self.reset()
                return
            was_running = self._running()
            self.regs[addr] = value
            if self._running() and not was_running:
                self._t0 = sim_clock.now_us()
                self._sample = 0
            elif not self._running():
                self._t0 = None
            return
        if addr == SMPLRT_DIV or addr == CONFIG:
            rate = self.sample_rate_hz()
            self.regs[addr] = value
            if self._t0 is not None and self.sample_rate_hz() != rate:
                # samples counted at the new rate from now on
                self._t0 = sim_clock.now_us()
                self._sample = 0
            return
        self.regs[addr] = value

    def _read(self, addr):
        v = self.regs[addr]
        if addr == INT_STATUS:
            self.regs[INT_STATUS] = 0
        return v

    # -- sampling -------------------------------------------------------------
    def _sample_due(self):
        if self._t0 is None:
            return
        now = sim_clock.now_us()
        n = int((now - self._t0) * self.sample_rate_hz() // 1000000)
        if n <= self._sample:
            return
        self._sample = n
        regs = self.regs
        cycle = regs[PWR_MGMT_1] & 0x20
        stby = regs[PWR_MGMT_2]
        accel = self.tilt.gravity_mg(now)
        lsb_g = ACCEL_LSB_PER_G[(regs[ACCEL_CONFIG] >> 3) & 3]
        for axis in range(3):
            if not stby & (0x20 >> axis):
                self._put(ACCEL_XOUT_H + 2 * axis,
                          _round_div(accel[axis] * lsb_g, 1000))
        if not cycle:
            rates = self.tilt.rates_mdps(now)
            lsb10 = GYRO_LSB_PER_DPS_X10[(regs[GYRO_CONFIG] >> 3) & 3]
            for axis in range(3):
                if not stby & (0x04 >> axis):
                    self._put(GYRO_XOUT_H + 2 * axis,
                              _round_div(rates[axis] * lsb10, 10000))
        if not regs[PWR_MGMT_1] & 0x08:      # TEMP_DIS
            self._put(TEMP_OUT_H, int(round((self.temperature_c - 36.53) * 340)))
        if regs[INT_ENABLE] & 0x01:          # DATA_RDY_EN
            regs[INT_STATUS] |= 0x01          # DATA_RDY_INT

    def _put(self, addr, value):
        value = max(-32768, min(32767, value)) & 0xFFFF
        self.regs[addr] = value >> 8
        self.regs[addr + 1] = value & 0xFF

    def word(self, addr):
        """The signed 16-bit value at addr (high byte first), for tests."""
        v = (self.regs[addr] << 8) | self.regs[addr + 1]
        return v - 0x10000 if v & 0x8000 else v


def _round_div(a, b):
    if a < 0:
        return -((-a + b // 2) // b)
    return (a + b // 2) // b
