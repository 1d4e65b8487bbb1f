"""Review tests: pairing when two pairs of handhelds share one room."""
import time

import host_sim.match as H
import match as M


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
            if receiver is nb.model and not frame.is_ack and \
                    len(frame.payload) > 11 and frame.payload[1] == 4 and \
                    frame.payload[11] == 3:
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
