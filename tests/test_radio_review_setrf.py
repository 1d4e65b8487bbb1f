"""Review tests: NRF24L01.set_rf refuses what RF_SETUP cannot hold and
leaves the chip as it was. A rate that is not one of the driver's constants
or a power with bits outside RF_PWR was written as it came (into RF_DR_LOW,
RF_DR_HIGH, PLL_LOCK or the LNA bit); the original nRF24L01, refusing
250 kbps, was left at 1 Mbps and 0 dBm, whatever it had before, while the
driver went on as if nothing had changed."""
import pytest

from test_radio_driver import driver, fresh_pair, N, nrf24l01, machine, \
    sim_clock
from radio_medium import Medium

# not one of RATE_250K, RATE_1M, RATE_2M: the 250k and 2M bits together,
# PLL_LOCK, CONT_WAVE, a power constant passed as the rate, None
BAD_RATES = (0x28, 0x10, 0x80, nrf24l01.POWER_M6DBM, 1, None)
# RF_PWR is bits 2:1 (0, 2, 4, 6): bit 0 (LNA_HCURR), bit 3 (RF_DR_HIGH),
# a negative number, 0 dBm as a number of dBm, None
BAD_POWERS = (1, 7, 8, -2, -18, None)


@pytest.mark.parametrize("plus", [True, False], ids=["plus", "nrf24l01"])
@pytest.mark.parametrize("what", ["rate", "power"])
def test_a_bad_rate_or_power_is_a_value_error_and_rf_setup_is_kept(plus, what):
    _, ma, a, _, _ = fresh_pair(plus, plus)
    a.set_rf(nrf24l01.RATE_2M, nrf24l01.POWER_M12DBM)
    before = ma.regs[N.RF_SETUP]
    if what == "rate":
        bad, match = BAD_RATES, "NRF24L01 rate must be RATE_250K, RATE_1M or RATE_2M"
    else:
        bad, match = BAD_POWERS, ("NRF24L01 power must be POWER_M18DBM, "
                                  "POWER_M12DBM, POWER_M6DBM or POWER_0DBM")
    for v in bad:
        with pytest.raises(ValueError, match=match):
            if what == "rate":
                a.set_rf(v, nrf24l01.POWER_0DBM)
            else:
                a.set_rf(nrf24l01.RATE_1M, v)
        assert ma.regs[N.RF_SETUP] == before, v
    assert ma.violations == []


def test_the_constructor_refuses_them_before_writing_a_register():
    _, ma, a, _, _ = fresh_pair(True, True)
    before = bytes(ma.regs)
    for kw in ({"rate": 0x28}, {"power": 7}):
        with pytest.raises(ValueError):
            driver(0, **kw)
        assert bytes(ma.regs) == before, kw


def test_the_nrf24l01_refusing_250k_keeps_its_rate_and_power():
    """Both at 2 Mbps, -12 dBm; one is asked for 250 kbps: OSError, and it
    still talks to the other at 2 Mbps (it was left at 1 Mbps, 0 dBm,
    where the peer cannot hear it)."""
    _, ma, a, mb, b = fresh_pair(False, False)
    for r in (a, b):
        r.set_rf(nrf24l01.RATE_2M, nrf24l01.POWER_M12DBM)
    before = ma.regs[N.RF_SETUP]
    assert before == 0x08 | 0x02 | 0x01         # RF_DR 2M, -12 dBm, LNA
    with pytest.raises(OSError, match="250 kbps needs an nRF24L01\\+"):
        a.set_rf(nrf24l01.RATE_250K, nrf24l01.POWER_0DBM)
    assert ma.regs[N.RF_SETUP] == before
    b.start_listening()
    assert a.send(b"still 2M") is True and b.recv() == 8
    # the driver's rate is 2 Mbps too: an ARD of 250 us is allowed there
    a.set_retries(250, 3)
    assert ma.violations == [] and mb.violations == []


def test_the_nrf24l01_refusing_250k_in_the_constructor_is_left_as_reset():
    sim_clock.reset()
    machine.forget_all()
    model = N.NRF24L01Model(14, 22, Medium(seed=5), plus=False)
    machine.attach_spi(0, 5, model, "nrf0")
    with pytest.raises(OSError, match="250 kbps"):
        driver(0, rate=nrf24l01.RATE_250K, power=nrf24l01.POWER_M18DBM)
    assert model.regs[N.RF_SETUP] == 0x0F       # the nRF24L01's reset value
    assert model.violations == []
