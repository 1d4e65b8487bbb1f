"""ruff (ruff.toml) over the whole repository: the firmware, the board
configs, the freeze manifests, the simulator, tools, benches and tests."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUFF = str(Path(sys.executable).parent / "ruff")


def ruff(*args, cwd=ROOT):
    return subprocess.run([RUFF, "check", "--no-cache", "--output-format",
                           "concise", *args], capture_output=True, text=True,
                          cwd=str(cwd))


def test_the_repository_passes_ruff():
    proc = ruff(".")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_keeps_micropython_idioms_and_flags_real_faults(tmp_path):
    (tmp_path / "ruff.toml").write_text((ROOT / "ruff.toml").read_text())
    (tmp_path / "drv.py").write_text(
        '"""A driver."""\n'
        "from micropython import const\n"
        "import micropython\n"
        "_WHO_AM_I = const(0x0F)\n"
        "REG = const(0x20)\n"
        "\n"
        "\n"
        "@micropython.native\n"
        "def f(buf):\n"
        "    return buf[_WHO_AM_I] + REG\n")
    clean = ruff("drv.py", cwd=tmp_path)
    assert clean.returncode == 0, clean.stdout
    (tmp_path / "bad.py").write_text(
        "import time\n"                       # unused import
        "def f(x=[]):\n"                      # mutable default
        "    return undefined_name\n")        # undefined name
    bad = ruff("bad.py", cwd=tmp_path)
    codes = sorted(line.split()[1] for line in bad.stdout.splitlines()
                   if line.startswith("bad.py"))
    assert codes == ["B006", "F401", "F821"], bad.stdout
