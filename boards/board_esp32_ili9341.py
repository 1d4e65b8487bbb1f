"""ESP32 DevKit (WROOM-32) + 320x240 ILI9341 on VSPI, an MPU6050 (GY-521,
AD0 low: 0x68) on I2C0 and an NRF24L01 on HSPI.

Data only: pin numbers are GPIO numbers. VSPI and HSPI use their IO_MUX
pins (18/23/19/5, 14/13) except the radio's MISO: GPIO12 (HSPI's MISO) is
the flash-voltage strap, and a radio driving it high at reset stops the
board booting, so MISO is routed to input-only GPIO35. The radio's IRQ
is push-pull, but the driver's boot check of its wire wants the pin's
pull-up (a wire that is off then reads high, not floating), so it is on
GPIO25, not on GPIO34-39, which have none. Outputs on strapping pins (5,
15) idle high, as their straps want. Buttons need internal pull-ups too;
GPIO0 is the DevKit's BOOT button (held during reset it enters the ROM
loader).
"""
NAME = "esp32_ili9341"
PORT = "esp32"

LCD = {
    # 10 MHz: the ILI9341's serial write cycle is rated 100 ns at least
    "chip": "ili9341", "spi": 2, "baudrate": 10000000,
    "sck": 18, "mosi": 23, "miso": 19,
    "cs": 5, "dc": 4, "rst": 15, "bl": None,
    "width": 320, "height": 240, "rotation": 90, "x_offset": 0, "y_offset": 0,
}

GYRO = {
    "chip": "mpu6050", "i2c": 0, "freq": 400000,
    "scl": 22, "sda": 21, "addr": 0x68,
    # the GY-521 is mounted turned a quarter: its x axis points forward
    "axes": (0, 1), "signs": (1, 1),
}

RADIO = {
    "chip": "nrf24l01", "spi": 1, "baudrate": 4000000,
    "sck": 14, "mosi": 13, "miso": 35,
    "cs": 27, "ce": 26, "irq": 25,
}

BUTTONS = {
    "place": 32,
    "back": 33,
    "menu": 0,
}
