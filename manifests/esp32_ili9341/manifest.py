# Freeze manifest: the Gomoku firmware for the esp32_ili9341 board (esp32 port), built
# into a custom MicroPython image (see docs/HARDWARE.md, "A custom MicroPython
# image"). Frozen bytecode runs from flash, so imports cost no heap for code.
# Paths are relative to this file.
include("$(PORT_DIR)/boards/manifest.py")
include("../firmware.py")
module("board.py", opt=1)  # imports boards/board_esp32_ili9341.py as `board`
module("board_esp32_ili9341.py", base_path="../../boards", opt=1)
