"""Raspberry Pi Pico + Waveshare Pico-LCD-1.3 (240x240 ST7789, keys A B X Y,
a 5-way joystick), an L3G4200D gyroscope (GY-50 module, SDO pulled up:
0x69) on I2C1 and an NRF24L01 on SPI0.

Data only: pin numbers are GPIO numbers. The LCD hat takes GP2, 3, 8-13,
15-21; the gyro and radio use pins it leaves free (GP26/27 are I2C1's
SDA/SCL; GP4/6/7 are SPI0's RX/SCK/TX). Buttons are active low (pull-up).
Rotation 90 (MADCTL MX|MV) is the hat's landscape view, as Waveshare's demo
sets it: joystick on the left, keys A, B, X, Y down the right edge.
"""
NAME = "pico_lcd13"
PORT = "rp2"

LCD = {
    "chip": "st7789", "spi": 1, "baudrate": 40000000,
    "sck": 10, "mosi": 11, "miso": None,
    "cs": 9, "dc": 8, "rst": 12, "bl": 13,
    "width": 240, "height": 240, "rotation": 90, "x_offset": 0, "y_offset": 0,
}

GYRO = {
    "chip": "l3g4200d", "i2c": 1, "freq": 400000,
    "scl": 27, "sda": 26, "addr": 0x69,
    # chip axis (0 x, 1 y, 2 z) that turns when the device tilts right /
    # forward, and its sign: the GY-50 lies flat, x to the right, y forward
    "axes": (1, 0), "signs": (1, -1),
}

RADIO = {
    "chip": "nrf24l01", "spi": 0, "baudrate": 4000000,
    "sck": 6, "mosi": 7, "miso": 4,
    "cs": 5, "ce": 14, "irq": 22,
}

# name -> GPIO; the joystick doubles as a cursor pad
BUTTONS = {
    "place": 15,   # key A
    "back": 17,    # key B: back / undo
    "menu": 19,    # key X
    "extra": 21,   # key Y
    "up": 2, "down": 18, "left": 16, "right": 20, "press": 3,
}
