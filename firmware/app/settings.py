"""The last menu choices, remembered in flash (a few bytes, written atomically)."""
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
COUNT = 4

MODE_AI = 0
MODE_LOCAL = 1
MODE_RADIO = 2
RULES = (0, 1, 4)       # gomoku.FREESTYLE, STANDARD, RENJU
RULE_NAMES = ("Freestyle", "Exactly five", "Renju")
MODE_NAMES = ("vs AI", "2 players", "Wireless")
RENJU = 4

BLACK_HUMAN = 0     # vs AI: the player takes black; otherwise the AI does
BLACK_AI = 1


class Settings:
    def __init__(self):
        self.values = bytearray(COUNT)
        self.values[LEVEL] = 1
        self._saved = bytearray(COUNT + 2)

    def load(self):
        """Defaults on a missing or damaged file; never raises."""
        from saveread import recover
        data = recover(_TMP, PATH, _check, COUNT + 3)
        if data is None:
            return False
        try:
            _check(data)
        except ValueError:
            return False
        for i in range(COUNT):
            self.values[i] = data[1 + i]
        self._saved[:] = data
        return True

    def save(self):
        """Writes only when something changed."""
        b = bytearray(COUNT + 2)
        b[0] = _MAGIC
        b[1:COUNT + 1] = self.values
        b[COUNT + 1] = sum(self.values) & 0xFF
        if b == self._saved:
            return
        try:
            replace(_TMP, PATH, b)
            self._saved[:] = b
        except OSError:
            pass    # a full or read-only flash costs the defaults, not the game


def _check(data):
    if len(data) != COUNT + 2 or data[0] != _MAGIC or \
            sum(data[1:COUNT + 1]) & 0xFF != data[COUNT + 1]:
        raise ValueError("no settings")
