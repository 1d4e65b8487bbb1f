"""The engine's error messages, loaded only when it refuses something."""
import sys

_TEXT = (
    "rule must be 0, 1 or 4",                           # 0
    "(%r, %r) is off the board",                        # 1 (x, y)
    "game over",                                        # 2
    "(%d, %d) is occupied",                             # 3 (x, y)
    "(%d, %d) is forbidden for black: double three",    # 4 (x, y)
    "(%d, %d) is forbidden for black: double four",     # 5 (x, y)
    "(%d, %d) is forbidden for black: overline",        # 6 (x, y)
    "nothing to undo",                                  # 7
    "level %r not available",                           # 8 (level)
)


def error(n, *args):
    # The ValueError for message n. The module leaves sys.modules as it
    # speaks, so its text does not stay on a small heap (where there is a
    # sys.modules: the micro:bit's MicroPython has none).
    getattr(sys, "modules", {}).pop(__name__, None)
    return ValueError(_TEXT[n] % args)
