"""Fuzz the match protocol: random bytes, mutated and forged packets reach a
paired device through its radio. Nothing may raise, nothing may change the
game, the pairing or the link state; every packet is counted as rejected."""
import random
import time

from hypothesis import given, settings, strategies as st, HealthCheck

import host_sim.match as H
import link as L
import match as M


class FeedRadio:
    """Stands in for the driver: hands the Match the packets we choose."""

    def __init__(self):
        self.rx = bytearray(32)
        self.inbox = []
        self.sent = []

    def any(self):
        return bool(self.inbox)

    def recv(self):
        p = self.inbox.pop(0)
        n = len(p)
        if n == 0 or n > 32:
            return 0                 # the driver drops bad widths
        self.rx[:n] = p
        return n

    def send(self, buf, n=-1):
        self.sent.append(bytes(buf[:n]))
        return True

    def open_tx_pipe(self, a):
        pass

    def open_rx_pipe(self, p, a):
        pass

    def close_rx_pipe(self, p):
        pass

    def start_listening(self):
        pass

    def stop_listening(self):
        pass

    def power_down(self):
        pass


def fingerprint(m):
    g = m.game
    return (m.state, m.code, m.session, m.game_no, m.count,
            bytes(m.moves[:m.count]), m.my_colour, m.rematch_wanted,
            m.peer_rematch, g.turn, g.winner, m.last_peer_move,
            tuple(g.stone(x, y) for y in range(15) for x in range(15)),
            [e[:5] for e in m.link.queue])


def setup_pair(seed=3):
    """A host and a joiner after 5 moves; every packet on air captured."""
    medium = H.make_medium(seed=seed)
    captured = []
    medium.listeners.append(
        lambda f: captured.append(f.payload) if not f.is_ack else None)
    na, nb = H.Node(0, medium), H.Node(1, medium)
    a = M.Match(na.radio, host=True, seed=seed, now_ms=time.ticks_ms())
    b = M.Match(nb.radio, host=False, seed=seed + 1, now_ms=time.ticks_ms())

    def run(cond):
        for _ in range(2000):
            a.poll(time.ticks_ms())
            b.poll(time.ticks_ms())
            if cond():
                return
            time.sleep_ms(5)
        raise AssertionError("no progress")
    run(lambda: a.state == b.state == M.PAIRED)
    for k in range(5):
        mover = a if k % 2 == 0 else b
        assert mover.send_move(3 + k, 4 + (k % 2))
        run(lambda n=k + 1: a.count == b.count == n and not a.link.queue
            and not b.link.queue)
    # the joiner (white) is to move; its radio is now ours to feed
    feed = FeedRadio()
    b.link.radio = feed
    return a, b, feed, [p for p in captured if L.Link.check(p, len(p))]


# One pair for the tests that change nothing; a test that moves pairs its own.
A, B, FEED, VALID = setup_pair()
NOW = [time.ticks_ms()]


def deliver(packets, b=B):
    before = fingerprint(b)
    feed = b.link.radio
    feed.inbox.extend(packets)
    while feed.inbox:
        b.poll(NOW[0])
    assert fingerprint(b) == before


def with_crc(p, session=None):
    p = bytearray(p)
    n = len(p) - 2
    c = L.crc16(p, n, L.session_key(L.session_of(p) if session is None
                                     else session))
    p[n], p[n + 1] = c >> 8, c & 0xFF
    return bytes(p)


def packet(typ, game, count, payload, flags=L.F_HOST, session=None, seq=1, b=B):
    s = b.session if session is None else session
    body = bytes((L.VERSION, typ, flags, (s >> 24) & 0xFF, (s >> 16) & 0xFF,
                  (s >> 8) & 0xFF, s & 0xFF, game, seq >> 8, seq & 0xFF,
                  count)) + bytes(payload) + b"\0\0"
    return with_crc(body)


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(min_size=0, max_size=40))
def test_random_bytes_change_nothing(data):
    deliver([data])


def test_mutated_valid_packets_change_nothing():
    rng = random.Random(1)
    bad_before = B.stats["malformed"]
    batch = []
    for _ in range(1500):
        p = bytearray(rng.choice(VALID))
        kind = rng.randrange(3)
        if kind == 0:
            for _ in range(rng.randint(1, 3)):
                i = rng.randrange(len(p))
                p[i] ^= 1 << rng.randrange(8)
        elif kind == 1:
            p = p[:rng.randrange(len(p))]
        else:
            p.extend(rng.randrange(256) for _ in range(rng.randint(1, 6)))
        if L.Link.check(p, len(p)) or not p:
            continue                      # still valid (vanishingly rare)
        batch.append(bytes(p))
    deliver(batch)
    assert B.stats["malformed"] - bad_before == sum(
        1 for p in batch if len(p) <= 32)


def test_replayed_packets_change_nothing():
    deliver(list(VALID))


def test_forged_foreign_and_impossible_packets_change_nothing():
    st0 = dict(B.stats)
    c = B.count
    h = B._hash
    occupied = B.moves[0]
    ox, oy = occupied % 15, occupied // 15
    forged = [
        # another session, and ours with the joiner's own role reflected
        packet(L.MOVE, 0, c, (7, 7, h >> 8, h & 0xFF), session=B.session ^ 1),
        packet(L.STATUS, 0, c, (h >> 8, h & 0xFF, 0), session=0x12345678),
        packet(L.MOVE, 0, c, (7, 7, h >> 8, h & 0xFF), flags=0),
        packet(L.HELLO, 0, 0, (1, 2, 3, 4), session=0),
        packet(L.OFFER, 0, 0, (1, 2, 3, 4, 0, 1)),
        packet(L.JOIN, 0, 0, (1, 2, 3, 4)),
    ]
    semantic = [
        # the host moving onto an occupied point, off the board, with a
        # wrong hash, and a move that is the joiner's to make
        packet(L.MOVE, 0, c, (ox, oy, h >> 8, h & 0xFF)),
        packet(L.MOVE, 0, c, (15, 3, h >> 8, h & 0xFF)),
        packet(L.MOVE, 0, c, (9, 9, (h >> 8) ^ 1, h & 0xFF)),
        packet(L.MOVE, 0, c + 1, (9, 9, h >> 8, h & 0xFF)),
        packet(L.MOVE, 0, c, (9, 9)),
        packet(L.STATUS, 0, c, (1,)),
        packet(L.ACK, 0, c, ()),
        # history that is illegal, off-board or does not hash right
        packet(L.HIST, 0, c, (c, h >> 8, h & 0xFF, 0, 0, occupied)),
        packet(L.HIST, 0, c, (c, h >> 8, h & 0xFF, 0, 0, 230)),
        packet(L.HIST, 0, c, (c, h >> 8, h & 0xFF, 0, 0, 100, 101)),
        packet(L.HIST, 0, c, (0, 0xFF, 0xFF, 0, 0, 1, 2), flags=L.F_HOST),
        packet(L.HIST, 0, c, (1, 2)),
        packet(L.REMATCH, 5, c, ()),
    ]
    deliver(forged + semantic)
    assert B.stats["foreign"] - st0["foreign"] >= 5
    assert B.stats["out_of_turn"] - st0["out_of_turn"] == 1
    assert B.stats["malformed"] - st0["malformed"] >= 5
    assert B.stats["moves_applied"] == st0["moves_applied"]


def test_illegal_moves_on_the_hosts_turn_are_counted_not_applied():
    _, b, feed, _ = setup_pair()
    # our own (white) move first: now black (the host) is to move
    assert b.send_move(12, 12)
    st0 = dict(b.stats)
    h = b._hash
    c = b.count
    occupied = b.moves[1]
    deliver([packet(L.MOVE, 0, c, (occupied % 15, occupied // 15,
                                   h >> 8, h & 0xFF), b=b),
             packet(L.MOVE, 0, c, (12, 12, h >> 8, h & 0xFF), b=b)], b)
    assert b.stats["illegal"] - st0["illegal"] == 2
    assert b.stats["moves_applied"] == st0["moves_applied"]
    # and a legal one is applied exactly once, however often it comes
    good = packet(L.MOVE, 0, c, (13, 13, h >> 8, h & 0xFF), seq=77, b=b)
    feed.inbox.extend([good, good, good])
    while feed.inbox:
        b.poll(NOW[0])
    assert b.count == c + 1 and b.game.stone(13, 13) == 1
    assert b.stats["moves_applied"] == st0["moves_applied"] + 1
    assert b.stats["duplicates"] == st0["duplicates"] + 2
    acks = [p for p in feed.sent if p[1] == L.ACK and p[8:10] == bytes((0, 77))]
    assert len(acks) == 3
