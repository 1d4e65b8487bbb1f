"""The board config, frozen as `board`: the firmware does `import board`."""
from board_esp32_ili9341 import *  # noqa: F403
