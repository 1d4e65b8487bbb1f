"""pyright over firmware/ with each device port's MicroPython stubs
(tools/typecheck.py): the firmware uses only APIs rp2 and esp32 have."""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import typecheck  # noqa: E402


@pytest.mark.parametrize("port", sorted(typecheck.PORTS))
def test_firmware_type_checks_against_the_port_stubs(port):
    errors, result = typecheck.check(port)
    assert result["summary"]["filesAnalyzed"] >= len(list(
        (ROOT / "firmware").rglob("*.py")))
    assert not errors, "\n".join(typecheck.format_diag(d) for d in errors)


def test_the_check_rejects_what_a_port_does_not_have(tmp_path, monkeypatch):
    """CPython-only calls and modules, and the other port's module, are
    errors; MicroPython's own API (const, ticks, machine) is not."""
    src = tmp_path / "firmware" / "app"
    src.mkdir(parents=True)
    (src / "probe.py").write_text(
        "from micropython import const\n"
        "import time\n"
        "import machine\n"
        "_R = const(0x0F)\n"
        "t = time.ticks_diff(time.ticks_ms(), 0)\n"
        "p = machine.Pin(2, machine.Pin.IN, machine.Pin.PULL_UP)\n"
        "c = time.perf_counter()\n"        # CPython only
        "import functools\n"               # not in MicroPython
        "import esp32\n")                  # the other port's module
    (tmp_path / "boards").mkdir()
    for f in (ROOT / "boards").glob("board_*.py"):
        (tmp_path / "boards" / f.name).write_text(f.read_text())
    monkeypatch.setattr(typecheck, "ROOT", tmp_path)
    monkeypatch.setattr(typecheck, "WORK", tmp_path / "build" / "typecheck")
    errors, _ = typecheck.check("rp2")
    lines = sorted(d["range"]["start"]["line"] + 1 for d in errors)
    assert lines == [7, 8, 9], [typecheck.format_diag(d) for d in errors]


def test_a_python_without_pyright_is_told_to_use_the_venv(tmp_path):
    """`python tools/typecheck.py` with a Python that is not the project's
    .venv: it installed the stubs into that Python's prefix, then died in a
    FileNotFoundError traceback for pyright. It must stop first, saying
    which Python to use, and write nothing."""
    import os
    import subprocess
    bare = tmp_path / "bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)],
                   check=True)
    python = bare / "bin" / "python"
    env = dict(os.environ, PATH=str(bare / "bin") + os.pathsep + "/usr/bin:/bin")
    out = subprocess.run([str(python), str(ROOT / "tools" / "typecheck.py")],
                         capture_output=True, text=True, timeout=120, env=env)
    assert out.returncode != 0
    assert "Traceback" not in out.stderr, out.stderr
    assert ".venv/bin/python tools/typecheck.py" in out.stderr, out.stderr
    assert not (bare / "stubs").exists()
