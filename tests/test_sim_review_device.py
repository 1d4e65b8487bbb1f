"""host_sim.device running firmware code as MicroPython would: time.sleep
on the simulated clock, machine.reset() that firmware cannot catch."""
import host_sim

host_sim.install()
from host_sim import device  # noqa: E402
import board_sim  # noqa: E402


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

    dev = device.Device(board_sim, str(tmp_path), lcd=False, gyro=False,
                        radio=False)
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

    dev = device.Device(board_sim, str(tmp_path), lcd=False, gyro=False,
                        radio=False)
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
