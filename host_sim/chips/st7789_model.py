"""ST7789V model (Sitronix datasheet): 240x320 frame memory, RDDID 85 85 52
with one dummy clock on the serial bus (RDID1/RDID2/RDID3, DAh/DBh/DCh:
85, 85, 52 without one), the serial clock limits (write cycle >= 16 ns,
62.5 MHz; read cycle >= 150 ns, 6.67 MHz), and the 240x240 IPS glass of the
Waveshare Pico-LCD-1.3 (RAM rows 0..239, RGB order, needs INVON).
See mipi_dcs_model for the behaviour shared with other DCS controllers.
"""
import mipi_dcs_model as dcs

ID = 0x858552


class ST7789Model(dcs.DcsPanel):
    NAME = "st7789"
    RAM_W = 240
    RAM_H = 320
    GLASS_MIRROR_X = False
    GLASS_BGR = False
    GLASS_IPS = True
    # porch, gate, VCOM, power and gamma settings: accepted, no visible effect
    VENDOR = (0xB0, 0xB1, 0xB2, 0xB3, 0xB7, 0xBA, 0xBB, 0xC0, 0xC2, 0xC3,
              0xC4, 0xC6, 0xD0, 0xE0, 0xE1, 0xE4, 0xE7, 0xE8, 0xE9)
    # serial interface timing: TSCYCW (serial clock cycle, write) >= 16 ns,
    # TSCYCR (read) >= 150 ns (ST7789VW datasheet, p.44, the serial
    # interface's AC characteristics)
    WRITE_CYCLE_NS = 16
    READ_CYCLE_NS = 150

    def __init__(self, dc, rst=None, bl=None, width=240, height=240,
                 x_offset=0, y_offset=0, mount=0):
        dcs.DcsPanel.__init__(self, dc, rst, bl, width, height, x_offset,
                              y_offset, mount)

    def _reply(self, cmd):
        if cmd == dcs.RDDID:
            return self._bits(ID, 24, 1)
        if cmd in (0xDA, 0xDB, 0xDC):       # RDID1..3: 8-bit, no dummy
            return self._bits(ID >> (8 * (0xDC - cmd)) & 0xFF, 8, 0)
        return dcs.DcsPanel._reply(self, cmd)
