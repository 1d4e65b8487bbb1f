"""Gyroscope checks that run unchanged on CPython (pytest) and on the
MicroPython unix port (tests/upy.py): each driver against its chip model.

Every `l3g_*`, `mpu_*` and `motion_*` function sets up a fresh bus and clock
and raises AssertionError on a failure. `run(prefix)` runs a family and
prints one line per check (the unix-port tests call it).
"""
import machine
import sim_clock
import time

import l3g4200d
import l3g4200d_model
import mpu6050
import mpu6050_model
import tilt_model

PINS = {"scl": 27, "sda": 26}


def rig(model_cls, addr, bus=1, axes=(1, 0), signs=(1, -1), bias=(0, 0, 0),
        noise=0, part=None):
    machine.forget_all()
    sim_clock.reset()
    tilt = tilt_model.TiltModel(axes, signs, bias_mdps=bias, noise_mdps=noise)
    model = model_cls(tilt) if part is None else model_cls(tilt, part=part)
    machine.attach_i2c(bus, addr, model, "gyro")
    i2c = machine.I2C(bus, scl=machine.Pin(PINS["scl"]),
                      sda=machine.Pin(PINS["sda"]), freq=400000)
    return tilt, model, i2c


def raises_oserror(fn):
    try:
        fn()
    except OSError as e:
        return str(e.args[0]) if e.args else str(e)
    raise AssertionError("no OSError raised")


def near(got, want, tol, what):
    for i in range(3):
        if abs(got[i] - want[i]) > tol:
            raise AssertionError("%s axis %d: read %d, expected %d (+-%s)"
                                 % (what, i, got[i], want[i], tol))


# chip-frame test rates (dps) that stay inside every full scale's range
RATE_SETS = ((0, 0, 0), (1.5, -2.25, 0.01), (-100, 37.5, 200),
             (-0.4, 0.3, -249))


# -- L3G4200D ------------------------------------------------------------------

def l3g_init_reaches_documented_state():
    for dps, fs_bits in ((250, 0x00), (500, 0x10), (2000, 0x20)):
        tilt, m, i2c = rig(l3g4200d_model.L3G4200DModel, 0x69)
        assert m.regs[0x20] == 0x07 and not m.powered()   # reset: power-down
        g = l3g4200d.L3G4200D(i2c, 0x69, dps=dps)
        assert m.regs[0x20] == 0x1F, hex(m.regs[0x20])    # 100 Hz, on, XYZ
        assert m.regs[0x21] == 0 and m.regs[0x22] == 0 and m.regs[0x24] == 0
        assert m.regs[0x23] == 0x80 | fs_bits, hex(m.regs[0x23])
        assert m.powered() and m.enabled_axes() == 7 and m.odr_hz() == 100
        assert m.full_scale_dps() == dps and m.bdu() and not m.big_endian()
        assert m.errors == [], m.errors
        assert g.dps == dps


def l3g_rates_match_tilt_within_one_lsb():
    for dps in (250, 500, 2000):
        tilt, m, i2c = rig(l3g4200d_model.L3G4200DModel, 0x69)
        g = l3g4200d.L3G4200D(i2c, dps=dps)
        lsb = m.sensitivity_mdps()
        out = [0, 0, 0]
        for rates in RATE_SETS:
            if max(abs(r) for r in rates) * 1.1 > dps:
                continue
            tilt.set_rates(*rates)
            time.sleep_ms(12)                 # past the next 100 Hz sample
            g.read_rates(out)
            want = [int(r * 1000) for r in rates]
            near(out, want, lsb, "L3G4200D at %d dps" % dps)
    # one more at 2000 dps near its top
    tilt.set_rates(-1900, 1750, 0)
    time.sleep_ms(12)
    g.read_rates(out)
    near(out, (-1900000, 1750000, 0), 70, "L3G4200D at 2000 dps")


def l3g_device_tilt_reaches_mapped_axes():
    tilt, m, i2c = rig(l3g4200d_model.L3G4200DModel, 0x69,
                       axes=(1, 0), signs=(1, -1))
    g = l3g4200d.L3G4200D(i2c)
    tilt.set_tilt(30, -12)          # right 30 dps, backward 12 dps
    time.sleep_ms(12)
    out = [0, 0, 0]
    g.read_rates(out)
    right = out[1] * 1
    forward = out[0] * -1
    assert abs(right - 30000) <= 9 and abs(forward + 12000) <= 9, out
    assert abs(out[2]) <= 9, out


def l3g_first_read_after_init_has_data():
    tilt, m, i2c = rig(l3g4200d_model.L3G4200DModel, 0x69)
    tilt.set_rates(5, -6, 7)
    g = l3g4200d.L3G4200D(i2c)
    out = [0, 0, 0]
    g.read_rates(out)
    near(out, (5000, -6000, 7000), 9, "first read")


def l3g_data_ready_follows_new_samples():
    """STATUS_REG ZYXDA (bit 3): set by each new x, y, z set (100 Hz), clear
    once the outputs are read; the init waits only for the first one."""
    tilt, m, i2c = rig(l3g4200d_model.L3G4200DModel, 0x69)
    t0 = time.ticks_ms()
    g = l3g4200d.L3G4200D(i2c)
    assert time.ticks_diff(time.ticks_ms(), t0) < 20
    out = [0, 0, 0]
    assert g.data_ready()
    g.read_rates(out)
    assert not g.data_ready()
    time.sleep_ms(11)
    assert g.data_ready()
    g.read_rates(out)
    assert not g.data_ready()


def l3g_bad_full_scale_is_a_clear_error():
    for dps in (1000, 245, 0):
        tilt, m, i2c = rig(l3g4200d_model.L3G4200DModel, 0x69)
        try:
            l3g4200d.L3G4200D(i2c, dps=dps)
        except ValueError as e:
            assert "250, 500 or 2000" in str(e), str(e)
        else:
            raise AssertionError("dps=%r accepted" % dps)
        assert m.regs[0x20] == 0x07 and m.regs[0x23] == 0   # untouched


def l3g_missing_chip_message():
    tilt, m, i2c = rig(l3g4200d_model.L3G4200DModel, 0x68)   # SDO low
    msg = raises_oserror(lambda: l3g4200d.L3G4200D(i2c, 0x69))
    for part in ("L3G4200D not found", "0x69", "I2C(1", "scl=27", "sda=26",
                 "check wiring"):
        assert part in msg, msg


def l3g_wrong_who_am_i_message():
    tilt, m, i2c = rig(mpu6050_model.MPU6050Model, 0x69)     # an MPU at 0x69
    before = bytes(m.regs)
    msg = raises_oserror(lambda: l3g4200d.L3G4200D(i2c, 0x69))
    for part in ("L3G4200D not found", "0x69", "WHO_AM_I reads 0x00",
                 "expected 0xD3", "scl=27"):
        assert part in msg, msg
    assert bytes(m.regs) == before and m.errors == []    # nothing written


def l3g_burst_needs_auto_increment_bit():
    tilt, m, i2c = rig(l3g4200d_model.L3G4200DModel, 0x69)
    l3g4200d.L3G4200D(i2c)
    tilt.set_rates(0.00875 * 0x0102, 0.00875 * 0x0304, -0.00875)
    time.sleep_ms(12)
    good = i2c.readfrom_mem(0x69, 0xA8, 6)
    assert good == bytes((0x02, 0x01, 0x04, 0x03, 0xFF, 0xFF)), good
    bad = i2c.readfrom_mem(0x69, 0x28, 6)       # sub-address MSB clear
    assert bad == bytes((0x02,) * 6), bad
    assert i2c.readfrom_mem(0x69, 0x0F, 1) == bytes((0xD3,))


def l3g_full_scale_changes_output_scale():
    tilt, m, i2c = rig(l3g4200d_model.L3G4200DModel, 0x69)
    l3g4200d.L3G4200D(i2c, dps=250)
    tilt.set_rates(70, 0, 0)
    time.sleep_ms(12)
    m_raw = i2c.readfrom_mem(0x69, 0xA8, 2)
    raw250 = m_raw[0] | m_raw[1] << 8
    i2c.writeto_mem(0x69, 0x23, bytes((0x80 | 0x20,)))    # 2000 dps
    time.sleep_ms(12)
    m_raw = i2c.readfrom_mem(0x69, 0xA8, 2)
    raw2000 = m_raw[0] | m_raw[1] << 8
    assert raw250 == 8000 and raw2000 == 1000, (raw250, raw2000)


def l3g_power_down_gives_no_new_data():
    tilt, m, i2c = rig(l3g4200d_model.L3G4200DModel, 0x69)
    g = l3g4200d.L3G4200D(i2c)
    out = [0, 0, 0]
    tilt.set_rates(10, 20, 30)
    time.sleep_ms(12)
    assert g.data_ready()
    g.read_rates(out)
    assert not g.data_ready()
    i2c.writeto_mem(0x69, 0x20, bytes((0x17,)))     # PD = 0
    tilt.set_rates(-50, -60, -70)
    time.sleep_ms(50)
    assert not g.data_ready()
    g.read_rates(out)
    near(out, (10000, 20000, 30000), 9, "after power-down")
    i2c.writeto_mem(0x69, 0x20, bytes((0x1F,)))     # on again
    time.sleep_ms(12)
    g.read_rates(out)
    near(out, (-50000, -60000, -70000), 9, "powered again")


def l3g_ble_swaps_bytes():
    tilt, m, i2c = rig(l3g4200d_model.L3G4200DModel, 0x69)
    l3g4200d.L3G4200D(i2c)
    tilt.set_rates(0.00875 * 0x1234, 0, 0)
    i2c.writeto_mem(0x69, 0x23, bytes((0xC0,)))     # BDU + BLE
    time.sleep_ms(12)
    assert i2c.readfrom_mem(0x69, 0xA8, 2) == bytes((0x12, 0x34))


def l3g_bdu_keeps_a_pair_together():
    for bdu, want_high in ((0x80, 0x01), (0x00, 0x02)):
        tilt, m, i2c = rig(l3g4200d_model.L3G4200DModel, 0x69)
        l3g4200d.L3G4200D(i2c)
        i2c.writeto_mem(0x69, 0x23, bytes((bdu,)))
        tilt.set_rates(0.00875 * 0x01FF, 0, 0)
        time.sleep_ms(12)
        low = i2c.readfrom_mem(0x69, 0x28, 1)[0]
        tilt.set_rates(0.00875 * 0x0200, 0, 0)
        time.sleep_ms(12)
        high = i2c.readfrom_mem(0x69, 0x29, 1)[0]
        assert low == 0xFF and high == want_high, (bdu, low, high)


def l3g_slower_odr_keeps_sampling():
    """After DR goes from 800 to 100 Hz the outputs update within 10 ms
    (the model counted the new rate's samples from power-on and stalled)."""
    tilt, m, i2c = rig(l3g4200d_model.L3G4200DModel, 0x69)
    i2c.writeto_mem(0x69, 0x20, bytes((0xCF,)))     # 800 Hz, on
    tilt.set_rates(0.00875 * 1000, 0, 0)
    time.sleep_ms(100)
    assert i2c.readfrom_mem(0x69, 0xA8, 2) == bytes((0xE8, 0x03))
    i2c.writeto_mem(0x69, 0x20, bytes((0x0F,)))     # 100 Hz
    assert m.odr_hz() == 100
    tilt.set_rates(0.00875 * 2000, 0, 0)
    time.sleep_ms(11)
    assert i2c.readfrom_mem(0x69, 0x27, 1)[0] & 0x08
    assert i2c.readfrom_mem(0x69, 0xA8, 2) == bytes((0xD0, 0x07))


def l3g_read_rates_allocates_nothing():
    """On MicroPython: read_rates under heap_lock (a bus that allocates
    nothing stands in for the shim, which does)."""
    import micropython
    tilt, m, i2c = rig(l3g4200d_model.L3G4200DModel, 0x69)
    real = l3g4200d.L3G4200D(i2c, dps=500)
    tilt.set_rates(-123.4, 56.7, 0.5)
    time.sleep_ms(12)
    want = [0, 0, 0]
    real.read_rates(want)
    stub = RegisterBus(m.regs, 0x80)
    g = l3g4200d.L3G4200D(stub, dps=500)
    for i in range(6):
        stub.regs[0x28 + i] = (m.raw[i >> 1] >> (8 * (i & 1))) & 0xFF
    out = [0, 0, 0]
    micropython.heap_lock()
    try:
        g.read_rates(out)
        g.read_rates(out)
    finally:
        micropython.heap_unlock()
    assert out == want, (out, want)


class RegisterBus:
    """An I2C stand-in over a register array that allocates nothing."""

    def __init__(self, regs, autoinc_bit):
        self.regs = bytearray(regs)
        self._mask = 0x7F if autoinc_bit else 0xFF

    def readfrom_mem_into(self, addr, reg, buf):
        r = reg & self._mask
        regs = self.regs
        for i in range(len(buf)):
            buf[i] = regs[r + i]

    def writeto_mem(self, addr, reg, buf):
        pass


# -- MPU6050 (and the MPU-6500 on GY-521 boards) ---------------------------------

MPU = mpu6050_model.MPU6050Model
PARTS = ("6050", "6500")


def mpu_init_reaches_documented_state():
    """The 6050 needs no ACCEL_CONFIG2 (0x1D is undocumented there: the
    model notes a write to it as an error)."""
    for dps, fs in ((250, 0), (500, 1), (1000, 2), (2000, 3)):
        for g_range, afs in ((2, 0), (16, 3)):
            tilt, m, i2c = rig(MPU, 0x68)
            assert m.asleep() and m.regs[0x6B] == 0x40
            imu = mpu6050.MPU6050(i2c, 0x68, dps=dps, g=g_range)
            assert m.regs[0x6B] == 0x01, hex(m.regs[0x6B])   # awake, PLL X
            assert not m.asleep() and m.clock_source() == 1
            assert m.regs[0x19] == 9 and m.regs[0x1A] == 3
            assert m.sample_rate_hz() == 100
            assert m.regs[0x1B] == fs << 3 and m.regs[0x1C] == afs << 3
            assert m.regs[0x1D] == 0
            assert m.gyro_full_scale_dps() == dps
            assert m.gyro_bandwidth_hz() == 42 and m.accel_bandwidth_hz() == 44
            assert m.errors == [], m.errors
            assert imu.dps == dps and imu.g == g_range
            assert imu.part == "MPU6050"


def mpu_6500_init_reaches_documented_state():
    """On an MPU-6500 the same 100 Hz and units, gyro 41 Hz (FCHOICE_B
    00, DLPF_CFG 3) and the accelerometer's own filter, ACCEL_CONFIG2,
    at 41 Hz (A_DLPF_CFG 3): as near the 6050's 42/44 Hz as it goes."""
    for dps, fs in ((250, 0), (500, 1), (1000, 2), (2000, 3)):
        for g_range, afs in ((2, 0), (4, 1), (16, 3)):
            tilt, m, i2c = rig(MPU, 0x68, part="6500")
            assert m.regs[0x6B] == 0x01 and m.regs[0x75] == 0x70  # reset
            imu = mpu6050.MPU6050(i2c, 0x68, dps=dps, g=g_range)
            assert imu.part == "MPU6500"
            assert m.regs[0x6B] == 0x01, hex(m.regs[0x6B])
            assert not m.asleep() and m.clock_source() == 1
            assert m.regs[0x19] == 9 and m.regs[0x1A] == 3
            assert m.regs[0x1B] == fs << 3, hex(m.regs[0x1B])  # FCHOICE_B 00
            assert m.regs[0x1C] == afs << 3 and m.regs[0x1D] == 0x03
            assert m.sample_rate_hz() == 100
            assert m.gyro_bandwidth_hz() == 41 and m.accel_bandwidth_hz() == 41
            assert m.gyro_full_scale_dps() == dps
            assert m.accel_lsb_per_g() == 32768 // g_range
            assert m.regs[0x38] == 0x01                        # RAW_RDY_EN
            assert m.errors == [], m.errors
            assert imu.dps == dps and imu.g == g_range


def mpu_rates_match_tilt_within_one_lsb():
    for part, dps in [(p, d) for p in PARTS for d in (250, 500, 1000, 2000)]:
        tilt, m, i2c = rig(MPU, 0x68, part=part)
        imu = mpu6050.MPU6050(i2c, dps=dps)
        lsb = 1000 / m.gyro_lsb_per_dps()
        out = [0, 0, 0]
        for rates in RATE_SETS + ((-990, 0, 985),):
            if max(abs(r) for r in rates) * 1.1 > dps:
                continue
            tilt.set_rates(*rates)
            time.sleep_ms(12)
            imu.read_rates(out)
            near(out, [int(r * 1000) for r in rates], lsb,
                 "MPU-%s at %d dps" % (part, dps))


def mpu_accel_matches_gravity_within_one_lsb():
    for part, g_range in [(p, g) for p in PARTS for g in (2, 4, 8, 16)]:
        tilt, m, i2c = rig(MPU, 0x68, axes=(0, 1), signs=(1, 1), part=part)
        imu = mpu6050.MPU6050(i2c, g=g_range)
        lsb = 1000 / m.accel_lsb_per_g()
        acc = [0, 0, 0]
        time.sleep_ms(12)
        imu.read_accel(acc)
        near(acc, (0, 0, 1000), lsb + 1, "flat, +-%d g" % g_range)
        tilt.set_tilt(45, 0)            # right edge down, 45 degrees
        time.sleep_ms(1000)
        tilt.hold_still()
        time.sleep_ms(12)
        imu.read_accel(acc)
        near(acc, tilt.gravity_mg(), lsb + 1, "tilted, +-%d g" % g_range)
        # turned a quarter, the chip's y axis points left: now up
        assert acc[1] > 600 and acc[2] > 600, acc


def mpu_read_all_is_one_big_endian_burst():
    for part in PARTS:
        tilt, m, i2c = rig(MPU, 0x68, part=part)
        imu = mpu6050.MPU6050(i2c)
        tilt.set_rates(0x0102 / 131, -1 / 131, 0)
        time.sleep_ms(12)
        raw = i2c.readfrom_mem(0x68, 0x3B, 14)
        assert raw[8:12] == bytes((0x01, 0x02, 0xFF, 0xFF)), raw
        assert raw[4:6] == bytes((0x40, 0x00)), raw    # +1 g at 16384 LSB/g
        acc = [0, 0, 0]
        rates = [0, 0, 0]
        imu.read_all(acc, rates)
        assert rates[0] == 0x0102 * 10000 // 1310 and rates[1] == -8, rates
        assert acc[2] == 1000, acc
        t = imu.temperature_centi()
        assert abs(t - 2500) <= 1, (part, t)


def mpu_6500_temperature_scale():
    """MPU-6500: TEMP_OUT = (T - 21 C) x 333.87 LSB/C (the 6050: (T -
    36.53 C) x 340), so 25 C reads 1335 there and -3920 on a 6050."""
    for part, temp_c, raw in (("6500", 25.0, 1335), ("6500", 21.0, 0),
                              ("6500", -10.0, -10350), ("6050", 25.0, -3920)):
        tilt, m, i2c = rig(MPU, 0x68, part=part)
        m.temperature_c = temp_c
        imu = mpu6050.MPU6050(i2c)
        time.sleep_ms(12)
        imu.read_all([0, 0, 0], [0, 0, 0])
        assert m.word(0x41) == raw, (part, m.word(0x41), raw)
        t = imu.temperature_centi()
        assert abs(t - int(temp_c * 100)) <= 1, (part, temp_c, t)


def mpu_sleep_gives_no_new_data():
    tilt, m, i2c = rig(mpu6050_model.MPU6050Model, 0x68)
    tilt.set_rates(10, 20, 30)
    time.sleep_ms(50)
    # never woken: the sensor registers stay as reset
    assert i2c.readfrom_mem(0x68, 0x3B, 14) == bytes(14)
    imu = mpu6050.MPU6050(i2c)
    time.sleep_ms(12)
    out = [0, 0, 0]
    imu.read_rates(out)
    near(out, (10000, 20000, 30000), 8, "awake")
    i2c.writeto_mem(0x68, 0x6B, bytes((0x41,)))        # SLEEP again
    tilt.set_rates(-1, -2, -3)
    time.sleep_ms(50)
    imu.read_rates(out)
    near(out, (10000, 20000, 30000), 8, "asleep: stale")


def mpu_device_reset_restores_defaults():
    for part, pwr, who in (("6050", 0x40, 0x68), ("6500", 0x01, 0x70)):
        tilt, m, i2c = rig(MPU, 0x68, part=part)
        mpu6050.MPU6050(i2c, dps=2000, g=16)
        i2c.writeto_mem(0x68, 0x6B, bytes((0x80,)))
        assert m.regs[0x6B] == pwr and m.regs[0x1B] == 0 and m.regs[0x1C] == 0
        assert m.regs[0x1D] == 0 and m.regs[0x19] == 0 and m.regs[0x38] == 0
        assert i2c.readfrom_mem(0x68, 0x75, 1) == bytes((who,))


def mpu_6500_is_awake_after_reset():
    """MPU-6500 PWR_MGMT_1 resets to 0x01 (the 6050's to 0x40, SLEEP): it
    samples from power-on, at 8 kHz with DLPF_CFG 0, where SMPLRT_DIV is
    not used (its gyro settled 30 ms after); INT_STATUS stays 0 until
    RAW_RDY_EN is set."""
    tilt, m, i2c = rig(MPU, 0x68, part="6500")
    assert not m.asleep() and m.sample_rate_hz() == 8000
    tilt.set_rates(10, 20, 30)
    time.sleep_ms(30)
    assert i2c.readfrom_mem(0x68, 0x43, 2) == bytes((0x05, 0x1E))   # 1310
    assert i2c.readfrom_mem(0x68, 0x3A, 1) == bytes((0,))
    i2c.writeto_mem(0x68, 0x19, bytes((9,)))
    assert m.sample_rate_hz() == 8000               # DLPF_CFG 0: no divider
    i2c.writeto_mem(0x68, 0x1A, bytes((3,)))
    assert m.sample_rate_hz() == 100 and m.gyro_bandwidth_hz() == 41
    i2c.writeto_mem(0x68, 0x1A, bytes((7,)))
    assert m.sample_rate_hz() == 8000 and m.gyro_bandwidth_hz() == 3600
    i2c.writeto_mem(0x68, 0x1A, bytes((3,)))
    i2c.writeto_mem(0x68, 0x1B, bytes((0x01,)))     # FCHOICE_B 01
    assert m.sample_rate_hz() == 32000 and m.gyro_bandwidth_hz() == 8800
    i2c.writeto_mem(0x68, 0x1B, bytes((0x02,)))     # FCHOICE_B 10
    assert m.sample_rate_hz() == 32000 and m.gyro_bandwidth_hz() == 3600
    i2c.writeto_mem(0x68, 0x1B, bytes((0x08,)))     # 500 dps, DLPF on
    assert m.sample_rate_hz() == 100 and m.gyro_full_scale_dps() == 500
    i2c.writeto_mem(0x68, 0x6B, bytes((0x41,)))     # SLEEP
    tilt.set_rates(-1, -2, -3)
    time.sleep_ms(50)
    assert i2c.readfrom_mem(0x68, 0x43, 2) == bytes((0x05, 0x1E))   # stale
    assert m.errors == [], m.errors


def mpu_6500_accel_config2_filters_the_accelerometer():
    """ACCEL_CONFIG2 (0x1D) is the 6500's own accelerometer filter:
    ACCEL_FCHOICE_B (bit 3) bypasses it, A_DLPF_CFG (bits 2:0) sets it;
    CONFIG's DLPF_CFG leaves the accelerometer alone. On a 6050, 0x1D is
    not a documented register."""
    tilt, m, i2c = rig(MPU, 0x68, part="6500")
    assert m.regs[0x1D] == 0 and m.accel_bandwidth_hz() == 460
    i2c.writeto_mem(0x68, 0x1A, bytes((6,)))
    assert m.accel_bandwidth_hz() == 460 and m.gyro_bandwidth_hz() == 5
    for value, hz in ((0x01, 184), (0x02, 92), (0x03, 41), (0x04, 20),
                      (0x05, 10), (0x06, 5), (0x07, 460), (0x0B, 1130)):
        i2c.writeto_mem(0x68, 0x1D, bytes((value,)))
        assert i2c.readfrom_mem(0x68, 0x1D, 1) == bytes((value,))
        assert m.accel_bandwidth_hz() == hz, (value, m.accel_bandwidth_hz())
    # LP_ACCEL_ODR, WOM_THR, gyro and accel offsets are registers too
    for reg in (0x1E, 0x1F, 0x13, 0x18, 0x77, 0x7E):
        i2c.writeto_mem(0x68, reg, bytes((5,)))
    assert m.errors == [], m.errors
    i2c.writeto_mem(0x68, 0x6B, bytes((0x80,)))      # H_RESET
    assert m.regs[0x1D] == 0 and m.regs[0x1E] == 0 and m.regs[0x77] == 0
    tilt, m, i2c = rig(MPU, 0x68, part="6050")
    i2c.writeto_mem(0x68, 0x1D, bytes((0x03,)))
    assert m.errors == ["write 0x03 to undocumented register 0x1d"], m.errors


def mpu_6500_standby_bits_stop_their_sensors():
    """PWR_MGMT_1 GYRO_STANDBY (bit 4) stops the gyro outputs, PD_PTAT
    (bit 3) the temperature; CLKSEL 7 stops the clock, and all sampling."""
    tilt, m, i2c = rig(MPU, 0x68, part="6500")
    imu = mpu6050.MPU6050(i2c)
    out = [0, 0, 0]
    tilt.set_rates(10, 0, 0)
    time.sleep_ms(12)
    imu.read_rates(out)
    near(out, (10000, 0, 0), 8, "running")
    m.temperature_c = 30.0
    i2c.writeto_mem(0x68, 0x6B, bytes((0x19,)))     # GYRO_STANDBY, PD_PTAT
    tilt.set_rates(-20, 0, 0)
    time.sleep_ms(12)
    imu.read_rates(out)
    near(out, (10000, 0, 0), 8, "gyro in standby: stale")
    assert m.word(0x41) == 1335                     # still 25 C
    i2c.writeto_mem(0x68, 0x6B, bytes((0x01,)))
    time.sleep_ms(12)
    imu.read_rates(out)
    near(out, (-20000, 0, 0), 8, "out of standby")
    i2c.writeto_mem(0x68, 0x6B, bytes((0x07,)))     # clock stopped
    tilt.set_rates(40, 0, 0)
    time.sleep_ms(12)
    imu.read_rates(out)
    near(out, (-20000, 0, 0), 8, "clock stopped: stale")


def mpu_first_read_after_init_has_data():
    for part in PARTS:
        tilt, m, i2c = rig(MPU, 0x68, part=part)
        tilt.set_rates(5, -6, 7)
        imu = mpu6050.MPU6050(i2c)
        out = [0, 0, 0]
        imu.read_rates(out)
        near(out, (5000, -6000, 7000), 8, "first read, MPU-" + part)


def mpu_data_ready_is_an_interrupt_status():
    """INT_STATUS shows the interrupts INT_ENABLE generates: DATA_RDY_INT
    stays 0 while DATA_RDY_EN (0x38 bit 0, reset 0) is clear."""
    tilt, m, i2c = rig(mpu6050_model.MPU6050Model, 0x68)
    i2c.writeto_mem(0x68, 0x19, bytes((9, 3)))          # 100 Hz
    i2c.writeto_mem(0x68, 0x6B, bytes((0x01,)))         # awake
    time.sleep_ms(30)
    assert i2c.readfrom_mem(0x68, 0x3A, 1) == bytes((0,))
    i2c.writeto_mem(0x68, 0x38, bytes((0x01,)))         # DATA_RDY_EN
    time.sleep_ms(12)
    assert i2c.readfrom_mem(0x68, 0x3A, 1) == bytes((0x01,))
    assert i2c.readfrom_mem(0x68, 0x3A, 1) == bytes((0,))    # read clears


def mpu_init_waits_for_the_first_sample_only():
    """The driver waits out the gyro's 30 ms start-up, then enables
    DATA_RDY_EN, so its wait ends with the next 100 Hz sample (10 ms at
    most), not at its 50 ms limit."""
    for part in PARTS:
        tilt, m, i2c = rig(MPU, 0x68, part=part)
        t0 = time.ticks_ms()
        mpu6050.MPU6050(i2c)
        waited = time.ticks_diff(time.ticks_ms(), t0) - 100   # after reset
        assert m.regs[0x38] & 0x01, hex(m.regs[0x38])
        assert 30 <= waited <= 40, (part, waited)
        assert m.errors == [], m.errors


def mpu_gyro_zero_rate_settles_in_30_ms():
    """PS-MPU-6000A 6.1: the zero-rate output is within 1 dps of its final
    value 30 ms after the gyro starts; sooner it is not (the model: 20 dps
    at the start, falling in a straight line)."""
    tilt, m, i2c = rig(MPU, 0x68)
    i2c.writeto_mem(0x68, 0x19, bytes((9, 3)))          # 100 Hz
    i2c.writeto_mem(0x68, 0x6B, bytes((0x01,)))         # awake: the gyro starts
    time.sleep_ms(11)
    i2c.readfrom_mem(0x68, 0x43, 6)                     # the 10 ms sample
    assert m.word(0x43) > 10 * 131, m.word(0x43)        # over 10 dps off
    time.sleep_ms(20)
    i2c.readfrom_mem(0x68, 0x43, 6)                     # the 30 ms sample
    for axis in range(3):
        assert abs(m.word(0x43 + 2 * axis)) <= 131, (axis, m.word(0x43 + 2 * axis))


def mpu_slower_sample_rate_keeps_sampling():
    """SMPLRT_DIV raised while awake: new data within the new period."""
    tilt, m, i2c = rig(mpu6050_model.MPU6050Model, 0x68)
    imu = mpu6050.MPU6050(i2c)
    out = [0, 0, 0]
    i2c.writeto_mem(0x68, 0x19, bytes((0,)))        # 1 kHz
    tilt.set_rates(10, 0, 0)
    time.sleep_ms(100)
    imu.read_rates(out)
    near(out, (10000, 0, 0), 8, "at 1 kHz")
    i2c.writeto_mem(0x68, 0x19, bytes((9,)))        # 100 Hz again
    tilt.set_rates(-20, 0, 0)
    time.sleep_ms(11)
    imu.read_rates(out)
    near(out, (-20000, 0, 0), 8, "at 100 Hz")


def mpu_motion_threshold_is_a_register():
    """MOT_THR (0x1F, register 31) is documented read/write."""
    tilt, m, i2c = rig(mpu6050_model.MPU6050Model, 0x68)
    i2c.writeto_mem(0x68, 0x1F, bytes((20,)))
    assert m.errors == [], m.errors
    assert i2c.readfrom_mem(0x68, 0x1F, 1) == bytes((20,))


def mpu_bad_full_scale_is_a_clear_error():
    for dps, g, words in ((300, 2, "250, 500, 1000 or 2000"),
                          (250, 3, "2, 4, 8 or 16"), (250, 0, "2, 4, 8 or 16")):
        tilt, m, i2c = rig(MPU, 0x68)
        try:
            mpu6050.MPU6050(i2c, dps=dps, g=g)
        except ValueError as e:
            assert words in str(e), str(e)
        else:
            raise AssertionError("dps=%r g=%r accepted" % (dps, g))
        assert m.asleep() and m.regs[0x6B] == 0x40 and m.regs[0x1C] == 0


def mpu_missing_chip_message():
    tilt, m, i2c = rig(mpu6050_model.MPU6050Model, 0x69)      # AD0 high
    msg = raises_oserror(lambda: mpu6050.MPU6050(i2c, 0x68))
    for part in ("MPU6050 not found", "0x68", "I2C(1", "scl=27", "sda=26",
                 "check wiring"):
        assert part in msg, msg


def mpu_wrong_who_am_i_message():
    tilt, m, i2c = rig(l3g4200d_model.L3G4200DModel, 0x68)    # SDO low
    msg = raises_oserror(lambda: mpu6050.MPU6050(i2c, 0x68))
    for part in ("MPU6050 not found", "0x68", "WHO_AM_I reads 0x00",
                 "expected 0x68 (MPU-6050) or 0x70 (MPU-6500)"):
        assert part in msg, msg
    assert m.regs[0x20] == 0x07 and m.errors == []


def mpu_other_invensense_parts_refused():
    """Only the two parts whose registers the driver was checked against:
    an MPU-9250 (0x71) or ICM-20602 (0x12) answering is refused, and
    nothing is written to it."""
    for who in (0x71, 0x12, 0x69):
        tilt, m, i2c = rig(MPU, 0x68, part="6500")
        m.regs[0x75] = who
        before = bytes(m.regs)
        msg = raises_oserror(lambda bus=i2c: mpu6050.MPU6050(bus, 0x68))
        for part in ("MPU6050 not found", "0x68", "scl=27",
                     "WHO_AM_I reads 0x%02X" % who,
                     "expected 0x68 (MPU-6050) or 0x70 (MPU-6500)"):
            assert part in msg, msg
        assert bytes(m.regs) == before and m.errors == []


def mpu_reads_allocate_nothing():
    import micropython
    for part in PARTS:
        tilt, m, i2c = rig(MPU, 0x68, part=part)
        real = mpu6050.MPU6050(i2c, dps=1000, g=4)
        tilt.set_rates(-123.4, 56.7, 0.5)
        time.sleep_ms(12)
        want_r = [0, 0, 0]
        want_a = [0, 0, 0]
        real.read_all(want_a, want_r)
        stub = RegisterBus(m.regs, 0)
        imu = mpu6050.MPU6050(stub, dps=1000, g=4)
        assert imu.part == real.part == "MPU" + part
        r = [0, 0, 0]
        a = [0, 0, 0]
        a2 = [0, 0, 0]
        micropython.heap_lock()
        try:
            imu.read_rates(r)
            imu.read_accel(a)
            imu.read_all(a2, r)
        finally:
            micropython.heap_unlock()
        assert r == want_r and a == want_a and a2 == want_a, (
            part, r, a, want_r, want_a)


# -- the tilt source -----------------------------------------------------------

def motion_maps_device_to_chip_axes():
    for axes, signs in (((1, 0), (1, -1)), ((0, 1), (1, 1)), ((2, 0), (-1, 1))):
        sim_clock.reset()
        t = tilt_model.TiltModel(axes, signs, bias_mdps=(0, 0, 0), noise_mdps=0)
        t.set_tilt(20, -7)
        r = t.rates_mdps()
        # what the app does with the board's mapping gives the tilt back
        assert r[axes[0]] * signs[0] == 20000, (axes, signs, r)
        assert r[axes[1]] * signs[1] == -7000, (axes, signs, r)
        assert r[3 - axes[0] - axes[1]] == 0, r


def motion_held_still_reads_bias_and_noise():
    sim_clock.reset()
    t = tilt_model.TiltModel(bias_mdps=(1200, -1800, 500), noise_mdps=250,
                             seed=7)
    t.hold_still()
    n = 400
    sums = [0, 0, 0]
    for _ in range(n):
        r = t.rates_mdps()
        for i in range(3):
            assert abs(r[i] - t.bias_mdps[i]) <= 250, r
            sums[i] += r[i]
    near([s // n for s in sums], (1200, -1800, 500), 40, "mean at rest")
    u = tilt_model.TiltModel(bias_mdps=(1200, -1800, 500), noise_mdps=250,
                             seed=7)
    t2 = tilt_model.TiltModel(bias_mdps=(1200, -1800, 500), noise_mdps=250,
                              seed=7)
    assert [u.rates_mdps() for _ in range(5)] == [
        t2.rates_mdps() for _ in range(5)]


def motion_scripted_motion_follows_sim_time():
    sim_clock.reset()
    t = tilt_model.TiltModel(bias_mdps=(0, 0, 0), noise_mdps=0)

    def script(t_ms):
        if t_ms < 500:
            return (90, 0)
        if t_ms < 1000:
            return (0, -45)
        return (0, 0)
    t.set_motion(script)
    time.sleep_ms(100)
    assert t.rates_mdps()[1] == 90000
    time.sleep_ms(500)
    r = t.rates_mdps()
    assert r[1] == 0 and r[0] == 45000, r      # forward -45: chip x +45 (sign -1)
    time.sleep_ms(1000)
    assert t.rates_mdps() == (0, 0, 0)


def motion_gravity_follows_the_angle():
    sim_clock.reset()
    t = tilt_model.TiltModel(bias_mdps=(0, 0, 0), noise_mdps=0)
    assert t.gravity_mg() == (0, 0, 1000)
    t.set_tilt(90, 0)
    time.sleep_ms(1000)
    t.hold_still()
    right, fwd = t.angles()
    assert abs(right - 90) < 0.01 and abs(fwd) < 0.01, (right, fwd)
    g = t.gravity_mg()
    assert g == (-1000, 0, 0), g      # right edge down: x points down
    t.level()
    assert t.gravity_mg() == (0, 0, 1000)


def motion_rejects_bad_mapping():
    for axes, signs in (((1, 1), (1, 1)), ((0, 3), (1, 1)), ((0, 1), (2, 1))):
        try:
            tilt_model.TiltModel(axes, signs)
        except ValueError:
            continue
        raise AssertionError("accepted %r %r" % (axes, signs))


# -- register-level datasheet facts of the models ------------------------------

def _words(raw):
    out = []
    for i in range(0, len(raw), 2):
        v = raw[i] << 8 | raw[i + 1]
        out.append(v - 0x10000 if v & 0x8000 else v)
    return out


def mpu_standby_bits_freeze_single_axes():
    """PWR_MGMT_2 STBY_XA (bit 5) .. STBY_ZG (bit 0): that axis keeps its
    last value, the others go on."""
    tilt, m, i2c = rig(MPU, 0x68, axes=(1, 0), signs=(1, -1))
    mpu6050.MPU6050(i2c)
    tilt.set_rates(10, 20, 30)
    time.sleep_ms(12)
    w = _words(i2c.readfrom_mem(0x68, 0x3B, 14))
    assert w[2] > 16000 and w[4:7] == [1310, 2620, 3930], w
    ax = w[0]
    i2c.writeto_mem(0x68, 0x6C, bytes((0x21,)))      # STBY_XA, STBY_ZG
    tilt.set_tilt(90, 0)                  # right edge down: chip y turns
    time.sleep_ms(1000)
    w = _words(i2c.readfrom_mem(0x68, 0x3B, 14))
    assert w[0] == ax and abs(w[2]) < 1000, w         # x held, z followed
    assert w[4:7] == [0, 11790, 3930], w              # y followed, z held


def mpu_6050_cycle_and_temp_dis_stop_their_sensors():
    """MPU-6050 PWR_MGMT_1: CYCLE (bit 5) samples the accelerometer only;
    TEMP_DIS (bit 3) stops the temperature sensor. MPU-6500: PD_PTAT (bit
    3) alone stops the temperature, not the gyro."""
    for part, pwr, gyro_runs in (("6050", 0x21, False), ("6050", 0x09, True),
                                 ("6500", 0x09, True)):
        tilt, m, i2c = rig(MPU, 0x68, part=part)
        mpu6050.MPU6050(i2c)
        tilt.set_rates(10, 0, 0)
        time.sleep_ms(12)
        temp0 = _words(i2c.readfrom_mem(0x68, 0x41, 4))[0]
        i2c.writeto_mem(0x68, 0x6B, bytes((pwr,)))
        m.temperature_c = 40.0
        tilt.set_rates(-20, 0, 0)
        time.sleep_ms(12)
        temp, gx = _words(i2c.readfrom_mem(0x68, 0x41, 4))
        assert gx == (-2620 if gyro_runs else 1310), (part, pwr, gx)
        assert (temp == temp0) == bool(pwr & 0x08), (part, pwr, temp, temp0)


def mpu_6050_dlpf_cfg_7_samples_at_8_khz():
    """Gyroscope output rate 8 kHz 'when the DLPF is disabled (DLPF_CFG =
    0 or 7)', 1 kHz otherwise; sample rate = that / (1 + SMPLRT_DIV)."""
    tilt, m, i2c = rig(MPU, 0x68)
    for cfg, div, hz in ((0, 0, 8000), (7, 0, 8000), (7, 7, 1000),
                         (1, 0, 1000), (6, 9, 100)):
        i2c.writeto_mem(0x68, 0x19, bytes((div, cfg)))
        assert m.sample_rate_hz() == hz, (cfg, div, m.sample_rate_hz())


def mpu_read_only_registers_ignore_writes():
    for part, who in (("6050", 0x68), ("6500", 0x70)):
        tilt, m, i2c = rig(MPU, 0x68, part=part)
        i2c.writeto_mem(0x68, 0x6B, bytes((0x40,)))     # asleep: no samples
        i2c.writeto_mem(0x68, 0x75, bytes((0x12,)))
        i2c.writeto_mem(0x68, 0x43, bytes((0x7F,)))
        assert i2c.readfrom_mem(0x68, 0x75, 1) == bytes((who,))
        assert i2c.readfrom_mem(0x68, 0x43, 1) == bytes((0,))
        assert m.errors == ["write 0x12 to read-only register 0x75",
                            "write 0x7f to read-only register 0x43"], m.errors


def mpu_burst_read_stays_on_fifo_r_w():
    """The register address increments after each byte, except at
    FIFO_R_W (0x74), which a burst reads again and again."""
    tilt, m, i2c = rig(MPU, 0x68)
    assert i2c.readfrom_mem(0x68, 0x73, 3) == bytes((0, 0, 0))
    assert i2c.readfrom_mem(0x68, 0x75, 1) == bytes((0x68,))


def l3g_reset_values():
    """WHO_AM_I D3h, CTRL_REG1..5 07 00 00 00 00, FIFO_SRC_REG EMPTY (bit
    5): the FIFO (bypass mode) holds nothing."""
    tilt, m, i2c = rig(l3g4200d_model.L3G4200DModel, 0x69)
    assert i2c.readfrom_mem(0x69, 0x0F, 1) == bytes((0xD3,))
    assert i2c.readfrom_mem(0x69, 0xA0, 5) == bytes((7, 0, 0, 0, 0))
    assert i2c.readfrom_mem(0x69, 0x2F, 1) == bytes((0x20,))
    i2c.writeto_mem(0x69, 0x0F, bytes((0x00,)))      # read-only
    assert i2c.readfrom_mem(0x69, 0x0F, 1) == bytes((0xD3,))
    assert m.errors == ["write 0x00 to read-only register 0x0f"], m.errors


def l3g_odr_follows_dr_bits():
    """CTRL_REG1 DR 00/01/10/11: 100/200/400/800 Hz; a new sample (ZYXDA)
    one period after power-on, not before."""
    for dr, hz in ((0, 100), (1, 200), (2, 400), (3, 800)):
        tilt, m, i2c = rig(l3g4200d_model.L3G4200DModel, 0x69)
        period = 1000000 // hz
        i2c.writeto_mem(0x69, 0x20, bytes((dr << 6 | 0x0F,)))
        time.sleep_us(period - 200)
        assert not i2c.readfrom_mem(0x69, 0x27, 1)[0] & 0x08, hz
        time.sleep_us(400)
        assert i2c.readfrom_mem(0x69, 0x27, 1)[0] & 0x08, hz


def l3g_fs_11_is_2000_dps():
    """CTRL_REG4 FS 10 and 11 both select 2000 dps, 70 mdps/digit."""
    for fs in (0x20, 0x30):
        tilt, m, i2c = rig(l3g4200d_model.L3G4200DModel, 0x69)
        l3g4200d.L3G4200D(i2c, dps=250)
        i2c.writeto_mem(0x69, 0x23, bytes((0x80 | fs,)))
        tilt.set_rates(70, 0, 0)
        time.sleep_ms(12)
        raw = i2c.readfrom_mem(0x69, 0xA8, 2)
        assert raw[0] | raw[1] << 8 == 1000, (fs, raw)
        assert m.full_scale_dps() == 2000


def l3g_boot_bit_clears_itself():
    tilt, m, i2c = rig(l3g4200d_model.L3G4200DModel, 0x69)
    i2c.writeto_mem(0x69, 0x24, bytes((0x93,)))
    assert i2c.readfrom_mem(0x69, 0x24, 1) == bytes((0x13,))


def l3g_disabled_axis_keeps_its_last_value():
    tilt, m, i2c = rig(l3g4200d_model.L3G4200DModel, 0x69)
    g = l3g4200d.L3G4200D(i2c)
    out = [0, 0, 0]
    tilt.set_rates(10, 20, 30)
    time.sleep_ms(12)
    g.read_rates(out)
    i2c.writeto_mem(0x69, 0x20, bytes((0x0E,)))      # Xen off
    tilt.set_rates(-10, -20, -30)
    time.sleep_ms(12)
    g.read_rates(out)
    near(out, (10000, -20000, -30000), 9, "X disabled")


def l3g_temperature_falls_one_digit_per_degree():
    tilt, m, i2c = rig(l3g4200d_model.L3G4200DModel, 0x69)
    l3g4200d.L3G4200D(i2c)
    seen = []
    for c in (20, 30):
        m.temperature_c = c
        v = i2c.readfrom_mem(0x69, 0x26, 1)[0]
        seen.append(v - 256 if v & 0x80 else v)
    assert seen[1] - seen[0] == -10, seen


def l3g_overrun_when_a_sample_is_overwritten_unread():
    """STATUS_REG ZYXOR (7), ZOR/YOR/XOR (6:4): new data overwrote data
    not yet read; cleared, with ZYXDA, when the outputs are read."""
    tilt, m, i2c = rig(l3g4200d_model.L3G4200DModel, 0x69)
    l3g4200d.L3G4200D(i2c)
    time.sleep_ms(12)
    i2c.readfrom_mem(0x69, 0xA8, 6)
    assert i2c.readfrom_mem(0x69, 0x27, 1) == bytes((0,))
    time.sleep_ms(11)
    assert i2c.readfrom_mem(0x69, 0x27, 1) == bytes((0x0F,))
    i2c.readfrom_mem(0x69, 0xA8, 6)
    time.sleep_ms(25)                         # two samples, none read
    assert i2c.readfrom_mem(0x69, 0x27, 1) == bytes((0xFF,))
    i2c.readfrom_mem(0x69, 0xA8, 6)
    assert i2c.readfrom_mem(0x69, 0x27, 1) == bytes((0,))


def motion_forward_tilt_moves_gravity_to_minus_y():
    """Tilting forward (far edge down) 90 degrees: the device's y axis
    points down, so the accelerometer reads -1 g on it."""
    sim_clock.reset()
    t = tilt_model.TiltModel((1, 0), (1, -1), bias_mdps=(0, 0, 0),
                             noise_mdps=0)
    t.set_tilt(0, 90)
    time.sleep_ms(1000)
    t.hold_still()
    right, fwd = t.angles()
    assert abs(right) < 0.01 and abs(fwd - 90) < 0.01, (right, fwd)
    assert t.gravity_mg() == (0, -1000, 0), t.gravity_mg()


def motion_chip_frame_is_a_rotation_of_the_device():
    """A chip whose x is reversed against the device while y is not must
    be mounted upside down (a right-handed frame): flat, it reads -1 g on z.
    Chip-frame rates turn the device by the inverse mapping."""
    sim_clock.reset()
    t = tilt_model.TiltModel((1, 0), (1, 1), bias_mdps=(0, 0, 0),
                             noise_mdps=0)
    assert t.gravity_mg() == (0, 0, -1000), t.gravity_mg()
    t = tilt_model.TiltModel((0, 1), (1, 1), bias_mdps=(0, 0, 0),
                             noise_mdps=0)
    assert t.gravity_mg() == (0, 0, 1000), t.gravity_mg()
    t.set_rates(90, 0, 0)           # chip x is the right-tilt axis here
    time.sleep_ms(1000)
    t.hold_still()
    right, fwd = t.angles()
    assert abs(right - 90) < 0.01 and abs(fwd) < 0.01, (right, fwd)


def names(prefix):
    return sorted(n for n in globals() if n.startswith(prefix))


def run(prefix):
    for n in names(prefix):
        globals()[n]()
        print("ok", n)
