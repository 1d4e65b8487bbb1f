"""The simulator's handheld with a GY-521 that carries an MPU-6500
(WHO_AM_I 0x70), as GY-521 boards sold today often do, in place of the
MPU-6050: otherwise board_sim_mpu. The firmware's mpu6050 driver finds
the part itself; "part" tells host_sim which one to model. Data only.
"""
NAME = "sim_mpu6500"
PORT = "sim"

LCD = {
    "chip": "st7789", "spi": 1, "baudrate": 40000000,
    "sck": 10, "mosi": 11, "miso": None,
    "cs": 9, "dc": 8, "rst": 12, "bl": 13,
    "width": 240, "height": 240, "rotation": 0, "x_offset": 0, "y_offset": 0,
}

GYRO = {
    "chip": "mpu6050", "part": "6500", "i2c": 1, "freq": 400000,
    "scl": 27, "sda": 26, "addr": 0x68,
    "axes": (0, 1), "signs": (1, 1),
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
