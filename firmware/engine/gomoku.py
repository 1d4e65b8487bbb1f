"""Gomoku rules: packed board, move history, incremental shape tables."""
# The contract (ARCHITECTURE.md), with x = column, y = row, 0..14:
#   g = Game(rule=FREESTYLE)  FREESTYLE 0: five or more wins; STANDARD 1:
#       exactly five; RENJU 4: black exactly five and no double three, double
#       four or overline unless the move makes five; white five or more.
#   g.turn (1 black, 2 white), g.winner (0 playing, 1, 2, 3 draw: a full
#   board, or under renju black to move and every free point forbidden to
#   it), g.moves,
#   g.rule, g.stone(x, y), g.play(x, y) -> winner, g.undo(), g.forbidden(x, y)
#   (renju: black may not play there), g.five() -> (x, y, dx, dy, n): the
#   winning row from its first stone, else None. Bad input raises ValueError
#   saying why (off the board, occupied, game over, forbidden for black:
#   double three / double four / overline, nothing to undo) and changes
#   nothing.
# State, all bytearrays: point i = y*15 + x.
#   board (57): i's stone is board[i >> 2] >> 2*(i & 3) & 3 (0, 1, 2).
#   hist (225): hist[k] = point of move k, k < moves (save/replay; the last
#       move is hist[moves - 1]).
#   pat (900): 4-bit shape codes for every point, direction d (0: x+1,
#       1: y+1, 2: x+1 y+1, 3: x-1 y+1; index step STEP[d]) and colour c:
#       pat[4*i + 2*(c-1) + (d >> 1)] >> 4*(d & 1) & 15
#       is the shape a stone of colour c placed on the empty point i makes
#       on that line: 0 none, 1 overline (six or more where only five wins),
#       2 dead two, 3 two (can make a three), 4 dead three (can make a four
#       only), 5 broken three (one way to a straight four), 6 open three (two
#       or more ways), 7 four (one way to five), 8 two fours on one line,
#       9 straight four, 10 five. Occupied points hold 0. The codes are
#       line-local (renju's "the straight four's point must not be forbidden"
#       is renju.why's job); exact definitions: tools/gen_shapes.py.
#   play() and undo() rewrite both colours' codes only within 5 points of the
#   move on its 4 lines (pattern.update); a move wins if it had code 10.
# For the search levels: g._why is renju.why (why(g, i) -> 0 allowed,
# 1 double three, 2 double four, 3 overline) under renju, else None.
# The micro:bit (MicroPython 1.9.2, ~9 KB heap, 1.8 KB C stack) compiles
# each module on import: importing the parts one by one, largest first,
# keeps both in reach. gamestate imports renju, so renju compiles first:
# the other way round, renju's compile needs a larger free block than is
# left. Error texts live in refusal, loaded only to raise one. Calls nest
# at most two deep below play() and level 1's best_move(): each takes ~240
# bytes of stack (level 2 nests deeper: the micro:bit runs it frozen, with
# MICROPY_STACKLESS).
import shapes  # noqa: F401
from pattern import STEP  # noqa: F401
import renju  # noqa: F401
from gamestate import Game  # noqa: F401

FREESTYLE = 0
STANDARD = 1
RENJU = 4
