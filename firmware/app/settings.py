"""The last menu choices, remembered in flash (a few bytes, written atomically),
and a count of boots, which seeds the AI's games apart across power-ons.

Loaded by the phases that read or change them (boot, the menu, a wireless
match): during a game the app holds only their bytes (Settings.values) and
the copies of the constants it needs, so this module is not in the heap.
"""
from micropython import const
from savegame import replace

PATH = "gomoku.cfg"
_TMP = "gomoku.cft"
_MAGIC = const(0xA7)

# field order in the file and in Settings.values
MODE = 0
LEVEL = 1
RULE = 2
BLACK = 3
BOOTS = 4       # not a choice: the boots so far, mod 256 (the AI's seeds)
COUNT = 5       # a file without BOOTS (older firmware) still holds its choices

MODE_AI = 0
MODE_LOCAL = 1
MODE_RADIO = 2
RULES = (0, 1, 4)       # gomoku.FREESTYLE, STANDARD, RENJU
RULE_NAMES = ("Freestyle", "Exactly five", "Renju")
MODE_NAMES = ("vs AI", "2 players", "Wireless")
RENJU = 4

BLACK_HUMAN = 0     # vs AI: the player takes black (1: the AI does)


def rule_name(rule):
    """The name the screens give a rule (one of RULES)."""
    return RULE_NAMES[RULES.index(rule)]


class Settings:
    def __init__(self, values=None):
        """values: the choices to work on (COUNT bytes, kept by the
        caller between phases); None: the defaults."""
        if values is None:
            values = bytearray(COUNT)
            values[LEVEL] = 1
        self.values = values
        self.damaged = False

    def load(self):
        """True when the file was read; False: the defaults, and `damaged`
        when there was a file but it did not check. Never raises."""
        from saveread import recover
        # a temp file is always this firmware's: cut short, its first
        # bytes could read as the older, shorter file
        data = recover(_TMP, PATH, _check, COUNT + 3)
        if data is None:
            return False
        try:
            _check(data, COUNT - 1 if len(data) == COUNT + 1 else COUNT)
        except ValueError:
            self.damaged = True
            return False
        for i in range(len(data) - 2):
            self.values[i] = data[1 + i]
        return True

    def save(self):
        """Writes only when the file does not hold these choices already."""
        b = bytearray(COUNT + 2)
        b[0] = _MAGIC
        b[1:COUNT + 1] = self.values
        b[COUNT + 1] = sum(self.values) & 0xFF
        try:        # read here, not with saveread: the menu does not load it
            with open(PATH, "rb") as f:
                if f.read(COUNT + 3) == b:
                    return
        except OSError:
            pass        # no file yet
        try:
            replace(_TMP, PATH, b)
        except OSError:
            pass    # a full or read-only flash costs the defaults, not the game


def _check(data, n=COUNT):
    if len(data) != n + 2 or data[0] != _MAGIC or \
            sum(data[1:n + 1]) & 0xFF != data[n + 1]:
        raise ValueError("no settings")
