"""Review tests: the NRF24L01 driver and model around a corrupt RX width;
send_done() before any send; the heap the payload views take."""
import pytest

import upy
from test_radio_driver import STUB_CHIP, fresh_pair, N, machine, sim_clock


@pytest.mark.parametrize("width", [0, 33, 40, 255])
def test_after_a_corrupt_width_is_flushed_the_next_packet_is_received(width):
    """R_RX_PL_WID > 32 marks one corrupt packet (datasheet: flush it with
    FLUSH_RX). The packets after it are good: the model went on reporting
    the bad width for every later packet, so the driver dropped them all.
    A width of 0 is corrupt too (a data packet carries 1..32 bytes): read
    as a payload of none, it would stay at the FIFO's head for ever."""
    _, ma, a, mb, b = fresh_pair(True, True)
    b.start_listening()
    assert a.send(b"one")
    mb.glitch_width(width)
    assert b.recv() == 0 and b.dropped == 1 and not b.any()
    assert a.send(b"three")
    assert b.any() and b.recv() == 5 and bytes(b.rx[:5]) == b"three"
    assert b.dropped == 1
    assert ma.violations == [] and mb.violations == []


# ---- send_done() before any send; the payload views' heap -------------------

def test_send_done_before_any_send_does_not_raise():
    """send_done() is public, and _idle() read self._resume, which only a
    send made: a TX_DS or MAX_RT the driver did not cause (raised in the
    model here, as test_radio_irq does) was an AttributeError."""
    _, ma, a, mb, b = fresh_pair(True, True)
    ma._flag(N.TX_DS)
    assert a.send_done() is True
    assert ma.mode == N.POWER_DOWN and not a.listening
    assert not ma.regs[N.STATUS] & N.TX_DS
    ma._flag(N.MAX_RT)
    assert a.send_done() is False and a.lost == 1
    b.start_listening()
    assert a.send(b"then a send") is True and b.recv() == 11
    assert ma.violations == [] and mb.violations == []


def test_every_payload_width_goes_both_ways():
    """Views are kept for the first widths only: the others are sliced per
    packet, and must carry the same bytes."""
    _, ma, a, mb, b = fresh_pair(True, True)
    b.start_listening()
    for rnd in range(2):
        for n in range(1, 33):
            payload = bytes((n + i + rnd) & 0xFF for i in range(n))
            assert a.send(payload) is True
            assert b.recv() == n and bytes(b.rx[:n]) == payload
    assert ma.violations == [] and mb.violations == []


STUB = STUB_CHIP + """
bus = S(); cs = P(); ce = P()
pkt = bytearray(b"0123456789abcdefghijklmnopqrstuv")
d = w = n = None
"""

# the widths of a match's packets (firmware/app/link.py: 11-byte header,
# 0..6 bytes of payload, 2 of CRC)
MATCH_WIDTHS = (17, 14, 16, 13, 18, 19)


def test_the_payload_views_cost_little_heap_on_unix_port():
    """The driver kept 66 memoryviews, one per width each way (3.2 KB of
    the unix port's heap, about 1.6 KB on a 32-bit board), most of them
    for widths no program sends. Views now come per width used (16 at
    most): with a match's six widths each way, or every width, the driver
    takes under 2 KB (4.0 KB before, without sending anything)."""
    code = STUB + """
gc.collect(); a0 = gc.mem_alloc()
d = nrf24l01.NRF24L01(bus, cs, ce)
for w in WIDTHS:
    bus.w = w
    d.send(pkt, w); d.recv()
gc.collect()
print(gc.mem_alloc() - a0)
"""
    used = {}
    for name, widths in (("none", ()), ("match", MATCH_WIDTHS),
                         ("all", tuple(range(1, 33)))):
        out = upy.run("WIDTHS = %r\n" % (widths,) + code, heapsize="96k",
                      shims=True)
        used[name] = int(out.strip())
    assert used["none"] <= 1200, used
    assert used["match"] <= 2000, used
    assert used["all"] <= 2000, used


def test_a_match_of_mixed_widths_allocates_nothing_per_packet_on_unix_port():
    # each width seen once first; then every packet, in and out, heap-locked
    code = STUB + """
d = nrf24l01.NRF24L01(bus, cs, ce)
d.open_tx_pipe(b"ABCDE")
d.start_listening()
for w in WIDTHS:
    bus.w = w
    d.send(pkt, w); d.recv()
micropython.heap_lock()
for k in range(60):
    w = WIDTHS[k % len(WIDTHS)]
    bus.w = w
    d.send(pkt, w)
    n = d.recv()
micropython.heap_unlock()
print(n, bytes(d.rx[:n]))
"""
    out = upy.run("WIDTHS = %r\n" % (MATCH_WIDTHS,) + code, heapsize="96k",
                  shims=True).strip()
    assert out == "19 b'ABCDEFGHIJKLMNOPQRS'"


# ---- receiving keeps the receiver listening ---------------------------------

CE_B = 114              # b's CE pin in fresh_pair


def test_reading_packets_keeps_ce_high_and_the_receiver_in_rx_mode():
    """Clearing RX_DR is a STATUS write, which the datasheet allows in RX
    mode: any() and recv() leave CE high. A CE drop would leave RX mode,
    and the 130 us settling back in is a gap a packet falls into."""
    _, ma, a, mb, b = fresh_pair(True, True)
    b.start_listening()
    edges = []
    machine.watch_pin(CE_B, edges.append)
    for payload in (b"one", b"two", b"three"):
        assert a.send(payload) is True
        while b.any():
            assert b.recv() == len(payload)
        assert bytes(b.rx[:len(payload)]) == payload
        assert mb.mode == N.RX_MODE
    assert edges == []
    assert ma.violations == [] and mb.violations == []


def test_a_packet_on_air_as_the_last_one_is_read_is_received_first_try():
    """a's packet goes on air 130 us after its CE pulse; b reads the one
    before in that time. With no retransmits (ARC 0) a receiver deaf for
    a moment loses the packet for good."""
    med, ma, a, mb, b = fresh_pair(True, True)
    frames = []
    med.listeners.append(lambda f: frames.append(f)
                         if f.sender is ma else None)
    a.set_retries(500, 0)
    b.start_listening()
    assert a.send(b"first") is True
    a.send_start(b"second")
    assert ma.mode == N.TX_MODE and len(frames) == 1    # not on air yet
    assert b.recv() == 5
    while (done := a.send_done()) is None:
        sim_clock.advance_us(50)
    assert done is True and len(frames) == 2
    assert b.recv() == 6 and bytes(b.rx[:6]) == b"second"
    assert ma.violations == [] and mb.violations == []
