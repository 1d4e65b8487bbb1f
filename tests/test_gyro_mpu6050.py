"""The MPU6050 driver against its register model, on CPython and on the
MicroPython unix port (the checks live in tests/gyro_checks.py)."""
import pytest

import host_sim
import upy

host_sim.install()
import gyro_checks  # noqa: E402

CHIPS = upy.ROOT / "host_sim" / "chips"
TESTS = upy.ROOT / "tests"


@pytest.mark.parametrize("check", gyro_checks.names("mpu_"))
def test_cpython(check):
    getattr(gyro_checks, check)()


def test_unix_port():
    out = upy.run("import gyro_checks; gyro_checks.run('mpu_')",
                  heapsize="256k", shims=True, extra_path=[CHIPS, TESTS])
    done = [line.split()[1] for line in out.splitlines()
            if line.startswith("ok ")]
    assert done == gyro_checks.names("mpu_")


def test_firmware_boots_on_the_mpu6500_board(flash, capsys):
    """`--board sim_mpu6500`: host_sim models the MPU-6500 the board names,
    and the firmware, unchanged, finds it and programs it: no gyro note,
    ACCEL_CONFIG2 set, nothing written where the 6500 has no register."""
    import board_sim_mpu6500
    from host_sim import device
    dev = device.Device(board_sim_mpu6500, str(flash), radio=False)
    assert dev.gyro.part == "6500" and dev.gyro.regs[0x75] == 0x70
    dev.run(until_ms=900)
    out = capsys.readouterr().out
    assert "Gyro" not in out, out
    m = dev.gyro
    assert m.regs[0x1D] == 0x03 and m.regs[0x1A] == 3, bytes(m.regs[0x19:0x1E])
    assert m.sample_rate_hz() == 100 and m.errors == [], m.errors
