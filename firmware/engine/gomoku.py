"""Gomoku rules on a packed 15x15 board (first cut: board, history, win check)."""
try:
    from micropython import const
except ImportError:
    def const(x):
        return x

FREESTYLE = const(0)
STANDARD = const(1)
RENJU = const(4)
_N = const(15)
_DX = (1, 0, 1, -1)
_DY = (0, 1, 1, 1)


class Game:
    def __init__(self, rule=FREESTYLE):
        if rule not in (FREESTYLE, STANDARD, RENJU):
            raise ValueError("unknown rule %r (0 freestyle, 1 standard, 4 renju)" % (rule,))
        self.rule = rule
        self.board = bytearray(57)
        self.hist = bytearray(225)
        self.moves = 0
        self.turn = 1
        self.winner = 0

    def stone(self, x, y):
        i = y * _N + x
        return (self.board[i >> 2] >> ((i & 3) << 1)) & 3

    def _put(self, i, c):
        s = (i & 3) << 1
        b = self.board
        b[i >> 2] = (b[i >> 2] & ~(3 << s)) | (c << s)

    def _check(self, x, y):
        if not (0 <= x < _N and 0 <= y < _N):
            raise ValueError("(%d, %d) is off the board" % (x, y))

    def _run(self, x, y, c, dx, dy):
        n = 1
        for s in (1, -1):
            px = x + s * dx
            py = y + s * dy
            while 0 <= px < _N and 0 <= py < _N and self.stone(px, py) == c:
                n += 1
                px += s * dx
                py += s * dy
        return n

    def play(self, x, y):
        self._check(x, y)
        if self.winner:
            raise ValueError("game over")
        if self.stone(x, y):
            raise ValueError("(%d, %d) is occupied" % (x, y))
        c = self.turn
        self._put(y * _N + x, c)
        self.hist[self.moves] = y * _N + x
        self.moves += 1
        for d in range(4):
            n = self._run(x, y, c, _DX[d], _DY[d])
            if n == 5 or (n > 5 and (self.rule == FREESTYLE or (self.rule == RENJU and c == 2))):
                self.winner = c
        if not self.winner and self.moves == 225:
            self.winner = 3
        self.turn = 3 - c
        return self.winner

    def undo(self):
        if not self.moves:
            raise ValueError("nothing to undo")
        self.moves -= 1
        self._put(self.hist[self.moves], 0)
        self.winner = 0
        self.turn = 3 - self.turn

    def forbidden(self, x, y):
        self._check(x, y)
        return False
