"""ESP32 DevKit + 320x240 ILI9341 on VSPI, an MPU6050 on I2C0 and an
NRF24L01 on HSPI.

Data only: pin numbers are GPIO numbers. Buttons are active low (pull-up);
GPIO 0 is the DevKit's BOOT button.
"""
NAME = "esp32_ili9341"
PORT = "esp32"

LCD = {
    "chip": "ili9341", "spi": 2, "baudrate": 40000000,
    "sck": 18, "mosi": 23, "miso": 19,
    "cs": 5, "dc": 4, "rst": 15, "bl": None,
    "width": 320, "height": 240, "rotation": 90, "x_offset": 0, "y_offset": 0,
}

GYRO = {
    "chip": "mpu6050", "i2c": 0, "freq": 400000,
    "scl": 22, "sda": 21, "addr": 0x68,
    "axes": (0, 1), "signs": (1, 1),
}

RADIO = {
    "chip": "nrf24l01", "spi": 1, "baudrate": 4000000,
    "sck": 14, "mosi": 13, "miso": 12,
    "cs": 27, "ce": 26, "irq": 25,
}

BUTTONS = {
    "place": 32,
    "back": 33,
    "menu": 0,
}
