"""Review of the tools' error paths: a failed micro:bit boot leaves no
emulator running; a missing tool or an --out build cannot write is a
one-line message, not a traceback; bench_ai scores no match against a
brain that never started."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import mcu  # noqa: E402
import mcu_firmware  # noqa: E402


def _interrupted(*args, **kw):
    raise KeyboardInterrupt


@pytest.mark.parametrize("ctrl_c", [False, True], ids=["timeout", "ctrl-c"])
def test_a_boot_that_never_shows_the_prompt_leaves_no_emulator_running(
        tmp_path, monkeypatch, ctrl_c):
    """start() gives up on a board that never prints its prompt, or is
    stopped by Ctrl-C while it waits: the qemu it started is ended, not
    left running after the LinkError or the KeyboardInterrupt."""
    silent = tmp_path / "qemu"
    silent.write_text("#!/bin/sh\nexec sleep 60\n")
    silent.chmod(0o755)
    firmware = tmp_path / "firmware.hex"
    firmware.write_text("")
    started = []
    real_popen = subprocess.Popen

    def popen(*args, **kw):
        started.append(real_popen(*args, **kw))
        return started[-1]

    monkeypatch.setattr(mcu.subprocess, "Popen", popen)
    board = mcu.MicroBit(firmware=str(firmware), qemu=str(silent), boot_timeout=0.3)
    if ctrl_c:
        monkeypatch.setattr(board, "_read_until", _interrupted)
    try:
        with pytest.raises(KeyboardInterrupt if ctrl_c else mcu.LinkError,
                           match=None if ctrl_c else "timeout"):
            board.start()
        assert len(started) == 1
        assert started[0].poll() is not None, "qemu left running"
        assert board.proc is None
    finally:
        for proc in started:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def test_mcu_cli_without_qemu_says_so_in_one_line(tmp_path):
    """No qemu-system-arm on PATH: `mcu.py exec` exits 1 naming the package,
    with no traceback."""
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "mcu.py"), "exec", "print(1)"],
                          capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, PATH=str(tmp_path)))
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.startswith("mcu: qemu-system-arm not found"), proc.stderr


def test_mcu_firmware_cli_link_error_is_a_message(tmp_path, monkeypatch):
    """A link that fails (no qemu, here) ends `mcu_firmware.py game` with
    its message, not a traceback."""
    monkeypatch.setattr(mcu_firmware, "build", lambda force=False: tmp_path / "engine.hex")

    class NoQemu:
        def __init__(self, **kw):
            pass

        def __enter__(self):
            raise mcu.LinkError("qemu-system-arm not found (apt-get install qemu-system-arm)")

        def __exit__(self, *exc):
            pass

    monkeypatch.setattr(mcu_firmware.mcu, "MicroBit", NoQemu)
    with pytest.raises(SystemExit) as exit_:
        mcu_firmware.main(["game"])
    assert str(exit_.value.code).startswith("mcu_firmware: qemu-system-arm not found")


def test_a_missing_build_tool_is_a_build_error(tmp_path):
    """dpkg-source (dpkg-dev) missing: a BuildError saying what installs it,
    which main() prints, not a FileNotFoundError traceback."""
    with pytest.raises(mcu_firmware.BuildError, match="no-such-tool not found.*ensure-debs"):
        mcu_firmware._run(["no-such-tool", "-x"], tmp_path)


# -- bench_ai: a reference brain that never starts --------------------------------

def test_bench_ai_scores_no_match_against_a_brain_that_never_started(capsys):
    """An opponent that cannot start (gomokubench's import broken, a bad
    flag) loses every game by forfeit: that is no win rate. The line says
    it was not measured, not '100.0% ... ok'."""
    sys.path.insert(0, str(ROOT / "bench"))
    import bench_ai
    broken = "%s -c 'import sys; sys.exit(\"no numpy\")'" % sys.executable
    assert bench_ai.match(bench_ai.brain(1), broken, 2, "level1", "broken ref", 90) is False
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("level1 vs broken ref: not measured: broken ref never started ("), out
    assert "100.0%" not in out[0] and " ok" not in out[0]


def test_bench_ai_fails_when_a_match_was_not_measured(monkeypatch):
    """main() exits 1 when a brain never started in some match, as
    `arena.py` exits 2: `make bench` must not pass on forfeits."""
    sys.path.insert(0, str(ROOT / "bench"))
    import bench_ai

    monkeypatch.setattr(bench_ai, "match", lambda a, b, *args, **kw: "gomokubench" not in b)
    monkeypatch.setattr(bench_ai, "unix_heap", lambda level: True)
    assert bench_ai.main() == 1


def test_build_into_an_out_it_cannot_write_is_a_message(tmp_path, capsys):
    """`build.py --out` under a file: 'build failed: ...', exit 1, not a
    NotADirectoryError traceback."""
    import build
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    assert build.main(["--board", "pico_lcd13", "--out", str(blocker / "out"), "-q"]) == 1
    assert capsys.readouterr().err.startswith("build failed: ")
