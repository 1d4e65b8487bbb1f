"""The board config, frozen as `board`: the firmware does `import board`."""
from board_pico_lcd13 import *  # noqa: F403
