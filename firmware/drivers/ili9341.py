"""ILI9341 SPI LCD controller (240x320 RAM, BGR glass), as on the common
2.4-2.8 inch red modules, whose glass shows RAM column 0 at its right edge:
the upright portrait view therefore sets MX.

    lcd = ILI9341(spi, cs, dc, rst=None, bl=None, width=320, height=240,
                  rotation=90, x_offset=0, y_offset=0, check_id=False,
                  invert=None, baudrate=None)

check_id needs `baudrate`, the bus's clock (else ValueError): the ID read
runs at 4 MHz (the datasheet's serial read cycle is >= 150 ns), then the bus
is set back to it.

Presence: with MISO wired (check_id=True) RDDPM (0Ah) must read 08h, the
power mode a reset leaves (normal mode, sleep in, display off), else OSError
naming the chip, bus and pins. RDID4 (D3h) would name the chip, but real
modules are reported not to answer it on the serial interface (only after an
undocumented D9h index command), so it is not relied on: any DCS controller
passes, a missing or unwired one (MISO reads ff or 00) does not.
"""
from micropython import const
import lcd_base

_RDDPM = const(0x0A)
_DPM_RESET = const(0x08)    # NORON set; BSTON, SLPOUT, DISON clear


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
        # an 8-bit read: no dummy clock on the serial interface
        buf = self._par1
        self.read_cmd(_RDDPM, buf)
        if buf[0] & 0xFC != _DPM_RESET:     # D1, D0 not defined
            self._not_found("RDDPM", "%02x" % buf[0], "08 after a reset")
