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


def test_ticks_wrap_at_2_30_and_ticks_diff_of_half_a_period_is_negative():
    """MicroPython's ticks (rp2, esp32): values modulo 2**30; ticks_diff
    answers in [-2**29, 2**29 - 1]."""
    sim_clock.reset(((1 << 30) + 5) * 1000)
    assert time.ticks_ms() == 5
    sim_clock.reset((1 << 30) + 7)
    assert time.ticks_us() == 7
    half = 1 << 29
    assert time.ticks_diff(half, 0) == -half
    assert time.ticks_diff(half - 1, 0) == half - 1
    assert time.ticks_diff(3, (1 << 30) - 2) == 5
    sim_clock.reset()


def test_sim_clock_timers_fire_in_order_each_at_its_own_time():
    sim_clock.reset()
    seen = []
    for due, name in ((100, "b"), (50, "a"), (101, "c")):
        sim_clock.call_at(due, lambda n=name: seen.append(
            (n, sim_clock.now_us())))
    sim_clock.advance_us(100)               # due at the end: fires too
    assert seen == [("a", 50), ("b", 100)] and sim_clock.now_us() == 100
    sim_clock.reset()
    sim_clock.advance_us(1000)
    assert len(seen) == 2                   # reset forgot the timer at 101
    sim_clock.set_real(True)
    try:
        sim_clock.advance_us(-5)            # a negative sleep is no sleep
    finally:
        sim_clock.set_real(False)
        sim_clock.reset()


def test_on_the_wall_clock_the_firmware_reads_no_time_its_events_have_not_reached(
        monkeypatch):
    """The wall clock runs on while the firmware computes; the timers (a
    script's key release, say) fire only when the clock is advanced. A
    firmware busy past a release that then read the time saw a key still
    held at it, and its auto-repeat stepped once more (a busy host turned
    a scripted tap into two steps). The firmware's clock reads fire the
    timers due first; the models' own reads (now_us) do not."""
    wall = [10 ** 9]
    monkeypatch.setattr(sim_clock, "_wall_us", lambda: wall[0])
    sim_clock.reset()
    sim_clock.set_real(True)
    try:
        seen = []
        t0 = sim_clock.now_us()
        sim_clock.call_at(t0 + 150000, lambda: seen.append("released"))
        wall[0] += 400000               # busy: no sleep, no bus transfer
        assert sim_clock.now_us() == t0 + 400000 and seen == []
        assert time.ticks_ms() == (t0 + 400000) // 1000 % (1 << 30)
        assert seen == ["released"]
        sim_clock.call_at(t0 + 500000, lambda: seen.append("later"))
        time.ticks_us()                 # not due yet
        assert seen == ["released"]
    finally:
        sim_clock.set_real(False)
        sim_clock.reset()


def test_pin_levels_follow_mode_pull_and_open_drain():
    machine.forget_all()
    P = machine.Pin
    assert P(1, P.IN, P.PULL_DOWN).value() == 0
    assert P(2, P.IN, P.PULL_UP).value() == 1
    p = P(3, P.IN, P.PULL_UP)
    p.value(0)                              # sets the output latch only
    assert p.value() == 1
    od = P(4, P.OPEN_DRAIN, P.PULL_UP, value=0)
    assert od.value() == 0
    od.value(1)                             # released: the pull-up
    assert od.value() == 1


def test_pin_irq_fires_on_the_edges_asked_for_and_watchers_on_changes():
    machine.forget_all()
    P = machine.Pin
    p = P(6, P.IN, P.PULL_UP)
    seen = []
    p.irq(lambda pin: seen.append(("r", pin.value())), trigger=P.IRQ_RISING)
    machine.drive_pin(6, 0)
    machine.drive_pin(6, None)
    assert seen == [("r", 1)]
    p.irq(lambda pin: seen.append(("f", pin.value())), trigger=P.IRQ_FALLING)
    machine.drive_pin(6, 0)
    machine.drive_pin(6, None)
    assert seen == [("r", 1), ("f", 0)]
    levels = []
    machine.watch_pin(7, levels.append)
    q = P(7, P.OUT, value=1)
    for v in (1, 0, 0, 1):
        q.value(v)
    assert levels == [0, 1]                 # changes only, once each


def test_a_detached_chip_sees_neither_its_cs_nor_the_clock():
    """detach_spi: a module off its header. The bus then reads 0xFF, and the
    chip is neither selected nor sent bytes; another chip on the bus is."""
    class Chip(Loopback):
        def __init__(self):
            self.log = []

        def spi_select(self):
            self.log.append("select")

        def spi_deselect(self):
            self.log.append("deselect")

        def spi_transfer(self, tx):
            self.log.append(bytes(tx))
            return super().spi_transfer(tx)
    machine.forget_all()
    gone, stays = Chip(), Chip()
    machine.attach_spi(0, 5, gone, "gone")
    machine.attach_spi(0, 6, stays, "stays")
    machine.detach_spi(0, 5)
    spi = machine.SPI(0, baudrate=1000000)
    cs, cs2 = machine.Pin(5, machine.Pin.OUT, value=1), machine.Pin(6, machine.Pin.OUT, value=1)
    cs(0)
    assert spi.read(2, 0x0F) == b"\xff\xff"
    cs(1)
    cs2(0)
    assert spi.read(1, 0x0F) == b"\xf0"
    cs2(1)
    assert gone.log == [] and stays.log == ["select", b"\x0f", "deselect"]


def test_spi_byte_takes_8_clocks_and_a_bus_nobody_drives_reads_ff():
    spi, cs = spi_with_chip()
    sim_clock.reset()
    spi.write(b"\x00" * 10)                 # 80 clocks at 1 MHz
    assert sim_clock.now_us() == 80
    cs(1)
    assert spi.read(2, 0x00) == b"\xff\xff"


@pytest.mark.parametrize("call", [
    lambda: machine.I2C(1, machine.Pin(27), machine.Pin(26)),
    lambda: machine.I2C(1, frequency=100000),
    lambda: machine.I2C(0).readfrom_mem(0x50, 0, 1, 16),
    lambda: machine.I2C(0).readfrom_mem_into(0x50, 0, bytearray(1), 16),
    lambda: machine.I2C(0).writeto_mem(0x50, 0, b"\x00", 16),
    lambda: machine.SPI(0, 1000000, 1, 1),
    lambda: machine.SPI(0, baudrate=1000000, sclk=machine.Pin(6)),
    lambda: machine.SPI(0).init(2000000),
    lambda: machine.Pin(5, machine.Pin.OUT, None, 1),
    lambda: machine.Pin(5, machine.Pin.OUT, valeu=1),
    lambda: machine.Pin(5).init(machine.Pin.OUT, None, 1),
    lambda: machine.Pin(6).irq(lambda p: None, priority=1),
])
def test_arguments_a_board_refuses_are_refused(call):
    """rp2 and esp32 take scl, sda, polarity, phase, value and addrsize by
    keyword only, and no keyword they do not know: I2C(1, Pin(27),
    Pin(26)) or SPI(0, sclk=...) ran here and raised TypeError on a board
    (I2C(1, 100000), rp2's freq, was read as scl=100000 at 400 kHz)."""
    machine.forget_all()
    machine.attach_i2c(0, 0x50, Regs(), "eeprom")
    with pytest.raises(TypeError):
        call()


def test_pin_irq_with_no_arguments_keeps_the_handler():
    """pin.irq() only returns the pin's irq object on a board; it took the
    handler away here."""
    machine.forget_all()
    P = machine.Pin
    p = P(6, P.IN, P.PULL_UP)
    seen = []
    p.irq(seen.append, trigger=P.IRQ_FALLING)
    p.irq()
    machine.drive_pin(6, 0)
    assert seen == [p]
    p.irq(None)
    machine.drive_pin(6, None)
    machine.drive_pin(6, 0)
    assert seen == [p]


def test_pwm_drives_a_pin_that_was_never_an_output():
    """PWM(Pin(n)) drives the pin whatever its mode; at duty 0 it read as
    the pin's floating input here (1: a backlight lit that is dark)."""
    machine.forget_all()
    pwm = machine.PWM(machine.Pin(13), duty_u16=0)
    assert machine.pin_level(13) == 0
    pwm.duty_u16(65535)
    assert machine.pin_level(13) == 1


def test_pwm_duty_zero_holds_the_pin_low():
    machine.forget_all()
    pin = machine.Pin(13, machine.Pin.OUT, value=1)
    pwm = machine.PWM(pin, duty_u16=0)
    assert machine.pin_level(13) == 0
    pwm.duty_u16(30000)
    assert machine.pin_level(13) == 1 and pwm.duty_u16() == 30000


# ---- what a board does that the simulator did otherwise -------------------

@pytest.mark.parametrize("call", [lambda: time.sleep_ms(1.5),
                                  lambda: time.sleep_us(2.5),
                                  lambda: time.ticks_add(time.ticks_ms(), 2.5),
                                  lambda: time.ticks_diff(1.0, 0)])
def test_time_takes_no_float_where_micropython_takes_none(call):
    """`sleep_ms(ms / 2)` raises TypeError on a board: it must here too,
    not pass in the simulator and crash on the handheld."""
    with pytest.raises(TypeError, match="can't convert float to int"):
        call()


def test_an_output_pin_never_written_drives_low():
    """Pin(n, Pin.OUT) without value= drives its latch, 0 after a reset on
    rp2 and esp32 (a chip select left so selects its chip); it read as the
    pull-up here, and toggle() then did nothing."""
    machine.forget_all()
    p = machine.Pin(13, machine.Pin.OUT)
    assert p.value() == 0
    p.toggle()
    assert p.value() == 1
    assert machine.Pin(14, machine.Pin.OUT, value=1).value() == 1


def test_spi_init_keeps_what_it_is_not_given():
    """As rp2's SPI.init (lcd_base slows the bus for reads with
    init(baudrate=...)): the other settings stay."""
    machine.forget_all()
    spi = machine.SPI(1, baudrate=40000000, polarity=1, phase=1)
    spi.init(baudrate=10000000)
    assert (spi.baudrate, spi.polarity, spi.phase) == (10000000, 1, 1)
    spi.init(polarity=0)
    assert (spi.baudrate, spi.polarity, spi.phase) == (10000000, 0, 1)


@pytest.mark.parametrize("cls, args", [("SoftI2C", (machine.Pin(27), machine.Pin(26))),
                                       ("SoftSPI", ())])
def test_soft_buses_are_refused_not_misread(cls, args):
    """SoftI2C(scl, sda) was taken as I2C(id=scl, scl=sda): a bus with no
    chip on it, and no word why."""
    with pytest.raises(NotImplementedError, match="no %s" % cls):
        getattr(machine, cls)(*args)


def test_an_event_left_from_a_run_stopped_early_does_not_fire_in_the_next(tmp_path):
    import board_sim
    from host_sim import device
    dev = device.Device(board_sim, str(tmp_path / "flash"))
    script = device.Script.parse("wait 1500\nshot left_over.png\n")
    dev.run(script, until_ms=1000, shots_dir=str(tmp_path))
    dev.run(until_ms=3000, shots_dir=str(tmp_path))
    assert dev.shots == [] and not (tmp_path / "left_over.png").exists()


def test_a_headless_wireless_run_repeats_exactly(tmp_path):
    """Hosting a match mixes `random` into the session id: the same script
    on the virtual clock must put the same bytes on every bus."""
    import board_sim
    from host_sim import device
    from test_match_sim_pair import menu_to_wireless
    script = "\n".join(menu_to_wireless() +
                       ["wait 400", "tap place 150", "wait 1000"]) + "\n"
    traces = []
    for k in range(2):
        dev = device.Device(board_sim, str(tmp_path / ("flash%d" % k)))
        dev.trace_to(str(tmp_path / ("bus%d.jsonl" % k)))
        dev.run(device.Script.parse(script))
        dev.close()
        traces.append((tmp_path / ("bus%d.jsonl" % k)).read_text())
        assert "Hosting a game" in " ".join(dev.screen_text())
    assert traces[0] == traces[1]


def test_two_simulators_on_one_flash_folder_are_refused(tmp_path):
    """They would overwrite each other's saves (a UDP pair without --flash
    shared build/flash-<board>: the joiner's match save was lost)."""
    from host_sim import __main__ as cli
    flash = tmp_path / "flash"
    flash.mkdir()
    held = cli.hold_flash(str(flash))
    try:
        with pytest.raises(SystemExit, match="another simulator is using it"):
            cli.main(["--headless", "--until", "100", "--flash", str(flash),
                      "--shots", str(tmp_path)])
    finally:
        held.close()
    assert cli.main(["--headless", "--until", "100", "--flash", str(flash),
                     "--shots", str(tmp_path)]) == 0


def test_arguments_refused_before_anything_is_made(tmp_path):
    from host_sim import __main__ as cli
    with pytest.raises(SystemExit, match="--peer needs --udp"):
        cli.main(["--headless", "--until", "100", "--peer", "5000",
                  "--flash", str(tmp_path / "f"), "--shots", str(tmp_path / "s")])
    assert not (tmp_path / "f").exists() and not (tmp_path / "s").exists()


def test_the_clock_goes_on_from_where_it_is_across_the_wall_clock():
    """Leaving the wall clock put the time back to where it was entered,
    and a reset on it did not start from 0."""
    sim_clock.reset(1000)
    try:
        sim_clock.set_real(True)
        sim_clock.wall_sleep(0.02)
        was = sim_clock.now_us()
        assert was >= 21000
        sim_clock.set_real(False)
        assert sim_clock.now_us() >= was
        sim_clock.set_real(True)
        sim_clock.reset()
        assert 0 <= sim_clock.now_us() < 20000
    finally:
        sim_clock.set_real(False)
        sim_clock.reset()
