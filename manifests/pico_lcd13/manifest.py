# Freeze manifest: the Gomoku firmware for the pico_lcd13 board (rp2 port), built
# into a custom MicroPython image (see docs/HARDWARE.md, "A custom MicroPython
# image"). Frozen bytecode runs from flash, so imports cost no heap for code.
# Every firmware module keeps its flat name, as in /lib; paths are relative
# to this file. opt=1 matches tools/build.py (asserts out, line numbers kept).
include("$(PORT_DIR)/boards/manifest.py")

# The engine but deepsearch.py and vct.py: only level 3 imports them, and no
# device offers level 3 (tools/build.py, PC_ONLY). A test keeps this list
# equal to the engine modules `make build` deploys.
freeze("../../firmware/engine",
       ("ai.py", "candscan.py", "gamestate.py", "gomoku.py", "movepick.py",
        "pattern.py", "refusal.py", "renju.py", "search.py", "shapes.py",
        "vcf.py", "winrow.py"),
       opt=1)
freeze("../../firmware/drivers", opt=1)
freeze("../../firmware/app", opt=1)
module("board.py", opt=1)  # imports boards/board_pico_lcd13.py as `board`
module("board_pico_lcd13.py", base_path="../../boards", opt=1)
module("main.py", base_path="../../firmware", opt=1)  # a frozen main.py runs at boot
