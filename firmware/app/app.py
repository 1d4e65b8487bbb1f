"""The game as the player holds it: boot screens, menu, turns, end.

    app = App(lcd, controls, font_w, font_h, has_radio=False, notes=[...])
    app.run()       # forever

Every move is saved (savegame) before the next input is read; the move
that ends a game deletes the save instead, so only a game in play is
offered at boot.
"""
import gc
import sys
import time
from micropython import const
import savegame
from board_view import (BoardView, N, ALERT, TEXT, BANNER, BANNER_TEXT,
                        SCREEN, HINT)
from controls import PLACE, BACK, MENU
from tilt import RIGHT, LEFT, UP, DOWN

_PAUSE_ITEMS = ("Resume", "Undo", "New game", "Main menu")
# keys made into tuples once: `ev in (RIGHT, LEFT, ...)` of imported names
# builds a tuple on every key
_STEPS = (RIGHT, LEFT, UP, DOWN)
_NEXT = (MENU, RIGHT, DOWN)
_PREVIOUS = (LEFT, UP)
# the message line when there is nothing to say: the keys of a game
_KEYS = "A: place  B: undo  X: menu"

# settings' constants a game needs, restated: settings is loaded only by
# the phases that read or change the choices (a test keeps these equal)
_MODE_AI = const(0)         # settings.MODE_AI
_MODE_RADIO = const(2)      # settings.MODE_RADIO
_RENJU = const(4)           # settings.RENJU

# what a game ends with
_TO_MENU = const(0)
_REMATCH = const(1)

# On MicroPython the modules of one phase (the boot screens, with reading
# the saves; the menu; engine and AI; a wireless match) are unloaded when
# it ends, so the heap holds only the code in use.
_UNLOAD = sys.implementation.name == "micropython"


def _loaded():
    return set(sys.modules) if _UNLOAD else None


def _end_phase(before):
    if before is not None:
        for name in list(sys.modules):
            if name not in before:
                del sys.modules[name]
    gc.collect()


class App:
    def __init__(self, lcd, controls, font_w=6, font_h=8, has_radio=False,
                 notes=()):
        self.lcd = lcd
        self.controls = controls
        self.fw = font_w
        self.fh = font_h
        self.has_radio = has_radio   # it answered at boot: Wireless offered
        self.notes = list(notes)
        self.view = BoardView(lcd, font_w, font_h)
        self.choices = None     # settings.Settings.values: the menu's, read at boot
        self.moves = bytearray(N * N)
        self.n = 0
        self.game = None
        self.games = 0          # games begun (the AI's seed), on from the
                                # boots before (startup.run)
        self.rule = 0
        self.rule_name = ""     # its name (settings.rule_name), set with it
        self.mode = _MODE_AI
        self.level = 1
        self.human = 1          # the player's colour (vs AI, or asked for
                                # as a wireless match's host); 0 two players
        self.other = "AI"       # who plays the other colour
        self.cursor = 7 * N + 7
        self._five = bytearray(9)    # a winning row: 4 + the move + 4 at most
        self.score = bytearray(3)   # games won in this run of rematches:
                                    # [1] you (vs AI) or black, [2] the other
        self._hint = None           # the line say("") shows, made once

    # ---- the phases ----------------------------------------------------
    def run(self):
        resume = self.phase("startup", "run")   # notes, the saved game
        if resume is None and self.has_radio and savegame.any_match():
            self.phase("match_menu", "offer_saved")
        while True:
            if resume is None:
                self.phase("menu", "choose")    # sets rule, mode, level, human
            if self.mode == _MODE_RADIO:
                self.phase("match_menu", "play")
            else:
                before = _loaded()
                self.play(resume)
                self.game = self.view.game = None
                _end_phase(before)
            resume = None

    def phase(self, module, fn, *args):
        """module.fn(app, *args), a phase: the modules it loads leave the
        heap when it returns. -> what fn returned."""
        before = _loaded()
        r = self._call(module, fn, args)
        self.game = self.view.game = None
        _end_phase(before)
        return r

    def _call(self, module, fn, args):
        # its own frame: a module named in phase() would outlive the phase
        return getattr(__import__(module), fn)(self, *args)

    def wait_key(self, keys, ms=0):
        """-> the first event in keys, or 0 after ms (0: wait forever). A
        key held on this screen does not act on the next."""
        c = self.controls
        c.settle()
        t0 = time.ticks_ms()
        while True:
            ev = c.wait(False)
            if ev in keys:
                break
            if ms and time.ticks_diff(time.ticks_ms(), t0) >= ms:
                ev = 0
                break
        c.settle()
        return ev

    # ---- one game and its rematches --------------------------------------
    def play(self, resume=None):
        score = self.score
        # the run of rematches a saved game was part of goes on
        score[1], score[2] = resume.won if resume is not None else b"\0\0"
        while True:
            if not self.new_game(resume):
                return
            if resume is None:
                # a new game replaces the old one's save: a rematch's keeps
                # the run's tally until its first move is saved
                self.save()
            resume = None
            if self.turns() == _TO_MENU:
                return

    def new_game(self, resume=None):
        """Fresh game, or the saved one replayed; False if it cannot be."""
        self.game = None
        gc.collect()
        import gomoku
        if resume is not None:
            self.rule = resume.rule
            self.mode = resume.mode
            self.level = resume.level
            self.human = resume.human
            if self.mode == _MODE_AI:
                import ai       # a level this build does not offer: its first
                if self.level not in ai.LEVELS:
                    self.level = ai.LEVELS[0]
        try:
            g = gomoku.Game(self.rule)
            self.n = 0
            if resume is not None:
                for m in resume.moves:
                    g.play(m % N, m // N)
                    self.moves[self.n] = m
                    self.n += 1
        except ValueError as e:
            import saveread
            import notes
            notes.show(self, saveread.set_aside("game", e), until_key=True)
            return False
        if g.winner:
            savegame.clear()    # over, as apply() leaves a game that ends
        if resume is None:
            self.cursor = 7 * N + 7
        elif self.n:
            self.cursor = self.last_own(self.moves, self.n, self.human)
        self.games += 1
        if self.mode == _MODE_AI and self.level > 1:
            # the search picks among near-best moves by a PRNG in a module
            # each game's phase loads afresh: seeded by the games begun,
            # a new game does not replay the last one's choices
            import ai
            ai.seed(self.games)
        self.game = g
        view = self.view
        view.attach(g)
        view.cursor = self.cursor
        view.last = self.moves[self.n - 1] if self.n else -1
        view.draw_all()
        if g.winner == 0:
            self.update_status()
            self.say("")
        self.controls.settle()
        return True

    @staticmethod
    def last_own(moves, n, colour):
        """Where a resumed game puts the cursor: on the last of the n moves
        that colour played (black's are the even ones), as the player left
        it; colour 0 (two players), or none of theirs yet: the last move."""
        k = n - 1
        if k and colour and (k & 1) + 1 != colour:
            k -= 1
        return moves[k]

    def who(self, colour):
        name = "Black" if colour == 1 else "White"
        if self.human:
            name += " (you)" if colour == self.human else \
                " (%s)" % self.other
        return name

    def update_status(self):
        """The top line: who is to move; the rule and the move count."""
        g = self.game
        left = self.who(g.turn) + " to move"
        right = "%s #%d" % (self.rule_name, self.n)
        width = self.view.status.n
        if len(left) + len(right) >= width:
            right = right[right.index("#"):]
        self.view.status.set(left + " " * (width - len(left) - len(right)) +
                             right, TEXT, SCREEN)

    def say(self, text, colour=TEXT):
        """The message line; empty, it shows the keys (how to steer with
        them, when they steer the board)."""
        if not text:
            self.view.message.set(self.hint(), HINT, SCREEN)
        else:
            self.view.message.set(self.controls.keys(text), colour, SCREEN)

    def hint(self):
        """The line say("") shows, made once: a cursor step clears the
        message line, and allocates nothing for it."""
        if self._hint is not None:
            return self._hint
        c = self.controls
        n = self.view.message.n
        if c.steer:
            for line in ("A: right  B: down  hold A: put stone",
                         "A:right B:down hold A:stone"):
                if len(c.keys(line)) <= n:
                    break
        else:
            line = _KEYS
        self._hint = c.keys(line)[:n]
        return self._hint

    def turns(self):
        """The turn loop of one game: -> _TO_MENU or _REMATCH."""
        g = self.game
        c = self.controls
        while True:
            if g.winner:
                r = self.end_screen()
                if r is not None:
                    return r
                continue
            if self.human and g.turn != self.human:
                self.ai_move()
                continue
            ev = c.wait()
            if not ev:
                continue
            if ev in _STEPS:
                self.say("")
                self.step_cursor(ev)
            elif ev == PLACE:
                self.place(self.cursor)
            elif ev == BACK:
                self.undo()
            elif ev == MENU:
                r = self.pause_menu()
                if r is not None:
                    return r

    def step_cursor(self, ev):
        """One step; the cursor stops at the board's edge (wraps round when
        keys steer: they only step right and down)."""
        x = self.cursor % N + (ev == RIGHT) - (ev == LEFT)
        y = self.cursor // N + (ev == DOWN) - (ev == UP)
        if self.controls.steer:
            x, y = x % N, y % N
        x = min(max(x, 0), N - 1)
        y = min(max(y, 0), N - 1)
        if y * N + x != self.cursor:
            self.cursor = y * N + x
            self.view.set_cursor(self.cursor)

    def place(self, i):
        try:
            self.apply(i)
        except ValueError as e:
            self.refuse(self.game, i, e)

    def refuse(self, g, i, e):
        """Why the stone was not placed, short enough for one line."""
        msg = str(e)
        if g.stone(i % N, i // N):
            msg = "Taken: choose an empty point"    # not "(7, 7) is occupied"
        elif g.rule == _RENJU and g.turn == 1 and \
                g.forbidden(i % N, i // N):
            msg = "Forbidden for black: " + msg.split(": ")[-1]
        self.say(msg[:1].upper() + msg[1:], ALERT)

    def apply(self, i):
        """Play point i, draw it, save it. ValueError changes nothing."""
        g = self.game
        g.play(i % N, i // N)
        self.moves[self.n] = i
        self.n += 1
        view = self.view
        view.draw_cell(i)
        view.set_last(i)
        if g.winner:
            savegame.clear()    # over: nothing to offer at boot
        else:
            self.update_status()
            self.say("")        # before the save: its failure must stay shown
            self.save()
        gc.collect()

    def save(self):
        """The game so far to flash; with no move, only a run of rematches'
        tally to keep (else there is no game to offer at boot)."""
        s = self.score
        try:
            if self.n or s[1] or s[2]:
                savegame.write(self.rule, self.mode, self.level, self.human,
                               self.moves, self.n, s)
            else:
                savegame.clear()
        except OSError as e:
            self.say(savegame.not_saved(e), ALERT)

    def ai_move(self):
        import ai
        self.say("AI thinking...")
        gc.collect()
        i = ai.best_move(self.game, self.level)
        self.apply(i)
        self.controls.settle()

    def undo(self):
        """Two players: one move. Vs AI: back to before your last move (the
        AI's reply too, if it made one)."""
        g = self.game
        # vs AI only your own moves are undone: there is one once the board
        # holds move 1 (you black) or move 2 (you white)
        if self.n < (self.human or 1):
            self.say("Nothing to undo", ALERT)
            return
        view = self.view
        if view.win[self.moves[self.n - 1]]:
            view.clear_win()
        while True:
            g.undo()
            self.n -= 1
            i = self.moves[self.n]
            view.draw_cell(i)
            if not self.human or (self.n & 1) + 1 == self.human:
                break
        view.set_last(self.moves[self.n - 1] if self.n else -1)
        self.update_status()
        self.say("Undone")
        self.save()
        gc.collect()

    def pause_menu(self):
        k = 0
        c = self.controls
        c.settle(True)
        while True:
            self.say("Paused: < %s >  X: next  A: ok" % _PAUSE_ITEMS[k],
                     BANNER)
            ev = 0
            while not ev:
                ev = c.wait(False)
            if ev in _NEXT:
                k = (k + 1) % len(_PAUSE_ITEMS)
            elif ev in _PREVIOUS:
                k = (k - 1) % len(_PAUSE_ITEMS)
            elif ev == BACK:
                k = 0
                break
            elif ev == PLACE:
                break
        c.settle()                  # a key held in the menu stays there
        self.say("")
        if k == 1:
            self.undo()
        elif k == 2:
            return _REMATCH
        elif k == 3:
            return _TO_MENU
        return None

    def why_drawn(self, g):
        """The banner of a drawn game: renju draws it when black has only
        forbidden points left, not just on a full board. Short enough to
        leave room for two players' tally on a 240-px line."""
        return "Draw: board full" if g.moves == N * N else "Draw: black can't move"

    def show_five(self, g):
        """Highlight the winning row of the finished game g: the engine's
        g.five() (the row the rule counts: an overline only where six or
        more wins; the first row, in the engine's direction order, when one
        move makes two)."""
        r = g.five()
        if _UNLOAD:
            sys.modules.pop("winrow", None)     # its row is all we keep
        if r:
            x, y, dx, dy, n = r
            out = self._five
            for k in range(n):
                out[k] = (y + k * dy) * N + x + k * dx
            self.view.show_win(out, n)

    def end_screen(self):
        """Winner banner and the five; -> _REMATCH, _TO_MENU, or None (undone)."""
        g = self.game
        r = 0
        if g.winner == 3:
            text = self.why_drawn(g)
        else:
            self.show_five(g)
            if self.human:
                r = 1 if g.winner == self.human else 2
                text = "You win!" if r == 1 else "AI wins"
            else:
                r = g.winner
                text = ("Black" if r == 1 else "White") + " wins!"
        self.banner(text, self.score, r,
                    ("You", "AI") if self.human else ("Black", "White"))
        self.say("A: rematch  X: menu  B: undo")
        ev = self.wait_key((PLACE, MENU, BACK))
        if ev == PLACE:
            if r and self.score[r] < 255:
                self.score[r] += 1      # an undone end counts for nothing
            return _REMATCH
        if ev == MENU:
            return _TO_MENU
        self.undo()
        return None

    def banner(self, text, score, r, names):
        """The end banner: the result, and the games won in this run of
        rematches, this one (r: 1 names[0], 2 names[1], 0 a draw) counted,
        when the line has room for both."""
        line = "%s  %s %d %s %d" % (text, names[0], score[1] + (r == 1),
                                    names[1], score[2] + (r == 2))
        if len(line) > self.view.status.n:
            line = text
        self.view.status.center(line, BANNER_TEXT, BANNER)
