"""Review of the keys and tilt held across a change of screen (the AI's
reply, the way back to the start menu), of where a resumed game puts the
cursor, and of what the boot offers: the cases a mutation review found no
test for. Played on the simulated handheld, read off its LCD model."""
import pytest

import host_sim

host_sim.install()

import sim_clock  # noqa: E402
import board_sim  # noqa: E402
import board_view as bv  # noqa: E402
import savegame  # noqa: E402
import saveread  # noqa: E402
from test_app_wireless import _snapshot  # noqa: E402
from app_script import Rig, Script, layout, run_device, screen_text, \
    stone_point  # noqa: E402

VIEW = layout(board_sim)
ALL = range(225)
WHOLE = [(x, y) for y in range(240) for x in range(240)]
CENTRE = 7 * 15 + 7


def snap_cursor(s, label):
    s.snap(label, [VIEW.origin(i) for i in ALL])


def cursor_at(rig, label):
    return [i for i in ALL if rig.snaps[label][i] == bv.CURSOR]


def shown(dev, label):
    return screen_text(dev.snaps[label], 240)


# ---- a key held while the AI thinks ----------------------------------------

THINK_MS = 1500


def slow_ai(monkeypatch):
    """The AI's reply takes THINK_MS on the simulated clock, as a search
    takes seconds on the device (the clock counts sleeps, not computing):
    the script's key events of that spell happen while no one polls."""
    import ai
    real = ai.best_move

    def best_move(g, level=1):
        sim_clock.advance_us(THINK_MS * 1000)
        return real(g, level)
    monkeypatch.setattr(ai, "best_move", best_move)


@pytest.mark.parametrize("when", ["while the AI thinks", "from before"])
def test_a_key_held_through_the_ais_reply_does_nothing_until_pressed_again(
        flash, monkeypatch, when):
    """right pressed while the AI thinks (or held from before A placed the
    stone, stepping the cursor once) and still held once it has replied:
    the cursor ran off across the new position. It stays until the key is
    let go and pressed again, which steps it as ever."""
    slow_ai(monkeypatch)
    s = Script()
    s.tap("place")          # the menu: Start (vs AI, you black)
    s.wait(300)
    stone = CENTRE
    if when == "from before":
        s.at("press", "right")
        s.wait(150)         # one step, short of the first repeat
        stone += 1
        s.tap("place")
    else:
        s.tap("place")
        s.wait(300)         # the AI thinks
        s.at("press", "right")
    s.wait(THINK_MS + 1000)     # the AI has replied; right still held
    snap_cursor(s, "held")
    s.at("release", "right")
    s.wait(200)
    s.tap("right", 60)
    s.wait(200)
    snap_cursor(s, "again")
    rig = Rig(board_sim)
    assert rig.run(s.end()) == "end"
    assert cursor_at(rig, "held") == [stone]
    assert cursor_at(rig, "again") == [stone + 1]


# ---- a tilt held into the start menu ----------------------------------------

def test_a_tilt_held_into_the_start_menu_moves_nothing_there(flash):
    """Tilted forward (up), the player picks Main menu in the pause menu:
    the held tilt stepped the start menu's selection off Start at once and
    on round its lines, so A changed a choice instead of starting. It
    stays on Start, while held and once levelled, until a tilt is made."""
    s = Script()
    s.start_two_players()
    s.place(CENTRE)
    s.at("tilt", 0, 60)     # 15 degrees forward, and held
    s.wait(250)
    s.at("tilt", 0, 0)
    s.wait(300)
    s.tap("menu")           # Paused: < Resume >
    for _ in range(3):
        s.tap("menu")       # Undo, New game, Main menu
    s.tap("place")
    for k in range(4):      # the held tilt's first step and its repeats
        s.wait(50 if k == 0 else 400)
        s.snap("held%d" % k, WHOLE)
    s.at("tilt", 0, -60)    # levelled
    s.wait(250)
    s.at("tilt", 0, 0)
    s.wait(500)
    s.snap("level", WHOLE)
    dev = run_device(board_sim, s.end(), flash)
    for label in ["held%d" % k for k in range(4)] + ["level"]:
        text = shown(dev, label)
        assert "> Start" in text and "Mode:  2 players" in text, (label, text)


# ---- where a resumed game puts the cursor -----------------------------------

def test_resumed_as_white_with_only_the_ais_stone_the_cursor_is_on_it(flash):
    """You white vs AI, reset after the AI's opening: none of your stones
    yet, so the cursor is on the last move, the AI's; not on A15, a point
    of a move that was never played."""
    opening = 3 * 15 + 4    # off the centre, where a new game's cursor is
    savegame.write(0, 0, 1, 2, bytes([opening]), 1)
    s = Script()
    s.tap("place")          # "Saved game found": A resumes
    s.wait(300)
    snap_cursor(s, "resumed")
    s.snap("stones", [stone_point(VIEW, i) for i in ALL])
    dev = run_device(board_sim, s.end(), flash)
    assert [i for i in ALL if dev.snaps["stones"][i] == bv.BLACK] == [opening]
    assert cursor_at(dev, "resumed") == [opening]


# ---- what the boot offers -----------------------------------------------------

@pytest.mark.parametrize("key, resumed", [
    ("place", True),        # A: resume
    ("back", False),        # B: menu
    ("menu", False),        # X: menu too (the screen names only A and B)
])
def test_each_key_at_the_saved_game_prompt(flash, key, resumed):
    """A resumes the saved game; B and X go to the start menu, the save
    kept (offered again after a reset) until a new game replaces it."""
    moves = bytes([CENTRE, CENTRE + 1, CENTRE + 15])
    savegame.write(0, 1, 1, 0, moves, 3)        # two players
    s = Script()
    s.snap("offer", WHOLE)
    s.tap(key)
    s.wait(300)
    s.snap("after", WHOLE)
    s.snap("stones", [stone_point(VIEW, i) for i in ALL])
    s.reset()
    s.wait(1500)
    s.snap("boot", WHOLE)
    dev = run_device(board_sim, s.end(), flash)
    assert "Saved game found:" in shown(dev, "offer")
    after = shown(dev, "after")
    stones = [i for i in ALL if dev.snaps["stones"][i] in (bv.BLACK, bv.WHITE)]
    if resumed:
        assert stones == sorted(moves)
        assert "> Start" not in after, after
    else:
        assert stones == []
        assert "> Start" in after and "Saved game found:" not in after, after
    assert "Saved game found:" in shown(dev, "boot")
    assert saveread.load()[0].moves == moves


# ---- a saved wireless match on a board whose radio did not answer -----------

def test_no_radio_no_saved_match_offer_and_the_match_is_kept(flash, capsys):
    """The radio did not answer at boot: its note says wireless is off and
    the start menu follows; the saved match is not offered (resuming needs
    the radio, and B there would delete it). It stays on flash, offered at
    the first boot with the radio back."""
    blob = _snapshot(b"\x70\x71")
    (flash / savegame.MATCH).write_bytes(blob)
    s = Script(start_ms=700)
    s.snap("note", WHOLE)
    s.tap("place")          # A: continue
    s.wait(300)
    s.snap("next", WHOLE)
    s.tap("back")           # B, which forgets a match when offered one
    s.wait(300)
    dev = run_device(board_sim, s.end(), str(flash), radio=False)
    assert "Wireless match is off" in capsys.readouterr().out
    note, after = " ".join(shown(dev, "note")), " ".join(shown(dev, "next"))
    assert "Wireless match saved" not in note + after
    assert "> Start" in after, after
    assert (flash / savegame.MATCH).read_bytes() == blob
    s = Script()
    s.snap("offer", WHOLE)
    dev = run_device(board_sim, s.end(), str(flash))
    assert "Wireless match saved" in shown(dev, "offer")
