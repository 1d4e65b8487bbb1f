"""Display driver checks against the chip models, runnable on CPython (pytest
calls the functions) and on the MicroPython unix port (tests run `all()`
there through tests/upy.py with the shims and host_sim/chips on the path).

Every check builds a fresh simulated board: model attached to SPI bus 1,
CS 9, DC 8, RST 12, BL 13, draws through the driver and compares what the
model shows with an independent reference, pixel by pixel.
"""
import machine
import sim_clock
import st7789
import ili9341
import st7789_model
import ili9341_model
import display_font_art

BUS = 1
CS = 9
DC = 8
RST = 12
BL = 13

# the bus's write clock, within each datasheet's serial write cycle as the
# boards set it: ST7789 >= 16 ns (40 MHz, boards/board_pico_lcd13.py),
# ILI9341 >= 100 ns (10 MHz, boards/board_esp32_ili9341.py); the driver
# reads the ID at READ_HZ (read cycle >= 150 ns on both) and sets it back
WRITE_HZ = {"st7789": 40000000, "ili9341": 10000000}
READ_HZ = 4000000

COLORS = (0x0000, 0xF800, 0x001F, 0x07E0, 0xFFE0, 0xF81F, 0x07FF, 0x8410,
          0xFD20, 0x4A69, 0xFFFF)


class Canvas:
    """The reference: what a w x h screen should show, drawn pixel by pixel."""

    def __init__(self, w, h):
        self.w = w
        self.h = h
        self.px = bytearray(2 * w * h)

    def set(self, x, y, c):
        if 0 <= x < self.w and 0 <= y < self.h:
            a = 2 * (y * self.w + x)
            self.px[a] = c >> 8
            self.px[a + 1] = c & 0xFF

    def get(self, x, y):
        a = 2 * (y * self.w + x)
        return self.px[a] << 8 | self.px[a + 1]

    def rect_fill(self, x, y, w, h, c):
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                self.set(xx, yy, c)


class Answering:
    """Something on the LCD's bus, no LCD model, that answers command `cmd`
    with the bytes of `reply` and every other command with MISO at 0."""

    def __init__(self, cmd, reply):
        self.want = cmd
        self.reply = reply
        self.cmd = None

    def spi_select(self):
        pass

    def spi_deselect(self):
        pass

    def spi_transfer(self, tx):
        if machine.pin_level(DC) == 0:
            self.cmd = tx[-1]
        elif self.cmd == self.want:
            return bytes(self.reply[:len(tx)])
        return bytes(len(tx))


def board(chip, width, height, x_offset, y_offset, mount, rst=RST):
    """A fresh bus with the chip's model; returns the model."""
    machine.forget_all()
    sim_clock.reset()
    if chip == "st7789":
        m = st7789_model.ST7789Model(DC, rst, BL, width, height, x_offset,
                                     y_offset, mount)
    else:
        m = ili9341_model.ILI9341Model(DC, rst, BL, width, height, x_offset,
                                       y_offset, mount)
    machine.attach_spi(BUS, CS, m, chip, dc=DC)
    return m


def driver(chip, w, h, rotation, x_offset=0, y_offset=0, check_id=False,
           rst=True):
    hz = WRITE_HZ[chip]
    spi = machine.SPI(BUS, baudrate=hz)
    cls = st7789.ST7789 if chip == "st7789" else ili9341.ILI9341
    return cls(spi, machine.Pin(CS), machine.Pin(DC),
               rst=machine.Pin(RST) if rst else None, bl=machine.Pin(BL),
               width=w, height=h, rotation=rotation, x_offset=x_offset,
               y_offset=y_offset, check_id=check_id, baudrate=hz)


def expect(cond, msg):
    if not cond:
        raise AssertionError(msg)


def setup(chip, gw, gh, rotation, ox=0, oy=0, rst=True):
    """Model with glass gw x gh at (ox, oy), mounted as the driver rotates,
    and the driver; the view then shows the driver's logical picture."""
    m = board(chip, gw, gh, ox, oy, rotation)
    w, h = (gh, gw) if rotation in (90, 270) else (gw, gh)
    d = driver(chip, w, h, rotation, ox, oy, rst=rst)
    return m, d


# ---- checks -------------------------------------------------------------------
def check_init(chip, rotation, rst=True):
    gw, gh = (240, 240) if chip == "st7789" else (240, 320)
    m, d = setup(chip, gw, gh, rotation, rst=rst)
    expect(m.errors == [], "model noted errors: %r" % (m.errors,))
    expect(m.unknown == [], "unknown commands: %r" % (m.unknown,))
    expect(not m.sleeping, "still in sleep mode")
    expect(m.display_on, "display off")
    expect(m.colmod & 7 == 5, "COLMOD %02x is not 16-bit" % m.colmod)
    want = d.ROTATIONS[rotation]
    expect(m.madctl == want, "MADCTL %02x, want %02x" % (m.madctl, want))
    expect(m.inverted == (chip == "st7789"), "inversion %r" % m.inverted)
    expect(m.lit(), "panel dark after init")
    for y in range(0, m.height, 7):
        for x in range(0, m.width, 7):
            expect(m.pixel(x, y) == 0, "not cleared at (%d,%d)" % (x, y))
    return m, d


def draw_pattern(d, ref):
    w, h = d.width, d.height
    C = COLORS
    d.fill(C[9])
    ref.rect_fill(0, 0, w, h, C[9])
    d.fill_rect(3, 5, 20, 10, C[1])
    ref.rect_fill(3, 5, 20, 10, C[1])
    d.fill_rect(w - 8, h - 6, 20, 20, C[2])         # clipped at the corner
    ref.rect_fill(w - 8, h - 6, 8, 6, C[2])
    d.fill_rect(-5, 30, 9, 3, C[3])                 # clipped on the left
    ref.rect_fill(0, 30, 4, 3, C[3])
    d.hline(0, h // 2, w, C[4])
    ref.rect_fill(0, h // 2, w, 1, C[4])
    d.vline(w // 3, 0, h, C[5])
    ref.rect_fill(w // 3, 0, 1, h, C[5])
    d.fill_rect(w - 1, 0, 1, 1, C[7])               # one pixel, each corner
    ref.set(w - 1, 0, C[7])
    d.fill_rect(0, h - 1, 1, 1, C[8])
    ref.set(0, h - 1, C[8])
    d.fill_rect(-1, 3, 1, 1, C[1])                  # off screen: nothing
    img = bytearray(2 * 4 * 3)
    for i in range(12):
        c = COLORS[1 + i % 10] ^ (i * 0x0841)
        img[2 * i] = c >> 8
        img[2 * i + 1] = c & 0xFF
    for (bx, by) in ((50, 12), (-2, h - 2)):
        d.blit(img, bx, by, 4, 3)
        for i in range(12):
            ref.set(bx + i % 4, by + i // 4, img[2 * i] << 8 | img[2 * i + 1])
    draw_text(d, ref, "Go!5~", 5, h - 20, C[10], C[0], 1)
    draw_text(d, ref, "x@", 70, 30, C[1], C[6], 2)


def draw_text(d, ref, s, x, y, fg, bg, scale):
    d.text(s, x, y, fg, bg, scale)
    ref_text(ref, s, x, y, fg, bg, scale)


def ref_text(ref, s, x, y, fg, bg, scale):
    """What text `s` at (x, y) shows, from the font art, into ref only."""
    art = display_font_art.glyphs()
    for k, ch in enumerate(s):
        rows = art[ch]
        for py in range(8 * scale):
            for px in range(6 * scale):
                gx = px // scale
                gy = py // scale
                on = gx < 5 and gy < 7 and rows[gy][gx] == "#"
                ref.set(x + k * 6 * scale + px, y + py, fg if on else bg)


def compare(m, ref, what):
    bad = 0
    first = None
    for y in range(ref.h):
        for x in range(ref.w):
            got = m.pixel(x, y)
            want = ref.get(x, y)
            if got != want:
                bad += 1
                if first is None:
                    first = (x, y, got, want)
    expect(bad == 0, "%s: %d pixels differ, first at (%d,%d): %04x, want %04x"
           % ((what, bad) + (first or (0, 0, 0, 0))))


def check_pattern(chip, rotation, gw, gh, ox=0, oy=0):
    m, d = setup(chip, gw, gh, rotation, ox, oy)
    ref = Canvas(d.width, d.height)
    draw_pattern(d, ref)
    expect(m.errors == [], "model noted errors: %r" % (m.errors,))
    compare(m, ref, "%s rotation %d glass %dx%d at (%d,%d)"
            % (chip, rotation, gw, gh, ox, oy))
    return m, d


def check_orientation(chip, rotation):
    """Where logical corners land on the glass itself (mount 0): rotation
    turns the picture clockwise, not mirrored."""
    gw, gh = (240, 240) if chip == "st7789" else (240, 320)
    m = board(chip, gw, gh, 0, 0, 0)
    w, h = (gh, gw) if rotation in (90, 270) else (gw, gh)
    d = driver(chip, w, h, rotation)
    d.fill_rect(0, 0, 1, 1, 0xF800)         # logical top-left: red
    d.fill_rect(w - 1, 0, 1, 1, 0x07E0)     # logical top-right: green
    d.fill_rect(0, h - 1, 1, 1, 0x001F)     # logical bottom-left: blue
    corners = {0: ((0, 0), (gw - 1, 0), (0, gh - 1)),
               90: ((gw - 1, 0), (gw - 1, gh - 1), (0, 0)),
               180: ((gw - 1, gh - 1), (0, gh - 1), (gw - 1, 0)),
               270: ((0, gh - 1), (0, 0), (gw - 1, gh - 1))}[rotation]
    for (gx, gy), c in zip(corners, (0xF800, 0x07E0, 0x001F)):
        got = m.glass_pixel(gx, gy)
        expect(got == c, "%s rotation %d: glass (%d,%d) shows %04x, want %04x"
               % (chip, rotation, gx, gy, got, c))


def check_st7789_ram_offset():
    """240x240 glass on 240x320 RAM at rotation 180: MY reverses the rows,
    so the driver must address pages 80..319 to reach RAM rows 0..239 where
    the glass is; rows 240..319 keep their power-on noise."""
    m, d = setup("st7789", 240, 240, 180)
    tail = 2 * 240 * 240
    noise = bytes(m.ram[tail:])
    d.fill(0x1234)
    expect(bytes(m.ram[tail:]) == noise, "RAM rows 240..319 written")
    for row in (0, 100, 239):
        for col in (0, 239):
            v = m.ram_pixel(col, row)
            expect(v == 0x1234, "RAM (%d,%d) = %04x" % (col, row, v))


def check_missing(chip):
    machine.forget_all()
    sim_clock.reset()
    try:
        driver(chip, 240 if chip == "st7789" else 320, 240,
               0 if chip == "st7789" else 90, check_id=True)
    except OSError as e:
        msg = str(e)
        expect(chip.upper() in msg and "cs=Pin(9)" in msg and "dc=Pin(8)" in msg,
               "unclear message: " + msg)
        return msg
    raise AssertionError("%s: no OSError without a chip" % chip)


def check_wrong_chip():
    """The ST7789 driver on an ILI9341 bus reads the wrong ID."""
    board("ili9341", 240, 320, 0, 0, 0)
    try:
        driver("st7789", 240, 240, 0, check_id=True)
    except OSError as e:
        expect("RDDID" in str(e), str(e))
        return str(e)
    raise AssertionError("no OSError for the wrong controller")


def check_id_ok(chip):
    board(chip, 240, 240 if chip == "st7789" else 320, 0, 0, 0)
    d = driver(chip, 240 if chip == "st7789" else 320, 240,
               0 if chip == "st7789" else 90, check_id=True)
    return d


def check_ili9341_silent_id4(rst=True):
    """Real ILI9341 modules are reported not to answer RDID4 (D3h) on the
    serial interface: the driver must still find the panel (from RDDPM, the
    power mode after a reset), with a hardware reset or SWRESET alone."""
    m = board("ili9341", 240, 320, 0, 0, 0, rst=RST if rst else None)
    m.id4_on_spi = False
    driver("ili9341", 320, 240, 90, check_id=True, rst=rst)
    expect(not m.errors, "model errors: %r" % (m.errors,))
    expect(not m.sleeping and m.display_on, "the panel was not started")


def all():
    n = 0
    for chip in ("st7789", "ili9341"):
        for rot in (0, 90, 180, 270):
            check_init(chip, rot)
            check_orientation(chip, rot)
            n += 2
        check_init(chip, 0, rst=False)
        check_missing(chip)
        check_id_ok(chip)
        n += 3
    check_ili9341_silent_id4()
    check_ili9341_silent_id4(rst=False)
    n += 2
    for rot in (0, 90, 180, 270):
        check_pattern("st7789", rot, 135, 240, 52, 40)
        check_pattern("ili9341", rot, 240, 320)
        n += 2
    check_pattern("st7789", 180, 240, 240)
    check_st7789_ram_offset()
    check_wrong_chip()
    n += 3
    print("display checks OK", n)
