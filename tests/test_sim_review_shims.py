"""host_sim's machine and time shims where MicroPython 1.29 (rp2, esp32)
refuses or encodes something: the simulator must not accept what a board
refuses, nor put different bytes on the wire."""
import pytest

import host_sim

host_sim.install()
import machine  # noqa: E402
import sim_clock  # noqa: E402
import time  # noqa: E402


class Loopback:
    """An SPI chip that answers each byte with its complement."""

    def spi_select(self):
        pass

    def spi_deselect(self):
        pass

    def spi_transfer(self, tx):
        return bytes(0xFF ^ b for b in tx)


def spi_with_chip():
    machine.forget_all()
    machine.attach_spi(0, 5, Loopback(), "loop")
    cs = machine.Pin(5, machine.Pin.OUT, value=0)
    return machine.SPI(0, baudrate=1000000), cs


def test_spi_write_readinto_needs_buffers_of_one_length():
    spi, cs = spi_with_chip()
    buf = bytearray(b"\x0f\xf0")
    spi.write_readinto(buf, buf)            # in place: allowed
    assert buf == b"\xf0\x0f"
    for n in (1, 3):
        with pytest.raises(ValueError, match="same length"):
            spi.write_readinto(b"\x01\x02", bytearray(n))


class Regs:
    """An I2C chip with a register pointer of any width (an EEPROM)."""

    def __init__(self):
        self.writes = []

    def i2c_write(self, data):
        self.writes.append(bytes(data))

    def i2c_read(self, n):
        return bytes(range(n))


def test_i2c_memory_address_width_follows_addrsize():
    machine.forget_all()
    chip = Regs()
    machine.attach_i2c(0, 0x50, chip, "eeprom")
    i2c = machine.I2C(0)
    buf = bytearray(2)
    i2c.readfrom_mem_into(0x50, 0x1234, buf, addrsize=16)
    i2c.writeto_mem(0x50, 0x0102, b"\xaa", addrsize=16)
    assert i2c.readfrom_mem(0x50, 0x010203, 1, addrsize=24) == b"\x00"
    i2c.writeto_mem(0x50, 0x1FF, b"\xbb")   # 8 bits: the low byte is sent
    assert chip.writes == [b"\x12\x34", b"\x01\x02\xaa", b"\x01\x02\x03",
                           b"\xff\xbb"]
    for bad in (12, 40):
        with pytest.raises(ValueError, match="addrsize"):
            i2c.readfrom_mem_into(0x50, 0, buf, addrsize=bad)


def test_i2c_memory_transfer_time_counts_every_address_byte():
    machine.forget_all()
    machine.attach_i2c(0, 0x50, Regs(), "eeprom")
    i2c = machine.I2C(0, freq=100000)
    sim_clock.reset()
    i2c.readfrom_mem_into(0x50, 0x1234, bytearray(4), addrsize=16)
    # START addr+W, 2 address bytes, repeated START addr+R, 4 data bytes:
    # 8 bytes of 9 clocks at 100 kHz
    assert sim_clock.now_us() == 8 * 9 * 10


def test_ticks_add_refuses_an_interval_ticks_diff_cannot_tell():
    half = 1 << 29          # the rp2 and esp32 ticks period is 2**30
    t = time.ticks_ms()
    for d in (half - 1, -(half - 1), 0, 12345, -12345):
        assert time.ticks_diff(time.ticks_add(t, d), t) == d
    for d in (half, -half, 1 << 30, -(1 << 31)):
        with pytest.raises(OverflowError):
            time.ticks_add(t, d)
