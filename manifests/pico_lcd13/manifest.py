# Freeze manifest: the Gomoku firmware for the pico_lcd13 board (rp2 port), built
# into a custom MicroPython image (see docs/HARDWARE.md, "A custom MicroPython
# image"). Frozen bytecode runs from flash, so imports cost no heap for code.
# Paths are relative to this file.
include("$(PORT_DIR)/boards/manifest.py")
include("../firmware.py")
module("board.py", opt=1)  # imports boards/board_pico_lcd13.py as `board`
module("board_pico_lcd13.py", base_path="../../boards", opt=1)
