"""ILI9341 model (Ilitek datasheet V1.11): 240x320 frame memory, RDID4 (D3h)
answering a dummy byte then 00 93 41, RDDID (04h) a dummy clock then
00 80 00 and RDID1/RDID2/RDID3 (DAh/DBh/DCh) 00, 80, 00 (ID2's bit 7 is
fixed at 1, its default 80h: datasheet p.152), the serial clock limits
(write cycle >= 100 ns, 10 MHz; read cycle >= 150 ns, 6.67 MHz), and the
240x320 TN glass of the common 2.4-2.8 inch modules: B, G, R sub-pixels
and RAM column 0 at the glass's right edge (so the upright portrait view
needs MADCTL MX|BGR).
See mipi_dcs_model for the behaviour shared with other DCS controllers.

`id4_on_spi=False` models modules reported not to answer RDID4 on the
serial interface (MISO left undriven, read as ff), unless an undocumented
D9h index command comes first: a driver must not depend on it.
"""
import mipi_dcs_model as dcs

ID4 = 0x009341
ID = 0x008000       # RDDID: ID1 00, ID2 80 (bit 7 fixed at 1), ID3 00


class ILI9341Model(dcs.DcsPanel):
    NAME = "ili9341"
    RAM_W = 240
    RAM_H = 320
    GLASS_MIRROR_X = True
    GLASS_BGR = True
    GLASS_IPS = False
    # power, VCOM, frame rate, display function, gamma, interface and the
    # undocumented-but-common EF/CB/CF/E8/EA/ED/F7 settings: no visible effect
    VENDOR = (0xB0, 0xB1, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xC0, 0xC1, 0xC5,
              0xC7, 0xCB, 0xCF, 0xE0, 0xE1, 0xE8, 0xEA, 0xED, 0xEF, 0xF2,
              0xF6, 0xF7)
    # serial interface timing: twc (serial clock cycle, write) >= 100 ns,
    # trc (read) >= 150 ns, i.e. 10 MHz and 6.67 MHz (ILI9341 datasheet
    # V1.11, the serial interface's AC characteristics)
    WRITE_CYCLE_NS = 100
    READ_CYCLE_NS = 150

    def __init__(self, dc, rst=None, bl=None, width=240, height=320,
                 x_offset=0, y_offset=0, mount=0, id4_on_spi=True):
        dcs.DcsPanel.__init__(self, dc, rst, bl, width, height, x_offset,
                              y_offset, mount)
        self.id4_on_spi = id4_on_spi

    def _reply(self, cmd):
        if cmd == 0xD3:
            if not self.id4_on_spi:
                return self._bits(0xFFFFFFFF, 32, 0)    # MISO undriven
            return self._bits(ID4, 24, 8)
        if cmd == dcs.RDDID:
            return self._bits(ID, 24, 1)    # one dummy clock, then 24 bits
        if cmd in (0xDA, 0xDB, 0xDC):       # RDID1..3: 8-bit, no dummy
            return self._bits(ID >> (8 * (0xDC - cmd)) & 0xFF, 8, 0)
        return dcs.DcsPanel._reply(self, cmd)
