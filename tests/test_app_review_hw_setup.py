"""Mutation review of the buttons (driver and pad model) and of hw_setup:
a bouncing or held button, and the boot with a chip missing, wrong, on
its other address, or a board file that names what is not there."""
import sys
import time
import types

import pytest

import host_sim

host_sim.install()

import machine  # noqa: E402
import sim_clock  # noqa: E402

import board_sim  # noqa: E402
import board_sim_mpu  # noqa: E402
import board_view as bv  # noqa: E402
import button_model  # noqa: E402
import buttons  # noqa: E402
import mpu6050_model  # noqa: E402
from app_script import (Script, band, layout, run_device,  # noqa: E402
                        screen_text, stone_point)
from button_checks import PINS, fresh, poll_for  # noqa: E402

CENTRE = 7 * 15 + 7


@pytest.fixture(autouse=True)
def no_board_left_behind():
    """A boot that stops in hw_setup (a board without its keys) leaves
    hw_setup imported, holding this file's odd board: the next test's
    import of main would boot on it."""
    yield
    from host_sim import device
    device.forget_firmware()


# ---- buttons ----------------------------------------------------------------

def test_a_contact_that_springs_open_mid_press_counts_once():
    """With the debounce the device uses (Buttons' default, as hw_setup
    builds them), a contact that closes, springs open 8 ms later for 8 ms,
    then holds is one press."""
    machine.forget_all()
    sim_clock.reset()
    pad = button_model.ButtonPad(PINS)
    keys = buttons.Buttons(PINS)
    pad.press("place")
    sim_clock.call_at(8000, lambda: pad.release("place"))
    sim_clock.call_at(16000, lambda: pad.press("place"))
    assert [n for _, n in poll_for(keys, 200)] == ["place"]
    assert keys.is_down("place")


def test_a_held_button_is_one_press_while_another_comes_and_goes():
    pad, keys = fresh()
    pad.press("back")
    assert [n for _, n in poll_for(keys, 50)] == ["back"]
    for _ in range(3):
        pad.tap("place", hold_ms=50, bounce_ms=2)
        assert [n for _, n in poll_for(keys, 120)] == ["place"]
    assert keys.is_down("back")


def test_a_step_key_let_go_as_its_repeat_comes_due_does_not_repeat():
    """A joystick step held, polled at the usual pace, and let go just
    before its first repeat is due: the poll at that time reads the key up,
    though the release is not stable yet (the debounce), so no second step.
    The debounced state alone took the key for held there (Buttons.is_held
    tells them apart)."""
    import controls
    pad, keys = fresh()
    c = controls.Controls(keys)
    pad.press("up")
    steps = [e for e in (c.wait() for _ in range(5)) if e]
    assert steps == [controls.UP]
    while time.ticks_diff(c._rep_due, time.ticks_ms()) > controls.POLL_MS:
        assert c.wait() == 0
    pad.release("up")               # the next poll is at the repeat's time
    assert [e for e in (c.wait() for _ in range(40)) if e] == []
    pad.press("up")                 # held: it repeats
    steps = [e for e in (c.wait() for _ in range(40)) if e]
    assert steps[:2] == [controls.UP, controls.UP]


def test_a_busy_spell_counts_neither_to_a_repeat_nor_to_a_long_press():
    """A key held through a spell without polls (a slow redraw) was not
    seen held in it: the repeat's delay, and a long press's, count only
    the time the polls watched. On a busy host a tap held until the
    firmware had polled it thrice came out as two steps."""
    import controls
    pad, keys = fresh()
    c = controls.Controls(keys)
    pad.press("up")
    assert [e for e in (c.wait() for _ in range(5)) if e] == [controls.UP]
    time.sleep_ms(controls._REPEAT_FIRST + 100)     # busy, the key held
    waited = 0
    while not c.wait():
        waited += controls.POLL_MS
    # the ~100 ms watched before the spell count, the spell does not
    assert controls._REPEAT_FIRST - 200 <= waited <= controls._REPEAT_FIRST, waited
    pad.release("up")
    pad, keys = fresh()             # key steering: place held is a stone
    c = controls.Controls(types.SimpleNamespace(
        poll=keys.poll, is_held=keys.is_held, clear=keys.clear,
        names=("place", "back")))
    pad.press("place")
    c.wait()
    c.wait()
    time.sleep_ms(controls.LONG_MS + 100)           # busy, the key held
    assert c.wait() == 0
    waited = 0
    while not c.wait():
        waited += controls.POLL_MS
    assert waited >= controls.LONG_MS - 200, waited


def test_pad_bounces_on_release_too_and_settles_after_any_bounce():
    """The pad model: a release chatters for bounce_ms as a press does
    (also the release a tap schedules), and whatever the bounce's length
    the contact ends at its final level. The driver takes none of the
    release's chatter for a press."""
    pad, keys = fresh()
    edges = []
    machine.watch_pin(PINS["place"],
                      lambda level: edges.append((sim_clock.now_us(), level)))

    def after(t_us):
        return [level for t, level in edges if t >= t_us]
    pad.press("place", bounce_ms=3)
    assert [n for _, n in poll_for(keys, 30)] == ["place"]
    assert pad.is_pressed("place") and edges[-1][1] == 0, edges
    t = sim_clock.now_us()
    pad.release("place", bounce_ms=3)
    assert poll_for(keys, 30) == []
    assert len(after(t)) >= 5 and after(t)[-1] == 1, edges
    assert not pad.is_pressed("place") and not keys.is_down("place")
    pad.tap("place", hold_ms=30, bounce_ms=2)
    t = sim_clock.now_us() + 30000
    assert [n for _, n in poll_for(keys, 60)] == ["place"]
    assert len(after(t)) >= 5 and after(t)[-1] == 1, edges


# ---- boot: hw_setup -----------------------------------------------------------

def board_like(base, name, **changes):
    """A board module as `base`, with entries changed (None: left out)."""
    b = types.ModuleType(name)
    for k, v in vars(base).items():
        if k.isupper():
            setattr(b, k, v)
    for k, v in changes.items():
        if v is None:
            delattr(b, k)
        else:
            setattr(b, k, v)
    return b


def entry_like(cfg, **changes):
    """A board entry (GYRO, RADIO) as `cfg`, changed (None: left out)."""
    g = dict(cfg)
    for k, v in changes.items():
        if v is None:
            del g[k]
        else:
            g[k] = v
    return g


def cursor_at(dev):
    return [i for i in range(225) if dev.snaps["cursor"][i] == bv.CURSOR]


def two_player_stones(board, note=False):
    """A script: (the boot note snapped, then dismissed,) a two-player
    game, black's first stone beside the centre by the joystick; the
    stones snapped."""
    view = layout(board)
    s = Script(start_ms=700)
    if note:
        s.snap("note", [(x, y) for x in range(0, 240, 3)
                        for y in range(0, 80, 2)])
        s.tap("place")
    s.start_two_players()
    s.place(CENTRE + 1)
    s.wait(300)
    s.snap("stones", [stone_point(view, i) for i in range(225)])
    return s.end()


def one_black_stone(dev):
    return dev.snaps["stones"].count(bv.BLACK) == 1 and \
        dev.snaps["stones"].count(bv.WHITE) == 0


def test_a_board_without_a_gyro_boots_without_a_note_and_plays(flash,
                                                               capsys):
    board = board_like(board_sim, "board_no_gyro", GYRO=None)
    dev = run_device(board, two_player_stones(board), str(flash))
    assert "Gyro" not in capsys.readouterr().out
    assert one_black_stone(dev)


def test_a_wrong_chip_at_the_gyro_address_is_named_and_the_game_plays(
        flash, capsys):
    """An MPU-6050 answers where the board has its L3G4200D (0x69, the
    MPU's AD0 high): WHO_AM_I (0x0F) is no 0xD3, the note says what it
    read, nothing is written to the other chip, the joystick steers."""
    from host_sim import device
    dev = device.Device(board_sim, str(flash), gyro=False)
    other = mpu6050_model.MPU6050Model(dev.tilt_source)
    machine.attach_i2c(1, 0x69, other, "mpu6050")
    before = bytes(other.regs)
    run_device(board_sim, two_player_stones(board_sim, note=True), str(flash),
               dev=dev)
    out = capsys.readouterr().out
    assert "Gyro L3G4200D not found (I2C1 scl=27 sda=26 addr=0x69): " \
        "L3G4200D not found at I2C address 0x69 on I2C(1" in out, out
    assert "WHO_AM_I reads 0x00, expected 0xD3" in out
    assert "Tilt is off: steer with the joystick" in out
    assert bytes(other.regs) == before and other.errors == []
    assert bv.ALERT in dev.snaps["note"] and one_black_stone(dev)


def test_a_gyro_on_its_other_address_is_found_and_steers(flash, capsys):
    """A GY-521 with AD0 high answers at 0x69: the board's address is the
    one used, not the driver's default."""
    board = board_like(board_sim_mpu, "board_mpu_ad0_high",
                       GYRO=entry_like(board_sim_mpu.GYRO, addr=0x69))
    s = Script()
    s.start_two_players()
    s.goto(CENTRE + 1, how="tilt")
    s.wait(100)
    s.snap("cursor", [layout(board).origin(i) for i in range(225)])
    dev = run_device(board, s.end(), str(flash))
    assert "Gyro" not in capsys.readouterr().out
    assert cursor_at(dev) == [CENTRE + 1]


def test_the_zero_rate_level_is_calibrated_away_at_boot(flash):
    """A gyro held still reads its zero-rate level, up to +-10 dps on the
    L3G4200D: measured at boot, it does not walk the cursor."""
    from host_sim import device
    dev = device.Device(board_sim, str(flash))
    dev.tilt_source.bias_mdps = (10000, -10000, 10000)
    s = Script()
    s.start_two_players()
    s.wait(3000)
    s.snap("cursor", [layout(board_sim).origin(i) for i in range(225)])
    run_device(board_sim, s.end(), str(flash), dev=dev)
    assert cursor_at(dev) == [CENTRE]


def test_the_radio_driver_is_unloaded_after_the_boot_check(flash, capsys):
    """check_radio's driver (and hw_setup) leave the heap once the radio
    answered: loaded again only for a wireless game."""
    from host_sim import device
    dev = device.Device(board_sim, str(flash))
    dev.run(until_ms=900)
    assert "Radio" not in capsys.readouterr().out
    assert "nrf24l01" not in sys.modules and "hw_setup" not in sys.modules


@pytest.mark.parametrize("entries, off, named", [
    ({"GYRO": entry_like(board_sim_mpu.GYRO, chip="mpu9250")}, "gyro",
     "Gyro MPU9250 no driver (I2C1 scl=27 sda=26 addr=0x68): "),
    ({"GYRO": entry_like(board_sim.GYRO, sda=None)}, "gyro",
     "Gyro L3G4200D not found (I2C1 scl=27 addr=0x69): no 'sda' in "
     "board.py. Tilt is off: steer with the joystick"),
    ({"RADIO": entry_like(board_sim.RADIO, chip=None)}, "radio",
     "Radio ? not found (SPI0 sck=6 mosi=7 miso=4 cs=5 ce=14 irq=22): no "
     "'chip' in board.py. Wireless match is off"),
], ids=["driver-not-on-device", "no-sda-pin", "radio-without-chip"])
def test_a_board_file_naming_what_is_not_there_is_a_note(entries, off, named,
                                                          flash, capsys):
    """A board file whose gyro driver is not on the device, or that leaves
    out an entry: a note naming the chip and what is missing (a missing
    driver is not called a chip not found: the wiring is not to blame), and
    the game plays without that chip."""
    board = board_like(board_sim, "board_bad_entry", **entries)
    dev = run_device(board, two_player_stones(board, note=True), str(flash),
                     **{off: False})
    assert named in capsys.readouterr().out
    assert bv.ALERT in dev.snaps["note"] and one_black_stone(dev)


def test_a_chip_the_heap_had_no_room_for_is_not_called_missing(flash, capsys,
                                                                monkeypatch):
    """A driver that runs out of memory as it is built: the note gives
    MicroPython's words and does not send the player to check the wiring
    of a chip that may well be there. The game plays without it."""
    class HUNGRY:
        def __init__(self, i2c, addr):
            raise MemoryError("memory allocation failed, allocating 4096 bytes")
    monkeypatch.setitem(sys.modules, "hungry",
                        types.SimpleNamespace(HUNGRY=HUNGRY))
    board = board_like(board_sim, "board_hungry_gyro",
                       GYRO=entry_like(board_sim.GYRO, chip="hungry"))
    dev = run_device(board, two_player_stones(board, note=True), str(flash),
                     gyro=False)
    out = capsys.readouterr().out
    assert "Gyro HUNGRY not set up (I2C1 scl=27 sda=26 addr=0x69): memory " \
        "allocation failed, allocating 4096 bytes. Tilt is off" in out, out
    assert "not found" not in out
    assert bv.ALERT in dev.snaps["note"] and one_black_stone(dev)


def test_the_boards_key_labels_name_the_keys_in_hints(flash):
    """board.KEY_LABELS (hint letter -> label), when a board has it, is
    how the hints name the keys."""
    board = board_like(board_sim, "board_labelled", KEY_LABELS={
        "A": "Green", "B": "Red", "X": "Blue", "Y": "Yellow"})
    s = Script(start_ms=1000)
    s.snap("note", band(0, 240))
    dev = run_device(board, s.end(), str(flash), gyro=False)
    assert screen_text(dev.snaps["note"], 240)[-1] == "Green: continue"


def keys_without(name):
    return {k: v for k, v in board_sim.BUTTONS.items() if k != name}


def refuse_pin(monkeypatch, bad):
    """machine.Pin as a port has it: a pin number the chip lacks is refused
    (the shim takes any; each boot imports the firmware afresh, so the shim
    is patched, not the driver)."""
    made = machine.Pin.__new__

    def new(cls, id, *args, **kw):
        if id == bad:
            raise ValueError("invalid pin")
        return made(cls, id, *args, **kw)
    monkeypatch.setattr(machine.Pin, "__new__", new)


@pytest.mark.parametrize("keys, refused, named", [
    (keys_without("menu"), None,
     "Buttons not set up (place=%d back=%d): no 'menu' in board.py's BUTTONS. "
     "Cannot play without them" % (board_sim.BUTTONS["place"],
                                   board_sim.BUTTONS["back"])),
    (dict(board_sim.BUTTONS, place=99), 99,
     "Buttons not set up (place=99 back=%d menu=%d): invalid pin. Cannot play "
     "without them" % (board_sim.BUTTONS["back"], board_sim.BUTTONS["menu"])),
    # no BUTTONS at all, with the gyroscope missing too: its note asked
    # board.BUTTONS for the joystick and the boot ended in an AttributeError
    (None, None,
     "Buttons not set up (): no 'place' in board.py's BUTTONS. Cannot play "
     "without them"),
], ids=["no-menu-key", "pin-refused", "no-buttons"])
def test_a_board_file_without_the_games_keys_is_named_on_the_screen(
        keys, refused, named, flash, capsys, monkeypatch):
    """A board file that leaves out a key the game is played with, or gives
    one a pin the port refuses: the screen and the console name the keys
    and what is wrong, once, and the boot goes no further (no game without
    the keys, and no retry mends a board file)."""
    if refused is not None:
        refuse_pin(monkeypatch, refused)
    board = board_like(board_sim, "board_bad_keys", BUTTONS=keys)
    s = Script(start_ms=1500)
    s.snap("boot", band(0, 240))
    s.wait(12000)
    s.snap("later", band(0, 240))
    dev = run_device(board, s.end(), str(flash), gyro=False)
    out = capsys.readouterr().out
    assert out.count(named) == 1, out
    shown = " ".join(screen_text(dev.snaps["boot"], 240))
    assert shown == named, shown
    assert bv.ALERT in dev.snaps["boot"]
    assert dev.snaps["later"] == dev.snaps["boot"]
