"""Review of the save files, the settings, the text line, the controls and
the start menu: the cases a mutation review found no test for. Saves are
built by hand from the documented layout (magic, version, rule, mode, level,
colour, count, moves, CRC-16/CCITT-FALSE big-endian), not by encode()."""
import binascii
import errno
import os

import pytest

import host_sim

host_sim.install()

import savegame  # noqa: E402
import settings  # noqa: E402
from textline import TextLine  # noqa: E402


def crafted(count, moves, rule=0, mode=0, level=1, human=1):
    """A save as the module docstring lays it out; the CRC from the stdlib's
    CRC-CCITT (crc_hqx) started at 0xFFFF, which is CRC-16/CCITT-FALSE."""
    body = b"GMKS" + bytes((1, rule, mode, level, human, count)) + bytes(moves)
    return body + binascii.crc_hqx(body, 0xFFFF).to_bytes(2, "big")


def fat_rename(monkeypatch):
    """os.rename as FAT has it: refused when the target exists."""
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
    s = savegame.decode(crafted(3, [112, 113, 97], rule=4))
    assert (s.rule, s.mode, s.level, s.human, s.moves) == \
        (4, 0, 1, 1, bytes([112, 113, 97]))


def test_more_moves_than_points_are_refused_and_set_aside(flash):
    # a count byte of 226 with 226 moves on the board's points, good CRC:
    # no game has more moves than the board has points
    data = crafted(226, [k % 225 for k in range(226)])
    (flash / savegame.PATH).write_bytes(data)
    saved, problem = savegame.load()
    assert saved is None and savegame.BAD in problem
    assert (flash / savegame.BAD).read_bytes() == data
    assert not (flash / savegame.PATH).exists()


def test_the_first_point_past_the_board_is_off_it():
    # points are y*15+x for x, y in 0..14: 0..224; 225 is (0, 15)
    savegame.decode(crafted(2, [224, 0]))
    with pytest.raises(ValueError, match="off the board"):
        savegame.decode(crafted(3, [112, 113, 225]))


def test_a_trailing_byte_after_a_full_board_save_is_refused(flash):
    # the longest save (225 moves) read with one byte more than it holds,
    # else a longer file would be cut to a valid save and accepted
    data = crafted(225, range(225)) + b"\x00"
    (flash / savegame.PATH).write_bytes(data)
    saved, problem = savegame.load()
    assert problem == "Saved game not resumed (bad length): kept as " \
        + savegame.BAD
    assert saved is None and (flash / savegame.BAD).read_bytes() == data


def test_a_cleared_game_leaves_no_temp_file_to_resume(flash):
    # load() takes a complete temp file as the newest save: clear() must
    # remove it too, or an abandoned game comes back at the next boot
    (flash / savegame.PATH).write_bytes(crafted(1, [112]))
    (flash / savegame.TMP).write_bytes(crafted(2, [112, 113]))
    savegame.clear()
    assert savegame.load() == (None, None)
    assert os.listdir(flash) == []


# ---- FAT: a rename never replaces a file ----------------------------------

def test_saves_replace_each_other_on_fat(flash, monkeypatch):
    fat_rename(monkeypatch)
    savegame.write(0, 0, 1, 1, bytes([112]), 1)
    savegame.write(0, 0, 1, 1, bytes([112, 113]), 2)
    assert sorted(os.listdir(flash)) == [savegame.PATH]
    assert savegame.load()[0].moves == bytes([112, 113])


def test_a_second_bad_save_on_fat_is_the_one_kept(flash, monkeypatch):
    # the note says the damaged save is kept as BAD: it must be this one,
    # not the older one already there
    fat_rename(monkeypatch)
    (flash / savegame.BAD).write_bytes(b"an older bad save")
    bad = crafted(2, [112, 113])[:-1]
    (flash / savegame.PATH).write_bytes(bad)
    saved, problem = savegame.load()
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
    saved, problem = savegame.load()
    assert saved is None and problem
    assert savegame.load() == (None, None)


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
