"""Review tests from a mutation run over savegame.py, saveread.py and
settings.py: each pins what a changed bound or index left unnoticed, as
the player would see it (a save lost or a damaged one taken, settings
forgotten at every boot)."""
import pytest

import host_sim

host_sim.install()

import savegame  # noqa: E402
import saveread  # noqa: E402
import settings  # noqa: E402


def _full_board():
    return bytes(range(225))


@pytest.mark.parametrize("name", (savegame.PATH, savegame.TMP))
def test_a_save_of_the_whole_board_loads_back(flash, name):
    """The longest save (225 moves and the tally, MAX bytes) is read whole
    at boot, from the save or from a temp file a power cut left."""
    n = savegame.encode(0, 0, 1, 1, _full_board(), 225, (0, 2, 3))
    assert n == savegame.MAX
    (flash / name).write_bytes(bytes(savegame._buf[:n]))
    saved, problem = saveread.load()
    assert problem is None
    assert saved.moves == _full_board() and saved.won == bytes((2, 3))


def test_a_whole_board_save_with_a_byte_too_many_is_set_aside(flash):
    """One byte past the longest save is damage, not a save to resume."""
    n = savegame.encode(0, 0, 1, 1, _full_board(), 225)
    bad = bytes(savegame._buf[:n]) + b"\0"
    (flash / savegame.PATH).write_bytes(bad)
    saved, problem = saveread.load()
    assert saved is None and "bad length" in problem
    assert (flash / savegame.BAD).read_bytes() == bad


def test_a_save_is_built_in_its_one_buffer():
    """encode() fills the module's preallocated buffer in place: after any
    number of saves it is still MAX bytes (a save after every move must
    not grow the heap)."""
    for _ in range(3):
        n = savegame.encode(4, 1, 2, 0, bytes((112, 113, 97)), 3)
        assert len(savegame._buf) == savegame.MAX
        assert saveread.decode(bytes(savegame._buf[:n])).moves == \
            bytes((112, 113, 97))


def test_settings_with_a_byte_too_many_are_written_again(flash):
    """A settings file one byte too long is damaged: the defaults are used, and
    saving the same choices writes a good file again, so the next boot
    reads them (had save() compared only the bytes it writes, it would
    keep the damaged file, and the defaults, for good)."""
    s = settings.Settings()
    s.values[settings.RULE] = 4
    s.save()
    good = (flash / settings.PATH).read_bytes()
    (flash / settings.PATH).write_bytes(good + b"\0")
    t = settings.Settings()
    assert not t.load() and t.damaged
    t.values[settings.RULE] = 4
    t.save()
    assert (flash / settings.PATH).read_bytes() == good
    u = settings.Settings()
    assert u.load() and u.values[settings.RULE] == 4
