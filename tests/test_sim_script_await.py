"""Scripts that wait for the screen: `await TEXT` holds the script until a
line on the simulated LCD shows TEXT, and the lines after it count their
time from that moment, so a script does not depend on how long the firmware
(an AI move, a radio pairing) takes."""
import os

import pytest

import host_sim

host_sim.install()
from host_sim import device  # noqa: E402
import board_sim  # noqa: E402


def test_await_splits_the_script_into_parts_timed_from_each_await():
    s = device.Script.parse("tap place\nwait 30\nawait   Code 12  paired  # c\n"
                            "wait 50\ntap back 90\nawait You win\nshot a.png\nwait 20\n")
    assert s.events == [(0, "tap", "place")]
    assert [(ev, evs, end) for ev, evs, end in s.parts] == [
        ((30, "await", "Code 12  paired"), [(50, "tap", "back", 90)], 50),
        ((50, "await", "You win"), [(0, "shot", "a.png")], 20)]
    assert s.end_ms() is None           # known only once the last is met
    # in double quotes: a # (the move count) and edge spaces are the text's
    s = device.Script.parse('await "#3"  # the third move\nAWAIT " Code "\n')
    assert [p[0] for p in s.parts] == [(0, "await", "#3"), (0, "await", " Code ")]
    assert device.Script.parse("wait 40\ntap place").end_ms() == 40


@pytest.mark.parametrize("text, error", [
    ("tap place\nawait\n", "t.txt:2: await needs the text to wait for"),
    ("await # only a comment\n", "t.txt:1: await needs the text to wait for"),
    ("await Start\nat 500\n", "t.txt:2: at after an await: times there count "
                              "from the await; use wait"),
    ('await "#3\n', 't.txt:1: await: the text\'s closing " is missing'),
    ('await "#3" 500\n', "t.txt:1: await: only a comment may follow the quoted text"),
    ('await ""\n', "t.txt:1: await needs the text to wait for"),
])
def test_a_bad_await_is_refused_naming_the_line(text, error):
    with pytest.raises(device.ScriptError) as e:
        device.Script.parse(text, "t.txt")
    assert str(e.value) == error


def test_a_device_without_a_screen_refuses_an_await(tmp_path):
    dev = device.Device(board_sim, str(tmp_path), lcd=False, gyro=False, radio=False)
    with pytest.raises(device.ScriptError, match="s.txt:2: await Start, but this "
                                                 "device has no screen"):
        dev.schedule(device.Script.parse("tap place\nawait Start\n", "s.txt"))


def test_the_menu_is_walked_by_what_it_shows(tmp_path):
    """From power-on: wait for the menu, step to Mode and on to Level (the
    same button again, while the first tap may still be down: the part
    after an await starts once it is up), back up to Mode, change it: each
    step as soon as the screen shows it."""
    dev = device.Device(board_sim, str(tmp_path))
    script = device.Script.parse(
        "await > Start\nshot start.png\ntap menu\nawait > Mode:  vs AI\n"
        "tap menu\nawait > Level\ntap up\nawait > Mode\n"
        "tap place\nawait 2 players\nwait 100\n")
    end = dev.run(script, shots_dir=str(tmp_path))
    # the shot right after the first await shows the menu the boot drew
    from PIL import Image
    from host_sim.terminal import read_text
    im = Image.open(dev.shots[0]).convert("RGB")
    assert "> Start" in [t[2] for t in read_text(im.tobytes(), im.width, im.height)]
    assert dev.screen_text()[0] == "> Mode:  2 players"
    assert 100 < end < 3000, end


def test_screen_text_reads_top_to_bottom(tmp_path):
    # Level selected: its line in the highlight colour between two in the
    # plain one (read colour by colour, it would come last)
    dev = device.Device(board_sim, str(tmp_path))
    dev.run(device.Script.parse("await > Start\ntap menu\nawait > Mode\ntap menu\n"
                                "await > Level\n"))
    assert dev.screen_text()[:4] == ["Mode:  vs AI", "> Level: 1", "Rule:  Freestyle",
                                     "Black: you"]


def test_the_lines_after_an_await_count_from_when_the_text_appeared(tmp_path):
    """The same boot, twice: once ending as the menu appears, once 700 ms
    after it (a closing wait after the await), and the two ends 700 ms
    apart."""
    met = device.Device(board_sim, str(tmp_path / "a")).run(
        device.Script.parse("await > Start\nend\n"))
    later = device.Device(board_sim, str(tmp_path / "b")).run(
        device.Script.parse("await > Start\nwait 700\n"))     # a closing wait
    assert met > 100                    # the boot drew the menu: not at 0
    # each end is seen at the firmware's next sleep: up to one 20 ms poll late
    assert 680 <= later - met <= 720, (met, later)


def test_an_await_not_met_fails_the_run_saying_what_the_screen_shows(tmp_path,
                                                                    monkeypatch):
    monkeypatch.setattr(device.Script, "AWAIT_MS", 2000)
    dev = device.Device(board_sim, str(tmp_path))
    with pytest.raises(device.ScriptError) as e:
        dev.run(device.Script.parse("wait 500\nawait You win\nshot x.png\n", "g.txt"),
                shots_dir=str(tmp_path))
    msg = str(e.value)
    assert msg.startswith("g.txt:2: await You win: not on the screen after 2000 ms "
                          "(it shows: ")
    assert "> Start" in msg and dev.shots == []
    import sim_clock
    assert 2500 <= sim_clock.now_us() // 1000 < 2700


def test_a_watch_ends_with_its_run(tmp_path, monkeypatch):
    """A run stopped (until_ms) while its script awaits: the next run on the
    same device is not failed by the old await."""
    monkeypatch.setattr(device.Script, "AWAIT_MS", 1500)
    dev = device.Device(board_sim, str(tmp_path))
    assert 1000 <= dev.run(device.Script.parse("await You win\n"), until_ms=1000) < 1100
    assert 4000 <= dev.run(until_ms=4000) < 4100


def test_the_readme_script_example_parses():
    """Every line of the README's script example is an event the parser
    takes (the docs show the language as it is)."""
    with open(os.path.join(host_sim.ROOT, "README.md")) as f:
        readme = f.read()
    block = readme.split("**Headless scripts**", 1)[1].split("```", 2)[1]
    s = device.Script.parse(block, "README.md")
    kinds = {e[1] for e in s.all_events()}
    assert {"tap", "press", "release", "tilt", "lean", "shot", "reset", "end",
            "await"} <= kinds
    assert [p[0][2] for p in s.parts] == ["You win", "#3"]


def test_the_readme_game_against_the_ai_runs(tmp_path):
    """The README's example game: it gets to the fourth move, waiting for
    each of the AI's replies, and its shot is taken."""
    with open(os.path.join(host_sim.ROOT, "README.md")) as f:
        readme = f.read()
    block = readme.split("A game against the AI", 1)[1].split("```", 2)[1]
    dev = device.Device(board_sim, str(tmp_path))
    dev.run(device.Script.parse(block, "README.md"), shots_dir=str(tmp_path))
    assert dev.shots == [str(tmp_path / "game.png")]
    assert any(line.endswith("#4") for line in dev.screen_text()), dev.screen_text()


def test_the_readme_command_plays_its_game_again_on_the_flash_it_left(
        tmp_path, monkeypatch):
    """The README's headless command, run twice with its example game on
    the flash it names: the second run meets the menu again, not the first
    run's game offered at boot, and `make sim`'s flash is not touched."""
    from host_sim import __main__ as cli
    with open(os.path.join(host_sim.ROOT, "README.md")) as f:
        readme = f.read()
    part = readme.split("## The simulator for tests and bug reports", 1)[1]
    line = part.split("\n\n", 2)[1].strip().replace("\\\n", " ")
    assert line.startswith(".venv/bin/python -m host_sim "), line
    (tmp_path / "game.txt").write_text(
        readme.split("A game against the AI", 1)[1].split("```", 2)[1])
    files = {"game.txt": str(tmp_path / "game.txt"),
             "out/": str(tmp_path / "out"),
             "bus.jsonl": str(tmp_path / "bus.jsonl"),
             "build/flash-script": str(tmp_path / "flash")}
    args = [files.get(a, a) for a in line.split()[3:]]
    monkeypatch.setattr(cli, "ROOT", str(tmp_path / "root"))
    for _ in range(2):
        assert cli.main(args) == 0
    assert "gomoku.cfg" in os.listdir(tmp_path / "flash")
    assert not (tmp_path / "root" / "build" / "flash-sim").exists()


def test_a_tap_right_after_a_slow_redraw_counts(tmp_path):
    """The ESP32 board's LCD (10 MHz SPI) draws the new board for about
    190 ms without a poll, and Start's tap is let go in that time: the
    same button tapped as soon as the board shows is a press of its own."""
    import board_esp32_ili9341
    dev = device.Device(board_esp32_ili9341, str(tmp_path))
    dev.run(device.Script.parse('await > Start\ntap place\nawait "#0"\n'
                                'tap place\nawait "#2"\n'))
    assert any(line.endswith("#2") for line in dev.screen_text()), dev.screen_text()


def test_a_shot_that_is_not_a_png_is_refused_before_the_run():
    """It failed partway through the run ("unknown file extension"), or
    wrote a JPEG for a .jpg where the script language promises PNG."""
    with pytest.raises(device.ScriptError, match="s.txt:2: shot a.jpg: a .png file"):
        device.Script.parse("wait 10\nshot a.jpg\n", "s.txt")
    assert device.Script.parse("shot A.PNG\n").events[0][2] == "A.PNG"
