"""The simulator's default handheld: the Pico-LCD-1.3 layout, with every
chip modelled by host_sim. Data only.

The pins are the Pico board's. The LCD keeps rotation 0 (the panel's own
orientation; the real hat is set to 90), so the simulator's picture is
the panel as mounted.
"""
NAME = "sim"
PORT = "sim"

LCD = {
    "chip": "st7789", "spi": 1, "baudrate": 40000000,
    "sck": 10, "mosi": 11, "miso": None,
    "cs": 9, "dc": 8, "rst": 12, "bl": 13,
    "width": 240, "height": 240, "rotation": 0, "x_offset": 0, "y_offset": 0,
}

GYRO = {
    "chip": "l3g4200d", "i2c": 1, "freq": 400000,
    "scl": 27, "sda": 26, "addr": 0x69,
    # chip axis (0 x, 1 y, 2 z) that turns when the device tilts right /
    # forward, and its sign
    "axes": (1, 0), "signs": (1, -1),
}

RADIO = {
    "chip": "nrf24l01", "spi": 0, "baudrate": 4000000,
    "sck": 6, "mosi": 7, "miso": 4,
    "cs": 5, "ce": 14, "irq": 22,
}

BUTTONS = {
    "place": 15, "back": 17, "menu": 19, "extra": 21,
    "up": 2, "down": 18, "left": 16, "right": 20, "press": 3,
}
