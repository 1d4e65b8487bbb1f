"""Review tests: the NRF24L01 driver and model around a corrupt RX width."""
from test_radio_driver import fresh_pair


def test_after_a_corrupt_width_is_flushed_the_next_packet_is_received():
    """R_RX_PL_WID > 32 marks one corrupt packet (datasheet: flush it with
    FLUSH_RX). The packets after it are good: the model went on reporting
    the bad width for every later packet, so the driver dropped them all."""
    _, ma, a, mb, b = fresh_pair(True, True)
    b.start_listening()
    assert a.send(b"one")
    mb.glitch_width(40)
    assert b.recv() == 0 and b.dropped == 1 and not b.any()
    assert a.send(b"three")
    assert b.any() and b.recv() == 5 and bytes(b.rx[:5]) == b"three"
    assert b.dropped == 1
    assert ma.violations == [] and mb.violations == []
