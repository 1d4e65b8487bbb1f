"""The Game class behind gomoku (see gomoku for the contract)."""
from pattern import update
import renju


class Game:
    def __init__(self, rule=0):
        if type(rule) is not int or rule not in (0, 1, 4):
            import refusal
            raise refusal.error(0)                  # bad rule
        self._why = renju.why if rule == 4 else None
        self.pat = bytearray(900)
        self.hist = bytearray(225)
        self.rule = rule
        self.exact = 6 if rule == 1 else 2 if rule == 4 else 0
        self.board = bytearray(57)
        self.moves = self.winner = 0
        self.turn = 1

    def stone(self, x, y):
        if type(x) is not int or type(y) is not int or not (0 <= x < 15 and 0 <= y < 15):
            import refusal
            raise refusal.error(1, x, y)            # off the board
        i = y * 15 + x
        return self.board[i >> 2] >> ((i & 3) << 1) & 3

    def play(self, x, y):
        s = self.stone(x, y)
        if self.winner:
            import refusal
            raise refusal.error(2)                  # game over
        if s:
            import refusal
            raise refusal.error(3, x, y)            # occupied
        i = y * 15 + x
        c = self.turn
        w = c == 1 and self._why and self._why(self, i)
        if w:
            import refusal
            raise refusal.error(3 + w, x, y)        # forbidden: why w
        # a five is read off the codes the move had before it was played
        w = (i << 2) + (c << 1) - 2
        w = self.pat[w] | self.pat[w + 1] << 8
        update(self, i, c)
        self.hist[self.moves] = i
        self.moves += 1
        while w:
            if w & 15 == 10:
                self.winner = c
            w >>= 4
        if not self.winner and (self.moves > 224 or c == 2 and self._why):
            # no point left to play: a full board, or under renju black to
            # move and every free point forbidden to it. Drawn. (Inline: a
            # call more would cost the micro:bit's C stack a frame inside the
            # search.)
            p = 0
            w = self.board
            while p < 225 and (w[p >> 2] >> ((p & 3) << 1) & 3 or
                               self._why and self._why(self, p)):
                p += 1
            if p == 225:
                self.winner = 3
        self.turn = 3 - c
        return self.winner

    def undo(self):
        if not self.moves:
            import refusal
            raise refusal.error(7)                  # nothing to undo
        self.moves -= 1
        update(self, self.hist[self.moves], 0)
        self.winner = 0
        self.turn = 3 - self.turn

    def forbidden(self, x, y):
        return not self.stone(x, y) and self._why is not None and self._why(self, y * 15 + x) > 0

    def five(self):
        import winrow
        return winrow.five(self)
