"""The game in progress on flash: written after every move, atomically.

File layout (all bytes): b"GMKS", version, rule, mode, level, human colour,
move count n, n moves (y*15+x), the games won in this run of rematches by
the player (or black) and by the other, CRC-16/CCITT (big-endian) of
everything before it. Version 1 had no games won; it still reads.

A save is written to a temporary file and renamed over the old one, so a
power cut leaves either the old save or the new one complete.

Reading the saves back, at boot, is saveread's: its code leaves the heap
once the boot is over.
"""
import os
from micropython import const
from crc16 import crc16

MAGIC = b"GMKS"
VERSION = 2
PATH = "gomoku.sav"
TMP = "gomoku.tmp"
BAD = "gomoku.bad"
MATCH = "gomoku.mat"    # a wireless match's snapshot (wireless.py)
MATCH_TMP = "gomoku.mtt"
MATCH_BAD = "gomoku.mbd"    # a damaged MATCH, apart from a damaged game
_ENOSPC = const(28)         # a full flash (not every port's errno module names it)
_EISDIR = const(21)         # a folder of the file's name
HEAD = const(10)            # magic 4, version, rule, mode, level, human, n
MAX = const(HEAD + 225 + 4)

_buf = bytearray(MAX)


def encode(rule, mode, level, human, moves, n, won=(0, 0, 0)):
    """Fill the module buffer; returns the byte count. won: the app's
    score, [1] the player's (or black's) games, [2] the other's."""
    if not 0 <= n <= 225:
        raise ValueError("move count out of range")
    b = _buf
    b[0:4] = MAGIC
    b[4] = VERSION
    b[5] = rule
    b[6] = mode
    b[7] = level
    b[8] = human
    b[9] = n
    for i in range(n):
        b[HEAD + i] = moves[i]
    end = HEAD + n
    b[end] = won[1]
    b[end + 1] = won[2]
    end += 2
    crc = crc16(b, end)
    b[end] = crc >> 8
    b[end + 1] = crc & 0xFF
    return end + 2


def write(rule, mode, level, human, moves, n, won=(0, 0, 0)):
    """Save atomically: temp file, then rename over the old save."""
    size = encode(rule, mode, level, human, moves, n, won)
    replace(TMP, PATH, memoryview(_buf)[:size])


def replace(tmp, path, data):
    """Write data to tmp, then rename it over path: never a half-written
    path. MicroPython's littlefs and FAT both rename over a file; a rename
    that fails leaves path as it was, and the whole tmp for the boot."""
    with open(tmp, "wb") as f:
        f.write(data)
    os.rename(tmp, path)


def not_saved(e):
    """A failed write's OSError in the player's words, not "[Errno 28] ENOSPC"."""
    if e.errno == _EISDIR:      # named at boot (hw_setup)
        return "Not saved: a folder is in the way"
    return ("Not saved: flash full" if e.errno == _ENOSPC
            else "Not saved: flash error %s" % (e.errno,))


def clear():
    """The game is over, or new with no move and no tally: nothing to resume."""
    remove(TMP)
    remove(PATH)


def any_match():
    """A wireless match is saved, whole or mid-write: worth loading the
    code that reads it."""
    for path in (MATCH, MATCH_TMP):
        try:
            os.stat(path)
            return True
        except OSError:
            pass
    return False


def remove(path):
    """Delete a file; one that is not there is no error."""
    try:
        os.remove(path)
    except OSError:
        pass
