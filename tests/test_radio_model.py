"""The NRF24L01 model against the datasheet, driven by raw SPI commands
(not through the driver), two radios on one simulated medium."""
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


class Raw:
    """Bare SPI access to one model, as a logic analyser would see it."""

    def __init__(self, idx, medium, plus=True):
        self.cs, self.ce, self.irq = 5 + 100 * idx, 14 + 100 * idx, 22 + 100 * idx
        self.bus = idx * 10
        self.model = N.NRF24L01Model(self.ce, self.irq, medium, "nrf%d" % idx,
                                     plus=plus)
        machine.attach_spi(self.bus, self.cs, self.model, "nrf%d" % idx)
        self.spi = machine.SPI(self.bus, baudrate=4000000)
        self.csp = machine.Pin(self.cs, machine.Pin.OUT, value=1)
        self.cep = machine.Pin(self.ce, machine.Pin.OUT, value=0)

    def xfer(self, *data):
        self.csp(0)
        rx = bytearray(len(data))
        self.spi.write_readinto(bytes(data), rx)
        self.csp(1)
        return bytes(rx)

    def w(self, reg, *vals):
        return self.xfer(N.W_REGISTER | reg, *vals)[0]

    def r(self, reg, n=1):
        out = self.xfer(N.R_REGISTER | reg, *([0xFF] * n))[1:]
        return out[0] if n == 1 else out

    def status(self):
        return self.xfer(N.NOP)[0]

    def setup(self, rx, own, peer, dpl=True, retr=0x15, ch=76):
        self.w(N.SETUP_RETR, retr)
        self.w(N.RF_CH, ch)
        self.w(N.RF_SETUP, 0x06)
        if dpl:
            self.w(N.FEATURE, N.EN_DPL | N.EN_ACK_PAY | N.EN_DYN_ACK)
            self.w(N.DYNPD, 0x3F)
        self.w(N.RX_ADDR_P0, *peer)
        self.w(N.TX_ADDR, *peer)
        self.w(N.RX_ADDR_P1, *own)
        self.w(N.CONFIG, N.EN_CRC | N.CRCO | N.PWR_UP | (N.PRIM_RX if rx else 0))
        sim_clock.advance_us(1500)
        if rx:
            self.cep(1)
            sim_clock.advance_us(130)

    def activate(self, key=N.ACTIVATE_KEY):
        return self.xfer(N.ACTIVATE, key)[0]

    def load(self, payload, cmd=N.W_TX_PAYLOAD):
        self.xfer(cmd, *payload)

    def pulse(self, us=15):
        self.cep(1)
        sim_clock.advance_us(us)
        self.cep(0)


A = b"\x11\x22\x33\x44\x55"
B = b"\x66\x77\x88\x99\xaa"


@pytest.fixture
def air():
    sim_clock.reset()
    machine.forget_all()
    med = Medium(seed=3)
    return med, Raw(0, med), Raw(1, med)


def test_reset_values(air):
    _, a, _ = air
    want = {N.CONFIG: 0x08, N.EN_AA: 0x3F, N.EN_RXADDR: 0x03, N.SETUP_AW: 0x03,
            N.SETUP_RETR: 0x03, N.RF_CH: 0x02, N.RF_SETUP: 0x0E, N.STATUS: 0x0E,
            N.FIFO_STATUS: 0x11, N.DYNPD: 0, N.FEATURE: 0}
    for reg, v in want.items():
        assert a.r(reg) == v, hex(reg)
    assert a.r(N.RX_ADDR_P0, 5) == b"\xe7" * 5
    assert a.r(N.RX_ADDR_P1, 5) == b"\xc2" * 5
    assert a.r(N.TX_ADDR, 5) == b"\xe7" * 5
    assert [a.r(r) for r in (0x0C, 0x0D, 0x0E, 0x0F)] == [0xC3, 0xC4, 0xC5, 0xC6]
    assert a.status() == 0x0E
    assert a.model.mode == N.POWER_DOWN
    # reserved bits do not stick; SETUP_AW reads back what was written
    a.w(N.CONFIG, 0xFF)
    assert a.r(N.CONFIG) == 0x7F
    a.w(N.SETUP_AW, 0x01)
    assert a.r(N.SETUP_AW) == 0x01


def test_tx_fifo_three_deep_and_flush(air):
    _, a, _ = air
    for i in range(4):
        a.load(bytes([i]) * 4)
    assert a.status() & N.TX_FULL
    assert a.r(N.FIFO_STATUS) & 0x30 == 0x20      # TX_FULL, not TX_EMPTY
    a.xfer(N.FLUSH_TX)
    assert a.r(N.FIFO_STATUS) & 0x30 == 0x10
    assert not a.status() & N.TX_FULL


def test_send_with_auto_ack_and_dynamic_width(air):
    _, a, b = air
    b.setup(True, B, A)
    a.setup(False, A, B)
    a.load(b"hello")
    a.pulse()
    assert machine.pin_level(a.irq) == 1
    sim_clock.advance_us(2000)
    assert a.status() & N.TX_DS
    assert machine.pin_level(a.irq) == 0          # IRQ is active low
    assert b.status() & N.RX_DR
    assert (b.status() >> 1) & 7 == 1              # RX_P_NO: pipe 1
    assert b.xfer(N.R_RX_PL_WID, 0xFF)[1] == 5
    assert b.xfer(N.R_RX_PAYLOAD, *[0xFF] * 5)[1:] == b"hello"
    assert b.r(N.FIFO_STATUS) & 1                  # RX empty again
    a.w(N.STATUS, N.TX_DS)
    assert machine.pin_level(a.irq) == 1
    assert a.r(N.OBSERVE_TX) == 0
    assert a.model.violations == [] and b.model.violations == []


def test_max_rt_keeps_payload_until_flushed(air):
    _, a, b = air
    a.setup(False, A, B, retr=0x13)                 # ARD 500 us, ARC 3
    a.load(b"lost")
    a.pulse()
    sim_clock.advance_us(10000)
    st = a.status()
    assert st & N.MAX_RT and not st & N.TX_DS
    assert a.r(N.OBSERVE_TX) == 0x13                # PLOS_CNT 1, ARC_CNT 3
    assert a.model.sent == 4                         # first try + 3 retries
    assert not a.r(N.FIFO_STATUS) & 0x10            # payload still there
    a.pulse()                                        # no TX while MAX_RT set
    sim_clock.advance_us(5000)
    assert a.model.sent == 4
    a.xfer(N.FLUSH_TX)
    a.w(N.STATUS, N.MAX_RT)
    assert a.r(N.FIFO_STATUS) & 0x10
    a.w(N.RF_CH, 76)                                 # writing RF_CH clears PLOS
    assert a.r(N.OBSERVE_TX) >> 4 == 0


def test_receiver_drops_wrong_channel_rate_address(air):
    _, a, b = air
    b.setup(True, B, A, ch=10)
    a.setup(False, A, B, retr=0x11, ch=11)
    a.load(b"x")
    a.pulse()
    sim_clock.advance_us(5000)
    assert a.status() & N.MAX_RT and b.model.received == 0
    a.xfer(N.FLUSH_TX)
    a.w(N.STATUS, N.MAX_RT)
    a.w(N.RF_CH, 10)
    a.w(N.RF_SETUP, 0x0E)                            # 2 Mbps vs 1 Mbps
    a.load(b"x")
    a.pulse()
    sim_clock.advance_us(5000)
    assert b.model.received == 0
    a.xfer(N.FLUSH_TX)
    a.w(N.STATUS, N.MAX_RT)
    a.w(N.RF_SETUP, 0x06)
    a.w(N.TX_ADDR, *b"\x01\x02\x03\x04\x05")       # nobody listens there
    a.load(b"x")
    a.pulse()
    sim_clock.advance_us(5000)
    assert b.model.received == 0
    a.xfer(N.FLUSH_TX)
    a.w(N.STATUS, N.MAX_RT)
    a.w(N.TX_ADDR, *B)
    a.load(b"x")
    a.pulse()
    sim_clock.advance_us(5000)
    assert b.model.received == 1 and a.status() & N.TX_DS


def test_lost_ack_retransmit_is_discarded_by_pid(air):
    med, a, b = air
    b.setup(True, B, A)
    a.setup(False, A, B, retr=0x1F)
    # lose exactly the first ACK: the retransmission (same PID, same CRC)
    # is acknowledged but not stored a second time
    orig = a.model.ack_in
    state = {"n": 0}

    def ack_in(frame, ack):
        state["n"] += 1
        if state["n"] > 1:
            orig(frame, ack)
    a.model.ack_in = ack_in
    a.load(b"once")
    a.pulse()
    sim_clock.advance_us(5000)
    assert a.status() & N.TX_DS
    assert a.r(N.OBSERVE_TX) & 0x0F == 1              # one retransmission
    assert b.model.received == 1
    assert b.r(N.FIFO_STATUS) & 1 == 0
    b.xfer(N.R_RX_PAYLOAD, *[0xFF] * 4)
    assert b.r(N.FIFO_STATUS) & 1                     # nothing else queued


def test_rx_fifo_full_is_not_acked(air):
    _, a, b = air
    b.setup(True, B, A)
    a.setup(False, A, B, retr=0x12)
    for i in range(4):
        a.load(bytes([i]))
        a.pulse()
        sim_clock.advance_us(4000)
        st = a.status()
        a.w(N.STATUS, 0x70)
        if i < 3:
            assert st & N.TX_DS
        else:
            assert st & N.MAX_RT
            a.xfer(N.FLUSH_TX)
    assert b.r(N.FIFO_STATUS) & 2                     # RX_FULL


def test_ack_payload_and_noack(air):
    _, a, b = air
    b.setup(True, B, A)
    a.setup(False, A, B)
    b.xfer(N.W_ACK_PAYLOAD | 1, *b"pong")
    a.load(b"ping")
    a.pulse()
    sim_clock.advance_us(3000)
    st = a.status()
    assert st & N.TX_DS and st & N.RX_DR
    assert a.xfer(N.R_RX_PAYLOAD, *[0xFF] * 4)[1:] == b"pong"
    a.w(N.STATUS, 0x70)
    acks = b.model.sent
    a.load(b"quiet", N.W_TX_PAYLOAD_NOACK)
    a.pulse()
    sim_clock.advance_us(3000)
    assert a.status() & N.TX_DS and b.model.received == 2
    assert b.model.sent == acks


def test_irq_masks_and_ce_timing(air):
    _, a, b = air
    a.setup(False, A, B, retr=0x10)
    a.w(N.CONFIG, N.EN_CRC | N.PWR_UP | 0x10)          # MASK_MAX_RT
    a.load(b"x")
    a.pulse()
    sim_clock.advance_us(3000)
    assert a.status() & N.MAX_RT
    assert machine.pin_level(a.irq) == 1               # masked: IRQ stays high
    a.xfer(N.FLUSH_TX)
    a.w(N.STATUS, N.MAX_RT)
    a.load(b"x")
    a.pulse(3)                                         # too short a CE pulse
    sim_clock.advance_us(3000)
    assert a.model.violations == ["CE pulse shorter than 10 us"]


def test_tx_before_oscillator_start_is_flagged(air):
    _, a, b = air
    a.w(N.CONFIG, N.EN_CRC | N.PWR_UP)
    a.load(b"x")
    a.pulse()
    assert any("Tpd2stby" in v for v in a.model.violations)


def test_ard_too_short_for_ack_payload_at_250k(air):
    _, a, b = air
    b.setup(True, B, A, retr=0x03)
    a.setup(False, A, B, retr=0x03)                      # ARD 250 us
    for r in (a, b):
        r.cep(0)
        r.w(N.RF_SETUP, 0x26)                            # 250 kbps
        r.cep(1 if r is b else 0)
    sim_clock.advance_us(200)
    b.xfer(N.W_ACK_PAYLOAD | 1, *b"0123456789")
    a.load(b"x")
    a.pulse()
    sim_clock.advance_us(20000)
    assert a.status() & N.MAX_RT                         # the ACK never fits
    assert b.model.received == 1


def test_reuse_tx_pl_sends_the_same_payload_again(air):
    _, a, b = air
    b.setup(True, B, A)
    a.setup(False, A, B)
    a.load(b"again", N.W_TX_PAYLOAD_NOACK)
    a.xfer(N.REUSE_TX_PL)
    assert a.r(N.FIFO_STATUS) & 0x40                   # TX_REUSE
    for _ in range(3):
        a.pulse()
        sim_clock.advance_us(1000)
        assert a.status() & N.TX_DS
        a.w(N.STATUS, N.TX_DS)
    assert a.model.sent == 3 and b.model.received == 3
    assert not a.r(N.FIFO_STATUS) & 0x10               # still in the FIFO
    a.xfer(N.FLUSH_TX)                                 # ends the reuse
    assert a.r(N.FIFO_STATUS) & 0x50 == 0x10


def test_ce_toggle_after_max_rt_resends_with_the_same_pid(air):
    med, a, b = air
    frames = []
    med.listeners.append(lambda f: frames.append((f.payload, f.pid))
                         if f.sender is a.model else None)
    a.setup(False, A, B, retr=0x11)
    a.load(b"late")
    a.pulse()
    sim_clock.advance_us(4000)
    assert a.status() & N.MAX_RT
    b.setup(True, B, A)                                # the peer wakes up
    a.w(N.STATUS, N.MAX_RT)
    a.pulse()
    sim_clock.advance_us(4000)
    assert a.status() & N.TX_DS and b.model.received == 1
    a.w(N.STATUS, N.TX_DS)
    a.load(b"next")
    a.pulse()
    sim_clock.advance_us(4000)
    assert b.model.received == 2
    late = {pid for p, pid in frames if p == b"late"}
    nxt = {pid for p, pid in frames if p == b"next"}
    assert len([1 for p, _ in frames if p == b"late"]) == 3
    assert len(late) == 1 and len(nxt) == 1 and late != nxt


# ---- the original nRF24L01 (Product Specification v2.0) -------------------

@pytest.fixture
def old_air():
    """Two nRF24L01 (not +) radios."""
    sim_clock.reset()
    machine.forget_all()
    med = Medium(seed=3)
    return med, Raw(0, med, plus=False), Raw(1, med, plus=False)


def test_v2_reset_values_and_no_250k(old_air):
    _, a, _ = old_air
    assert a.r(N.RF_SETUP) == 0x0F                 # LNA_HCURR set at reset
    assert a.r(N.FEATURE) == 0 and a.r(N.DYNPD) == 0
    a.w(N.RF_SETUP, 0x26)                           # 250 kbps on a +
    assert a.r(N.RF_SETUP) == 0x06                  # bits 7:5 reserved: 1 Mbps
    a.w(N.RF_SETUP, 0xFF)
    assert a.r(N.RF_SETUP) == 0x1F


def test_v2_features_are_off_until_activate_which_toggles(old_air):
    _, a, _ = old_air
    a.w(N.FEATURE, N.EN_DPL)
    a.w(N.DYNPD, 0x3F)
    assert a.r(N.FEATURE) == 0 and a.r(N.DYNPD) == 0     # writes ignored
    assert a.activate(0x72) == 0x0E                # STATUS out; wrong key
    a.w(N.FEATURE, N.EN_DPL)
    assert a.r(N.FEATURE) == 0
    a.activate()
    a.w(N.FEATURE, N.EN_DPL | N.EN_ACK_PAY)
    a.w(N.DYNPD, 0x03)
    assert a.r(N.FEATURE) == N.EN_DPL | N.EN_ACK_PAY and a.r(N.DYNPD) == 0x03
    a.activate()                                   # the same again: off
    assert a.r(N.FEATURE) == 0 and a.r(N.DYNPD) == 0
    a.w(N.FEATURE, N.EN_DYN_ACK)
    a.activate()                                   # on once more
    assert not a.r(N.FEATURE) & N.EN_DYN_ACK       # that write had no effect
    a.model.power_cycle()
    assert a.r(N.FEATURE) == 0 and not a.model.activated
    assert a.model.violations == []


def test_v2_without_activate_no_dynamic_payload_is_received(old_air):
    _, a, b = old_air
    b.setup(True, B, A)                    # FEATURE/DYNPD written, not taken
    a.setup(False, A, B, retr=0x11)
    a.load(b"hello")
    a.pulse()
    sim_clock.advance_us(5000)
    # no length on air, and pipe 1's static width is 0: nothing arrives
    assert a.status() & N.MAX_RT and b.model.received == 0
    assert b.xfer(N.R_RX_PL_WID, 0xFF)[1] == 0
    for r in (a, b):                       # ACTIVATE in standby / power down
        r.cep(0)
        r.w(N.CONFIG, N.EN_CRC | N.CRCO)
        r.activate()
        r.w(N.FEATURE, N.EN_DPL)
        r.w(N.DYNPD, 0x3F)
    a.xfer(N.FLUSH_TX)
    a.w(N.STATUS, 0x70)
    b.setup(True, B, A)
    a.setup(False, A, B)
    a.load(b"hello")
    a.pulse()
    sim_clock.advance_us(3000)
    assert a.status() & N.TX_DS and b.model.received == 1
    assert b.xfer(N.R_RX_PL_WID, 0xFF)[1] == 5
    assert b.xfer(N.R_RX_PAYLOAD, *[0xFF] * 5)[1:] == b"hello"
    assert a.model.violations == [] and b.model.violations == []


def test_v2_ack_payload_and_noack_need_activate(old_air):
    _, a, b = old_air
    b.setup(True, B, A, dpl=False)
    a.setup(False, A, B, dpl=False)
    b.w(N.RX_PW_P0 + 1, 4)
    b.xfer(N.W_ACK_PAYLOAD | 1, *b"pong")          # not a command yet
    assert b.model.tx_fifo == []
    a.load(b"ping", N.W_TX_PAYLOAD_NOACK)          # nor this
    assert a.model.tx_fifo == []
    a.load(b"ping")
    a.pulse()
    sim_clock.advance_us(3000)
    assert a.status() & N.TX_DS and b.model.received == 1   # static width
    assert a.model.violations == [] and b.model.violations == []


def test_activate_only_in_power_down_or_standby(old_air):
    _, _, b = old_air
    b.setup(True, B, A)                            # RX mode
    b.activate()
    assert not b.model.activated
    assert any("ACTIVATE" in v for v in b.model.violations)


def test_activate_is_no_command_on_the_plus(air):
    _, a, _ = air
    a.w(N.FEATURE, N.EN_DPL)                       # works without it
    assert a.r(N.FEATURE) == N.EN_DPL
    a.activate()
    assert a.r(N.FEATURE) == N.EN_DPL              # no toggle
    a.w(N.DYNPD, 0x3F)
    assert a.r(N.DYNPD) == 0x3F
    assert a.model.violations == []


def test_v2_and_plus_talk_at_1m_not_at_250k(air):
    med = air[0]
    old = Raw(2, med, plus=False)
    _, b = air[1], air[2]
    b.setup(True, B, A, dpl=False)
    b.w(N.RX_PW_P0 + 1, 1)
    old.setup(False, A, B, dpl=False)
    old.cep(0)
    old.w(N.RF_SETUP, 0x26)                  # asks 250 kbps: stays at 1 Mbps
    old.load(b"x")
    old.pulse()
    sim_clock.advance_us(3000)
    assert old.status() & N.TX_DS and b.model.received == 1
    old.w(N.STATUS, 0x70)
    b.cep(0)
    b.w(N.RF_SETUP, 0x26)                    # the + does go to 250 kbps
    b.cep(1)
    sim_clock.advance_us(200)
    old.w(N.SETUP_RETR, 0x11)
    old.load(b"y")
    old.pulse()
    sim_clock.advance_us(5000)
    assert old.status() & N.MAX_RT and b.model.received == 1
