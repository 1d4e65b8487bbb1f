"""The L3G4200D driver against its register model, on CPython and on the
MicroPython unix port (the checks live in tests/gyro_checks.py)."""
import pytest

import host_sim
import upy

host_sim.install()
import gyro_checks  # noqa: E402

CHIPS = upy.ROOT / "host_sim" / "chips"
TESTS = upy.ROOT / "tests"


@pytest.mark.parametrize("check", gyro_checks.names("l3g_"))
def test_cpython(check):
    getattr(gyro_checks, check)()


def test_unix_port():
    out = upy.run("import gyro_checks; gyro_checks.run('l3g_')",
                  heapsize="256k", shims=True, extra_path=[CHIPS, TESTS])
    done = [line.split()[1] for line in out.splitlines()
            if line.startswith("ok ")]
    assert done == gyro_checks.names("l3g_")


@pytest.mark.parametrize("who", [0x68, 0xFF, 0xD2, 0xD4],
                         ids=["mpu6050", "bus-high", "D2", "D4"])
def test_a_wrong_non_zero_who_am_i_is_refused(who):
    """Something at the address that answers, but not with 0xD3: a chip
    whose register 0x0F reads 0x68, SDA floating high (0xFF), an ID a bit
    off. The clear error names what was read; nothing is written."""
    import l3g4200d
    import l3g4200d_model
    tilt, m, i2c = gyro_checks.rig(l3g4200d_model.L3G4200DModel, 0x69)
    m.regs[0x0F] = who
    before = bytes(m.regs)
    msg = gyro_checks.raises_oserror(lambda: l3g4200d.L3G4200D(i2c, 0x69))
    for part in ("L3G4200D not found", "0x69", "WHO_AM_I reads 0x%02X" % who,
                 "expected 0xD3", "scl=27"):
        assert part in msg, msg
    assert bytes(m.regs) == before and m.errors == []
