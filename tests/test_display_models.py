"""The LCD chip models on their own: raw command streams as the ST7789V and
ILI9341 datasheets define them, no driver involved."""
import pytest

import host_sim

host_sim.install()
import machine  # noqa: E402
import sim_clock  # noqa: E402
import mipi_dcs_model as dcs  # noqa: E402
import st7789_model  # noqa: E402
import ili9341_model  # noqa: E402

CS, DC, RST, BL = 9, 8, 12, 13


# the bus's clocks within the datasheets' serial cycles: reads at 4 MHz (read
# cycle >= 150 ns on both), writes at 40 MHz on the ST7789 (>= 16 ns) and
# 10 MHz on the ILI9341 (>= 100 ns), as the driver and the boards run them
READ_HZ = 4000000
ST7789_HZ = 40000000
ILI9341_HZ = 10000000


class Host:
    """Bytes on the wire: CS low per command with its parameters, written
    at `hz` and read at READ_HZ."""

    def __init__(self, make, hz):
        machine.forget_all()        # before the model watches its pins
        sim_clock.reset()
        self.m = model = make()
        machine.attach_spi(1, CS, model, "lcd", dc=DC)
        self.hz = hz
        self.spi = machine.SPI(1, baudrate=hz)
        self.cs = machine.Pin(CS, machine.Pin.OUT, value=1)
        self.dc = machine.Pin(DC, machine.Pin.OUT, value=0)
        self.rst = machine.Pin(RST, machine.Pin.OUT, value=1)
        self.bl = machine.Pin(BL, machine.Pin.OUT, value=1)

    def cmd(self, c, data=b"", wait_ms=0):
        self.cs(0)
        self.dc(0)
        self.spi.write(bytes([c]))
        if data:
            self.dc(1)
            self.spi.write(bytes(data))
        self.cs(1)
        if wait_ms:
            sim_clock.advance_us(wait_ms * 1000)

    def read(self, c, n):
        self.cs(0)
        self.dc(0)
        self.spi.write(bytes([c]))
        self.dc(1)
        self.spi.init(baudrate=READ_HZ)
        rx = self.spi.read(n)
        self.spi.init(baudrate=self.hz)
        self.cs(1)
        return rx

    def window(self, x0, x1, y0, y1):
        self.cmd(dcs.CASET, [x0 >> 8, x0 & 255, x1 >> 8, x1 & 255])
        self.cmd(dcs.RASET, [y0 >> 8, y0 & 255, y1 >> 8, y1 & 255])

    def hw_reset(self):
        """A 20 us RESX pulse, then the 120 ms before SLPOUT is allowed."""
        self.rst(0)
        sim_clock.advance_us(20)
        self.rst(1)
        sim_clock.advance_us(120000)

    def boot(self, madctl=0, colmod=0x55, inv=True):
        self.hw_reset()
        self.cmd(dcs.SLPOUT, wait_ms=120)
        self.cmd(dcs.COLMOD, [colmod])
        self.cmd(dcs.MADCTL, [madctl])
        self.cmd(dcs.INVON if inv else dcs.INVOFF)
        self.cmd(dcs.DISPON)


def st(**kw):
    return Host(lambda: st7789_model.ST7789Model(DC, RST, BL, **kw),
                ST7789_HZ)


def ili(**kw):
    return Host(lambda: ili9341_model.ILI9341Model(DC, RST, BL, **kw),
                ILI9341_HZ)


def pixels(*colors):
    out = bytearray()
    for c in colors:
        out += bytes([c >> 8, c & 255])
    return out


def test_dark_until_sleep_out_and_display_on():
    h = st()
    m = h.m
    h.hw_reset()
    h.cmd(dcs.COLMOD, [0x55])
    h.cmd(dcs.INVON)
    h.window(0, 0, 0, 0)
    h.cmd(dcs.RAMWR, pixels(0xF800))
    assert m.ram_pixel(0, 0) == 0xF800      # memory works in sleep mode
    assert m.pixel(0, 0) == 0 and not m.lit()
    h.cmd(dcs.SLPOUT, wait_ms=120)
    assert m.pixel(0, 0) == 0               # still DISPOFF
    h.cmd(dcs.DISPON)
    assert m.pixel(0, 0) == 0xF800
    h.bl(0)
    assert m.pixel(0, 0) == 0               # backlight off
    h.bl(1)
    h.cmd(dcs.DISPOFF)
    assert m.pixel(0, 0) == 0
    assert m.errors == []


def test_commands_too_soon_after_reset_are_ignored_and_noted():
    h = st()
    h.rst(0)
    sim_clock.advance_us(20)
    h.rst(1)
    h.cmd(dcs.SLPOUT)                      # no 5 ms wait
    assert h.m.sleeping
    assert "too early" in h.m.errors[0]
    sim_clock.advance_us(10000)
    h.cmd(dcs.SLPOUT)                      # 10 ms: before the 120 ms
    assert h.m.sleeping
    assert "needs 120 ms" in h.m.errors[-1]


def test_short_reset_pulse_does_not_reset():
    h = st()
    h.boot()
    h.rst(0)
    sim_clock.advance_us(3)
    h.rst(1)
    assert not h.m.sleeping and "RST pulse" in h.m.errors[-1]
    h.rst(0)
    assert not h.m.lit()                    # held in reset: dark
    sim_clock.advance_us(20)
    h.rst(1)
    assert h.m.sleeping and h.m.madctl == 0 and h.m.colmod == 0x66


def test_swreset_keeps_madctl_and_colmod_and_needs_120ms_before_slpout():
    # the datasheets' default tables: MADCTL and COLMOD "S/W Reset: No
    # change"; the rest as after a hardware reset, the window's ends as MV
    # turns the RAM
    h = st()
    h.boot(madctl=0x60)
    h.cmd(dcs.SWRESET, wait_ms=5)
    m = h.m
    assert m.sleeping and not m.display_on and not m.inverted
    assert (m.madctl, m.colmod) == (0x60, 0x55)
    assert (m.sc, m.ec, m.sp, m.ep) == (0, 319, 0, 239)
    h.cmd(dcs.SLPOUT)
    assert h.m.sleeping


def test_window_pointer_runs_along_columns_and_wraps():
    h = st()
    h.boot()
    h.window(10, 12, 20, 21)               # 3 x 2 window
    h.cmd(dcs.RAMWR, pixels(1, 2, 3, 4, 5, 6, 7, 8))
    m = h.m
    assert [m.ram_pixel(x, 20) for x in (10, 11, 12)] == [7, 8, 3]
    assert [m.ram_pixel(x, 21) for x in (10, 11, 12)] == [4, 5, 6]
    h.cmd(dcs.RAMWRC, pixels(9))            # continues after pixel 8
    assert m.ram_pixel(12, 20) == 9
    h.cmd(dcs.RAMWR, pixels(10))            # restarts at (SC, SP)
    assert m.ram_pixel(10, 20) == 10


def test_pixel_split_across_transfers_and_cs_periods():
    h = st()
    h.boot()
    h.window(0, 1, 0, 0)
    h.cs(0)
    h.dc(0)
    h.spi.write(bytes([dcs.RAMWR]))
    h.dc(1)
    h.spi.write(b"\x12")
    h.spi.write(b"\x34\x56")
    h.spi.write(b"\x78")
    h.cs(1)
    assert h.m.ram_pixel(0, 0) == 0x1234 and h.m.ram_pixel(1, 0) == 0x5678


def test_caset_start_after_end_is_refused():
    h = st()
    h.boot()
    h.window(5, 9, 0, 0)
    h.cmd(dcs.CASET, [0, 20, 0, 10])
    assert (h.m.sc, h.m.ec) == (5, 9) and "CASET" in h.m.errors[-1]


@pytest.mark.parametrize("madctl,where", [
    (0x00, (0, 0)), (0x40, (239, 0)), (0x80, (0, 319)), (0x20, (0, 0)),
    (0x60, (239, 0)), (0xA0, (0, 319)), (0xE0, (239, 319))])
def test_madctl_origin_in_ram(madctl, where):
    h = st(width=240, height=320)
    h.boot(madctl=madctl)
    h.window(0, 1, 0, 0)
    h.cmd(dcs.RAMWR, pixels(0xAAAA, 0x5555))
    assert h.m.ram_pixel(*where) == 0xAAAA
    # the second pixel: next host column, a RAM row when MV exchanges
    col, row = where
    if madctl & dcs.MV:
        row += -1 if madctl & dcs.MY else 1
    else:
        col += -1 if madctl & dcs.MX else 1
    assert h.m.ram_pixel(col, row) == 0x5555


def test_mv_column_range_is_320():
    h = st(width=240, height=320)
    h.boot(madctl=0x20)
    h.window(319, 319, 239, 239)
    h.cmd(dcs.RAMWR, pixels(0x1111))
    assert h.m.ram_pixel(239, 319) == 0x1111 and h.m.errors == []


def test_18_bit_default_colmod_gives_a_wrong_picture():
    h = st()
    h.hw_reset()
    h.cmd(dcs.SLPOUT, wait_ms=120)
    h.cmd(dcs.INVON)
    h.cmd(dcs.DISPON)
    h.window(0, 1, 0, 0)
    h.cmd(dcs.RAMWR, pixels(0x1234, 0x5678, 0x9ABC))   # 6 bytes = 2 pixels
    assert h.m.pixel(0, 0) != 0x1234 and h.m.pixel(1, 0) != 0x5678
    h.cmd(dcs.RAMWR, bytes([0xFC, 0x00, 0x00, 0x00, 0x00, 0xFC]))
    assert h.m.pixel(0, 0) == 0xF800 and h.m.pixel(1, 0) == 0x001F


def test_ips_glass_needs_invon_and_bgr_swaps():
    h = st()
    h.boot(inv=False)
    h.window(0, 0, 0, 0)
    h.cmd(dcs.RAMWR, pixels(0xF800))
    assert h.m.pixel(0, 0) == 0x07FF       # inverted: red shows cyan
    h.cmd(dcs.INVON)
    assert h.m.pixel(0, 0) == 0xF800
    h.cmd(dcs.MADCTL, [0x08])
    assert h.m.pixel(0, 0) == 0x001F       # BGR on an RGB glass: blue


def test_ili9341_glass_is_bgr_and_mirrored():
    h = ili(width=240, height=320)
    h.boot(madctl=0x00, inv=False)
    h.window(0, 0, 0, 0)
    h.cmd(dcs.RAMWR, pixels(0xF800))
    assert h.m.glass_pixel(239, 0) == 0x001F   # RAM col 0 at the right, R/B swapped
    h.cmd(dcs.MADCTL, [0x48])
    h.cmd(dcs.RAMWR, pixels(0xF800))
    assert h.m.glass_pixel(0, 0) == 0xF800


def test_reads_answer_with_dummy_clocks():
    h = st()
    h.boot()
    rx = h.read(dcs.RDDID, 4)
    assert (int.from_bytes(rx, "big") >> 7) & 0xFFFFFF == 0x858552
    assert h.read(dcs.RDDPM, 1)[0] == 0x9C    # booster, sleep out, normal, on
    assert h.read(dcs.RDDCOLMOD, 1)[0] == 0x55
    g = ili()
    g.boot()
    assert g.read(0xD3, 4)[1:] == b"\x00\x93\x41"


def test_unknown_command_is_flagged_and_its_data_ignored():
    h = st()
    h.boot()
    h.window(0, 0, 0, 0)
    h.cmd(0xFE, [1, 2, 3])
    assert h.m.unknown == [0xFE] and "unknown command fe" in h.m.errors[-1]
    h.cmd(0xB2, [0x0C, 0x0C, 0, 0x33, 0x33])    # PORCTRL: known, accepted
    assert h.m.unknown == [0xFE]


def test_mount_rotates_the_view():
    h = ili(width=240, height=320, mount=90)
    h.boot(madctl=0x48, inv=False)
    assert (h.m.width, h.m.height) == (320, 240)
    h.window(0, 0, 0, 0)
    h.cmd(dcs.RAMWR, pixels(0xF800))        # glass top-left
    assert h.m.pixel(0, 239) == 0xF800       # device turned: bottom-left


def test_png_written(tmp_path):
    h = st()
    h.boot()
    h.window(0, 239, 0, 239)
    h.cmd(dcs.RAMWR, pixels(0x07E0) * (240 * 240))
    p = tmp_path / "s.png"
    h.m.to_png(str(p))
    from PIL import Image
    im = Image.open(p)
    assert im.size == (240, 240) and im.getpixel((5, 5)) == (0, 255, 0)


# ---- more datasheet facts, register level ---------------------------------

@pytest.mark.parametrize("colmod,madctl", [(0x55, 0x00), (0x66, 0x00),
                                           (0x55, 0x40), (0x55, 0x20)])
def test_pointer_wraps_to_sc_sp_in_every_pixel_format_and_order(colmod,
                                                                 madctl):
    """After (EC, EP) the address pointer goes back to (SC, SP), not to
    column or page 0, whatever COLMOD and MADCTL say."""
    h = st(width=240, height=320)
    h.boot(madctl=madctl, colmod=colmod)
    h.window(10, 12, 20, 21)
    if colmod == 0x66:
        data = b"".join(bytes([0, 0, i << 3]) for i in range(1, 9))
    else:
        data = pixels(*range(1, 9))
    h.cmd(dcs.RAMWR, data)
    m = h.m

    def at(c, p):               # host column, page -> RAM
        col, row = (p, c) if madctl & dcs.MV else (c, p)
        if madctl & dcs.MX:
            col = 239 - col
        return m.ram_pixel(col, row) & 0x1F if colmod == 0x66 else \
            m.ram_pixel(col, row)
    assert [at(c, 20) for c in (10, 11, 12)] == [7, 8, 3]
    assert [at(c, 21) for c in (10, 11, 12)] == [4, 5, 6]


def test_18_bit_pixels_keep_the_six_high_bits_of_each_byte():
    """COLMOD 66h: one byte per colour, bits 7:2 significant; RGB565 in
    frame memory takes R 5, G 6, B 5 of them."""
    h = st()
    h.boot(colmod=0x66)
    h.window(0, 3, 0, 0)
    h.cmd(dcs.RAMWR, bytes([0x00, 0xFC, 0x00, 0x00, 0x04, 0x00,
                            0x84, 0x80, 0x0C, 0xFF, 0xFF, 0xFF]))
    assert [h.m.ram_pixel(x, 0) for x in range(4)] == [
        0x07E0, 0x0020, 0x10 << 11 | 0x20 << 5 | 0x01, 0xFFFF]
    assert h.m.errors == []                 # 18-bit is a modelled format


def test_bgr_swaps_red_and_blue_and_keeps_green():
    h = st()
    h.boot()
    h.window(0, 0, 0, 0)
    h.cmd(dcs.RAMWR, pixels(0xFFE0))        # yellow: red + green
    assert h.m.pixel(0, 0) == 0xFFE0
    h.cmd(dcs.MADCTL, [dcs.BGR])
    assert h.m.pixel(0, 0) == 0x07FF        # on an RGB glass: cyan


@pytest.mark.parametrize("cmd", [dcs.SLPOUT, dcs.SLPIN])
def test_next_command_waits_5_ms_after_sleep_in_or_out(cmd):
    """SLPIN/SLPOUT: 'wait 5 ms before sending the next command'."""
    h = st()
    h.boot()
    if cmd == dcs.SLPOUT:
        h.cmd(dcs.SLPIN, wait_ms=120)
    h.cmd(cmd)
    sim_clock.advance_us(4900)
    h.cmd(dcs.DISPOFF)
    assert h.m.display_on and "too early" in h.m.errors[-1]
    sim_clock.advance_us(100)
    h.cmd(dcs.DISPOFF)
    assert not h.m.display_on


@pytest.mark.parametrize("make", [st, ili])
def test_reset_timing_limits(make):
    """RESX low >= 10 us resets (shorter is ignored); commands wait 120 ms
    after a reset applied in Sleep Out, 5 ms after one in Sleep In (the
    datasheets' reset timing), and SLPOUT 120 ms after either."""
    h = make()
    h.boot(madctl=0x60)
    h.rst(0)
    sim_clock.advance_us(9)
    h.rst(1)
    assert h.m.madctl == 0x60 and "RST pulse" in h.m.errors[-1]
    # in Sleep Out (boot woke it): 120 ms before the next command
    assert not h.m.sleeping
    h.rst(0)
    sim_clock.advance_us(10)
    h.rst(1)
    assert h.m.madctl == 0 and h.m.reset_by == "RST" and h.m.sleeping
    sim_clock.advance_us(5000)              # 5 ms is not enough here
    h.cmd(dcs.MADCTL, [0x40])
    assert h.m.madctl == 0 and "too early" in h.m.errors[-1]
    sim_clock.advance_us(114900)            # 119.9 ms after the reset
    n = len(h.m.errors)
    h.cmd(dcs.MADCTL, [0x40])
    assert h.m.madctl == 0 and len(h.m.errors) == n + 1
    assert "too early" in h.m.errors[-1]
    sim_clock.advance_us(100)
    h.cmd(dcs.MADCTL, [0x40])
    assert h.m.madctl == 0x40 and len(h.m.errors) == n + 1
    # in Sleep In (the reset above left it there): 5 ms, SLPOUT 120 ms
    h.rst(0)
    sim_clock.advance_us(10)
    h.rst(1)
    assert h.m.madctl == 0 and h.m.sleeping
    sim_clock.advance_us(4900)
    h.cmd(dcs.MADCTL, [0x40])
    assert h.m.madctl == 0 and "too early" in h.m.errors[-1]
    sim_clock.advance_us(100)
    n = len(h.m.errors)
    h.cmd(dcs.MADCTL, [0x40])
    assert h.m.madctl == 0x40 and len(h.m.errors) == n
    sim_clock.advance_us(114900)            # 119.9 ms after the reset
    h.cmd(dcs.SLPOUT)
    assert h.m.sleeping and "needs 120 ms" in h.m.errors[-1]
    sim_clock.advance_us(100)
    n = len(h.m.errors)
    h.cmd(dcs.SLPOUT)
    assert not h.m.sleeping and len(h.m.errors) == n


def test_bytes_sent_while_reset_is_held_are_ignored():
    h = st()
    h.boot()
    h.window(0, 0, 0, 0)
    h.cmd(dcs.RAMWR, pixels(0x1111))
    h.rst(0)
    h.cmd(dcs.RAMWR, pixels(0x2222))
    sim_clock.advance_us(20)
    h.rst(1)
    assert h.m.ram_pixel(0, 0) == 0x1111


@pytest.mark.parametrize("colmod", [0x55, 0x66])
def test_pixels_past_the_last_ram_column_are_lost_not_wrapped(colmod):
    """CASET beyond 239 (MV 0): those addresses do not exist; the pixels
    there are lost and the next RAM row is untouched."""
    h = st(width=240, height=320)
    h.boot(colmod=colmod)
    h.window(0, 239, 1, 1)
    h.cmd(dcs.RAMWR, pixels(0x0841) * 240 if colmod == 0x55
          else bytes([0x08, 0x08, 0x08]) * 240)
    h.window(238, 241, 0, 0)
    assert "beyond 239" in h.m.errors[-1]
    h.cmd(dcs.RAMWR, pixels(*[0xFFFF] * 4) if colmod == 0x55
          else b"\xff" * 12)
    assert h.m.ram_pixel(238, 0) == 0xFFFF and h.m.ram_pixel(239, 0) == 0xFFFF
    assert [h.m.ram_pixel(x, 1) for x in range(3)] == [0x0841] * 3


def test_rddmadctl_reads_back_the_madctl_bits():
    h = st()
    h.boot(madctl=0xFC)                      # MY MX MV ML RGB MH
    assert h.read(dcs.RDDMADCTL, 1)[0] == 0xFC


def test_st7789_rdid1_to_rdid3_are_the_id_bytes_in_order():
    """RDID1 (DAh) manufacturer 85h, RDID2 (DBh) version 85h, RDID3 (DCh)
    driver 52h: the three bytes RDDID gives, without a dummy clock."""
    h = st()
    h.boot()
    assert [h.read(c, 1)[0] for c in (0xDA, 0xDB, 0xDC)] == [0x85, 0x85, 0x52]


def test_ili9341_module_without_rdid4_on_spi_reads_all_ones():
    """id4_on_spi=False: MISO is not driven after RDID4, so the host reads
    ff; the same module with it answers a dummy byte then 00 93 41."""
    g = ili(id4_on_spi=False)
    g.boot()
    assert g.read(0xD3, 4) == b"\xff" * 4
    assert g.m.errors == []


def test_rddpm_reports_idle_and_partial_mode():
    """RDDPM D6 is IDMON and D5 PTLON (D3 NORON is PTLON's opposite): the
    model kept both modes but read them back as off."""
    h = st()
    h.boot()
    h.cmd(dcs.IDMON)
    assert h.read(dcs.RDDPM, 1)[0] == 0xDC    # and idle on
    h.cmd(dcs.PTLON)
    assert h.read(dcs.RDDPM, 1)[0] == 0xF4    # partial: PTLON set, NORON clear
    h.cmd(dcs.IDMOFF)
    h.cmd(dcs.NORON)
    assert h.read(dcs.RDDPM, 1)[0] == 0x9C
