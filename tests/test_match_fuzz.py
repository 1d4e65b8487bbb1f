"""Fuzz the match protocol: random bytes, mutated and forged packets reach a
paired device through its radio. Nothing may raise, nothing may change the
game, the pairing or the link state; a packet refused as foreign or
malformed is counted under that reason (one that only shows the peer out
of step is answered with a STATUS instead)."""
import random
import time

from hypothesis import given, settings, strategies as st, HealthCheck

import host_sim.match as H
import link as L
import match as M
from match_players import step


class FeedRadio:
    """Stands in for the driver: hands the Match the packets we choose."""

    def __init__(self):
        self.inbox = []
        self.sent = []

    def any(self):
        return bool(self.inbox)

    def recv_into(self, buf):
        p = self.inbox.pop(0)
        n = len(p)
        if n == 0 or n > 32:
            return 0                 # the driver drops bad widths
        buf[:n] = p
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


# far enough apart that no line of five forms in a long game
SPREAD = [(x, y) for y in range(0, 15, 2) for x in range(0, 15, 3)]


def setup_pair(seed=3, moves=5):
    """A host and a joiner after `moves` moves (odd: the joiner is to move);
    every packet on air captured."""
    medium = H.make_medium(seed=seed)
    captured = []
    medium.listeners.append(
        lambda f: captured.append(f.payload) if not f.is_ack else None)
    na, nb = H.Node(0, medium), H.Node(1, medium)
    a = M.Match(na.radio, host=True, seed=seed, now_ms=time.ticks_ms())
    b = M.Match(nb.radio, host=False, seed=seed + 1, now_ms=time.ticks_ms())

    step(a, b, lambda: a.state == b.state == M.PAIRED)
    for k in range(moves):
        mover = a if k % 2 == 0 else b
        assert mover.send_move(*((3 + k, 4 + (k % 2)) if moves <= 5
                                 else SPREAD[k]))
        step(a, b, lambda n=k + 1: a.count == b.count == n
             and not a.link.queue and not b.link.queue)
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


def hist(start, moves, repair=False, total=None, b=B):
    """The host's HIST of `moves` from `start` on b's list, hashed right."""
    hb = b.hash_at(start)
    ha = L.crc16(bytes(moves), len(moves), hb)
    return packet(L.HIST, b.game_no, start + len(moves) if total is None else total,
                  bytes((start, hb >> 8, hb & 0xFF, ha >> 8, ha & 0xFF)) + bytes(moves),
                  flags=L.F_HOST | (L.F_REPAIR if repair else 0), b=b)


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
        hist(c, [occupied]),
        packet(L.HIST, 0, c, (c, h >> 8, h & 0xFF, 0, 0, 230)),
        packet(L.HIST, 0, c, (c, h >> 8, h & 0xFF, 0, 0, 100, 101)),
        packet(L.HIST, 0, c, (0, 0xFF, 0xFF, 0, 0, 1, 2), flags=L.F_HOST),
        packet(L.HIST, 0, c, (1, 2)),
        # repairs that take nothing back: one whose start does not hash as
        # ours; one the board refuses after the moves it replaces (a point
        # taken twice); a late copy of one the joiner took long ago
        packet(L.HIST, 0, c, (1, 0x12, 0x34, 0, 0, 200, 201),
               flags=L.F_HOST | L.F_REPAIR),
        hist(0, list(B.moves[:c - 1]) + [occupied], repair=True),
        hist(0, list(B.moves[:3]), repair=True, total=3),
        packet(L.REMATCH, 5, c, ()),
        # the host asks for a rematch, or goes on to the next game, while
        # this game is still on
        packet(L.STATUS, 0, c, (h >> 8, h & 0xFF, 1)),
        packet(L.REMATCH, 1, c, ()),
        packet(L.STATUS, 1, 0, (0xFF, 0xFF, 1)),
    ]
    deliver(forged + semantic)
    # foreign: the two other sessions, the reflected role, and a HELLO and
    # an OFFER, which a paired joiner does not take; a JOIN is ours (our
    # session, the host's flag) but only a host takes one: malformed
    assert B.stats["foreign"] - st0["foreign"] == 5
    assert B.stats["out_of_turn"] - st0["out_of_turn"] == 1
    # malformed: that JOIN, the off-board MOVE, the short MOVE, STATUS, ACK
    # and HIST, and the three histories with an occupied or off-board point
    assert B.stats["malformed"] - st0["malformed"] == 9
    assert B.stats["conflicts"] - st0["conflicts"] == 1    # the bad hash
    assert B.stats["moves_applied"] == st0["moves_applied"]


def test_a_late_copy_of_a_repair_takes_no_moves_back():
    # A repair carries at most 14 moves. A copy of one the host sent at 16
    # moves reaches the joiner at 21, its own 22nd move still in flight:
    # the joiner holds all it says and more, so it changes nothing.
    _, b, _, _ = setup_pair(moves=21)
    assert b.send_move(14, 1)
    deliver([hist(0, list(b.moves[:14]), repair=True, total=16, b=b)], b)


def test_a_repair_takes_back_the_joiners_moves_the_host_lacks():
    # The joiner is behind the host's 16 moves, and its 15th is not the
    # host's: the repair's 14 agree, and the move after them goes.
    _, b, feed, _ = setup_pair(moves=15)
    feed.inbox.append(hist(0, list(b.moves[:14]), repair=True, total=16, b=b))
    while feed.inbox:
        b.poll(NOW[0])
    assert b.count == 14 and b.state == M.PAIRED
    x, y = SPREAD[14]
    assert b.game.stone(x, y) == 0


def test_events_waiting_stay_one_of_each_kind_however_many_packets_come():
    """A STATUS that disagrees with the joiner (host's side, session and
    CRC right) is an EV_SYNCED each time: an app taking one event a loop
    while six packets arrive in each let the list grow without end."""
    _, b, feed, _ = setup_pair(moves=5)
    for i in range(50):
        for _ in range(6):
            feed.inbox.append(packet(L.STATUS, b.game_no, b.count, (0x12, 0x34, 0),
                                     seq=i, b=b))
        b.poll(NOW[0])
    assert b.stats["divergences"] > 50
    assert len(b.events) == len(set(b.events)) <= 2, b.events
    b.events[:] = [M.EV_LOST, M.EV_BACK]
    b._event(M.EV_LOST)                 # the latest change reads last
    assert b.events == [M.EV_BACK, M.EV_LOST]


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


def test_frames_of_another_version_or_type_or_too_short_are_malformed():
    # each with a good CRC: the frame check itself refuses them
    c, h = B.count, B._hash
    good = packet(L.STATUS, 0, c, (h >> 8, h & 0xFF, 0))
    bad = [with_crc(bytes((2,)) + good[1:]),            # protocol version 2
           with_crc(good[:1] + bytes((0,)) + good[2:]),  # no such type
           with_crc(good[:1] + bytes((L.BYE + 1,)) + good[2:]),
           # a header cut short (REMATCH has no payload to miss)
           with_crc(packet(L.REMATCH, 1, c, ())[:L.HEADER - 1] + b"\0\0")]
    for p in bad:
        assert not L.Link.check(p, len(p))
    st0 = dict(B.stats)
    deliver(bad)
    assert B.stats["malformed"] - st0["malformed"] == len(bad)
    assert B.stats["received"] == st0["received"]


def test_a_different_move_at_a_taken_index_is_a_conflict_never_acked():
    # acked, the peer would think its move was taken while ours stands
    c, h = B.count, B._hash
    taken = B.moves[2]
    other = (taken + 1) % 225
    while B.game.stone(other % 15, other // 15):
        other = (other + 1) % 225
    hb = B.hash_at(2)
    st0 = dict(B.stats)
    sent0 = len(FEED.sent)
    deliver([packet(L.MOVE, 0, 2, (other % 15, other // 15, hb >> 8, hb & 0xFF),
                    seq=500)])
    assert B.stats["conflicts"] == st0["conflicts"] + 1
    assert B.stats["duplicates"] == st0["duplicates"]
    assert not [p for p in FEED.sent[sent0:] if p[1] == L.ACK]
    # the same index with the move we hold is a duplicate: acked again
    deliver([packet(L.MOVE, 0, 2, (taken % 15, taken // 15, hb >> 8, hb & 0xFF),
                    seq=501)])
    assert B.stats["duplicates"] == st0["duplicates"] + 1
    assert [p for p in FEED.sent[sent0:]
            if p[1] == L.ACK and p[8:10] == bytes((501 >> 8, 501 & 0xFF))]
    assert (c, h) == (B.count, B._hash)


def test_a_move_of_the_next_game_is_not_acked_one_of_an_old_game_is():
    # an old game's move is long settled: acked, the peer stops sending it;
    # a move of a game we have not started yet is not ours to take
    h = B._hash
    sent0 = len(FEED.sent)
    deliver([packet(L.MOVE, B.game_no + 1, 0, (7, 7, 0xFF, 0xFF), seq=600)])
    assert not [p for p in FEED.sent[sent0:] if p[1] == L.ACK]
    deliver([packet(L.MOVE, (B.game_no - 1) & 0xFF, B.count,
                    (7, 7, h >> 8, h & 0xFF), seq=601)])
    acks = [p for p in FEED.sent[sent0:] if p[1] == L.ACK]
    assert len(acks) == 1 and acks[0][8:10] == bytes((601 >> 8, 601 & 0xFF))


def finished_pair(seed=7):
    """A host and a joiner after the host (black) made five on row 0."""
    medium = H.make_medium(seed=seed)
    a = M.Match(H.Node(0, medium).radio, host=True, seed=seed,
                now_ms=time.ticks_ms())
    b = M.Match(H.Node(1, medium).radio, host=False, seed=seed + 1,
                now_ms=time.ticks_ms())
    step(a, b, lambda: a.state == b.state == M.PAIRED)
    for k in range(9):
        mover = a if k % 2 == 0 else b
        assert mover.send_move(k // 2, 0 if mover is a else 1)
        step(a, b, lambda n=k + 1: a.count == b.count == n
             and not a.link.queue and not b.link.queue)
    assert a.game.winner == b.game.winner == 1
    return a, b


def test_a_status_of_the_next_game_starts_it_one_of_an_old_game_does_not():
    # a device reset before the rematch took: the peer's STATUS says it
    # went on to the next game, which both had agreed on at the end of this
    # one (mid-game, test_forged_... shows, it is refused)
    _, b = finished_pair()
    feed = b.link.radio = FeedRadio()
    now = time.ticks_ms()
    for game in ((b.game_no - 1) & 0xFF, 2):     # an old game; one too far on
        feed.inbox.append(packet(L.STATUS, game, 0, (0xFF, 0xFF, 0), b=b))
        while feed.inbox:
            b.poll(now)
        assert b.game_no == 0 and b.count == 9
    colour = b.my_colour
    feed.inbox.append(packet(L.STATUS, 1, 0, (0xFF, 0xFF, 0), b=b))
    events = []
    while feed.inbox:
        events.append(b.poll(now))
    assert M.EV_NEW_GAME in events
    assert b.game_no == 1 and b.count == 0 and b.game.moves == 0
    assert b.my_colour == 3 - colour


def test_a_rematch_packet_alone_asks_the_peer_and_starts_the_game():
    # without waiting for a STATUS to carry the wish
    a, b = finished_pair()
    fa, fb = FeedRadio(), FeedRadio()
    a.link.radio, b.link.radio = fa, fb

    def forward(src, dst, m):
        rem = [p for p in src.sent if p[1] == L.REMATCH]
        assert rem
        dst.inbox.append(rem[0])
        events = []
        while dst.inbox:
            events.append(m.poll(time.ticks_ms()))
        return events
    assert a.rematch()
    a.poll(time.ticks_ms())
    assert M.EV_REMATCH_ASKED in forward(fa, fb, b)
    assert b.peer_rematch and b.game_no == 0
    # the peer acknowledges it: not resent into the next game, where it
    # would hold up the moves queued behind it
    seq = (fa.sent[-1][8] << 8) | fa.sent[-1][9]
    acks = [p for p in fb.sent if p[1] == L.ACK and (p[8] << 8 | p[9]) == seq]
    assert acks and acks[0][L.HEADER] == L.REMATCH
    fa.inbox.append(acks[0])
    a.poll(time.ticks_ms())
    assert not a.link.queue
    assert b.rematch() and b.game_no == 1          # both want it
    b.poll(time.ticks_ms())
    assert M.EV_NEW_GAME in forward(fb, fa, a)
    assert a.game_no == 1 and a.count == 0
    assert (a.my_colour, b.my_colour) == (2, 1)     # colours swapped
    # the new game starts with nobody asking: its own end may ask again
    for m in (a, b):
        assert not m.rematch_wanted and not m.peer_rematch


def _send_times(ln, radio, t0, ms):
    times = []
    for t in range(t0, t0 + ms, 5):
        n = len(radio.sent)
        ln.service(t)
        if len(radio.sent) > n:
            times.append(t)
    return times


def test_retransmits_back_off_and_start_again_for_the_next_packet():
    # a packet the peer does not acknowledge is sent at once, then again
    # after RETRY_MS, backing off (with jitter) to RETRY_MAX_MS: the air is
    # shared with the peer's answers and with other pairs in the room
    radio = FeedRadio()
    ln = L.Link(radio, seed=5)
    ln.session = 0x12345679
    retry, top = L.Link.RETRY_MS, L.Link.RETRY_MAX_MS
    seq = ln.reliable(L.MOVE, 0, 0, (1, 2, 0xFF, 0xFF), 1000)
    times = _send_times(ln, radio, 1000, 4000)
    assert times[0] == 1000
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert len(gaps) >= 8
    assert retry <= gaps[0] <= retry * 3 // 2 + 5
    assert gaps[0] < gaps[1] < gaps[2]
    assert all(retry <= g <= top * 3 // 2 + 5 for g in gaps)
    assert max(gaps) >= top
    assert ln.stats["retransmits"] == len(gaps)
    # acknowledged: the next packet starts from RETRY_MS again
    assert ln.acked(seq) and not ln.queue
    ln.reliable(L.MOVE, 0, 1, (3, 4, 0xFF, 0xFF), 6000)
    times = _send_times(ln, radio, 6000, 200)
    assert times[0] == 6000 and retry <= times[1] - 6000 <= retry * 3 // 2 + 5


def test_a_late_copy_of_an_old_ack_does_not_cancel_the_next_move():
    # the host acked our move twice (its first ACK was thought lost); the
    # copy arrives after our next move: that move must still be resent
    a, b, feed, _ = setup_pair()
    now = time.ticks_ms()
    assert b.send_move(12, 12)
    mv = [p for p in feed.sent if p[1] == L.MOVE]
    seq1 = (mv[-1][8] << 8) | mv[-1][9]
    ack1 = packet(L.ACK, 0, b.count, (L.MOVE,), seq=seq1, b=b)
    feed.inbox.append(ack1)
    b.poll(now)
    assert not b.link.queue
    h = b._hash
    feed.inbox.append(packet(L.MOVE, 0, b.count, (13, 13, h >> 8, h & 0xFF),
                             seq=900, b=b))
    b.poll(now)
    assert b.game.stone(13, 13) == 1
    assert b.send_move(11, 11)
    feed.inbox.append(ack1)                     # the late copy
    b.poll(now)
    sent = len(feed.sent)
    for t in range(now, now + 1000, 20):
        b.poll(t)
    again = [p for p in feed.sent[sent:] if p[1] == L.MOVE]
    assert again and again[0][10] == b.count - 1 and again[0][11:13] == bytes((11, 11))


def test_a_paired_host_makes_no_offer_and_takes_no_repair():
    # a third handheld calling for a host is not offered a taken one; and
    # the host's list is the one that wins: a joiner cannot replace it
    a, _, _, _ = setup_pair()
    feed = FeedRadio()
    a.link.radio = feed
    foreign0 = a.stats["foreign"]
    deliver([packet(L.HELLO, 0, 0, (9, 8, 7, 6), flags=0, session=0, b=a)], a)
    assert not [p for p in feed.sent if p[1] == L.OFFER]
    assert a.stats["foreign"] == foreign0 + 1
    deliver([packet(L.HIST, 0, a.count, (0, 0xFF, 0xFF, 0, 0, 100, 101, 102),
                    flags=L.F_REPAIR, b=a)], a)


def test_a_joiner_takes_only_an_offer_for_its_own_call_with_a_known_rule():
    medium = H.make_medium(seed=9)
    j = M.Match(H.Node(0, medium).radio, host=False, seed=9,
                now_ms=time.ticks_ms())
    j.link.radio = FeedRadio()
    nonce = M.Match._u32(j.nonce)
    other = M.Match._u32(j.nonce ^ 0x5A5A)
    s = 0x2468ACE1
    bad = [packet(L.OFFER, 0, 0, other + (0, 1), session=s, b=j),  # another's
           packet(L.OFFER, 0, 0, nonce + (2, 1), session=s, b=j),  # no rule 2
           packet(L.OFFER, 0, 0, nonce + (0, 3), session=s, b=j)]  # colour 3
    st0 = dict(j.stats)
    deliver(bad, j)
    assert j.session == 0 and not j.link.queue
    assert j.stats["foreign"] == st0["foreign"] + 1
    assert j.stats["malformed"] == st0["malformed"] + 2
    # its own, with a rule it knows: taken, and JOIN is queued
    j.link.radio.inbox.append(packet(L.OFFER, 0, 0, nonce + (4, 2), session=s,
                                     b=j))
    j.poll(time.ticks_ms())
    assert j.session == s and j.rule == 4 and j.host_colour == 2
    assert [e[1] for e in j.link.queue] == [L.JOIN]
