"""The NRF24L01 driver against the chip model: CPython and the unix port."""
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
import upy  # noqa: E402


def node(idx, medium, plus=True, **kw):
    cs, ce, irq = 5 + 100 * idx, 14 + 100 * idx, 22 + 100 * idx
    model = N.NRF24L01Model(ce, irq, medium, plus=plus)
    machine.attach_spi(idx * 10, cs, model, "nrf%d" % idx)
    return model, driver(idx, **kw)


def driver(idx, **kw):
    cs, ce, irq = 5 + 100 * idx, 14 + 100 * idx, 22 + 100 * idx
    return nrf24l01.NRF24L01(machine.SPI(idx * 10, baudrate=4000000),
                             machine.Pin(cs), machine.Pin(ce), machine.Pin(irq),
                             **kw)


# the nRF24L01+, the original nRF24L01 (spec v2.0), and one of each
KINDS = {"plus": (True, True), "nrf24l01": (False, False),
         "mixed": (True, False)}


def fresh_pair(plus_a, plus_b):
    """Two radios on one fresh medium, each one's TX address the other's RX."""
    sim_clock.reset()
    machine.forget_all()
    med = Medium(seed=5)
    ma, a = node(0, med, plus_a)
    mb, b = node(1, med, plus_b)
    a.open_tx_pipe(b"BBBBB")
    a.open_rx_pipe(1, b"AAAAA")
    b.open_tx_pipe(b"AAAAA")
    b.open_rx_pipe(1, b"BBBBB")
    return med, ma, a, mb, b


@pytest.fixture(params=sorted(KINDS))
def pair(request):
    med, ma, a, mb, b = fresh_pair(*KINDS[request.param])
    yield med, ma, a, mb, b
    assert ma.violations == [] and mb.violations == []


def test_init_state(pair):
    _, ma, a, _, _ = pair
    r = ma.regs
    assert r[N.CONFIG] == N.EN_CRC | N.CRCO          # 2-byte CRC, powered down
    assert ma.mode == N.POWER_DOWN
    assert r[N.SETUP_AW] == 3 and r[N.EN_AA] == 0x3F
    assert r[N.FEATURE] & N.EN_DPL and r[N.DYNPD] == 0x3F
    assert ma.read_reg(N.FEATURE) == bytes([N.EN_DPL])    # in effect
    assert ma.plus or ma.activated
    assert r[N.SETUP_RETR] == 0x15                   # ARD 500 us, ARC 5
    # 1 Mbps, 0 dBm; the nRF24L01 keeps LNA_HCURR (bit 0, the + has none)
    assert r[N.RF_CH] == 76 and r[N.RF_SETUP] == (0x06 if ma.plus else 0x07)
    assert ma.rx_address(0) == b"BBBBB" and ma.rx_address(1) == b"AAAAA"
    assert bytes(ma.addr[N.TX_ADDR]) == b"BBBBB"
    assert ma.tx_fifo == [] and ma.rx_fifo == []


def test_presence_check_names_chip_and_pins():
    sim_clock.reset()
    machine.forget_all()
    with pytest.raises(OSError) as e:
        nrf24l01.NRF24L01(machine.SPI(0), machine.Pin(5), machine.Pin(14))
    msg = str(e.value)
    assert "NRF24L01" in msg and "Pin(5)" in msg and "Pin(14)" in msg
    assert "SETUP_AW" in msg


def test_send_receive_with_ack(pair):
    _, ma, a, mb, b = pair
    b.start_listening()
    assert mb.mode == N.RX_MODE
    for n in (1, 17, 32):
        payload = bytes(range(n))
        assert a.send(payload) is True
        assert b.any()
        assert b.recv() == n and bytes(b.rx[:n]) == payload
        assert not b.any()
    buf = bytearray(32)
    assert a.send(b"xyz") and b.recv_into(buf) == 3 and buf[:3] == b"xyz"
    # both ways, each returning to RX after sending
    a.start_listening()
    assert b.send(b"back") and b.listening and mb.mode == N.RX_MODE
    assert a.recv() == 4 and bytes(a.rx[:4]) == b"back"


def fresh_nrf24l01_pair():
    return fresh_pair(False, False)[1:]


def test_nrf24l01_is_activated_once_and_stays_on_after_a_reinit():
    ma, a, mb, b = fresh_nrf24l01_pair()
    assert ma.activated and mb.activated
    # the MCU resets, the radio keeps its supply: a second ACTIVATE would
    # turn the features off again
    a = driver(0)
    a.open_tx_pipe(b"BBBBB")
    a.open_rx_pipe(1, b"AAAAA")
    assert ma.activated
    b.start_listening()
    assert a.send(b"after reset") is True
    assert b.recv() == 11 and bytes(b.rx[:11]) == b"after reset"
    assert ma.violations == [] and mb.violations == []


def test_250k_on_the_plus_and_a_clear_error_on_the_nrf24l01():
    sim_clock.reset()
    machine.forget_all()
    med = Medium(seed=5)
    ma, a = node(0, med, True, rate=nrf24l01.RATE_250K)
    assert N.rate_bps(ma.regs[N.RF_SETUP]) == 250000
    with pytest.raises(OSError) as e:
        node(1, med, False, rate=nrf24l01.RATE_250K)
    assert "250 kbps" in str(e.value) and "nRF24L01+" in str(e.value)
    b = driver(1)                                   # 1 Mbps: fine
    with pytest.raises(OSError):
        b.set_rf(nrf24l01.RATE_250K, nrf24l01.POWER_0DBM)


def test_a_chip_whose_feature_never_takes_is_named(monkeypatch):
    # no dynamic payloads even after ACTIVATE: nothing would ever arrive,
    # so the driver says so rather than pass the presence check
    sim_clock.reset()
    machine.forget_all()
    monkeypatch.setattr(N.NRF24L01Model, "_activate", lambda self, data: None)
    with pytest.raises(OSError) as e:
        node(0, Medium(seed=5), False)
    assert "FEATURE" in str(e.value) and "ACTIVATE" in str(e.value)


def test_max_rt_flushes_and_recovers(pair):
    _, ma, a, mb, b = pair
    assert a.send(b"nobody") is False              # b is not listening
    assert a.lost == 1 and ma.tx_fifo == []        # no stuck TX FIFO
    assert ma.mode == N.POWER_DOWN                 # idle again: powered down
    assert not ma.regs[N.STATUS] & N.MAX_RT
    assert ma.retransmits == 5
    b.start_listening()
    assert a.send(b"now") is True
    assert b.recv() == 3


def test_bad_width_is_flushed(pair):
    _, ma, a, mb, b = pair
    b.start_listening()
    assert a.send(b"one") and a.send(b"two")
    mb.glitch_width(40)
    assert b.recv() == 0 and b.dropped == 1
    assert not b.any()                               # the whole RX FIFO went


def test_power_down_and_bad_arguments(pair):
    _, ma, a, mb, b = pair
    b.start_listening()
    b.power_down()
    assert mb.mode == N.POWER_DOWN
    assert a.send(b"x") is False
    with pytest.raises(ValueError):
        a.set_channel(126)
    with pytest.raises(ValueError):
        a.send(bytes(33))
    with pytest.raises(ValueError):
        a.open_tx_pipe(b"ABCD")
    with pytest.raises(ValueError):
        a.open_rx_pipe(0, b"ABCDE")


UNIX_SETUP = """
import machine, sim_clock
from radio_medium import Medium
from nrf24l01_model import NRF24L01Model
import nrf24l01
med = Medium(seed=1)
def node(i):
    m = NRF24L01Model(14 + 100 * i, 22 + 100 * i, med, plus=PLUS)
    machine.attach_spi(i * 10, 5 + 100 * i, m, "nrf")
    d = nrf24l01.NRF24L01(machine.SPI(i * 10, baudrate=4000000),
                          machine.Pin(5 + 100 * i), machine.Pin(14 + 100 * i),
                          machine.Pin(22 + 100 * i))
    return m, d
ma, a = node(0)
mb, b = node(1)
a.open_tx_pipe(b"BBBBB"); a.open_rx_pipe(1, b"AAAAA")
b.open_tx_pipe(b"AAAAA"); b.open_rx_pipe(1, b"BBBBB")
"""

CHIPS = [upy.ROOT / "host_sim" / "chips", upy.ROOT / "host_sim"]


def test_driver_on_unix_port():
    code = UNIX_SETUP + """
print(ma.regs[0], ma.regs[4], ma.regs[5])
print(a.send(b"lost"), a.lost, len(ma.tx_fifo))
b.start_listening()
print(a.send(b"hello"), b.recv(), bytes(b.rx[:5]))
mb.glitch_width(33)
a.send(b"x")
print(b.recv(), b.any(), ma.violations, mb.violations)
"""
    out = upy.run("PLUS = True\n" + code, heapsize="256k", shims=True,
                  extra_path=CHIPS).split("\n")
    assert out[0] == "12 21 76"
    assert out[1] == "False 1 0"
    assert out[2] == "True 5 b'hello'"
    assert out[3] == "0 False [] []"


def test_nrf24l01_driver_on_unix_port():
    # the original nRF24L01: the driver activates its features there too
    code = "PLUS = False\n" + UNIX_SETUP + """
print(ma.activated, mb.activated, ma.read_reg(0x1D), mb.read_reg(0x1C))
b.start_listening()
print(a.send(b"hello"), b.recv(), bytes(b.rx[:5]))
a.start_listening()
print(b.send(b"back"), a.recv(), bytes(a.rx[:4]), ma.violations, mb.violations)
"""
    out = upy.run(code, heapsize="256k", shims=True, extra_path=CHIPS).split("\n")
    assert out[0] == "True True b'\\x04' b'?'"
    assert out[1] == "True 5 b'hello'"
    assert out[2] == "True 4 b'back' [] []"


# A stand-in bus and chip for the unix port, where the bus and the chip
# model are host code that may allocate: under heap_lock the driver talks
# to these, which allocate nothing.
STUB_CHIP = """
import gc, micropython, nrf24l01
class P:
    OUT = 1; IN = 0; PULL_UP = 1
    def __init__(s): s.v = 1
    def init(s, *a, **k): pass
    def value(s, v=None):
        if v is None: return s.v
        s.v = v
    def __call__(s, v=None): return s.value(v)
class S:
    # a chip that reports TX_DS, one retransmission, and holds one payload
    # of width s.w
    def __init__(s): s.aw = 3; s.feat = 0; s.w = 8
    def write_readinto(s, tx, rx):
        c = tx[0]
        if c == 0x23: s.aw = tx[1]
        if c == 0x3D: s.feat = tx[1]
        rx[0] = 0x20
        if len(rx) > 1:
            if c == 0x03: rx[1] = s.aw
            elif c == 0x1D: rx[1] = s.feat
            elif c == 0x60: rx[1] = s.w
            elif c == 0x17: rx[1] = 0x00
            elif c == 0x08: rx[1] = 0x01
            else: rx[1] = 0
    def write(s, b): pass
    def readinto(s, b, w=0):
        for i in range(len(b)): b[i] = 0x41 + i
"""


def test_no_allocation_per_packet_on_unix_port():
    # The bus and the chip model are host code and may allocate; so under
    # heap_lock the driver talks to a stand-in that allocates nothing: a
    # chip that reports TX_DS and holds one 8-byte payload.
    code = STUB_CHIP + """
d = nrf24l01.NRF24L01(S(), P(), P())
d.open_tx_pipe(b"ABCDE")
d.start_listening()
buf = bytearray(32)
pkt = bytearray(b"12345678")
ok = n = a = i = None     # globals exist before the heap is locked
d.send(pkt); d.recv_into(buf); d.any()
micropython.heap_lock()
for i in range(50):
    ok = d.send(pkt, 8)
    n = d.recv_into(buf)
    a = d.any()
micropython.heap_unlock()
print(ok, n, bytes(buf[:8]), a, d.retries)
"""
    out = upy.run(code, heapsize="96k", shims=True).strip()
    assert out == "True 8 b'ABCDEFGH' True 51"


# ---- bad input changes nothing; state left as the datasheet wants ---------

def test_retries_out_of_range_raise_and_leave_setup_retr(pair):
    # ARD is 4 bits (250..4000 us), ARC 4 bits (0..15): a 16 would spill
    # into ARD, a 4250 into nothing the register has
    _, ma, a, _, _ = pair
    for ard_us, arc in ((4250, 5), (249, 5), (500, 16), (500, -1)):
        with pytest.raises(ValueError) as e:
            a.set_retries(ard_us, arc)
        assert "ard_us 250..4000, arc 0..15" in str(e.value)
        assert ma.regs[N.SETUP_RETR] == 0x15
    a.set_retries(4000, 15)
    assert ma.regs[N.SETUP_RETR] == 0xFF


def test_rx_pipe_6_is_refused_and_tx_addr_kept(pair):
    # RX_ADDR_P0 + 6 is TX_ADDR (10h): no pipe 6 on the chip
    _, ma, a, _, _ = pair
    with pytest.raises(ValueError):
        a.open_rx_pipe(6, b"CCCCC")
    assert bytes(ma.addr[N.TX_ADDR]) == b"BBBBB"
    assert ma.regs[N.EN_RXADDR] == 0x03


def test_a_closed_rx_pipe_neither_receives_nor_acks(pair):
    # pipe 2: its own first byte, bytes 1..4 from pipe 1's address
    _, ma, a, mb, b = pair
    b.open_rx_pipe(2, b"C")
    b.start_listening()
    a.open_tx_pipe(b"CBBBB")
    assert a.send(b"to pipe 2") is True and b.recv() == 9
    b.close_rx_pipe(2)
    assert mb.regs[N.EN_RXADDR] == 0x02     # pipe 1 stays open (0: see below)
    assert a.send(b"closed") is False and not b.any()
    a.open_tx_pipe(b"BBBBB")
    assert a.send(b"pipe 1") is True and b.recv() == 6


def test_a_listening_radio_takes_nothing_sent_to_its_peer_or_to_reset():
    """Pipe 0 catches ACKs at the TX address; left on while listening it
    takes, and ACKs, what anyone sends there: a second radio pairing with
    the same peer, or one on the chip's reset address, which check_wires
    leaves in RX_ADDR_P0. Listening, a radio hears its own pipes only."""
    med, ma, a, mb, b = fresh_pair(True, True)
    mc, c = node(2, med)
    b.start_listening()
    assert a.send(b"to b") is True and b.recv() == 4
    b.power_down()
    a.start_listening()
    c.open_tx_pipe(b"BBBBB")
    assert c.send(b"for b") is False            # b is down: no one ACKs
    c.open_tx_pipe(b"AAAAA")
    assert c.send(b"for a") is True and a.recv() == 5
    a.check_wires()
    assert a.listening and ma.rx_address(0) == b"\xe7" * 5
    c.open_tx_pipe(b"\xe7" * 5)
    assert c.send(b"default") is False
    assert not a.any() and ma.received == 1
    b.start_listening()
    a.open_tx_pipe(b"BBBBB")                    # pipe 0 on again to send
    assert a.send(b"acked") is True and b.recv() == 5 and a.listening
    assert [m.violations for m in (ma, mb, mc)] == [[], [], []]


def test_an_empty_payload_is_refused_and_nothing_is_sent(pair):
    _, ma, a, mb, b = pair
    b.start_listening()
    for args in ((b"",), (b"abc", 0)):
        with pytest.raises(ValueError):
            a.send(*args)
    assert ma.sent == 0 and ma.tx_fifo == [] and not b.any()


def test_recv_clears_rx_dr_so_the_irq_pin_goes_high(pair):
    # the chip holds IRQ low while RX_DR is set: a receiver woken by the pin
    # must find it high again once the payload has been read
    _, ma, a, mb, b = pair
    b.start_listening()
    assert a.send(b"wake") is True
    assert machine.pin_level(122) == 0
    assert b.recv() == 4
    assert not mb.regs[N.STATUS] & N.RX_DR and machine.pin_level(122) == 1


def test_stop_listening_stops_receiving(pair):
    _, ma, a, mb, b = pair
    b.start_listening()
    b.stop_listening()
    assert mb.mode == N.STANDBY_I and not b.listening
    assert a.send(b"anyone?") is False and not b.any()


def test_a_reinit_drops_what_the_chip_held_from_before(pair):
    # the MCU resets, the radio keeps its supply: a packet it received
    # before, and its RX_DR flag, belong to the old session
    _, ma, a, mb, b = pair
    b.start_listening()
    assert a.send(b"stale") is True
    b = driver(1)
    assert not mb.regs[N.STATUS] & 0x70 and machine.pin_level(122) == 1
    b.open_tx_pipe(b"AAAAA")
    b.open_rx_pipe(1, b"BBBBB")
    b.start_listening()
    assert not b.any()
    assert a.send(b"fresh") is True
    assert b.recv() == 5 and bytes(b.rx[:5]) == b"fresh" and not b.any()


def test_ce_is_only_pulsed_so_the_chip_leaves_tx_mode(pair):
    # CE high for 10+ us sends one packet; held high the chip would stay in
    # TX (standby-II) while a caller polls send_done later, which the
    # nRF24L01 may not do for more than 4 ms
    _, ma, a, mb, b = pair
    b.start_listening()
    a.send_start(b"one")
    sim_clock.advance_us(10000)
    assert ma.regs[N.STATUS] & N.TX_DS and ma.mode == N.STANDBY_I
    assert machine.pin_level(14) == 0
    assert a.send_done() is True and b.recv() == 3


def test_an_abandoned_send_start_is_neither_sent_later_nor_reported(pair):
    # send_start() without send_done(): a payload still in the TX FIFO, or
    # the TX_DS of an acknowledged one, must not leak into the next send
    _, ma, a, mb, b = pair
    b.start_listening()
    a.send_start(b"old")
    a.power_down()                                  # before it went out
    assert a.send(b"new") is True
    assert b.recv() == 3 and bytes(b.rx[:3]) == b"new" and not b.any()
    a.send_start(b"acked")
    sim_clock.advance_us(10000)
    assert ma.regs[N.STATUS] & N.TX_DS
    a.power_down()
    assert b.recv() == 5
    b.power_down()
    assert a.send(b"nobody hears") is False and a.lost == 1


def test_power_up_waits_out_a_slow_crystal():
    # Tpd2stby is 1.5 ms only for a crystal of Ls < 30 mH; 4.5 ms at 90 mH.
    # A CE pulse before the oscillator runs is one the chip may miss: every
    # send from power down would then be lost.
    sim_clock.reset()
    machine.forget_all()
    med = Medium(seed=5)
    models = []
    for i in (0, 1):
        models.append(N.NRF24L01Model(14 + 100 * i, 22 + 100 * i, med,
                                      tpd2stby_us=4500))
        machine.attach_spi(i * 10, 5 + 100 * i, models[i], "nrf%d" % i)
    a, b = driver(0), driver(1)
    a.open_tx_pipe(b"BBBBB")
    b.open_rx_pipe(1, b"BBBBB")
    b.start_listening()
    assert a.send(b"cold") is True and b.recv() == 4
    a.check_wires()
    assert models[0].violations == [] and models[1].violations == []
