"""A wireless match on the handheld's screen: host or join, play, rematch.

The match itself (pairing, reliable moves, resync) is match.Match; this
module draws it with the app's board view and feeds it the player's moves.
The match is saved when what the snapshot holds changes (pairing, a move,
a resync, a new game: atomically), never while nothing happens, so a reset
or power loss resumes it and the two devices resync without wearing the
flash.
"""
import time
import match as M
import savegame
import notes
from board_view import N, ALERT, TEXT, BANNER
from settings import rule_name
from controls import PLACE, BACK, MENU
from tilt import RIGHT, LEFT, UP, DOWN

PATH = savegame.MATCH
_TMP = savegame.MATCH_TMP
_STEP = (RIGHT, LEFT, UP, DOWN)
_CANCEL = (BACK, MENU)


def forget():
    # tmp first: left alone, the boot would take it for the newest save
    savegame.remove(_TMP)
    savegame.remove(PATH)


class Wireless:
    def __init__(self, app, radio):
        self.app = app
        self.radio = radio
        self.m = None
        self.game = None
        self.shown = None       # (state, peer's move) the link line shows
        self.saved = None       # (game_no, count, hash) of the last save
        self.leaving = False    # X pressed in a game: asking to be sure
        self.alerting = False   # a word for the player: the link line after a key
        self.score = bytearray(3)   # games won since pairing: [1] me, [2] peer
        self.ended = None       # (game, 0 draw / 1 me / 2 peer) on the banner

    def run(self, host, rule, host_colour, blob=None):
        """Pair (or resume) and play until the player leaves; -> None."""
        app = self.app
        if blob is not None:
            try:
                self.m = M.Match.restore(self.radio, blob)
            except ValueError as e:
                import saveread
                note = saveread.set_aside("match", e, PATH,
                                         savegame.MATCH_BAD)
                forget()
                notes.show(app, note, until_key=True)
                return
            self.saved = self.m.saved_key()     # the file holds just this
            self.score[1], self.score[2] = M.saved_won(blob)
            m = self.m
            if m.count:
                app.cursor = app.last_own(m.moves, m.count, m.my_colour)
        else:
            self.m = M.Match(self.radio, host=host, rule=rule,
                             host_colour=host_colour)
        # no `finally`: a reset or a fault leaves the match open, to resume
        if self.m.code is not None or self.pair(host):
            if blob is None:
                savegame.clear()    # a new game: the one left at the menu is given up
            self.play()
        self.m.close()

    def pair(self, host):
        app = self.app
        notes.lines(app, ["Wireless match", "",
                          "Hosting a game..." if host else
                          "Looking for a host...", "", "B: cancel"])
        c = app.controls
        c.settle()
        m = self.m
        while m.code is None:
            ev = c.wait(False)          # keys plainly: a tap cancels
            m.poll(time.ticks_ms())
            if ev in _CANCEL:
                return False
        return True

    def play(self):
        app = self.app
        m = self.m
        app.human = m.my_colour
        app.other = "peer"
        app.rule = m.rule
        app.rule_name = rule_name(m.rule)
        self.turns()

    def turns(self):
        app = self.app
        m = self.m
        c = app.controls
        ended = False
        c.settle()
        while True:
            if m.game is not self.game:
                self.new_board()
                ended = False
            self.sync()
            if m.game.winner and not ended:
                ended = True
                self.end_banner()
            # keys plainly after the end (a tap asks a rematch) and while
            # the leave question waits (A, which steers by keys, answers it)
            ev = c.wait(not ended and not self.leaving)
            e = m.poll(time.ticks_ms())
            while e is not None:
                if e == M.EV_PEER_LEFT:
                    forget()
                    notes.show(app, "The other player left the match")
                    return
                if e == M.EV_SYNCED:
                    self.game = None        # redraw it all
                if e == M.EV_REMATCH_ASKED:
                    self.end_line()
                e = m.poll(time.ticks_ms())
            if m.game is not self.game:
                continue
            if not ended:
                self.show_link()
            if not ev:
                continue
            if self.leaving:
                if ev in _STEP:
                    continue                # a tilt or a held key is no answer
                # the key answers the question; only X leaves
                self.leaving = False
                if ev == MENU:
                    forget()
                    return
                self.shown = None           # the link line again
                self.show_link()
                continue
            if self.alerting:
                # the link line again at the next loop, unless this key
                # has something else to say
                self.alerting = False
                self.shown = None
            if ev == MENU:
                if ended:
                    forget()
                    return
                # one stray tap must not end a game that cannot be resumed
                self.leaving = True
                app.say("Leave the match? X: leave  A: stay", ALERT)
                continue
            if ended:
                if ev == PLACE and m.rematch():
                    self.end_line()
                continue
            if ev in _STEP:
                app.step_cursor(ev)
            elif ev == PLACE:
                self.place(app.cursor)
            elif ev == BACK:
                self.warn("No undo in a wireless match")

    def place(self, i):
        app = self.app
        m = self.m
        if not m.my_turn():
            self.warn("Wait: " + ("not your turn" if m.state == M.PAIRED
                                  else m.state))
            return
        try:
            m.send_move(i % N, i // N)
        except ValueError as e:
            app.refuse(m.game, i, e)
            self.hold_link()
            return
        self.sync()

    def new_board(self):
        app = self.app
        m = self.m
        e = self.ended
        if e is not None and e[0] is not m.game:
            if e[1] and self.score[e[1]] < 255:
                self.score[e[1]] += 1   # a new game, not that one redrawn
            self.ended = None
        self.game = m.game
        self.leaving = False            # a question the new screen does not show
        if not m.count:
            app.cursor = 7 * N + 7      # a new game's: the centre
        app.game = m.game
        app.n = 0
        app.view.attach(m.game)
        app.view.cursor = app.cursor
        app.view.draw_all()
        self.shown = None
        app.human = m.my_colour
        app.say("")
        self.sync(True)

    def sync(self, fresh=False):
        """Draw the moves the match has and the screen not yet (fresh: a
        new board, its status and save are due even with no moves). Called
        every loop: with nothing new it returns before building any text."""
        app = self.app
        m = self.m
        view = app.view
        if m.count < app.n:
            self.game = None
            self.new_board()
            return
        if m.count == app.n and not fresh:
            return
        while app.n < m.count:
            i = m.moves[app.n]
            app.moves[app.n] = i
            app.n += 1
            view.draw_cell(i)
        view.set_last(app.moves[app.n - 1] if app.n else -1)
        if not m.game.winner:
            app.update_status()
            self.show_link()
        key = m.saved_key()
        if key == self.saved:
            return
        try:
            savegame.replace(_TMP, PATH, m.snapshot(self.score))
            self.saved = key
        except OSError as e:
            self.warn(savegame.not_saved(e))    # tried again at the next change

    def warn(self, text):
        """Say text in place of the link line until the next key, or until
        the link or the peer's move changes."""
        self.app.say(text, ALERT)
        self.hold_link()

    def hold_link(self):
        """The bottom line holds a word for the player: the link line waits
        for the next key, or for the link or the peer's move to change."""
        self.alerting = True
        m = self.m
        self.shown = (m.state, m.last_peer_move)

    def show_link(self):
        """The link line, rebuilt only when the state or the peer's move
        changed (called every loop: no text is built for nothing). Until
        the peer has moved it names the match's rule, which is the host's:
        a joiner learns it here."""
        m = self.m
        p = m.last_peer_move
        shown = self.shown
        if self.leaving or shown is not None and shown[0] == m.state and \
                shown[1] == p:
            return                  # the question stays until answered
        self.shown = (m.state, p)
        text = "Code %s  %s" % (m.code, m.state)
        if p is not None:
            # renju notation: columns A-O, rows 1-15 counted from the bottom
            text += "  peer %s%d" % ("ABCDEFGHIJKLMNO"[p[0]], N - p[1])
        else:
            text += "  " + rule_name(m.rule)
        self.app.say(text, ALERT if m.state == M.LOST else TEXT)

    def end_banner(self):
        app = self.app
        g = self.m.game
        r = 0
        if g.winner == 3:
            text = app.why_drawn(g)
        else:
            app.show_five(g)
            r = 1 if g.winner == self.m.my_colour else 2
            text = "You win!" if r == 1 else "The peer wins"
        self.ended = (g, r)
        self.leaving = False            # X now leaves at once, A asks a rematch
        app.banner(text, self.score, r, ("You", "Peer"))
        self.end_line()

    def end_line(self):
        """The end screen's bottom line, from the match's state: drawn
        again with the board after a resync, the rematch asked still shows."""
        m = self.m
        if m.rematch_wanted:
            self.app.say("Rematch asked: waiting for the peer")
        elif m.peer_rematch:
            self.app.say("Peer asks for a rematch: A", BANNER)
        else:
            self.app.say("A: rematch  X: leave")
