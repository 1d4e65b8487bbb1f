"""pytest setup: the firmware's flat module path, as on a device, and the
fixtures that several test modules use."""
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
# the tools the fixtures below drive (last: no firmware module is shadowed)
if str(upy.ROOT / "tools") not in sys.path:
    sys.path.append(str(upy.ROOT / "tools"))


@pytest.fixture
def flash(tmp_path, monkeypatch):
    """The device's flash: a fresh folder, the working directory for the test
    (the firmware's files, like the save, live in the current directory)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def pg(monkeypatch):
    """pygame with no screen (SDL's dummy video driver), quit after."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    import pygame
    yield pygame
    pygame.quit()


@pytest.fixture
def brain():
    """tools/pbrain.py at level 1, in its own process, as a manager runs it."""
    from pbrain_process import Pbrain
    b = Pbrain("--level", "1")
    yield b
    b.close()


@pytest.fixture
def air():
    """Two NRF24L01 models on one simulated medium, each driven by raw SPI
    commands (test_radio_model.Raw), the clock and pins fresh:
    -> (medium, radio 0, radio 1)."""
    from test_radio_model import Medium, Raw, machine, sim_clock
    sim_clock.reset()
    machine.forget_all()
    med = Medium(seed=3)
    return med, Raw(0, med), Raw(1, med)


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """Both boards built once for the tests that only read the build:
    -> {board: (build root, report)}."""
    import build
    root = tmp_path_factory.mktemp("build")
    return {b: (root, build.build(b, root)) for b in build.boards()}


@pytest.fixture(scope="module")
def mb():
    """The emulated micro:bit with Debian's MicroPython, one per module."""
    import mcu
    with mcu.MicroBit() as board:
        yield board


@pytest.fixture(scope="session")
def frozen_firmware():
    """The micro:bit firmware hex with the engine frozen in (built if stale)."""
    import mcu_firmware
    try:
        return mcu_firmware.build()
    except mcu_firmware.BuildError as e:
        pytest.fail(str(e))


@pytest.fixture(scope="module")
def frozen_mb(frozen_firmware):
    """The emulated micro:bit on that firmware, one per module."""
    import mcu
    with mcu.MicroBit(firmware=str(frozen_firmware)) as board:
        yield board


@pytest.fixture(autouse=True)
def _no_save_files_left_in_the_repository():
    """The firmware writes its saves (gomoku.*) in the working directory: a
    test that saves without the `flash` fixture would leave them in the
    repository, to be committed by mistake."""
    def saves():
        return {p.name for p in upy.ROOT.glob("gomoku.*")}
    before = saves()
    yield
    left = saves() - before
    assert not left, "a test left %s in %s: give it the flash fixture" % (
        sorted(left), upy.ROOT)
