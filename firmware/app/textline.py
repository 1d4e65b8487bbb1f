"""One line of text on the LCD that redraws only the characters that changed."""


class TextLine:
    def __init__(self, lcd, x, y, w, h, font_w, font_h, fg, bg, pad=0):
        self.lcd = lcd
        self.x = x
        self.y = y
        self.w = w
        self.h = h
        self.fw = font_w
        self.ty = y + (h - font_h) // 2
        self.n = (w - 2 * pad) // font_w
        self.tx = x + pad
        self.fg = fg
        self.bg = bg
        self.text = None        # None: nothing drawn yet
        # 12 attributes: a 13th grows each line's member table (by 96 bytes
        # on the unix port), and the menu has nine lines live at once

    def clear(self, bg=None):
        if bg is not None:
            self.bg = bg
        self.lcd.fill_rect(self.x, self.y, self.w, self.h, self.bg)
        self.text = " " * self.n

    def filled(self, bg):
        """The screen under the line was filled with bg: the line's
        background from now on."""
        self.bg = bg
        self.text = " " * self.n

    def set(self, s, fg=None, bg=None):
        n = self.n
        old = self.text
        k = len(s)
        if old is not None and k <= n and old.startswith(s) and \
                old.count(" ", k) == n - k and \
                (fg is None or fg == self.fg) and (bg is None or bg == self.bg):
            return              # as drawn: no padded copy to compare
        if k > n:
            s = s[:n]
        elif k < n:
            s = s + " " * (n - k)
        if (fg is not None and fg != self.fg) or (bg is not None and bg != self.bg):
            if fg is not None:
                self.fg = fg
            self.clear(bg)
        elif self.text is None:
            self.clear()
        old = self.text
        i = 0
        while i < n:
            if s[i] == old[i]:
                i += 1
                continue
            j = i + 1
            while j < n and s[j] != old[j]:
                j += 1
            self.lcd.text(s[i:j], self.tx + i * self.fw, self.ty, self.fg,
                          self.bg)
            i = j
        self.text = s

    def center(self, s, fg=None, bg=None):
        pad = (self.n - len(s)) // 2
        self.set(" " * pad + s if pad > 0 else s, fg, bg)
