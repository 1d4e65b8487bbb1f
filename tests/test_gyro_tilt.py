"""The simulated tilt source that the gyroscope models read, on CPython and on the
MicroPython unix port (the checks live in tests/gyro_checks.py); then
tilt.Tilt on each board's axes and signs, on CPython."""
import pytest

import host_sim
import upy

host_sim.install()
import gyro_checks  # noqa: E402
import time  # noqa: E402
import tilt  # noqa: E402
from test_app_tilt import CHIPS as GYROS, back_to_level, make, run  # noqa: E402

CHIPS = upy.ROOT / "host_sim" / "chips"
TESTS = upy.ROOT / "tests"


@pytest.mark.parametrize("check", gyro_checks.names("motion_"))
def test_cpython(check):
    getattr(gyro_checks, check)()


def test_unix_port():
    out = upy.run("import gyro_checks; gyro_checks.run('motion_')",
                  heapsize="256k", shims=True, extra_path=[CHIPS, TESTS])
    done = [line.split()[1] for line in out.splitlines()
            if line.startswith("ok ")]
    assert done == gyro_checks.names("motion_")


# -- tilt.Tilt on the boards' axes (make and run are test_app_tilt's) ----------

def sweep(src, t, moves):
    """Each (right dps, ms) in turn, polled every 20 ms -> events, angles."""
    evs = []
    angles = []
    for dps, ms in moves:
        src.set_tilt(dps, 0)
        end = time.ticks_add(time.ticks_ms(), ms)
        while time.ticks_diff(end, time.ticks_ms()) > 0:
            time.sleep_ms(20)
            ev = t.poll(time.ticks_ms())
            if ev:
                evs.append(ev)
            angles.append(t.angle[0])
    return evs, angles


@pytest.mark.parametrize("chip", sorted(GYROS))
def test_a_wobble_that_stays_past_the_release_angle_is_one_step(chip):
    """A hand held at 10 degrees wobbles to 8 and back to 10, quicker than
    the auto-repeat: one tilt, one step. Only back inside the release angle
    does the tilt end and the next one step at once."""
    src, t = make(chip)
    evs, angles = sweep(src, t, ((50, 220), (-20, 100), (20, 100)))
    low = min(angles[10:])
    assert 7500 <= low <= 8500 and angles[-1] >= 9500, (low, angles[-1])
    assert low > tilt._RELEASE
    assert evs == [tilt.RIGHT]
    back_to_level(src, t)
    assert run(t, 2000) == []
    # the same wobble reaching 5 degrees is two tilts
    evs, angles = sweep(src, t, ((50, 220), (-50, 100), (50, 100)))
    assert min(angles[10:]) < tilt._RELEASE and angles[-1] >= 9500
    assert evs == [tilt.RIGHT, tilt.RIGHT]
