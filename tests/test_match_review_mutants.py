"""Review tests from a mutation run over match.py and link.py: each pins
behaviour that a changed comparison, index or dropped line left unnoticed,
as the player or the other handheld would see it (a match resumed wrong or
not at all, a packet taken that is not ours, a move lost or replayed)."""
import time

import pytest

import host_sim.match as H
import link as L
import match as M
from crc16 import crc16
from match_players import step
from test_match_fuzz import (FeedRadio, deliver, finished_pair, hist, packet,
                             setup_pair)
from test_match_review_protocol import _AddrRadio, _next_status


def _pair(rule, host_colour, seed=31):
    """A host and a joiner paired on one medium, two moves played."""
    medium = H.make_medium(seed=seed)
    a = M.Match(H.Node(0, medium).radio, host=True, rule=rule,
                host_colour=host_colour, seed=seed, now_ms=time.ticks_ms())
    b = M.Match(H.Node(1, medium).radio, host=False, seed=seed + 1,
                now_ms=time.ticks_ms())
    step(a, b, lambda: a.state == b.state == M.PAIRED)
    for k, (x, y) in enumerate(((7, 7), (8, 8))):
        mover = a if (k % 2 == 0) == (a.my_colour == 1) else b
        assert mover.send_move(x, y)
        step(a, b, lambda n=k + 1: a.count == b.count == n
             and not a.link.queue and not b.link.queue)
    return a, b


def _sealed(body):
    c = crc16(body, len(body))
    return bytes(body) + bytes((c >> 8, c & 0xFF))


def _drain(m, now):
    feed = m.link.radio
    while feed.inbox:
        m.poll(now)


# ---- check_snapshot() and restore() -----------------------------------------

@pytest.mark.parametrize("rule", (0, 1, 4))
@pytest.mark.parametrize("host_colour", (1, 2))
def test_a_match_resumes_with_its_rule_and_colours(rule, host_colour):
    """Both sides of every rule, with the host on black or on white,
    resume as they were saved (refusing a host on white, or reading the
    host's colour as the rule, passed every test)."""
    a, b = _pair(rule, host_colour)
    for m in (a, b):
        blob = m.snapshot()
        M.check_snapshot(blob)
        r = M.Match.restore(FeedRadio(), blob, seed=3, now_ms=time.ticks_ms())
        assert (r.rule, r.host_colour, r.my_colour) == (rule, host_colour,
                                                        m.my_colour)
        assert r.game.rule == rule
        assert bytes(r.moves[:r.count]) == bytes(m.moves[:m.count])


@pytest.mark.parametrize("session", (0x00ABCD01, 0x12003401, 0x12340001,
                                     0x00000001))
def test_a_save_whose_session_has_a_zero_byte_resumes(session):
    """A session id is 30 random bits, odd: one in 64 has a zero top byte.
    Only a session of 0 (no match) is refused."""
    _, b, _, _ = setup_pair(seed=27)
    blob = bytearray(b.snapshot()[:-2])
    blob[5:9] = session.to_bytes(4, "big")
    r = M.Match.restore(FeedRadio(), _sealed(blob), seed=3,
                        now_ms=time.ticks_ms())
    assert r.session == session and r.code == "%04d" % (session % 10000)
    blob[5:9] = bytes(4)
    with pytest.raises(ValueError):
        M.check_snapshot(_sealed(blob))


def test_a_save_naming_neither_host_nor_joiner_is_refused():
    _, b, _, _ = setup_pair(seed=27)
    blob = bytearray(b.snapshot()[:-2])
    for role in (2, 0x80, 0xFF):
        blob[4] = role
        with pytest.raises(ValueError):
            M.check_snapshot(_sealed(blob))


def test_colours_swap_with_every_game_of_a_resumed_match():
    """Each rematch swaps colours: in games 0, 2, 4 the host has the colour
    it chose, in games 1, 3 the other (only game 1 was checked)."""
    a, b, _, _ = setup_pair(seed=27, moves=0)
    for m in (a, b):
        blob = bytearray(m.snapshot()[:-2])
        for game in range(5):
            blob[11] = game
            r = M.Match.restore(FeedRadio(), _sealed(blob), seed=3,
                                now_ms=time.ticks_ms())
            assert r.game_no == game
            assert r.my_colour == (m.my_colour if game % 2 == 0
                                   else 3 - m.my_colour)


def test_a_resumed_match_names_the_peers_last_move_or_none():
    """The peer's last move is marked from the first screen: none when the
    peer has not moved (a host with only its own first move), and one in
    the corner (point 0) is a move like any other."""
    _, b, _, _ = setup_pair(seed=27, moves=0)
    for moves, host, peers in (((112,), 1, None), ((112,), 0, (7, 7)),
                               ((0, 112), 1, (7, 7)), ((112, 0), 1, (0, 0)),
                               ((0,), 0, (0, 0)), ((0, 112, 1), 0, (1, 0))):
        blob = bytearray(b.snapshot()[:-2])
        blob[4] = host
        blob[12:13] = bytes((len(moves),)) + bytes(moves)
        r = M.Match.restore(FeedRadio(), _sealed(blob), seed=3,
                            now_ms=time.ticks_ms())
        assert r.last_peer_move == peers, (moves, host)


def test_a_short_save_with_a_good_crc_is_refused_not_a_crash():
    """A cut-off save whose last two bytes happen to read as its CRC is
    still no snapshot: ValueError (the boot's recover() catches only that),
    never an IndexError."""
    for magic in (b"GMM3", b"GMM2", b"GMM1"):
        for n in range(len(magic) + 2, M._SNAP_MOVES + 2):
            blob = _sealed(magic + bytes(range(1, n - 5)))
            assert len(blob) == n
            with pytest.raises(ValueError):
                M.check_snapshot(blob)


# ---- pairing ------------------------------------------------------------------

def test_a_host_waiting_for_the_joiner_it_took_offers_to_no_one_else():
    """Taken but not yet heard paired, a joiner may call again: the host
    offers to it, and to no other handheld in the room (which would lose
    3 s on an offer it cannot win), and another's JOIN is not acked."""
    now = time.ticks_ms()
    host = M.Match(FeedRadio(), host=True, seed=21, now_ms=now)
    radio = host.link.radio
    mine, other = (0x0BADCAFE, 0x01234567)
    radio.inbox.append(packet(L.JOIN, 0, 0, M.Match._u32(mine), flags=0,
                              b=host))
    _drain(host, now)
    assert host.code is not None and host.peer_nonce == mine
    radio.sent.clear()
    st0 = dict(host.stats)
    radio.inbox.append(packet(L.HELLO, 0, 0, M.Match._u32(other), flags=0,
                              session=0, b=host))
    radio.inbox.append(packet(L.JOIN, 0, 0, M.Match._u32(other), flags=0,
                              seq=77, b=host))
    _drain(host, now)
    assert not [p for p in radio.sent if p[1] in (L.OFFER, L.ACK)]
    assert host.stats["foreign"] == st0["foreign"] + 2
    assert host.peer_nonce == mine
    radio.inbox.append(packet(L.HELLO, 0, 0, M.Match._u32(mine), flags=0,
                              session=0, b=host))
    _drain(host, now)
    offers = [p for p in radio.sent if p[1] == L.OFFER]
    assert len(offers) == 1 and offers[0][11:15] == bytes(M.Match._u32(mine))


class _PipeRadio(FeedRadio):
    """A FeedRadio that keeps which receive pipes are open."""

    def __init__(self):
        super().__init__()
        self.pipes = {}

    def open_rx_pipe(self, p, a):
        self.pipes[p] = bytes(a)

    def close_rx_pipe(self, p):
        self.pipes.pop(p, None)


def test_a_host_restored_before_its_joiner_heard_it_offers_to_that_joiner():
    """Power lost after the host took a JOIN whose ACK the joiner never
    heard: the joiner gives the offer up and calls again. The restored host
    offers again to that joiner only, on the pairing address, until it is
    heard; then it listens on its session address alone."""
    now = time.ticks_ms()
    host = M.Match(FeedRadio(), host=True, seed=21, now_ms=now)
    mine, other = 0x0BADCAFE, 0x01234567
    host.link.radio.inbox.append(packet(L.JOIN, 0, 0, M.Match._u32(mine),
                                        flags=0, b=host))
    _drain(host, now)
    assert host.code is not None
    r = M.Match.restore(_PipeRadio(), host.snapshot(), seed=4, now_ms=now)
    radio = r.link.radio
    assert radio.pipes.get(2) == bytes((L.PAIR_LSB,))
    for nonce in (other, mine):
        radio.inbox.append(packet(L.HELLO, 0, 0, M.Match._u32(nonce), flags=0,
                                  session=0, b=r))
    _drain(r, now)
    offers = [p for p in radio.sent if p[1] == L.OFFER]
    assert [p[11:15] for p in offers] == [bytes(M.Match._u32(mine))]
    assert L.session_of(offers[0]) == host.session
    # heard in (its STATUS): no more offers, the pairing pipe closed
    h = r._hash
    radio.inbox.append(packet(L.STATUS, 0, r.count, (h >> 8, h & 0xFF, 0),
                              flags=0, b=r))
    radio.inbox.append(packet(L.HELLO, 0, 0, M.Match._u32(mine), flags=0,
                              session=0, b=r))
    radio.sent.clear()
    _drain(r, now)
    assert not [p for p in radio.sent if p[1] == L.OFFER]
    assert 2 not in radio.pipes and radio.pipes[1] == L.host_address(r.session)


def test_a_joiner_sends_its_join_to_the_hosts_session_address():
    """Not to the pairing address every waiting host listens on; and an
    ACK pairing another joiner is one foreign packet, no pairing."""
    now = time.ticks_ms()
    j = M.Match(_AddrRadio(), host=False, seed=9, now_ms=now)
    radio = j.link.radio
    s = 0x2468ACE1
    radio.inbox.append(packet(L.OFFER, 0, 0, M.Match._u32(j.nonce) + (0, 1),
                              session=s, b=j))
    _drain(j, now)
    j.poll(now)
    joins = [i for i, p in enumerate(radio.sent) if p[1] == L.JOIN]
    assert joins and all(radio.to[i] == L.host_address(s) for i in joins)
    st0 = dict(j.stats)
    radio.inbox.append(packet(L.ACK, 0, 0, (L.JOIN,) + M.Match._u32(j.nonce ^ 1),
                              session=s, b=j))
    _drain(j, now)
    assert j.code is None and j.stats["foreign"] == st0["foreign"] + 1


# ---- moves and acks -------------------------------------------------------------

def test_black_takes_no_black_move_from_the_peer():
    """On the host's (black's) turn, a MOVE from the joiner at that index,
    hashed right, is not the joiner's to make: refused, not acked."""
    a, _, _, _ = setup_pair(moves=4)
    assert a.my_colour == 1 and a.my_turn()
    feed = a.link.radio = FeedRadio()
    h = a._hash
    st0 = dict(a.stats)
    feed.inbox.append(packet(L.MOVE, 0, a.count, (12, 12, h >> 8, h & 0xFF),
                             flags=0, seq=300, b=a))
    _drain(a, time.ticks_ms())
    assert a.count == 4 and a.game.stone(12, 12) == 0 and a.my_turn()
    assert a.stats["out_of_turn"] == st0["out_of_turn"] + 1
    assert not [p for p in feed.sent if p[1] == L.ACK]


def test_an_ack_of_neither_shape_leaves_the_move_queued():
    """An ACK is its type, or JOIN and a nonce: one of five bytes naming a
    MOVE, or two, does not take our move off the queue (the peer may not
    have it); a late copy of the pairing ACK is well formed."""
    _, b, feed, _ = setup_pair()
    now = time.ticks_ms()
    assert b.send_move(12, 12)
    seq = b.link.queue[0][0]
    st0 = dict(b.stats)
    feed.inbox.extend([
        packet(L.ACK, 0, b.count, (L.MOVE, 0, 0, 0, 0), seq=seq, b=b),
        packet(L.ACK, 0, b.count, (L.JOIN, L.MOVE), seq=seq, b=b),
        packet(L.ACK, 0, 0, (L.JOIN,) + M.Match._u32(b.nonce), seq=seq ^ 0x8000,
               b=b)])
    _drain(b, now)
    assert [e[0] for e in b.link.queue] == [seq]
    assert b.stats["malformed"] == st0["malformed"] + 2
    feed.inbox.append(packet(L.ACK, 0, b.count, (L.MOVE,), seq=seq, b=b))
    _drain(b, now)
    assert not b.link.queue


# ---- STATUS and HIST -----------------------------------------------------------

def test_an_in_sync_device_answers_a_status_only_when_the_peer_resyncs():
    """Two devices in step each send a STATUS every 300 ms; answering every
    STATUS at once would set them answering each other without end. One
    from a peer that says it is resyncing is answered at once."""
    _, b, feed, _ = setup_pair()
    t = b._status_due
    b.poll(t)                         # the periodic STATUS, sent now
    assert feed.sent[-1][1] == L.STATUS and b.state == M.PAIRED
    h = b._hash
    for flags, answered in ((0, False), (2, True)):
        t += 30                       # past the reply limit, before the next
        feed.sent.clear()
        feed.inbox.append(packet(L.STATUS, b.game_no, b.count,
                                 (h >> 8, h & 0xFF, flags), b=b))
        _drain(b, t)
        assert bool([p for p in feed.sent if p[1] == L.STATUS]) == answered


def test_only_a_restored_device_says_it_is_resyncing():
    """The resync flag asks the peer to answer at once: sent by a device in
    step, both would answer each other's every STATUS."""
    _, b, feed, _ = setup_pair()
    assert b.state == M.PAIRED
    assert _next_status(b, b._t)[13] & M._S_RESYNC == 0
    r = M.Match.restore(FeedRadio(), b.snapshot(), seed=3, now_ms=b._t)
    assert r.state == M.RESYNCING
    assert _next_status(r, r._t)[13] & M._S_RESYNC


def test_packets_asking_for_an_answer_together_get_one():
    """Moves the joiner cannot place yet (it misses the ones before) each
    ask for a STATUS; arriving together, they get one, not one each."""
    _, b, feed, _ = setup_pair()
    t = b._status_due - 100
    h = b._hash
    feed.sent.clear()
    feed.inbox.extend(packet(L.MOVE, 0, b.count + k, (k, 14, h >> 8, h & 0xFF),
                             seq=400 + k, b=b) for k in range(1, 5))
    b.poll(t)
    assert len([p for p in feed.sent if p[1] == L.STATUS]) == 1
    assert b.count == 5


def test_a_late_repair_reaching_a_joiner_level_with_the_host_changes_nothing():
    """A repair carries at most 14 moves. A copy of one the host sent at 16
    moves reaches the joiner when it holds those 16: no move is taken
    back (test_match_fuzz has it with the joiner ahead)."""
    _, b, _, _ = setup_pair(moves=16)
    deliver([hist(0, list(b.moves[:14]), repair=True, total=16, b=b)], b)


def test_a_status_of_the_game_before_takes_no_move_back():
    """After a rematch, a STATUS of the game before (a late copy, or the
    peer restored from a save older than the rematch) with as many moves
    as this game holds is no divergence: the joiner keeps its moves."""
    a, b = finished_pair()
    assert a.rematch() and b.rematch()
    step(a, b, lambda: a.game_no == b.game_no == 1 and not a.link.queue
         and not b.link.queue)
    mover = a if a.my_colour == 1 else b
    assert mover.send_move(7, 7)
    step(a, b, lambda: a.count == b.count == 1 and not mover.link.queue)
    b.link.radio = FeedRadio()
    deliver([packet(L.STATUS, 0, b.count, (0x12, 0x34, 0), b=b)], b)
    assert b.stats["divergences"] == 0


def test_following_the_peer_into_the_next_game_is_one_resync():
    _, b = finished_pair()
    feed = b.link.radio = FeedRadio()
    st0 = dict(b.stats)
    feed.inbox.append(packet(L.STATUS, 1, 0, (0xFF, 0xFF, 0), b=b))
    _drain(b, time.ticks_ms())
    assert b.game_no == 1 and b.stats["resyncs"] == st0["resyncs"] + 1


def test_after_a_repair_the_hosts_status_finds_the_lists_level():
    """The joiner's five moves are not the host's five: the repair replaces
    them. The list's hash is then that of the host's moves, so the host's
    next STATUS finds both level and the joiner keeps them (a stale hash
    would read as another divergence: the joiner would start over from
    none)."""
    _, b, feed, _ = setup_pair(moves=5)
    now = time.ticks_ms()
    hosts = bytes((0, 1, 2, 16, 17))
    feed.inbox.append(hist(0, list(hosts), repair=True, b=b))
    _drain(b, now)
    assert bytes(b.moves[:b.count]) == hosts
    h = crc16(hosts, 5)
    st0 = dict(b.stats)
    feed.inbox.append(packet(L.STATUS, b.game_no, 5, (h >> 8, h & 0xFF, 0),
                             b=b))
    _drain(b, now)
    assert bytes(b.moves[:b.count]) == hosts
    assert b.stats["divergences"] == st0["divergences"]


def test_every_event_is_its_own_number():
    """The app tells events apart by number, and a waiting event is not
    queued twice: two kinds sharing one would read as one."""
    evs = [getattr(M, k) for k in dir(M) if k.startswith("EV_")]
    assert len(evs) == 8 and len(set(evs)) == 8
