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


def test_clearing_max_rt_with_ce_high_does_not_resend(air):
    """PS 7.8.7: after MAX_RT 'the payload in TX FIFO is NOT removed' and
    'a toggle of the CE starts a new transmitting sequence of the same
    packet': clearing MAX_RT alone, CE held high, sends nothing."""
    _, a, b = air
    a.setup(False, A, B, retr=0x10)                 # ARD 500 us, no retransmit
    a.load(b"lost")
    a.cep(1)
    sim_clock.advance_us(3000)
    assert a.status() & N.MAX_RT and a.model.sent == 1
    a.w(N.STATUS, N.MAX_RT)
    sim_clock.advance_us(3000)
    assert a.model.sent == 1 and not a.status() & N.MAX_RT
    a.cep(0)
    a.pulse()
    sim_clock.advance_us(3000)
    assert a.model.sent == 2 and a.status() & N.MAX_RT


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
    b.cep(0)                                        # registers: in standby
    b.w(N.RX_PW_P0 + 1, 4)
    b.cep(1)
    sim_clock.advance_us(130)
    b.xfer(N.W_ACK_PAYLOAD | 1, *b"pong")          # not a command yet
    assert b.model.tx_fifo == []
    a.load(b"ping", N.W_TX_PAYLOAD_NOACK)          # nor this
    assert a.model.tx_fifo == []
    a.load(b"ping")
    a.pulse()
    sim_clock.advance_us(3000)
    assert a.status() & N.TX_DS and b.model.received == 1   # static width
    assert a.model.violations == [] and b.model.violations == []


def test_a_register_written_in_rx_mode_is_a_violation_status_is_not(old_air):
    # the command table: W_REGISTER in power down or standby only; STATUS
    # is written while listening to clear RX_DR
    _, a, b = old_air
    b.setup(True, B, A, dpl=False)
    b.w(N.STATUS, N.RX_DR)
    assert b.model.violations == []
    b.w(N.RF_CH, 40)
    assert b.model.violations == ["W_REGISTER 0x05 in RX mode"]


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


# ---- register-level datasheet facts (nRF24L01+ PS v1.0) -------------------

def sniff(med, raw):
    """Every frame `raw` puts on air: [Frame], in order."""
    frames = []
    med.listeners.append(lambda f: frames.append(f)
                         if f.sender is raw.model else None)
    return frames


def send(raw, payload, us=4000, cmd=N.W_TX_PAYLOAD):
    raw.load(payload, cmd)
    raw.pulse()
    sim_clock.advance_us(us)
    st = raw.status()
    raw.w(N.STATUS, 0x70)
    return st


def test_w_register_keeps_only_each_registers_implemented_bits(air):
    """Table 28, register map: 0xFF written to every 1-byte register reads
    back its R/W bits only; reserved bits read 0, and the read-only
    OBSERVE_TX, RPD and FIFO_STATUS ignore writes."""
    _, a, _ = air
    want = {N.CONFIG: 0x7F, N.EN_AA: 0x3F, N.EN_RXADDR: 0x3F,
            N.SETUP_AW: 0x03, N.SETUP_RETR: 0xFF, N.RF_CH: 0x7F,
            N.RF_SETUP: 0xBE, N.OBSERVE_TX: 0x00, N.RPD: 0x00,
            0x0C: 0xFF, 0x0D: 0xFF, 0x0E: 0xFF, 0x0F: 0xFF,
            0x11: 0x3F, 0x12: 0x3F, 0x13: 0x3F, 0x14: 0x3F, 0x15: 0x3F,
            0x16: 0x3F, N.FIFO_STATUS: 0x11, N.DYNPD: 0x3F, N.FEATURE: 0x07}
    for reg in want:
        a.w(reg, 0xFF)
    assert {reg: a.r(reg) for reg in want} == want
    a.w(N.STATUS, 0xFF)                 # flags clear by writing 1: none set
    assert a.status() == 0x0E


def test_crc_length_follows_crco_and_en_aa_forces_crc(air):
    """CONFIG CRCO: 0 = 1-byte CRC, 1 = 2 bytes; EN_CRC is 'forced high if
    one of the bits in EN_AA is high'; a receiver with another CRC length
    does not take the packet."""
    med, a, b = air
    frames = sniff(med, a)
    a.setup(False, A, B, retr=0x00)                  # no retransmits
    for config, en_aa, crc in ((N.EN_CRC, 0x3F, 1),
                               (N.EN_CRC | N.CRCO, 0x3F, 2),
                               (N.CRCO, 0x3F, 2), (0, 0x3F, 1),
                               (N.CRCO, 0x00, 0)):
        a.w(N.EN_AA, en_aa)
        a.w(N.CONFIG, config | N.PWR_UP)
        send(a, b"x")
        a.xfer(N.FLUSH_TX)
        assert frames[-1].crc == crc, (config, en_aa)
    b.setup(True, B, A)                              # 2-byte CRC
    a.w(N.EN_AA, 0x3F)
    a.w(N.CONFIG, N.EN_CRC | N.PWR_UP)               # 1-byte CRC
    assert send(a, b"x") & N.MAX_RT and b.model.received == 0


def test_tx_fifo_is_three_deep_a_fourth_payload_is_not_stored(air):
    _, a, b = air
    b.setup(True, B, A)
    a.setup(False, A, B)
    for i in range(4):
        full = a.r(N.FIFO_STATUS) & 0x20
        assert bool(full) == (i == 3), i               # TX_FULL from the 3rd
        a.load(bytes([i]) * 3)
    a.cep(1)
    sim_clock.advance_us(10000)
    a.cep(0)
    got = []
    while not b.r(N.FIFO_STATUS) & 1:
        got.append(b.xfer(N.R_RX_PAYLOAD, 0, 0, 0)[1:])
    assert got == [b"\x00" * 3, b"\x01" * 3, b"\x02" * 3]
    assert a.r(N.FIFO_STATUS) & 0x10                  # TX_EMPTY


def test_no_payload_longer_than_32_bytes_goes_on_air(air):
    med, a, b = air
    frames = sniff(med, a)
    b.setup(True, B, A)
    a.setup(False, A, B)
    send(a, bytes(range(33)))
    assert frames == []                     # the write is refused
    assert send(a, bytes(range(32))) & N.TX_DS
    assert frames and all(len(f.payload) <= 32 for f in frames)
    assert b.xfer(N.R_RX_PL_WID, 0)[1] == 32


def test_four_new_packets_carry_four_pids(air):
    """The 2-bit PID is incremented for every new packet."""
    med, a, b = air
    frames = sniff(med, a)
    b.setup(True, B, A)
    a.setup(False, A, B)
    for i in range(5):
        assert send(a, bytes([i])) & N.TX_DS
        b.xfer(N.FLUSH_RX)
    pids = [f.pid for f in frames]
    assert len(set(pids[:4])) == 4 and pids[4] == pids[0], pids


def test_ack_payload_goes_with_its_pipe_and_lands_in_pipe_0(air):
    """W_ACK_PAYLOAD's PPP bits name the pipe whose ACK carries it; on the
    PTX it is received on pipe 0 (RX_P_NO 0). The PRX sets TX_DS once an
    ACK payload went out (and the next packet came)."""
    _, a, b = air
    b.setup(True, B, A)
    a.setup(False, A, B)
    b.xfer(N.W_ACK_PAYLOAD | 2, *b"two")
    b.xfer(N.W_ACK_PAYLOAD | 1, *b"one")
    st = send(a, b"ping")                              # on b's pipe 1
    assert st & N.TX_DS and st & N.RX_DR
    assert (a.status() >> 1) & 7 == 0                  # RX_P_NO: pipe 0
    assert a.xfer(N.R_RX_PL_WID, 0)[1] == 3
    assert a.xfer(N.R_RX_PAYLOAD, 0, 0, 0)[1:] == b"one"
    assert not b.r(N.FIFO_STATUS) & 0x10               # "two" still waits
    send(a, b"ping")
    assert b.status() & N.TX_DS
    assert a.r(N.FIFO_STATUS) & 1                      # no payload this time


def test_ack_payloads_share_the_three_deep_tx_fifo(air):
    _, a, b = air
    b.setup(True, B, A)
    a.setup(False, A, B)
    for i in range(4):
        b.xfer(N.W_ACK_PAYLOAD | 1, i + 1)
    assert b.r(N.FIFO_STATUS) & 0x20                   # TX_FULL
    for _ in range(3):
        assert send(a, b"p") & N.TX_DS
        b.xfer(N.FLUSH_RX)
    assert b.r(N.FIFO_STATUS) & 0x10                   # the 4th was not kept
    assert a.r(N.FIFO_STATUS) & 2                      # RX_FULL: 3 payloads
    b.xfer(N.W_ACK_PAYLOAD | 1, 9)
    send(a, b"p")                                      # RX FIFO full on a
    got = []
    while not a.r(N.FIFO_STATUS) & 1:
        got.append(a.xfer(N.R_RX_PAYLOAD, 0)[1])
    assert got == [1, 2, 3]                            # never more than 3


def test_each_irq_mask_keeps_its_flag_off_the_pin(air):
    """CONFIG MASK_RX_DR (6), MASK_TX_DS (5), MASK_MAX_RT (4): 'interrupt
    not reflected on the IRQ pin'; the flag is still set in STATUS."""
    _, a, b = air
    for mask, flag in ((0x40, N.RX_DR), (0x20, N.TX_DS), (0x10, N.MAX_RT)):
        a.w(N.CONFIG, N.EN_CRC | N.PWR_UP | mask)
        a.model._flag(flag)                            # the event happens
        assert a.status() & flag and machine.pin_level(a.irq) == 1, hex(mask)
        a.w(N.CONFIG, N.EN_CRC | N.PWR_UP)             # unmasked: low
        assert machine.pin_level(a.irq) == 0, hex(mask)
        a.w(N.STATUS, flag)
        assert machine.pin_level(a.irq) == 1


def test_ce_pulse_of_10_us_starts_a_tx_and_9_us_does_not(air):
    """Thce: CE high for at least 10 us starts a transmission."""
    _, a, b = air
    a.setup(False, A, B, retr=0x00)
    a.load(b"x")
    a.pulse(9)
    sim_clock.advance_us(2000)
    assert a.model.violations == ["CE pulse shorter than 10 us"]
    a.pulse(10)
    sim_clock.advance_us(2000)
    assert a.model.sent == 1 and len(a.model.violations) == 1


def test_receiver_hears_nothing_in_its_130_us_settling(air):
    """Tstby2a: standby to RX mode takes 130 us; a packet already on air
    before then is not received."""
    _, a, b = air
    b.setup(True, B, A)
    b.cep(0)
    a.setup(False, A, B, retr=0x00)
    a.load(b"x")
    a.cep(1)                       # on air at 10 + 130 us, for ~80 us
    sim_clock.advance_us(40)
    b.cep(1)                       # listening from 170 us
    sim_clock.advance_us(2000)
    a.cep(0)
    assert a.status() & N.MAX_RT and b.model.received == 0
    a.w(N.STATUS, N.MAX_RT)
    a.pulse()
    sim_clock.advance_us(2000)
    assert a.status() & N.TX_DS and b.model.received == 1


@pytest.mark.parametrize("ard", [0, 3, 15])
def test_retransmit_starts_ard_after_the_end_of_the_last_try(air, ard):
    """SETUP_RETR ARD: wait (ARD+1) x 250 us, 'defined from end of
    transmission to start of next transmission'; ARC retries, then MAX_RT."""
    med, a, _ = air
    frames = sniff(med, a)
    a.setup(False, A, B, retr=ard << 4 | 2)
    send(a, b"x", us=20000)
    assert len(frames) == 3
    for before, after in zip(frames, frames[1:]):
        assert after.t0 - before.t_end == (ard + 1) * 250


def test_plos_cnt_stops_at_15_and_arc_cnt_restarts_per_packet(air):
    """OBSERVE_TX: PLOS_CNT 'overflow protected to 15'; ARC_CNT 'reset
    when transmission of a new packet starts'."""
    _, a, b = air
    a.setup(False, A, B, retr=0x12)
    a.load(b"lost")
    for i in range(17):
        a.pulse()
        sim_clock.advance_us(5000)
        assert a.status() & N.MAX_RT
        a.w(N.STATUS, N.MAX_RT)
        assert a.r(N.OBSERVE_TX) == min(15, i + 1) << 4 | 2, i
    a.xfer(N.FLUSH_TX)
    b.setup(True, B, A)
    assert send(a, b"next") & N.TX_DS
    assert a.r(N.OBSERVE_TX) == 0xF0                   # no retry this time


def test_ptx_takes_the_ack_on_pipe_0_only(air):
    """Auto-ack: the PTX receives the ACK on data pipe 0, so RX_ADDR_P0
    must equal TX_ADDR and pipe 0 be enabled, or the packet is lost."""
    _, a, b = air
    b.setup(True, B, A)
    a.setup(False, A, B, retr=0x11)
    a.w(N.RX_ADDR_P0, *A)
    assert send(a, b"x") & N.MAX_RT and b.model.received == 1
    a.xfer(N.FLUSH_TX)
    a.w(N.RX_ADDR_P0, *B)
    a.w(N.EN_RXADDR, 0x02)
    assert send(a, b"y") & N.MAX_RT and b.model.received == 2
    a.xfer(N.FLUSH_TX)
    a.w(N.EN_RXADDR, 0x03)
    assert send(a, b"z") & N.TX_DS


def test_ptx_without_en_aa_sends_once_and_sets_tx_ds(air):
    med, a, _ = air
    frames = sniff(med, a)
    a.setup(False, A, B, retr=0x13)
    a.w(N.EN_AA, 0x00)
    assert send(a, b"x") & N.TX_DS and len(frames) == 1


def test_receiver_pipe_settings_decide_what_is_taken_and_acked(air):
    """EN_RXADDR: a disabled pipe takes nothing; EN_AA per pipe: no ACK
    from a pipe without it; static width (no DPL): RX_PW_Px must equal the
    packet's width; a DPL pipe takes no packet without a length."""
    _, a, b = air
    b.setup(True, B, A)
    a.setup(False, A, B, retr=0x11)
    b.w(N.EN_RXADDR, 0x01)                             # pipe 1 off
    assert send(a, b"x") & N.MAX_RT and b.model.received == 0
    a.xfer(N.FLUSH_TX)
    b.w(N.EN_RXADDR, 0x03)
    b.w(N.EN_AA, 0x01)                                 # no auto-ack on pipe 1
    assert send(a, b"x") & N.MAX_RT and b.model.received >= 1
    a.xfer(N.FLUSH_TX)
    b.xfer(N.FLUSH_RX)
    b.w(N.EN_AA, 0x3F)
    a.w(N.FEATURE, 0)                                  # a sends static width
    before = b.model.received
    assert send(a, b"abcd") & N.MAX_RT                 # b's pipe 1 is DPL
    a.xfer(N.FLUSH_TX)
    b.w(N.DYNPD, 0x01)                                 # pipe 1 static
    b.w(N.RX_PW_P0 + 1, 4)
    assert send(a, b"abc") & N.MAX_RT                  # 3 bytes, RX_PW 4
    a.xfer(N.FLUSH_TX)
    assert b.model.received == before
    assert send(a, b"abcd") & N.TX_DS
    assert b.xfer(N.R_RX_PAYLOAD, 0, 0, 0, 0)[1:] == b"abcd"


def test_rx_pl_wid_is_the_width_of_the_fifo_head(air):
    _, a, b = air
    b.setup(True, B, A)
    a.setup(False, A, B)
    send(a, b"ab")
    send(a, b"abcde")
    assert b.xfer(N.R_RX_PL_WID, 0)[1] == 2
    b.xfer(N.R_RX_PAYLOAD, 0, 0)
    assert b.xfer(N.R_RX_PL_WID, 0)[1] == 5


@pytest.mark.parametrize("width", [0, 33, 255])
def test_a_glitched_width_is_the_heads_until_it_is_read_or_flushed(air, width):
    """glitch_width: a test's corrupt packet. R_RX_PL_WID answers the
    glitch for the FIFO's head only (0 too: 0 was 'no glitch'); reading
    that payload, or FLUSH_RX, ends it, and the next packet's width is
    true. None takes the glitch back."""
    _, a, b = air
    b.setup(True, B, A)
    a.setup(False, A, B)
    send(a, b"ab")
    send(a, b"abcde")
    b.model.glitch_width(width)
    assert b.xfer(N.R_RX_PL_WID, 0)[1] == width
    b.xfer(N.R_RX_PAYLOAD, 0, 0)
    assert b.xfer(N.R_RX_PL_WID, 0)[1] == 5
    b.model.glitch_width(width)
    b.xfer(N.FLUSH_RX)
    assert b.xfer(N.R_RX_PL_WID, 0)[1] == 0            # empty RX FIFO
    send(a, b"abc")
    assert b.xfer(N.R_RX_PL_WID, 0)[1] == 3
    b.model.glitch_width(width)
    b.model.glitch_width(None)
    assert b.xfer(N.R_RX_PL_WID, 0)[1] == 3
    with pytest.raises(ValueError):
        b.model.glitch_width(256)


def test_w_tx_payload_noack_needs_en_dyn_ack(air):
    """FEATURE EN_DYN_ACK 'enables the W_TX_PAYLOAD_NOACK command'."""
    _, a, _ = air
    a.setup(False, A, B)
    a.w(N.FEATURE, N.EN_DPL)
    a.load(b"x", N.W_TX_PAYLOAD_NOACK)
    assert a.r(N.FIFO_STATUS) & 0x10                   # nothing queued
    assert a.model.violations == ["W_TX_PAYLOAD_NOACK without EN_DYN_ACK"]


# ---- the medium's knobs ---------------------------------------------------

def test_overlapping_packets_on_one_channel_collide_not_across_channels(air):
    med, a, b = air
    c = Raw(2, med)
    b.setup(True, B, A)
    for r in (a, c):
        r.setup(False, A, B)
        r.w(N.EN_AA, 0)                         # one try each
        r.load(b"x")
    for ch in (76, 10):                         # same channel, then not
        c.w(N.RF_CH, ch)
        a.cep(1)
        c.cep(1)
        sim_clock.advance_us(15)
        a.cep(0)
        c.cep(0)
        sim_clock.advance_us(2000)
        for r in (a, c):
            assert r.status() & N.TX_DS
            r.w(N.STATUS, N.TX_DS)
            r.load(b"x")
        if ch == 76:
            hits = med.stats["collisions"]
            assert b.model.received == 0 and hits > 0
    assert b.model.received == 1 and med.stats["collisions"] == hits


def test_medium_loss_dup_reorder_and_delay_knobs():
    sim_clock.reset()
    machine.forget_all()

    def pair(**knobs):
        med = Medium(seed=3, **knobs)
        a, b = Raw(len(med.radios) + 2, med), Raw(len(med.radios) + 3, med)
        return med, a, b
    med, a, b = pair(loss=1.0)
    b.setup(True, B, A)
    a.setup(False, A, B, retr=0x13)
    assert send(a, b"x", 10000) & N.MAX_RT and b.model.received == 0
    machine.forget_all()
    med, a, b = pair(dup=1.0)                   # every packet twice
    b.setup(True, B, A)
    a.setup(False, A, B)
    send(a, b"x", 10000, N.W_TX_PAYLOAD_NOACK)
    assert b.model.received == 2                # no ACK: no PID check
    machine.forget_all()
    med, a, b = pair(reorder=1.0, reorder_us=3000)
    b.setup(True, B, A)
    a.setup(False, A, B)
    order = []
    for _ in range(4):                          # later ones overtake
        for i in range(3):
            a.load(bytes([i]), N.W_TX_PAYLOAD_NOACK)
        a.cep(1)
        sim_clock.advance_us(8000)
        a.cep(0)
        while not b.r(N.FIFO_STATUS) & 1:
            order.append(b.xfer(N.R_RX_PAYLOAD, 0)[1])
        a.w(N.STATUS, 0x70)
    assert sorted(order) == [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]
    assert order != [0, 1, 2] * 4, order
    machine.forget_all()
    med, a, b = pair(delay_us=1000)             # both ways: the ACK too
    frames = sniff(med, a)
    b.setup(True, B, A)
    a.setup(False, A, B, retr=0xF0)             # ARD 4 ms
    seen = []
    machine.watch_pin(a.irq, lambda v: seen.append(sim_clock.now_us()))
    assert send(a, b"x") & N.TX_DS and len(frames) == 1
    assert seen[0] - frames[0].t_end >= 2 * 1000 + N.T_SETTLE


def test_medium_seeds_give_different_draws():
    from radio_medium import Rng
    assert [Rng(1).next() for _ in range(3)] != [Rng(2).next()
                                                  for _ in range(3)]
