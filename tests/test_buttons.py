"""Debounced buttons (firmware/drivers/buttons.py) against the button pad
model, on CPython and on the MicroPython unix port (checks in
tests/button_checks.py)."""
import pytest

import host_sim
import upy

host_sim.install()
import button_checks  # noqa: E402

CHIPS = upy.ROOT / "host_sim" / "chips"
TESTS = upy.ROOT / "tests"


@pytest.mark.parametrize("check", button_checks.names())
def test_cpython(check):
    button_checks.__dict__[check]()


def test_unix_port():
    out = upy.run("import button_checks; button_checks.run()",
                  heapsize="128k", shims=True, extra_path=[CHIPS, TESTS])
    done = [line.split()[1] for line in out.splitlines()
            if line.startswith("ok ")]
    assert done == button_checks.names()
