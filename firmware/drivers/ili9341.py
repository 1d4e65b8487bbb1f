"""ILI9341 SPI LCD controller (240x320 RAM, BGR glass), as on the common
2.4-2.8 inch red modules, whose glass shows RAM column 0 at its right edge:
the upright portrait view therefore sets MX.

    lcd = ILI9341(spi, cs, dc, rst=None, bl=None, width=320, height=240,
                  rotation=90, x_offset=0, y_offset=0, check_id=False,
                  invert=None, baudrate=None)

`baudrate` (the bus's clock) lets the ID read run at 4 MHz: the datasheet's
serial read cycle is >= 150 ns.

Presence: with MISO wired (check_id=True) RDID4 (D3h) must read a dummy
byte then 00 93 41, else OSError naming the chip, bus and pins.
"""
from micropython import const
import lcd_base
from lcd_base import color565, FONT_W, FONT_H  # noqa: F401  (API)

_RDID4 = const(0xD3)


class ILI9341(lcd_base.LCD):
    NAME = "ILI9341"
    RAM_W = 240
    RAM_H = 320
    # rotation -> MADCTL, BGR set: 0 = MX, 90 = MV, 180 = MY, 270 = MX|MY|MV
    ROTATIONS = {0: 0x48, 90: 0x28, 180: 0x88, 270: 0xE8}
    INVERT = False      # TN glass

    def __init__(self, spi, cs, dc, rst=None, bl=None, width=320, height=240,
                 rotation=90, x_offset=0, y_offset=0, check_id=False,
                 invert=None, baudrate=None):
        super().__init__(spi, cs, dc, rst, bl, width, height, rotation,
                         x_offset, y_offset, check_id, invert, baudrate)

    def check_id(self):
        buf = bytearray(4)
        self.read_cmd(_RDID4, buf)
        if buf[1] != 0x00 or buf[2] != 0x93 or buf[3] != 0x41:
            self._not_found("RDID4", "%02x %02x %02x" % (buf[1], buf[2], buf[3]),
                            "00 93 41")
