"""ST L3G4200D three-axis digital gyroscope, I2C side, from its datasheet.

    model = l3g4200d_model.L3G4200DModel(tilt)   # tilt: tilt_model.TiltModel
    machine.attach_i2c(1, 0x69, model, "l3g4200d")

What the datasheet defines and this model does:
- WHO_AM_I (0x0F) reads 0xD3; CTRL_REG1..5 (0x20..0x24) reset to 0x07, 0,
  0, 0, 0: the part powers up in power-down mode with X, Y, Z enabled.
- The sub-address byte: 7-bit register address; its MSB set makes the
  address increment after each byte of a multi-byte read or write. Without
  it, every byte of a burst reads (or writes) the same register.
- CTRL_REG1: DR (ODR 100/200/400/800 Hz), BW, PD (0 = power-down: no new
  samples), Zen/Yen/Xen (a disabled axis keeps its last value; PD=1 with all
  axes off is sleep). CTRL_REG4: BDU (the output pair of an axis is not
  updated between reading its low and high byte), BLE (0: low byte at the
  lower address, little-endian; 1: big-endian), FS (250/500/2000 dps at
  8.75/17.5/70 mdps per digit), taken at each sample. CTRL_REG5 BOOT
  self-clears.
- OUT_X_L..OUT_Z_H (0x28..0x2D): 16-bit two's complement, a new sample
  every 1/ODR after power-on (after a change of DR, at the new ODR from
  then on); STATUS_REG (0x27) XDA/YDA/ZDA/ZYXDA and the overrun bits
  XOR/YOR/ZOR/ZYXOR, set by each new sample of an enabled axis (overrun:
  the axis's data were not read before it).
- When those bits clear is the model's assumption, not the datasheet's: it
  defines the bits ("a new data for the X-axis is available", ...) but not
  what clears them. The model clears an axis's XDA/YDA/ZDA and its overrun
  bit when that axis's high byte (OUT_X_H, OUT_Y_H, OUT_Z_H; with BLE=1 the
  byte at the lower address) is read, as ST's AN3393 read sequence implies
  (poll STATUS_REG, then read OUT_X_L..OUT_Z_H); ZYXDA and ZYXOR follow
  (ZYXDA set only while all three axes have unread data, ZYXOR while any
  axis overran). Reading only a low byte clears nothing.
- Read-only registers ignore writes; writes to reserved addresses (the
  datasheet forbids them) are ignored too. Both are noted in `errors`.
Not modelled: FIFO (FIFO_SRC reads "empty"), interrupts, high-pass filter,
self-test, the bandwidth's effect on the signal.

Runs on CPython and the MicroPython unix port.
"""
import sim_clock

WHO_AM_I = 0x0F
CTRL_REG1 = 0x20
CTRL_REG2 = 0x21
CTRL_REG3 = 0x22
CTRL_REG4 = 0x23
CTRL_REG5 = 0x24
REFERENCE = 0x25
OUT_TEMP = 0x26
STATUS_REG = 0x27
OUT_X_L = 0x28
FIFO_CTRL_REG = 0x2E
FIFO_SRC_REG = 0x2F
INT1_CFG = 0x30
INT1_SRC = 0x31
INT1_DURATION = 0x38

CHIP_ID = 0xD3
AUTO_INCREMENT = 0x80
ODR_HZ = (100, 200, 400, 800)
FULL_SCALE_DPS = (250, 500, 2000, 2000)
# sensitivity in 1/100 mdps per digit: 8.75, 17.5, 70, 70
SENSITIVITY_CENTI_MDPS = (875, 1750, 7000, 7000)

_WRITABLE = set(range(CTRL_REG1, REFERENCE + 1)) | {FIFO_CTRL_REG} | set(
    range(INT1_CFG, INT1_DURATION + 1))
_WRITABLE.discard(INT1_SRC)
_READ_ONLY = {WHO_AM_I, OUT_TEMP, STATUS_REG, FIFO_SRC_REG, INT1_SRC} | set(
    range(OUT_X_L, OUT_X_L + 6))
_RESET = {WHO_AM_I: CHIP_ID, CTRL_REG1: 0x07, FIFO_SRC_REG: 0x20}


class L3G4200DModel:
    def __init__(self, tilt, temperature_c=25):
        self.tilt = tilt
        self.temperature_c = temperature_c
        self.errors = []
        self.regs = bytearray(0x80)
        self.reset()

    def reset(self):
        """Power-on reset: registers to their datasheet defaults."""
        regs = self.regs
        for i in range(len(regs)):
            regs[i] = 0
        for addr, value in _RESET.items():
            regs[addr] = value
        self._ptr = 0
        self._inc = False
        self.raw = [0, 0, 0]         # the output registers' values
        self._half = [0, 0, 0]       # BDU: bit 0 low byte read, bit 1 high
        self._t0 = None              # power-on or ODR change; None: off
        self._sample = 0             # samples taken since _t0
        self._unread = 0             # axes (bits) with data not yet read
        self._overrun = 0

    # -- what the datasheet's settings mean ---------------------------------
    def powered(self):
        return bool(self.regs[CTRL_REG1] & 0x08)

    def enabled_axes(self):
        return self.regs[CTRL_REG1] & 0x07

    def odr_hz(self):
        return ODR_HZ[self.regs[CTRL_REG1] >> 6]

    def full_scale_dps(self):
        return FULL_SCALE_DPS[(self.regs[CTRL_REG4] >> 4) & 3]

    def sensitivity_mdps(self):
        return SENSITIVITY_CENTI_MDPS[(self.regs[CTRL_REG4] >> 4) & 3] / 100

    def big_endian(self):
        return bool(self.regs[CTRL_REG4] & 0x40)

    def bdu(self):
        return bool(self.regs[CTRL_REG4] & 0x80)

    # -- I2C ----------------------------------------------------------------
    def i2c_write(self, data):
        if not data:
            return
        self._ptr = data[0] & 0x7F
        self._inc = bool(data[0] & AUTO_INCREMENT)
        for b in data[1:]:
            self._write(self._ptr, b)
            if self._inc:
                self._ptr = (self._ptr + 1) & 0x7F

    def i2c_read(self, n):
        self._sample_due()
        out = bytearray(n)
        for i in range(n):
            out[i] = self._read(self._ptr)
            if self._inc:
                self._ptr = (self._ptr + 1) & 0x7F
        return bytes(out)

    # -- registers ------------------------------------------------------------
    def _write(self, addr, value):
        if addr in _READ_ONLY:
            self.errors.append("write 0x%02x to read-only register 0x%02x"
                               % (value, addr))
            return
        if addr not in _WRITABLE:
            self.errors.append("write 0x%02x to reserved address 0x%02x"
                               % (value, addr))
            return
        if addr == CTRL_REG1:
            was_on = self.powered()
            old_dr = self.regs[addr] >> 6
            self.regs[addr] = value
            if self.powered() and (not was_on or value >> 6 != old_dr):
                # samples counted at the (new) ODR from now on
                self._t0 = sim_clock.now_us()
                self._sample = 0
            elif not self.powered():
                self._t0 = None
            return
        if addr == CTRL_REG5:
            value &= 0x7F        # BOOT: reloads the trimming, then clears
        self.regs[addr] = value

    def _read(self, addr):
        if OUT_X_L <= addr < OUT_X_L + 6:
            axis = (addr - OUT_X_L) >> 1
            upper = (addr - OUT_X_L) & 1
            if self.big_endian():
                upper ^= 1
            v = self.raw[axis] & 0xFFFF
            bit = 2 if upper else 1
            self._half[axis] |= bit
            if self._half[axis] == 3:
                self._half[axis] = 0
            if upper:
                self._unread &= ~(1 << axis)
                self._overrun &= ~(1 << axis)
            return (v >> 8) if upper else (v & 0xFF)
        if addr == STATUS_REG:
            s = self._unread | (self._overrun << 4)
            if self._unread == 7:
                s |= 0x08
            if self._overrun:
                s |= 0x80
            return s
        if addr == OUT_TEMP:
            # -1 digit per degree C; the offset is not specified: 0 at 25 C
            return (25 - self.temperature_c) & 0xFF
        return self.regs[addr]

    # -- sampling -------------------------------------------------------------
    def _sample_due(self):
        if self._t0 is None:
            return
        axes = self.enabled_axes()
        if not axes:
            return              # sleep mode
        now = sim_clock.now_us()
        n = (now - self._t0) * self.odr_hz() // 1000000
        if n <= self._sample:
            return
        if self.bdu() and (self._half[0] or self._half[1] or self._half[2]):
            return              # an axis is half read: hold the outputs
        new = n - self._sample
        self._sample = n
        rates = self.tilt.rates_mdps(now)
        centi = SENSITIVITY_CENTI_MDPS[(self.regs[CTRL_REG4] >> 4) & 3]
        for axis in range(3):
            if not axes & (1 << axis):
                continue
            raw = _round_div(rates[axis] * 100, centi)
            self.raw[axis] = max(-32768, min(32767, raw))
            if self._unread & (1 << axis) or new > 1:
                self._overrun |= 1 << axis
            self._unread |= 1 << axis
            self._half[axis] = 0


def _round_div(a, b):
    if a < 0:
        return -((-a + b // 2) // b)
    return (a + b // 2) // b
