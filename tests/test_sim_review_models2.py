"""Chip models against their datasheets, second review: the SPI clock each
chip accepts (told by the machine shim), the LCDs' SLPIN/SLPOUT spacing and
reset time in Sleep Out, the ILI9341's ID reads, and the L3G4200D's stated
rule for clearing its data-available bits. Each check both ways: the model
notes the bad sequence and stays quiet for the good one."""
import pytest

import host_sim

host_sim.install()
import machine  # noqa: E402
import sim_clock  # noqa: E402
import mipi_dcs_model as dcs  # noqa: E402
import st7789_model  # noqa: E402
import ili9341_model  # noqa: E402
import nrf24l01_model as N  # noqa: E402
import l3g4200d_model as L  # noqa: E402
import test_display_models  # noqa: E402
import test_sim_review_shims  # noqa: E402
import tilt_model  # noqa: E402

CS, DC, RST, BL = 9, 8, 12, 13


# ---- the shim's clock hook ---------------------------------------------------
class Listener(test_sim_review_shims.Loopback):
    """An SPI chip that keeps what the shim tells it about the clock."""

    def __init__(self):
        self.clocks = []

    def spi_clock(self, hz, reads):
        self.clocks.append((hz, reads))


def test_shim_tells_the_model_the_rate_and_direction_of_each_transfer():
    machine.forget_all()
    chip = Listener()
    machine.attach_spi(0, 5, chip, "chip")
    cs = machine.Pin(5, machine.Pin.OUT, value=1)
    spi = machine.SPI(0, baudrate=4000000)
    spi.write(b"\x01")                  # CS high: not this chip's transfer
    assert chip.clocks == []
    cs(0)
    spi.write(b"\x01\x02")
    spi.read(1)
    spi.readinto(bytearray(2))
    spi.init(baudrate=20000000)
    spi.write_readinto(b"\x00", bytearray(1))
    spi.write(b"\x03")
    cs(1)
    assert chip.clocks == [(4000000, False), (4000000, True), (4000000, True),
                           (20000000, True), (20000000, False)]


def test_shim_runs_models_without_the_hook():
    machine.forget_all()
    # the shim tests' chip, which has no spi_clock
    machine.attach_spi(0, 5, test_sim_review_shims.Loopback(), "plain")
    machine.Pin(5, machine.Pin.OUT, value=0)
    assert machine.SPI(0, baudrate=1000000).read(2, 0x0F) == b"\xf0\xf0"


# ---- nRF24L01(+) SPI clock -----------------------------------------------------
def radio(plus, hz):
    machine.forget_all()
    sim_clock.reset()
    m = N.NRF24L01Model(14, 22, None, "nrf", plus=plus)
    machine.attach_spi(0, 5, m, "nrf")
    cs = machine.Pin(5, machine.Pin.OUT, value=1)
    spi = machine.SPI(0, baudrate=hz)
    cs(0)
    rx = bytearray(2)
    spi.write_readinto(bytes([N.R_REGISTER | N.CONFIG, 0xFF]), rx)
    cs(1)
    assert rx[1] == 0x08                # the chip still answers
    return m


@pytest.mark.parametrize("plus, fast_ok, too_fast", [
    (True, 10000000, 10000001),         # nRF24L01+: 0-10 Mbps
    (False, 8000000, 8000001),          # nRF24L01: 0-8 Mbps
    (False, 8000000, 10000000),         # 10 MHz is the + only
])
def test_nrf24l01_spi_clock_limit_is_the_parts(plus, fast_ok, too_fast):
    assert radio(plus, 4000000).violations == []
    assert radio(plus, fast_ok).violations == []
    v = radio(plus, too_fast).violations
    assert len(v) == 1 and "SPI clock %d Hz" % too_fast in v[0]
    assert ("nRF24L01+'s 10 Mbps" if plus else "nRF24L01's 8 Mbps") in v[0]


def test_nrf24l01_notes_a_rate_once():
    m = radio(True, 16000000)
    machine.Pin(5)(0)
    machine.SPI(0).write(bytes([N.NOP]))
    machine.Pin(5)(1)
    assert len(m.violations) == 1


# ---- LCDs ------------------------------------------------------------------------
class Host(test_display_models.Host):
    """test_display_models' host, with a read clocked at any rate and a
    reset followed by any wait."""

    def read(self, c, n, hz=None, keep=True):
        """A read command; its answer clocked at `hz` (the bus's rate if
        None), kept by the host (read) or dropped (write)."""
        self.cs(0)
        self.dc(0)
        self.spi.write(bytes([c]))
        self.dc(1)
        if hz:
            self.spi.init(baudrate=hz)
        if keep:
            rx = self.spi.read(n)
        else:
            self.spi.write(bytes(n))
            rx = None
        self.spi.init(baudrate=self.hz)
        self.cs(1)
        return rx

    def hw_reset(self, wait_ms=120):
        self.rst(0)
        sim_clock.advance_us(20)
        self.rst(1)
        sim_clock.advance_us(wait_ms * 1000)


def st(hz=40000000):
    return Host(lambda: st7789_model.ST7789Model(DC, RST, BL), hz)


def ili(hz=10000000):
    return Host(lambda: ili9341_model.ILI9341Model(DC, RST, BL), hz)


LCDS = {"st7789": st, "ili9341": ili}
# chip: (fastest write, fastest read) its datasheet allows
LIMITS = {"st7789": (62500000, 6666666), "ili9341": (10000000, 6666666)}


def clock_errors(m):
    return [e for e in m.errors if "SPI clock" in e]


@pytest.mark.parametrize("chip", sorted(LCDS))
def test_lcd_writes_at_the_datasheet_limit_are_fine(chip):
    w, r = LIMITS[chip]
    h = LCDS[chip](w)
    h.boot()
    h.cmd(dcs.CASET, [0, 0, 0, 9])
    h.cmd(dcs.RAMWR, bytes(20))
    assert h.read(dcs.RDDPM, 1, hz=r) == b"\x9c"
    assert h.m.errors == []


@pytest.mark.parametrize("chip", sorted(LCDS))
def test_lcd_writes_faster_than_the_write_cycle_are_noted(chip):
    w, r = LIMITS[chip]
    h = LCDS[chip](w + 1)
    h.boot()
    h.cmd(dcs.RAMWR, bytes(20))
    errs = clock_errors(h.m)
    assert len(errs) == 1                       # once per rate
    assert "SPI clock %d Hz" % (w + 1) in errs[0] and "write" in errs[0]
    assert not h.m.sleeping and h.m.display_on  # noted, not refused


@pytest.mark.parametrize("chip", sorted(LCDS))
def test_lcd_reads_faster_than_the_read_cycle_are_noted(chip):
    w, r = LIMITS[chip]
    h = LCDS[chip](w)
    h.boot()
    assert h.read(dcs.RDDPM, 1, hz=r + 1) == b"\x9c"
    errs = clock_errors(h.m)
    assert len(errs) == 1 and "SPI clock %d Hz" % (r + 1) in errs[0]
    assert "read cycle's 150 ns" in errs[0]


@pytest.mark.parametrize("chip", sorted(LCDS))
def test_lcd_read_limit_applies_only_to_bytes_the_host_keeps(chip):
    # the same fast clock on a read command's answer, written over (the
    # host drops MISO), and on the command byte itself: write cycles
    w, r = LIMITS[chip]
    h = LCDS[chip](w)
    h.boot()
    h.read(dcs.RDDPM, 1, hz=w, keep=False)
    h.spi.init(baudrate=r + 1)
    h.read(dcs.RDDPM, 1, hz=r)                  # command byte at r + 1
    assert h.m.errors == []


def test_st7789_writes_at_40_mhz_like_the_boards_are_fine_ili9341_not():
    h = st(40000000)
    h.boot()
    assert h.m.errors == []
    h = ili(40000000)
    h.boot()
    assert len(clock_errors(h.m)) == 1


# ---- SLPIN / SLPOUT spacing ----------------------------------------------------
@pytest.mark.parametrize("chip", sorted(LCDS))
@pytest.mark.parametrize("first, second, said", [
    (dcs.SLPOUT, dcs.SLPIN, ("SLPIN", "after SLPOUT (needs 120 ms)")),
    (dcs.SLPIN, dcs.SLPOUT, ("SLPOUT 119000 us after SLPIN (needs 120 ms)",)),
], ids=["slpin-after-slpout", "slpout-after-slpin"])
def test_sleep_in_and_out_within_120_ms_of_each_other_are_noted(
        chip, first, second, said):
    h = LCDS[chip]()
    if first == dcs.SLPOUT:
        h.hw_reset()            # asleep: SLPOUT wakes it
    else:
        h.boot()                # awake: SLPIN puts it to sleep
    h.cmd(first, wait_ms=119)
    h.cmd(second)
    assert len(h.m.errors) == 1 and all(s in h.m.errors[0] for s in said)
    assert h.m.sleeping == (second == dcs.SLPIN)


@pytest.mark.parametrize("chip", sorted(LCDS))
def test_sleep_in_and_out_120_ms_apart_are_fine(chip):
    h = LCDS[chip]()
    h.boot()
    h.cmd(dcs.SLPIN, wait_ms=120)
    h.cmd(dcs.SLPOUT, wait_ms=120)
    h.cmd(dcs.SLPIN, wait_ms=120)
    h.cmd(dcs.SLPOUT, wait_ms=5)
    assert h.m.errors == [] and not h.m.sleeping


@pytest.mark.parametrize("chip", sorted(LCDS))
def test_repeated_sleep_commands_that_change_nothing_start_no_wait(chip):
    # "no effect when already in sleep in/out mode": only the SLPIN that put
    # the chip to sleep (or the SLPOUT that woke it) counts
    h = LCDS[chip]()
    h.boot()
    h.cmd(dcs.SLPOUT, wait_ms=10)               # already awake
    h.cmd(dcs.SLPIN, wait_ms=10)                # 130 ms after the wake-up
    h.cmd(dcs.SLPIN, wait_ms=115)               # already asleep
    h.cmd(dcs.SLPOUT)                           # 125 ms after going to sleep
    assert h.m.errors == [] and not h.m.sleeping


# ---- hardware reset in Sleep Out ------------------------------------------------
@pytest.mark.parametrize("chip", sorted(LCDS))
def test_reset_in_sleep_out_takes_120_ms(chip):
    h = LCDS[chip]()
    h.boot()
    assert not h.m.sleeping
    h.hw_reset(wait_ms=119)
    h.cmd(dcs.MADCTL, [0x40])                   # 119 ms: still busy
    assert h.m.madctl == 0 and "too early" in h.m.errors[-1]
    n = len(h.m.errors)
    sim_clock.advance_us(1000)
    h.cmd(dcs.MADCTL, [0x40])
    h.cmd(dcs.SLPOUT, wait_ms=5)
    assert h.m.madctl == 0x40 and not h.m.sleeping and len(h.m.errors) == n


@pytest.mark.parametrize("chip", sorted(LCDS))
def test_reset_in_sleep_in_takes_5_ms(chip):
    h = LCDS[chip]()
    h.boot()
    h.cmd(dcs.SLPIN, wait_ms=120)
    h.hw_reset(wait_ms=4)
    h.cmd(dcs.MADCTL, [0x40])
    assert h.m.madctl == 0 and "too early" in h.m.errors[-1]
    n = len(h.m.errors)
    sim_clock.advance_us(1000)
    h.cmd(dcs.MADCTL, [0x40])
    assert h.m.madctl == 0x40 and len(h.m.errors) == n


# ---- ID reads ------------------------------------------------------------------
def rddid(h):
    rx = h.read(dcs.RDDID, 4, hz=4000000)
    return ((rx[0] << 24 | rx[1] << 16 | rx[2] << 8 | rx[3]) >> 7) & 0xFFFFFF


@pytest.mark.parametrize("chip, ids", [("ili9341", (0x00, 0x80, 0x00)),
                                       ("st7789", (0x85, 0x85, 0x52))])
def test_rddid_and_rdid1_to_rdid3(chip, ids):
    h = LCDS[chip]()
    h.boot()
    assert rddid(h) == ids[0] << 16 | ids[1] << 8 | ids[2]
    got = tuple(h.read(c, 1, hz=4000000)[0] for c in (0xDA, 0xDB, 0xDC))
    assert got == ids
    assert h.m.unknown == [] and h.m.errors == []


# ---- L3G4200D: the stated clearing rule ------------------------------------------
def test_l3g4200d_documents_and_follows_its_data_available_rule():
    assert "AN3393" in L.__doc__ and "assumption" in L.__doc__
    sim_clock.reset()
    m = L.L3G4200DModel(tilt_model.TiltModel())
    m.i2c_write(bytes([L.CTRL_REG1, 0x0F]))     # 100 Hz, X/Y/Z on
    sim_clock.advance_us(10000)

    def status():
        m.i2c_write(bytes([L.STATUS_REG]))
        return m.i2c_read(1)[0]

    def read(addr, n=1):
        m.i2c_write(bytes([addr | (L.AUTO_INCREMENT if n > 1 else 0)]))
        return m.i2c_read(n)

    assert status() == 0x0F                     # ZYXDA, ZDA, YDA, XDA
    read(L.OUT_X_L)                             # low byte: clears nothing
    assert status() == 0x0F
    read(L.OUT_X_L + 1)                         # OUT_X_H: XDA (and ZYXDA)
    assert status() == 0x06
    read(L.OUT_X_L + 2, 4)                      # Y and Z, high bytes too
    assert status() == 0x00
    m.i2c_write(bytes([L.CTRL_REG4, 0x40]))     # BLE: high byte first
    sim_clock.advance_us(10000)
    assert status() == 0x0F
    read(L.OUT_X_L + 1)                         # now the low byte
    assert status() == 0x0F
    read(L.OUT_X_L)
    assert status() == 0x06
