"""pytest setup: the firmware's flat module path, as on a device."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import upy  # noqa: E402

for p in reversed(upy.FIRMWARE_PATH):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))
if str(upy.ROOT) not in sys.path:
    sys.path.insert(0, str(upy.ROOT))


@pytest.fixture
def flash(tmp_path, monkeypatch):
    """The device's flash: a fresh folder, the working directory for the test
    (the firmware's files, like the save, live in the current directory)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path
