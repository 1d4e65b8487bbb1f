"""Review of the game screen (app.App), the board's drawing (board_view) and
the tilt steering (tilt): the cases a mutation review found no test for.
Games are played through the simulated handheld's buttons and read off its
LCD model's pixels, as in test_app_game; tilt is driven through the gyro
models, as in test_app_tilt."""
import pytest

import host_sim

host_sim.install()

import time  # noqa: E402
import tilt  # noqa: E402
import board_sim  # noqa: E402
import board_view as bv  # noqa: E402
from test_app_tilt import CHIPS, make  # noqa: E402
from app_script import Rig, Script, band, layout, run_device, screen_text, \
    stone_point  # noqa: E402

VIEW = layout(board_sim)
ALL = range(225)
WHOLE = [(x, y) for y in range(240) for x in range(240)]


# ---- tilt ------------------------------------------------------------------

def timed(t, ms, every=20):
    """As steps(), with the time of each: -> [(ms since start, step)]."""
    out = []
    t0 = time.ticks_ms()
    end = time.ticks_add(t0, ms)
    while time.ticks_diff(end, time.ticks_ms()) > 0:
        time.sleep_ms(every)
        ev = t.poll(time.ticks_ms())
        if ev:
            out.append((time.ticks_diff(time.ticks_ms(), t0), ev))
    return out


def steps(t, ms, every=20):
    """Poll every `every` ms for ms: -> the steps, in order."""
    return [e for _, e in timed(t, ms, every)]


@pytest.mark.parametrize("chip", sorted(CHIPS))
def test_a_steep_tilt_and_back_to_level_stops_the_cursor(chip):
    # 60 degrees right (100 dps for 600 ms), held, then back to level the
    # same way: the cursor steps right, and once the device is level again
    # it stops. It must never run left: the device was never tilted left.
    src, t = make(chip)
    src.set_tilt(100, 0)
    evs = steps(t, 600)
    src.hold_still()
    evs += steps(t, 500)
    assert evs and set(evs) == {tilt.RIGHT}
    src.set_tilt(-100, 0)
    evs = steps(t, 600)
    src.hold_still()
    assert tilt.LEFT not in evs
    assert steps(t, 3000) == []



@pytest.mark.parametrize("chip", sorted(CHIPS))
def test_a_slow_tilt_steps_once_past_the_dead_zone(chip):
    # 5 dps for 3 s: 15 degrees reached slowly. The return to level is only
    # for a device at rest, so a slow deliberate tilt still steps
    src, t = make(chip)
    src.set_tilt(5, 0)
    evs = steps(t, 3000)
    assert evs and set(evs) == {tilt.RIGHT}


@pytest.mark.parametrize("chip", sorted(CHIPS))
def test_each_tilt_steps_at_once_then_pauses_before_repeating(chip):
    # held tilted: one step at once, the repeats only after the pause that
    # keeps a short gesture to one step; level, then tilted again: the same
    # pause again (the repeat speed of the first tilt is not carried over)
    src, t = make(chip)
    for _ in range(2):
        src.set_tilt(0, 75)     # 15 degrees forward in 200 ms, then held
        evs = timed(t, 200)
        src.hold_still()
        evs += [(ms + 200, e) for ms, e in timed(t, 2000)]
        assert {e for _, e in evs} == {tilt.UP} and len(evs) >= 5
        assert evs[1][0] - evs[0][0] >= tilt._FIRST_MS
        src.set_tilt(0, -75)
        steps(t, 200)
        src.hold_still()
        assert steps(t, 1000) == []


@pytest.mark.parametrize("chip", sorted(CHIPS))
def test_repeats_are_faster_when_steeper_but_never_past_the_fastest(chip):
    def gaps(dps):
        src, t = make(chip)
        src.set_tilt(dps, 0)    # for 500 ms: dps / 2 degrees, then held
        evs = timed(t, 500)
        src.hold_still()
        evs += [(ms + 500, e) for ms, e in timed(t, 3000)]
        assert {e for _, e in evs} == {tilt.RIGHT}
        return [b[0] - a[0] for a, b in zip(evs, evs[1:])]
    gentle, steep = gaps(24), gaps(88)      # 12 and 44 degrees
    # the same repeats (the second to the fourth) come sooner when steeper,
    # by more than the 20 ms a poll may shift each one
    assert sum(steep[1:4]) < sum(gentle[1:4]) - 3 * 20
    assert min(steep) >= tilt._FAST_MS


@pytest.mark.parametrize("chip", sorted(CHIPS))
def test_a_long_gap_between_reads_is_not_a_long_tilt(chip):
    # the app did not poll for a second (a slow flash write); the device
    # wobbled at 30 dps only for the last 100 ms of it: 3 degrees, no step
    src, t = make(chip)
    steps(t, 100)
    until = time.ticks_ms() + 900
    src.set_motion(lambda ms: (0, 0) if ms < until else (30, 0))
    time.sleep_ms(1000)
    assert t.poll(time.ticks_ms()) == 0
    src.hold_still()
    assert steps(t, 1000) == []


@pytest.mark.parametrize("chip", sorted(CHIPS))
def test_reset_forgets_the_second_step_of_a_diagonal(chip):
    # a diagonal step is two steps, the second given at the next poll;
    # reset (the app's settle, after the AI's move or a screen) drops it:
    # the device turned back to level right after, no step comes
    src, t = make(chip)
    src.set_tilt(60, 60)
    first = 0
    t0 = time.ticks_ms()
    while not first:
        time.sleep_ms(20)
        first = t.poll(time.ticks_ms())
    tilted = time.ticks_diff(time.ticks_ms(), t0)
    assert t._pending        # the other step waits: the case under test
    t.reset()
    src.set_tilt(-60, -60)
    assert steps(t, tilted) == []
    src.hold_still()
    assert steps(t, 1000) == []


# ---- the game screen ---------------------------------------------------------

def stones(dev, label):
    return [i for i in ALL if dev.snaps[label][i] in (bv.BLACK, bv.WHITE)]


def snap_stones(s, label):
    s.snap(label, [stone_point(VIEW, i) for i in ALL])


def snap_status(s, label):
    s.snap(label, band(VIEW.status.y, VIEW.status.h))


def status(dev, label):
    return screen_text(dev.snaps[label], VIEW.status.h)


def status_around_undo(s, flash, settle):
    """Run script `s` to its end: the status line's text now, and `settle`
    ms after B (undo)."""
    snap_status(s, "before")
    s.tap("back")
    s.wait(settle)
    snap_status(s, "after")
    dev = run_device(board_sim, s.end(), flash)
    return status(dev, "before"), status(dev, "after")


def test_back_on_an_empty_board_is_refused_and_play_goes_on(flash):
    # two players, nothing played: B says so and the game is still there
    s = Script()
    s.start_two_players()
    s.tap("back")
    s.wait(100)
    s.snap("msg", band(VIEW.message.y, VIEW.message.h))
    s.place(7 * 15 + 8)
    s.wait(100)
    snap_stones(s, "one")
    snap_status(s, "status")
    dev = run_device(board_sim, s.end(), flash)
    assert dev.resets == 0
    assert screen_text(dev.snaps["msg"], VIEW.message.h) == ["Nothing to undo"]
    assert stones(dev, "one") == [7 * 15 + 8]
    assert status(dev, "status") == ["White to move", "Freestyle #1"]


def test_the_status_line_follows_moves_and_undo(flash):
    # two players: after three moves white is to move, move count 3; an undo
    # gives the turn back to black at move 2
    s = Script()
    s.start_two_players()
    for i in (7 * 15 + 7, 7 * 15 + 8, 8 * 15 + 8):
        s.place(i)
    s.wait(100)
    three, undone = status_around_undo(s, flash, 100)
    assert three == ["White to move", "Freestyle #3"]
    assert undone == ["Black to move", "Freestyle #2"]


def test_vs_ai_the_status_names_you_and_undo_gives_the_turn_back(flash):
    s = Script()
    s.tap("place")          # Start: vs AI, you play black
    s.wait(300)
    s.place(7 * 15 + 7)
    s.wait(400)             # the AI answers
    two, none = status_around_undo(s, flash, 200)
    assert two == ["Black (you) to move", "Freestyle #2"]
    assert none == ["Black (you) to move", "Freestyle #0"]


def test_main_menu_from_the_pause_menu_goes_to_the_start_menu(flash):
    s = Script()
    s.start_two_players()
    s.place(7 * 15 + 7)
    s.wait(100)
    s.tap("menu")           # Paused: < Resume >
    for _ in range(3):
        s.tap("menu")       # Undo, New game, Main menu
    s.tap("place")
    s.wait(300)
    s.snap("menu", WHOLE)
    dev = run_device(board_sim, s.end(), flash)
    shown = screen_text(dev.snaps["menu"], 240)
    assert "> Start" in shown and "Mode:  2 players" in shown, shown


def test_x_on_the_end_screen_goes_to_the_start_menu(flash):
    s = Script()
    s.black_wins_two_players()
    s.tap("menu")
    s.wait(300)
    s.snap("menu", WHOLE)
    dev = run_device(board_sim, s.end(), flash)
    shown = screen_text(dev.snaps["menu"], 240)
    assert "> Start" in shown and "Mode:  2 players" in shown, shown


@pytest.mark.parametrize("levels, played", [
    ((1, 2), 2),        # the save's own level
    ((1,), 1),          # a build offering level 1 only: the first on offer
])
def test_a_resumed_game_vs_ai_is_played_at_the_saves_level(flash, monkeypatch,
                                                          levels, played):
    # a level-2 save (the savegame accepts levels 1 and 2) resumed: the AI
    # answers at its level, or at the first level this build offers
    import ai
    import savegame
    monkeypatch.setattr(ai, "LEVELS", levels)
    asked = []
    real = ai.best_move

    def best_move(g, level=1):
        asked.append(level)
        return real(g, level)
    monkeypatch.setattr(ai, "best_move", best_move)
    savegame.write(0, 0, 2, 1, bytes([7 * 15 + 7, 6 * 15 + 6]), 2)
    s = Script()
    s.snap("offer", WHOLE)
    s.tap("place")          # "Saved game found": A resumes
    s.wait(300)
    s.place(3 * 15 + 3)
    s.wait(400)             # the AI answers
    snap_stones(s, "four")
    rig = Rig(board_sim)
    assert rig.run(s.end()) == "end"
    assert len(stones(rig, "four")) == 4
    assert asked == [played]
    offer = screen_text(rig.snaps["offer"], 240)
    assert offer[:5] == ["Saved game found:", "vs AI level 2, you black",
                         "Freestyle", "2 moves", "A: resume"], offer


def test_a_resumed_two_player_game_is_saved_as_one(flash):
    # the menu was last left on vs AI: a resumed two-player game goes on
    # as two players (no AI reply) and its next save resumes as one
    import savegame
    import settings
    savegame.write(0, settings.MODE_LOCAL, 1, 0, bytes([112, 113]), 2)
    s = Script()
    s.tap("place")          # "Saved game found": A resumes
    s.cursor = 113          # two players: on the last stone
    s.wait(300)
    s.place(7 * 15 + 9)
    s.wait(400)
    snap_stones(s, "three")
    s.reset()
    s.wait(1500)
    s.snap("boot", WHOLE)
    dev = run_device(board_sim, s.end(), flash)
    assert sorted(stones(dev, "three")) == [112, 113, 114]
    said = screen_text(dev.snaps["boot"], 240)
    assert "2 players" in said and "3 moves" in said, said


def test_an_undo_back_to_one_move_is_saved(flash):
    # two players, two moves, one taken back: the game of one move is the
    # one offered and resumed after a power cut
    s = Script()
    s.start_two_players()
    s.place(7 * 15 + 7)
    s.place(7 * 15 + 8)
    s.tap("back")
    s.wait(100)
    s.reset()
    s.wait(1500)
    s.snap("boot", WHOLE)
    s.tap("place")          # "Saved game found": A resumes
    s.wait(300)
    snap_stones(s, "resumed")
    dev = run_device(board_sim, s.end(), flash)
    assert dev.resets == 1
    said = screen_text(dev.snaps["boot"], 240)
    assert "Saved game found:" in said and "1 move" in said, said
    assert stones(dev, "resumed") == [7 * 15 + 7]


# ---- the board's drawing -------------------------------------------------------

def board_area():
    x0, y0, span = VIEW.x0, VIEW.y0, 15 * VIEW.pitch
    return [(x, y) for y in range(y0 - 2, y0 + span + 2)
            for x in range(x0 - 2, x0 + span + 2)]


def test_a_point_redrawn_empty_looks_as_on_the_fresh_board(flash):
    # stones on the corners, the edges and the star points, taken back one
    # by one, and the cursor walked over them: each point drawn again (one
    # cell at a time) must look as the whole board drew it at the start,
    # grid line ends and star dots included, nothing outside the board
    points = [0, 14, 224, 210, 7, 119, 217, 105, 3 * 15 + 3, 11 * 15 + 11,
              7 * 15 + 7]
    s = Script()
    s.start_two_players()
    s.goto(0)               # the cursor away from the centre first
    s.snap("fresh", board_area())
    for i in points:
        s.place(i)
    s.wait(100)
    snap_stones(s, "stones")
    for _ in points:
        s.tap("back")
    s.goto(0)
    s.wait(100)
    s.snap("again", board_area())
    dev = run_device(board_sim, s.end(), flash)
    assert sorted(stones(dev, "stones")) == sorted(points)
    fresh, again = dev.snaps["fresh"], dev.snaps["again"]
    assert bv.CURSOR in fresh and bv.GRID in fresh
    area = board_area()
    diff = [area[k] for k in range(len(area)) if fresh[k] != again[k]]
    assert diff == []


def cursor_box(pixels, w=240):
    """(left, top, right, bottom) of the cursor's colour on the screen."""
    at = [(k % w, k // w) for k, p in enumerate(pixels) if p == bv.CURSOR]
    xs = [x for x, _ in at]
    ys = [y for _, y in at]
    return min(xs), min(ys), max(xs), max(ys), len(at)


def test_the_cursor_box_moves_on_screen_the_way_the_joystick_points(flash):
    # read off the screen alone (not through the view's own geometry):
    # right moves the blue box one point right, down one point down, ...
    s = Script()
    s.start_two_players()
    s.snap("start", WHOLE)
    moves = (("right", 1, 0), ("down", 0, 1), ("left", -1, 0), ("up", 0, -1))
    for name, _, _ in moves:
        s.tap(name, 60, 60)
        s.wait(50)
        s.snap(name, WHOLE)
    dev = run_device(board_sim, s.end(), flash)
    p = VIEW.pitch
    box = cursor_box(dev.snaps["start"])
    # an outline one point wide, centred on the board's middle point
    assert box[2] - box[0] == box[3] - box[1] == p - 1
    assert box[4] == 4 * (p - 1)
    assert (box[0] + box[2]) // 2 == VIEW.x0 + 15 * p // 2
    assert (box[1] + box[3]) // 2 == VIEW.y0 + 15 * p // 2
    for name, dx, dy in moves:
        now = cursor_box(dev.snaps[name])
        assert now == (box[0] + dx * p, box[1] + dy * p, box[2] + dx * p,
                       box[3] + dy * p, box[4]), name
        box = now


def test_white_making_five_is_named_the_winner(flash):
    s = Script()
    s.start_two_players()
    black = [0, 2, 4, 6, 8, 10]
    white = [9 * 15 + 3 + k for k in range(5)]
    for b, w in zip(black, white):
        s.place(b)
        s.place(w)
    s.wait(300)
    s.snap("banner", band(VIEW.status.y, VIEW.status.h))
    s.snap("bg", [(VIEW.origin(i)[0] + 1, VIEW.origin(i)[1] + 1) for i in ALL])
    dev = run_device(board_sim, s.end(), flash)
    assert screen_text(dev.snaps["banner"], VIEW.status.h) == ["White wins!  Black 0 White 1"]
    assert [i for i in ALL if dev.snaps["bg"][i] == bv.WIN] == white


def test_a_new_game_from_the_pause_menu_shows_the_whole_status_line(flash):
    # the status line is drawn again in full on the new board: after
    # "White to move #1" the new game's "Black to move #0" shares
    # " to move" and "#" at the same places, which must not be left blank
    s = Script()
    s.start_two_players()
    s.place(7 * 15 + 7)
    s.wait(100)
    s.new_game_from_pause()
    snap_status(s, "status")
    dev = run_device(board_sim, s.end(), flash)
    assert status(dev, "status") == ["Black to move", "Freestyle #0"]


def test_stones_are_drawn_with_their_rims(flash):
    # a white stone has a grey rim all round (it would not stand out on the
    # light wood without it), a black one is black to its edge
    s = Script()
    s.start_two_players()
    s.place(7 * 15 + 7)
    s.place(7 * 15 + 8)
    s.place(9 * 15 + 9)     # the last-move mark off the white stone
    s.wait(100)
    r = VIEW.radius
    pts = []
    for i in (7 * 15 + 7, 7 * 15 + 8):
        x, y = VIEW.center(i)
        pts += [(x, y - r), (x, y + r), (x - r, y), (x + r, y),
                (x + r // 2, y + r // 2)]
    s.snap("rims", pts)
    dev = run_device(board_sim, s.end(), flash)
    black, white = dev.snaps["rims"][:5], dev.snaps["rims"][5:]
    assert black == [bv.BLACK] * 5
    assert white == [bv.WHITE_EDGE] * 4 + [bv.WHITE]


def test_playing_white_you_beat_the_ai_and_undo_takes_back_only_your_five(
        flash):
    # a vs-AI game saved with you as white, four white stones in a row and
    # white to move: your five wins ("You win!", the five highlighted), and
    # B takes back that move alone (the AI made no reply to take back)
    import gomoku
    import savegame
    black = [0, 2, 4, 6, 8]
    white = [9 * 15 + 3 + k for k in range(4)]
    moves = []
    for b, w in zip(black, white + [None]):
        moves.append(b)
        if w is not None:
            moves.append(w)
    savegame.write(gomoku.FREESTYLE, 0, 1, 2, bytes(moves), len(moves))
    five = white + [9 * 15 + 7]
    s = Script()
    s.tap("place")          # "Saved game found": A resumes
    s.cursor = white[-1]    # on your last stone
    s.wait(300)
    s.place(five[-1])
    s.wait(300)
    s.snap("banner", band(VIEW.status.y, VIEW.status.h))
    s.snap("bg", [(VIEW.origin(i)[0] + 1, VIEW.origin(i)[1] + 1) for i in ALL])
    s.tap("back")
    s.wait(300)
    snap_stones(s, "undone")
    snap_status(s, "status")
    s.snap("undone:bg", [(VIEW.origin(i)[0] + 1, VIEW.origin(i)[1] + 1)
                         for i in ALL])
    dev = run_device(board_sim, s.end(), flash)
    assert screen_text(dev.snaps["banner"], VIEW.status.h) == ["You win!  You 1 AI 0"]
    assert [i for i in ALL if dev.snaps["bg"][i] == bv.WIN] == five
    assert sorted(stones(dev, "undone")) == sorted(moves)
    assert bv.WIN not in dev.snaps["undone:bg"]       # the five unmarked
    assert status(dev, "status") == ["White (you) to move", "Freestyle #9"]


def test_new_game_vs_ai_keeps_your_colour(flash):
    # you chose white: the AI opens; a new game from the pause menu has
    # the same settings, so the AI opens again and you are still white
    s = Script()
    s.start_as_white_vs_ai()
    s.place(3 * 15 + 3)
    s.wait(400)             # the AI answers
    snap_stones(s, "three")
    s.new_game_from_pause(600)     # the AI opens the new game
    snap_stones(s, "again")
    snap_status(s, "status")
    dev = run_device(board_sim, s.end(), flash)
    assert len(stones(dev, "three")) == 3
    again = dev.snaps["again"]
    assert again.count(bv.BLACK) == 1 and bv.WHITE not in again
    assert status(dev, "status") == ["White (you) to move", "Freestyle #1"]


def test_a_resumed_game_left_for_the_main_menu_is_not_resumed_again(flash):
    # resumed, then Main menu from the pause menu: the start menu comes up,
    # and Start begins an empty board
    import savegame
    import settings
    savegame.write(0, settings.MODE_LOCAL, 1, 0, bytes([112, 113]), 2)
    s = Script()
    s.tap("place")          # "Saved game found": A resumes
    s.wait(300)
    s.tap("menu")           # Paused: < Resume >
    for _ in range(3):
        s.tap("menu")       # Undo, New game, Main menu
    s.tap("place")
    s.wait(300)
    s.snap("menu", WHOLE)
    s.tap("place")          # Start
    s.wait(300)
    snap_stones(s, "fresh")
    dev = run_device(board_sim, s.end(), flash)
    assert "> Start" in screen_text(dev.snaps["menu"], 240)
    assert stones(dev, "fresh") == []


def test_moving_the_cursor_clears_a_refusal(flash):
    # "Taken: choose an empty point" is for the point refused: once the
    # player steers elsewhere the message line shows the keys again
    s = Script()
    s.start_two_players()
    s.place(7 * 15 + 7)
    s.tap("place")          # white on black's stone: refused
    s.wait(100)
    s.snap("refused", band(VIEW.message.y, VIEW.message.h))
    s.tap("right", 60, 60)
    s.wait(100)
    s.snap("moved", band(VIEW.message.y, VIEW.message.h))
    dev = run_device(board_sim, s.end(), flash)
    assert screen_text(dev.snaps["refused"], VIEW.message.h) == \
        ["Taken: choose an empty point"]
    assert screen_text(dev.snaps["moved"], VIEW.message.h) == \
        ["A: place  B: undo  X: menu"]
