"""ST7789V SPI LCD controller (240x320 RAM), e.g. the 240x240 IPS glass of
the Waveshare Pico-LCD-1.3.

    lcd = ST7789(spi, cs, dc, rst=None, bl=None, width=240, height=240,
                 rotation=0, x_offset=0, y_offset=0, check_id=False,
                 invert=None, baudrate=None)

(lcd_base.from_board(board.LCD) builds it from a board's LCD dict.)

Presence: with MISO wired (check_id=True) RDDID (04h) must read the ST7789V's
ID 85 85 52, else OSError; the read runs at 4 MHz, so check_id needs
`baudrate`, the bus's clock to set back (else ValueError). Without MISO (the
Pico-LCD-1.3 has none) nothing on a write-only bus can tell a missing panel
from a present one: the screen simply stays dark; the geometry is still
checked (ValueError).
"""
from micropython import const
import lcd_base

_RDDID = const(0x04)
_ID = const(0x858552)


class ST7789(lcd_base.LCD):
    NAME = "ST7789"
    RAM_W = 240
    RAM_H = 320
    # rotation -> MADCTL (RGB order): 90 = MX|MV, 180 = MX|MY, 270 = MY|MV
    ROTATIONS = {0: 0x00, 90: 0x60, 180: 0xC0, 270: 0xA0}
    INVERT = True       # IPS glass: INVON shows colours as written

    def check_id(self):
        # serial read of RDDID: one dummy clock, then 24 ID bits
        buf = self._par
        self.read_cmd(_RDDID, buf)
        got = ((buf[0] << 24 | buf[1] << 16 | buf[2] << 8 | buf[3]) >> 7) \
            & 0xFFFFFF
        if got != _ID:
            self._not_found("RDDID", "%06x" % got, "%06x" % _ID)
