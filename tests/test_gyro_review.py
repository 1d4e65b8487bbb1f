"""Mutation review of the gyroscope drivers and their chip models: the
datasheet facts the existing checks (tests/gyro_checks.py) left open."""
import host_sim

host_sim.install()

import time  # noqa: E402

import l3g4200d  # noqa: E402
import l3g4200d_model  # noqa: E402
import mpu6050  # noqa: E402
from gyro_checks import MPU, PARTS, near, rig  # noqa: E402

L3G = l3g4200d_model.L3G4200DModel


def test_mpu_init_resets_a_chip_left_configured():
    """The chip keeps its registers while the firmware restarts (a fault,
    a soft reset): the init's DEVICE_RESET (PWR_MGMT_1 bit 7) brings them
    back to their defaults, so axes an earlier program put in standby
    (PWR_MGMT_2 STBY_XA..STBY_ZG) are live again."""
    for part in PARTS:
        tilt, m, i2c = rig(MPU, 0x68, axes=(0, 1), signs=(1, 1), part=part)
        i2c.writeto_mem(0x68, 0x6C, bytes((0x3F,)))
        imu = mpu6050.MPU6050(i2c)
        tilt.set_rates(5, -6, 7)
        time.sleep_ms(12)
        rates = [0, 0, 0]
        acc = [0, 0, 0]
        imu.read_all(acc, rates)
        near(rates, (5000, -6000, 7000), 8, "MPU-%s rates" % part)
        near(acc, (0, 0, 1000), 1, "MPU-%s flat" % part)


def test_l3g_rates_past_full_scale_saturate_with_their_sign():
    """Turned faster than the full scale, the outputs stop at the ends of
    16-bit two's complement, -32768 and +32767 digits (little-endian, BLE
    0); the driver keeps the sign there: -32768 x 8.75 mdps, not +."""
    tilt, m, i2c = rig(L3G, 0x69)
    g = l3g4200d.L3G4200D(i2c, dps=250)
    tilt.set_rates(-400, 400, 0)
    time.sleep_ms(12)
    assert i2c.readfrom_mem(0x69, 0xA8, 4) == bytes((0x00, 0x80, 0xFF, 0x7F))
    out = [0, 0, 0]
    g.read_rates(out)
    assert out[0] == -32768 * 875 // 100 and out[1] == 32767 * 875 // 100, out


def test_mpu_rates_past_full_scale_saturate_with_their_sign():
    """The same on the MPUs: big-endian -32768 (0x8000) and +32767
    (0x7FFF) at 131 LSB per dps."""
    for part in PARTS:
        tilt, m, i2c = rig(MPU, 0x68, part=part)
        imu = mpu6050.MPU6050(i2c, dps=250)
        tilt.set_rates(-400, 400, 0)
        time.sleep_ms(12)
        assert i2c.readfrom_mem(0x68, 0x43, 4) == bytes((0x80, 0, 0x7F, 0xFF))
        out = [0, 0, 0]
        imu.read_rates(out)
        assert out[:2] == [-32768 * 10000 // 1310, 32767 * 10000 // 1310], out


def test_l3g_write_without_auto_increment_stays_on_one_register():
    """SUB's MSB clear: every byte of a multi-byte write goes to the same
    register (the last one stays), the next register is left alone."""
    tilt, m, i2c = rig(L3G, 0x69)
    i2c.writeto_mem(0x69, 0x23, bytes((0x10, 0x20)))
    assert i2c.readfrom_mem(0x69, 0xA3, 2) == bytes((0x20, 0x00))
    assert m.full_scale_dps() == 2000 and m.errors == [], m.errors
