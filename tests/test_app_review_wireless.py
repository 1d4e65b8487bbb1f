"""Review tests of the wireless match screen (wireless.py): what the player
sees and what the other handheld is told. The screen loop runs on stand-ins
for the app and the match (test_app_wireless's, with keys and events fed
in turn); leaving is checked on the simulated device with a real peer."""
from types import SimpleNamespace

from test_app_wireless import (VIEW, Peer, Script, _App, _Match, _View,  # host_sim first
                               board_of, board_sim, run_device, start_hosting,
                               to_host_or_join)

import machine  # noqa: E402
import sim_clock  # noqa: E402
from host_sim import device  # noqa: E402
from app_script import SCATTER, band, screen_text, stone_point  # noqa: E402
import match as M  # noqa: E402
import app  # noqa: E402
import wireless  # noqa: E402
from board_view import ALERT, TEXT  # noqa: E402
from controls import BACK, MENU, PLACE  # noqa: E402
from tilt import RIGHT  # noqa: E402


class _Keys:
    """The app's controls: each wait() runs the next step's action (the
    match changing meanwhile), then returns its key (0: none)."""

    def __init__(self, steps):
        self.steps = list(steps)

    def settle(self):
        pass

    def wait(self, steer=True):
        assert self.steps, "the screen kept waiting after the last key"
        key, action = self.steps.pop(0)
        if action is not None:
            action()
        return key


class _DrawView(_View):
    def __init__(self):
        self.redraws = 0
        self.status = self
        self.last = None
        self.banner = None
        self.n = 39             # the status line's width on the sim board

    def draw_all(self):
        self.redraws += 1

    def set_last(self, i):
        self.last = i

    def center(self, text, fg, bg):
        self.banner = text


class _PlayApp(_App):
    def __init__(self, steps=()):
        super().__init__()
        self.view = _DrawView()
        self.controls = _Keys(steps)
        self.colours = []
        self.five = False

    def say(self, text, colour=None):
        super().say(text, colour)
        self.colours.append(colour)

    def step_cursor(self, ev):
        pass

    def show_five(self, g):
        self.five = True

    def why_drawn(self, g):
        return "Draw: black can't move"

    banner = app.App.banner
    refuse = app.App.refuse


class _PlayMatch(_Match):
    """The paired match stand-in, with events for poll() and moves."""

    def __init__(self, moves=()):
        super().__init__()
        self.events = []
        self.rematch_wanted = self.peer_rematch = False
        for i in moves:
            self.put(i)

    def asks_rematch(self):
        """The peer asks for a rematch, as Match.poll() tells it."""
        self.peer_rematch = True
        self.events.append(M.EV_REMATCH_ASKED)

    def rematch(self):
        self.rematch_wanted = True
        return True

    def put(self, i):
        self.game.play(i % 15, i // 15)
        self.moves[self.count] = i
        self.count += 1

    def send_move(self, x, y):
        self.put(y * 15 + x)

    def poll(self, now):
        return self.events.pop(0) if self.events else None

    def my_turn(self):
        return self.state == M.PAIRED and not self.game.winner and \
            self.game.turn == self.my_colour


def _play(m, steps):
    app = _PlayApp(list(steps) + [(MENU, None), (MENU, None)])   # leave? yes
    w = wireless.Wireless(app, None)
    w.m = m
    w.play()
    return app


def test_a_repair_that_keeps_the_length_redraws_the_board(flash):
    """The host's list replaced ours move for move (EV_SYNCED, same count):
    the screen must show the host's stones, not the ones it drew."""
    m = _PlayMatch((7 * 15 + 7, 7 * 15 + 8))

    def repair():
        m.game.undo()
        m.count -= 1
        m.put(6 * 15 + 7)
        m.events.append(M.EV_SYNCED)
    app = _play(m, [(0, repair), (0, None)])
    assert bytes(app.moves[:app.n]) == bytes(m.moves[:m.count])
    assert app.view.redraws == 2
    assert app.view.last == 6 * 15 + 7         # the last move is marked


def test_the_peers_rematch_wish_and_refused_undo_are_said(flash):
    black = [7 * 15 + x for x in range(5)]
    white = [8 * 15 + x for x in range(4)]
    m = _PlayMatch([black[0]])
    app = _play(m, [(BACK, None)])
    k = app.said.index("No undo in a wireless match")
    assert app.colours[k] == ALERT
    # black made five; the peer asks for a rematch
    moves = [p for pair in zip(black, white) for p in pair] + [black[4]]
    m = _PlayMatch(moves)
    assert m.game.winner == 1
    app = _play(m, [(0, m.asks_rematch),
                    (0, None)])
    assert "Peer asks for a rematch: A" in app.said


def test_leaving_in_a_game_asks_first_and_any_other_key_stays(flash):
    """X in a game asks; A (or any key but X) answers "stay": the game and
    its save go on, the link line is back. After the end, X leaves at once."""
    m = _PlayMatch([7 * 15 + 7])
    app = _play(m, [(MENU, None), (BACK, None)])
    asked = app.said.index("Leave the match? X: leave  A: stay")
    assert app.colours[asked] == ALERT
    # B answered the question: not taken as an undo, and the link line shown
    assert "No undo in a wireless match" not in app.said[asked:]
    assert app.said[asked + 1].startswith("Code ")
    # then the two X of _play: asked again, and left
    assert app.said[-1] == "Leave the match? X: leave  A: stay"
    black = [7 * 15 + x for x in range(5)]
    white = [8 * 15 + x for x in range(4)]
    m = _PlayMatch([p for pair in zip(black, white) for p in pair] + [black[4]])
    app = _PlayApp([(MENU, None)])
    w = wireless.Wireless(app, None)
    w.m = m
    w.play()                        # returns: one X left the ended match
    assert "Leave the match? X: leave  A: stay" not in app.said


class _SteerKeys(_Keys):
    """Keys that steer (a board with neither joystick nor gyro): a tap of
    the place key is a step right, unless the keys are read plainly."""

    def wait(self, steer=True):
        key = super().wait(steer)
        return RIGHT if steer and key == PLACE else key


def test_a_tap_answers_the_leave_question_when_keys_steer(flash):
    """"Leave the match? X: leave  A: stay": on a board whose keys steer,
    a tap of A was read as a step right and ignored as no answer; the
    question is answered by keys read plainly, as the end screen's are."""
    m = _PlayMatch([7 * 15 + 7])
    app = _PlayApp()
    app.controls = _SteerKeys([(MENU, None), (PLACE, None), (MENU, None),
                               (MENU, None)])
    w = wireless.Wireless(app, None)
    w.m = m
    w.play()
    asked = [k for k, t in enumerate(app.said)
             if t == "Leave the match? X: leave  A: stay"]
    assert len(asked) == 2                  # A stayed; then asked again, left
    assert app.said[asked[0] + 1].startswith("Code ")
    assert m.count == 1                     # the tap placed no stone


def test_a_leave_question_the_screen_no_longer_shows_is_dropped(flash):
    """The peer's winning move, or a resync redraw, while "Leave the
    match?" is up: the next A asks a rematch or places a stone, it is not
    taken as an answer to a question gone from the screen."""
    black = [7 * 15 + x for x in range(5)]
    white = [8 * 15 + x for x in range(4)]
    m = _PlayMatch([p for pair in zip(black[:4], white) for p in pair])
    m.my_colour = 2
    app = _PlayApp([(MENU, None), (0, lambda: m.put(black[4])), (0, None),
                    (PLACE, None), (0, None), (MENU, None)])
    w = wireless.Wireless(app, None)
    w.m = m
    w.play()
    assert m.rematch_wanted and app.said[-1] == "Rematch asked: waiting for the peer"

    m = _PlayMatch([7 * 15 + 7])
    m.my_colour = 2
    app = _PlayApp([(MENU, None), (0, lambda: m.events.append(M.EV_SYNCED)),
                    (0, None), (PLACE, None), (MENU, None), (MENU, None)])
    app.cursor = 0
    w = wireless.Wireless(app, None)
    w.m = m
    w.play()
    assert m.count == 2                 # the A placed white's stone
    assert app.said[-1] == "Leave the match? X: leave  A: stay"


def test_a_refusal_gives_way_to_the_link_line_at_the_next_key(flash):
    """"No undo" or "Taken", then a stone placed or a cursor step: the link
    line comes back. It stayed until the peer moved, seconds with a person
    thinking, the refusal still up after a move that was made."""
    m = _PlayMatch()
    app = _play(m, [(BACK, None), (PLACE, None)])
    k = app.said.index("No undo in a wireless match")
    assert m.count == 1                 # the stone was placed
    assert app.said[k + 1].startswith("Code 4821  paired"), app.said[k:]

    m = _PlayMatch([7 * 15 + 7, 8 * 15 + 8])
    app = _play(m, [(PLACE, None), (RIGHT, None)])   # A on black's own stone
    k = app.said.index("Taken: choose an empty point")
    assert m.count == 2
    assert app.said[k + 1].startswith("Code 4821  paired"), app.said[k:]


def test_a_tilt_does_not_answer_the_leave_question(flash):
    """A tilt step or a held key's repeat while "Leave the match?" is up is
    no answer: the question stays, and the X after it leaves. A tilt took
    it as "stay", and the player's X asked again."""
    m = _PlayMatch([7 * 15 + 7])
    app = _PlayApp([(MENU, None), (RIGHT, None), (0, None), (MENU, None)])
    w = wireless.Wireless(app, None)
    w.m = m
    w.play()                            # returns: the second X left
    assert app.said.count("Leave the match? X: leave  A: stay") == 1
    assert not app.controls.steps


def test_a_drawn_match_says_why_and_names_no_winner(flash):
    """Renju: black's only free point is an overline (engine_cases): the
    banner gives the draw's reason; no five is shown, nobody wins."""
    import gomoku
    from engine_cases import black_boxed_in
    _, moves = black_boxed_in(gomoku.RENJU)
    m = _PlayMatch()
    m.game = gomoku.Game(gomoku.RENJU)
    for i in moves:
        m.put(i)
    assert m.game.winner == 3
    app = _play(m, [(0, None)])
    assert app.view.banner == "Draw: black can't move  You 0 Peer 0"
    assert not app.five


def test_a_move_refused_says_why_and_a_lost_peer_shows_in_alert(flash):
    m = _PlayMatch([7 * 15 + 7])         # white (the peer) to move
    app = _PlayApp()
    w = wireless.Wireless(app, None)
    w.m = m
    w.new_board()
    for state, why in ((M.PAIRED, "Wait: not your turn"),
                       (M.LOST, "Wait: peer lost"),
                       (M.RESYNCING, "Wait: resyncing")):
        m.state = state
        w.place(0)
        assert app.said[-1] == why and app.colours[-1] == ALERT
    assert m.count == 1
    m.state = M.LOST
    w.show_link()
    assert app.said[-1] == "Code 4821  peer lost  Renju"
    assert app.colours[-1] == ALERT
    m.state = M.PAIRED
    w.show_link()
    assert app.said[-1] == "Code 4821  paired  Renju"
    assert app.colours[-1] == TEXT


def test_b_cancels_the_wait_for_a_peer(flash, monkeypatch):
    monkeypatch.setattr(wireless.notes, "lines", lambda app, texts: None)
    m = _PlayMatch()
    m.code = None
    app = _PlayApp([(0, None), (BACK, None)])
    w = wireless.Wireless(app, None)
    w.m = m
    assert w.pair(False) is False


def test_leaving_the_match_tells_the_peer(flash):
    """X (menu) leaves: the other handheld is told (EV_PEER_LEFT: its
    screen says so), not left waiting until it calls the peer lost."""
    dev = device.Device(board_sim, str(flash))
    peer = Peer(dev.medium)
    s = Script()
    start_hosting(s)
    s.place(7 * 15 + 7)
    s.wait(400)
    s.tap("menu")
    s.wait(300)
    s.tap("menu")
    s.wait(300)
    run_device(board_sim, s.end(), str(flash), dev=dev)
    assert peer.m.count >= 1 and peer.m.state == M.CLOSED


# black's five on row 7, white's four under it: black wins
BLACK_WINS = [p for pair in zip([7 * 15 + x for x in range(5)],
                                [8 * 15 + x for x in range(4)]) for p in pair] + [7 * 15 + 4]


def test_games_won_since_pairing_count_once_each_and_a_redraw_not_again(flash):
    import gomoku
    m = _PlayMatch(BLACK_WINS)
    m.my_colour = 1
    app = _PlayApp()
    w = wireless.Wireless(app, None)
    w.m = m
    w.new_board()
    w.end_banner()
    assert app.view.banner == "You win!  You 1 Peer 0"
    w.new_board()                   # a resync redraws the same ended game
    w.end_banner()
    assert app.view.banner == "You win!  You 1 Peer 0"
    m.game = gomoku.Game(0)         # the rematch: the win is counted now
    m.count = 0
    w.new_board()
    assert bytes(w.score) == bytes((0, 1, 0))


def _radio_unplugged():
    """The radio's module comes off its header after boot (the boot's check
    found it)."""
    machine.detach_spi(board_sim.RADIO["spi"], board_sim.RADIO["cs"])


def test_a_radio_lost_since_boot_is_named_and_the_menu_comes_back(flash):
    """Wireless was offered (the radio answered at boot); hosting with the
    module gone names the fault, with its pins, instead of a firmware
    error, and A goes back to the menu. X on the host/join screen goes
    back to the menu too."""
    whole = band(0, 240)
    s = Script()
    to_host_or_join(s)
    s.snap("choose", whole)
    s.tap("menu")           # X: back
    s.wait(200)
    s.snap("back", whole)
    unplug_ms = s.t
    s.tap("place")          # Start again: Wireless
    s.wait(200)
    s.tap("place")          # A: host
    s.wait(300)
    s.snap("note", whole)
    s.tap("place")          # dismiss the note
    s.wait(200)
    s.snap("menu", whole)
    dev = device.Device(board_sim, str(flash))
    sim_clock.call_at(unplug_ms * 1000, _radio_unplugged)
    snaps = run_device(board_sim, s.end(), str(flash), dev=dev).snaps
    assert "X: back" in screen_text(snaps["choose"], 240)
    assert "> Start" in screen_text(snaps["back"], 240)
    note = " ".join(screen_text(snaps["note"], 240))
    assert note.startswith("Radio: NRF24L01 not responding"), note
    assert "Error" not in note
    menu = screen_text(snaps["menu"], 240)
    assert "> Start" in menu and "Mode:  Wireless" in menu


def test_a_taken_point_in_a_match_is_refused_and_nothing_is_sent(flash):
    """A on a stone (the peer's, then one's own) in a wireless match: the
    bottom line says why, the peer is sent nothing, and the match goes on
    from there."""
    dev = device.Device(board_sim, str(flash))
    peer = Peer(dev.medium)
    line = band(VIEW.message.y, VIEW.message.h)
    s = Script()
    start_hosting(s)
    s.place(7 * 15 + 7)
    s.wait(400)                 # the peer answers on SCATTER[0]
    s.place(SCATTER[0])
    s.wait(100)
    s.snap("theirs", line)
    s.place(7 * 15 + 7)
    s.wait(100)
    s.snap("mine", line)
    s.wait(400)
    stones = [stone_point(VIEW, i) for i in range(225)]
    s.snap("board", stones)
    s.place(7 * 15 + 8)
    s.wait(400)
    s.snap("on", stones)
    snaps = run_device(board_sim, s.end(), str(flash), dev=dev).snaps
    for snap in ("theirs", "mine"):
        assert screen_text(snaps[snap], VIEW.message.h) == ["Taken: choose an empty point"]
    want = [0] * 225
    want[7 * 15 + 7] = 1
    want[SCATTER[0]] = 2
    assert board_of(snaps["board"]) == want
    m = peer.m
    assert m.count == 4 and list(m.moves[:4]) == [7 * 15 + 7, SCATTER[0], 7 * 15 + 8,
                                                  SCATTER[1]]
    want[7 * 15 + 8] = 1
    want[SCATTER[1]] = 2
    assert board_of(snaps["on"]) == want


def test_the_games_won_stop_at_255_in_a_match_and_against_the_ai(flash):
    """The tallies are bytes: the 256th win read 0 on a board, and raised
    ValueError on CPython (the simulator restarted the app)."""
    import gomoku
    m = _PlayMatch(BLACK_WINS)
    m.my_colour = 1
    w = wireless.Wireless(_PlayApp(), None)
    w.m = m
    w.score[1] = 255
    w.new_board()
    w.end_banner()
    m.game = gomoku.Game(0)         # the rematch
    m.count = 0
    w.new_board()
    assert bytes(w.score) == bytes((0, 255, 0))

    g = gomoku.Game(0)
    for p in BLACK_WINS:
        g.play(p % 15, p // 15)
    said = []
    ai_game = SimpleNamespace(
        game=g, human=1, score=bytearray((0, 255, 3)), show_five=lambda g: None,
        banner=lambda *a: said.append(a[0]), say=said.append,
        wait_key=lambda keys: PLACE)
    assert app.App.end_screen(ai_game) == app._REMATCH
    assert said[0] == "You win!" and bytes(ai_game.score) == bytes((0, 255, 3))
