"""InvenSense MPU-6050 gyroscope + accelerometer, I2C side, from its
register map (RM-MPU-6000A) and product specification; with part="6500"
the MPU-6500 that many GY-521 boards now carry, from its register map
(RM-MPU-6500A-00) and product specification (PS-MPU-6500A-01).

    model = mpu6050_model.MPU6050Model(tilt)     # tilt: tilt_model.TiltModel
    model = mpu6050_model.MPU6050Model(tilt, part="6500")
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
- The gyroscope's zero-rate output settles within 30 ms of its start
  (PS-MPU-6000A 6.1, "ZRO Settling (from power-on) to +/-1 deg/s of
  Final"): a gyro sample taken sooner after the part starts running (woken,
  or the 6500 from reset) carries an offset, modelled as the initial ZRO
  tolerance, 20 deg/s, falling in a straight line to nothing at 30 ms
  (the 6500 is given the same figure).
- Writes to read-only or undocumented registers are ignored and noted in
  `errors`.

Where the MPU-6500 differs (the rest is as above):
- Reset values: PWR_MGMT_1 = 0x01 (awake, CLKSEL 1: the PLL when ready,
  else the internal 20 MHz oscillator), WHO_AM_I = 0x70. Awake from
  reset, it samples without being woken.
- GYRO_CONFIG bits 1:0 are FCHOICE_B: not 00 bypasses the DLPF (gyro
  output at 32 kHz). With FCHOICE_B 00, DLPF_CFG 0 or 7 gives 8 kHz and
  SMPLRT_DIV is not used; DLPF_CFG 1..6 gives 1 kHz / (1 + SMPLRT_DIV).
  CONFIG's DLPF_CFG filters the gyro and temperature only (DLPF_CFG 3:
  gyro 41 Hz).
- ACCEL_CONFIG2 (0x1D): the accelerometer's own filter, ACCEL_FCHOICE_B
  (bit 3; 1 bypasses it, 1.13 kHz) and A_DLPF_CFG (bits 2:0: 460, 184,
  92, 41, 20, 10, 5, 460 Hz), reset 0x00 (460 Hz). LP_ACCEL_ODR (0x1E),
  WOM_THR (0x1F), gyro self-test (0x00-0x02), gyro offsets (0x13-0x18)
  and accel offsets (0x77-0x7E) are read/write registers.
- PWR_MGMT_1 bit 4 GYRO_STANDBY stops the gyro outputs, bit 3 PD_PTAT
  the temperature sensor (TEMP_DIS's place on the 6050).
- Temperature: TEMP_OUT / 333.87 + 21 degrees C.
Both parts: CLKSEL 7 stops the clock, and with it the sampling.

Not modelled: FIFO, DMP, the auxiliary I2C master, interrupts pins,
self-test, offsets, the filters' effect on the signal; every sensor is
updated at the one sample rate above (the 6500's 4 kHz accelerometer
with ACCEL_FCHOICE_B set is not).

Runs on CPython and the MicroPython unix port.
"""
import sim_clock

SMPLRT_DIV = 0x19
CONFIG = 0x1A
GYRO_CONFIG = 0x1B
ACCEL_CONFIG = 0x1C
ACCEL_CONFIG2 = 0x1D            # MPU-6500 only
MOT_THR = 0x1F                  # WOM_THR on the MPU-6500
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
CHIP_ID_6500 = 0x70
PARTS = ("6050", "6500")
GYRO_LSB_PER_DPS_X10 = (1310, 655, 328, 164)
GYRO_FULL_SCALE_DPS = (250, 500, 1000, 2000)
ZRO_SETTLE_US = 30000           # the gyro's start-up time
ZRO_START_MDPS = 20000          # its offset at the start: the initial ZRO tolerance
ACCEL_LSB_PER_G = (16384, 8192, 4096, 2048)

_WRITABLE = (set(range(0x0D, 0x11)) | set(range(SMPLRT_DIV, ACCEL_CONFIG + 1))
             | {MOT_THR}
             | set(range(0x23, 0x36)) | {0x37, INT_ENABLE}
             | set(range(0x63, 0x69)) | {0x6A, PWR_MGMT_1, PWR_MGMT_2}
             | {0x72, 0x73, FIFO_R_W})
_READ_ONLY = ({0x36, INT_STATUS, WHO_AM_I} | set(range(ACCEL_XOUT_H, 0x61)))
_WRITABLE_6500 = ({0x00, 0x01, 0x02} | set(range(0x0D, 0x10))
                  | set(range(0x13, MOT_THR + 1))
                  | set(range(0x23, 0x35)) | {0x37, INT_ENABLE}
                  | set(range(0x63, 0x6A)) | {0x6A, PWR_MGMT_1, PWR_MGMT_2}
                  | {0x72, 0x73, FIFO_R_W}
                  | {0x77, 0x78, 0x7A, 0x7B, 0x7D, 0x7E})
_READ_ONLY_6500 = ({0x35, 0x36, INT_STATUS, WHO_AM_I}
                   | set(range(ACCEL_XOUT_H, 0x61)))
# DLPF_CFG -> bandwidth (Hz): MPU-6050 accel and gyro (7 reserved),
# MPU-6500 gyro (FCHOICE_B 00) and accel (A_DLPF_CFG, ACCEL_FCHOICE_B 0)
_BW_6050_ACCEL = (260, 184, 94, 44, 21, 10, 5, None)
_BW_6050_GYRO = (256, 188, 98, 42, 20, 10, 5, None)
_BW_6500_GYRO = (250, 184, 92, 41, 20, 10, 5, 3600)
_BW_6500_ACCEL = (460, 184, 92, 41, 20, 10, 5, 460)


class MPU6050Model:
    def __init__(self, tilt, temperature_c=25.0, part="6050"):
        if part not in PARTS:
            raise ValueError("part must be one of %r, not %r" % (PARTS, part))
        self.part = part
        self.tilt = tilt
        self.temperature_c = temperature_c
        self.errors = []
        self.regs = bytearray(0x80)
        if part == "6500":
            self._writable, self._read_only = _WRITABLE_6500, _READ_ONLY_6500
        else:
            self._writable, self._read_only = _WRITABLE, _READ_ONLY
        self.reset()

    def reset(self):
        """Power-on reset (and DEVICE_RESET): the documented defaults."""
        regs = self.regs
        for i in range(len(regs)):
            regs[i] = 0
        if self.part == "6500":
            regs[PWR_MGMT_1] = 0x01
            regs[WHO_AM_I] = CHIP_ID_6500
        else:
            regs[PWR_MGMT_1] = 0x40
            regs[WHO_AM_I] = CHIP_ID
        self._ptr = 0
        self._t0 = sim_clock.now_us() if self._running() else None
        self._started = self._t0
        self._sample = 0

    # -- what the settings mean ------------------------------------------
    def asleep(self):
        return bool(self.regs[PWR_MGMT_1] & 0x40)

    def clock_source(self):
        return self.regs[PWR_MGMT_1] & 0x07

    def sample_rate_hz(self):
        """The rate the sensor registers are updated at."""
        regs = self.regs
        dlpf = regs[CONFIG] & 0x07
        if self.part == "6500":
            if regs[GYRO_CONFIG] & 0x03:        # FCHOICE_B: DLPF bypassed
                return 32000
            if dlpf in (0, 7):                  # SMPLRT_DIV not used
                return 8000
            return 1000 / (1 + regs[SMPLRT_DIV])
        base = 8000 if dlpf in (0, 7) else 1000
        return base / (1 + regs[SMPLRT_DIV])

    def gyro_bandwidth_hz(self):
        """The gyro's low-pass bandwidth (None: reserved setting)."""
        regs = self.regs
        if self.part == "6500":
            fchoice_b = regs[GYRO_CONFIG] & 0x03
            if fchoice_b:
                return 3600 if fchoice_b == 2 else 8800
            return _BW_6500_GYRO[regs[CONFIG] & 0x07]
        return _BW_6050_GYRO[regs[CONFIG] & 0x07]

    def accel_bandwidth_hz(self):
        """The accelerometer's low-pass bandwidth (None: reserved)."""
        regs = self.regs
        if self.part == "6500":
            if regs[ACCEL_CONFIG2] & 0x08:      # ACCEL_FCHOICE_B
                return 1130
            return _BW_6500_ACCEL[regs[ACCEL_CONFIG2] & 0x07]
        return _BW_6050_ACCEL[regs[CONFIG] & 0x07]

    def temperature_raw(self, celsius):
        """TEMP_OUT for a die temperature."""
        if self.part == "6500":
            return int(round((celsius - 21) * 333.87))
        return int(round((celsius - 36.53) * 340))

    def gyro_lsb_per_dps(self):
        return GYRO_LSB_PER_DPS_X10[(self.regs[GYRO_CONFIG] >> 3) & 3] / 10

    def gyro_full_scale_dps(self):
        return GYRO_FULL_SCALE_DPS[(self.regs[GYRO_CONFIG] >> 3) & 3]

    def accel_lsb_per_g(self):
        return ACCEL_LSB_PER_G[(self.regs[ACCEL_CONFIG] >> 3) & 3]

    def _running(self):
        return not self.asleep() and self.clock_source() != 7

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
        if addr in self._read_only:
            self.errors.append("write 0x%02x to read-only register 0x%02x"
                               % (value, addr))
            return
        if addr not in self._writable:
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
                self._t0 = self._started = sim_clock.now_us()
                self._sample = 0
            elif not self._running():
                self._t0 = None
            return
        if addr == SMPLRT_DIV or addr == CONFIG or addr == GYRO_CONFIG:
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
        # CYCLE samples the accelerometer only; so does the 6500's GYRO_STANDBY
        gyro_off = regs[PWR_MGMT_1] & (0x30 if self.part == "6500" else 0x20)
        stby = regs[PWR_MGMT_2]
        accel = self.tilt.gravity_mg(now)
        lsb_g = ACCEL_LSB_PER_G[(regs[ACCEL_CONFIG] >> 3) & 3]
        for axis in range(3):
            if not stby & (0x20 >> axis):
                self._put(ACCEL_XOUT_H + 2 * axis,
                          _round_div(accel[axis] * lsb_g, 1000))
        if not gyro_off:
            rates = self.tilt.rates_mdps(now)
            lsb10 = GYRO_LSB_PER_DPS_X10[(regs[GYRO_CONFIG] >> 3) & 3]
            settling = ZRO_SETTLE_US - (now - self._started)
            zro = ZRO_START_MDPS * settling // ZRO_SETTLE_US if settling > 0 else 0
            for axis in range(3):
                if not stby & (0x04 >> axis):
                    self._put(GYRO_XOUT_H + 2 * axis,
                              _round_div((rates[axis] + zro) * lsb10, 10000))
        if not regs[PWR_MGMT_1] & 0x08:      # TEMP_DIS (6500: PD_PTAT)
            self._put(TEMP_OUT_H, self.temperature_raw(self.temperature_c))
        if regs[INT_ENABLE] & 0x01:          # DATA_RDY_EN (6500: RAW_RDY_EN)
            regs[INT_STATUS] |= 0x01          # DATA_RDY_INT (RAW_DATA_RDY_INT)

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
