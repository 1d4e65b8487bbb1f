"""Save files: format, damage of every kind, power cuts; boot always works
and the last completed move is never lost."""
import os

import pytest

import host_sim

host_sim.install()

import machine  # noqa: E402
import board_sim  # noqa: E402
import board_view as bv  # noqa: E402
import gomoku  # noqa: E402
import savegame  # noqa: E402
import saveread  # noqa: E402
import settings  # noqa: E402
from app_script import (Rig, Script, band, layout, plan_lost_game,  # noqa: E402
                        screen_text, stone_point)

VIEW = layout(board_sim)


def blob(moves, rule=0, mode=0, level=1, human=1, won=(0, 0, 0)):
    n = savegame.encode(rule, mode, level, human, bytes(moves), len(moves), won)
    return bytes(savegame._buf[:n])


def test_round_trip_and_size():
    data = blob([112, 113, 97], rule=4, mode=1, level=1, human=0,
                won=bytearray((0, 3, 255)))
    assert len(data) == 4 + 6 + 3 + 2 + 2
    s = saveread.decode(data)
    assert (s.rule, s.mode, s.level, s.human, s.moves, s.won) == \
        (4, 1, 1, 0, bytes([112, 113, 97]), bytes((3, 255)))
    full = blob(list(range(225)))
    assert saveread.decode(full).moves == bytes(range(225))


@pytest.mark.parametrize("damage,why", [
    (lambda d: d[:-1], "truncated"),
    (lambda d: d[:5], "truncated"),
    (lambda d: d[:9], "truncated"),         # the header, to the count byte,
    (lambda d: d[:10], "truncated"),        # and the shortest save's CRC
    (lambda d: d[:11], "truncated"),
    (lambda d: b"", "truncated"),
    (lambda d: d[:11] + bytes([d[11] ^ 0x10]) + d[12:], "bad checksum"),
    (lambda d: d[:4] + b"\x03" + d[5:], "version"),
    (lambda d: d[:4] + b"\x00" + d[5:], "version"),
    (lambda d: b"PK\x03\x04" + d[4:], "not a save"),
    (lambda d: d + b"\x00", "bad length"),
])
def test_damaged_files_are_refused_with_a_reason(damage, why):
    with pytest.raises(ValueError) as e:
        saveread.decode(damage(blob([112, 113, 97, 98])))
    assert why in str(e.value)


def test_off_board_move_refused_even_with_good_crc():
    data = bytearray(blob([112, 113]))
    data[10] = 230
    crc = savegame.crc16(data, 14)
    data[14], data[15] = crc >> 8, crc & 0xFF
    with pytest.raises(ValueError, match="a move off the board"):
        saveread.decode(bytes(data))


@pytest.mark.parametrize("fields,why", [
    ((2, 0, 1, 1), "unknown rule 2"),           # no such rule code
    ((3, 1, 1, 0), "unknown rule 3"),
    ((0, 2, 1, 1), "unknown mode 2"),           # wireless games use MATCH
    ((0, 7, 1, 0), "unknown mode 7"),
    ((0, 0, 0, 1), "unknown level 0"),
    ((0, 0, 9, 2), "unknown level 9"),
    ((0, 1, 3, 0), "unknown level 3"),          # the menu clamps it too
    ((0, 0, 1, 3), "colour 3"),                 # the AI would play both sides
    ((0, 0, 1, 0), "colour 0"),                 # vs AI, but nobody is the AI
    ((4, 1, 2, 1), "colour 1"),                 # 2 players, yet the AI plays
])
def test_fields_the_app_never_writes_are_refused(fields, why):
    # a good CRC does not make a save the app's: every field is checked
    rule, mode, level, human = fields
    data = blob([112, 113], rule=rule, mode=mode, level=level, human=human)
    with pytest.raises(ValueError) as e:
        saveread.decode(data)
    assert why in str(e.value)


def test_every_setting_the_app_can_save_is_accepted():
    import ai
    combos = [(settings.MODE_AI, 1), (settings.MODE_AI, 2),
              (settings.MODE_LOCAL, 0)]
    for rule in settings.RULES:
        for level in ai.LEVELS:
            for mode, human in combos:
                s = saveread.decode(blob([112], rule, mode, level, human))
                assert (s.rule, s.mode, s.level, s.human) == \
                    (rule, mode, level, human)


def test_the_accepted_values_are_the_apps():
    # savegame restates them (settings imports savegame): keep them equal
    import ai
    assert saveread._RULES == settings.RULES == (gomoku.FREESTYLE,
                                                 gomoku.STANDARD, gomoku.RENJU)
    assert saveread._LEVELS == tuple(ai.LEVELS)
    assert (saveread._MODE_AI, saveread._MODE_LOCAL) == (settings.MODE_AI,
                                                         settings.MODE_LOCAL)


def test_the_settings_a_game_needs_are_the_apps():
    # app restates them too: settings is not loaded during a game
    import app
    assert (app._MODE_AI, app._MODE_RADIO, app._RENJU) == (
        settings.MODE_AI, settings.MODE_RADIO, settings.RENJU)
    assert app._RENJU == gomoku.RENJU


def test_load_sets_a_foreign_save_aside(flash):
    bad = blob([112, 113, 97], human=3)
    (flash / savegame.PATH).write_bytes(bad)
    saved, problem = saveread.load()
    assert saved is None and "colour 3" in problem
    assert not (flash / savegame.PATH).exists()
    assert (flash / savegame.BAD).read_bytes() == bad
    # a complete temp file with a foreign field is dropped, the save kept
    good = blob([112, 113])
    (flash / savegame.PATH).write_bytes(good)
    (flash / savegame.TMP).write_bytes(blob([112, 113, 97], mode=2))
    saved, problem = saveread.load()
    assert problem is None and saved.moves == bytes([112, 113])
    assert not (flash / savegame.TMP).exists()


def test_load_sets_a_corrupt_save_aside(flash):
    good = blob([112, 113, 97])
    (flash / savegame.PATH).write_bytes(good[:-3])
    saved, problem = saveread.load()
    assert saved is None and "truncated" in problem
    assert not (flash / savegame.PATH).exists()
    assert (flash / savegame.BAD).read_bytes() == good[:-3]
    assert saveread.load() == (None, None)


def test_power_cut_before_rename_keeps_the_newer_move(flash):
    (flash / savegame.PATH).write_bytes(blob([112, 113]))
    (flash / savegame.TMP).write_bytes(blob([112, 113, 97]))
    saved, problem = saveread.load()
    assert problem is None and saved.moves == bytes([112, 113, 97])
    assert not (flash / savegame.TMP).exists()
    assert saveread.decode((flash / savegame.PATH).read_bytes()).moves \
        == bytes([112, 113, 97])


def test_power_cut_while_writing_keeps_the_last_complete_save(flash):
    (flash / savegame.PATH).write_bytes(blob([112, 113]))
    (flash / savegame.TMP).write_bytes(blob([112, 113, 97])[:7])
    saved, problem = saveread.load()
    assert problem is None and saved.moves == bytes([112, 113])
    assert not (flash / savegame.TMP).exists()


def test_write_replaces_atomically(flash, monkeypatch):
    # the save is never written in place: the whole new file goes to TMP,
    # then one rename puts it over the old save, which is whole till then
    renames = []
    real = os.rename

    def rename(src, dst):
        renames.append((src, dst, saveread.decode((flash / src).read_bytes()).moves,
                        (flash / dst).read_bytes() if (flash / dst).exists() else None))
        real(src, dst)
    monkeypatch.setattr(savegame.os, "rename", rename)
    savegame.write(0, 0, 1, 1, bytes([112]), 1)
    first = (flash / savegame.PATH).read_bytes()
    savegame.write(0, 0, 1, 1, bytes([112, 113]), 2)
    assert renames == [(savegame.TMP, savegame.PATH, bytes([112]), None),
                       (savegame.TMP, savegame.PATH, bytes([112, 113]), first)]
    assert sorted(os.listdir(flash)) == [savegame.PATH]
    assert saveread.load()[0].moves == bytes([112, 113])


def _two_moves_with_a_folder(flash, name, files):
    """Power on with a folder `name` on the flash (files in it, or empty),
    a note's time, then a two-player game's first two moves. -> (the rig,
    the text of the top of the screen at boot, of the message line after
    each move)."""
    (flash / name).mkdir()
    if files:
        (flash / name / "mine.txt").write_text("the owner's")
    msg = VIEW.message
    s = Script(start_ms=700)
    s.snap("boot", band(0, 40))
    if files:
        s.tap("place")          # the note read
        s.wait(300)
    s.start_two_players()
    for i in (7 * 15 + 7, 7 * 15 + 8):
        s.place(i)
        s.wait(200)
        s.snap("msg%d" % i, band(msg.y, msg.h))
    s.snap("board", [stone_point(VIEW, i) for i in range(225)])
    rig = Rig(board_sim)
    assert rig.run(s.end()) == "end"
    assert screen_stones(rig, "board").count(1) == 1
    assert screen_stones(rig, "board").count(2) == 1
    return (rig, " ".join(screen_text(rig.snaps["boot"], 40)),
            [screen_text(rig.snaps["msg%d" % i], msg.h)
             for i in (7 * 15 + 7, 7 * 15 + 8)])


@pytest.mark.parametrize("name", [savegame.TMP, savegame.PATH,
                                  settings._TMP])
def test_an_empty_folder_of_a_save_files_name_goes_at_boot(flash, name):
    """A folder of the temp file's or a save's name (made by hand, say with
    mpremote mkdir) failed every save: "Not saved: flash error 21". An
    empty one holds nothing of the player's: the boot removes it, and the
    game and the menu's choices are saved."""
    rig, boot, lines = _two_moves_with_a_folder(flash, name, False)
    assert "folder" not in boot
    for shown in lines:
        assert shown and "Not saved" not in shown[0]
    assert saveread.load()[0].moves == bytes([7 * 15 + 7, 7 * 15 + 8])
    st = settings.Settings()
    assert st.load() and st.values[settings.MODE] == settings.MODE_LOCAL
    assert not (flash / savegame.TMP).is_dir()
    assert not (flash / settings._TMP).exists()


@pytest.mark.parametrize("name", [savegame.TMP, savegame.PATH])
def test_a_folder_with_files_of_a_save_files_name_is_named(flash, capsys,
                                                           name):
    """A folder with files in it is the player's: kept, named at boot with
    what to do, and each move's line says why it was not saved (one line:
    38 characters on the 240-px screen), not "flash error 21"."""
    rig, boot, lines = _two_moves_with_a_folder(flash, name, True)
    note = "%s is a folder: nothing is saved until it is deleted" % name
    assert note in capsys.readouterr().out
    assert boot.startswith(note), boot
    assert lines == [["Not saved: a folder is in the way"]] * 2
    assert (flash / name / "mine.txt").read_text() == "the owner's"


def test_settings_survive_and_damage_gives_defaults(flash):
    s = settings.Settings()
    s.values[settings.MODE] = 1
    s.values[settings.RULE] = 4
    s.save()
    t = settings.Settings()
    assert t.load() and t.values[settings.RULE] == 4
    (flash / settings.PATH).write_bytes(b"\xa7\x01\x01\x04")
    u = settings.Settings()
    assert not u.load() and u.values[settings.RULE] == 0 and u.damaged
    (flash / settings.PATH).unlink()
    w = settings.Settings()
    assert not w.load() and not w.damaged       # none: a first boot


def test_settings_file_with_a_wrong_sum_or_magic_gives_defaults(flash):
    s = settings.Settings()
    s.values[settings.MODE] = 1
    s.values[settings.LEVEL] = 2
    s.values[settings.RULE] = 4
    s.values[settings.BLACK] = 1
    s.save()
    good = (flash / settings.PATH).read_bytes()
    t = settings.Settings()
    assert t.load() and list(t.values) == [1, 2, 4, 1, 0]
    flipped = bytearray(good)
    flipped[1 + settings.RULE] = 1          # a value changed, its sum not
    (flash / settings.PATH).write_bytes(bytes(flipped))
    u = settings.Settings()
    assert not u.load() and list(u.values) == list(settings.Settings().values)
    foreign = bytes((good[0] ^ 0xFF,)) + good[1:]
    (flash / settings.PATH).write_bytes(foreign)
    assert not settings.Settings().load()



def test_settings_from_before_the_boot_count_keep_their_choices(flash):
    """An older firmware's file has the four choices and no boot count: the
    choices hold, the count starts at 0; a fifth field past the count, or
    a third one short, is no settings file of any firmware."""
    (flash / settings.PATH).write_bytes(bytes([0xA7, 1, 2, 4, 1, 8]))
    t = settings.Settings()
    assert t.load() and list(t.values) == [1, 2, 4, 1, 0]
    for data in (bytes([0xA7, 1, 2, 4, 1, 3, 0, 11]), bytes([0xA7, 1, 2, 4, 7])):
        (flash / settings.PATH).write_bytes(data)
        assert not settings.Settings().load()


def test_settings_cut_off_before_their_rename_are_the_newer_ones(flash):
    """As with the game save: a whole temporary file is the newest settings
    (power lost before or inside the rename); a broken one is dropped."""
    s = settings.Settings()
    s.values[settings.RULE] = 4
    s.save()
    old = (flash / settings.PATH).read_bytes()
    s.values[settings.RULE] = 1
    s.save()
    new = (flash / settings.PATH).read_bytes()
    (flash / settings.PATH).write_bytes(old)
    (flash / settings._TMP).write_bytes(new)
    t = settings.Settings()
    assert t.load() and t.values[settings.RULE] == 1
    assert sorted(os.listdir(flash)) == [settings.PATH]
    assert (flash / settings.PATH).read_bytes() == new
    (flash / settings.PATH).unlink()            # FAT: removed before the rename
    (flash / settings._TMP).write_bytes(old)
    u = settings.Settings()
    assert u.load() and u.values[settings.RULE] == 4
    (flash / settings._TMP).write_bytes(new[:-1])   # its write never finished
    v = settings.Settings()
    assert v.load() and v.values[settings.RULE] == 4
    assert sorted(os.listdir(flash)) == [settings.PATH]

def test_settings_are_written_only_when_they_changed(flash, monkeypatch):
    # the menu saves them every time it is left: unchanged, the flash is
    # not written (also right after boot, when they were just loaded)
    s = settings.Settings()
    s.values[settings.RULE] = 4
    s.save()
    writes = []
    real = settings.replace
    monkeypatch.setattr(settings, "replace",
                        lambda *a: writes.append(bytes(a[2])) or real(*a))
    t = settings.Settings()
    assert t.load()
    t.save()
    assert writes == []
    t.values[settings.RULE] = 1
    t.save()
    t.save()
    assert len(writes) == 1
    u = settings.Settings()
    assert u.load() and u.values[settings.RULE] == 1


def test_checksums_are_crc16_ccitt_false_as_documented():
    # the save format (and the radio packets) name CRC-16/CCITT-FALSE:
    # its catalogue check value, and the stdlib's own implementation of it
    import binascii
    from crc16 import crc16
    assert crc16(b"123456789", 9) == 0x29B1
    data = bytes(range(7, 250, 3))
    assert crc16(data, len(data)) == binascii.crc_hqx(data, 0xFFFF)
    # continued over a slice, as the match's running hash of its moves is
    assert crc16(data, 40, crc16(data, 17), 17) == crc16(data, 40)
    assert crc16(data, 40, 0x1D0F, 17) == binascii.crc_hqx(data[17:40], 0x1D0F)
    for moves in ([], [112], list(range(0, 225, 7))):
        saved = blob(moves, rule=4)
        assert saved[-2:] == binascii.crc_hqx(saved[:-2], 0xFFFF).to_bytes(2, "big")


def screen_stones(rig, label):
    return [1 if p == bv.BLACK else 2 if p == bv.WHITE else 0
            for p in rig.snaps[label]]


def expected(moves):
    g = gomoku.Game()
    for m in moves:
        g.play(m % 15, m // 15)
    return [g.stone(i % 15, i // 15) for i in range(225)]


@pytest.mark.parametrize("content", [
    b"",                                    # empty
    b"GMKS\x01\x00\x00\x01\x01\x05\x70",    # truncated
    b"\x00" * 40,                           # foreign
    "version",                              # another version
    "crc",                                  # corrupt
    "illegal",                              # good CRC, the same point twice
    "human3",                               # good CRC, no such colour
    "mode2",                                # good CRC, a wireless mode
])
def test_boot_with_a_bad_save_reports_it_and_plays(flash, content):
    if content == "version":
        content = b"GMKS\x07" + blob([112, 113])[5:]
    elif content == "crc":
        d = bytearray(blob([112, 113, 97]))
        d[11] ^= 1
        content = bytes(d)
    elif content == "illegal":
        content = blob([112, 113, 112])
    elif content == "human3":
        content = blob([112, 113], human=3)
    elif content == "mode2":
        content = blob([112, 113], mode=2)
    (flash / savegame.PATH).write_bytes(content)
    s = Script(start_ms=650)
    s.snap("note", [(x, y) for x in range(0, 240, 3) for y in range(0, 80, 2)])
    if content == blob([112, 113, 112]):
        s.tap("place")          # "Saved game found": try it
        s.wait(300)
        s.snap("note2", [(x, y) for x in range(0, 240, 3)
                         for y in range(0, 80, 2)])
    s.tap("place")              # dismiss the note
    s.tap("place")              # menu: Start
    s.wait(300)
    s.place(7 * 15 + 6)
    s.wait(300)
    s.snap("board", [stone_point(VIEW, i) for i in range(225)])
    rig = Rig(board_sim)
    assert rig.run(s.end()) == "end"
    shown = screen_stones(rig, "board")
    assert shown[7 * 15 + 6] == 1 and shown.count(1) == 1 and shown.count(2) == 1
    if content == blob([112, 113, 112]):
        assert bv.ALERT in rig.snaps["note2"]
    else:
        assert bv.ALERT in rig.snaps["note"]
    assert (flash / savegame.BAD).read_bytes() == content
    # the new game's save replaced the bad one
    assert saveread.decode((flash / savegame.PATH).read_bytes()).moves[0] \
        == 7 * 15 + 6


def test_a_saved_game_that_is_over_is_shown_once_then_forgotten(flash):
    """The app never saves a finished game (apply() clears the save at the
    end), but a save can end in a five: it resumes on the winner's banner,
    and the save goes as at any game's end, not offered at every boot."""
    five = [0, 15, 1, 16, 2, 17, 3, 18, 4]       # black on row 0
    (flash / savegame.PATH).write_bytes(blob(five))
    s = Script(start_ms=650)
    s.tap("place")              # "Saved game found": resume it
    s.wait(300)
    s.snap("board", [stone_point(VIEW, i) for i in range(225)])
    rig = Rig(board_sim)
    assert rig.run(s.end()) == "end"
    assert screen_stones(rig, "board") == expected(five)
    assert not (flash / savegame.PATH).exists()


def test_power_cut_between_write_and_rename_in_play(flash, monkeypatch):
    moves, _ = plan_lost_game(0, 1, 1, limit=8)
    renames = []
    real = os.rename

    def cut_on_fifth(src, dst):
        if src == savegame.TMP:
            renames.append(dst)
            if len(renames) == 5:       # the human's 3rd move, written only
                raise machine.SimReset()
        real(src, dst)
    monkeypatch.setattr(savegame.os, "rename", cut_on_fifth)
    s = Script()
    s.tap("place")
    s.wait(300)
    for k in (0, 2, 4, 6):
        s.place(moves[k])
        s.wait(300)
    rig = Rig(board_sim)
    assert rig.run(s.end()) == "reset"
    assert (flash / savegame.TMP).exists()
    monkeypatch.setattr(savegame.os, "rename", real)

    s2 = Script()
    s2.tap("place")                     # resume
    s2.wait(300)
    s2.snap("board", [stone_point(VIEW, i) for i in range(225)])
    rig2 = Rig(board_sim)
    assert rig2.run(s2.end()) == "end"
    # the cut came after move 5 (the player's third) was written: it is
    # there, and the AI has answered it after the resume
    assert screen_stones(rig2, "board") == expected(moves[:6])
