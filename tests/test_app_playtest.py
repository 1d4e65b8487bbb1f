"""What a player met play-testing the simulated handheld, as tests."""
import host_sim

host_sim.install()

import board_esp32_ili9341  # noqa: E402
import board_sim  # noqa: E402
from app_script import Script, band, run_device, screen_text  # noqa: E402


def test_a_long_boot_note_stays_up_long_enough_to_read(flash):
    """A missing gyro's note (250 characters on the sim, with how to steer
    without tilt) went away after 5 s, while the player was still reading
    it; it now stays 60 ms a character unless a key dismisses it."""
    s = Script(start_ms=1000)
    s.snap("1s", band(0, 240))
    s.t = 12000
    s.snap("12s", band(0, 240))
    s.t = 17000
    s.snap("17s", band(0, 240))
    dev = run_device(board_sim, s.end(), str(flash), gyro=False)
    first = screen_text(dev.snaps["1s"], 240)
    note = " ".join(first[:-1])
    assert note.startswith("Gyro L3G4200D not found") and \
        "steer with the joystick" in note and first[-1] == "A: continue"
    assert 200 < len(note) < 270, note
    assert screen_text(dev.snaps["12s"], 240) == first
    assert "> Start" in screen_text(dev.snaps["17s"], 240)


def test_the_esp32s_key_steering_note_stays_up_too(flash):
    """The ESP32 without its gyro: the note that says how to steer with
    the three keys (330 characters) is still there at 15 s."""
    whole = [(x, y) for y in range(240) for x in range(320)]
    s = Script(start_ms=15000)
    s.snap("15s", whole)
    dev = run_device(board_esp32_ili9341, s.end(), str(flash), gyro=False)
    said = screen_text(dev.snaps["15s"], 240, 320)
    assert said[-1] == "Place: continue", said
    assert "hold Place to place a" in " ".join(said)
