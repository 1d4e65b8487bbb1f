"""host_sim.radio_medium.Medium in one process, beyond its knobs (those are
in test_radio_model): who hears a frame, when two frames or a frame and an
ACK destroy each other, a lost ACK, the sniffer, an injected packet's time
on air. The radios here are stubs that hear every frame, so what is
checked is the medium, not the NRF24L01 model's filtering."""
import host_sim

host_sim.install()
import sim_clock  # noqa: E402
from host_sim import radio_medium  # noqa: E402
from nrf24l01_model import Frame, T_SETTLE, air_us  # noqa: E402

ADDR = b"\xe7\xe7\xe7\xe7\xe7"
RATE = 1000000


class Radio:
    """Hears every frame (noting when), acknowledges it if `ack`."""

    def __init__(self, medium, ack=False):
        self.heard = []         # (arrival us, payload)
        self.acks = []          # (arrival us, payload of the frame acked)
        self.ack = ack
        medium.attach(self)

    def air_receive(self, f):
        self.heard.append((sim_clock.now_us(), f.payload))
        if not self.ack:
            return None
        a = Frame(f.channel, f.rate, f.addr, b"", f.pid, True, f.dpl, f.crc,
                  True)
        a.t0 = f.t_end + T_SETTLE
        a.t_end = a.t0 + air_us(0, len(f.addr), f.crc, f.rate)
        a.sender = self
        return a

    def ack_in(self, f, ack):
        self.acks.append((sim_clock.now_us(), f.payload))

    def send(self, payload, t0, air=400, ch=76):
        """Put a frame on air from t0 to t0 + air (us)."""
        f = Frame(ch, RATE, ADDR, payload, 0, False, True, 2)
        f.t0, f.t_end, f.sender = t0, t0 + air, self
        sim_clock.call_at(t0, lambda: self.medium.transmit(self, f))
        return f


def air():
    sim_clock.reset()
    return radio_medium.Medium(seed=1)


def payloads(radio):
    return [p for _, p in radio.heard]


def test_a_frame_reaches_every_other_radio_once():
    """Each other radio hears a frame once, at its end on air; the sender
    does not hear itself; attaching twice is still one radio, a detached
    radio hears nothing and is off the air."""
    med = air()
    a, b, c = Radio(med), Radio(med), Radio(med)
    med.attach(b)
    a.send(b"1", 100)
    sim_clock.advance_us(5000)
    assert a.heard == []
    assert b.heard == c.heard == [(500, b"1")]
    med.detach(b)
    assert b.medium is None
    a.send(b"2", 6000)
    sim_clock.advance_us(5000)
    assert payloads(b) == [b"1"] and payloads(c) == [b"1", b"2"]


def test_frames_collide_only_while_both_are_on_air():
    """Back to back on one channel, both are heard; overlapping, neither,
    even when another frame (on another channel) starts between the two
    ends and the medium tidies its record of the air."""
    med = air()
    a, b, c, d = Radio(med), Radio(med), Radio(med), Radio(med)
    a.send(b"a", 1000, air=1000)
    b.send(b"b", 2000, air=1000)            # starts as a's ends
    sim_clock.advance_us(4000)
    assert payloads(c) == [b"a", b"b"] and med.stats["collisions"] == 0
    a.send(b"A", 10000, air=1000)
    b.send(b"B", 10500, air=1000)
    d.send(b"d", 11200, air=100, ch=10)     # after A's end, before B's
    sim_clock.advance_us(10000)
    assert payloads(c) == [b"a", b"b", b"d"]
    assert med.stats["collisions"] == 6     # A at b, c, d; B at a, c, d


def test_an_ack_on_air_destroys_a_frame_it_overlaps():
    med = air()
    a, b, c, d = Radio(med), Radio(med, ack=True), Radio(med), Radio(med)
    f = a.send(b"a", 0, air=400)
    ack_start = f.t_end + T_SETTLE
    d.send(b"d", ack_start + 20, air=300)    # over b's ACK to a
    sim_clock.advance_us(5000)
    assert payloads(b) == payloads(c) == [b"a"]
    assert a.acks == [(ack_start + air_us(0, 5, 2, RATE), b"a")]


def test_a_lost_ack_never_reaches_the_sender():
    med = air()
    med.drop = lambda f, r: f.is_ack        # every ACK lost, no frame
    a, b = Radio(med), Radio(med, ack=True)
    a.send(b"a", 0)
    sim_clock.advance_us(5000)
    assert payloads(b) == [b"a"] and a.acks == []
    assert med.stats["lost"] == 1


def test_sniffer_hears_frames_put_on_air_out_of_range():
    """`enabled = False` puts the radios out of each other's range; the
    frames are still on air, and a listener (sniffer) still gets them."""
    med = air()
    a, b = Radio(med), Radio(med)
    sniffed = []
    med.listeners.append(lambda f: sniffed.append(f.payload))
    med.enabled = False
    a.send(b"a", 0)
    sim_clock.advance_us(5000)
    assert sniffed == [b"a"] and b.heard == []


def test_an_injected_packet_is_on_air_for_its_length():
    med = air()
    b = Radio(med)
    sim_clock.advance_us(1000)
    f = med.inject(76, ADDR, b"xy", rate=RATE)
    sim_clock.advance_us(5000)
    assert f.t_end - f.t0 == air_us(2, 5, 2, RATE)
    assert b.heard == [(1000 + air_us(2, 5, 2, RATE), b"xy")]
