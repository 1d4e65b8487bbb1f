"""The NRF24L01's IRQ wire: a board file names an irq pin, but the wire is
missing (or on another GPIO), so the pin reads its pull-up for ever. The
driver used to wait out every send's timeout and report False: wireless
play never connected, and nothing said why. Now the boot self-test
(check_wires) and a send that times out with a flag set in STATUS raise
OSError naming the pin, and the boot note says so on the screen and the
console; a wired IRQ passes and works as before."""
import os
import sys

import pytest

import host_sim

host_sim.install()
sys.path.append(os.path.join(host_sim.ROOT, "host_sim"))

import machine  # noqa: E402
import sim_clock  # noqa: E402
import nrf24l01_model as N  # noqa: E402
from radio_medium import Medium  # noqa: E402
import nrf24l01  # noqa: E402
import board_sim  # noqa: E402
import board_view as bv  # noqa: E402
import upy  # noqa: E402
from test_radio_driver import driver, node  # noqa: E402
from app_script import Script, layout, run_device  # noqa: E402

IRQ_MSG = ("NRF24L01 IRQ pin Pin(22) stays high while the chip signals an "
           "interrupt")
ADVICE = "check the IRQ wire, or leave irq out of the board file"


def fresh(irq_wired=True, ce_wired=True):
    """Radio a (its IRQ and CE wires as given) and a wired peer b, each one's
    TX address the other's RX, on one fresh medium."""
    sim_clock.reset()
    machine.forget_all()
    med = Medium(seed=5)
    ma = N.NRF24L01Model(14 if ce_wired else None, 22 if irq_wired else None,
                         med)
    machine.attach_spi(0, 5, ma, "nrf0")
    a = driver(0)                       # the driver still has Pin(22)
    mb, b = node(1, med)
    a.open_tx_pipe(b"BBBBB")
    a.open_rx_pipe(1, b"AAAAA")
    b.open_tx_pipe(b"AAAAA")
    b.open_rx_pipe(1, b"BBBBB")
    return med, ma, a, mb, b


# ---- the model drives its IRQ pin as the datasheet says -------------------

def test_model_irq_low_until_every_unmasked_flag_is_cleared():
    med, ma, a, mb, b = fresh()
    assert machine.pin_level(22) == 1           # power-on: no flags
    ma._flag(N.RX_DR)
    ma._flag(N.TX_DS)
    assert machine.pin_level(22) == 0
    a._reg_write(N.STATUS, N.TX_DS)             # one cleared, RX_DR still set
    assert machine.pin_level(22) == 0
    a._reg_write(N.CONFIG, N.EN_CRC | 0x40)     # MASK_RX_DR
    assert machine.pin_level(22) == 1
    a._reg_write(N.CONFIG, N.EN_CRC)            # unmasked again: low
    assert machine.pin_level(22) == 0
    a._reg_write(N.STATUS, N.RX_DR)
    assert machine.pin_level(22) == 1


def test_model_without_irq_wire_leaves_the_pin_to_its_pull_up():
    med, ma, a, mb, b = fresh(irq_wired=False)
    ma._flag(N.MAX_RT)
    assert a.status() & N.MAX_RT
    assert machine.pin_level(22) == 1 and a.irq.value() == 1


# ---- the driver -------------------------------------------------------------

def test_send_with_the_irq_wire_missing_raises_a_clear_error():
    # the old driver: False after 100 ms, every time, and nothing said why
    med, ma, a, mb, b = fresh(irq_wired=False)
    b.start_listening()
    t0 = sim_clock.now_us()
    with pytest.raises(OSError) as e:
        a.send(b"hello")
    msg = str(e.value)
    assert msg.startswith(IRQ_MSG) and ADVICE in msg
    assert "STATUS 0x2e" in msg                 # TX_DS: it was acknowledged
    assert sim_clock.now_us() - t0 >= 100000    # after the send's timeout
    # the chip is left clean: flags cleared, FIFO empty, powered down
    assert not ma.regs[N.STATUS] & 0x70 and ma.tx_fifo == []
    assert ma.mode == N.POWER_DOWN
    assert b.recv() == 5 and bytes(b.rx[:5]) == b"hello"
    assert ma.violations == [] and mb.violations == []


def test_send_to_nobody_with_the_irq_wire_missing_names_max_rt_too():
    med, ma, a, mb, b = fresh(irq_wired=False)
    with pytest.raises(OSError) as e:           # b not listening: MAX_RT
        a.send(b"x")
    assert str(e.value).startswith(IRQ_MSG) and "STATUS 0x1e" in str(e.value)
    # MAX_RT keeps the payload until flushed: the driver flushes it and
    # clears the flag, as after a send the pin reported
    assert ma.tx_fifo == [] and not ma.regs[N.STATUS] & 0x70
    assert ma.mode == N.POWER_DOWN


def test_check_wires_at_boot_names_the_pin():
    med, ma, a, mb, b = fresh(irq_wired=False)
    b.start_listening()
    t0 = sim_clock.now_us()
    with pytest.raises(OSError) as e:
        a.check_wires()
    msg = str(e.value)
    assert msg.startswith(IRQ_MSG) and ADVICE in msg
    assert sim_clock.now_us() - t0 < 10000      # ~5 ms, not a timeout
    assert ma.violations == [] and mb.violations == []


def check_wires_leaves_everything_as_it_was(listening):
    med, ma, a, mb, b = fresh()
    frames = []
    med.listeners.append(lambda f: frames.append(
        (f, ma.regs[N.RF_SETUP], ma.regs[N.SETUP_RETR])))
    b.start_listening()
    if listening:
        a.start_listening()
    before = bytes(ma.regs)
    a.check_wires()
    # one packet at -18 dBm on the configured channel, to an address no one
    # listens on, without a retransmission (ARC 0): the peer hears nothing
    assert len(frames) == 1
    f, rf_setup, setup_retr = frames[0]
    assert f.channel == 76 and f.addr not in (b"AAAAA", b"BBBBB")
    assert rf_setup & 0x06 == 0 and setup_retr & 0x0F == 0
    assert ma.retransmits == 0 and mb.received == 0 and not b.any()
    # SETUP_RETR, RF_SETUP, CONFIG, OBSERVE_TX (PLOS_CNT) as they were; the
    # addresses at their reset value (open_tx_pipe comes before a send)
    assert bytes(ma.regs) == before
    assert bytes(ma.addr[N.TX_ADDR]) == b"\xe7" * 5
    assert ma.rx_address(0) == b"\xe7" * 5
    assert a.lost == 0 and a.retries == 0
    assert machine.pin_level(22) == 1
    assert a.listening == listening
    assert ma.mode == (N.RX_MODE if listening else N.POWER_DOWN)
    # and it works as before
    a.open_tx_pipe(b"BBBBB")
    assert a.send(b"after the test") is True
    assert b.recv() == 14 and bytes(b.rx[:14]) == b"after the test"
    assert a.listening == listening
    assert ma.violations == [] and mb.violations == []


def test_check_wires_with_the_wire_passes_and_restores_the_chip():
    check_wires_leaves_everything_as_it_was(False)


def test_check_wires_while_listening_goes_back_to_listening():
    check_wires_leaves_everything_as_it_was(True)


def no_irq_pin(ce_wired=True):
    """A radio whose board file names no irq pin, and its model."""
    sim_clock.reset()
    machine.forget_all()
    ma = N.NRF24L01Model(14 if ce_wired else None, None, Medium(seed=5))
    machine.attach_spi(0, 5, ma, "nrf0")
    a = nrf24l01.NRF24L01(machine.SPI(0, baudrate=4000000), machine.Pin(5),
                          machine.Pin(14))
    return ma, a


def test_check_wires_without_an_irq_pin_still_tests_ce():
    # one packet, polled over SPI, and the chip back in power down
    ma, a = no_irq_pin()
    a.check_wires()
    assert ma.sent == 1 and ma.violations == []
    assert ma.mode == N.POWER_DOWN and ma.tx_fifo == []


def test_check_wires_without_an_irq_pin_names_a_missing_ce():
    # a board with no IRQ wire used to find a missing CE only as every
    # send failing after 100 ms, with no message
    ma, a = no_irq_pin(ce_wired=False)
    with pytest.raises(OSError) as e:
        a.check_wires()
    msg = str(e.value)
    assert "did not finish a test send in 20 ms" in msg
    assert "check the CE wire (ce=Pin(14))" in msg
    assert ma.sent == 0 and ma.tx_fifo == [] and ma.mode == N.POWER_DOWN


def test_check_wires_on_unix_port():
    code = """
import machine, sim_clock
from radio_medium import Medium
from nrf24l01_model import NRF24L01Model
import nrf24l01
for wired in (True, False):
    machine.forget_all()
    m = NRF24L01Model(14, 22 if wired else None, Medium(seed=1))
    machine.attach_spi(0, 5, m, "nrf")
    d = nrf24l01.NRF24L01(machine.SPI(0, baudrate=4000000), machine.Pin(5),
                          machine.Pin(14), machine.Pin(22))
    try:
        d.check_wires()
        print("ok", m.sent, m.regs[4], m.mode, m.violations)
    except OSError as e:
        print(e)
"""
    out = upy.run(code, heapsize="256k", shims=True,
                  extra_path=[upy.ROOT / "host_sim" / "chips",
                              upy.ROOT / "host_sim"]).split("\n")
    assert out[0] == "ok 1 21 power_down []"
    assert out[1].startswith(IRQ_MSG) and ADVICE in out[1]


# ---- the app: a note at boot, local play still works ------------------------

def test_boot_note_on_screen_and_console_and_play_still_works(flash,
                                                                     capsys):
    s = Script(start_ms=700)
    s.note_then_a_move_vs_ai(layout(board_sim))
    dev = run_device(board_sim, s.end(), str(flash), irq_wire=False)
    out = capsys.readouterr().out
    assert ("Radio NRF24L01 miswired (SPI0 sck=6 mosi=7 miso=4 cs=5 ce=14 "
            "irq=22): " + IRQ_MSG) in out
    assert ADVICE + ". Wireless match is off" in out
    assert bv.ALERT in dev.snaps["note"]
    stones = dev.snaps["stones"]
    assert stones.count(bv.BLACK) == 1 and stones.count(bv.WHITE) == 1
    assert dev.radio.violations == []


def test_wired_irq_boots_without_a_note(flash, capsys):
    from host_sim import device
    dev = device.Device(board_sim, str(flash))
    dev.run(until_ms=900)
    out = capsys.readouterr().out
    assert "Radio" not in out
    assert dev.radio.sent == 1 and dev.radio.violations == []
    assert dev.radio.mode == N.POWER_DOWN
