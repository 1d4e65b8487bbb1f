"""The simulator's handheld with an MPU6050 (GY-521, 0x68) in place of the
L3G4200D, mounted turned a quarter (its x axis forward), as on the ESP32
board: the same Pico-LCD-1.3 layout otherwise. Data only.
"""
NAME = "sim_mpu"
PORT = "sim"

LCD = {
    "chip": "st7789", "spi": 1, "baudrate": 40000000,
    "sck": 10, "mosi": 11, "miso": None,
    "cs": 9, "dc": 8, "rst": 12, "bl": 13,
    "width": 240, "height": 240, "rotation": 0, "x_offset": 0, "y_offset": 0,
}

GYRO = {
    "chip": "mpu6050", "i2c": 1, "freq": 400000,
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
