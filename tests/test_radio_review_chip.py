"""Review tests: the NRF24L01 driver and its chip model against the nRF24L01+
Product Specification v1.0: the RF_SETUP, RF_CH and SETUP_RETR values the
driver may set, the pipe a packet lands on, the flags left after a send or
a dropped packet, and the model's time on air, settling, FIFOs and dynamic
payload length."""
import pytest

from test_radio_driver import fresh_pair, N, nrf24l01, machine, sim_clock
from test_radio_irq import fresh
from test_radio_model import A, B, sniff, send

RF_DR_LOW = 0x20        # RF_SETUP bit 5
RF_DR_HIGH = 0x08       # RF_SETUP bit 3
IRQ_A, IRQ_B = 22, 122  # the radios' IRQ pins in fresh_pair


def on_air(med, model):
    """Every frame `model` puts on air, in order."""
    frames = []
    med.listeners.append(lambda f: frames.append(f)
                         if f.sender is model else None)
    return frames


def plus_pair():
    """Two nRF24L01+ through the driver: (medium, ma, a, mb, b)."""
    return fresh_pair(True, True)


# ---- the driver: what it writes and what the peer sees ---------------------

def test_set_rf_writes_the_datasheet_rate_and_power_bits():
    """RF_SETUP [RF_DR_LOW, RF_DR_HIGH]: 00 1 Mbps, 01 2 Mbps, 10 250 kbps;
    RF_PWR (bits 2:1): 00 -18 dBm, 01 -12, 10 -6, 11 0 dBm."""
    _, ma, a, _, _ = plus_pair()
    for rate, bits in ((nrf24l01.RATE_1M, 0), (nrf24l01.RATE_2M, RF_DR_HIGH),
                       (nrf24l01.RATE_250K, RF_DR_LOW)):
        a.set_rf(rate, nrf24l01.POWER_0DBM)
        assert ma.regs[N.RF_SETUP] & (RF_DR_LOW | RF_DR_HIGH) == bits, rate
    for power, field in ((nrf24l01.POWER_M18DBM, 0b00),
                         (nrf24l01.POWER_M12DBM, 0b01),
                         (nrf24l01.POWER_M6DBM, 0b10),
                         (nrf24l01.POWER_0DBM, 0b11)):
        a.set_rf(nrf24l01.RATE_1M, power)
        assert ma.regs[N.RF_SETUP] >> 1 & 0b11 == field, power


def test_two_handhelds_at_2_mbps_talk_at_2_mbps():
    med, ma, a, mb, b = plus_pair()
    frames = on_air(med, ma)
    for r in (a, b):
        r.set_rf(nrf24l01.RATE_2M, nrf24l01.POWER_0DBM)
    b.start_listening()
    assert a.send(b"fast") is True and b.recv() == 4
    assert frames[0].rate == 2000000


def test_channels_0_and_125_are_accepted_and_used():
    """RF_CH: 2400 + RF_CH MHz; the driver allows 0..125 (its message)."""
    med, ma, a, mb, b = plus_pair()
    frames = on_air(med, ma)
    b.start_listening()
    for ch in (0, 125):
        for r in (a, b):
            r.set_channel(ch)
        assert ma.regs[N.RF_CH] == ch and mb.regs[N.RF_CH] == ch
        assert a.send(b"edge") is True and b.recv() == 4
        assert frames[-1].channel == ch


def test_ard_250_us_and_arc_0_are_accepted_arc_0_means_one_try():
    """SETUP_RETR: ARD 0000 is 250 us, ARC 0000 're-transmit disabled'."""
    med, ma, a, mb, b = plus_pair()
    frames = on_air(med, ma)
    a.set_retries(250, 0)
    assert ma.regs[N.SETUP_RETR] == 0x00
    assert a.send(b"once") is False                 # b is not listening
    assert len(frames) == 1 and ma.retransmits == 0 and a.lost == 1


def test_retries_count_arc_cnt_not_plos_cnt():
    """OBSERVE_TX: ARC_CNT (bits 3:0) counts one packet's retransmissions;
    PLOS_CNT (bits 7:4) counts lost packets and a send does not clear it."""
    _, ma, a, mb, b = plus_pair()                   # ARC 5
    assert a.send(b"lost") is False and a.retries == 5
    assert ma.regs[N.OBSERVE_TX] >> 4 == 1
    b.start_listening()
    assert a.send(b"acked") is True and a.retries == 5
    assert ma.regs[N.OBSERVE_TX] >> 4 == 1          # still counts the lost one


def test_a_send_with_the_irq_wire_missing_gives_up_after_100_ms():
    """send()'s timeout_us is 100 ms: the OSError comes then, not later."""
    _, ma, a, mb, b = fresh(irq_wired=False)
    b.start_listening()
    t0 = sim_clock.now_us()
    with pytest.raises(OSError):
        a.send(b"hello")
    assert 100000 <= sim_clock.now_us() - t0 < 105000     # + power-up


def test_a_short_pipe_1_address_is_refused_and_changes_nothing():
    _, ma, a, mb, b = plus_pair()
    with pytest.raises(ValueError) as e:
        b.open_rx_pipe(1, b"CCCC")
    assert "5 bytes" in str(e.value)
    assert mb.rx_address(1) == b"BBBBB" and mb.regs[N.EN_RXADDR] == 0x03


def test_pipes_2_to_5_each_take_their_first_byte_and_ack():
    """RX_ADDR_P2..P5 hold the address LSByte only (the byte written first);
    the other bytes are RX_ADDR_P1's. Each packet lands on its own pipe and
    the sender gets its ACK; STATUS RX_P_NO (bits 3:1) names the pipe of
    the payload read next, the oldest."""
    _, ma, a, mb, b = plus_pair()                    # b's pipe 1: BBBBB
    for pipe in range(2, 6):
        b.open_rx_pipe(pipe, b"%dBBBB" % pipe)
    assert mb.regs[N.EN_RXADDR] == 0x3F
    b.start_listening()
    for group in ((2, 3, 4), (5, 1)):
        for pipe in group:
            a.open_tx_pipe(b"%dBBBB" % pipe if pipe > 1 else b"BBBBB")
            assert a.send(b"to %d" % pipe) is True, pipe
        for pipe in group:
            assert b.status() >> 1 & 0b111 == pipe
            assert b.recv() == 4 and bytes(b.rx[:4]) == b"to %d" % pipe


def test_closing_pipe_0_is_refused_so_acks_still_come():
    """Pipe 0 takes the ACKs (open_rx_pipe refuses it too): closed, the
    peer would get every packet and every send() would say False."""
    _, ma, a, mb, b = plus_pair()
    for pipe in (0, 6):
        with pytest.raises(ValueError) as e:
            a.close_rx_pipe(pipe)
        assert "1..5" in str(e.value)
    assert ma.regs[N.EN_RXADDR] == 0x03
    b.start_listening()
    assert a.send(b"acked") is True and b.recv() == 5


def test_a_length_past_the_buffer_is_refused_and_listening_goes_on():
    """send(buf, n) with n > len(buf): a ValueError before the chip is
    touched, so a listening radio still hears its peer."""
    _, ma, a, mb, b = plus_pair()
    a.start_listening()
    with pytest.raises(ValueError) as e:
        a.send(b"abc", 4)
    assert "payload" in str(e.value)
    assert a.listening and ma.mode == N.RX_MODE and ma.sent == 0
    assert b.send(b"still") is True and a.recv() == 5


def test_250_kbps_needs_an_ard_of_500_us_and_a_refusal_writes_nothing():
    """At 250 kbps the PTX waits 500 us for an ACK's address (spec 7.4.2,
    Table 18: ARD 500 us at the least): a shorter ARD is a ValueError, in
    the constructor before any register is written, and from set_retries or
    set_rf without changing SETUP_RETR or RF_SETUP."""
    med, ma, a, mb, b = plus_pair()
    before = bytes(ma.regs)
    with pytest.raises(ValueError) as e:
        nrf24l01.NRF24L01(machine.SPI(0, baudrate=4000000), machine.Pin(5),
                          machine.Pin(14), machine.Pin(IRQ_A),
                          rate=nrf24l01.RATE_250K, ard_us=250)
    assert "500" in str(e.value) and bytes(ma.regs) == before
    a.set_retries(250, 3)                           # at 1 Mbps: fine
    with pytest.raises(ValueError):
        a.set_rf(nrf24l01.RATE_250K, nrf24l01.POWER_0DBM)
    assert ma.regs[N.SETUP_RETR] == 0x03 and ma.regs[N.RF_SETUP] == before[N.RF_SETUP]
    a.set_retries(500, 3)
    a.set_rf(nrf24l01.RATE_250K, nrf24l01.POWER_0DBM)
    with pytest.raises(ValueError):
        a.set_retries(250, 5)
    assert ma.regs[N.SETUP_RETR] == 0x13
    b.set_rf(nrf24l01.RATE_250K, nrf24l01.POWER_0DBM)
    b.start_listening()
    assert a.send(b"slow") is True and b.recv() == 4 and ma.retransmits == 0


def test_check_wires_at_250_kbps_gives_its_ack_500_us():
    """The self-test's send wants an ACK too, so at 250 kbps its ARD is
    500 us or more like any other (the model notes a shorter one)."""
    med, ma, a, mb, b = plus_pair()
    a.set_rf(nrf24l01.RATE_250K, nrf24l01.POWER_0DBM)
    a.check_wires()
    assert ma.sent == 1 and ma.violations == []
    assert ma.regs[N.SETUP_RETR] == 0x15                # restored


def test_start_listening_returns_once_the_chip_listens():
    """Tstby2a: 130 us from CE high to RX mode."""
    _, ma, a, mb, b = plus_pair()
    b.start_listening()
    assert mb.listening(sim_clock.now_us())


def test_no_flag_is_left_set_after_a_send_so_the_irq_pin_is_high():
    """TX_DS and MAX_RT stay set (IRQ low) until written 1: the driver
    clears them once send() has its answer, acknowledged or not."""
    _, ma, a, mb, b = plus_pair()
    for listening in (False, True):
        if listening:
            a.start_listening()
        b.start_listening()
        assert a.send(b"acked") is True and b.recv() == 5
        assert not ma.regs[N.STATUS] & 0x70 and machine.pin_level(IRQ_A) == 1
        b.power_down()
        assert a.send(b"lost") is False
        assert not ma.regs[N.STATUS] & 0x70 and machine.pin_level(IRQ_A) == 1


def test_a_dropped_corrupt_packet_leaves_rx_dr_clear():
    """After FLUSH_RX for a width over 32, RX_DR is cleared too: the IRQ
    pin goes high, as after a payload that was read."""
    _, ma, a, mb, b = plus_pair()
    b.start_listening()
    assert a.send(b"bad") is True
    mb.glitch_width(33)
    assert machine.pin_level(IRQ_B) == 0
    assert b.recv() == 0 and b.dropped == 1
    assert not mb.regs[N.STATUS] & N.RX_DR and machine.pin_level(IRQ_B) == 1


# ---- the model: timing on air ---------------------------------------------

def test_time_on_air_is_the_datasheet_formula(air):
    """TOA = (8 x (1 preamble + AW + payload + CRC bytes) + 9 PCF bits) / rate;
    with SETUP_AW 01 the address is the 3 bytes written first."""
    med, a, _ = air
    frames = sniff(med, a)
    a.setup(False, A, B, retr=0x00)
    send(a, bytes(32))
    f = frames[-1]
    assert f.t_end - f.t0 == 8 * (1 + 5 + 32 + 2) + 9          # 1 Mbps
    a.w(N.RF_SETUP, 0x26)                                       # 250 kbps
    a.xfer(N.FLUSH_TX)
    send(a, bytes(32))
    f = frames[-1]
    assert f.t_end - f.t0 == (8 * (1 + 5 + 32 + 2) + 9) * 4
    a.w(N.RF_SETUP, 0x06)
    a.w(N.SETUP_AW, 0x01)                                       # 3 bytes
    a.w(N.CONFIG, N.EN_CRC | N.PWR_UP)                          # 1-byte CRC
    a.xfer(N.FLUSH_TX)
    send(a, b"x")
    f = frames[-1]
    assert f.addr == B[:3] and f.t_end - f.t0 == 8 * (1 + 3 + 1 + 1) + 9


def test_tx_goes_on_air_130_us_after_ce_rises(air):
    """Tstby2a, standby to TX: 130 us (from CE high, or from the end of the
    10 us minimum pulse)."""
    med, a, _ = air
    frames = sniff(med, a)
    a.setup(False, A, B, retr=0x00)
    a.load(b"x")
    rise = sim_clock.now_us()
    a.pulse()
    sim_clock.advance_us(2000)
    assert 130 <= frames[0].t0 - rise <= 140


def test_at_1_mbps_an_ard_of_250_us_fits_an_ack_payload_of_5_bytes_not_6(air):
    """SETUP_RETR note: 'if the ACK payload is more than 5 byte in 1Mbps
    mode the ARD must be 500uS or more': the PRX's 130 us settling and the
    ACK's time on air must fit in ARD. No retransmit (ARC 0): the ACK that
    comes too late is a MAX_RT."""
    _, a, b = air
    b.setup(True, B, A)
    a.setup(False, A, B, retr=0x00)
    b.xfer(N.W_ACK_PAYLOAD | 1, *b"12345")
    st = send(a, b"p")
    assert st & N.TX_DS and st & N.RX_DR
    assert a.xfer(N.R_RX_PAYLOAD, *[0] * 5)[1:] == b"12345"
    b.xfer(N.W_ACK_PAYLOAD | 1, *b"123456")
    assert send(a, b"q") & N.MAX_RT and b.model.received == 2


# ---- the model: FIFOs and dynamic payload length ---------------------------

def test_rx_fifo_is_full_at_three_payloads_not_two(air):
    """FIFO_STATUS RX_FULL (bit 1): the RX FIFO holds three payloads."""
    _, a, b = air
    b.setup(True, B, A)
    a.setup(False, A, B)
    for i in range(3):
        assert not b.r(N.FIFO_STATUS) & 0x02, i
        assert send(a, bytes([i])) & N.TX_DS
    assert b.r(N.FIFO_STATUS) & 0x03 == 0x02           # RX_FULL, not empty



def test_a_ptx_sends_a_payload_length_only_with_dpl_p0(air):
    """'A PTX that transmits to a PRX with DPL enabled must have the DPL_P0
    bit in DYNPD set': without it no length goes in the packet control
    field, and the PRX's DPL pipe takes nothing."""
    _, a, b = air
    b.setup(True, B, A)
    a.setup(False, A, B, retr=0x00)
    a.w(N.DYNPD, 0x3E)
    assert send(a, b"x") & N.MAX_RT and b.model.received == 0
    a.xfer(N.FLUSH_TX)
    a.w(N.DYNPD, 0x01)
    assert send(a, b"x") & N.TX_DS and b.model.received == 1


def test_each_pipe_has_its_own_static_width(air):
    """Static payload length (no DPL): RX_PW_Px (11h + x) is pipe x's
    width; a packet of another width is not taken."""
    _, a, b = air
    b.setup(True, B, A, dpl=False)
    a.setup(False, A, B, retr=0x00, dpl=False)
    pipe2 = bytes([0x77]) + B[1:]               # P2's LSByte, P1's others
    b.w(N.RX_ADDR_P0 + 2, 0x77)
    b.w(N.EN_RXADDR, 0x07)
    b.w(N.RX_PW_P0 + 1, 4)
    b.w(N.RX_PW_P0 + 2, 2)
    a.w(N.TX_ADDR, *pipe2)
    a.w(N.RX_ADDR_P0, *pipe2)
    assert send(a, b"four") & N.MAX_RT and b.model.received == 0
    a.xfer(N.FLUSH_TX)
    assert send(a, b"2!") & N.TX_DS and b.model.received == 1
    assert b.status() >> 1 & 0b111 == 2
