"""Shared MIPI-DCS code for the SPI colour LCDs (ST7789, ILI9341).

Draws straight into the controller's RAM through CASET/RASET/RAMWR windows,
big-endian RGB565, from one preallocated 1024-byte line buffer (512 pixels)
and a few cached views of it, so steady drawing allocates nothing; there is
no framebuffer. Subclasses give the chip's name, RAM size, MADCTL per
rotation and ID check. The ID check reads at 4 MHz and needs the bus's own
`baudrate` to restore after.

It draws what the game draws: filled rectangles and lines, images (blit)
and text. Each method is code in the heap, so there is no pixel, outline
or circle (a pixel is fill_rect(x, y, 1, 1, c)).

Coordinates: `width` x `height` is the drawing area after rotation.
`x_offset`/`y_offset` say where the glass sits in the controller's RAM, in
its native columns/rows (MADCTL 0); the window offset for each rotation is
derived from them.
"""
from micropython import const
import time
import font5x7

FONT_W = const(6)   # glyph cell: 5x7 pixels plus a blank column and row
FONT_H = const(8)

# MIPI DCS commands common to both controllers
_SWRESET = const(0x01)
_SLPOUT = const(0x11)
_NORON = const(0x13)
_INVOFF = const(0x20)
_INVON = const(0x21)
_DISPON = const(0x29)
_CASET = const(0x2A)
_RASET = const(0x2B)
_RAMWR = const(0x2C)
_MADCTL = const(0x36)
_COLMOD = const(0x3A)

# MADCTL bits (ROTATIONS in st7789 and ili9341 are made of them, and BGR 0x08)
_MY = const(0x80)
_MX = const(0x40)
_MV = const(0x20)

_COLMOD_16BIT = const(0x55)     # 65K colours, 16 bits a pixel
_BUF_PIXELS = const(512)
_READ_HZ = const(4000000)   # both datasheets: serial read cycle >= 150 ns
_PARTS = const(24)      # cached views of the buffer's head, by byte length


class LCD:
    NAME = "LCD"
    RAM_W = 240         # controller RAM columns x rows (native, MADCTL 0)
    RAM_H = 320
    ROTATIONS = {0: 0}  # rotation -> MADCTL
    INVERT = False      # panel needs INVON

    def __init__(self, spi, cs, dc, rst=None, bl=None, width=240, height=240,
                 rotation=0, x_offset=0, y_offset=0, check_id=False,
                 invert=None, baudrate=None):
        if rotation not in self.ROTATIONS:
            raise ValueError("%s: rotation must be 0, 90, 180 or 270, not %r"
                             % (self.NAME, rotation))
        madctl = self.ROTATIONS[rotation]
        # the glass in RAM, in native orientation
        gw, gh = (height, width) if madctl & _MV else (width, height)
        if (width <= 0 or height <= 0 or x_offset < 0 or y_offset < 0
                or x_offset + gw > self.RAM_W or y_offset + gh > self.RAM_H):
            raise ValueError(
                "%s: %dx%d at rotation %d, offset (%d,%d) does not fit its "
                "%dx%d RAM" % (self.NAME, width, height, rotation, x_offset,
                               y_offset, self.RAM_W, self.RAM_H))
        col0 = self.RAM_W - x_offset - gw if madctl & _MX else x_offset
        row0 = self.RAM_H - y_offset - gh if madctl & _MY else y_offset
        if madctl & _MV:
            col0, row0 = row0, col0
        self._xo = col0     # added to x for CASET
        self._yo = row0     # added to y for RASET
        self.width = width
        self.height = height
        self._madctl = madctl
        self._invert = self.INVERT if invert is None else invert
        self.spi = spi
        self.cs = cs
        self.dc = dc
        self.rst = rst
        self.bl = bl
        self._baud = baudrate       # the bus's clock, restored after reads
        self._buf = bytearray(2 * _BUF_PIXELS)
        self._mv = memoryview(self._buf)
        self._buf_color = -1        # colour the whole buffer holds, -1 none
        self._parts = {}
        self._cmd = bytearray(1)
        self._par = bytearray(4)
        self._par1 = memoryview(self._par)[:1]
        cs.init(cs.OUT, value=1)
        dc.init(dc.OUT, value=0)
        if bl is not None:
            bl.init(bl.OUT, value=0)
        if rst is not None:
            rst.init(rst.OUT, value=1)
        self.reset()
        if check_id:
            self.check_id()
        self.init()

    # ---- bus primitives -------------------------------------------------
    def write_cmd(self, cmd, data=None):
        """One command and its parameters in one CS-low period."""
        self._cmd[0] = cmd
        self.cs(0)
        self.dc(0)
        self.spi.write(self._cmd)
        if data:
            self.dc(1)
            self.spi.write(data)
        self.cs(1)

    def read_cmd(self, cmd, buf):
        """Send a read command and clock len(buf) bytes back (needs MISO)
        at 4 MHz (reads are slower than writes on both controllers), then
        set the bus's own `baudrate` again: without it, ValueError."""
        if not self._baud:
            raise ValueError(self.NAME + ": an ID read needs baudrate=")
        self.spi.init(baudrate=_READ_HZ)
        self._cmd[0] = cmd
        self.cs(0)
        self.dc(0)
        self.spi.write(self._cmd)
        self.dc(1)
        self.spi.readinto(buf)
        self.cs(1)
        self.spi.init(baudrate=self._baud)

    def _param16(self, cmd, a, b):
        p = self._par
        p[0] = a >> 8
        p[1] = a & 0xFF
        p[2] = b >> 8
        p[3] = b & 0xFF
        self.dc(0)
        self._cmd[0] = cmd
        self.spi.write(self._cmd)
        self.dc(1)
        self.spi.write(p)

    def _begin(self, x, y, w, h):
        """Open a RAM window (already clipped); CS stays low, DC high."""
        self.cs(0)
        self._param16(_CASET, x + self._xo, x + w - 1 + self._xo)
        self._param16(_RASET, y + self._yo, y + h - 1 + self._yo)
        self.dc(0)
        self._cmd[0] = _RAMWR
        self.spi.write(self._cmd)
        self.dc(1)

    # ---- reset and init -------------------------------------------------
    def reset(self):
        """Hardware reset when RST is wired (low >= 10 us), else SWRESET;
        then the 120 ms the controller needs before SLPOUT."""
        if self.rst is not None:
            self.rst(1)
            time.sleep_ms(1)
            self.rst(0)
            time.sleep_ms(1)
            self.rst(1)
        else:
            self.write_cmd(_SWRESET)
        time.sleep_ms(120)

    def check_id(self):
        raise NotImplementedError

    def _not_found(self, what, got, want):
        raise OSError("%s not answering on %s (cs=%s, dc=%s): %s read %s, "
                      "expected %s" % (self.NAME, self.spi, self.cs, self.dc,
                                       what, got, want))

    def init(self):
        self.write_cmd(_SLPOUT)
        time.sleep_ms(120)
        p = self._par
        p[0] = _COLMOD_16BIT
        self.write_cmd(_COLMOD, self._par1)
        p[0] = self._madctl
        self.write_cmd(_MADCTL, self._par1)
        self.write_cmd(_INVON if self._invert else _INVOFF)
        self.write_cmd(_NORON)
        self.fill(0)        # RAM powers up with noise
        self.write_cmd(_DISPON)
        time.sleep_ms(10)
        if self.bl is not None:
            self.bl(1)

    # ---- drawing ----------------------------------------------------------
    def _head(self, nbytes):
        """The buffer's first nbytes as a view; views of the sizes a program
        keeps drawing are kept, so steady drawing allocates nothing."""
        mv = self._parts.get(nbytes)
        if mv is None:
            mv = self._mv[:nbytes]
            if len(self._parts) < _PARTS:
                self._parts[nbytes] = mv
        return mv

    def _fill_buf(self, color, n):
        """The first n pixels of the buffer in `color` (remembered when full)."""
        if self._buf_color == color:
            return
        buf = self._buf
        hi = color >> 8 & 0xFF
        lo = color & 0xFF
        for i in range(0, 2 * n, 2):
            buf[i] = hi
            buf[i + 1] = lo
        self._buf_color = color if n == _BUF_PIXELS else -1

    def fill_rect(self, x, y, w, h, c):
        if x < 0:
            w += x
            x = 0
        if y < 0:
            h += y
            y = 0
        if x + w > self.width:
            w = self.width - x
        if y + h > self.height:
            h = self.height - y
        if w <= 0 or h <= 0:
            return
        n = w * h
        self._fill_buf(c, _BUF_PIXELS if n > _BUF_PIXELS else n)
        self._begin(x, y, w, h)
        spi = self.spi
        while n >= _BUF_PIXELS:
            spi.write(self._buf)
            n -= _BUF_PIXELS
        if n:
            spi.write(self._head(2 * n))
        self.cs(1)

    def fill(self, c):
        self.fill_rect(0, 0, self.width, self.height, c)

    def hline(self, x, y, w, c):
        self.fill_rect(x, y, w, 1, c)

    def vline(self, x, y, h, c):
        self.fill_rect(x, y, 1, h, c)

    def blit(self, buf, x, y, w, h):
        """Big-endian RGB565 bytes of a w x h image at (x, y), clipped."""
        if len(buf) < 2 * w * h:
            raise ValueError("blit: %d bytes given for %dx%d (need %d)"
                             % (len(buf), w, h, 2 * w * h))
        x0 = max(x, 0)
        y0 = max(y, 0)
        x1 = min(x + w, self.width)
        y1 = min(y + h, self.height)
        if x1 <= x0 or y1 <= y0:
            return
        self._begin(x0, y0, x1 - x0, y1 - y0)
        if x0 == x and x1 == x + w and y0 == y and y1 == y + h \
                and len(buf) == 2 * w * h:
            self.spi.write(buf)
        elif x0 == x and x1 == x + w:
            self.spi.write(memoryview(buf)[2 * w * (y0 - y):2 * w * (y1 - y)])
        else:
            src = memoryview(buf)
            for row in range(y0 - y, y1 - y):
                a = 2 * (row * w + x0 - x)
                self.spi.write(src[a:a + 2 * (x1 - x0)])
        self.cs(1)

    def text(self, s, x, y, fg, bg, scale=1):
        """s in the built-in font, each cell FONT_W*scale x FONT_H*scale,
        drawn as one window (characters that do not fit are left out)."""
        if scale < 1:
            raise ValueError("text: scale must be >= 1, not %r" % (scale,))
        cw = FONT_W * scale
        n = len(s)
        skip = 0
        if x < 0:
            skip = (-x + cw - 1) // cw
            x += skip * cw
        if x + (n - skip) * cw > self.width:
            n = skip + (self.width - x) // cw
        rows = FONT_H * scale
        r0 = -y if y < 0 else 0
        if y + rows > self.height:
            rows = self.height - y
        if n <= skip or rows <= r0:
            return
        w = (n - skip) * cw
        self._begin(x, y + r0, w, rows - r0)
        self._buf_color = -1
        buf = self._buf
        glyphs = font5x7.GLYPHS
        fh = fg >> 8 & 0xFF
        fl = fg & 0xFF
        bh = bg >> 8 & 0xFF
        bl = bg & 0xFF
        i = 0
        spi = self.spi
        for py in range(r0, rows):
            mask = 1 << (py // scale)
            for k in range(skip, n):
                o = ord(s[k])
                if o < font5x7.FIRST or o > font5x7.LAST:
                    o = 63      # '?'
                base = (o - font5x7.FIRST) * 5
                for col in range(FONT_W):
                    on = col < 5 and glyphs[base + col] & mask
                    for _ in range(scale):
                        if i == 2 * _BUF_PIXELS:
                            spi.write(buf)
                            i = 0
                        if on:
                            buf[i] = fh
                            buf[i + 1] = fl
                        else:
                            buf[i] = bh
                            buf[i + 1] = bl
                        i += 2
        if i:
            spi.write(self._head(i))
        self.cs(1)


def from_board(cfg):
    """The display a board's LCD dict describes (machine SPI and pins built
    here); the ID is checked only when MISO is wired."""
    from machine import Pin, SPI
    chip = cfg["chip"]
    mod = __import__(chip)
    cls = getattr(mod, chip.upper())
    kw = {}
    if cfg.get("miso") is not None:
        kw["miso"] = Pin(cfg["miso"])
    spi = SPI(cfg["spi"], baudrate=cfg["baudrate"], polarity=0, phase=0,
              sck=Pin(cfg["sck"]), mosi=Pin(cfg["mosi"]), **kw)
    # control pins after the bus: on rp2 a pin the SPI claimed by default
    # (GPIO8, SPI1's MISO, is the Pico-LCD-1.3's DC) becomes a GPIO again

    def pin(name, **kw):
        n = cfg.get(name)
        return None if n is None else Pin(n, Pin.OUT, **kw)
    # CS and RST start high: low, they would select or reset the panel
    return cls(spi, pin("cs", value=1), pin("dc"), rst=pin("rst", value=1),
               bl=pin("bl"),
               width=cfg["width"], height=cfg["height"],
               rotation=cfg.get("rotation", 0),
               x_offset=cfg.get("x_offset", 0),
               y_offset=cfg.get("y_offset", 0),
               invert=cfg.get("invert"),
               check_id=cfg.get("miso") is not None,
               baudrate=cfg["baudrate"])
