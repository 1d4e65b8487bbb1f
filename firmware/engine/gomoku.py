"""Gomoku rules: packed board, move history, incremental shape tables."""
# Point i = y*15+x. board: 57 bytes, 2 bits a point (0 empty, 1 black,
# 2 white). hist: 1 byte a move. pat: 900 bytes, 4-bit shape codes: point i,
# direction d (step STEP[d]: 0 x+1, 1 y+1, 2 x+1 y+1, 3 x-1 y+1), colour c:
# pat[4*i + 2*(c-1) + (d>>1)] >> 4*(d&1) & 15 = what a stone of colour c on
# empty i makes on that line: 0 none, 1 overline, 2 dead two, 3 two, 4 dead
# three, 5 broken three, 6 open three, 7 four, 8 two fours, 9 straight four,
# 10 five (tools/gen_shapes.py). Occupied points hold 0.
# The micro:bit compiles each module on import with a small C stack and
# heap: importing the parts one by one, largest first, keeps both in reach.
import shapes  # noqa: F401
from pattern import STEP  # noqa: F401
from gamestate import Game  # noqa: F401

FREESTYLE = 0
STANDARD = 1
RENJU = 4
