# The firmware every board's freeze manifest includes: the engine, drivers,
# app and main.py, under their flat names as in /lib. Paths are relative to
# this file. opt=1 matches tools/build.py (asserts out, line numbers kept).

# The engine but deepsearch.py and vct.py: only level 3 imports them, and no
# device offers level 3 (tools/build.py, PC_ONLY). A test keeps this list
# equal to the engine modules `make build` deploys.
freeze("../firmware/engine",
       ("ai.py", "candscan.py", "gamestate.py", "gomoku.py", "movepick.py",
        "pattern.py", "refusal.py", "renju.py", "search.py", "shapes.py",
        "vcf.py", "winrow.py"),
       opt=1)
freeze("../firmware/drivers", opt=1)
freeze("../firmware/app", opt=1)
module("main.py", base_path="../firmware", opt=1)  # a frozen main.py runs at boot
