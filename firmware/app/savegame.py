"""The game in progress on flash: written after every move, atomically.

File layout (all bytes): b"GMKS", version, rule, mode, level, human colour,
move count n, n moves (y*15+x), CRC-16/CCITT (big-endian) of everything
before it. A save is written to a temporary file and renamed over the old
one, so a power cut leaves either the old save or the new one complete.
"""
import os
from micropython import const
from crc16 import crc16

MAGIC = b"GMKS"
VERSION = 1
PATH = "gomoku.sav"
TMP = "gomoku.tmp"
BAD = "gomoku.bad"
MATCH = "gomoku.mat"    # a wireless match's snapshot (wireless.py)
MATCH_TMP = "gomoku.mtt"
_ENOSPC = const(28)         # a full flash (not every port's errno module names it)
_HEAD = const(10)           # magic 4, version, rule, mode, level, human, n
_MAX = const(_HEAD + 225 + 2)
# What the app writes, and so all a save may hold (settings imports this
# module, so the values are restated here; a test keeps them equal):
_RULES = (0, 1, 4)      # settings.RULES: freestyle, exactly five, renju
_LEVELS = (1, 2)        # ai.LEVELS: the levels the menu offers
_MODE_AI = const(0)         # settings.MODE_AI: human is 1 (black) or 2 (white)
_MODE_LOCAL = const(1)      # settings.MODE_LOCAL: two players, human is 0
# settings.MODE_RADIO is never saved here: a wireless match keeps MATCH

_buf = bytearray(_MAX)


class Saved:
    """A decoded save: the settings and the move list of one game."""

    def __init__(self, rule, mode, level, human, moves):
        self.rule = rule
        self.mode = mode
        self.level = level
        self.human = human
        self.moves = moves      # bytes, y*15+x each


def encode(rule, mode, level, human, moves, n):
    """Fill the module buffer; returns the byte count."""
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
        b[_HEAD + i] = moves[i]
    end = _HEAD + n
    crc = crc16(b, end)
    b[end] = crc >> 8
    b[end + 1] = crc & 0xFF
    return end + 2


def decode(data):
    """bytes -> Saved; ValueError naming what is wrong.

    Every field must be one the app writes: a save with a good CRC but a
    rule, mode, level or colour the app never chose is foreign, and load()
    sets it aside. Whether the moves replay (no point taken twice, none
    after the end, none renju forbids) only the engine can tell: the app
    replays them on resume and sets the save aside if one is refused.
    """
    if len(data) < _HEAD + 2:
        raise ValueError("truncated")
    if data[0:4] != MAGIC:
        raise ValueError("not a save")
    if data[4] != VERSION:
        raise ValueError("version %d" % data[4])
    n = data[9]
    end = _HEAD + n
    if n > 225 or len(data) != end + 2:
        raise ValueError("truncated" if len(data) < end + 2 else "bad length")
    if crc16(data, end) != (data[end] << 8) | data[end + 1]:
        raise ValueError("bad checksum")
    moves = bytes(data[_HEAD:end])
    for m in moves:
        if m >= 225:
            raise ValueError("a move off the board")
    rule, mode, level, human = data[5], data[6], data[7], data[8]
    if rule not in _RULES:
        raise ValueError("unknown rule %d" % rule)
    if mode == _MODE_AI:
        if human != 1 and human != 2:
            raise ValueError("vs AI with player colour %d" % human)
    elif mode == _MODE_LOCAL:
        if human != 0:
            raise ValueError("2 players with player colour %d" % human)
    else:
        raise ValueError("unknown mode %d" % mode)
    if level not in _LEVELS:
        raise ValueError("unknown level %d" % level)
    return Saved(rule, mode, level, human, moves)


def write(rule, mode, level, human, moves, n):
    """Save atomically: temp file, then rename over the old save."""
    size = encode(rule, mode, level, human, moves, n)
    replace(TMP, PATH, memoryview(_buf)[:size])


def replace(tmp, path, data):
    """Write data to tmp, then rename it over path: never a half-written path."""
    with open(tmp, "wb") as f:
        f.write(data)
    try:
        os.rename(tmp, path)
    except OSError:
        # FAT cannot rename over a file; a reader still finds tmp if power
        # fails between these two steps.
        _remove(path)
        os.rename(tmp, path)


def not_saved(e):
    """A failed write's OSError in the player's words, not "[Errno 28] ENOSPC"."""
    return ("Not saved: flash full" if e.errno == _ENOSPC
            else "Not saved: flash error %s" % (e.errno,))


def clear():
    """The game is over or abandoned: nothing to resume."""
    _remove(TMP)
    _remove(PATH)


def _remove(path):
    try:
        os.remove(path)
    except OSError:
        pass


def _read(path, size):
    try:
        with open(path, "rb") as f:
            return f.read(size)
    except OSError:
        return None


def recover(tmp, path, check, size=_MAX + 1):
    """The newest of a replace()'s two files, read at boot (up to size
    bytes), or None. Power cut after tmp was written and before the rename
    leaves tmp the newest: unless check(data) raises ValueError, it takes
    path's place; a broken tmp is dropped (its write never finished)."""
    data = _read(tmp, size)
    if data is None:
        return _read(path, size)
    try:
        check(data)
    except ValueError:
        _remove(tmp)
        return _read(path, size)
    try:
        _remove(path)
        os.rename(tmp, path)
    except OSError:
        pass
    return data


def load():
    """At boot: (Saved or None, problem text or None). Never raises.

    A complete TMP is the newest save (see recover()). A broken PATH is
    renamed to BAD and reported.
    """
    data = recover(TMP, PATH, decode)
    if data is None:
        return None, None
    try:
        return decode(data), None
    except ValueError as e:
        return None, set_aside("game", e)


def set_aside(what, why, path=PATH):
    """Move a damaged save (PATH or MATCH) out of the way of the next, kept
    as BAD for a post-mortem; -> the note for the player: what it was, why,
    where it went."""
    _remove(BAD)
    try:
        os.rename(path, BAD)
        where = "kept as " + BAD
    except OSError:
        _remove(path)
        where = "removed"
    return "Saved %s not resumed (%s): %s" % (what, why, where)
