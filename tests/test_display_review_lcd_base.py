"""Review tests of lcd_base: the CS and RST pins from_board makes start
inactive, text of every glyph and fills of every size reach the glass as
the reference says, and the ID check allocates nothing."""
import pytest

import host_sim

host_sim.install()
import machine  # noqa: E402
import display_checks as dc  # noqa: E402
import lcd_base  # noqa: E402

RED = 0xF800
GREEN = 0x07E0
BLUE = 0x001F


# ---- from_board's pins -------------------------------------------------------
def board_cfg():
    return {"chip": "st7789", "spi": dc.BUS, "baudrate": 40000000, "sck": 10,
            "mosi": 11, "cs": dc.CS, "dc": dc.DC, "rst": dc.RST, "bl": dc.BL,
            "width": 240, "height": 240}


def test_from_board_makes_cs_and_rst_outputs_high_from_the_start():
    """Pin(n, Pin.OUT) drives what the pin's output latch holds, on the
    rp2 port 0 after a reset: CS low selected the panel, RST low reset it,
    before the driver set them. The first thing either does now is the
    driver's own reset pulse."""
    m = dc.board("st7789", 240, 240, 0, 0, 0)
    for pin in (dc.CS, dc.RST):
        machine.Pin(pin).init(machine.Pin.IN, value=0)    # latch at 0
    assert machine.pin_level(dc.CS) == 1 and machine.pin_level(dc.RST) == 1
    seen = []
    for pin, name in ((dc.CS, "cs"), (dc.RST, "rst")):
        machine.watch_pin(pin, lambda level, name=name: seen.append((name, level)))
    lcd_base.from_board(board_cfg())
    assert seen[:3] == [("rst", 0), ("rst", 1), ("cs", 0)]
    assert seen.count(("rst", 0)) == 1
    assert m.errors == []


# ---- the backlight ---------------------------------------------------------------
@pytest.mark.parametrize("rst", [True, False], ids=["rst", "swreset"])
@pytest.mark.parametrize("chip", ["st7789", "ili9341"])
def test_the_backlight_comes_on_once_the_cleared_screen_shows(chip, rst):
    """The backlight pin (pulled low on the board until the driver drives
    it) rises once, and only when the controller is out of reset and sleep,
    DISPON is sent and the RAM's power-on noise is cleared: lit any sooner,
    the player sees the blank panel flash or the noise."""
    gw, gh = (240, 240) if chip == "st7789" else (240, 320)
    m = dc.board(chip, gw, gh, 0, 0, 0, rst=dc.RST if rst else None)
    assert any(m.ram)                               # noise at power-on
    machine.Pin(dc.BL).init(machine.Pin.IN, pull=machine.Pin.PULL_DOWN)
    seen = []

    def edge(level):
        noise = [(x, y) for y in range(0, m.height, 5)
                 for x in range(0, m.width, 5) if m.pixel(x, y)]
        seen.append((level, m.in_reset(), m.sleeping, m.display_on,
                     noise[:3]))
    machine.watch_pin(dc.BL, edge)
    d = dc.driver(chip, gw, gh, 0, rst=rst)
    assert seen == [(1, False, False, True, [])], seen
    d.fill_rect(0, 0, 4, 4, RED)
    assert m.lit() and m.pixel(0, 0) == RED and m.errors == []


# ---- text -------------------------------------------------------------------
@pytest.mark.parametrize("chip,rotation", [("st7789", 0), ("ili9341", 90)])
def test_text_of_every_glyph_and_outside_the_font_matches_the_art(chip, rotation):
    gw, gh = (240, 240) if chip == "st7789" else (240, 320)
    m, d = dc.setup(chip, gw, gh, rotation)
    ref = dc.Canvas(d.width, d.height)
    font = "".join(chr(c) for c in range(32, 127))
    for k in range(0, len(font), 38):
        dc.draw_text(d, ref, font[k:k + 38], 0, 8 * (k // 38), RED, BLUE, 1)
    d.text("a\x7f\u00e9\x1fz", 10, 40, GREEN, 0, 2)     # '?' outside 32..126
    dc.ref_text(ref, "a???z", 10, 40, GREEN, 0, 2)
    dc.draw_text(d, ref, "cut", d.width - 20, d.height - 5, RED, GREEN, 1)
    dc.compare(m, ref, "%s every glyph" % chip)
    assert m.errors == []


# ---- the line buffer's fill ---------------------------------------------------
def test_fills_of_every_size_between_text_and_blits_land_exactly():
    """The line buffer holds a fill's colour and remembers it when all 512
    pixels are filled: fills of each size, a colour repeated, text and
    blits between them, all as the reference says."""
    m, d = dc.setup("ili9341", 240, 320, 90)
    ref = dc.Canvas(d.width, d.height)
    colours = (RED, GREEN, GREEN, BLUE, 0x8410, RED)
    y = 0
    for n in (1, 2, 3, 5, 8, 13, 64, 255, 256, 257, 300, 511, 512, 513, 700,
              1024, 1500):
        c = colours[n % len(colours)]
        w = min(n, d.width)
        h = (n + w - 1) // w
        d.fill_rect(0, y, w, h, c)
        ref.rect_fill(0, y, w, h, c)
        if n % 3 == 0:
            dc.draw_text(d, ref, "%d" % n, 250, y, BLUE, RED, 1)
        if n % 5 == 0:
            img = bytes(range(2 * 3 * 2))
            d.blit(img, 300, y, 3, 2)
            for i in range(6):
                ref.set(300 + i % 3, y + i // 3, img[2 * i] << 8 | img[2 * i + 1])
        y += h + 1
    d.fill(GREEN)
    d.hline(0, 200, 100, GREEN)
    d.text("x", 0, 210, RED, GREEN)
    d.fill_rect(10, 220, 50, 12, GREEN)
    ref.rect_fill(0, 0, d.width, d.height, GREEN)
    dc.ref_text(ref, "x", 0, 210, RED, GREEN, 1)
    dc.compare(m, ref, "fills of every size")
    assert m.errors == []


# ---- the ID check allocates nothing ---------------------------------------------
ID_CHECK_LOCKED = """
import micropython
import st7789
import ili9341


class Bus:
    # answers the ID read with `reply`; allocates nothing
    def __init__(self, reply, hz):
        self.reply = reply
        self.baudrate = hz

    def init(self, baudrate=0):
        self.baudrate = baudrate

    def write(self, b):
        pass

    def readinto(self, b):
        for i in range(len(b)):
            b[i] = self.reply[i]


class Pin:
    OUT = 1

    def init(self, *a, **k):
        pass

    def __call__(self, v=None):
        return 1


word = (1 << 31 | 0x858552 << 7).to_bytes(4, "big")
# each chip's write clock (ST7789 40 MHz, ILI9341 10 MHz), restored after
for cls, reply, hz in ((st7789.ST7789, word, 40000000),
                       (ili9341.ILI9341, b"\\x08", 10000000)):
    bus = Bus(reply, hz)
    d = cls(bus, Pin(), Pin(), check_id=True, baudrate=hz)
    micropython.heap_lock()
    try:
        d.check_id()
    except MemoryError:
        micropython.heap_unlock()
        raise SystemExit("%s check_id allocates" % cls.NAME)
    micropython.heap_unlock()
    assert bus.baudrate == hz
print("no allocation")
"""


def test_the_id_check_allocates_nothing_on_micropython():
    """The ST7789's RDDID read took a fresh 4-byte buffer while the driver's
    own 4-byte parameter buffer was free."""
    import upy
    out = upy.run(ID_CHECK_LOCKED, heapsize="128k")
    assert "no allocation" in out
