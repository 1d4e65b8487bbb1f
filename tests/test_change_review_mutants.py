"""Mutants of session 59's changes that the area tests let live (a hand
mutation review): each test here fails on its mutant and matters on a
board or to a user. The calibration's limits, a diagonal's queued step,
scripts at the gyros' full scale, the shim's PWM at duty 0, the pair
pipe closed after pairing, a port it cannot bind, play.py's padded moves
(and elsewhere: Pin.init and irq as strict as a board in
test_sim_review_shims, Ctrl-C while the micro:bit boots in
test_tools_review_errors)."""
import socket

import pytest

import host_sim

host_sim.install()

import machine  # noqa: E402
import sim_clock  # noqa: E402
import time  # noqa: E402
from test_app_tilt import CHIPS, BIASES, make, run  # noqa: E402


@pytest.mark.parametrize("chip", sorted(CHIPS))
def test_calibration_at_rest_takes_one_pass_even_at_the_datasheets_bias(chip):
    src, t = make(chip, BIASES[chip])
    src.hold_still()
    t0 = time.ticks_ms()
    t.calibrate(samples=32, gap_ms=5, tries=3)
    assert time.ticks_diff(time.ticks_ms(), t0) < 2 * 32 * 5


@pytest.mark.parametrize("chip", sorted(CHIPS))
def test_a_step_queued_by_a_diagonal_does_not_come_out_in_a_menu(chip):
    src, t = make(chip)
    src.set_tilt(60, 60)
    for _ in range(50):
        time.sleep_ms(20)
        t.poll(time.ticks_ms())
        if t._pending:
            break
    assert t._pending, "no second step queued"
    src.hold_still()
    t.reset(True)               # a menu opens
    assert run(t, 300) == []


@pytest.mark.parametrize("line", ["tilt 5000 0", "tilt 0 -100000",
                                  "lean 100000 0"])
def test_a_script_may_tilt_past_the_gyros_full_scale(line):
    from host_sim import device
    ev = [e for e in device.Script.parse("at 500\n" + line + "\n").events
          if e[1] in ("tilt", "lean")]
    assert len(ev) == 1


def test_pwm_at_duty_zero_never_lifts_its_pin():
    machine.forget_all()
    pin = machine.Pin(13, machine.Pin.OUT, value=0)   # a backlight, dark
    levels = []
    machine.watch_pin(13, levels.append)
    machine.PWM(pin, duty_u16=0)
    assert 1 not in levels


def test_a_pair_pipe_is_closed_when_the_link_leaves_pairing():
    import nrf24l01_model as NM
    from host_sim.radio_medium import Medium
    import nrf24l01
    import link as L
    sim_clock.reset()
    machine.forget_all()
    model = NM.NRF24L01Model(14, 22, Medium(seed=1))
    machine.attach_spi(0, 5, model, "nrf")
    r = nrf24l01.NRF24L01(machine.SPI(0, baudrate=4000000), machine.Pin(5),
                          machine.Pin(14), machine.Pin(22))
    ln = L.Link(r, seed=1)
    ln.listen_on(b"\x11\x22\x33\x44\x55", pair=True)
    assert model.regs[2] & 4
    ln.listen_on(b"\x11\x22\x33\x44\x55", pair=False)
    assert not model.regs[2] & 4


def test_a_port_it_cannot_bind_is_given_back():
    import gc
    import warnings
    from host_sim.radio_medium import UdpMedium
    busy = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    busy.bind(("127.0.0.1", 0))
    try:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            with pytest.raises(OSError):
                UdpMedium(busy.getsockname()[1], [])
            gc.collect()
        assert not [x for x in w if issubclass(x.category, ResourceWarning)]
    finally:
        busy.close()


def test_a_move_padded_past_any_real_one_is_refused_not_read():
    import play
    with pytest.raises(ValueError, match="not a move"):
        play.parse_move("h" + "0" * 30 + "8")   # h8, once read so
    assert play.parse_move("10 ,  10") == (10, 10)
