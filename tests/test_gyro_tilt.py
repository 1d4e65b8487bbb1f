"""The simulated tilt source that the gyroscope models read, on CPython and on the
MicroPython unix port (the checks live in tests/gyro_checks.py)."""
import pytest

import host_sim
import upy

host_sim.install()
import gyro_checks  # noqa: E402

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
