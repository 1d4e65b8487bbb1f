"""tilt.Tilt on both gyroscopes' datasheet models: bias calibrated away, no
drift while still, one step per gesture, auto-repeat that speeds up."""
import pytest

import host_sim

host_sim.install()

import machine  # noqa: E402
import sim_clock  # noqa: E402
import time  # noqa: E402
import tilt  # noqa: E402
import tilt_model  # noqa: E402

CHIPS = {
    "l3g4200d": (0x69, (1, 0), (1, -1)),
    "mpu6050": (0x68, (0, 1), (1, 1)),
}


def make(chip, bias_mdps=(3000, -4000, 1500)):
    machine.forget_all()
    sim_clock.reset()
    addr, axes, signs = CHIPS[chip]
    src = tilt_model.TiltModel(axes, signs, bias_mdps=bias_mdps)
    model = getattr(__import__(chip + "_model"), chip.upper() + "Model")(src)
    machine.attach_i2c(1, addr, model, chip)
    gyro = getattr(__import__(chip), chip.upper())(machine.I2C(1), addr)
    t = tilt.Tilt(gyro, axes, signs)
    t.calibrate()
    return src, t


def run(t, ms):
    events = []
    end = time.ticks_add(time.ticks_ms(), ms)
    while time.ticks_diff(end, time.ticks_ms()) > 0:
        time.sleep_ms(20)
        ev = t.poll(time.ticks_ms())
        if ev:
            events.append((time.ticks_ms(), ev))
    return events


def back_to_level(src, t):
    """From 15 degrees right (60 dps for 250 ms), back to level and held."""
    src.set_tilt(-60, 0)
    run(t, 250)
    src.hold_still()


# the default, and the zero-rate level the datasheets allow at the edge:
# the L3G4200D +-10 dps, the MPU6050 +-20 dps
BIASES = {"l3g4200d": (10000, -10000, 10000), "mpu6050": (20000, -20000, 20000)}


@pytest.mark.parametrize("big", [False, True], ids=["bias", "datasheet-max-bias"])
@pytest.mark.parametrize("chip", sorted(CHIPS))
def test_still_device_never_steps_despite_bias(chip, big):
    src, t = make(chip, BIASES[chip]) if big else make(chip)
    assert run(t, 20000) == []
    assert abs(t.angle[0]) < 1000 and abs(t.angle[1]) < 1000


@pytest.mark.parametrize("chip", sorted(CHIPS))
@pytest.mark.parametrize("right,fwd,want", [
    (1, 0, tilt.RIGHT), (-1, 0, tilt.LEFT), (0, 1, tilt.UP), (0, -1, tilt.DOWN)])
def test_one_gesture_one_step(chip, right, fwd, want):
    src, t = make(chip)
    src.set_tilt(60 * right, 60 * fwd)
    evs = run(t, 200)
    src.set_tilt(-60 * right, -60 * fwd)
    evs += run(t, 200)
    src.hold_still()
    evs += run(t, 2000)
    assert [e for _, e in evs] == [want]


@pytest.mark.parametrize("chip", sorted(CHIPS))
def test_held_tilt_repeats_faster_and_stops_when_level(chip):
    src, t = make(chip)
    src.set_tilt(60, 0)
    run(t, 250)                 # 15 degrees right, then held
    src.hold_still()
    evs = run(t, 2500)
    assert len(evs) >= 8 and all(e == tilt.RIGHT for _, e in evs)
    gaps = [b[0] - a[0] for a, b in zip(evs, evs[1:])]
    assert gaps[0] >= 150 and gaps[-1] < gaps[0]     # accelerates
    back_to_level(src, t)
    assert run(t, 3000) == []


@pytest.mark.parametrize("chip", sorted(CHIPS))
@pytest.mark.parametrize("way, want", [(1, tilt.RIGHT), (-1, tilt.LEFT)])
def test_a_turn_past_half_a_turn_steps_one_way_only(chip, way, want):
    # 100 deg/s for 2.2 s: 220 degrees, held at the clamp of 180, not
    # wrapped round to a tilt the other way
    src, t = make(chip)
    src.set_tilt(100 * way, 0)
    evs = run(t, 2200)
    assert abs(t.angle[0]) == tilt._LIMIT
    src.hold_still()
    evs += run(t, 1000)
    assert evs and {e for _, e in evs} == {want}


class OffsetGyro:
    """A gyro still on the table, reading `rate` mdps on its x axis: an
    offset left after calibration, inside the rate band that counts as rest."""

    def __init__(self):
        self.rate = 0

    def read_rates(self, out):
        out[0], out[1], out[2] = self.rate, 0, 0


def test_quick_turns_do_not_add_up_to_a_drift():
    # 20 turns of 2.5 s each, every one ending in a reset (an AI reply, a
    # key wait, a menu), then a minute of rest: the drift rule measures 3 s
    # still from a reset; its rate sum once ran on from the turns before,
    # and 20 of them made a 0.6 dps offset a 10 dps bias: the cursor ran off
    g = OffsetGyro()
    t = tilt.Tilt(g, (0, 1), (1, 1))
    t.calibrate(samples=2, gap_ms=0)
    bias = list(t.bias)
    g.rate = 600
    now = 0
    for _ in range(20):
        for _ in range(125):
            now += 20
            assert t.poll(now) == 0
        t.reset()
    steps = 0
    for _ in range(3000):
        now += 20
        steps += t.poll(now) != 0
    assert steps == 0 and list(t.bias) == bias


@pytest.mark.parametrize("chip", sorted(CHIPS))
def test_small_tilts_inside_the_dead_zone_never_step(chip):
    # 40 deg/s for 180 ms: about 4/5 of the dead zone
    src, t = make(chip)
    assert 6 * tilt._DEAD // 10 < 40 * 180 < 9 * tilt._DEAD // 10
    src.set_tilt(40, 0)
    evs = run(t, 180)
    src.hold_still()
    evs += run(t, 3000)
    assert evs == []
    # held a little tilted, that is the new level: the same small tilt
    # again, the same way, still does not step
    src.set_tilt(40, 0)
    evs = run(t, 180)
    src.hold_still()
    evs += run(t, 1000)
    assert evs == []
    # past the dead zone it does
    src.set_tilt(0, -60)
    evs = run(t, 250)
    src.hold_still()
    assert [e for _, e in evs + run(t, 300)][:1] == [tilt.DOWN]


@pytest.mark.parametrize("chip", sorted(CHIPS))
def test_a_diagonal_gesture_steps_both_ways(chip):
    src, t = make(chip)
    src.set_tilt(60, 60)
    evs = run(t, 200)
    src.set_tilt(-60, -60)
    evs += run(t, 200)
    src.hold_still()
    evs += run(t, 2000)
    assert sorted(e for _, e in evs) == [tilt.RIGHT, tilt.UP]


@pytest.mark.parametrize("chip", sorted(CHIPS))
def test_calibration_taken_while_moving_is_taken_again_at_rest(chip):
    # the player is still putting the device down for the first 100 ms of
    # the calibration: that pass is thrown away, so the bias is the resting
    # one (the model's, within its noise), and the cursor stays put
    bias = (3000, -4000, 1500)
    src, t = make(chip, bias)
    moving_until = time.ticks_ms() + 100
    src.set_motion(lambda ms: (0, 40) if ms < moving_until else (0, 0))
    t.calibrate()
    assert all(abs(a - b) <= 200 for a, b in zip(t.bias, bias)), t.bias
    src.hold_still()
    assert run(t, 20000) == []


@pytest.mark.parametrize("chip", sorted(CHIPS))
def test_a_device_tilted_through_a_pause_stops_when_levelled(chip):
    """A stone placed (or the menu opened) with the device still tilted:
    reset() after the AI's move must not take that tilt as level, or the
    device held level afterwards reads as tilted the other way and the
    cursor runs to the edge, for good."""
    src, t = make(chip)
    src.set_tilt(60, 0)
    run(t, 250)                 # 15 degrees right, held
    src.hold_still()
    run(t, 600)
    time.sleep_ms(900)          # the AI thinks: no polls
    t.reset()
    evs = run(t, 300)           # still tilted: the cursor goes on right
    assert evs and all(e == tilt.RIGHT for _, e in evs)
    back_to_level(src, t)
    assert run(t, 10000) == []


@pytest.mark.parametrize("chip", sorted(CHIPS))
def test_a_wrong_guess_of_level_is_undone_by_the_same_rule(chip):
    """The tilt the gyro saw is still held when the AI answers (reset()):
    after _RELEVEL_MS it is taken as level, wrongly. Levelled, the device
    reads as tilted the other way; the cursor runs back for one
    _RELEVEL_MS, not for good: the turn through the dead zone does not
    make that wrong level trusted."""
    src, t = make(chip)
    src.set_tilt(60, 0)
    run(t, 250)                 # 15 degrees right, as the gyro saw
    src.hold_still()
    time.sleep_ms(900)          # the AI thinks: no polls
    t.reset()                   # as after the AI's move
    run(t, tilt._RELEVEL_MS + 1000)
    assert t.angle[0] == 0      # taken as level
    back_to_level(src, t)
    evs = run(t, 20000)
    assert evs and all(e == tilt.LEFT for _, e in evs)
    assert evs[-1][0] - evs[0][0] < tilt._RELEVEL_MS + 500
    assert t.angle[0] == 0
    src.set_tilt(60, 0)         # a step right and back: a turn seen into
    run(t, 250)                 # the dead zone, so the level is trusted
    back_to_level(src, t)       # again, and a tilt held at the edge stays
    src.set_tilt(60, 0)
    run(t, 250)
    src.hold_still()
    evs = run(t, tilt._RELEVEL_MS + 1000)
    assert evs[-1][0] - evs[0][0] > tilt._RELEVEL_MS
    back_to_level(src, t)
    assert run(t, 10000) == []


@pytest.mark.parametrize("chip", sorted(CHIPS))
def test_a_menu_takes_no_steps_from_a_tilt_held_into_it(chip):
    """reset(quiet=True), as a menu opens: the tilt the device is held at
    steps nothing; once it has been level, tilts step as ever."""
    src, t = make(chip)
    src.set_tilt(60, 0)
    run(t, 250)                 # 15 degrees right, held
    src.hold_still()
    assert run(t, 600)          # the board's cursor steps
    t.reset(True)
    assert run(t, tilt._RELEVEL_MS // 2) == []
    back_to_level(src, t)
    assert run(t, 2000) == []   # the way back is no step either
    src.set_tilt(60, 0)
    run(t, 250)
    src.hold_still()
    evs = run(t, 600)
    assert evs and all(e == tilt.RIGHT for _, e in evs)


@pytest.mark.parametrize("chip", sorted(CHIPS))
def test_a_turn_made_between_polls_is_levelled_after_a_still_spell(chip):
    """Levelled while no one polled (during the AI's move), the device
    still reads as tilted: held still past the dead zone, it is taken as
    level after _RELEVEL_MS, and stays so. A deliberate hold of a few
    seconds (the cursor across the board) is far shorter."""
    src, t = make(chip)
    src.hold_still()
    t.angle[0] = 15000          # the turn back to level went unseen
    t.reset()                   # as after the AI's move
    evs = run(t, tilt._RELEVEL_MS + 200)
    assert evs and all(e == tilt.RIGHT for _, e in evs)
    assert evs[-1][0] - evs[0][0] > tilt._RELEVEL_MS - 300
    assert t.angle[0] == 0
    assert run(t, 10000) == []
    assert tilt._RELEVEL_MS >= 2 * 2500     # the held-tilt test's 2.5 s, twice over


@pytest.mark.parametrize("pause", [False, True], ids=["polled", "short-pause"])
@pytest.mark.parametrize("chip", sorted(CHIPS))
def test_a_long_hold_the_gyro_saw_is_never_taken_as_level(chip, pause):
    """The player holds the cursor against the edge for longer than
    _RELEVEL_MS, then levels the device: the cursor stops there, and does
    not run back the other way. So too after reset() following a pause no
    longer than _MAX_DT_MS (a quick AI reply, a redraw): the gyro was read
    on both sides of it, so the tilt held through it is one it saw (taken
    as unseen, it ran back across the board)."""
    src, t = make(chip)
    src.set_tilt(60, 0)
    run(t, 250)                 # 15 degrees right, as the gyro saw
    src.hold_still()
    if pause:
        run(t, 600)
        time.sleep_ms(tilt._MAX_DT_MS)
        t.reset()
    evs = run(t, tilt._RELEVEL_MS + 1000)
    assert evs and all(e == tilt.RIGHT for _, e in evs)
    assert evs[-1][0] - evs[0][0] > tilt._RELEVEL_MS
    back_to_level(src, t)
    assert run(t, 10000) == []


# a turn about each axis, and the step a gesture about it gives; the
# forward axis has sign -1 on the L3G4200D boards
AXES = {"right": (0, tilt.RIGHT), "forward": (1, tilt.UP)}


@pytest.mark.parametrize("axis", sorted(AXES))
@pytest.mark.parametrize("chip", sorted(CHIPS))
def test_a_bias_the_calibration_missed_is_taken_in_and_the_cursor_stops(
        chip, axis):
    """The device turned slowly and steadily through the calibration (lifted
    from the table), so its bias is 4 dps off and calibrate() cannot tell:
    a steady turn is as still as a device at rest to it. Held still after,
    the device read as turning on and on, and the cursor ran to the edge
    for good. A rate steady for _DRIFT_MS is taken into the bias: a step or
    two, then the cursor stops, and the bias is the chip's."""
    a, step = AXES[axis]
    bias = (3000, -4000, 1500)
    src, t = make(chip, bias)
    assert t._signs[a] == CHIPS[chip][2][a]
    turn = [0, 0]
    turn[a] = 4
    src.set_tilt(*turn)
    t.calibrate()
    src.hold_still()
    evs = run(t, 20000)
    start = evs[0][0] if evs else 0
    assert all(when - start < 3000 for when, _ in evs), evs
    assert all(abs(x - b) <= 300 for x, b in zip(t.bias, bias)), t.bias
    # the cursor still answers a tilt, once a gesture
    turn[a] = 60
    src.set_tilt(*turn)
    evs = run(t, 250)
    turn[a] = -60
    src.set_tilt(*turn)
    evs += run(t, 250)
    src.hold_still()
    assert [e for _, e in evs + run(t, 3000)] == [step]


@pytest.mark.parametrize("chip", sorted(CHIPS))
def test_a_slow_tilt_of_the_hand_is_not_taken_for_bias(chip):
    """A hand tilting the device at 12 dps, steadily for seconds, is a tilt
    (faster than _DRIFT_MAX): the cursor keeps stepping and the bias stays."""
    bias = (3000, -4000, 1500)
    src, t = make(chip, bias)
    before = list(t.bias)
    src.set_tilt(12, 0)
    evs = run(t, 6000)
    assert t.bias == before
    late = [e for when, e in evs if when - evs[0][0] > 3000]
    assert late and all(e == tilt.RIGHT for e in late)
