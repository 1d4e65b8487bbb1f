"""pytest setup: the firmware's flat module path, as on a device."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import upy  # noqa: E402

for p in reversed(upy.FIRMWARE_PATH):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))
if str(upy.ROOT) not in sys.path:
    sys.path.insert(0, str(upy.ROOT))
