"""Mutation review of the LCD drivers (lcd_base, st7789, ili9341) and their
chip models: what a player would see and what the ST7789V / ILI9341
datasheets say, where tests/test_display_drivers.py and
tests/test_display_models.py left a changed line unnoticed."""
import pytest

import host_sim

host_sim.install()
import machine  # noqa: E402
import display_checks as dc  # noqa: E402
import lcd_base  # noqa: E402
import mipi_dcs_model as dcs  # noqa: E402
import sim_clock  # noqa: E402
import st7789_model  # noqa: E402
from test_display_models import DC, RST, BL, st, ili, pixels  # noqa: E402

RED = 0xF800
GREEN = 0x07E0
BLUE = 0x001F


def blank(d):
    """The reference for a freshly initialised driver: all black."""
    return dc.Canvas(d.width, d.height)


# ---- text ---------------------------------------------------------------------
def test_text_cut_on_both_sides_keeps_every_cell_that_fits():
    # 45 cells from x=-3: cell 0 is cut by the left edge, cells 1..39 fill
    # x=3..236, cell 40 would end at 243 > 240: both ends left out
    m, d = dc.setup("st7789", 240, 240, 0)
    s = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghi"
    d.text(s, -3, 12, GREEN, BLUE)
    ref = blank(d)
    dc.ref_text(ref, s[1:40], 3, 12, GREEN, BLUE, 1)
    dc.compare(m, ref, "text cut on both sides")


def test_a_fill_after_text_is_not_left_with_the_text_in_it():
    # the line buffer holds a fill colour between fills; text reuses it
    m, d = dc.setup("ili9341", 240, 320, 90)
    d.fill(RED)
    d.text("Black to move", 0, 0, GREEN, BLUE, 3)
    d.fill(RED)
    ref = blank(d)
    ref.rect_fill(0, 0, d.width, d.height, RED)
    dc.compare(m, ref, "fill after text")


def test_text_taller_than_the_screen_is_cut_at_the_top_and_bottom():
    # a 256-row cell from y=-8: glyph rows 8..247 fill the 240 screen rows
    m, d = dc.setup("st7789", 240, 240, 0)
    d.text("A", 20, -8, RED, BLUE, 32)
    ref = blank(d)
    dc.ref_text(ref, "A", 20, -8, RED, BLUE, 32)
    dc.compare(m, ref, "text taller than the screen")
    assert m.errors == []


def test_text_wholly_off_screen_sends_no_window():
    # an empty window would be CASET/RASET with start > end: refused by
    # both datasheets (SC <= EC, SP <= EP)
    m, d = dc.setup("st7789", 240, 240, 0)
    before = m.pixels_written
    for x, y in ((240, 0), (-12, 0), (0, 240), (0, -8), (300, 300)):
        d.text("ab", x, y, RED, BLUE)
    assert m.pixels_written == before and m.errors == []


# ---- rectangles and blits -------------------------------------------------------
def test_fill_rect_above_the_top_edge_keeps_only_its_visible_rows():
    m, d = dc.setup("st7789", 135, 240, 0, 52, 40)
    d.fill_rect(10, -3, 5, 5, RED)          # rows -3..1: 0 and 1 show
    d.fill_rect(-2, -2, 4, 4, GREEN)        # the top-left corner: 2 x 2
    ref = blank(d)
    ref.rect_fill(10, 0, 5, 2, RED)
    ref.rect_fill(0, 0, 2, 2, GREEN)
    dc.compare(m, ref, "fill_rect clipped at the top")


def test_empty_rectangles_draw_nothing():
    m, d = dc.setup("st7789", 240, 240, 0)
    before = m.pixels_written
    d.fill_rect(5, 5, 0, 4, RED)
    d.fill_rect(5, 5, 4, 0, RED)
    d.fill_rect(5, 5, -3, 6, RED)
    d.hline(5, 5, 0, RED)
    d.vline(5, 5, 0, RED)
    assert m.pixels_written == before and m.errors == []


def test_blit_from_a_longer_buffer_draws_only_its_w_by_h_pixels():
    # a 4x4 image buffer reused for a 4x3 picture: the 13th..16th pixels
    # must not wrap around the 4x3 window onto its first row
    m, d = dc.setup("st7789", 240, 240, 0)
    img = bytearray(2 * 4 * 4)
    for i in range(16):
        c = GREEN if i < 12 else RED
        img[2 * i] = c >> 8
        img[2 * i + 1] = c & 0xFF
    d.blit(img, 10, 20, 4, 3)
    ref = blank(d)
    ref.rect_fill(10, 20, 4, 3, GREEN)
    dc.compare(m, ref, "blit from a longer buffer")


# ---- construction ---------------------------------------------------------------
def make(chip, w, h, rotation, **kw):
    """The chip's driver on the display_checks bus, with extra arguments."""
    spi = machine.SPI(dc.BUS, baudrate=dc.WRITE_HZ[chip])
    cls = dc.st7789.ST7789 if chip == "st7789" else dc.ili9341.ILI9341
    return cls(spi, machine.Pin(dc.CS), machine.Pin(dc.DC),
               rst=machine.Pin(dc.RST), bl=machine.Pin(dc.BL), width=w,
               height=h, rotation=rotation, **kw)


@pytest.mark.parametrize("chip,invert", [("st7789", False),
                                         ("ili9341", True)])
def test_invert_argument_overrides_the_glass_default(chip, invert):
    # INVON (21h) / INVOFF (20h) as asked; the ST7789's IPS glass then
    # shows the complement of what is written, as the ILI9341's TN glass
    # does under INVON
    m = dc.board(chip, 240, 240 if chip == "st7789" else 320, 0, 0, 0)
    d = make(chip, 240, 240 if chip == "st7789" else 320, 0, invert=invert)
    d.fill_rect(0, 0, 1, 1, RED)
    assert m.inverted == invert
    assert m.pixel(0, 0) == RED ^ 0xFFFF


@pytest.mark.parametrize("offsets", [(-1, 0), (0, -1)])
def test_negative_offsets_are_refused_before_any_command(offsets):
    m = dc.board("st7789", 240, 240, 0, 0, 0)
    with pytest.raises(ValueError, match="does not fit"):
        make("st7789", 240, 240, 180, x_offset=offsets[0],
             y_offset=offsets[1])
    assert m.commands == 0


def test_from_board_reads_the_id_over_its_miso_pin_at_4_mhz(monkeypatch):
    # the ESP32 board wires MISO to GPIO19 and runs the bus at 10 MHz;
    # the ILI9341's serial read cycle (>= 150 ns) needs the ID read slower
    import board_esp32_ili9341 as board
    from host_sim import device
    dev = device.Device(board)
    seen = {"miso": None, "reads": []}

    class Spy(machine.SPI):
        def __init__(self, id, **kw):
            seen["miso"] = kw.get("miso")
            super().__init__(id, **kw)

        def readinto(self, buf, write=0):
            seen["reads"].append(self.baudrate)
            super().readinto(buf, write)

    monkeypatch.setattr(machine, "SPI", Spy)
    d = lcd_base.from_board(board.LCD)
    assert seen["miso"] is not None and seen["miso"].id == board.LCD["miso"]
    assert seen["reads"] == [4000000]
    assert d.spi.baudrate == board.LCD["baudrate"] and dev.lcd.errors == []



@pytest.mark.parametrize("rst", [True, False], ids=["RST", "SWRESET"])
@pytest.mark.parametrize("chip", ["st7789", "ili9341"])
def test_an_id_check_without_the_bus_baudrate_is_refused_before_any_read(
        chip, rst):
    # the ID read runs at 4 MHz, then the bus goes back to `baudrate`:
    # without it the driver would read at the write clock (40 MHz on the
    # ST7789, 10 MHz on the ILI9341: both above the serial read cycle's
    # 6.67 MHz) and trust what came back. The refusal comes from the read
    # itself, after the reset (RST, or SWRESET without it): no read
    # command, no byte read, no clock change
    w, h, rot = (240, 240, 0) if chip == "st7789" else (320, 240, 90)
    hz = dc.WRITE_HZ[chip]
    m = dc.board(chip, 240, 240 if chip == "st7789" else 320, 0, 0, 0,
                 rst=dc.RST if rst else None)
    seen = []

    class Spy(machine.SPI):
        def write(self, buf):
            seen.append(("write", machine.pin_level(dc.DC), bytes(buf),
                         self.baudrate))
            super().write(buf)

        def read(self, nbytes, write=0):
            seen.append(("read", nbytes, self.baudrate))
            return super().read(nbytes, write)

        def readinto(self, buf, write=0):
            seen.append(("read", len(buf), self.baudrate))
            super().readinto(buf, write)

        def write_readinto(self, write_buf, read_buf):
            seen.append(("read", len(read_buf), self.baudrate))
            super().write_readinto(write_buf, read_buf)

        def init(self, *, baudrate=None, **kw):
            seen.append(("init", baudrate))
            super().init(baudrate=baudrate, **kw)

    spi = Spy(dc.BUS, baudrate=hz)
    del seen[:]
    cls = dc.st7789.ST7789 if chip == "st7789" else dc.ili9341.ILI9341
    with pytest.raises(ValueError) as e:
        cls(spi, machine.Pin(dc.CS), machine.Pin(dc.DC),
            rst=machine.Pin(dc.RST) if rst else None, bl=machine.Pin(dc.BL),
            width=w, height=h, rotation=rot, check_id=True)
    assert str(e.value) == "%s: an ID read needs baudrate=" % chip.upper()
    # at most the reset went out (RST pulsed, or SWRESET, 01h, at the write
    # clock): no read command, no byte read, the clock never changed
    assert all(x == ("write", 0, b"\x01", hz) for x in seen), seen
    assert m.commands == len(seen) <= (0 if rst else 1)
    assert spi.baudrate == hz and m.errors == []


@pytest.mark.parametrize("chip", ["st7789", "ili9341"])
def test_check_id_called_later_without_the_bus_baudrate_reads_nothing(
        chip, monkeypatch):
    w, h, rot = (240, 240, 0) if chip == "st7789" else (320, 240, 90)
    m = dc.board(chip, 240, 240 if chip == "st7789" else 320, 0, 0, 0)
    d = make(chip, w, h, rot)
    reads = []
    monkeypatch.setattr(d.spi, "readinto",
                        lambda buf, write=0: reads.append(len(buf)))
    n = m.commands
    with pytest.raises(ValueError, match="^%s: an ID read needs baudrate=$"
                       % chip.upper()):
        d.check_id()
    assert reads == [] and m.commands == n
    assert d.spi.baudrate == dc.WRITE_HZ[chip] and m.errors == []


def test_st7789_id_read_ignores_the_dummy_clock_and_the_bits_after_it():
    # RDDID on the serial bus: one dummy clock (its bit undefined), then
    # 85h 85h 52h; a 4-byte read clocks 7 more undefined bits
    word = 1 << 31 | 0x858552 << 7 | 0x7F
    machine.forget_all()
    rddid = dc.Answering(0x04, word.to_bytes(4, "big"))
    machine.attach_spi(dc.BUS, dc.CS, rddid, "lcd", dc=dc.DC)
    dc.driver("st7789", 240, 240, 0, check_id=True)


# ---- the chip models on their own -------------------------------------------
@pytest.mark.parametrize("host", [st, ili], ids=["st7789", "ili9341"])
def test_frame_memory_is_random_at_power_on_and_kept_by_resets(host):
    # both datasheets' reset tables: frame memory random after power-on,
    # no change on a hardware or software reset
    h = host()
    ram = bytes(h.m.ram)
    values = set(ram[i] << 8 | ram[i + 1] for i in range(0, 4000, 2))
    assert len(values) > 100
    h.rst(0)
    sim_clock.advance_us(20)
    h.rst(1)
    sim_clock.advance_us(5000)
    h.cmd(dcs.SWRESET, wait_ms=5)
    assert h.m.reset_by == "SWRESET" and bytes(h.m.ram) == ram


def test_power_on_leaves_no_register_at_its_reset_default():
    # the model's documented power-on: MADCTL, COLMOD and the window are
    # left over, so a driver that skips the reset cannot get the defaults
    # (MADCTL 00h, COLMOD 66h, the whole RAM) by luck
    m = st().m
    assert m.reset_by is None
    assert m.madctl != 0 and m.colmod not in (0x66, 0x55)
    assert (m.sc, m.ec, m.sp, m.ep) != (0, 239, 0, 319)


@pytest.mark.parametrize("host", [st, ili], ids=["st7789", "ili9341"])
def test_sleep_in_blanks_the_glass_and_keeps_the_memory(host):
    # SLPIN stops panel scanning: nothing shows until SLPOUT, whatever
    # DISPON says; RDDPM then reads booster off, sleep in, normal, on (0Ch)
    h = host()
    if host is st:
        h.boot()                            # IPS, RGB: INVON, MADCTL 00h
    else:
        h.boot(madctl=0x48, inv=False)      # TN, BGR, mirrored: MX|BGR
    h.window(0, 0, 0, 0)
    h.cmd(dcs.RAMWR, pixels(0xF800))
    assert h.m.glass_pixel(0, 0) == 0xF800
    # boot's SLPOUT was 120 ms before this SLPIN, and SLPOUT waits 120 ms
    # after it: the datasheets' SLPIN/SLPOUT spacing (errors stay empty)
    h.cmd(dcs.SLPIN, wait_ms=120)
    assert h.m.glass_pixel(0, 0) == 0 and h.m.display_on
    assert h.read(dcs.RDDPM, 1)[0] == 0x0C
    h.cmd(dcs.SLPOUT, wait_ms=5)
    assert h.m.glass_pixel(0, 0) == 0xF800 and h.m.errors == []


def test_display_on_without_sleep_out_stays_dark():
    h = st()
    h.hw_reset()
    h.cmd(dcs.COLMOD, [0x55])
    h.cmd(dcs.INVON)
    h.cmd(dcs.DISPON)
    h.window(0, 0, 0, 0)
    h.cmd(dcs.RAMWR, pixels(0xF800))
    assert h.m.display_on and h.m.pixel(0, 0) == 0


def test_12_bit_colmod_is_flagged_and_16_bit_pixels_do_not_land():
    # COLMOD x3h packs two 4-4-4 pixels in 3 bytes: not modelled, and two
    # bytes written as RGB565 must not show as that colour
    h = st()
    h.boot(colmod=0x53)
    assert "COLMOD 53" in h.m.errors[-1]
    before = h.m.ram_pixel(0, 0)
    h.window(0, 0, 0, 0)
    h.cmd(dcs.RAMWR, pixels(before ^ 0xFFFF))
    assert h.m.ram_pixel(0, 0) == before


@pytest.mark.parametrize("w,h,ox,oy", [(240, 240, 0, 81), (240, 240, 1, 0),
                                       (135, 240, -1, 0), (135, 240, 0, -1)])
def test_model_refuses_a_glass_outside_its_ram(w, h, ox, oy):
    machine.forget_all()
    with pytest.raises(ValueError, match="outside 240x320 RAM"):
        st7789_model.ST7789Model(DC, RST, BL, w, h, ox, oy)
