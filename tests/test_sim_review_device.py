"""host_sim.device running firmware code as MicroPython would: time.sleep
on the simulated clock, machine.reset() that firmware cannot catch."""
import gc
import os

import host_sim

host_sim.install()
from host_sim import device  # noqa: E402
import board_sim  # noqa: E402
import board_esp32_ili9341  # noqa: E402


def bare_device(tmp_path):
    """The sim board with no LCD, gyroscope or radio: buttons and clock."""
    return device.Device(board_sim, str(tmp_path), lcd=False, gyro=False,
                         radio=False)


def test_time_sleep_moves_the_simulated_clock(tmp_path, monkeypatch):
    """MicroPython's time.sleep(seconds) is a sleep like sleep_ms: on the
    virtual clock it moves simulated time (CPython's own time.sleep
    waited on the wall clock and left ticks_ms where it was)."""
    import time
    import sim_clock
    seen = []
    waited = []

    def host_sleep(s):
        waited.append(s)
    # the host's sleep, as Device.run and the clock find it: never called
    # on the virtual clock, by the firmware or by the device's own sleep
    monkeypatch.setattr(time, "sleep", host_sleep)
    monkeypatch.setattr(sim_clock, "wall_sleep", host_sleep)

    def main():
        t0 = time.ticks_ms()
        for _ in range(10):
            time.sleep(0.05)
        seen.append(time.ticks_diff(time.ticks_ms(), t0))
        time.sleep(1)

    dev = bare_device(tmp_path)
    end = dev.run(until_ms=800, main=main)
    assert seen == [500]
    assert end == 1500                  # the run ends in the last sleep
    assert waited == []                 # no wall-clock wait
    assert time.sleep is host_sleep     # and the host's sleep is back


def test_firmware_cannot_catch_the_scripted_reset(tmp_path):
    """machine.reset() never returns on a board, whatever the firmware
    catches: a scripted `reset` inside `except Exception` still reboots."""
    import time
    boots = []

    def main():
        boots.append(time.ticks_ms())
        while True:
            try:
                time.sleep_ms(10)
            except Exception:
                pass

    dev = bare_device(tmp_path)
    dev.run(device.Script.parse("at 100\nreset\nat 300\nend\n"), main=main)
    assert dev.resets == 1
    assert len(boots) == 2 and 100 <= boots[1] <= 120


def test_cli_udp_port_in_use_is_a_clear_error(tmp_path):
    """`make sim-pair` while another simulator still holds the port: one
    line saying so, not an OSError traceback."""
    import socket
    import pytest
    from host_sim import __main__ as cli
    busy = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    busy.bind(("127.0.0.1", 0))
    port = busy.getsockname()[1]
    try:
        with pytest.raises(SystemExit, match=r"--udp %d: .*in use" % port):
            cli.main(["--headless", "--udp", str(port), "--peer", "1",
                      "--until", "5", "--flash", str(tmp_path)])
    finally:
        busy.close()


def test_cli_refuses_a_port_number_udp_cannot_use(tmp_path, capsys):
    """--peer 70000 passed the parser and crashed (OverflowError) at the
    first frame sent; --udp 70000 at bind."""
    import pytest
    from host_sim import __main__ as cli
    for args in (["--udp", "70000", "--peer", "47102"],
                 ["--udp", "47101", "--peer", "0"]):
        with pytest.raises(SystemExit):
            cli.main(["--headless", "--until", "5", "--flash",
                      str(tmp_path)] + args)
        assert "is not a UDP port (1-65535)" in capsys.readouterr().err


def test_cli_a_script_event_that_fails_names_its_line(tmp_path):
    """A `shot` into a folder that is not there fails while the firmware
    runs: the run stops with the script's file and line, like the errors
    found before the run, not a traceback."""
    import pytest
    from host_sim import __main__ as cli
    script = tmp_path / "s.txt"
    script.write_text("at 100\nshot sub/x.png\nwait 100\n")
    with pytest.raises(SystemExit,
                       match=r"^script: .*s\.txt:2: at 100 ms: shot "
                             r"sub/x\.png failed: .*No such file"):
        cli.main(["--headless", "--script", str(script), "--shots",
                  str(tmp_path / "shots"), "--flash", str(tmp_path / "f")])


def test_script_tap_hold_must_be_positive():
    """`tap place 0` or `-80` released the button in the same instant it
    was pressed: the firmware never saw it, and nothing said why."""
    import pytest
    for bad in ("tap place 0", "tap place -80"):
        with pytest.raises(device.ScriptError,
                           match=r"^t\.txt:2: tap: hold .*at least 1 ms"):
            device.Script.parse("at 5\n" + bad, "t.txt")
    assert device.Script.parse("tap place 1").events == [(0, "tap", "place", 1)]


def test_a_device_without_flash_dir_gets_a_fresh_flash(tmp_path, monkeypatch):
    """No flash dir given: an empty one of its own, never the caller's
    working directory (where an old game would be found, or the new one
    left), and the firmware runs in it; the caller's directory is its own
    again after the run."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "gomoku.sav").write_bytes(b"not this one")
    seen = []

    def main():
        seen.append((os.getcwd(), sorted(os.listdir("."))))
        open("gomoku.cfg", "wb").close()
    devs = [device.Device(board_sim, lcd=False, gyro=False, radio=False)
            for _ in range(2)]
    for dev in devs:
        dev.run(main=main)
        assert os.getcwd() == str(tmp_path)
    assert [s[1] for s in seen] == [[], []]
    assert len({os.path.realpath(s[0]) for s in seen}) == 2
    assert os.path.realpath(str(tmp_path)) not in (
        os.path.realpath(s[0]) for s in seen)
    assert sorted(os.listdir(tmp_path)) == ["gomoku.sav"]
    # and the flash goes with its Device: one a test run was left in /tmp
    flashes = [dev.flash_dir for dev in devs]
    assert all(os.listdir(f) == ["gomoku.cfg"] for f in flashes)
    del dev, devs
    gc.collect()
    assert not any(os.path.exists(f) for f in flashes)


def test_every_sleep_but_sleep_us_is_a_poll_of_the_buttons(tmp_path):
    """`sleeps` counts the firmware's sleep_ms and time.sleep calls (the
    times it can have polled its buttons, which wall-clock taps wait for);
    a bus delay in sleep_us is none."""
    import time

    def main():
        for _ in range(3):
            time.sleep(0.01)
        for _ in range(2):
            time.sleep_ms(10)
        time.sleep_us(50)
    dev = bare_device(tmp_path)
    dev.run(main=main)
    assert dev.sleeps == 5


def test_udp_medium_made_before_the_device_still_serves_its_peer(tmp_path):
    """The front end opens the UDP medium, then builds the Device, which
    resets the clock (and so its hooks): a peer's frame must still be
    answered as this device's clock moves, though it sends nothing."""
    import json
    import sim_clock
    from host_sim import radio_medium
    from test_sim_review_udp_medium import frame_msg, peer_socket
    medium = radio_medium.UdpMedium(0, [])
    peer = peer_socket()
    try:
        device.Device(board_sim, str(tmp_path), medium=medium, lcd=False,
                      gyro=False)
        peer.sendto(frame_msg("7:1"), ("127.0.0.1", medium.port))
        for _ in range(20):
            sim_clock.advance_us(1000)
        reply = json.loads(peer.recv(4096).decode())
        assert reply == {"k": "a", "id": "7:1", "ack": None}    # not heard
    finally:
        peer.close()
        medium.close()


def test_a_failed_event_stops_the_run_there_and_the_next_run_is_clean(
        tmp_path):
    """An event that fails ends the run at its time (the events after it
    do not happen); the next run of the device starts without it."""
    import pytest
    import time
    import sim_clock
    ticks = []

    def main():
        while True:
            ticks.append(sim_clock.now_us() // 1000)
            time.sleep_ms(10)
    dev = device.Device(board_sim, str(tmp_path), lcd=True, gyro=False,
                        radio=False)
    with pytest.raises(device.ScriptError, match="shot .* failed"):
        dev.run(device.Script.parse(
            "at 100\nshot %s/none/x.png\nat 300\nshot ok.png\nat 2000\n"
            % tmp_path), shots_dir=str(tmp_path), main=main)
    assert dev.shots == [] and max(ticks) <= 110
    assert dev.run(until_ms=500, main=main) == 500
    assert dev.run(device.Script.parse("at 900\nwait 100"), until_ms=700,
                   main=main) == 700


def test_let_go_counts_the_hold_from_the_press(tmp_path):
    """A key held long (key-down, then key-up much later) is released at
    its key-up once the firmware has polled it; and a release in between
    (a script's `release`) cancels the pending let-go, so it cannot cut
    short the next press of that button."""
    import sim_clock
    dev = bare_device(tmp_path)

    def poll(ms):
        sim_clock.advance_us(ms * 1000)
        for _ in range(dev.TAP_SLEEPS):
            dev._slept()
    dev.press("place")
    poll(300)                           # held 300 ms, polled meanwhile
    dev.let_go("place")
    assert not dev.buttons.is_pressed("place")
    dev.press("back")
    dev.let_go("back")                  # due in 80 ms and 3 polls
    dev.release("back")
    dev.press("back")                   # held again, no let-go yet
    poll(300)
    assert dev.buttons.is_pressed("back")


def test_reset_boots_main_py_afresh(tmp_path):
    """After machine.reset() the firmware's modules are imported again,
    as on a board (nothing a module set up before survives), while the
    board description stays the one the device was built with."""
    import sys
    import sim_clock
    before = {}

    def note():
        before.update((n, m) for n, m in sys.modules.items()
                      if n in ("main", "board"))
    dev = device.Device(board_sim, str(tmp_path))
    sim_clock.call_at(500000, note)
    dev.run(device.Script.parse("at 600\nreset\nat 1500\n"))
    assert dev.resets == 1 and set(before) == {"main", "board"}
    assert sys.modules["main"] is not before["main"]
    assert sys.modules["board"] is before["board"] is board_sim


def test_hand_turns_no_faster_than_a_hand(tmp_path):
    """However far the target, the hand turns at most MAX_DPS: 60 degrees
    away, it is about 12 degrees there after 0.1 s, and the gyroscope
    never reads a faster turn."""
    import sim_clock
    dev = device.Device(board_sim, str(tmp_path), lcd=False, radio=False)
    hand = dev.hand()
    hand.hold(60, -60)
    rates = []
    for _ in range(20):
        sim_clock.advance_us(5000)
        rates.append(hand._rates)
    assert 11 <= hand.angle[0] <= 12 and -12 <= hand.angle[1] <= -11
    assert max(abs(r) for pair in rates for r in pair) == hand.MAX_DPS


def test_a_busy_wait_on_sleep_us_still_ends_the_run(tmp_path):
    """Firmware waiting in a sleep_us loop (the radio driver's short
    waits) is stopped there at the run's end, as in any other sleep."""
    import time

    def main():
        for _ in range(10000):          # 1 s at most
            time.sleep_us(100)
    dev = bare_device(tmp_path)
    assert dev.run(until_ms=50, main=main) == 50


def test_hand_reaches_its_target_in_long_and_in_tiny_steps(tmp_path):
    """The clock moves in long jumps (a firmware sleeping 200 ms) and in
    tiny ones (bus transfers of a few us): the hand neither overshoots
    its target in a long step nor stands still under many tiny ones."""
    import sim_clock
    dev = device.Device(board_sim, str(tmp_path), lcd=False, radio=False)
    hand = dev.hand()
    hand.hold(20, -5)
    sim_clock.advance_us(200000)
    assert hand.angle == [20, -5]
    hand.hold(0, 0)
    for _ in range(4000):               # 1 s in 250 us steps
        sim_clock.advance_us(250)
    assert abs(hand.angle[0]) < 0.1 and abs(hand.angle[1]) < 0.1


def test_script_release_of_an_unknown_button_is_refused_before_the_run(
        tmp_path):
    import pytest
    dev = bare_device(tmp_path)
    with pytest.raises(device.ScriptError,
                       match=r"^s\.txt:2: at 700 ms: no button named 'fire'"):
        dev.schedule(device.Script.parse("at 700\nrelease fire\n", "s.txt"))


def test_shots_dir_stays_for_the_next_run(tmp_path):
    """A front end's later runs (after a reset, or a run resumed) put
    their screenshots where the first run was told, not in the cwd."""
    shots = tmp_path / "shots"
    shots.mkdir()
    dev = device.Device(board_sim, str(tmp_path / "flash"))
    dev.run(device.Script.parse("at 100\nshot a.png\n"), shots_dir=str(shots))
    dev.run(device.Script.parse("at 200\nshot b.png\n"))
    assert sorted(os.listdir(shots)) == ["a.png", "b.png"]


def test_wall_clock_taps_typed_together_are_apart_long_enough(tmp_path,
                                                               monkeypatch):
    """However fast the firmware polls, two taps typed together are
    pressed far enough apart on the (real) clock that the firmware's
    debounced buttons (drivers/buttons.py, polled every ms) report both: a
    key let up for 3 quick polls only would be lost to the debounce. The
    wall clock is the test's own here, 1 ms a poll: on the host's, a busy
    machine stretched the polls and let taps with no gap pass."""
    import sim_clock
    import buttons
    wall = [10 ** 9]
    monkeypatch.setattr(sim_clock, "_wall_us", lambda: wall[0])
    dev = bare_device(tmp_path)
    keys = buttons.Buttons(board_sim.BUTTONS)
    sim_clock.set_real(True)
    try:
        dev.tap("place")
        dev.tap("place")
        changes = []
        presses = []
        for _ in range(500):            # a firmware polling every ms
            wall[0] += 1000
            now = sim_clock.now_us()
            level = dev.buttons.is_pressed("place")
            if not changes or changes[-1][0] != level:
                changes.append((level, now))
            name = keys.poll(now // 1000)
            if name is not None:
                presses.append(name)
            dev._slept()
    finally:
        sim_clock.set_real(False)
    assert [c[0] for c in changes] == [True, False, True, False]
    assert presses == ["place", "place"]
    assert changes[2][1] - changes[1][1] > keys.debounce_ms * 1000


def test_the_player_sees_the_same_picture_however_the_glass_is_mounted(
        tmp_path):
    """A board whose LCD is mounted turned (rotation 90 or 270: the glass
    on its side, its native width the picture's height) shows the player
    the same upright picture: the firmware turns the drawing, the model
    mounts the glass as the board says."""
    import types
    pictures = []
    for rotation in (90, 270):
        board = types.SimpleNamespace(**{
            k: v for k, v in vars(board_esp32_ili9341).items()
            if not k.startswith("__")})
        board.LCD = dict(board.LCD, rotation=rotation)
        dev = device.Device(board, str(tmp_path / str(rotation)))
        dev.run(until_ms=1500)
        im = device.frame_image(dev.lcd)
        assert im.size == (320, 240), rotation
        pictures.append(im.tobytes())
    assert pictures[0] == pictures[1]
    assert len(set(pictures[0])) > 1           # the menu, not a blank


def test_a_dark_screen_is_black_whatever_its_memory_holds(tmp_path):
    """Backlight off (the firmware's power saving): the picture is black
    though the frame memory still holds the menu."""
    import machine
    dev = device.Device(board_sim, str(tmp_path))
    dev.run(until_ms=1500)
    assert len(set(dev.frame_rgb())) > 1
    machine.Pin(board_sim.LCD["bl"], machine.Pin.OUT, value=0)
    assert set(dev.frame_rgb()) == {0}
    assert set(device.frame_image(dev.lcd).tobytes()) == {0}


def test_script_words_any_case_and_no_negative_time():
    import pytest
    s = device.Script.parse("AT 5\nTap place\nWAIT 10\nRelease place")
    assert s.events == [(5, "tap", "place"), (15, "release", "place")]
    for bad in ("at -1", "wait -1"):
        with pytest.raises(device.ScriptError, match="negative time"):
            device.Script.parse(bad)


def test_scripted_events_happen_at_their_millisecond(tmp_path):
    import sim_clock
    dev = device.Device(board_sim, str(tmp_path), lcd=False, radio=False)
    dev.schedule(device.Script.parse("at 100\npress place\n"))
    sim_clock.advance_us(99999)
    assert not dev.buttons.is_pressed("place")
    sim_clock.advance_us(1)
    assert dev.buttons.is_pressed("place")


def test_a_device_radio_is_on_the_air_of_its_own_medium(tmp_path):
    """No medium given: the radio is on a Medium of its own (the firmware
    sends into the air, nothing answers), not on none at all."""
    from host_sim import radio_medium
    dev = device.Device(board_sim, str(tmp_path), lcd=False, gyro=False)
    assert isinstance(dev.medium, radio_medium.Medium)
    assert dev.medium.radios == [dev.radio] and dev.radio.medium is dev.medium


def test_scripted_leans_turn_one_hand(tmp_path):
    """`lean 20 0` then `lean 0 0`: the device is turned to 20 degrees and
    back level by the same hand (a second hand, still holding the first
    target, would keep it tilted)."""
    import sim_clock
    dev = device.Device(board_sim, str(tmp_path), lcd=False, radio=False)
    dev.schedule(device.Script.parse("lean 20 0\nat 600\nlean 0 0\n"))
    angles = []
    for _ in range(300):
        sim_clock.advance_us(5000)
        angles.append(dev.tilt_source.angles()[0])
    assert dev.hand() is dev.hand()
    assert abs(angles[110] - 20) < 0.5 and abs(angles[-1]) < 0.5


def test_script_numbers_and_times_that_make_no_sense_are_refused():
    """A word where a number goes, or an `at` earlier than the lines above
    reach (the script would run out of the order it reads in), is refused
    naming the line, not with Python's int() message."""
    import pytest
    for text, error in (
            ("tap place abc", "t.txt:1: tap's hold: 'abc' is not a whole number of ms"),
            ("at x", "t.txt:1: at: 'x' is not a whole number of ms"),
            ("wait 1.5", "t.txt:1: wait: '1.5' is not a whole number of ms"),
            ("tilt a 0", "t.txt:1: tilt wants numbers (right, forward), not a 0"),
            ("at 100\ntap place\nwait 30\nat 120", "t.txt:4: at 120: the lines "
             "above already reach 130 ms (a script runs top to bottom)")):
        with pytest.raises(device.ScriptError) as e:
            device.Script.parse(text, "t.txt")
        assert str(e.value) == error
    assert device.Script.parse("at 100\nwait 30\nat 130\ntap place").events == [
        (130, "tap", "place")]


def test_cli_output_paths_it_cannot_write_are_named(tmp_path):
    """--shots, --flash or --trace under a file: one line naming the option
    and the path, not a traceback."""
    import pytest
    from host_sim import __main__ as cli
    (tmp_path / "file").write_text("")
    bad = str(tmp_path / "file" / "sub")
    ok = ["--shots", str(tmp_path / "s"), "--flash", str(tmp_path / "f")]
    for opt in ("--shots", "--flash", "--trace"):
        args = ["--headless", "--until", "10"] + ok + [opt, bad]
        with pytest.raises(SystemExit, match=r"^%s %s: Not a directory$" % (opt, bad)):
            cli.main(args)


PORT_OBJECTS = """
import machine
import board_sim
machine.forget_all()
machine.hardware(board_sim)
pin = machine.Pin(5)
spi = machine.SPI(1)
i2c = machine.I2C(1)
same = (machine.Pin(5, machine.Pin.OUT, value=0) is pin,
        machine.SPI(1, baudrate=8000000) is spi and spi.baudrate == 8000000,
        machine.I2C(1, freq=100000) is i2c and i2c.freq == 100000,
        machine.Pin(6) is not pin, machine.SPI(0) is not spi)
machine.forget_all()
print(same, machine.Pin(5) is not pin)
"""


def test_a_pin_or_bus_is_one_object_as_on_the_ports():
    """Pin(n), SPI(n) and I2C(n) give the one object for that pin or bus,
    set up again by the arguments, as the rp2 and esp32 ports do (their
    objects are static, so the firmware's heap never holds them); a fresh
    board (forget_all) has fresh ones. On CPython and on the unix port."""
    import io
    import contextlib
    import upy
    want = "(True, True, True, True, True) True"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(PORT_OBJECTS, {})
    assert out.getvalue().strip() == want
    assert upy.run(PORT_OBJECTS, heapsize="256k", shims=True,
                   extra_path=[upy.ROOT / "boards"]).strip() == want


PIN_SETUP_LOCKED = """
import gc, machine
import board_sim
machine.forget_all()
machine.hardware(board_sim)
pins = [o for (cls, n), o in machine._objects.items() if cls is machine.Pin]
p = before = 0      # the globals exist before the measure
gc.collect()
before = gc.mem_alloc()
for p in pins:
    p.init(p.OUT, value=1)
    p.init(p.IN, p.PULL_UP)
    p.init(p.OPEN_DRAIN, None, value=0)
    p.value(1)
gc.collect()
print(len(pins), gc.mem_alloc() - before)
"""


def test_setting_up_the_boards_pins_allocates_nothing_on_the_unix_port():
    """A board keeps a pin's mode, pull and level in registers: the shim's
    room for them is made with the board's Pin objects (hardware()), so a
    heap measured from then on (bench_app) holds none of it (the 23 pins of
    board_sim grew it by 800 bytes)."""
    import upy
    import board_sim
    n = len(set(board_sim.BUTTONS.values()) | {
        cfg[k] for cfg in (board_sim.LCD, board_sim.GYRO, board_sim.RADIO)
        for k in ("sck", "mosi", "miso", "cs", "dc", "rst", "bl", "scl",
                  "sda", "ce", "irq") if cfg.get(k) is not None})
    out = upy.run(PIN_SETUP_LOCKED, heapsize="256k", shims=True,
                  extra_path=[upy.ROOT / "boards"])
    count, grown = map(int, out.split())
    assert count == n and grown <= 0, out


def test_a_reset_meets_the_firmware_not_a_peer_sleeping_in_a_timer(tmp_path):
    """A simulated peer runs in a timer, on the firmware's stack: a reset
    due while the peer slept (its radio's send) was raised in the peer's
    sleep, which left that handheld's radio transmitting and its loop
    dead. The reset now meets the firmware at its own next sleep."""
    import sim_clock
    import time
    dev = device.Device(board_sim, str(tmp_path), lcd=False, gyro=False, radio=False)
    peer = []

    def peer_send():
        for _ in range(10):
            time.sleep_us(1000)     # 10 ms, across the reset at 2 ms
        peer.append(sim_clock.now_us())
    boots = []

    def main():
        boots.append(sim_clock.now_us())
        if len(boots) == 1:
            sim_clock.call_at(sim_clock.now_us() + 500, peer_send)
        while True:
            time.sleep_ms(5)
    dev.run(device.Script.parse("at 2\nreset\nat 40\nend\n"), main=main)
    assert len(peer) == 1 and dev.resets == 1
    assert boots[1] >= peer[0]          # the firmware restarted after it
