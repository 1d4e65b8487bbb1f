"""host_sim.radio_medium.UdpMedium against datagrams that are not a peer
simulator's (anything can be sent to a UDP port on 127.0.0.1), and with
more than one peer answering the same frame."""
import json
import socket

import host_sim

host_sim.install()
import sim_clock  # noqa: E402
from host_sim import radio_medium  # noqa: E402
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
]


def test_foreign_datagrams_are_dropped_and_peers_still_heard():
    sim_clock.reset()
    medium = radio_medium.UdpMedium(0, [])
    ear = Ear()
    medium.radios.append(ear)
    peer = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    peer.bind(("127.0.0.1", 0))
    peer.settimeout(2)
    try:
        for data in FOREIGN:
            peer.sendto(data, ("127.0.0.1", medium.port))
            medium.pump(0.2)            # no exception out of the hook
        assert ear.heard == []          # nothing that could not be on air
        assert medium._replies == {}    # nor kept as an answer
        # a peer's frame after all that is heard and answered with the ACK
        peer.sendto(frame_msg("7:1"), ("127.0.0.1", medium.port))
        medium.pump(0.5)
        assert ear.heard == [(76, ADDR, b"\x01\x02")]
        reply = json.loads(peer.recv(4096).decode())
        assert reply == {"k": "a", "id": "7:1", "ack": ""}
    finally:
        peer.close()
        medium.sock.close()


class Sender:
    def __init__(self):
        self.acks = []

    def ack_in(self, f, ack):
        self.acks.append(ack.payload)


def test_every_peer_answer_counts_and_an_ack_is_not_overwritten():
    """Two peers answer one frame, the one that heard it first: its ACK
    must reach the sender even when the other's 'not for me' comes in the
    same pump, and the sender stops waiting once both have answered."""
    sim_clock.reset()
    b = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    c = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    b.bind(("127.0.0.1", 0))
    c.bind(("127.0.0.1", 0))
    medium = radio_medium.UdpMedium(0, [b.getsockname()[1],
                                        c.getsockname()[1]], wait_s=1.0)
    try:
        f = Frame(76, 1000000, ADDR, b"\x01", 1, False, True, 2)
        f.t0, f.t_end = 0, 100
        f.sender = Sender()
        fid = "%d:%d" % (medium.port, medium._next_id + 1)
        # both answers are waiting on the port when the sender listens
        for data in (b'{"k": "a", "id": "%s", "ack": ""}' % fid.encode(),
                     b'{"k": "a", "id": "%s", "ack": null}' % fid.encode()):
            b.sendto(data, ("127.0.0.1", medium.port))
        pumps = []
        pump = medium.pump

        def counted(timeout=0.0):
            pumps.append(timeout)
            return pump(timeout)
        medium.pump = counted
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
        medium.sock.close()
