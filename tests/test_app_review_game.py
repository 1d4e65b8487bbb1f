"""Review of the game screen (app.App), the board's drawing (board_view) and
the tilt steering (tilt): the cases a mutation review found no test for.
Games are played through the simulated handheld's buttons and read off its
LCD model's pixels, as in test_app_game; tilt is driven through the gyro
models, as in test_app_tilt."""
import pytest

import host_sim

host_sim.install()

import machine  # noqa: E402
import sim_clock  # noqa: E402
import time  # noqa: E402
import tilt  # noqa: E402
import tilt_model  # noqa: E402


# ---- tilt ------------------------------------------------------------------

GYROS = {
    "l3g4200d": (0x69, (1, 0), (1, -1)),
    "mpu6050": (0x68, (0, 1), (1, 1)),
}


def make_tilt(chip):
    machine.forget_all()
    sim_clock.reset()
    addr, axes, signs = GYROS[chip]
    src = tilt_model.TiltModel(axes, signs, bias_mdps=(3000, -4000, 1500))
    model = getattr(__import__(chip + "_model"), chip.upper() + "Model")(src)
    machine.attach_i2c(1, addr, model, chip)
    gyro = getattr(__import__(chip), chip.upper())(machine.I2C(1), addr)
    t = tilt.Tilt(gyro, axes, signs)
    t.calibrate()
    return src, t


def steps(t, ms, every=20):
    """Poll every `every` ms for ms: -> the steps, in order."""
    out = []
    end = time.ticks_add(time.ticks_ms(), ms)
    while time.ticks_diff(end, time.ticks_ms()) > 0:
        time.sleep_ms(every)
        ev = t.poll(time.ticks_ms())
        if ev:
            out.append(ev)
    return out


@pytest.mark.parametrize("chip", sorted(GYROS))
def test_a_steep_tilt_and_back_to_level_stops_the_cursor(chip):
    # 60 degrees right (100 dps for 600 ms), held, then back to level the
    # same way: the cursor steps right, and once the device is level again
    # it stops. It must never run left: the device was never tilted left.
    src, t = make_tilt(chip)
    src.set_tilt(100, 0)
    evs = steps(t, 600)
    src.hold_still()
    evs += steps(t, 500)
    assert evs and set(evs) == {tilt.RIGHT}
    src.set_tilt(-100, 0)
    evs = steps(t, 600)
    src.hold_still()
    assert tilt.LEFT not in evs
    assert steps(t, 3000) == []
