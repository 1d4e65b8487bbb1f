"""Display figures: bytes the drivers put on the SPI bus for typical draws,
counted from the simulator's bus trace (commands, parameters and pixels,
every byte clocked while the LCD's CS is low), and the time each implies
at the SPI clock its board's port really gives the chip (bytes * 8 /
clock: the ST7789 on pico_lcd13, the ILI9341 on esp32_ili9341; spi_clock
has the ports' dividers; CPU time between transfers not included). Also
what each driver holds in buffers: a 1024-byte line buffer and two small.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tools")]
import host_sim  # noqa: E402

host_sim.install()
import machine  # noqa: E402
import sim_clock  # noqa: E402
import lcd_base  # noqa: E402
import st7789  # noqa: E402
import ili9341  # noqa: E402
import st7789_model  # noqa: E402
import ili9341_model  # noqa: E402
import board_pico_lcd13  # noqa: E402
import board_esp32_ili9341  # noqa: E402
import spi_clock  # noqa: E402

SPI_HZ = {b.LCD["chip"]: spi_clock.bus_hz(b.PORT, b.LCD["baudrate"])
          for b in (board_pico_lcd13, board_esp32_ili9341)}
counts = {"bytes": 0, "windows": 0}


def count(rec):
    if rec["bus"] == "spi1":
        counts["bytes"] += len(rec["tx"]) // 2
        if rec.get("dc") == 0:
            tx = rec["tx"]
            counts["windows"] += sum(tx[i:i + 2] == "2c"
                                     for i in range(0, len(tx), 2))


def make(chip):
    machine.forget_all()
    sim_clock.reset()
    if chip == "st7789":
        m = st7789_model.ST7789Model(8, 12, 13, 240, 240)
        w, h, rot = 240, 240, 0
        cls = st7789.ST7789
    else:
        m = ili9341_model.ILI9341Model(8, 12, 13, 240, 320, mount=90)
        w, h, rot = 320, 240, 90
        cls = ili9341.ILI9341
    machine.attach_spi(1, 9, m, chip, dc=8)
    spi = machine.SPI(1, baudrate=SPI_HZ[chip])
    d = cls(spi, machine.Pin(9), machine.Pin(8), rst=machine.Pin(12),
            bl=machine.Pin(13), width=w, height=h, rotation=rot)
    machine.set_trace(count)
    return d, m


def measure(fn):
    counts["bytes"] = 0
    counts["windows"] = 0
    fn()
    machine.SPI._flush(1)
    return counts["bytes"], counts["windows"]


def seed_board(d, pitch):
    """The seed's figure: a 15x15 grid of lines at `pitch` pixels on a
    wooden square (one fill, 15 + 15 lines)."""
    span = 14 * pitch + 1
    x0 = (d.width - span) // 2
    y0 = (d.height - span) // 2
    d.fill_rect(x0 - 6, y0 - 6, span + 12, span + 12, 0xDDA0)
    for k in range(15):
        d.hline(x0, y0 + k * pitch, span, 0x3A02)
        d.vline(x0 + k * pitch, y0, span, 0x3A02)


def app_board(d):
    """The app's renderer (firmware/app/board_view.py), if present."""
    try:
        import board_view
        import gomoku
    except ImportError:
        return None
    v = board_view.BoardView(d, lcd_base.FONT_W, lcd_base.FONT_H)
    g = gomoku.Game()
    v.attach(g)
    return v, g


def line(hz, name, nbytes, windows):
    ms = nbytes * 8 * 1000.0 / hz
    print("%s: %d bytes on SPI (%d RAMWR windows) -> %.2f ms at %s"
          % (name, nbytes, windows, ms, spi_clock.mhz(hz)))


def figures(chip):
    d, m = make(chip)
    tag = "%s %dx%d" % (chip, d.width, d.height)
    hz = SPI_HZ[chip]
    line(hz, tag + " full-screen clear", *measure(lambda: d.fill(0x18E5)))
    for pitch in (13, 15):
        line(hz, tag + " 15x15 board, seed-style grid at %d px" % pitch,
             *measure(lambda p=pitch: seed_board(d, p)))
    line(hz, tag + " one text line (20 chars, 6x8 font)",
         *measure(lambda: d.text("Black (you) to move ", 0, 0, 0xEF7D,
                                 0x18E5)))
    line(hz, tag + " one text line at scale 2 (20 chars)",
         *measure(lambda: d.text("Black (you) to move ", 0, 0, 0xEF7D,
                                 0x18E5, 2)))
    app = app_board(d)
    if app:
        v, g = app
        line(hz, tag + " 15x15 board, app renderer draw_all (pitch %d)"
             % v.pitch, *measure(v.draw_all))
        g.play(7, 7)
        line(hz, tag + " one stone, app renderer draw_cell",
             *measure(lambda: v.draw_cell(112)))
    assert m.errors == [], m.errors


def buffers(d):
    """The bytes of a driver's own buffers, largest first."""
    return sorted((len(v) for v in vars(d).values() if isinstance(v, bytearray)),
                  reverse=True)


def main():
    for chip in ("st7789", "ili9341"):
        figures(chip)
        d, _ = make(chip)
        machine.set_trace(None)
        b = buffers(d)
        print("%s driver RAM: %d bytes of buffers (%s); no framebuffer (%dx%d "
              "would be %d bytes)" % (chip, sum(b), " + ".join(map(str, b)),
                                      d.width, d.height, 2 * d.width * d.height))


if __name__ == "__main__":
    main()
