"""Whole games on the simulated handheld, through buttons and tilt only,
checked by the pixels the LCD model shows."""
import pytest

import host_sim

host_sim.install()

import board_sim  # noqa: E402
import board_view as bv  # noqa: E402
import gomoku  # noqa: E402
from app_script import (Script, band, layout, plan_lost_game, screen_text,  # noqa: E402
                        run_device, stone_point)

VIEW = layout(board_sim)
ALL = range(225)
STONE = {0: None, 1: bv.BLACK, 2: bv.WHITE}


def snap_board(s, label):
    s.snap(label + ":stones", [stone_point(VIEW, i) for i in ALL])
    s.snap(label + ":corners", [VIEW.origin(i) for i in ALL])
    s.snap(label + ":bg", [(VIEW.origin(i)[0] + 1, VIEW.origin(i)[1] + 1)
                           for i in ALL])


def board_from(rig, label):
    """Point -> 0/1/2 as the screen shows it (AssertionError if unclear)."""
    out = []
    for i, px in enumerate(rig.snaps[label + ":stones"]):
        if px == bv.BLACK:
            out.append(1)
        elif px == bv.WHITE:
            out.append(2)
        else:
            assert px in (bv.GRID, bv.WOOD, bv.WIN), (i, hex(px))
            out.append(0)
    return out


def expected(moves, rule=gomoku.FREESTYLE):
    g = gomoku.Game(rule)
    for m in moves:
        g.play(m % 15, m // 15)
    return [g.stone(i % 15, i // 15) for i in ALL]


def test_vs_ai_full_game_to_winner_banner_and_rematch(flash):
    human = 1
    moves, g = plan_lost_game(gomoku.FREESTYLE, 1, human)
    assert g.winner == 2
    s = Script()
    s.tap("place")                          # the menu opens on "Start"
    s.wait(300)
    for k, m in enumerate(moves):
        if (k & 1) + 1 != human:
            continue
        s.place(m, how="tilt" if k % 6 == 0 else "joy")
        s.wait(250)                         # the AI answers
        if k == 4:
            snap_board(s, "mid")
            s.snap("mid:mark", [VIEW.center(i) for i in ALL])
    s.wait(300)
    snap_board(s, "end")
    s.snap("banner", [(1, 1), (VIEW.status.w - 2, VIEW.status.h - 2)])
    s.snap("banner:text", band(VIEW.status.y, VIEW.status.h))
    s.tap("place")                          # rematch
    s.wait(300)
    snap_board(s, "rematch")
    for k, m in enumerate(moves):           # level 1 plays the game again
        if (k & 1) + 1 == human:
            s.place(m)
            s.wait(250)
    s.wait(300)
    s.snap("banner2:text", band(VIEW.status.y, VIEW.status.h))
    rig = run_device(board_sim, s.end(), flash)

    assert board_from(rig, "mid") == expected(moves[:6])
    # the last move is marked (the AI's reply), and only it
    assert [i for i in ALL if rig.snaps["mid:mark"][i] == bv.LAST] == [moves[5]]
    assert board_from(rig, "end") == expected(moves)
    assert rig.snaps["banner"] == [bv.BANNER, bv.BANNER]
    # the result, and the games won since the menu, this one counted
    assert screen_text(rig.snaps["banner:text"], VIEW.status.h) == ["AI wins  You 0 AI 1"]
    assert screen_text(rig.snaps["banner2:text"], VIEW.status.h) == ["AI wins  You 0 AI 2"]
    # the five is highlighted: its cells' corners turn WIN, no others
    bg = rig.snaps["end:bg"]
    win = [i for i in ALL if bg[i] == bv.WIN]
    assert len(win) >= 5 and moves[-1] in win
    xs = {i % 15 for i in win}
    ys = {i // 15 for i in win}
    assert len(xs) in (1, len(win)) and len(ys) in (1, len(win))
    assert all(expected(moves)[i] == g.winner for i in win)
    # the rematch starts on an empty board, cursor kept
    assert board_from(rig, "rematch") == [0] * 225
    assert bv.WIN not in rig.snaps["rematch:bg"]     # the old five is gone
    assert rig.snaps["rematch:corners"].count(bv.CURSOR) == 1


def test_two_players_undo_and_winner(flash):
    s = Script()
    s.tap("menu")           # Start -> Mode (the menu key walks the lines)
    s.tap("place")          # vs AI -> 2 players
    for _ in range(2):
        s.tap("menu")       # Rule, then Start (Level, Black skipped)
    s.tap("place")
    s.wait(300)
    c = 7 * 15
    black = [c + 3, c + 4, c + 5, c + 6, c + 7]
    white = [c + 18, c + 19, c + 20, c + 21]
    s.place(black[0])
    s.place(white[0])
    s.place(c + 40)         # a slip: taken back
    s.wait(100)
    snap_board(s, "slip")
    s.tap("back")
    s.wait(100)
    snap_board(s, "undone")
    s.place(black[1])
    for b, w in zip(black[2:], white[1:]):
        s.place(w)
        s.place(b)
    s.wait(300)
    snap_board(s, "end")
    s.snap("banner", [(1, 1)])
    s.snap("banner:text", band(VIEW.status.y, VIEW.status.h))
    s.tap("back")           # the winning move taken back
    s.wait(100)
    snap_board(s, "unwon")
    s.snap("unwon:mark", [VIEW.center(i) for i in ALL])
    s.place(black[4])       # the five again: the undone win was not counted
    s.wait(300)
    s.snap("again:text", band(VIEW.status.y, VIEW.status.h))
    rig = run_device(board_sim, s.end(), flash)
    assert screen_text(rig.snaps["again:text"], VIEW.status.h) == \
        ["Black wins!  Black 1 White 0"]
    assert board_from(rig, "slip") == expected([black[0], white[0], c + 40])
    assert board_from(rig, "undone") == expected([black[0], white[0]])
    order = [black[0], white[0], black[1]]
    for b, w in zip(black[2:], white[1:]):
        order += [w, b]
    # after the undo the stone at c+40 was black's; black[1] is black's again
    assert board_from(rig, "end") == expected(order)
    assert rig.snaps["banner"] == [bv.BANNER]
    assert screen_text(rig.snaps["banner:text"], VIEW.status.h) == ["Black wins!  Black 1 White 0"]
    assert [i for i in ALL if rig.snaps["end:bg"][i] == bv.WIN] \
        == black[:5]
    # undone: no five shown any more, the mark back on the move before
    assert board_from(rig, "unwon") == expected(order[:-1])
    assert bv.WIN not in rig.snaps["unwon:bg"]
    assert [i for i in ALL if rig.snaps["unwon:mark"][i] == bv.LAST] \
        == [order[-2]]


def test_undo_vs_ai_takes_back_both_moves(flash):
    s = Script()
    s.tap("place")
    s.wait(300)
    s.place(7 * 15 + 7)
    s.wait(300)
    s.place(3 * 15 + 3)
    s.wait(300)
    snap_board(s, "two")
    s.tap("back")
    s.wait(200)
    snap_board(s, "one")
    s.tap("back")
    s.wait(200)
    s.tap("back")           # nothing left to undo: refused, board unchanged
    s.wait(200)
    snap_board(s, "none")
    s.snap("msg", [(x, VIEW.message.y + y) for x in range(0, 240, 2)
                   for y in range(VIEW.message.h)])
    rig = run_device(board_sim, s.end(), flash)
    two = board_from(rig, "two")
    assert two.count(1) == 2 and two.count(2) == 2
    one = board_from(rig, "one")
    assert one.count(1) == 1 and one.count(2) == 1 and one[7 * 15 + 7] == 1
    assert board_from(rig, "none") == [0] * 225
    assert bv.ALERT in rig.snaps["msg"]


def _renju_double_three():
    # black 1: (7,7) (8,7) and (6,8) (6,9): (6,7) makes two open threes
    b = [(7, 7), (8, 7), (6, 8), (6, 9)]
    w = [(0, 0), (14, 0), (0, 14)]
    return b, w, (6, 7)


def test_renju_forbidden_point_refused_with_reason(flash):
    s = Script()
    s.tap("menu")           # Mode
    s.tap("place")          # 2 players
    s.tap("menu")           # Rule
    s.tap("place")          # Exactly five
    s.tap("place")          # Renju
    s.tap("menu")           # (Black skipped) Start
    s.tap("place")
    s.wait(300)
    b, w, bad = _renju_double_three()
    for k in range(4):
        s.place(b[k][1] * 15 + b[k][0])
        if k < 3:
            s.place(w[k][1] * 15 + w[k][0])
    s.place(14 * 15 + 14)       # white's third stone was already placed above
    s.place(bad[1] * 15 + bad[0])
    s.wait(100)
    snap_board(s, "refused")
    s.snap("msg", [(x, VIEW.message.y + y) for x in range(0, 240, 2)
                   for y in range(VIEW.message.h)])
    s.snap("msg:text", [(x, VIEW.message.y + y) for y in range(VIEW.message.h)
                        for x in range(240)])
    s.place(10 * 15 + 10)        # black plays elsewhere: accepted
    s.wait(100)
    snap_board(s, "after")
    s.snap("status", [(x, y) for y in range(VIEW.status.h) for x in range(240)])
    rig = run_device(board_sim, s.end(), flash)
    # the rule in play is named on the top line, beside the move count
    assert screen_text(rig.snaps["status"], VIEW.status.h) == ["White to move", "Renju #9"]
    ref = gomoku.Game(gomoku.RENJU)
    order = []
    for k in range(4):
        order.append(b[k][1] * 15 + b[k][0])
        if k < 3:
            order.append(w[k][1] * 15 + w[k][0])
    order.append(14 * 15 + 14)
    for m in order:
        ref.play(m % 15, m // 15)
    assert ref.forbidden(*bad), "engine must see the double three"
    shown = board_from(rig, "refused")
    assert shown == expected(order, gomoku.RENJU)
    assert shown[bad[1] * 15 + bad[0]] == 0
    assert bv.ALERT in rig.snaps["msg"]
    # the reason, as the player reads it off the message line
    said = screen_text(rig.snaps["msg:text"], VIEW.message.h)
    assert said == ["Forbidden for black: double three"], said
    assert board_from(rig, "after") == expected(order + [160], gomoku.RENJU)
    # the reason fits the line ("Forbidden for black: double three"): the
    # text ends well before the screen's edge, it was not cut off
    h = VIEW.message.h
    xs = [2 * (k // h) for k, p in enumerate(rig.snaps["msg"]) if p == bv.ALERT]
    assert 120 < max(xs) < 230



def test_reset_mid_game_then_resume(flash):
    moves, _ = plan_lost_game(gomoku.FREESTYLE, 1, 1, limit=8)
    s = Script()
    s.tap("place")
    s.wait(300)
    for k in (0, 2, 4):
        s.place(moves[k])
        s.wait(300)
    s.reset()               # power cut after the AI's third reply
    s.wait(1500)            # boot again
    s.tap("place")          # "Saved game found": A resumes
    s.cursor = moves[4]     # on the player's last stone, as they left it
    s.wait(300)
    snap_board(s, "resumed")
    s.snap("resumed:mark", [VIEW.center(i) for i in ALL])
    s.place(moves[6])
    s.wait(300)
    snap_board(s, "next")
    dev = run_device(board_sim, s.end(), flash)
    assert dev.resets == 1
    assert board_from(dev, "resumed") == expected(moves[:6])
    # the last move is marked on the resumed board too
    assert [i for i in ALL if dev.snaps["resumed:mark"][i] == bv.LAST] == [moves[5]]
    assert board_from(dev, "next") == expected(moves[:8])


@pytest.mark.parametrize("colour", ["black", "white"])
def test_the_resume_offer_says_which_colour_you_played(flash, colour):
    s = Script()
    if colour == "white":
        for _ in range(4):
            s.tap("menu")   # from Start: Mode, Level, Rule, Black
        s.tap("place")      # Black: AI
        s.tap("menu")       # Start
    s.tap("place")
    s.wait(2000)            # the AI's opening stone, when it is black
    s.place(3 * 15 + 3)
    s.wait(2000)
    s.reset()
    s.wait(1500)
    s.snap("boot", [(x, y) for y in range(0, 120) for x in range(240)])
    rig = run_device(board_sim, s.end(), flash)
    text = screen_text(rig.snaps["boot"], 120)
    assert "Saved game found:" in text
    assert "vs AI level 1, you %s" % colour in text, text


def test_declining_resume_goes_to_menu_and_new_game_replaces_save(flash):
    moves, _ = plan_lost_game(gomoku.FREESTYLE, 1, 1, limit=2)
    s = Script()
    s.tap("place")
    s.wait(300)
    s.place(moves[0])
    s.wait(300)
    s.reset()
    s.wait(1500)
    s.cursor = 7 * 15 + 7   # a fresh boot puts the cursor in the centre
    s.tap("back")           # no thanks
    s.wait(200)
    s.tap("place")          # menu: Start
    s.wait(300)
    snap_board(s, "fresh")
    s.place(3 * 15 + 3)
    s.wait(300)
    dev = run_device(board_sim, s.end(), flash)
    assert board_from(dev, "fresh") == [0] * 225
    import saveread
    assert saveread.load()[0].moves[0] == 3 * 15 + 3


def test_tilt_moves_cursor_without_drift_and_joystick_repeats(flash):
    s = Script()
    s.tap("place")
    s.wait(300)
    s.goto(7 * 15 + 9, how="tilt")      # two steps right by tilting
    s.goto(5 * 15 + 9, how="tilt")      # two up (tilt forward)
    s.wait(3000)                        # held still: the cursor stays
    s.snap("cursor1", [VIEW.origin(i) for i in ALL])
    s.at("press", "left")               # held joystick: auto-repeat
    s.wait(400 + 110 * 3 + 50)
    s.at("release", "left")
    s.wait(300)
    s.snap("cursor2", [VIEW.origin(i) for i in ALL])
    s.at("press", "up")                 # held past the edge: stops there
    s.wait(3000)
    s.at("release", "up")
    s.wait(300)
    s.snap("cursor3", [VIEW.origin(i) for i in ALL])
    s.at("press", "down")               # every direction repeats
    s.wait(3000)
    s.at("release", "down")
    s.wait(300)
    s.snap("cursor4", [VIEW.origin(i) for i in ALL])
    s.at("press", "right")
    s.wait(3000)
    s.at("release", "right")
    s.wait(300)
    s.snap("cursor5", [VIEW.origin(i) for i in ALL])
    rig = run_device(board_sim, s.end(), flash)
    assert [i for i in ALL if rig.snaps["cursor1"][i] == bv.CURSOR] \
        == [5 * 15 + 9]
    moved = [i for i in ALL if rig.snaps["cursor2"][i] == bv.CURSOR]
    # held 780 ms: a step at once, the repeats only after a pause (0.4 s)
    assert len(moved) == 1 and moved[0] // 15 == 5 and 3 <= moved[0] % 15 <= 6
    assert [i for i in ALL if rig.snaps["cursor3"][i] == bv.CURSOR] \
        == [moved[0] % 15]
    assert [i for i in ALL if rig.snaps["cursor4"][i] == bv.CURSOR] \
        == [14 * 15 + moved[0] % 15]
    assert [i for i in ALL if rig.snaps["cursor5"][i] == bv.CURSOR] \
        == [14 * 15 + 14]


def test_missing_gyro_is_reported_and_buttons_still_play(flash, capsys):
    s = Script(start_ms=400)
    s.wait(300)
    s.snap("note", [(x, y) for x in range(0, 240, 3) for y in range(0, 60, 2)])
    s.tap("place")          # dismiss the note
    s.tap("place")          # Start
    s.wait(300)
    s.place(7 * 15 + 8)
    s.wait(300)
    snap_board(s, "game")
    rig = run_device(board_sim, s.end(), flash, gyro=False)
    out = capsys.readouterr().out
    assert "L3G4200D" in out and "I2C1" in out and "scl=27" in out
    assert bv.ALERT in rig.snaps["note"]
    shown = board_from(rig, "game")
    assert shown[7 * 15 + 8] == 1 and shown.count(2) == 1


def test_menu_choices_are_remembered_across_a_reset(flash):
    s = Script()
    s.tap("menu")           # Mode
    s.tap("place")          # 2 players
    s.tap("menu")           # Rule
    s.tap("place")          # Exactly five
    s.tap("menu")           # Start
    s.tap("place")
    s.wait(300)
    s.reset()               # nothing played: nothing to resume
    s.wait(1500)
    s.snap("menu", [(x, y) for x in range(0, 240, 2) for y in range(40, 140)])
    s.tap("place")          # Start, with the remembered choices
    s.wait(300)
    s.place(7 * 15 + 7)
    s.wait(400)
    snap_board(s, "one")
    dev = run_device(board_sim, s.end(), flash)
    assert dev.resets == 1
    one = board_from(dev, "one")
    assert one.count(1) == 1 and one.count(2) == 0      # no AI reply
    assert bv.BANNER in dev.snaps["menu"]
    import settings
    st = settings.Settings()
    assert st.load() and st.values[settings.MODE] == settings.MODE_LOCAL
    assert st.values[settings.RULE] == 1


def _write_settings(flash, choices):
    """A settings file in the firmware's layout holding these choices (mode,
    level, rule, black), with a good sum: how the menu takes any values."""
    import settings
    v = bytes(choices)
    (flash / settings.PATH).write_bytes(
        bytes((0xA7,)) + v + bytes((sum(v) & 0xFF,)))


def test_the_ai_as_black_is_remembered_across_a_reset(flash):
    """Black: AI chosen and a game started: after a reset (its save
    declined) the menu still reads Black: AI, and so does the file."""
    whole = band(0, 240)
    s = Script()
    s.tap("back")           # B: previous -> Black
    s.tap("place")          # Black: AI
    s.tap("menu")           # Start
    s.tap("place")
    s.wait(1500)            # the AI's first stone, saved
    s.reset()
    s.wait(1500)
    s.tap("back")           # no thanks: to the menu
    s.wait(300)
    s.snap("menu", whole)
    dev = run_device(board_sim, s.end(), flash)
    menu = " | ".join(screen_text(dev.snaps["menu"], 240))
    assert "Black: AI" in menu, menu
    import settings
    st = settings.Settings()
    assert st.load() and st.values[settings.BLACK] == 1


def test_the_mode_wraps_round_and_a_foreign_mode_is_cleaned(flash):
    """A settings file naming a mode past Wireless (a good sum, a value
    this firmware never writes) opens the menu on vs AI; stepping the mode
    on a board with a radio goes vs AI, 2 players, Wireless, vs AI."""
    _write_settings(flash, (3, 1, 0, 0))
    whole = band(0, 240)
    s = Script(start_ms=700)
    s.snap("opened", whole)
    s.tap("menu")           # X: next -> Mode
    for k in range(3):
        s.tap("place")
        s.wait(100)
        s.snap("mode%d" % k, whole)
    dev = run_device(board_sim, s.end(), flash)
    seen = [" | ".join(screen_text(dev.snaps[k], 240))
            for k in ("opened", "mode0", "mode1", "mode2")]
    for text, mode in zip(seen, ("vs AI", "2 players", "Wireless", "vs AI")):
        assert "Mode:  " + mode in text, text


def _winning_row(rule, black, white):
    g = gomoku.Game(rule)
    for k, (x, y) in enumerate(black):
        g.play(x, y)
        if k < len(white):
            g.play(*white[k])
    x, y, dx, dy, n = g.five()
    return g, sorted((y + k * dy) * 15 + x + k * dx for k in range(n))


# One move that makes two rows at once: the end screen highlights the row the
# engine's g.five() reports, the one the rule counts.
_TWO_ROWS = {
    # freestyle: six across (2..7, 7) and five down (5, 3..7); six wins too,
    # and g.five() gives the first row in its direction order (across)
    "freestyle": (0, [(2, 7), (3, 7), (4, 7), (6, 7), (7, 7), (5, 3), (5, 4),
                      (5, 5), (5, 6), (5, 7)],
                  [(0, 0), (0, 2), (0, 4), (0, 6), (0, 8), (0, 10), (0, 12),
                   (0, 14), (14, 0)],
                  [7 * 15 + x for x in range(2, 8)]),
    # exactly five: an overline (0..5, 7) that won nothing, grown to eleven
    # across (0..10) by the move that makes an exact five down (6, 3..7):
    # only the five is a win, and the eleven does not fit the highlight's
    # nine-cell buffer
    "standard": (1, [(0, 7), (1, 7), (2, 7), (4, 7), (5, 7), (3, 7), (7, 7),
                     (8, 7), (9, 7), (10, 7), (6, 3), (6, 4), (6, 5), (6, 6),
                     (6, 7)],
                 [(0, 0), (2, 0), (4, 0), (6, 0), (8, 0), (10, 0), (12, 0),
                  (14, 0), (0, 14), (2, 14), (4, 14), (6, 14), (8, 14),
                  (10, 14)],
                 [y * 15 + 6 for y in range(3, 8)]),
}


@pytest.mark.parametrize("case", sorted(_TWO_ROWS))
def test_end_screen_highlights_the_engines_winning_row(case, flash):
    rule, black, white, want = _TWO_ROWS[case]
    g, row = _winning_row(rule, black, white)
    assert g.winner == 1 and row == want
    s = Script()
    s.tap("menu")           # Mode
    s.tap("place")          # 2 players
    s.tap("menu")           # Rule
    if rule == gomoku.STANDARD:
        s.tap("place")      # Exactly five
    s.tap("menu")           # Start
    s.tap("place")
    s.wait(300)
    for k, (x, y) in enumerate(black):
        s.place(y * 15 + x)
        if k < len(white):
            s.place(white[k][1] * 15 + white[k][0])
    s.wait(300)
    snap_board(s, "end")
    s.snap("banner", [(1, 1)])
    s.snap("banner:text", band(VIEW.status.y, VIEW.status.h))
    s.tap("back")           # the winning move taken back
    s.wait(100)
    snap_board(s, "unwon")
    s.snap("unwon:mark", [VIEW.center(i) for i in ALL])
    rig = run_device(board_sim, s.end(), flash)
    assert rig.snaps["banner"] == [bv.BANNER]
    assert screen_text(rig.snaps["banner:text"], VIEW.status.h) == ["Black wins!  Black 1 White 0"]
    assert [i for i in ALL if rig.snaps["end:bg"][i] == bv.WIN] == want
    # the winning move taken back: neither row is shown, the mark is back
    # on the move before (white's last)
    order = []
    for k, (x, y) in enumerate(black):
        order.append(y * 15 + x)
        if k < len(white):
            order.append(white[k][1] * 15 + white[k][0])
    assert board_from(rig, "unwon") == expected(order[:-1], rule)
    assert bv.WIN not in rig.snaps["unwon:bg"]
    assert [i for i in ALL if rig.snaps["unwon:mark"][i] == bv.LAST] == [order[-2]]


@pytest.mark.parametrize("rule, banner", [
    (gomoku.RENJU, "Draw: black can't move  Black 0 White 0"),
    (gomoku.STANDARD, "Draw: board full  Black 0 White 0"),
])
def test_a_drawn_game_says_why_and_leaves_nothing_to_resume(rule, banner, flash):
    """A two-player game resumed near its end. Under renju white's last stone
    leaves black one free point, an overline: drawn. Under exactly five
    black plays that point, six in a row that wins nothing, and fills the
    board. The banner has room for the tally beside the reason (a reason
    too long for the 240-px line dropped the tally of two players)."""
    import savegame
    import saveread
    from engine_cases import black_boxed_in
    _, moves = black_boxed_in(rule)
    n = 223 if rule == gomoku.RENJU else 224
    savegame.write(rule, 1, 1, 0, bytes(moves), n)
    s = Script()
    s.tap("place")          # "Saved game found": A resumes
    s.cursor = moves[n - 1]     # two players: on the last stone
    s.wait(300)
    s.place(moves[223] if rule == gomoku.RENJU else 3)
    s.wait(300)
    s.snap("banner", [(1, 1)])
    s.snap("banner:text", band(VIEW.status.y, VIEW.status.h))
    snap_board(s, "end")
    dev = run_device(board_sim, s.end(), flash)
    assert dev.snaps["banner"] == [bv.BANNER]
    assert screen_text(dev.snaps["banner:text"], VIEW.status.h) == [banner]
    assert bv.WIN not in dev.snaps["end:bg"]     # no row to highlight
    assert board_from(dev, "end").count(0) == (1 if rule == gomoku.RENJU else 0)
    assert saveread.load() == (None, None)


def test_new_game_from_the_pause_menu_gives_up_the_old_save(flash):
    s = Script()
    s.start_two_players()
    s.place(7 * 15 + 7)
    s.place(7 * 15 + 8)
    s.wait(200)
    s.new_game_from_pause()
    snap_board(s, "fresh")
    s.reset()               # power cut before the new game's first move
    s.wait(1500)
    s.tap("place")          # the menu (no resume offer): Start
    s.wait(300)
    snap_board(s, "after")
    dev = run_device(board_sim, s.end(), flash)
    assert dev.resets == 1
    assert board_from(dev, "fresh") == [0] * 225
    # the abandoned game is not offered again: A started a new game
    assert board_from(dev, "after") == [0] * 225
    import saveread
    assert saveread.load() == (None, None)


def test_undo_to_an_empty_board_leaves_nothing_to_resume(flash):
    """Every move taken back: there is no game to offer after a reset
    (it offered "Saved game found: ... 0 moves"), the menu comes up."""
    whole = band(0, 240)
    s = Script()
    s.tap("place")          # Start: vs AI, you play black
    s.wait(300)
    s.place(7 * 15 + 7)
    s.wait(300)
    s.tap("back")           # your move and the AI's reply taken back
    s.wait(300)
    s.reset()
    s.wait(1500)
    s.snap("boot", whole)
    dev = run_device(board_sim, s.end(), flash)
    assert dev.resets == 1
    said = screen_text(dev.snaps["boot"], 240)
    assert not [t for t in said if "Saved game" in t], said
    assert "> Start" in said
    import saveread
    assert saveread.load() == (None, None)


def test_resume_offer_counts_one_move_in_the_singular(flash):
    whole = band(0, 240)
    s = Script()
    s.start_two_players()
    s.place(7 * 15 + 7)
    s.wait(300)
    s.reset()
    s.wait(1500)
    s.snap("boot", whole)
    dev = run_device(board_sim, s.end(), flash)
    said = screen_text(dev.snaps["boot"], 240)
    assert "1 move" in said and "moves" not in said, said


def test_undo_as_white_vs_ai_takes_back_both_and_stays_undone(flash):
    s = Script()
    s.start_as_white_vs_ai()
    snap_board(s, "opened")
    s.snap("opened:status", band(VIEW.status.y, VIEW.status.h))
    s.tap("back")           # nothing of ours to take back yet: refused
    s.wait(200)
    snap_board(s, "refused")
    s.place(3 * 15 + 3)
    s.wait(400)             # the AI answers
    snap_board(s, "three")
    s.tap("back")           # undo: its answer and our move
    s.wait(200)
    snap_board(s, "undone")
    s.reset()
    s.wait(1500)
    s.cursor = 7 * 15 + 7
    s.tap("place")          # "Saved game found": resume
    s.wait(300)
    snap_board(s, "resumed")
    rig = run_device(board_sim, s.end(), flash)
    opened = board_from(rig, "opened")
    assert opened.count(1) == 1 and opened.count(2) == 0
    assert screen_text(rig.snaps["opened:status"], VIEW.status.h) == \
        ["White (you) to move", "Freestyle #1"]
    three = board_from(rig, "three")
    assert three.count(1) == 2 and three.count(2) == 1
    assert three[3 * 15 + 3] == 2
    assert board_from(rig, "refused") == opened
    assert board_from(rig, "undone") == opened
    assert board_from(rig, "resumed") == opened     # the undo was saved


def test_the_cursor_stops_at_the_boards_edges(flash):
    s = Script()
    s.tap("place")
    s.wait(300)
    for _ in range(9):      # from the centre, two steps past the right edge
        s.tap("right", 60, 60)
    s.wait(100)
    s.snap("right", [VIEW.origin(i) for i in ALL])
    for _ in range(9):
        s.tap("down", 60, 60)
    s.wait(100)
    s.snap("corner", [VIEW.origin(i) for i in ALL])
    rig = run_device(board_sim, s.end(), flash)
    assert [i for i in ALL if rig.snaps["right"][i] == bv.CURSOR] == [7 * 15 + 14]
    assert [i for i in ALL if rig.snaps["corner"][i] == bv.CURSOR] == [224]


def test_the_pause_menu_back_resumes_and_left_steps_back(flash):
    s = Script()
    s.start_two_players()
    s.place(7 * 15 + 7)
    s.wait(100)
    s.tap("menu")           # pause: Resume
    s.tap("menu")           # Undo
    s.tap("back")           # B: resume, nothing undone
    s.wait(100)
    snap_board(s, "back")
    s.tap("menu")           # pause: Resume
    s.tap("menu")           # Undo
    s.tap("menu")           # New game
    s.tap("left")           # Undo
    s.tap("place")          # ... chosen
    s.wait(100)
    snap_board(s, "undo")
    rig = run_device(board_sim, s.end(), flash)
    assert board_from(rig, "back") == expected([7 * 15 + 7])
    assert board_from(rig, "undo") == [0] * 225


def cursor_at(rig, label):
    return [i for i in ALL if rig.snaps[label][i] == bv.CURSOR]


def test_a_tilt_held_into_the_pause_menu_moves_nothing_there(flash):
    """Steering right, the player opens the pause menu: the held tilt ran
    through its items (Undo, New game, ...) until A picked one. Now the
    menu stays on Resume until the device has been level."""
    s = Script()
    s.start_two_players()
    s.place(7 * 15 + 7)
    s.at("tilt", 60, 0)     # 15 degrees right, and held
    s.wait(250)
    s.at("tilt", 0, 0)
    s.wait(700)
    s.tap("menu")           # pause, still tilted
    s.wait(2500)
    s.tap("place")          # A: the item shown, Resume
    s.at("tilt", -60, 0)    # levelled
    s.wait(250)
    s.at("tilt", 0, 0)
    s.wait(300)
    snap_board(s, "after")
    rig = run_device(board_sim, s.end(), flash)
    assert board_from(rig, "after") == expected([7 * 15 + 7])


def cursor_after_b_with_a_key_held(s, key, flash):
    """From a screen that reads keys plainly: `key` held (it repeats), B
    tapped while it is, then let go: -> where the board's cursor is."""
    s.at("press", key)
    s.wait(600)
    s.tap("back")
    s.wait(1000)
    s.at("release", key)
    s.wait(200)
    s.snap("after", [VIEW.origin(i) for i in ALL])
    return cursor_at(run_device(board_sim, s.end(), flash), "after")


def test_a_key_held_in_the_pause_menu_or_at_the_banner_stays_there(flash):
    """down held to step the pause menu, then B (resume) with it still
    held: the cursor ran to the board's edge. Likewise left held at the
    end banner, then B (undo)."""
    s = Script()
    s.start_two_players()
    s.place(7 * 15 + 7)
    s.wait(100)
    s.tap("menu")           # pause: Resume; down steps Undo, New game, ...
    assert cursor_after_b_with_a_key_held(s, "down", flash) == [7 * 15 + 7]
    s = Script()
    s.black_wins_two_players()
    # B undoes black's five; the cursor stays on its last stone
    assert cursor_after_b_with_a_key_held(s, "left", flash) == [7 * 15 + 7]


def test_a_new_game_starts_with_the_cursor_on_the_centre(flash):
    s = Script()
    s.start_two_players()
    s.place(7 * 15 + 9)
    s.new_game_from_pause()
    s.snap("new", [VIEW.origin(i) for i in ALL])
    rig = run_device(board_sim, s.end(), flash)
    assert cursor_at(rig, "new") == [7 * 15 + 7]


def test_a_won_game_leaves_nothing_to_resume(flash):
    s = Script()
    s.black_wins_two_players()
    s.snap("banner", [(1, 1)])
    s.reset()                               # power off on the end screen
    s.wait(1500)
    s.snap("boot", [(x, y) for y in range(0, 120) for x in range(240)])
    rig = run_device(board_sim, s.end(), flash)
    assert rig.snaps["banner"] == [bv.BANNER]
    import saveread
    assert saveread.load() == (None, None)
    # the boot goes straight to the start menu
    assert "Saved game found:" not in screen_text(rig.snaps["boot"], 120)
    assert "Mode:  2 players" in screen_text(rig.snaps["boot"], 120)


def test_a_reset_mid_rematch_keeps_the_games_won(flash):
    """Black wins, A: a rematch; a move each, then a power cut. The resumed
    game is part of the same run of rematches: black's next five shows
    "Black 2" (the tally restarted at 0 after a reset)."""
    s = Script()
    s.black_wins_two_players()
    s.snap("first", band(VIEW.status.y, VIEW.status.h))
    s.tap("place")                          # rematch
    s.wait(300)
    s.cursor = 7 * 15 + 7
    s.place(7 * 15 + 3)
    s.place(9 * 15 + 3)
    s.wait(300)
    s.reset()
    s.wait(1500)
    s.tap("place")                          # "Saved game found": A resumes
    s.cursor = 9 * 15 + 3                   # two players: on the last stone
    s.wait(300)
    for k in range(1, 5):
        s.place(7 * 15 + 3 + k)
        if k < 4:
            s.place(9 * 15 + 3 + k)
    s.wait(300)
    s.snap("second", band(VIEW.status.y, VIEW.status.h))
    dev = run_device(board_sim, s.end(), flash)
    assert dev.resets == 1
    assert screen_text(dev.snaps["first"], VIEW.status.h) == ["Black wins!  Black 1 White 0"]
    assert screen_text(dev.snaps["second"], VIEW.status.h) == ["Black wins!  Black 2 White 0"]


def test_a_reset_after_a_rematch_began_keeps_the_games_won(flash):
    """Black wins, A: a rematch, and the power goes before its first move.
    The boot offers the empty rematch, with the run's tally: black's next
    five shows "Black 2" (the save was cleared at the rematch: "Black 1")."""
    s = Script()
    s.black_wins_two_players()
    s.tap("place")                          # rematch
    s.wait(300)
    s.reset()
    s.wait(1500)
    s.snap("offer", [(x, y) for y in range(0, 120) for x in range(240)])
    s.tap("place")                          # "Saved game found": A resumes
    s.cursor = 7 * 15 + 7
    s.wait(300)
    for k in range(5):
        s.place(7 * 15 + 3 + k)
        if k < 4:
            s.place(9 * 15 + 3 + k)
    s.wait(300)
    s.snap("second", band(VIEW.status.y, VIEW.status.h))
    dev = run_device(board_sim, s.end(), flash)
    assert dev.resets == 1
    offer = " | ".join(screen_text(dev.snaps["offer"], 120))
    assert "Saved game found:" in offer and "0 moves" in offer, offer
    assert screen_text(dev.snaps["second"], VIEW.status.h) == ["Black wins!  Black 2 White 0"]


def test_undoing_a_rematch_to_its_start_keeps_the_games_won(flash):
    """An undo back to no stone in a rematch keeps the tally on flash, as
    the rematch's start did; a game with no stone and no tally leaves
    nothing to resume."""
    import saveread
    s = Script()
    s.black_wins_two_players()
    s.tap("place")                          # rematch
    s.wait(300)
    s.cursor = 7 * 15 + 7
    s.place(7 * 15 + 3)
    s.tap("back")                           # undo: no stone left
    s.wait(300)
    run_device(board_sim, s.end(), flash)
    saved, problem = saveread.load()
    assert problem is None and saved.moves == b"" and saved.won == b"\1\0"


def test_the_menu_cleans_foreign_settings_and_steps_both_ways(flash):
    import settings
    # a settings file with a good sum but values this firmware never
    # offers: an unknown level, rule and colour choice
    _write_settings(flash, (settings.MODE_AI, 9, 2, 2))
    whole = band(0, 240)
    s = Script(start_ms=700)
    s.snap("opened", whole)
    s.tap("back")           # B: previous -> Black
    s.tap("place")          # Black: AI
    s.tap("place")          # Black: you again
    s.snap("toggled", whole)
    s.tap("back")           # Rule
    s.tap("left")           # back from Freestyle: Renju
    s.tap("back")           # Level
    s.tap("back")           # Mode
    s.tap("place")          # 2 players: Level and Black change with it
    s.wait(100)
    s.snap("chosen", whole)
    rig = run_device(board_sim, s.end(), flash)
    opened = " | ".join(screen_text(rig.snaps["opened"], 240))
    for label in ("Mode:  vs AI", "Level: 1", "Rule:  Freestyle",
                  "Black: you", "> Start"):
        assert label in opened, opened
    assert "> Black: you" in screen_text(rig.snaps["toggled"], 240)
    chosen = " | ".join(screen_text(rig.snaps["chosen"], 240))
    for label in ("> Mode:  2 players", "Level: -", "Rule:  Renju",
                  "Black: player 1"):
        assert label in chosen, chosen
