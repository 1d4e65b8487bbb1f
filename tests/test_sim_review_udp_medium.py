"""host_sim.radio_medium.UdpMedium against datagrams that are not a peer
simulator's (anything can be sent to a UDP port on 127.0.0.1), and with
more than one peer answering the same frame."""
import json
import socket

import host_sim

host_sim.install()
import sim_clock  # noqa: E402
from host_sim import radio_medium  # noqa: E402
import nrf24l01_model as N  # noqa: E402
from nrf24l01_model import Frame  # noqa: E402

ADDR = b"\xe7\xe7\xe7\xe7\xe7"


class Ear:
    """A radio that hears every frame and acknowledges it (empty ACK)."""

    def __init__(self):
        self.heard = []

    def air_receive(self, f):
        self.heard.append((f.channel, f.addr, f.payload))
        return Frame(f.channel, f.rate, f.addr, b"", f.pid, True, f.dpl,
                     f.crc, True)


def listening_medium():
    """A UDP medium with no peers of its own, an Ear its one radio."""
    sim_clock.reset()
    medium = radio_medium.UdpMedium(0, [])
    ear = Ear()
    medium.radios.append(ear)
    return medium, ear


def frame_msg(fid, **over):
    msg = {"k": "f", "id": fid, "ch": 76, "rate": 1000000,
           "addr": ADDR.hex(), "p": "0102", "pid": 1, "noack": False,
           "dpl": True, "crc": 2, "air": 100}
    msg.update(over)
    return json.dumps(msg).encode()


FOREIGN = [
    b"", b"\xff\xfe", b"hello", b"[]", b"5", b"null", b'"k"',
    b'{"k": "f"}', b'{"k": "a"}', b'{"k": "a", "id": 3, "ack": ""}',
    b'{"k": "a", "id": "9:9", "ack": "zz"}',
    frame_msg("x:1", addr="zz"), frame_msg("x:2", p=7),
    frame_msg("x:3", ch="76"), frame_msg("x:4", p="00" * 33),
    frame_msg("x:5", addr=""), frame_msg("x:6", air=-5),
    frame_msg("x:7", rate=12345), frame_msg("x:8", pid=9),
    frame_msg("x:9", id=None),
    # well-formed JSON, but no frame an NRF24L01 could have sent
    frame_msg("x:10", ch=128), frame_msg("x:11", addr="e7" * 6),
    frame_msg("x:12", addr="e7e7"), frame_msg("x:13", pid=4),
    frame_msg("x:14", crc=3), frame_msg("x:15", noack=1),
    frame_msg("x:16", dpl="yes"), frame_msg("x:17", air=100001),
    frame_msg("x:18", k="x"), b'{"k": "f", "id": "x:19"}',
    b'{"k": "a", "id": "9:9"}', b'{"k": "a", "id": "9:9", "ack": "%s"}'
    % (b"00" * 33),
    # nested past json's depth: a RecursionError, not a ValueError
    b"[" * 4000, b'{"k": "a", "id": "x", "ack": %s}' % (b"[" * 4000),
]


def test_foreign_datagrams_are_dropped_and_peers_still_heard():
    medium, ear = listening_medium()
    peer = peer_socket()
    try:
        # on the loopback only: no other machine can send to it
        assert medium.sock.getsockname()[0] == "127.0.0.1"
        for data in FOREIGN:
            peer.sendto(data, ("127.0.0.1", medium.port))
            medium.pump(0.2)            # no exception out of the hook
        assert ear.heard == []          # nothing that could not be on air
        assert medium._replies == {}    # nor kept as an answer
        assert medium.stats["foreign"] == len(FOREIGN)   # each one counted
        # a peer's frame after all that is heard and answered with the ACK
        peer.sendto(frame_msg("7:1"), ("127.0.0.1", medium.port))
        medium.pump(0.5)
        assert ear.heard == [(76, ADDR, b"\x01\x02")]
        reply = json.loads(peer.recv(4096).decode())
        assert reply == {"k": "a", "id": "7:1", "ack": ""}
    finally:
        peer.close()
        medium.close()


class Sender:
    def __init__(self):
        self.acks = []
        self.times = []         # when each ACK came in (simulated us)

    def ack_in(self, f, ack):
        self.acks.append(ack.payload)
        self.times.append(sim_clock.now_us())


def peer_socket(timeout=2.0):
    """A peer simulator's port on the loopback (the OS picks it)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    s.settimeout(timeout)
    return s


def outgoing(payload=b"\x01", pid=1, t0=0, sender=None):
    """A frame from a radio of this process, on air from t0 for 100 us."""
    f = Frame(76, 1000000, ADDR, payload, pid, False, True, 2)
    f.t0, f.t_end = t0, t0 + 100
    f.sender = sender or Sender()
    return f


def answer_next(peer, medium, ack=""):
    """The peer's answer to the medium's next frame, waiting on its port
    before the frame is sent; the frame's id."""
    fid = "%d:%d" % (medium.port, medium._next_id + 1)
    peer.sendto(json.dumps({"k": "a", "id": fid, "ack": ack}).encode(),
                ("127.0.0.1", medium.port))
    return fid


def count_pumps(medium):
    """The timeouts of the medium's pumps from now on, in a list."""
    pumps = []
    pump = medium.pump

    def counted(timeout=0.0):
        pumps.append(timeout)
        return pump(timeout)
    medium.pump = counted
    return pumps


def test_every_peer_answer_counts_and_an_ack_is_not_overwritten():
    """Two peers answer one frame, the one that heard it first: its ACK
    must reach the sender even when the other's 'not for me' comes in the
    same pump, and the sender stops waiting once both have answered."""
    sim_clock.reset()
    b, c = peer_socket(), peer_socket()
    medium = radio_medium.UdpMedium(0, [b.getsockname()[1],
                                        c.getsockname()[1]], wait_s=1.0)
    try:
        f = outgoing()
        fid = "%d:%d" % (medium.port, medium._next_id + 1)
        # both answers are waiting on the port when the sender listens
        for data in (b'{"k": "a", "id": "%s", "ack": ""}' % fid.encode(),
                     b'{"k": "a", "id": "%s", "ack": null}' % fid.encode()):
            b.sendto(data, ("127.0.0.1", medium.port))
        pumps = count_pumps(medium)
        medium._send_remote(f)
        # both answers were read in the first pump: it did not go on
        # pumping for a third until wait_s ran out
        assert len(pumps) == 1, len(pumps)
        sim_clock.advance_us(5000)
        assert f.sender.acks == [b""]
        assert medium._replies == {}
    finally:
        b.close()
        c.close()
        medium.close()


def test_every_frame_an_nrf24l01_can_send_is_heard(tmp_path):
    """A peer's frame at each limit of what the chip can put on air (any
    channel, each data rate, 3- to 5-byte addresses, empty and 32-byte
    payloads, every PID, no or 1-byte CRC, no ACK asked, static width) is
    heard and answered; a sniffer gets it too, on air for as long as the
    sender said, ending now on this simulator's clock."""
    medium, ear = listening_medium()
    sniffed = []
    medium.listeners.append(lambda f: sniffed.append((f.t0, f.t_end)))
    peer = peer_socket()
    limits = [{"ch": 0}, {"ch": 127}, {"rate": 250000}, {"rate": 2000000},
              {"addr": "e7e7e7"}, {"addr": "e7e7e7e7"}, {"p": ""},
              {"p": "ab" * 32}, {"pid": 0}, {"pid": 3}, {"crc": 0},
              {"crc": 1}, {"noack": True}, {"dpl": False}, {"air": 1350}]
    try:
        sim_clock.advance_us(5000)
        for n, over in enumerate(limits):
            peer.sendto(frame_msg("7:%d" % n, **over),
                        ("127.0.0.1", medium.port))
            medium.pump(0.5)
            reply = json.loads(peer.recv(4096).decode())
            assert reply == {"k": "a", "id": "7:%d" % n, "ack": ""}, over
            want = dict(json.loads(frame_msg("", **over)))
            assert ear.heard[-1] == (want["ch"], bytes.fromhex(want["addr"]),
                                     bytes.fromhex(want["p"])), over
            assert sniffed[-1] == (5000 - want["air"], 5000), over
        assert len(ear.heard) == len(limits)
        assert medium.stats["foreign"] == 0
    finally:
        peer.close()
        medium.close()


def test_the_first_ack_reaches_the_sender_once_after_its_air_time():
    """Two peers acknowledge one frame, each with its own ACK payload (the
    longer the chip allows, 32 bytes): the sender takes the first, once,
    when it has been on air after the receiver's turnaround."""
    sim_clock.reset()
    b = peer_socket()
    medium = radio_medium.UdpMedium(0, [b.getsockname()[1]], wait_s=1.0)
    try:
        f = outgoing()
        first, second = "5a" * 32, "77"
        for ack in (first, second):
            answer_next(b, medium, ack)
        medium._send_remote(f)
        sim_clock.advance_us(5000)
        assert f.sender.acks == [bytes.fromhex(first)]
        assert f.sender.times == [100 + N.T_SETTLE + N.air_us(32, 5, 2,
                                                               1000000)]
    finally:
        b.close()
        medium.close()


def test_an_injected_frame_acknowledged_by_a_peer():
    """inject() is a transmitter with no radio model behind it: a peer's
    ACK for its frame has nobody to go to, and is no error."""
    sim_clock.reset()
    b = peer_socket()
    medium = radio_medium.UdpMedium(0, [b.getsockname()[1]], wait_s=1.0)
    try:
        fid = answer_next(b, medium)
        medium.inject(76, ADDR, b"\x01", rate=1000000)
        sim_clock.advance_us(5000)
        got = json.loads(b.recv(4096).decode())
        assert got["id"] == fid and bytes.fromhex(got["p"]) == b"\x01"
        assert medium._replies == {}
    finally:
        b.close()
        medium.close()


def test_out_of_range_nothing_goes_to_the_peers():
    sim_clock.reset()
    b = peer_socket(0.5)
    medium = radio_medium.UdpMedium(0, [b.getsockname()[1]], wait_s=0.01)
    try:
        for enabled in (False, True):
            medium.enabled = enabled
            medium.inject(76, ADDR, bytes([enabled]), rate=1000000)
            sim_clock.advance_us(5000)
        got = json.loads(b.recv(4096).decode())
        assert bytes.fromhex(got["p"]) == b"\x01"      # the second only
    finally:
        b.close()
        medium.close()


def test_loss_applies_to_the_frame_and_to_the_ack():
    """Between processes `loss` loses frames on the way to the peer and
    ACKs on the way back, each drawn on its own: fewer ACKs come back
    than frames arrive, and fewer frames arrive than were sent."""
    sim_clock.reset()
    b = peer_socket(0)                  # non-blocking
    medium = radio_medium.UdpMedium(0, [b.getsockname()[1]], wait_s=1.0,
                                    loss=0.5, seed=5)
    sender = Sender()
    sent = 40
    try:
        for n in range(sent):
            # the peer's answer waits on the port (used if the frame goes)
            answer_next(b, medium)
            medium._send_remote(outgoing(bytes([n]), n % 4, 1000 * n, sender))
        sim_clock.advance_us(sent * 1000 + 5000)
        arrived = 0
        while True:
            try:
                b.recv(4096)
            except BlockingIOError:
                break
            arrived += 1
        assert 0 < arrived < sent
        assert 0 < len(sender.acks) < arrived
        assert medium.stats["lost"] == sent - len(sender.acks)
    finally:
        b.close()
        medium.close()


def test_sender_waits_only_for_the_peers_a_frame_went_to():
    """With one of two peers' copies lost, the one answer that can come
    ends the wait: the sender does not pump on until wait_s runs out."""
    sim_clock.reset()
    b, c = peer_socket(), peer_socket()
    medium = radio_medium.UdpMedium(0, [b.getsockname()[1],
                                        c.getsockname()[1]], wait_s=1.0,
                                    loss=0.5, seed=1)
    try:
        f = outgoing()
        answer_next(c, medium)
        pumps = count_pumps(medium)
        medium._send_remote(f)
        assert medium.stats["lost"] == 1            # the copy to b (seed 1)
        assert len(pumps) == 1, len(pumps)
        sim_clock.advance_us(5000)
        assert f.sender.acks == [b""]
    finally:
        b.close()
        c.close()
        medium.close()


class RefusedOnce:
    """The medium's socket as on Windows after a peer's port closed: the
    next recvfrom raises ConnectionResetError (the ICMP 'port unreachable'
    coming back), then the socket works on."""

    def __init__(self, sock):
        self.sock = sock
        self.raised = False

    def fileno(self):
        return self.sock.fileno()

    def recvfrom(self, n):
        if not self.raised:
            self.raised = True
            raise ConnectionResetError(10054, "peer's port closed")
        return self.sock.recvfrom(n)

    def sendto(self, data, addr):
        return self.sock.sendto(data, addr)


def test_a_peer_gone_does_not_stop_the_medium():
    medium, ear = listening_medium()
    real = medium.sock
    medium.sock = RefusedOnce(real)
    peer = peer_socket()
    try:
        peer.sendto(frame_msg("7:1"), ("127.0.0.1", medium.port))
        medium.pump(0.5)
        assert medium.sock.raised
        assert ear.heard == [(76, ADDR, b"\x01\x02")]
    finally:
        peer.close()
        real.close()


def test_a_closed_medium_leaves_the_clock_alone():
    """close() gave the port back but left the medium's hook on the clock:
    the next time the clock moved, the hook pumped a closed socket
    (ValueError: file descriptor cannot be a negative integer)."""
    medium, ear = listening_medium()
    medium.install_hook()               # as Device does after a reset
    medium.close()
    sim_clock.advance_us(10)
    assert sim_clock.now_us() == 10
