"""The board on the LCD: grid, stones, cursor, last move, five in a row.

Each point owns a square cell of `pitch` pixels around it. A change (cursor
step, stone, mark) renders only the cells it touches, each into one
preallocated buffer that is sent with a single windowed write. A status line
above the board and a message line below it complete the screen.
"""
from micropython import const
from textline import TextLine

N = const(15)


def rgb(r, g, b):
    return ((r & 0xF8) << 8) | ((g & 0xFC) << 3) | (b >> 3)


SCREEN = rgb(24, 28, 40)
WOOD = rgb(222, 184, 110)
GRID = rgb(60, 40, 20)
BLACK = rgb(16, 16, 16)
WHITE = rgb(250, 250, 250)
WHITE_EDGE = rgb(110, 110, 110)
CURSOR = rgb(0, 80, 255)
LAST = rgb(230, 0, 0)
WIN = rgb(120, 230, 120)
TEXT = rgb(235, 235, 235)
BANNER = rgb(250, 200, 0)
BANNER_TEXT = rgb(0, 0, 0)
ALERT = rgb(255, 90, 90)
HINT = rgb(150, 150, 165)

_STARS = (3 * N + 3, 3 * N + 11, 7 * N + 7, 11 * N + 3, 11 * N + 11)


class BoardView:
    def __init__(self, lcd, font_w, font_h):
        self.lcd = lcd
        w, h = lcd.width, lcd.height
        lh = font_h + 4
        p = min(w, h - 2 * lh) // N
        if p % 2 == 0:
            p -= 1          # odd: the grid line runs through the cell's middle
        self.pitch = p
        self.c = p // 2
        self.radius = self.c - 1
        self.x0 = (w - N * p) // 2
        self.y0 = lh + (h - 2 * lh - N * p) // 2
        self.status = TextLine(lcd, 0, 0, w, lh, font_w, font_h, TEXT,
                               SCREEN, 2)
        self.message = TextLine(lcd, 0, h - lh, w, lh, font_w, font_h,
                                TEXT, SCREEN, 2)
        self._buf = bytearray(p * p * 2)
        r = self.radius
        self._half = bytearray(r + 1)      # half-width of a stone's row
        for dy in range(r + 1):
            k = 0
            while (k + 1) * (k + 1) + dy * dy <= r * r + r:
                k += 1
            self._half[dy] = k
        self._rows = (self._templates(WOOD), self._templates(WIN))
        self.game = None
        self.cursor = -1
        self.last = -1
        self.win = bytearray(N * N)

    def _templates(self, bg):
        p, c = self.pitch, self.c
        plain = bytearray(p * 2)
        for i in range(p):
            plain[2 * i] = bg >> 8
            plain[2 * i + 1] = bg & 0xFF
        vert = bytearray(plain)
        vert[2 * c] = GRID >> 8
        vert[2 * c + 1] = GRID & 0xFF
        full = bytearray(plain)
        for i in range(p):
            full[2 * i] = GRID >> 8
            full[2 * i + 1] = GRID & 0xFF
        left = bytearray(full)      # the left edge column: line from the middle
        right = bytearray(full)
        for i in range(c):
            left[2 * i:2 * i + 2] = plain[0:2]
            right[2 * (p - 1 - i):2 * (p - i)] = plain[0:2]
        return (bytes(plain), bytes(vert), bytes(full), bytes(left),
                bytes(right))

    def origin(self, i):
        """Top-left pixel of point i's cell (tests sample pixels from here)."""
        return self.x0 + (i % N) * self.pitch, self.y0 + (i // N) * self.pitch

    def center(self, i):
        x, y = self.origin(i)
        return x + self.c, y + self.c

    def attach(self, game):
        self.game = game
        self.last = -1
        for i in range(N * N):
            self.win[i] = 0

    def draw_all(self):
        """The whole screen: once per game, never per move."""
        lcd, p, c = self.lcd, self.pitch, self.c
        lcd.fill(SCREEN)
        self.status.filled(SCREEN)
        self.message.filled(SCREEN)
        x0, y0, span = self.x0, self.y0, N * p
        lcd.fill_rect(x0, y0, span, span, WOOD)
        for k in range(N):
            lcd.hline(x0 + c, y0 + k * p + c, span - p + 1, GRID)
            lcd.vline(x0 + k * p + c, y0 + c, span - p + 1, GRID)
        for i in _STARS:
            x, y = self.center(i)
            lcd.fill_rect(x - 1, y - 1, 3, 3, GRID)
        g = self.game
        for i in range(N * N):
            if (g is not None and g.stone(i % N, i // N)) or self.win[i] \
                    or i == self.cursor:
                self.draw_cell(i)

    def draw_cell(self, i):
        if i < 0:
            return
        p, c, b = self.pitch, self.c, self._buf
        x, y = i % N, i // N
        t = self._rows[1 if self.win[i] else 0]
        row = 2 * p
        for r in range(p):
            if r == c:
                tpl = t[2] if 0 < x < N - 1 else (t[3] if x == 0 else t[4])
            elif (r < c and y > 0) or (r > c and y < N - 1):
                tpl = t[1]
            else:
                tpl = t[0]
            b[r * row:(r + 1) * row] = tpl
        if i in _STARS:
            for r in range(c - 1, c + 2):
                for k in range(c - 1, c + 2):
                    b[r * row + 2 * k] = GRID >> 8
                    b[r * row + 2 * k + 1] = GRID & 0xFF
        s = self.game.stone(x, y) if self.game is not None else 0
        if s:
            self._stone(BLACK if s == 1 else WHITE,
                        BLACK if s == 1 else WHITE_EDGE)
        if i == self.last:
            self._box(c - 1, c + 1, LAST, True)
        if i == self.cursor:
            self._box(0, p - 1, CURSOR, False)
        self.lcd.blit(b, self.x0 + x * p, self.y0 + y * p, p, p)

    def _stone(self, fill, edge):
        # no assignment of four names: MicroPython builds a tuple for it
        b, c = self._buf, self.c
        r, row = self.radius, 2 * self.pitch
        fh, fl = fill >> 8, fill & 0xFF
        eh, el = edge >> 8, edge & 0xFF
        for dy in range(-r, r + 1):
            hw = self._half[dy if dy >= 0 else -dy]
            base = (c + dy) * row
            for dx in range(-hw, hw + 1):
                k = base + 2 * (c + dx)
                if dx == -hw or dx == hw or dy == -r or dy == r:
                    b[k] = eh
                    b[k + 1] = el
                else:
                    b[k] = fh
                    b[k + 1] = fl

    def _box(self, lo, hi, colour, filled):
        b, row = self._buf, 2 * self.pitch
        ch, cl = colour >> 8, colour & 0xFF
        for r in range(lo, hi + 1):
            for k in range(lo, hi + 1):
                if filled or r == lo or r == hi or k == lo or k == hi:
                    b[r * row + 2 * k] = ch
                    b[r * row + 2 * k + 1] = cl

    def set_cursor(self, i):
        old = self.cursor
        self.cursor = i
        if old != i:
            self.draw_cell(old)
        self.draw_cell(i)

    def set_last(self, i):
        old = self.last
        self.last = i
        if old != i:
            self.draw_cell(old)
        self.draw_cell(i)

    def show_win(self, cells, n):
        for k in range(n):
            self.win[cells[k]] = 1
            self.draw_cell(cells[k])

    def clear_win(self):
        for i in range(N * N):
            if self.win[i]:
                self.win[i] = 0
                self.draw_cell(i)
