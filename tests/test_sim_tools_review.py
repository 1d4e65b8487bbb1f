"""Review of the simulator and the tools: bad input gets a clear answer."""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import deploy  # noqa: E402


def test_deploy_names_an_unknown_board_before_looking_for_its_build(tmp_path,
                                                                    capsys):
    """A misspelt board is not sent to `make build BOARD=<typo>` (which
    would only refuse it in turn): it is named as unknown, with the boards
    there are."""
    assert deploy.main(["--board", "pico", "--build", str(tmp_path),
                        "--dry-run"]) == 1
    err = capsys.readouterr().err
    assert "unknown board 'pico'" in err and "pico_lcd13" in err, err
    assert "make build" not in err, err


# ---- tools/arena.py ---------------------------------------------------------
import arena  # noqa: E402


@pytest.mark.parametrize("command, reason", [
    ("python 'tools/pbrain.py", "No closing quotation"),
    ("", "names no program"),
    ("   ", "names no program"),
])
def test_arena_refuses_a_brain_command_it_cannot_run_by_name(command, reason,
                                                              capsys):
    """A command line with an unclosed quote or no program at all: one
    usage error naming it, not a traceback out of a worker thread."""
    with pytest.raises(SystemExit) as e:
        arena.main([command, "python tools/pbrain.py", "--games", "1"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert reason in err and "Traceback" not in err, err
    with pytest.raises(ValueError, match=reason):
        arena.run_match(command, "python tools/pbrain.py", games=1)


@pytest.mark.parametrize("timeout", ["0", "-1", "nan", "inf", "soon"])
def test_arena_refuses_a_timeout_that_is_no_time(timeout, capsys):
    """--timeout 0 (or less) lost every game at START ("black failed to
    start: timeout"), blaming the brains."""
    with pytest.raises(SystemExit) as e:
        arena.main(["python tools/pbrain.py", "python tools/pbrain.py",
                    "--timeout", timeout])
    assert e.value.code == 2
    assert "not a time in seconds" in capsys.readouterr().err


# ---- host_sim: scripts and the command line ----------------------------------
import host_sim  # noqa: E402

host_sim.install()
from host_sim import __main__ as sim_cli  # noqa: E402
from host_sim import device  # noqa: E402


@pytest.mark.parametrize("line, why", [
    ("tilt inf 0", "finite"), ("tilt 0 nan", "finite"),
    ("lean -inf 0", "finite"), ("lean nan nan", "finite"),
    ("tilt 0 1e306", "within"), ("tilt -100001 0", "within"),
    ("lean 0 1e6", "within")])
def test_a_script_tilt_that_is_no_number_is_refused_at_its_line(line, why,
                                                                 tmp_path):
    """`tilt inf 0` was taken: the gyro model then read a NaN rate and the
    firmware showed "Error (ValueError: cannot convert float NaN to
    integer). The game restarts.", blaming the handheld for the script.
    `tilt 0 1e306` did the same with an OverflowError."""
    with pytest.raises(device.ScriptError, match=why):
        device.Script.parse("at 500\n" + line + "\n")
    script = tmp_path / "s.txt"
    script.write_text("at 500\n%s\nwait 1000\n" % line)
    with pytest.raises(SystemExit) as e:
        sim_cli.main(["--headless", "--script", str(script),
                      "--flash", str(tmp_path / "flash")])
    assert str(e.value).startswith("script: %s:2: " % script), e.value


@pytest.mark.parametrize("text, why", [
    ("wait 99999999999999\n", "past a day of device time"),
    ("at 1000\nwait 86399001\n", "past a day of device time"),
    ("wait 86400000\nawait You\nwait 1\n", "past a day of device time"),
    ("wait 1_000\n", "'1_000' is not a whole number of ms")])
def test_a_script_time_that_is_no_plain_number_or_past_a_day_is_refused(text, why):
    """`wait 99999999999999` was taken, and a headless run then simulated
    for ever; `wait 1_000` read as 1000, as Python's int() reads it."""
    with pytest.raises(device.ScriptError, match=why):
        device.Script.parse(text)
    device.Script.parse("at 1000\nwait 86399000\n")     # a day exactly


@pytest.mark.parametrize("args, word", [
    (["--scale", "0"], "zoom"), (["--scale", "-3"], "zoom"),
    (["--until", "-5"], "time in ms"), (["--until", "86400001"], "at most 86400000")])
def test_cli_refuses_a_zoom_or_end_time_out_of_range(args, word, capsys):
    """--scale 0 opened a window with a screen of no size, --scale -3 said
    "no window: Cannot set negative sized display mode" (and, in a
    terminal, quietly fell back to it), --until -5 ran 1 ms: each is now
    a usage error naming the option."""
    with pytest.raises(SystemExit) as e:
        sim_cli.parse(args + ["--headless"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert args[0] in err and word in err, err
    assert sim_cli.parse(["--scale", "1", "--until", "0"]).scale == 1
