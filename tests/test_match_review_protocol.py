"""Review tests of the match protocol (match.py) and its link (link.py):
what the other handheld or the player would notice. Packet bytes are
checked against the layout in link.py's docstring, behaviour against the
API and protocol in match.py's."""
import time

import pytest

import host_sim.match as H
import link as L
import match as M
from crc16 import crc16
from match_players import step
from nrf24l01_model import POWER_DOWN
from test_match_fuzz import FeedRadio, finished_pair, hist, packet, setup_pair


def _drain(m, now=None):
    """Poll until the radio is empty; -> the events on the way."""
    events = []
    feed = m.link.radio
    while True:
        ev = m.poll(time.ticks_ms() if now is None else now)
        if ev is not None:
            events.append(ev)
        elif not feed.inbox:
            return events


def _sent(radio, typ):
    return [p for p in radio.sent if p[1] == typ]


def _seq(p):
    return (p[8] << 8) | p[9]


def _next_status(m, t=None):
    """Poll m (on a FeedRadio) from t (now) until it sends a STATUS;
    -> that packet."""
    if t is None:
        t = time.ticks_ms()
    n = len(m.link.radio.sent)
    while True:
        t += 10
        m.poll(t)
        for p in m.link.radio.sent[n:]:
            if p[1] == L.STATUS:
                return p


# ---- link.py: the packet -------------------------------------------------

def test_a_packet_is_laid_out_as_documented():
    radio = FeedRadio()
    ln = L.Link(radio, seed=3)
    ln.session = 0x1234ABCD
    ln.host = True
    ln.send(L.MOVE, 2, 7, (7, 8, 0xBE, 0xEF), seq=0x2468, flags=L.F_REPAIR)
    p = radio.sent[-1]
    assert len(p) == 11 + 4 + 2
    # version 1, MOVE 5, flags (host | repair), session big endian, game,
    # seq big endian, move count, then the payload as given
    assert p[:11] == bytes((1, 5, 3, 0x12, 0x34, 0xAB, 0xCD, 2, 0x24, 0x68, 7))
    assert p[11:15] == bytes((7, 8, 0xBE, 0xEF))
    assert (p[15] << 8) | p[16] == crc16(p, 15, L.session_key(0x1234ABCD))
    assert L.Link.check(p, len(p))
    # the joiner's packets do not carry the host bit
    ln.host = False
    ln.send(L.STATUS, 0, 0, (1, 2, 0))
    assert radio.sent[-1][2] == 0 and len(radio.sent[-1]) == 16


def test_the_crc_key_ties_a_packet_to_its_session():
    """A packet whose session field was changed but whose CRC was started
    from its old session's key is refused: the key depends on both halves
    of the session id."""
    radio = FeedRadio()
    ln = L.Link(radio, seed=3)
    a = 0x1234ABCD
    for b in (0x5678ABCD, 0x12345678):     # the high half, the low half differ
        ln.session = b
        ln.send(L.STATUS, 0, 3, (0x12, 0x34, 0))
        good = radio.sent[-1]
        assert L.Link.check(good, len(good))
        forged = bytearray(good)
        n = len(forged) - 2
        c = crc16(forged, n, L.session_key(a))
        forged[n], forged[n + 1] = c >> 8, c & 0xFF
        assert not L.Link.check(forged, len(forged)), hex(b)


class _FlakyRadio(FeedRadio):
    """A FeedRadio whose sends are acked by the peer's radio as told."""

    def __init__(self, oks):
        super().__init__()
        self.oks = list(oks)

    def send(self, buf, n=-1):
        super().send(buf, n)
        return self.oks.pop(0)


def test_link_stats_count_each_packet_under_its_heading():
    radio = _FlakyRadio((True, False, True))
    ln = L.Link(radio, seed=4)
    ln.session = 0x2468ACE1
    for k in range(3):
        ln.send(L.STATUS, 0, k, (0, 0, 0))
    assert (ln.stats["sent"], ln.stats["radio_fail"]) == (3, 1)
    good = radio.sent[0]
    bad = bytearray(good)
    bad[-1] ^= 0x40                         # CRC off: not ours
    radio.inbox.extend([good, bytes(bad), radio.sent[2]])
    got = []
    while True:
        n = ln.receive()
        if not n:
            break
        got.append(bytes(ln.rxb[:n]))
    assert got == [good, radio.sent[2]]
    assert (ln.stats["received"], ln.stats["malformed"], ln.stats["foreign"]) \
        == (2, 1, 0)


def test_each_queued_packet_is_sent_with_its_own_seq_until_acked():
    """Two packets queued (a move not yet acked, the next one behind it):
    each goes on air under its own seq, so the peer's ACK of the first
    takes the first off the queue; else the first is resent for ever."""
    radio = FeedRadio()
    ln = L.Link(radio, seed=6)
    ln.session = 0x2468ACE1
    s1 = ln.reliable(L.MOVE, 0, 4, (1, 1, 0, 0), 1000)
    s2 = ln.reliable(L.MOVE, 0, 6, (2, 2, 0, 0), 1000)
    assert s1 != s2
    ln.service(1000)
    first = radio.sent[-1]
    assert first[10] == 4 and _seq(first) == s1
    assert ln.acked(_seq(first))
    ln.service(1000)
    second = radio.sent[-1]
    assert second[10] == 6 and _seq(second) == s2
    assert ln.acked(_seq(second)) and not ln.queue


# ---- match.py: pairing -----------------------------------------------------

class _AddrRadio(FeedRadio):
    """A FeedRadio that also keeps the address each packet was sent to."""

    def __init__(self):
        super().__init__()
        self.to = []
        self.dest = None

    def open_tx_pipe(self, a):
        self.dest = bytes(a)

    def send(self, buf, n=-1):
        self.to.append(self.dest)
        return super().send(buf, n)


def test_a_waiting_host_offers_only_to_a_well_formed_call():
    host = M.Match(_AddrRadio(), host=True, rule=4, host_colour=2, seed=21,
                   now_ms=time.ticks_ms())
    radio = host.link.radio
    call = (0x0B, 0xAD, 0xCA, 0xFE)
    st0 = dict(host.stats)
    radio.inbox.extend([
        packet(L.HELLO, 0, 0, call[:3], flags=0, session=0, b=host),  # short
        packet(L.HELLO, 0, 0, call, flags=0, session=0x13572468, b=host)])
    _drain(host)
    assert not _sent(radio, L.OFFER) and host.code is None
    assert host.stats["foreign"] == st0["foreign"] + 2
    radio.inbox.append(packet(L.HELLO, 0, 0, call, flags=0, session=0, b=host))
    _drain(host)
    offers = _sent(radio, L.OFFER)
    assert len(offers) == 1
    o = offers[0]
    # to the caller's own address, from this host's session: the nonce
    # called with, the rule and the host's colour
    assert radio.to[radio.sent.index(o)] == L.nonce_address(0x0BADCAFE)
    assert L.session_of(o) == host.session and o[2] & L.F_HOST
    assert o[11:17] == bytes(call) + bytes((4, 2)) and len(o) == 19
    assert host.code is None and host.state == M.WAITING


def test_a_joiner_takes_one_offer_from_a_host_with_a_session():
    j = M.Match(FeedRadio(), host=False, seed=9, now_ms=time.ticks_ms())
    nonce = M.Match._u32(j.nonce)
    s1, s2 = 0x2468ACE1, 0x13579BDF
    st0 = dict(j.stats)
    j.link.radio.inbox.extend([
        packet(L.OFFER, 0, 0, nonce + (0, 1), session=0, b=j),   # no session
        packet(L.OFFER, 0, 0, nonce + (0, 1), flags=0, session=s1, b=j)])  # not a host
    _drain(j)
    assert j.session == 0 and not j.link.queue
    assert j.stats["foreign"] == st0["foreign"] + 2
    # the first good offer is taken; a second host's, heard later, is not
    j.link.radio.inbox.extend([
        packet(L.OFFER, 0, 0, nonce + (0, 1), session=s1, b=j),
        packet(L.OFFER, 0, 0, nonce + (4, 2), session=s2, b=j)])
    _drain(j)
    assert j.session == s1 and (j.rule, j.host_colour) == (0, 1)
    assert [e[1] for e in j.link.queue] == [L.JOIN]
    assert j.stats["foreign"] == st0["foreign"] + 3


def test_a_joiner_never_taken_gives_the_offer_up_and_calls_again():
    """No ACK naming its nonce within the give-up time (another joiner won
    the host): its JOIN is no longer sent, it calls for hosts again."""
    t = time.ticks_ms()
    j = M.Match(FeedRadio(), host=False, seed=9, now_ms=t)
    j.link.radio.inbox.append(packet(L.OFFER, 0, 0, M.Match._u32(j.nonce)
                                     + (0, 1), session=0x2468ACE1, b=j))
    _drain(j, t)
    assert j.session and [e[1] for e in j.link.queue] == [L.JOIN]
    sent = len(j.link.radio.sent)
    for dt in range(10, 3200, 10):
        j.poll(t + dt)
    assert j.session == 0 and j.code is None and not j.link.queue
    n = len(j.link.radio.sent)
    for dt in range(3200, 3600, 10):
        j.poll(t + dt)
    later = j.link.radio.sent[n:]
    assert later and all(p[1] == L.HELLO for p in later)
    assert len(j.link.radio.sent) > sent


# ---- match.py: restored matches, cheaply on a FeedRadio ---------------------

def _restored(m):
    """m's snapshot restored on a FeedRadio: RESYNCING until a STATUS."""
    return M.Match.restore(FeedRadio(), m.snapshot(), seed=5,
                           now_ms=time.ticks_ms())


def _peer_status(m, flags=0, count=None, h=None):
    """The peer's STATUS, holding m's list unless told otherwise."""
    h = m._hash if h is None else h
    return packet(L.STATUS, m.game_no, m.count if count is None else count,
                  (h >> 8, h & 0xFF, flags), flags=0 if m.host else L.F_HOST,
                  b=m)


def _in_sync(m, now=None):
    m.link.radio.inbox.append(_peer_status(m))
    return _drain(m, now)


def test_a_restored_match_shows_the_peers_last_move_at_once():
    """The link line names the peer's last move from the first screen of a
    resumed match, not the rule as before any move; a restore is no
    pairing: no EV_PAIRED."""
    a, b, _, _ = setup_pair(seed=11)
    assert a.my_colour == 1 and b.count == 5
    for m, peers in ((a, 3), (b, 4)):       # the host's own last move is 4
        r = _restored(m)
        p = m.moves[peers]
        assert r.last_peer_move == (p % 15, p // 15)
        events = _in_sync(r)
        assert r.state == M.PAIRED and M.EV_PAIRED not in events


def test_losing_and_hearing_the_peer_are_events():
    a, _, _, _ = setup_pair(seed=12)
    t = time.ticks_ms()
    r = _restored(a)
    _in_sync(r, t)
    events = _drain(r, t + 1600)            # nothing heard for 1.6 s
    assert r.state == M.LOST and events == [M.EV_LOST]
    events = _in_sync(r, t + 1700)
    assert M.EV_BACK in events and r.state == M.PAIRED


def test_a_peer_move_is_applied_once_acked_and_counted():
    a, _, _, _ = setup_pair(seed=13)
    r = _restored(a)                        # the host, black; white to move
    _in_sync(r)
    st0 = dict(r.stats)
    h = r._hash
    r.link.radio.inbox.append(packet(L.MOVE, 0, 5, (11, 3, h >> 8, h & 0xFF),
                                     flags=0, seq=321, b=r))
    assert _drain(r) == [M.EV_MOVE]
    assert r.game.stone(11, 3) == 2 and r.last_peer_move == (11, 3)
    acks = _sent(r.link.radio, L.ACK)
    assert len(acks) == 1 and _seq(acks[0]) == 321 and acks[0][11] == L.MOVE
    assert r.stats["acks_sent"] == st0["acks_sent"] + 1
    assert r.stats["moves_applied"] == st0["moves_applied"] + 1
    # a row off the board is a malformed packet, not an illegal move
    h = r._hash
    r.link.radio.inbox.append(packet(L.MOVE, 0, 6, (3, 15, h >> 8, h & 0xFF),
                                     flags=0, seq=322, b=r))
    _drain(r)
    assert r.stats["malformed"] == st0["malformed"] + 1
    assert r.stats["illegal"] == st0["illegal"] and r.count == 6


# ---- match.py: rematch and goodbye -----------------------------------------

def test_a_rematch_is_asked_only_at_the_end_and_only_once():
    a, _, _, _ = setup_pair(seed=14)
    q = len(a.link.queue)
    assert not a.rematch() and not a.rematch_wanted
    assert len(a.link.queue) == q
    a, b = finished_pair(seed=15)
    assert a.rematch() and not a.rematch()
    assert [e[1] for e in a.link.queue].count(L.REMATCH) == 1


def test_the_peers_status_carries_its_rematch_wish():
    """The REMATCH packet was taken before this device saw the end (it was
    acked and dropped): the peer's STATUS still asks, and asks once."""
    a, b = finished_pair(seed=16)
    a.link.radio = FeedRadio()
    b.link.radio = fb = FeedRadio()
    assert a.rematch()
    st = _next_status(a)
    fb.inbox.extend([st, st])
    assert _drain(b) == [M.EV_REMATCH_ASKED]
    assert b.peer_rematch and b.game_no == 0


def test_two_wishes_met_in_a_status_start_the_next_game():
    """Both asked (neither REMATCH arrived): the peer's STATUS, carrying
    its wish, starts the next game, colours swapped."""
    a, b = finished_pair(seed=26)
    a.link.radio = FeedRadio()
    b.link.radio = fb = FeedRadio()
    assert a.rematch() and b.rematch()
    fb.inbox.append(_next_status(a))
    assert M.EV_NEW_GAME in _drain(b)
    assert b.game_no == 1 and b.count == 0 and b.my_colour == 1


def test_a_new_game_starts_with_no_peer_move():
    a, b = finished_pair(seed=17)
    assert b.last_peer_move is not None
    assert a.rematch() and b.rematch()
    step(a, b, lambda: a.game_no == b.game_no == 1)
    assert a.last_peer_move is None and b.last_peer_move is None
    assert (a.my_colour, b.my_colour) == (2, 1)


def test_goodbye_is_said_once_and_both_radios_power_down():
    medium = H.make_medium(seed=18)
    na, nb = H.Node(0, medium), H.Node(1, medium)
    a = M.Match(na.radio, host=True, seed=18, now_ms=time.ticks_ms())
    b = M.Match(nb.radio, host=False, seed=19, now_ms=time.ticks_ms())
    step(a, b, lambda: a.state == b.state == M.PAIRED)
    byes, answers = [], []
    medium.listeners.append(
        lambda f: byes.append(f) if not f.is_ack and f.payload[1] == L.BYE
        else None)
    a.close()
    assert len(byes) == 1 and a.state == M.CLOSED
    assert na.model.mode == POWER_DOWN
    # the joiner sends nothing more: the host's radio is off
    medium.listeners.append(
        lambda f: answers.append(f) if not f.is_ack
        and not f.payload[2] & L.F_HOST else None)
    events = []
    while len(events) < 20 and M.EV_PEER_LEFT not in events:
        events.append(b.poll(time.ticks_ms()))
        time.sleep_ms(5)
    assert M.EV_PEER_LEFT in events and b.state == M.CLOSED and nb.model.mode == POWER_DOWN
    assert answers == []
    # unheard, goodbye is tried three times, no more
    _, j, _, _ = setup_pair(seed=20)
    j.link.radio = radio = _FlakyRadio([False] * 5)
    j.close()
    assert len(_sent(radio, L.BYE)) == 3


# ---- match.py: divergence ---------------------------------------------------

def test_a_peer_behind_on_another_list_is_repaired_from_the_start():
    """The joiner's STATUS: 3 moves, not the host's first 3. The host's
    list wins: it sends its whole list as a repair (from move 0), not the
    moves after the joiner's 3rd, which the joiner could never attach."""
    a, _, _, _ = setup_pair(seed=22)
    r = _restored(a)
    _in_sync(r)
    d0 = r.stats["divergences"]
    n0 = len(r.link.radio.sent)
    r.link.radio.inbox.append(_peer_status(r, count=3, h=r.hash_at(3) ^ 0x0101))
    _drain(r)
    hs = _sent(r.link.radio, L.HIST)
    assert hs and r.link.radio.sent.index(hs[-1]) >= n0
    h = hs[-1]
    assert h[2] & L.F_REPAIR and h[11] == 0 and h[16:-2] == bytes(a.moves[:5])
    assert r.stats["divergences"] == d0 + 1 and r.count == 5


def test_a_joiner_on_another_list_starts_over_and_says_so():
    _, b, _, _ = setup_pair(seed=23)
    r = _restored(b)
    t = time.ticks_ms()
    _in_sync(r, t)
    d0 = r.stats["divergences"]
    r.link.radio.inbox.append(_peer_status(r, h=r._hash ^ 0x0101))
    assert M.EV_SYNCED in _drain(r, t + 50)
    assert r.count == 0 and r.game.moves == 0 and r.state == M.RESYNCING
    assert r.stats["divergences"] == d0 + 1
    st = _sent(r.link.radio, L.STATUS)[-1]
    assert st[10] == 0 and st[11:13] == b"\xff\xff"     # the empty list


def test_a_host_takes_no_repair_from_its_joiner():
    """A joiner's HIST marked as a repair, hashed right, with other moves:
    the host's list is the one that wins, it stays."""
    a, _, _, _ = setup_pair(seed=24)
    r = _restored(a)
    _in_sync(r)
    before = bytes(r.moves[:r.count])
    mine = bytes((0, 1, 2, 16, 17, 18))
    ha = crc16(mine, len(mine))
    r.link.radio.inbox.append(packet(
        L.HIST, 0, len(mine), bytes((0, 0xFF, 0xFF, ha >> 8, ha & 0xFF)) + mine,
        flags=L.F_REPAIR, b=r))
    _drain(r)
    assert bytes(r.moves[:r.count]) == before
    assert r.game.stone(1, 1) == 0


def test_moves_fetched_from_the_host_are_counted_as_synced():
    _, b, _, _ = setup_pair(seed=25)
    r = _restored(b)
    _in_sync(r)
    st0 = dict(r.stats)
    r.link.radio.inbox.append(hist(5, [12 * 15 + 12, 13 * 15 + 13], b=r))
    assert M.EV_SYNCED in _drain(r)
    assert r.count == 7 and r.last_peer_move == (13, 13)
    assert r.stats["moves_synced"] == st0["moves_synced"] + 2
    assert r.stats["resyncs"] == st0["resyncs"] + 1
    assert r.stats["moves_applied"] == st0["moves_applied"]
    assert r.stats["divergences"] == st0["divergences"]


def test_a_move_a_repair_took_back_is_no_longer_sent():
    """The joiner's own move, not yet acked, is not in the host's list
    that replaced its own: it stops sending it (the host would refuse it
    as a conflict for ever, holding up every packet queued behind it)."""
    _, b, _, _ = setup_pair(seed=29)
    r = _restored(b)
    t = time.ticks_ms()
    _in_sync(r, t)
    assert r.send_move(12, 12)
    assert [e[1] for e in r.link.queue] == [L.MOVE]
    hosts = list(b.moves[:5]) + [13 * 15 + 13]
    r.link.radio.inbox.append(hist(0, hosts, repair=True, b=r))
    _drain(r, t)
    assert bytes(r.moves[:r.count]) == bytes(hosts) and not r.link.queue
    n = len(r.link.radio.sent)
    for dt in range(10, 1000, 10):
        r.poll(t + dt)
    assert not [p for p in r.link.radio.sent[n:] if p[1] == L.MOVE]


def test_a_status_too_long_or_a_history_of_another_game_changes_nothing():
    """A STATUS with a byte too many is malformed, not read as one; the
    moves of a HIST of another game (a late copy from the last one, or one
    of a game not started here) are never put on this game's board."""
    _, b, _, _ = setup_pair(seed=30)
    r = _restored(b)
    t = time.ticks_ms()
    _in_sync(r, t)
    st0 = dict(r.stats)
    h = r._hash
    r.link.radio.inbox.append(packet(L.STATUS, 0, 7, (h >> 8, h & 0xFF, 1, 0),
                                     b=r))
    _drain(r, t + 50)
    assert r.stats["malformed"] == st0["malformed"] + 1
    assert not r.peer_rematch and r.state == M.PAIRED
    mv = 12 * 15 + 12
    ha = crc16(bytes((mv,)), 1, h)
    for game in (1, 255):
        r.link.radio.inbox.append(packet(
            L.HIST, game, 6, (5, h >> 8, h & 0xFF, ha >> 8, ha & 0xFF, mv), b=r))
    _drain(r, t + 100)
    assert r.count == 5 and r.game.stone(12, 12) == 0
    assert r.stats["moves_synced"] == st0["moves_synced"]


# ---- match.py: the snapshot -----------------------------------------------

def _resealed(blob, i, v):
    """blob with byte i set to v and its CRC made good again."""
    b = bytearray(blob[:-2])
    b[i] = v
    c = crc16(b, len(b))
    return bytes(b + bytes((c >> 8, c & 0xFF)))


def test_a_save_with_fields_no_match_writes_is_refused_before_it_is_offered():
    """The layout (match.py): magic(4) host session(4) rule host_colour
    game count moves... joiner's nonce(4) games won(2) CRC(2).
    check_snapshot() is what
    the boot screen asks before offering to resume: a rule (0 freestyle,
    1 standard, 4 renju), a colour or a point no match has is refused
    there."""
    a, b, _, _ = setup_pair(seed=27)
    blob = b.snapshot()
    assert blob[:4] == b"GMM3" and blob[4] == 0 and blob[10] == 1
    assert blob[12] == 5 and blob[13:18] == bytes(b.moves[:5])
    assert blob[18:22] == bytes(4)          # a joiner keeps no nonce
    assert blob[22:24] == bytes(2) and len(blob) == 26
    assert a.snapshot()[18:22] == b.nonce.to_bytes(4, "big")
    M.check_snapshot(blob)
    for i, v in ((9, 2), (9, 3), (10, 0), (10, 3), (17, 225), (13, 255)):
        with pytest.raises(ValueError):
            M.check_snapshot(_resealed(blob, i, v))


def test_the_games_won_are_saved_and_a_save_from_before_them_still_resumes():
    """GMM3 keeps the screen's tally (mine, the peer's) before the CRC; a
    GMM2 save, written by the firmware before, resumes with none won."""
    _, b, _, _ = setup_pair(seed=27)
    blob = b.snapshot(bytearray((0, 3, 250)))
    M.check_snapshot(blob)
    assert M.saved_won(blob) == (3, 250)
    old = bytearray(b"GMM2" + blob[4:-4])
    c = crc16(old, len(old))
    old = bytes(old + bytes((c >> 8, c & 0xFF)))
    M.check_snapshot(old)
    assert M.saved_won(old) == (0, 0)
    r = M.Match.restore(b.link.radio, old, seed=2, now_ms=0)
    assert bytes(r.moves[:r.count]) == bytes(b.moves[:b.count])
    # the tally is two bytes, not a longer nonce: one byte more or less is corrupt
    for bad in (blob[:-4] + blob[-3:], blob[:-2] + b"\0" + blob[-2:]):
        with pytest.raises(ValueError):
            M.check_snapshot(_resealed(bad, 4, bad[4]))


def test_a_repaired_list_of_the_same_length_is_saved_again():
    """saved_key() changes when snapshot() does: after a repair that
    replaces the joiner's 5 moves with the host's 5, the save is due."""
    _, b, _, _ = setup_pair(seed=28)
    r = _restored(b)
    key, snap = r.saved_key(), r.snapshot()
    hosts = [0, 1, 2, 16, 17]
    r.link.radio.inbox.append(hist(0, hosts, repair=True, b=r))
    assert M.EV_SYNCED in _drain(r)
    assert bytes(r.moves[:r.count]) == bytes(hosts)
    assert r.snapshot() != snap and r.saved_key() != key
    assert r.stats["divergences"] == 1


def test_ids_and_jitter_stay_small_ints_on_32_bit_ports():
    """rp2 and esp32 keep ints below 2**30 in the object itself: a session
    id, nonce or sequence number above that would be a heap int, and every
    packet built or checked would allocate. And two handhelds with nearby
    seeds still pick different sessions."""
    seen = set()
    for seed in list(range(40)) + [0xFFFFFFFF, 1 << 31, 0x12345678]:
        r = L.Rand(seed)
        for _ in range(500):
            v = r.next()
            assert 0 <= v < 1 << 30
        seen.add(r.next() | 1)
    assert len(seen) == 43
    m = M.Match(FeedRadio(), host=True, seed=7, now_ms=time.ticks_ms())
    assert 0 < m.session < 1 << 30 and 0 <= m.link.seq < 1 << 16
