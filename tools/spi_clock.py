"""The clock an SPI bus really runs at on a board's port (bench figures,
docs/HARDWARE.md's wiring tables).

A port's SPI block divides its input clock, so a board's `baudrate`
becomes a rate that divider can make, mostly a little below the one asked:

- rp2: the RP2040's PL022 divides clk_peri by an even prescale (2..254)
  times a post-divide (1..256). MicroPython's rp2 port runs clk_peri from
  the USB PLL at 48 MHz, whatever machine.freq() is (its main() sets the
  system clock with the pico-sdk's set_sys_clock_khz, which moves clk_peri
  there). The port sets the rate with the pico-sdk's spi_set_baudrate: the
  smallest prescale with clk < (prescale + 2) * 256 * rate, then the
  largest post-divide whose next smaller one would be above the rate (for
  some slow rates none is: 50 kHz asked gives 93.75 kHz). 40 MHz asked
  runs at 48 / 2 = 24 MHz, the fastest there is.
- esp32: the SPI master divides its 80 MHz APB clock by a whole number;
  the 10 MHz the ILI9341 board asks is 80 / 8.
- the simulator runs a bus at the rate asked.
"""
RP2040_CLK_PERI = 48000000
ESP32_APB = 80000000


def rp2040(hz, clk=RP2040_CLK_PERI):
    """The RP2040's SPI clock for `hz` asked."""
    prescale = 2
    while prescale <= 254 and clk >= (prescale + 2) * 256 * hz:
        prescale += 2
    if prescale > 254:
        raise ValueError("%d Hz is below the RP2040's slowest SPI clock" % hz)
    postdiv = 256
    while postdiv > 1 and clk // (prescale * (postdiv - 1)) <= hz:
        postdiv -= 1
    return clk // (prescale * postdiv)


def esp32(hz, apb=ESP32_APB):
    """The ESP32's SPI clock for `hz` asked: APB over a whole divisor."""
    return apb // max(1, -(-apb // hz))


def bus_hz(port, hz):
    """The clock of a bus asked for `hz` on `port` (a board's PORT)."""
    if port == "rp2":
        return rp2040(hz)
    if port == "esp32":
        return esp32(hz)
    return hz


def mhz(hz):
    """`hz` as the benches and wiring tables print it: '24 MHz', '2.96296 MHz'."""
    return "%g MHz" % (hz / 1e6)
