"""A MIPI-DCS LCD controller on a 4-wire SPI bus (D/CX pin), as the ST7789V
and ILI9341 datasheets describe it, and the glass it drives.

The model decodes the byte stream with the DC pin: DC low = command, DC high
= parameters or pixel data. It keeps the controller's frame memory (`ram`,
RAM_W x RAM_H pixels, big-endian RGB565, noise at power-on) and shows the
part of it the glass covers:

- power-on: until a hardware reset or SWRESET the registers hold leftovers,
  not the reset defaults. The datasheets promise the defaults only after a
  power-up with RESX held low (else they ask for a hardware reset), and an
  MCU restart (soft reboot, watchdog) leaves the panel powered with what the
  last program set. Here MADCTL, COLMOD, inversion and the window are left
  over (the glass stays dark: sleep in, display off); the first command
  before any reset (not SWRESET, NOP or a read) is noted in `errors`, and
  `reset_by` says what last reset the controller: None (nothing since
  power-on), "RST" or "SWRESET";
- hardware reset (RST low >= 10 us) restores the register defaults, and
  SWRESET all but MADCTL and COLMOD ("S/W Reset: No change" in the
  datasheets' default tables; the window's ends then follow MADCTL's MV);
  commands within 5 ms of either are ignored and noted in `errors`, within
  120 ms of a hardware reset applied in Sleep Out (the datasheets' reset
  timing: 5 ms when reset in Sleep In, 120 ms in Sleep Out);
  SLPOUT needs 120 ms after a reset, and 5 ms before the next command;
- SLPIN and SLPOUT each need 120 ms after the other (the datasheets'
  SLPIN/SLPOUT restrictions: 120 ms after a SLPOUT that woke the chip
  before SLPIN, 120 ms after a SLPIN that put it to sleep before SLPOUT):
  noted in `errors`; what the chip then does the datasheets do not say, so
  the model carries the command out;
- the SPI clock, told by the machine shim's `spi_clock` hook: a transfer
  faster than the chip's serial write cycle (WRITE_CYCLE_NS), or, when the
  host keeps the bytes a read command clocks out, its read cycle
  (READ_CYCLE_NS), is noted in `errors` (each rate once per kind);
- CASET/RASET set the window (SC..EC, SP..EP; SC > EC is refused), RAMWR
  starts at (SC, SP), RAMWRC continues; the pointer runs along the column,
  then the next page, and wraps to (SC, SP) after (EC, EP);
- MADCTL: MV exchanges the host's column/page addresses (column -> RAM row),
  then MX/MY reverse the RAM column/row order; BGR swaps red and blue;
- COLMOD: 16-bit (x5h) pixels are 2 bytes, 18-bit (x6h, the reset default)
  3 bytes of 6 significant bits each; 12-bit is flagged and ignored;
- INVON/INVOFF invert what the glass shows (an IPS glass shows colours as
  written only with INVON); the glass is dark until SLPOUT and DISPON, while
  in reset, and while the backlight pin (if any) is low;
- read commands answer on the following clocks (RDDID with its dummy clock);
- commands the chip does not know are ignored and listed in `unknown`.

`pixel(x, y)` is the RGB565 colour a person sees at (x, y) looking at the
device; the glass (`width` x `height`, native orientation, at `x_offset`,
`y_offset` in RAM) is mounted in the case rotated by `mount` degrees
clockwise. Runs on CPython and the MicroPython unix port.
"""
import machine
import sim_clock

NOP = 0x00
SWRESET = 0x01
RDDID = 0x04
RDDST = 0x09
RDDPM = 0x0A
RDDMADCTL = 0x0B
RDDCOLMOD = 0x0C
SLPIN = 0x10
SLPOUT = 0x11
PTLON = 0x12
NORON = 0x13
INVOFF = 0x20
INVON = 0x21
GAMSET = 0x26
DISPOFF = 0x28
DISPON = 0x29
CASET = 0x2A
RASET = 0x2B
RAMWR = 0x2C
RAMRD = 0x2E
PTLAR = 0x30
VSCRDEF = 0x33
TEOFF = 0x34
TEON = 0x35
MADCTL = 0x36
VSCSAD = 0x37
IDMOFF = 0x38
IDMON = 0x39
COLMOD = 0x3A
RAMWRC = 0x3C

MY = 0x80
MX = 0x40
MV = 0x20
BGR = 0x08

_RESET_PULSE_US = 10
_BUSY_US = 5000          # after reset, SWRESET, SLPIN, SLPOUT
_SLPOUT_AFTER_US = 120000
_SLEEP_OUT_RESET_US = 120000     # a hardware reset applied in Sleep Out
_SLEEP_TOGGLE_US = 120000        # SLPIN <-> SLPOUT
_MAX_ERRORS = 100

# commands every DCS controller here accepts without a visible effect
# (brightness/CABC 51h-5Eh: the backlight here is its own pin)
_PLAIN = (NOP, NORON, GAMSET, TEOFF, TEON, IDMOFF, PTLAR, VSCRDEF, 0x44,
          0x51, 0x53, 0x55, 0x5E)


def _noise(n):
    """What frame memory holds at power-on: deterministic garbage."""
    block = bytearray(251)
    x = 12345
    for i in range(251):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        block[i] = x >> 16 & 0xFF
    out = bytearray(n)
    for i in range(0, n, 251):
        k = min(251, n - i)
        out[i:i + k] = block[:k]
    return out


class DcsPanel:
    NAME = "dcs"
    RAM_W = 240
    RAM_H = 320
    GLASS_MIRROR_X = False  # glass shows RAM column RAM_W-1 at its left
    GLASS_BGR = False       # glass sub-pixels in B, G, R order
    GLASS_IPS = False       # normally-black IPS: needs INVON
    VENDOR = ()             # chip-specific commands: accepted, no effect here
    WRITE_CYCLE_NS = None   # serial clock cycle (write), min; None: unchecked
    READ_CYCLE_NS = None    # serial clock cycle (read), min

    def __init__(self, dc, rst=None, bl=None, width=240, height=240,
                 x_offset=0, y_offset=0, mount=0):
        if mount not in (0, 90, 180, 270):
            raise ValueError("mount must be 0, 90, 180 or 270")
        if (x_offset < 0 or y_offset < 0 or x_offset + width > self.RAM_W
                or y_offset + height > self.RAM_H):
            raise ValueError("%s: %dx%d glass at (%d,%d) outside %dx%d RAM" % (
                self.NAME, width, height, x_offset, y_offset, self.RAM_W,
                self.RAM_H))
        self.dc = dc
        self.rst = rst
        self.bl = bl
        self.glass_w = width
        self.glass_h = height
        self.x_offset = x_offset
        self.y_offset = y_offset
        self.mount = mount
        if mount in (90, 270):
            self.width, self.height = height, width
        else:
            self.width, self.height = width, height
        self.ram = _noise(2 * self.RAM_W * self.RAM_H)
        self.errors = []
        self.unknown = []
        self.commands = 0       # commands decoded (for tests and benches)
        self.pixels_written = 0
        self.version = 0        # bumps on every visible change
        self._rst_low_at = None
        self._rst_awake = False     # in Sleep Out when RST went low
        self._hz = None             # SCK of the transfer under way
        self._reads = False         # the host keeps what it clocks in
        self._hz_noted = []
        self._selected = False
        self._unreset_noted = False
        self._power_on()
        if rst is not None:
            machine.watch_pin(rst, self._on_rst)

    # ---- state --------------------------------------------------------------
    def _power_on(self):
        """Registers before any reset: what an earlier program left (the
        reset defaults are not guaranteed); powered long ago, so not busy."""
        self._defaults(sim_clock.now_us(), None)
        self.madctl = MY | MV | BGR
        self.colmod = 0x53          # 12-bit: pixels written as 16-bit go nowhere
        self.inverted = not self.GLASS_IPS
        self.sc, self.ec = 16, 31
        self.sp, self.ep = 16, 31
        self._busy_until = 0
        self._slpout_ok_at = 0

    def _defaults(self, now, how):
        self.reset_by = how
        self.sleeping = True
        self.display_on = False
        self.inverted = False
        self.idle = False
        self.partial = False
        if how != "SWRESET":
            self.madctl = 0
            self.colmod = 0x66
        cols, pages = self._extent()
        self.sc = 0
        self.ec = cols - 1
        self.sp = 0
        self.ep = pages - 1
        self._c = 0
        self._p = 0
        self._cmd = None
        self._params = bytearray()
        self._pend = bytearray()
        self._reading = None
        self._busy_until = now + _BUSY_US
        self._slpout_ok_at = now + _SLPOUT_AFTER_US
        self._woke_at = None        # SLPOUT that woke the chip
        self._slept_at = None       # SLPIN that put it to sleep
        self.version += 1

    def _extent(self):
        """How many column and page addresses the host has: MV exchanges
        the RAM's."""
        if self.madctl & MV:
            return self.RAM_H, self.RAM_W
        return self.RAM_W, self.RAM_H

    def _error(self, msg):
        if len(self.errors) < _MAX_ERRORS:
            self.errors.append("%s @%d us: %s" % (self.NAME, sim_clock.now_us(),
                                                  msg))

    def _on_rst(self, level):
        now = sim_clock.now_us()
        if level == 0:
            self._rst_low_at = now
            self._rst_awake = not self.sleeping
            self.version += 1
            return
        if self._rst_low_at is None:
            return
        width = now - self._rst_low_at
        self._rst_low_at = None
        if width < _RESET_PULSE_US:
            self._error("RST pulse of %d us ignored (needs >= 10 us)" % width)
            self.version += 1
            return
        awake = self._rst_awake
        self._defaults(now, "RST")
        if awake:
            self._busy_until = now + _SLEEP_OUT_RESET_US

    def in_reset(self):
        return self._rst_low_at is not None

    # ---- SPI ------------------------------------------------------------------
    def spi_clock(self, hz, reads):
        """The machine shim's hook: the SCK rate of the transfer that
        follows, and whether the host keeps the bytes clocked in."""
        self._hz = hz
        self._reads = reads

    def _check_clock(self, reading):
        hz = self._hz
        self._hz = None
        if hz is None:
            return
        if reading and self._reads:
            kind, ns = "read", self.READ_CYCLE_NS
        else:
            kind, ns = "write", self.WRITE_CYCLE_NS
        if ns is None or hz <= 1000000000 // ns:
            return
        key = (kind, hz)
        if key in self._hz_noted:
            return
        self._hz_noted.append(key)
        self._error("SPI clock %d Hz: a %d ns cycle, under the serial %s "
                    "cycle's %d ns minimum" % (hz, 1000000000 // hz, kind, ns))

    def spi_select(self):
        self._selected = True

    def spi_deselect(self):
        self._selected = False
        self._reading = None
        if self._pend:
            self._error("CS went high inside a pixel: %d byte(s) lost"
                        % len(self._pend))
            self._pend = bytearray()

    def spi_transfer(self, tx):
        if self.in_reset():
            self._hz = None
            return None
        self._check_clock(self._reading is not None and
                          machine.pin_level(self.dc) == 1)
        if machine.pin_level(self.dc) == 0:
            for b in tx:
                self._command(b)
            return None
        if self._reading is not None:
            return self._read_out(len(tx))
        if self._cmd == RAMWR or self._cmd == RAMWRC:
            self._write_pixels(tx)
            return None
        if self._cmd is None:
            return None
        for b in tx:
            self._param(b)
        return None

    # ---- commands -------------------------------------------------------------
    def _command(self, b):
        now = sim_clock.now_us()
        if now < self._busy_until:
            self._error("command %02x %d us too early (the chip is busy for 5 "
                        "ms after reset, SLPIN and SLPOUT, 120 ms after a "
                        "hardware reset in Sleep Out): ignored"
                        % (b, self._busy_until - now))
            self._cmd = None
            return
        self.commands += 1
        if (self.reset_by is None and not self._unreset_noted and b != SWRESET
                and b != NOP and self._reply(b) is None):
            self._unreset_noted = True
            self._error("command %02x before any reset: the registers are "
                        "whatever was left at power-on (hardware reset or "
                        "SWRESET first)" % b)
        self._cmd = b
        self._params = bytearray()
        self._pend = bytearray()
        self._reading = None
        if b == SWRESET:
            self._defaults(now, "SWRESET")
        elif b == SLPOUT:
            if now < self._slpout_ok_at:
                self._error("SLPOUT %d us after reset (needs 120 ms): ignored"
                            % (now - self._slpout_ok_at + _SLPOUT_AFTER_US))
                return
            if self.sleeping:
                if (self._slept_at is not None
                        and now - self._slept_at < _SLEEP_TOGGLE_US):
                    self._error("SLPOUT %d us after SLPIN (needs 120 ms)"
                                % (now - self._slept_at))
                self._woke_at = now
            self.sleeping = False
            self._busy_until = now + _BUSY_US
        elif b == SLPIN:
            if not self.sleeping:
                if (self._woke_at is not None
                        and now - self._woke_at < _SLEEP_TOGGLE_US):
                    self._error("SLPIN %d us after SLPOUT (needs 120 ms)"
                                % (now - self._woke_at))
                self._slept_at = now
            self.sleeping = True
            self._busy_until = now + _BUSY_US
        elif b == DISPON:
            self.display_on = True
        elif b == DISPOFF:
            self.display_on = False
        elif b == INVON:
            self.inverted = True
        elif b == INVOFF:
            self.inverted = False
        elif b == NORON:
            self.partial = False
        elif b == PTLON:
            self.partial = True
            self._error("PTLON: partial mode is not modelled")
        elif b == IDMON:
            self.idle = True
            self._error("IDMON: idle (8-colour) mode is not modelled")
        elif b == IDMOFF:
            self.idle = False
        elif b == RAMWR:
            self._c = self.sc
            self._p = self.sp
        elif b == RAMRD:
            self._error("RAMRD: reading frame memory is not modelled")
        elif b in (CASET, RASET, MADCTL, COLMOD, RAMWRC, VSCSAD) or b in _PLAIN:
            pass
        else:
            reply = self._reply(b)
            if reply is not None:
                self._reading = reply
            elif b not in self.VENDOR:
                self.unknown.append(b)
                self._error("unknown command %02x ignored" % b)
                self._cmd = None
                return
        self.version += 1

    def _param(self, b):
        p = self._params
        p.append(b)
        cmd = self._cmd
        if cmd == CASET or cmd == RASET:
            if len(p) == 4:
                s = p[0] << 8 | p[1]
                e = p[2] << 8 | p[3]
                cols, pages = self._extent()
                limit = (cols if cmd == CASET else pages) - 1
                name = "CASET" if cmd == CASET else "RASET"
                if s > e:
                    self._error("%s start %d > end %d: ignored" % (name, s, e))
                    return
                if e > limit:
                    self._error("%s end %d beyond %d: those pixels are lost"
                                % (name, e, limit))
                if cmd == CASET:
                    self.sc, self.ec = s, e
                else:
                    self.sp, self.ep = s, e
        elif cmd == MADCTL:
            if len(p) == 1:
                self.madctl = b
                self.version += 1
        elif cmd == COLMOD:
            if len(p) == 1:
                self.colmod = b
                if b & 7 not in (5, 6):
                    self._error("COLMOD %02x: only 16- and 18-bit pixels are "
                                "modelled" % b)
        elif cmd == VSCSAD:
            if len(p) == 2 and (p[0] or p[1]):
                self._error("VSCSAD: vertical scrolling is not modelled")

    def _reply(self, cmd):
        """Bytes clocked out after a read command, or None if not a read."""
        if cmd == RDDPM:
            # BSTON, IDMON, PTLON, SLPOUT, NORON, DISON (D7..D2)
            v = 0x80 if not self.sleeping else 0
            v |= 0x40 if self.idle else 0
            v |= 0x20 if self.partial else 0
            v |= 0x10 if not self.sleeping else 0
            v |= 0x08 if not self.partial else 0
            v |= 0x04 if self.display_on else 0
            return self._bits(v, 8, 0)
        if cmd == RDDMADCTL:
            return self._bits(self.madctl, 8, 0)
        if cmd == RDDCOLMOD:
            return self._bits(self.colmod, 8, 0)
        return None

    @staticmethod
    def _bits(value, nbits, dummy):
        """`dummy` idle clocks, then `nbits` of value MSB first, in bytes."""
        total = dummy + nbits
        nbytes = (total + 7) // 8
        word = value << (nbytes * 8 - total)
        out = bytearray(nbytes)
        for i in range(nbytes):
            out[i] = word >> (8 * (nbytes - 1 - i)) & 0xFF
        return [out, 0]

    def _read_out(self, n):
        data, pos = self._reading
        out = bytearray(n)
        for i in range(n):
            if pos < len(data):
                out[i] = data[pos]
            pos += 1
        self._reading[1] = pos
        return bytes(out)

    # ---- frame memory ---------------------------------------------------------
    def _write_pixels(self, tx):
        mode = self.colmod & 7
        if mode == 5:
            size = 2
        elif mode == 6:
            size = 3
        else:
            return
        data = self._pend + tx if self._pend else tx
        n = len(data) // size
        rest = len(data) - n * size
        self._pend = bytearray(data[len(data) - rest:]) if rest else bytearray()
        ram = self.ram
        rw = self.RAM_W
        rh = self.RAM_H
        m = self.madctl
        mv = m & MV
        mx = m & MX
        my = m & MY
        sc, ec, sp, ep = self.sc, self.ec, self.sp, self.ep
        c = self._c
        p = self._p
        i = 0
        if size == 2 and not mv and not mx:
            # columns run along a RAM row: copy each row's run at once
            left = n
            while left:
                run = ec - c + 1
                if run > left:
                    run = left
                row = rh - 1 - p if my else p
                k = rw - c if c + run > rw else run
                if k > 0 and 0 <= row < rh:
                    a = 2 * (row * rw + c)
                    ram[a:a + 2 * k] = data[i:i + 2 * k]
                i += 2 * run
                left -= run
                c += run
                if c > ec:
                    c = sc
                    p += 1
                    if p > ep:
                        p = sp
            n_done = n
            n = 0
        else:
            n_done = n
        for _ in range(n):
            if size == 2:
                hi = data[i]
                lo = data[i + 1]
            else:
                v = (data[i] >> 3) << 11 | (data[i + 1] >> 2) << 5 | \
                    data[i + 2] >> 3
                hi = v >> 8
                lo = v & 0xFF
            i += size
            if mv:
                col = p
                row = c
            else:
                col = c
                row = p
            if mx:
                col = rw - 1 - col
            if my:
                row = rh - 1 - row
            if 0 <= col < rw and 0 <= row < rh:
                a = 2 * (row * rw + col)
                ram[a] = hi
                ram[a + 1] = lo
            c += 1
            if c > ec:
                c = sc
                p += 1
                if p > ep:
                    p = sp
        self._c = c
        self._p = p
        self.pixels_written += n_done
        self.version += 1

    # ---- what the glass shows -------------------------------------------------
    def lit(self):
        """True when the glass shows frame memory at all."""
        if self.in_reset() or self.sleeping or not self.display_on:
            return False
        return self.bl is None or machine.pin_level(self.bl) == 1

    def ram_pixel(self, col, row):
        a = 2 * (row * self.RAM_W + col)
        return self.ram[a] << 8 | self.ram[a + 1]

    def glass_pixel(self, gx, gy):
        """RGB565 shown at glass column gx, row gy (native orientation)."""
        if not self.lit():
            return 0
        if self.GLASS_MIRROR_X:
            col = self.x_offset + self.glass_w - 1 - gx
        else:
            col = self.x_offset + gx
        v = self.ram_pixel(col, self.y_offset + gy)
        if self.GLASS_IPS != self.inverted:
            v ^= 0xFFFF
        if bool(self.madctl & BGR) != self.GLASS_BGR:
            v = (v & 0x1F) << 11 | (v & 0x07E0) | v >> 11
        return v

    def view_to_glass(self, x, y):
        m = self.mount
        if m == 0:
            return x, y
        if m == 90:
            return self.glass_w - 1 - y, x
        if m == 180:
            return self.glass_w - 1 - x, self.glass_h - 1 - y
        return y, self.glass_h - 1 - x

    def pixel(self, x, y):
        """RGB565 a person sees at (x, y) on the device."""
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IndexError("pixel (%d,%d) outside %dx%d" % (
                x, y, self.width, self.height))
        gx, gy = self.view_to_glass(x, y)
        return self.glass_pixel(gx, gy)

    @property
    def image(self):
        """The view as big-endian RGB565 bytes, row by row."""
        out = bytearray(2 * self.width * self.height)
        i = 0
        for y in range(self.height):
            for x in range(self.width):
                v = self.pixel(x, y)
                out[i] = v >> 8
                out[i + 1] = v & 0xFF
                i += 2
        return out

    def to_png(self, path):
        write_png(path, self.width, self.height, self.image)


def write_png(path, w, h, rgb565):
    """An 8-bit RGB PNG from big-endian RGB565 rows (stored deflate blocks,
    so no zlib is needed: runs on the unix port too)."""
    import binascii
    import struct
    raw = bytearray()
    for y in range(h):
        raw.append(0)
        for x in range(w):
            a = 2 * (y * w + x)
            v = rgb565[a] << 8 | rgb565[a + 1]
            r = v >> 11
            g = v >> 5 & 0x3F
            b = v & 0x1F
            raw.append(r * 255 // 31)
            raw.append(g * 255 // 63)
            raw.append(b * 255 // 31)
    try:
        import zlib
        z = zlib.compress(bytes(raw))
    except (ImportError, AttributeError):
        z = _stored_zlib(raw)

    def chunk(kind, data):
        c = struct.pack(">I", len(data)) + kind + data
        crc = binascii.crc32(kind + data) & 0xFFFFFFFF
        return c + struct.pack(">I", crc)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", bytes(z)))
        f.write(chunk(b"IEND", b""))


def _stored_zlib(raw):
    import struct
    out = bytearray(b"\x78\x01")
    n = len(raw)
    pos = 0
    while True:
        k = min(65535, n - pos)
        last = 1 if pos + k >= n else 0
        out.append(last)
        out += struct.pack("<HH", k, k ^ 0xFFFF)
        out += raw[pos:pos + k]
        pos += k
        if last:
            break
    a = 1
    b = 0
    for x in raw:
        a = (a + x) % 65521
        b = (b + a) % 65521
    out += struct.pack(">I", b << 16 | a)
    return out
