"""The saves read back at boot: the game in progress (savegame's layout),
and whichever of an atomic write's two files is complete (savegame.replace,
settings, a wireless match). Also sets a damaged save aside. Loaded only for
these: at boot, and when a saved game or match fails to replay; the phase
that loaded it unloads it.
"""
import os
from micropython import const
from crc16 import crc16
from savegame import MAGIC, VERSION, HEAD, MAX, PATH, TMP, BAD, remove

# What the app writes, and so all a save may hold (restated, not imported
# from settings and ai; a test keeps them equal):
_RULES = (0, 1, 4)      # settings.RULES: freestyle, exactly five, renju
_LEVELS = (1, 2)        # ai.LEVELS: the levels the menu offers
_MODE_AI = const(0)         # settings.MODE_AI: human is 1 (black) or 2 (white)
_MODE_LOCAL = const(1)      # settings.MODE_LOCAL: two players, human is 0
# settings.MODE_RADIO is never saved here: a wireless match keeps MATCH


class Saved:
    """A decoded save: the settings and the move list of one game."""

    def __init__(self, rule, mode, level, human, moves, won):
        self.rule = rule
        self.mode = mode
        self.level = level
        self.human = human
        self.moves = moves      # bytes, y*15+x each
        self.won = won          # games won in the run of rematches: the
                                # player's (or black's), the other's


def decode(data):
    """bytes -> Saved; ValueError naming what is wrong.

    Every field must be one the app writes: a save with a good CRC but a
    rule, mode, level or colour the app never chose is foreign, and load()
    sets it aside. Whether the moves replay (no point taken twice, none
    after the end, none renju forbids) only the engine can tell: the app
    replays them on resume and sets the save aside if one is refused.
    """
    if len(data) < HEAD + 2:
        raise ValueError("truncated")
    if data[0:4] != MAGIC:
        raise ValueError("not a save")
    v = data[4]
    if v != VERSION and v != 1:         # 1: no games won
        raise ValueError("version %d" % v)
    n = data[9]
    end = HEAD + n + (2 if v == VERSION else 0)
    if n > 225 or len(data) != end + 2:
        raise ValueError("truncated" if len(data) < end + 2 else "bad length")
    if crc16(data, end) != (data[end] << 8) | data[end + 1]:
        raise ValueError("bad checksum")
    moves = bytes(data[HEAD:HEAD + n])
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
    # version 1 saved no games won: none
    return Saved(rule, mode, level, human, moves,
                 bytes(data[HEAD + n:end]) or b"\0\0")


def _read(path, size):
    try:
        with open(path, "rb") as f:
            return f.read(size)
    except OSError:
        return None


def recover(tmp, path, check, size=MAX + 1):
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
        remove(tmp)
        return _read(path, size)
    try:
        remove(path)
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


def set_aside(what, why, path=PATH, bad=BAD):
    """Move a damaged save (PATH or MATCH) out of the way of the next, kept
    as bad (BAD or MATCH_BAD: both can be damaged at one boot) for a
    post-mortem; -> the note for the player: what it was, why, where it
    went."""
    remove(bad)
    try:
        os.rename(path, bad)
        where = "kept as " + bad
    except OSError:
        remove(path)
        where = "removed"
    return "Saved %s not resumed (%s): %s" % (what, _named(str(why)), where)


def _named(why):
    # a move the engine refused, "(7, 7) is occupied", as the screens name
    # points: "H8 is occupied" (column A-O, row 1 at the bottom)
    if why[:1] == "(" and ")" in why:
        end = why.index(")")
        xy = why[1:end].split(",")
        try:
            x, y = int(xy[0]), int(xy[1])
        except (ValueError, IndexError):
            return why
        if 0 <= x < 15 and 0 <= y < 15:
            return "%s%d%s" % ("ABCDEFGHIJKLMNO"[x], 15 - y, why[end + 1:])
    return why
