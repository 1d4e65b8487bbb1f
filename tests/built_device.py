"""Run a board's build (.mpy files) on the MicroPython unix port, as a device.

`flash` is a folder laid out like the board's flash after `make deploy`:
flash/main.py and flash/lib/*.mpy. The unix port runs with the flash folder
as its working directory, so sys.path is '' (the flash root) then lib, as
on rp2 and esp32; host_sim's shims (machine, time) and chip models come
first, and tests/ last for app_script's Rig. No firmware source folder is on
the path: every firmware import must come from the build.
"""
import os
import shutil
import subprocess

import upy

ROOT = upy.ROOT
CHIPS = ROOT / "host_sim" / "chips"
TESTS = ROOT / "tests"

# The LCD models keep the controller's whole frame memory (240x320 RGB565,
# 150 KB) in the same heap as the firmware, so the heap is larger than a
# board's; bench/bench_build.py reports what the firmware itself takes.
HEAPSIZE = "1024k"
# the unix port's path on a flash folder (its working directory): lib found
# from there, as on a board, so a module's file name is lib/x.mpy wherever
# flash is
MICROPYPATH = ":".join(str(p) for p in (upy.SHIMS, CHIPS, "lib", TESTS))


def flash_from_build(build_dir, flash):
    """Copy build_dir's main.py and lib/ into flash (as a deploy would)."""
    flash.mkdir(parents=True, exist_ok=True)
    shutil.copytree(build_dir / "lib", flash / "lib", dirs_exist_ok=True)
    shutil.copyfile(build_dir / "main.py", flash / "main.py")


def run_on_flash(flash, code, heapsize=HEAPSIZE, timeout=300):
    """Run code on the unix port from the flash folder; return stdout."""
    env = dict(os.environ, MICROPYPATH=MICROPYPATH)
    proc = subprocess.run(
        [upy.micropython_binary(), "-X", "heapsize=" + heapsize, "-c", code],
        capture_output=True, text=True, timeout=timeout, env=env,
        cwd=str(flash))
    if proc.returncode != 0:
        raise AssertionError(
            "micropython exited %d\n--- stdout\n%s\n--- stderr\n%s"
            % (proc.returncode, proc.stdout[-4000:], proc.stderr[-4000:]))
    return proc.stdout


def lines_with(out, tag):
    """The values printed as `tag <repr>` lines, parsed (MicroPython repr)."""
    import ast
    return [ast.literal_eval(line[len(tag) + 1:]) for line in out.splitlines()
            if line.startswith(tag + " ")]


def game_script(board_module, how):
    """A whole game against the level-1 AI, to the AI's five (the player's
    stones never touch), the player's moves by `how` ("joy": joystick taps;
    "tilt": tilt gestures), then a snapshot of every board point and of the
    winner banner. -> (events, expected stone per point 0/1/2, the winner)."""
    import gomoku
    from app_script import Script, layout, plan_lost_game, stone_point
    human = 1
    moves, game = plan_lost_game(gomoku.FREESTYLE, 1, human)
    assert game.winner == 2, "the plan does not end in the AI's five"
    view = layout(board_module)
    s = Script()
    s.tap("place")                  # the menu opens on "Start": vs AI
    s.wait(300)
    for k, m in enumerate(moves):
        if (k & 1) + 1 == human:
            s.place(m, how=how)
            s.wait(250)             # the AI answers
    s.wait(300)
    s.snap("end", [stone_point(view, i) for i in range(225)])
    s.snap("banner", [(1, 1)])
    expected = [game.stone(i % 15, i // 15) for i in range(225)]
    return s.end(), expected, game.winner


def write_events(path, events):
    """Store a script for PLAY (a file: a long list in the code string
    would cost the compiler more heap than the game)."""
    import json
    path.write_text(json.dumps(events))


PLAY = """\
import json
import board
import app_script
with open(%r) as f:
    events = json.load(f)
rig = app_script.Rig(board)
print("BOARD", repr(board.NAME))
print("RESULT", repr(rig.run(events)))
print("END", repr(rig.snaps["end"]))
print("BANNER", repr(rig.snaps["banner"]))
import sys
print("FILES", repr(sorted((k, getattr(m, "__file__", "")) for k, m in sys.modules.items())))
"""
