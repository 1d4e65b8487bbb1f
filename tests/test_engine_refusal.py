"""The engine's error messages come from refusal.py, loaded only to raise
one and gone from sys.modules afterwards (on the micro:bit its text would
otherwise stay on the heap): exact texts, on CPython and the unix port."""
from pathlib import Path

import upy

TESTS = Path(__file__).resolve().parent

# Runs on both: each refusal's text, and whether refusal stayed loaded.
SCRIPT = """
import sys, gomoku, ai
from engine_cases import build
def said(fn, *args):
    try:
        fn(*args)
    except ValueError as e:
        print(str(e) + '|' + str('refusal' in sys.modules))
said(gomoku.Game, 3)
said(gomoku.Game, 4.0)
said(gomoku.Game, True)
g = gomoku.Game(0)
said(g.undo)
said(g.play, 15, 0)
said(g.stone, -1, 2)
g.play(7, 7)
said(g.play, 7, 7)
said(ai.best_move, g, 0)
said(ai.best_move, g, 4)
said(ai.best_move, g, '2')
said(ai.best_move, g, 2.0)
said(ai.best_move, g, 1.0)
said(ai.best_move, g, True)
g = build(gomoku.RENJU, [(6, 7), (7, 7), (8, 5), (8, 6)])
g.play(0, 4)
said(g.play, 8, 7)
g = build(gomoku.RENJU, [(4, 7), (6, 7), (8, 7), (10, 7)])
g.play(0, 4)
said(g.play, 7, 7)
g = build(gomoku.RENJU, [(0, 5), (1, 5), (2, 5), (4, 5), (5, 5)])
g.play(12, 12)
said(g.play, 3, 5)
g = build(gomoku.FREESTYLE, [(x, 0) for x in range(5)])
said(g.play, 5, 5)
said(ai.best_move, g, 1)
print('loaded after all:', 'refusal' in sys.modules)
"""

EXPECTED = [
    "rule must be 0, 1 or 4",
    "rule must be 0, 1 or 4",           # a rule is a whole number: 4.0
    "rule must be 0, 1 or 4",           # is not RENJU, nor True STANDARD
    "nothing to undo",
    "(15, 0) is off the board",
    "(-1, 2) is off the board",
    "(7, 7) is occupied",
    "level 0 not available",
    "level 4 not available",
    "level '2' not available",          # a level is a number, not its text
    "level 2.0 not available",
    "level 1.0 not available",          # equal to 1, but not the number 1
    "level True not available",
    "(8, 7) is forbidden for black: double three",
    "(7, 7) is forbidden for black: double four",
    "(3, 5) is forbidden for black: overline",
    "game over",
    "game over",
]
WANT = [t + "|False" for t in EXPECTED] + ["loaded after all: False"]


def test_messages_on_cpython_and_refusal_leaves_sys_modules(capsys):
    exec(SCRIPT, {})
    assert capsys.readouterr().out.split("\n")[:-1] == WANT


def test_messages_on_the_unix_port():
    # asking for level 4 loads level 3's search modules: at 128k this had
    # 5 KB to spare, less than the unix port's heap use varies by machine
    out = upy.run(SCRIPT, heapsize="192k", extra_path=[TESTS])
    assert out.split("\n")[:len(WANT)] == WANT
