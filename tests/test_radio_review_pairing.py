"""Review tests: pairing when two pairs of handhelds share one room."""
import time

import host_sim.match as H
import match as M
from match_players import step


def _join_ack(frame, receiver, joiner):
    """The host's ACK of a JOIN (type 4, naming type 3) on its way to the
    joiner's radio."""
    return receiver is joiner.model and not frame.is_ack and \
        len(frame.payload) > 11 and frame.payload[1] == 4 and \
        frame.payload[11] == 3


def _run(nodes, starts, hosts, limit_ms=20000, until=None):
    """Devices i start at starts[i] ms, host or joiner; stepped every 5 ms."""
    ms = [None] * len(nodes)
    t0 = time.ticks_ms()
    for _ in range(limit_ms // 5):
        now = time.ticks_ms()
        for i, node in enumerate(nodes):
            if ms[i] is None and time.ticks_diff(now, t0) >= starts[i]:
                ms[i] = M.Match(node.radio, host=hosts[i], seed=100 + i,
                                now_ms=now)
            if ms[i] is not None:
                while ms[i].poll(now) is not None:
                    pass
        if until is not None and until(ms):
            break
        time.sleep_ms(5)
    return ms


def test_a_joiner_that_lost_the_join_race_does_not_pair_with_that_host():
    """Hosts A and B, joiners C and D. Only A is up when C and D call, so
    both take A's offer and send JOIN; A takes C's. D must not count itself
    paired with A (it heard A's STATUS to the session's joiner address, which
    C's and D's radios both listen on): it gives the offer up and pairs with
    B, which starts later."""
    medium = H.make_medium(seed=3)
    nodes = [H.Node(i, medium) for i in range(4)]
    hosts = [True, True, False, False]
    starts = [0, 1500, 10, 10]      # A, B, C, D

    def done(ms):
        return all(m is not None and m.code is not None for m in ms) and \
            all(m.state == M.PAIRED for m in ms)
    ms = _run(nodes, starts, hosts, until=done)
    a, b, c, d = ms
    assert done(ms), [(m.state, m.code) for m in ms]
    joined = {c.session: c, d.session: d}
    # each host has exactly one joiner, and each joiner one host
    assert a.session != b.session
    assert set(joined) == {a.session, b.session}
    for h in (a, b):
        j = joined[h.session]
        assert j.code == h.code
        assert h.peer_nonce == j.nonce


def test_the_loser_of_the_join_race_plays_no_move_into_the_winners_game():
    medium = H.make_medium(seed=3)
    nodes = [H.Node(i, medium) for i in range(3)]
    hosts = [True, False, False]
    starts = [0, 10, 10]

    a, c, d = _run(nodes, starts, hosts, limit_ms=2000)
    assert a.code is not None
    winner, loser = (c, d) if c.nonce == a.peer_nonce else (d, c)
    assert winner.code == a.code and winner.state == M.PAIRED
    # the loser never counts itself in A's match (it was: paired by A's
    # STATUS, with A's code on its screen and moves it could send to A)
    assert loser.code is None and not loser.my_turn()
    assert loser.stats["foreign"] > 0


def test_a_joiner_that_never_heard_the_host_take_it_calls_again_and_pairs():
    """The host pairs when it takes a JOIN; the joiner only when it hears
    the host's ACK naming it. With those ACKs lost for 3.5 s the joiner
    gives the offer up (as a loser of a join race must) and calls again,
    and the host, paired, had closed its pairing address: the host showed
    a code and "peer lost", the joiner "Looking for a host..." for good."""
    medium = H.make_medium(seed=3)
    na, nb = H.Node(0, medium), H.Node(1, medium)
    a = M.Match(na.radio, host=True, seed=3, now_ms=time.ticks_ms())
    b = M.Match(nb.radio, host=False, seed=4, now_ms=time.ticks_ms())
    blackout = [None]

    def drop(frame, receiver):
        # everything to the joiner lost for 3.5 s from the host's ACK of
        # the JOIN (type 4, naming type 3)
        if blackout[0] is None:
            if _join_ack(frame, receiver, nb):
                blackout[0] = time.ticks_ms()
                return True
            return False
        return receiver is nb.model and \
            time.ticks_diff(time.ticks_ms(), blackout[0]) <= 3500
    medium.drop = drop
    t0 = time.ticks_ms()
    while time.ticks_diff(time.ticks_ms(), t0) < 20000:
        a.poll(time.ticks_ms())
        b.poll(time.ticks_ms())
        if b.code is not None and a.state == b.state == M.PAIRED and \
                not a._offering:
            break
        time.sleep_ms(5)
    assert blackout[0] is not None
    assert b.code == a.code and a.state == b.state == M.PAIRED
    assert b.my_colour == 3 - a.my_colour
    # the joiner heard paired, the host shuts its pairing address again
    assert not a._offering


def test_a_host_reset_before_its_joiner_heard_it_pair_takes_that_joiner_again():
    """The host pairs and saves when it takes a JOIN, then loses power before
    the joiner hears its ACK. Restored from that save, it must know the
    joiner it took: the joiner gives the offer up after 3 s and calls
    again, and the host offers again, to it alone. The save held no nonce
    before (GMM1): the restored host refused that joiner's JOIN for good,
    "peer lost" on one screen and "Looking for a host..." on the other."""
    medium = H.make_medium(seed=5)
    na, nb, nc = H.Node(0, medium), H.Node(1, medium), H.Node(2, medium)
    a = M.Match(na.radio, host=True, seed=5, now_ms=time.ticks_ms())
    b = M.Match(nb.radio, host=False, seed=6, now_ms=time.ticks_ms())
    lost = [False]

    def drop(frame, receiver):
        # the host's ACK of the JOIN never reaches the joiner, nor anything
        # after it from the host about to fail
        if _join_ack(frame, receiver, nb):
            lost[0] = True
        return lost[0] and receiver is nb.model
    medium.drop = drop
    step(a, b, lambda: a.code is not None)  # the host takes the JOIN, ACKs it ...
    assert b.code is None
    blob = a.snapshot()             # ... saves the match, and its power fails
    na.radio.power_down()
    medium.drop = None
    other = M.Match(nc.radio, host=False, seed=7, now_ms=time.ticks_ms())
    time.sleep_ms(1000)             # the host boots; other calls for a host
    a = M.Match.restore(H.Node(3, medium).radio, blob, seed=8,
                        now_ms=time.ticks_ms())
    t0 = time.ticks_ms()
    while time.ticks_diff(time.ticks_ms(), t0) < 20000:
        for m in (a, b, other):
            m.poll(time.ticks_ms())
        if b.state == a.state == M.PAIRED and not a._offering:
            break
        time.sleep_ms(5)
    assert b.code == a.code and b.session == a.session
    assert a.state == b.state == M.PAIRED
    assert b.my_colour == 3 - a.my_colour
    assert not a._offering              # heard the joiner: offers no more
    assert other.code is None           # the restored host took no stranger
    assert b.send_move(7, 7) is False   # black (the host) moves first
    assert a.send_move(7, 7)
    step(a, b, lambda: b.count == 1)
    assert b.last_peer_move == (7, 7)


def test_a_save_from_before_the_joiners_nonce_was_kept_still_resumes():
    """A GMM1 save (no nonce) written by the firmware before: the match
    resumes from it, as a host that takes no JOIN."""
    from test_app_wireless import _snapshot
    medium = H.make_medium(seed=9)
    blob = _snapshot(bytes((112, 113)))
    M.check_snapshot(blob)
    m = M.Match.restore(H.Node(0, medium).radio, blob, seed=1,
                        now_ms=time.ticks_ms())
    assert m.host and m.session == 0x12345679 and m.count == 2
    assert bytes(m.moves[:2]) == bytes((112, 113))
    assert m.peer_nonce is None and not m._offering
    assert m.snapshot()[:4] == b"GMM3"


def test_a_host_whose_joiner_left_before_it_was_heard_takes_the_next_one():
    """The host pairs on a JOIN; the joiner, only on the host's ACK. That
    ACK is lost and the joiner's player presses B (or it resets): nothing
    tells the host, which offered only to that joiner for ever. The same
    handheld joining again (a fresh nonce) was never answered. Now the
    host gives the silent joiner up and the pair plays."""
    medium = H.make_medium(seed=3)
    na, nb = H.Node(0, medium), H.Node(1, medium)
    a = M.Match(na.radio, host=True, seed=3, now_ms=time.ticks_ms())
    b = M.Match(nb.radio, host=False, seed=4, now_ms=time.ticks_ms())
    lose = [True]
    medium.drop = lambda f, r: lose[0] and _join_ack(f, r, nb)
    step(a, b, lambda: a.code is not None, limit=1000)
    assert b.code is None
    taken = a.peer_nonce
    b.close()
    lose[0] = False
    nb.boot()
    b2 = M.Match(nb.radio, host=False, seed=77, now_ms=time.ticks_ms())
    step(a, b2, lambda: b2.state == a.state == M.PAIRED, limit=4000)
    assert b2.code == a.code
    assert a.peer_nonce == b2.nonce != taken
    assert b2.my_turn() != a.my_turn()
