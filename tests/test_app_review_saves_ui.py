"""Review of the save files, the settings, the text line, the controls and
the start menu: the cases a mutation review found no test for. Saves are
built by hand from version 1 of the documented layout (magic, version, rule,
mode, level, colour, count, moves, CRC-16/CCITT-FALSE big-endian; version 2
adds the games won before the CRC), not by encode()."""
import binascii
import errno
import os

import pytest

import host_sim

host_sim.install()

import board_esp32_ili9341  # noqa: E402
import board_sim  # noqa: E402
import board_view as bv  # noqa: E402
import savegame  # noqa: E402
import saveread  # noqa: E402
import settings  # noqa: E402
from textline import TextLine  # noqa: E402
from app_script import (Rig, Script, band, layout, run_device, screen_text,  # noqa: E402
                        stone_point)

VIEW = layout(board_sim)
WHOLE = [(x, y) for y in range(240) for x in range(240)]


def crafted(count, moves, rule=0, mode=0, level=1, human=1):
    """A save as the module docstring lays it out; the CRC from the stdlib's
    CRC-CCITT (crc_hqx) started at 0xFFFF, which is CRC-16/CCITT-FALSE."""
    body = b"GMKS" + bytes((1, rule, mode, level, human, count)) + bytes(moves)
    return body + binascii.crc_hqx(body, 0xFFFF).to_bytes(2, "big")


def fat_rename(monkeypatch):
    """os.rename refused when the target exists, as FatFs's f_rename is
    (MicroPython's VfsFat then removes the target and renames again): what
    the boot does with a save must not depend on the filesystem's rename."""
    real = os.rename

    def rename(src, dst):
        if os.path.exists(dst):
            raise OSError(errno.EEXIST, "exists")
        real(src, dst)
    monkeypatch.setattr(savegame.os, "rename", rename)


# ---- saves the app never writes are refused and set aside ----------------

def test_the_hand_built_save_is_one_the_app_reads():
    # the helper is right: a save built by it loads (so refusals below are
    # about the one field each changes)
    s = saveread.decode(crafted(3, [112, 113, 97], rule=4))
    assert (s.rule, s.mode, s.level, s.human, s.moves) == \
        (4, 0, 1, 1, bytes([112, 113, 97]))


def test_a_version_1_save_resumes_with_no_games_won():
    # the firmware before version 2 saved no tally: its game still resumes
    s = saveread.decode(crafted(2, [112, 113]))
    assert s.moves == bytes([112, 113]) and s.won == bytes(2)


def test_more_moves_than_points_are_refused_and_set_aside(flash):
    # a count byte of 226 with 226 moves on the board's points, good CRC:
    # no game has more moves than the board has points
    data = crafted(226, [k % 225 for k in range(226)])
    (flash / savegame.PATH).write_bytes(data)
    saved, problem = saveread.load()
    assert saved is None and savegame.BAD in problem
    assert (flash / savegame.BAD).read_bytes() == data
    assert not (flash / savegame.PATH).exists()


def test_the_first_point_past_the_board_is_off_it():
    # points are y*15+x for x, y in 0..14: 0..224; 225 is (0, 15)
    saveread.decode(crafted(2, [224, 0]))
    with pytest.raises(ValueError, match="off the board"):
        saveread.decode(crafted(3, [112, 113, 225]))


def test_a_trailing_byte_after_a_full_board_save_is_refused(flash):
    # the longest save (225 moves) read with one byte more than it holds,
    # else a longer file would be cut to a valid save and accepted
    data = crafted(225, range(225)) + b"\x00"
    (flash / savegame.PATH).write_bytes(data)
    saved, problem = saveread.load()
    assert problem == "Saved game not resumed (bad length): kept as " \
        + savegame.BAD
    assert saved is None and (flash / savegame.BAD).read_bytes() == data


def test_a_move_the_board_refuses_is_named_as_the_screens_name_points(flash):
    """A save whose moves do not replay is set aside with the board's
    reason, its point named as the status line and `make play` name points
    (column A-O, row 1 at the bottom), not in the engine's (x, y)."""
    import gomoku
    import refusal
    g = gomoku.Game()
    g.play(7, 7)
    with pytest.raises(ValueError) as occupied:
        g.play(7, 7)
    for why, named in ((occupied.value, "H8 is occupied"),
                       (refusal.error(4, 0, 14), "A1 is forbidden for black: double three"),
                       (refusal.error(2), "game over"),
                       (ValueError("(7, 7"), "(7, 7"),
                       (ValueError("bad length"), "bad length")):
        (flash / savegame.PATH).write_bytes(b"a save")
        assert saveread.set_aside("game", why) == \
            "Saved game not resumed (%s): kept as %s" % (named, savegame.BAD)


def test_a_cleared_game_leaves_no_temp_file_to_resume(flash):
    # load() takes a complete temp file as the newest save: clear() must
    # remove it too, or an abandoned game comes back at the next boot
    (flash / savegame.PATH).write_bytes(crafted(1, [112]))
    (flash / savegame.TMP).write_bytes(crafted(2, [112, 113]))
    savegame.clear()
    assert saveread.load() == (None, None)
    assert os.listdir(flash) == []


# ---- a rename that fails, or will not replace a file ----------------------

def test_a_rename_that_fails_keeps_the_old_save_and_the_boot_finds_the_new(
        flash, monkeypatch):
    """The flash refuses the rename (EIO): the error reaches the player
    ("Not saved"), the save there is left whole, not removed first, and the
    complete temp file is the newest save at the next boot."""
    savegame.write(0, 0, 1, 1, bytes([112]), 1)
    old = (flash / savegame.PATH).read_bytes()
    real = os.rename

    def rename(src, dst):
        raise OSError(errno.EIO, "I/O error")
    monkeypatch.setattr(savegame.os, "rename", rename)
    with pytest.raises(OSError) as e:
        savegame.write(0, 0, 1, 1, bytes([112, 113]), 2)
    assert savegame.not_saved(e.value) == "Not saved: flash error %d" % errno.EIO
    assert (flash / savegame.PATH).read_bytes() == old
    monkeypatch.setattr(savegame.os, "rename", real)    # the next boot
    assert saveread.load()[0].moves == bytes([112, 113])


def test_a_temp_save_takes_the_saves_place_on_fat(flash, monkeypatch):
    # a power cut before the rename left both files: the temp one is the
    # newer and must end up as PATH, since PATH is what the app sets aside
    # when a resumed game's moves do not replay (else the older, good save
    # would be set aside and the temp file offered at every boot)
    fat_rename(monkeypatch)
    (flash / savegame.PATH).write_bytes(crafted(1, [112]))
    newer = crafted(2, [112, 113])
    (flash / savegame.TMP).write_bytes(newer)
    saved, problem = saveread.load()
    assert problem is None and saved.moves == bytes([112, 113])
    assert sorted(os.listdir(flash)) == [savegame.PATH]
    assert (flash / savegame.PATH).read_bytes() == newer


def test_a_second_bad_save_on_fat_is_the_one_kept(flash, monkeypatch):
    # the note says the damaged save is kept as BAD: it must be this one,
    # not the older one already there
    fat_rename(monkeypatch)
    (flash / savegame.BAD).write_bytes(b"an older bad save")
    bad = crafted(2, [112, 113])[:-1]
    (flash / savegame.PATH).write_bytes(bad)
    saved, problem = saveread.load()
    assert saved is None and "truncated" in problem
    assert (flash / savegame.BAD).read_bytes() == bad
    assert not (flash / savegame.PATH).exists()


def test_a_bad_save_that_cannot_be_renamed_is_not_reported_at_every_boot(
        flash, monkeypatch):
    real = os.rename

    def no_bad(src, dst):
        if dst == savegame.BAD:
            raise OSError(errno.EIO, "io")
        real(src, dst)
    monkeypatch.setattr(savegame.os, "rename", no_bad)
    (flash / savegame.PATH).write_bytes(b"GMKS\x01")
    saved, problem = saveread.load()
    # nothing could be kept, and the note does not claim it was
    assert saved is None and problem.endswith(": removed")
    assert not (flash / savegame.BAD).exists()
    assert saveread.load() == (None, None)


def test_a_failed_write_is_named_by_its_error():
    # only a full flash is "flash full"; another error gives its number
    assert savegame.not_saved(OSError(errno.ENOSPC, "")) == \
        "Not saved: flash full"
    assert savegame.not_saved(OSError(errno.EIO, "")) == \
        "Not saved: flash error %d" % errno.EIO


# ---- settings --------------------------------------------------------------

def test_settings_on_a_flash_that_refuses_writes(flash, monkeypatch):
    # leaving the menu saves the settings: a full flash must not stop the
    # game, and the choices are written once the flash takes them again
    real = settings.replace

    def full(*a):
        raise OSError(errno.ENOSPC, "full")
    monkeypatch.setattr(settings, "replace", full)
    s = settings.Settings()
    s.values[settings.RULE] = 4
    s.save()
    assert not (flash / settings.PATH).exists()
    monkeypatch.setattr(settings, "replace", real)
    s.save()
    t = settings.Settings()
    assert t.load() and t.values[settings.RULE] == 4


def test_a_settings_file_longer_than_any_the_app_writes_gives_defaults(
        flash):
    v = bytes((settings.MODE_LOCAL, 2, 4, 1))
    good = bytes((0xA7,)) + v + bytes((sum(v) & 0xFF,))
    (flash / settings.PATH).write_bytes(good)
    assert settings.Settings().load()
    (flash / settings.PATH).write_bytes(good + b"\x00")
    s = settings.Settings()
    assert not s.load()
    assert list(s.values) == list(settings.Settings().values)


@pytest.mark.parametrize("damaged", [True, False])
def test_damaged_settings_are_named_at_boot_before_the_menus_defaults(
        flash, capsys, damaged):
    """A settings file that does not check (a changed byte, its sum not)
    was replaced by the defaults without a word: the player's choices
    went, unexplained. Now a note says so, until a key (a chip's note
    goes after 5 s); no file at all is a first boot, and no note."""
    v = bytearray((settings.MODE_LOCAL, 2, 4, 1, 41))
    good = bytes((0xA7,)) + v + bytes((sum(v) & 0xFF,))
    if damaged:
        (flash / settings.PATH).write_bytes(good[:3] + b"\x00" + good[4:])
    s = Script()
    s.wait(9000)
    s.snap("boot", band(0, 240))
    s.tap("place")          # A: continue, if a note
    s.wait(300)
    s.snap("menu", band(0, 240))
    snaps = run_device(board_sim, s.end(), str(flash)).snaps
    out = capsys.readouterr().out
    note = "Settings damaged: the menu's defaults are used"
    assert (note in out) == damaged
    boot = " ".join(screen_text(snaps["boot"], 240))
    assert ("Settings damaged" in boot) == damaged, boot
    menu = " ".join(screen_text(snaps["menu" if damaged else "boot"], 240))
    assert "Mode:  vs AI" in menu and "Rule:  Freestyle" in menu, menu
    t = settings.Settings()
    assert t.load() and t.values[settings.BOOTS] == 1   # this boot, counted


def test_a_cut_temp_settings_file_is_not_read_as_the_older_format(flash):
    """A power cut after 6 of the temp file's 7 bytes, when the boots
    byte happens to be the choices' sum: those 6 bytes are a whole file of
    the older format (4 choices and their sum). The complete file stays."""
    s = settings.Settings()
    s.values[:] = bytes((settings.MODE_AI, 1, 0, 0, 1))
    s.save()
    cut = (flash / settings.PATH).read_bytes()[:6]
    s.values[:] = bytes((settings.MODE_LOCAL, 2, 4, 1, 9))
    s.save()
    (flash / settings._TMP).write_bytes(cut)
    t = settings.Settings()
    assert t.load()
    assert bytes(t.values) == bytes((settings.MODE_LOCAL, 2, 4, 1, 9))
    assert not (flash / settings._TMP).exists()
    # the older format itself, as the main file, is still read
    (flash / settings.PATH).write_bytes(cut)
    t = settings.Settings()
    assert t.load() and bytes(t.values[:4]) == bytes((settings.MODE_AI, 1, 0, 0))


# ---- the text line ---------------------------------------------------------

class Glass:
    """Records what a TextLine paints: text runs and filled rectangles."""

    def __init__(self):
        self.texts = []
        self.fills = []

    def fill_rect(self, x, y, w, h, c):
        self.fills.append((x, y, w, h, c))

    def text(self, s, x, y, fg, bg):
        self.texts.append((s, x, y, fg, bg))


@pytest.mark.parametrize("w,pad", [(240, 2), (320, 2), (101, 3), (200, 0)])
def test_text_stays_inside_its_line_and_is_centred(w, pad):
    fw, fh, lh = 6, 8, 12
    lcd = Glass()
    line = TextLine(lcd, 0, 40, w, lh, fw, fh, 1, 0, pad)
    line.set("x" * 100)                     # longer than any line: cut
    assert lcd.fills == [(0, 40, w, lh, 0)]
    for s, x, y, _, _ in lcd.texts:
        assert x >= pad and x + len(s) * fw <= w - pad
        assert y - 40 == 40 + lh - (y + fh)     # as much space above as below
    assert "".join(t[0] for t in lcd.texts) == "x" * ((w - 2 * pad) // fw)
    # center(): in the line's cells (as many as fit between the pads), the
    # text's left and right margins differ by one cell at most
    lcd2 = Glass()
    line2 = TextLine(lcd2, 0, 40, w, lh, fw, fh, 1, 0, pad)
    line2.center("Black wins!")
    xs = [x + k * fw for s, x, _, _, _ in lcd2.texts
          for k in range(len(s)) if s[k] != " "]
    left = min(xs) - pad
    right = pad + (w - 2 * pad) // fw * fw - (max(xs) + fw)
    assert len(xs) == len("Blackwins!") and abs(left - right) <= fw


def test_a_line_set_as_drawn_paints_nothing_and_a_refilled_one_again():
    lcd = Glass()
    line = TextLine(lcd, 0, 0, 60, 12, 6, 8, 1, 0)      # 10 cells
    line.set("Black")
    lcd.texts.clear()
    lcd.fills.clear()
    line.set("Black")
    line.set("Black   ")                  # the same cells, padded
    assert lcd.texts == [] and lcd.fills == []
    line.set("Bla")                       # shorter: only the gone cells
    assert [t[0] for t in lcd.texts] == ["  "]
    lcd.texts.clear()
    line.set("Bla", fg=2)                 # a new colour: all of it again
    assert lcd.fills and "".join(t[0] for t in lcd.texts).strip() == "Bla"
    lcd.texts.clear()
    line.filled(0)                        # background under it: text again
    line.set("Bla")
    assert "".join(t[0] for t in lcd.texts) == "Bla"
    lcd.texts.clear()
    line.set("Bla", bg=3)
    line.filled(0)                        # filled with another colour than
    lcd.fills.clear()                     # the line's: the line takes it,
    line.set("Bla", bg=3)                 # and its own is laid again
    assert lcd.fills and lcd.fills[-1][-1] == 3


TEXTLINE_LOCKED = """
import micropython
from textline import TextLine


class Glass:
    def __init__(self):
        self.n = 0

    def fill_rect(self, x, y, w, h, c):
        self.n += 1

    def text(self, s, x, y, fg, bg):
        self.n += 1


lcd = Glass()
line = TextLine(lcd, 0, 0, 240, 12, 6, 8, 1, 0, 2)
text = "Black to move   Freestyle #%d" % 3
line.set(text)
drawn = lcd.n
micropython.heap_lock()
try:
    line.set(text)                        # every cursor step sets the line
    line.set(text, 1, 0)
finally:
    micropython.heap_unlock()
assert lcd.n == drawn
print("no allocation")
"""


def test_a_line_set_as_drawn_allocates_nothing_on_micropython():
    """The status and hint lines are set on every cursor step: unchanged,
    they must cost no heap (no padded copy to compare)."""
    import upy
    assert "no allocation" in upy.run(TEXTLINE_LOCKED)


CURSOR_STEP_LOCKED = """
import micropython
import gomoku
from board_view import BoardView, N


class Glass:
    width = 240
    height = 240

    def __init__(self):
        self.blits = 0

    def fill_rect(self, x, y, w, h, c):
        pass

    def text(self, s, x, y, fg, bg):
        pass

    def blit(self, buf, x, y, w, h):
        self.blits += 1


lcd = Glass()
view = BoardView(lcd, 6, 8)
g = gomoku.Game(gomoku.FREESTYLE)
for x, y in ((7, 7), (8, 7), (0, 0), (14, 14), (3, 3), (0, 14)):
    g.play(x, y)
view.attach(g)
view.set_last(14 * N)
view.win[7 * N + 7] = 1
view.set_cursor(0)
before = lcd.blits
micropython.heap_lock()
try:
    for i in range(1, N * N):       # every cell: stones, stars, edges, marks
        view.set_cursor(i)
    view.set_last(7 * N + 8)
finally:
    micropython.heap_unlock()
assert lcd.blits - before == 2 * (N * N - 1) + 2, lcd.blits - before
print("no allocation")
"""


def test_a_cursor_step_over_every_cell_allocates_nothing_on_micropython():
    """A cursor step redraws two cells (over a stone, a star point, the
    last-move mark, a cell of the five, the board's edges): on every step
    it must cost no heap. It cost 32 bytes a cell, 160 over a stone (a
    tuple for the cell's origin, and for assignments of four names)."""
    import upy
    assert "no allocation" in upy.run(CURSOR_STEP_LOCKED)


# ---- the start menu --------------------------------------------------------

def write_settings(flash, mode, level=1, rule=0, black=0):
    v = bytes((mode, level, rule, black))
    (flash / settings.PATH).write_bytes(bytes((0xA7,)) + v
                                        + bytes((sum(v) & 0xFF,)))


def menu_text(dev, label):
    return screen_text(dev.snaps[label], 240)


def test_menu_lines_show_each_choice_as_it_is_made(flash):
    s = Script(start_ms=700)
    s.snap("opened", WHOLE)
    s.tap("right")          # on Start: nothing to change, no game started
    s.wait(100)
    s.snap("still", WHOLE)
    s.tap("menu")           # Mode
    s.tap("menu")           # Level
    s.tap("place")          # Level 2
    s.wait(100)
    s.snap("level2", WHOLE)
    s.tap("place")          # and round to Level 1 again
    s.wait(100)
    s.snap("level1", WHOLE)
    s.tap("back")           # Mode
    s.tap("place")          # 2 players
    s.tap("place")          # Wireless (this board has a radio)
    s.tap("menu")           # Rule (Level is off for Wireless)
    s.tap("menu")           # Black
    s.tap("place")          # the peer plays black
    s.wait(100)
    s.snap("peer", WHOLE)
    s.tap("back")           # Rule
    s.tap("back")           # Mode
    s.tap("left")           # a step back: Wireless to 2 players
    s.wait(100)
    s.snap("left", WHOLE)
    dev = run_device(board_sim, s.end(), flash)
    opened = menu_text(dev, "opened")
    # the sim board has both: hints name the tilt and the joystick
    assert "tilt/joystick: choose" in opened
    assert "A: change/start  X: next" in opened
    assert menu_text(dev, "still") == opened
    level2 = menu_text(dev, "level2")
    assert "> Level: 2" in level2
    # one line selected at a time: the old one is drawn unselected again
    assert [t for t in level2 if t.startswith(">")] == ["> Level: 2"]
    assert "> Level: 1" in menu_text(dev, "level1")
    peer = menu_text(dev, "peer")
    assert "Mode:  Wireless" in peer, peer
    assert "> Black: peer" in peer
    assert [t for t in peer if t.startswith(">")] == ["> Black: peer"]
    assert "> Mode:  2 players" in menu_text(dev, "left")


@pytest.mark.parametrize("radio,mode", [(True, "Wireless"), (False, "vs AI")])
def test_wireless_is_remembered_only_where_there_is_a_radio(flash, radio,
                                                            mode):
    write_settings(flash, settings.MODE_RADIO)
    s = Script(start_ms=700)
    if not radio:
        s.tap("place")      # the missing radio's note
        s.wait(200)
    s.snap("opened", WHOLE)
    dev = run_device(board_sim, s.end(), flash, radio=radio)
    opened = " | ".join(menu_text(dev, "opened"))
    assert "Mode:  " + mode in opened, opened


# ---- the keys in a game ----------------------------------------------------

def test_joystick_press_places_and_extra_undoes(flash):
    # README: pressing the joystick places a stone; Y (extra) does what B does
    s = Script()
    s.start_two_players()
    s.goto(7 * 15 + 7)
    s.tap("press")
    s.goto(7 * 15 + 8)
    s.tap("press")
    s.wait(100)
    s.snap("two", [stone_point(VIEW, i) for i in range(225)])
    s.tap("extra")
    s.wait(100)
    s.snap("one", [stone_point(VIEW, i) for i in range(225)])
    dev = run_device(board_sim, s.end(), flash)
    two, one = dev.snaps["two"], dev.snaps["one"]
    assert two[7 * 15 + 7] == bv.BLACK and two[7 * 15 + 8] == bv.WHITE
    assert two.count(bv.BLACK) == 1 and two.count(bv.WHITE) == 1
    assert one[7 * 15 + 7] == bv.BLACK and bv.WHITE not in one


def test_key_steering_holds_place_once_and_undo_once(flash):
    """ESP32 without its gyro, two players: a held place puts one stone and
    its release does not step the cursor; a held back takes back one move,
    however long it is held."""
    board = board_esp32_ili9341
    view = layout(board)
    s = Script(start_ms=900)
    s.tap("place")          # dismiss the gyro note
    s.wait(200)
    s.start_two_players()
    c = 7 * 15 + 7
    s.tap("place", 900)     # black at the centre
    s.wait(100)
    s.snap("cursor", [view.origin(i) for i in range(225)])
    s.tap("place")          # step right
    s.tap("place", 700)     # white
    s.tap("place")
    s.tap("place", 700)     # black
    s.wait(100)
    s.snap("three", [stone_point(view, i) for i in range(225)])
    s.tap("back", 1200)     # undo, held long
    s.wait(100)
    s.snap("two", [stone_point(view, i) for i in range(225)])
    dev = run_device(board, s.end(), str(flash), gyro=False)
    assert [i for i in range(225) if dev.snaps["cursor"][i] == bv.CURSOR] \
        == [c]
    three = dev.snaps["three"]
    assert [three[c + k] for k in range(3)] == [bv.BLACK, bv.WHITE, bv.BLACK]
    assert three.count(bv.BLACK) == 2 and three.count(bv.WHITE) == 1
    two = dev.snaps["two"]
    assert (two[c], two[c + 1]) == (bv.BLACK, bv.WHITE)
    assert two.count(bv.BLACK) == 1 and two.count(bv.WHITE) == 1


@pytest.mark.parametrize("levels,want", [
    ((1,), ["> Rule:  Freestyle", "Level: 1"]),     # one level: not a choice
    ((1, 2, 3), ["> Level: 3"]),                    # left from 1 wraps to 3
])
def test_the_level_line_follows_the_levels_on_offer(flash, monkeypatch,
                                                    levels, want):
    import ai
    monkeypatch.setattr(ai, "LEVELS", levels)
    s = Script(start_ms=700)
    s.tap("menu")           # Mode
    s.tap("menu")           # Level, when there is a choice of levels
    if len(levels) > 1:
        s.tap("left")
    s.wait(100)
    s.snap("menu", WHOLE)
    rig = Rig(board_sim)
    assert rig.run(s.end()) == "end"
    shown = screen_text(rig.snaps["menu"], 240)
    for label in want:
        assert label in shown, shown


def test_lines_that_do_not_apply_are_dimmed(flash):
    # two players: no AI level, and player 1 always has black; those two
    # lines are drawn dim, the lines that can be changed in the text colour
    import menu
    s = Script(start_ms=700)
    s.tap("menu")           # Mode
    s.tap("place")          # 2 players
    s.wait(100)
    s.snap("menu", WHOLE)
    dev = run_device(board_sim, s.end(), flash)
    px = dev.snaps["menu"]
    rows = [set(px[y * 240:(y + 1) * 240]) - {bv.SCREEN} for y in range(240)]
    bands = []              # the colours of each run of rows with ink
    for y in range(240):
        if rows[y] and (y == 0 or not rows[y - 1]):
            bands.append(set())
        if rows[y]:
            bands[-1] |= rows[y]
    # the title, then one band per line, then the two hint lines
    assert screen_text(px, 240)[:5] == ["> Mode:  2 players", "Level: -",
                                        "Rule:  Freestyle", "Black: player 1",
                                        "Start"]
    assert len(bands) == 8, len(bands)
    mode, level, rule, black, start = bands[1:6]
    assert bv.BANNER in mode
    for dim in (level, black):
        assert menu._DIM in dim and bv.TEXT not in dim
    for lit in (rule, start):
        assert bv.TEXT in lit and menu._DIM not in lit


def test_a_tilt_held_through_the_pause_menu_stops_when_levelled(flash):
    # the device still tilted when the game resumes is still tilted: the
    # cursor goes on, and stops once the device is level. (Taken as level
    # at the pause, the device's return to level read as a tilt left, and
    # the cursor ran to the left edge and stayed pushed there.)
    s = Script()
    s.start_two_players()
    s.at("lean", 20, 0)     # tilted right and held: the cursor repeats
    s.wait(500)
    s.tap("menu")           # pause
    s.wait(500)
    s.tap("back")           # resume, the device still tilted
    s.wait(100)
    s.snap("resumed", [VIEW.origin(i) for i in range(225)])
    s.wait(300)
    s.at("lean", 0, 0)      # level
    s.wait(1000)
    s.snap("level", [VIEW.origin(i) for i in range(225)])
    s.wait(3000)
    s.snap("later", [VIEW.origin(i) for i in range(225)])
    dev = run_device(board_sim, s.end(), flash)

    def cursor(label):
        at = [i for i in range(225) if dev.snaps[label][i] == bv.CURSOR]
        assert len(at) == 1, (label, at)
        return at[0]
    assert 7 * 15 + 7 < cursor("resumed") < cursor("level") <= 7 * 15 + 14
    assert cursor("later") == cursor("level")


def test_a_joystick_held_into_the_pause_menu_does_not_step_it(flash):
    # the pause menu forgets a repeat that began in the game: only a new
    # press steps its items (else A right after would undo, not resume)
    s = Script()
    s.start_two_players()
    s.at("press", "left")   # held: the cursor repeats left
    s.wait(600)
    s.tap("menu")           # pause, the joystick still held
    s.wait(600)
    s.snap("msg", band(VIEW.message.y, VIEW.message.h))
    s.at("release", "left")
    dev = run_device(board_sim, s.end(), flash)
    assert screen_text(dev.snaps["msg"], VIEW.message.h) == \
        ["Paused: < Resume >  X: next  A: ok"]
