"""The start menu: mode, AI level, rule, who plays black, start.

Up/down (joystick, tilt, or the menu key) pick a line; left/right or the
place key change it; place on "Start" starts; back goes up a line. The
hints name the keys the board has (Controls.keys).

`choose(app)` is the menu's phase (App.phase): the choices are remembered
in flash (settings) and set on the app for the next game.
"""
from micropython import const
from controls import PLACE, BACK, MENU
from tilt import RIGHT, LEFT, UP, DOWN
from textline import TextLine
from board_view import SCREEN, TEXT, BANNER, BANNER_TEXT, CURSOR, rgb
import settings as S
from settings import RULES, MODE_NAMES

_DIM = rgb(120, 120, 130)

_MODE = const(0)            # the menu's lines
_LEVEL = const(1)
_RULE = const(2)
_BLACK = const(3)
_START = const(4)
_CHANGE = (PLACE, RIGHT, LEFT)  # keys that change a line's choice


def _pointer(c):
    """What moves the cursor besides keys: "tilt", "joystick", both, ""."""
    if c.tilt is not None:
        return "tilt/joystick" if c.joystick else "tilt"
    return "joystick" if c.joystick else ""


def choose(app):
    """The menu's phase (App.phase): the player's choices, remembered, set
    as the next game's app.rule (and rule_name), mode, level and human."""
    import ai       # its LEVELS; not search, whose tables the menu need not hold
    st = S.Settings(app.choices)
    v = Menu(app.lcd, app.controls, app.fw, app.fh, ai.LEVELS,
             app.has_radio).run(st.values)
    st.save()
    app.rule = v[S.RULE]
    app.rule_name = S.rule_name(app.rule)
    app.mode = v[S.MODE]
    app.level = v[S.LEVEL]
    app.human = 0           # two players
    if app.mode != S.MODE_LOCAL:    # vs AI; a wireless match's host
        app.human = 1 if v[S.BLACK] == S.BLACK_HUMAN else 2


class Menu:
    def __init__(self, lcd, controls, font_w, font_h, levels, radio_ok):
        self.lcd = lcd
        self.controls = controls
        self.fw = font_w
        self.fh = font_h
        self.levels = levels            # e.g. (1, 2, 3)
        self.radio_ok = radio_ok
        lh = font_h * 2 + 4
        top = font_h * 3 + 16
        w = lcd.width
        self.lines = [TextLine(lcd, 8, top + k * lh, w - 16, lh, font_w,
                               font_h, TEXT, SCREEN) for k in range(5)]
        self.hint = TextLine(lcd, 0, lcd.height - 2 * (font_h + 4), w,
                             font_h + 4, font_w, font_h, _DIM, SCREEN)
        self.hint2 = TextLine(lcd, 0, lcd.height - (font_h + 4), w,
                              font_h + 4, font_w, font_h, _DIM, SCREEN)
        self.sel = _START

    def _enabled(self, item, v):
        if item == _LEVEL:
            return v[S.MODE] == S.MODE_AI and len(self.levels) > 1
        if item == _BLACK:
            return v[S.MODE] != S.MODE_LOCAL
        return True

    def _label(self, item, v):
        if item == _MODE:
            return "Mode:  " + MODE_NAMES[v[S.MODE]]
        if item == _LEVEL:
            if v[S.MODE] != S.MODE_AI:
                return "Level: -"
            return "Level: %d" % v[S.LEVEL]
        if item == _RULE:
            return "Rule:  " + S.rule_name(v[S.RULE])
        if item == _BLACK:
            if v[S.MODE] == S.MODE_LOCAL:
                return "Black: player 1"
            return "Black: " + ("you" if v[S.BLACK] == S.BLACK_HUMAN else
                                ("AI" if v[S.MODE] == S.MODE_AI else "peer"))
        return "Start"

    def _draw(self, item, v):
        line = self.lines[item]
        if item == self.sel:
            line.set("> " + self._label(item, v), BANNER_TEXT, BANNER)
        elif self._enabled(item, v):
            line.set("  " + self._label(item, v), TEXT, SCREEN)
        else:
            line.set("  " + self._label(item, v), _DIM, SCREEN)

    def _change(self, item, v, d):
        if item == _MODE:
            n = 3 if self.radio_ok else 2
            v[S.MODE] = (v[S.MODE] + d) % n
        elif item == _LEVEL:
            lv = self.levels
            k = lv.index(v[S.LEVEL]) if v[S.LEVEL] in lv else 0
            v[S.LEVEL] = lv[(k + d) % len(lv)]
        elif item == _RULE:
            v[S.RULE] = RULES[(RULES.index(v[S.RULE]) + d) % 3]
        elif item == _BLACK:
            v[S.BLACK] ^= 1

    def sanitize(self, v):
        if v[S.MODE] > (2 if self.radio_ok else 1):
            v[S.MODE] = S.MODE_AI
        if v[S.LEVEL] not in self.levels:
            v[S.LEVEL] = self.levels[0]
        if v[S.RULE] not in RULES:
            v[S.RULE] = RULES[0]
        if v[S.BLACK] > 1:
            v[S.BLACK] = 0

    def run(self, values):
        """Let the player choose; returns when Start is chosen."""
        v = values
        self.sanitize(v)
        lcd = self.lcd
        lcd.fill(SCREEN)
        title = "GOMOKU"
        scale = 3
        lcd.text(title, (lcd.width - len(title) * self.fw * scale) // 2, 6,
                 CURSOR, SCREEN, scale)
        c = self.controls
        how = _pointer(c)
        if how:
            self.hint.center(how + ": choose")
            self.hint2.center(c.keys("A: change/start  X: next"))
        else:
            self.hint.center(c.keys("X: next  B: previous"))
            self.hint2.center(c.keys("A: change/start"))
        for k in range(5):
            self._draw(k, v)
        self.controls.settle(True)
        while True:
            ev = self.controls.wait(False)
            if not ev:
                continue
            old = self.sel
            if ev == DOWN or ev == MENU:
                self._move(1, v)
            elif ev == UP or ev == BACK:
                self._move(-1, v)
            elif ev == PLACE and self.sel == _START:
                return v
            elif ev in _CHANGE and self.sel != _START:
                self._change(self.sel, v, -1 if ev == LEFT else 1)
                for k in range(4):
                    self._draw(k, v)
                continue
            else:
                continue
            self._draw(old, v)
            self._draw(self.sel, v)

    def _move(self, d, v):
        k = self.sel
        for _ in range(5):
            k = (k + d) % 5
            if self._enabled(k, v):
                break
        self.sel = k
