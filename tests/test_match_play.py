"""Two handhelds play over the simulated radio: pairing, moves, faults,
resets, rematch, resync. Instances run side by side (tests/multitest.py)."""
import time

import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

import multitest
import match_players
from match_players import step
import host_sim.match as H
import match as M


def test_pairing_moves_rematch_and_goodbye():
    log = {}

    def instance0(node):
        m = M.Match(node.radio, host=True, rule=0, host_colour=2, seed=11,
                    now_ms=time.ticks_ms())
        assert m.state == M.WAITING and m.code is None and not m.my_turn()
        while m.poll(time.ticks_ms()) != M.EV_PAIRED:
            yield 10
        log["host"] = (m.code, m.my_colour, m.state)
        # the joiner (black) opens; the host answers on the next column
        for _ in range(4):
            while m.poll(time.ticks_ms()) != M.EV_MOVE:
                yield 5
            x, y = m.last_peer_move
            assert m.send_move(x, y + 1)
            assert not m.send_move(x, y + 2)      # not our turn any more
        while m.poll(time.ticks_ms()) != M.EV_MOVE:
            yield 5
        assert m.game.winner == 1                  # black: five in a row
        log["host_end"] = bytes(m.moves[:m.count])
        while m.poll(time.ticks_ms()) != M.EV_REMATCH_ASKED:
            yield 5
        assert m.rematch()
        while m.game.moves:                        # a fresh board
            m.poll(time.ticks_ms())
            yield 5
        log["host_rematch"] = (m.game_no, m.my_colour)
        while m.poll(time.ticks_ms()) != M.EV_PEER_LEFT:
            yield 5
        log["host_state"] = m.state

    def instance1(node):
        yield 30
        m = M.Match(node.radio, host=False, seed=12, now_ms=time.ticks_ms())
        while m.poll(time.ticks_ms()) != M.EV_PAIRED:
            yield 10
        log["joiner"] = (m.code, m.my_colour, m.state)
        assert m.rule == 0 and m.my_turn()
        for k in range(5):
            while not m.my_turn():
                m.poll(time.ticks_ms())
                yield 5
            before = (m.count, m.game.turn, len(m.link.queue))
            with pytest.raises(ValueError):
                m.send_move(99, 0)                 # off the board
            if k:
                with pytest.raises(ValueError):
                    m.send_move(3, 7)              # occupied
            assert (m.count, m.game.turn, len(m.link.queue)) == before
            assert m.send_move(3 + k, 7)
        while m.count < 9:
            m.poll(time.ticks_ms())
            yield 5
        assert m.game.winner == 1
        log["joiner_end"] = bytes(m.moves[:m.count])
        assert m.rematch() and m.rematch_wanted
        while m.poll(time.ticks_ms()) != M.EV_NEW_GAME:
            yield 5
        log["joiner_rematch"] = (m.game_no, m.my_colour)
        yield 200
        m.close()
        assert m.state == M.CLOSED

    multitest.run(instance0, instance1, seed=4)
    code = log["host"][0]
    assert len(code) == 4 and code.isdigit()
    assert log["host"] == (code, 2, M.PAIRED)
    assert log["joiner"] == (code, 1, M.PAIRED)
    assert log["host_end"] == log["joiner_end"]
    assert len(log["host_end"]) == 9
    assert log["host_rematch"] == (1, 1) and log["joiner_rematch"] == (1, 2)
    assert log["host_state"] == M.CLOSED


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_games_survive_loss_dup_reorder_resets_injection(seed):
    r = H.MatchRun(games=2, loss=0.3, dup=0.1, reorder=0.2, reset_every=5,
                   inject=0.05, seed=seed)
    s = r.run()
    assert s["finished"] and s["games"] == 2
    assert s["divergences"] == 0 and s["winners_agree"]
    assert s["resets"] >= 2 and s["moves"] >= 18
    assert s["retransmissions"] > 0 and s["radio_retransmissions"] > 0
    assert s["foreign_rejected"] + s["malformed_rejected"] > 0
    # every move the players made is on both boards once, in order
    for g in (0, 1):
        a = r.seen[0][g][0]
        assert a == r.seen[1][g][0]
        assert list(a) == [r.made[(g, k)] for k in range(len(a))]


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.booleans(), min_size=1, max_size=64), st.integers(1, 50))
def test_any_loss_pattern_ends_in_one_agreed_game(pattern, seed):
    """Packets are lost by a repeating pattern (both ways, ACKs too)."""
    medium = H.make_medium(seed=seed)
    n = [0]

    def drop(frame, receiver):
        n[0] += 1
        return pattern[n[0] % len(pattern)] and n[0] % 7 != 0
    medium.drop = drop

    def i0(node):
        return (yield from match_players.player(node, True, seed))

    def i1(node):
        return (yield from match_players.player(node, False, seed))
    a, b = multitest.run(i0, i1, medium=medium, limit_ms=900000)
    assert a["moves"] == b["moves"] and a["winner"] == b["winner"] != 0
    assert a["code"] == b["code"] and {a["colour"], b["colour"]} == {1, 2}
    assert M.EV_PAIRED in a["events"] and M.EV_PAIRED in b["events"]


def _paired_pair(seed=5, rule=0):
    """Two matches paired on one medium, stepped by hand."""
    medium = H.make_medium(seed=seed)
    na, nb = H.Node(0, medium), H.Node(1, medium)
    a = M.Match(na.radio, host=True, rule=rule, seed=seed, now_ms=time.ticks_ms())
    b = M.Match(nb.radio, host=False, seed=seed + 1, now_ms=time.ticks_ms())
    step(a, b, lambda: a.code and b.code and b.state == M.PAIRED)
    return medium, na, nb, a, b


def test_restore_resyncs_the_device_behind():
    medium, na, nb, a, b = _paired_pair()
    assert a.my_colour == 1
    snap = None
    for k in range(6):
        mover, other = (a, b) if k % 2 == 0 else (b, a)
        assert mover.send_move(k, 0 if mover is a else 1)
        step(a, b, lambda o=other, n=k + 1: o.count == n)
        if k == 2:
            snap = b.snapshot()                  # b's save three moves ago
    # b loses power and boots from the old save
    nb.boot(power_loss=True)
    b2 = M.Match.restore(nb.radio, snap, seed=99, now_ms=time.ticks_ms())
    assert b2.state == M.RESYNCING and b2.count == 3 and not b2.my_turn()
    assert b2.code == a.code and b2.my_colour == 2
    step(a, b2, lambda: b2.state == M.PAIRED)
    assert bytes(b2.moves[:b2.count]) == bytes(a.moves[:a.count])
    assert b2.count == 6 and b2.stats["resyncs"] >= 1
    assert b2.last_peer_move == (4, 0)
    # and play goes on
    assert b2.game.turn == 1 and a.my_turn() and a.send_move(7, 7)
    step(a, b2, lambda: b2.count == 7)


def test_a_renju_draw_short_of_a_full_board_ends_the_game_on_both():
    """White's last stone leaves black only an overline (engine_cases):
    both handhelds end the game drawn, neither can move, a rematch starts
    the next game."""
    from engine_cases import black_boxed_in
    _, moves = black_boxed_in(4)
    medium, na, nb, a, b = _paired_pair(rule=4)
    assert a.my_colour == 1 and b.rule == 4
    for k, i in enumerate(moves):
        mover = a if k % 2 == 0 else b
        assert mover.send_move(i % 15, i // 15), k
        step(a, b, lambda n=k + 1: a.count == b.count == n)
    assert a.game.winner == b.game.winner == 3 and a.count == 224
    assert not a.my_turn() and not a.send_move(3, 0) and not b.my_turn()
    assert a.rematch() and b.rematch()
    step(a, b, lambda: a.game_no == b.game_no == 1 and a.count == b.count == 0)
    assert a.game.winner == b.game.winner == 0


def _quiet_moves(n):
    """n legal moves in play order, no five among them."""
    import gomoku
    g = gomoku.Game(0)
    out = []
    p = 0
    while len(out) < n:
        p = (p + 38) % 225
        if g.stone(p % 15, p // 15) == 0:
            g.play(p % 15, p // 15)
            if g.winner:
                g.undo()
            else:
                out.append(p)
    return out


@pytest.mark.parametrize("n, keep", [(4, 2), (40, 35)])
def test_diverged_lists_are_repaired_to_the_hosts(n, keep):
    """The joiner's list differs from move `keep` on; the host's wins. 40
    moves do not fit one repair packet: it comes in parts."""
    moves = _quiet_moves(2 * n - keep)
    medium, na, nb, a, b = _paired_pair(seed=8)
    for k in range(n):
        mover = a if k % 2 == 0 else b
        assert mover.send_move(moves[k] % 15, moves[k] // 15)
        step(a, b, lambda n=k + 1: a.count == b.count == n)
    # a corrupted save: same session, a different history of the same length
    bad = M.Match.restore(nb.radio, b.snapshot(), seed=3)
    bad._truncate(keep)
    for p in moves[n:]:
        bad.game.play(p % 15, p // 15)
        bad._record(p)
    assert bad.count == n and bad.game.winner == 0
    blob = bad.snapshot()
    nb.boot()
    b2 = M.Match.restore(nb.radio, blob, seed=4, now_ms=time.ticks_ms())
    step(a, b2, lambda: b2.state == M.PAIRED and b2.count == n)
    assert bytes(b2.moves[:n]) == bytes(a.moves[:n]) == bytes(moves[:n])
    assert [b2.game.stone(p % 15, p // 15) for p in moves[n:]] == [0] * (n - keep)
    assert b2.stats["divergences"] + a.stats["divergences"] >= 1


def test_snapshot_rejects_corruption():
    medium, na, nb, a, b = _paired_pair()
    assert a.send_move(7, 7)
    blob = bytearray(a.snapshot())
    for bad in (b"", b"XXXX" + blob[4:], blob[:-1], blob[:10]):
        with pytest.raises(ValueError):
            M.Match.restore(na.radio, bytes(bad))
    flipped = bytearray(blob)
    flipped[-3] ^= 1
    with pytest.raises(ValueError):
        M.Match.restore(na.radio, bytes(flipped))
    # a good CRC over a move count that is not the number of moves held
    from crc16 import crc16
    for count in (blob[12] + 1, blob[12] - 1):
        wrong = bytearray(blob[:-2])
        wrong[12] = count
        c = crc16(wrong, len(wrong))
        wrong.extend((c >> 8, c & 0xFF))
        with pytest.raises(ValueError):
            M.Match.restore(na.radio, bytes(wrong))
    for rule, colour in ((3, 1), (4.0, 1), (True, 1), (0, 1.0), (0, True)):
        # 4.0 and True pass `in (0, 1, 4)`, and the first save failed on them
        with pytest.raises(ValueError, match="rule|host_colour"):
            M.Match(na.radio, host=True, rule=rule, host_colour=colour)
    fresh = M.Match(na.radio, host=True, seed=1)
    with pytest.raises(ValueError):
        fresh.snapshot()                         # nothing to save yet


def test_peer_lost_and_back():
    medium, na, nb, a, b = _paired_pair()
    medium.enabled = False                        # out of range
    step(a, b, lambda: a.state == M.LOST and b.state == M.LOST)
    assert a.my_turn()                            # a may still move...
    assert a.send_move(7, 7)
    medium.enabled = True
    step(a, b, lambda: b.count == 1 and a.state == b.state == M.PAIRED)
    assert b.last_peer_move == (7, 7)


def test_match_plays_on_the_unix_port():
    """The protocol, link, driver and engine on MicroPython 1.2x itself:
    two devices, 20% loss, one complete game."""
    import upy
    code = """
import sys
sys.path.append("host_sim")     # after the firmware: its match.py wins
import time, machine, sim_clock, gc
from radio_medium import Medium
from nrf24l01_model import NRF24L01Model
import nrf24l01, match, ai
med = Medium(loss=0.2, dup=0.1, seed=3)
def node(i):
    m = NRF24L01Model(14 + 100 * i, 22 + 100 * i, med)
    machine.attach_spi(i * 10, 5 + 100 * i, m, "nrf")
    return nrf24l01.NRF24L01(machine.SPI(i * 10, baudrate=4000000),
                             machine.Pin(5 + 100 * i), machine.Pin(14 + 100 * i),
                             machine.Pin(22 + 100 * i))
a = match.Match(node(0), host=True, seed=1, now_ms=time.ticks_ms())
b = match.Match(node(1), host=False, seed=2, now_ms=time.ticks_ms())
ms = (a, b)
for t in range(20000):
    for m in ms:
        m.poll(time.ticks_ms())
        if m.my_turn():
            i = ai.best_move(m.game, 1)
            k = 112
            while not 0 <= i < 225 or m.game.stone(i % 15, i // 15):
                i = k % 225
                k += 1
            m.send_move(i % 15, i // 15)
    if a.game.winner and b.game.winner and a.count == b.count:
        break
    time.sleep_ms(7)
gc.collect()
print(a.code == b.code, a.count, bytes(a.moves[:a.count]) == bytes(b.moves[:b.count]),
      a.game.winner, b.game.winner,
      sum(m.stats["moves_applied"] + m.stats["moves_synced"] for m in ms))
"""
    out = upy.run(code, heapsize="512k", shims=True,
                  extra_path=[upy.ROOT / "host_sim" / "chips"]).split()
    assert out[0] == "True" and out[2] == "True"
    n = int(out[1])
    assert n >= 9 and out[3] == out[4] != "0"
    assert int(out[5]) == n


def test_idle_poll_allocates_nothing_on_the_unix_port():
    """poll() runs every loop of a wireless game: with nothing heard and
    nothing due it allocates nothing, paired, resyncing or lost, nor when
    its STATUS falls due, nor in an ACK (the radio is a stand-in that
    allocates nothing; the model would)."""
    import upy
    code = """
import micropython, match
class R:
    def stop_listening(s): pass
    def start_listening(s): pass
    def open_rx_pipe(s, p, a): pass
    def close_rx_pipe(s, p): pass
    def open_tx_pipe(s, a): pass
    def send(s, b, n=-1): return True
    def any(s): return False
    def recv_into(s, b): return 0
    def power_down(s): pass
m = match.Match(R(), host=True, seed=7, now_ms=0)
m._paired()
e = t = None
for state in (match.PAIRED, match.RESYNCING, match.LOST):
    m.state = state
    m._heard = 1000                     # heard just now
    m._status_due = 2000                # no status due
    micropython.heap_lock()
    try:
        for t in range(1000, 1040):
            e = m.poll(t)
    finally:
        micropython.heap_unlock()
    print(state, e)
# nor the STATUS every 300 ms when it falls due, nor an ACK of a move
m.state = match.PAIRED
m._heard = 1000
m._status_due = 1000
sent = m.stats["sent"]
micropython.heap_lock()
try:
    m.poll(1000)
    m._ack(5, 5)
finally:
    micropython.heap_unlock()
print(m.stats["sent"] - sent)
"""
    out = upy.run(code, heapsize="512k").split()
    assert out == ["paired", "None", "resyncing", "None", "peer", "lost", "None",
                   "2"]


def test_a_joiner_calling_for_a_host_allocates_nothing_on_the_unix_port():
    """Unpaired, a joiner sends a HELLO every 120 ms or so, for as long as
    no host answers: minutes, maybe. Its payload is made once."""
    import upy
    code = """
import micropython, match
class R:
    sent = 0
    def stop_listening(s): pass
    def start_listening(s): pass
    def open_rx_pipe(s, p, a): pass
    def close_rx_pipe(s, p): pass
    def open_tx_pipe(s, a): pass
    def send(s, b, n=-1):
        s.sent += 1
        return False
    def any(s): return False
    def recv_into(s, b): return 0
    def power_down(s): pass
r = R()
m = match.Match(r, host=False, seed=7, now_ms=0)
m.poll(0)
micropython.heap_lock()
try:
    for t in range(10, 3000, 10):
        m.poll(t)
finally:
    micropython.heap_unlock()
print(r.sent, m.code)
"""
    sent, code = upy.run(code, heapsize="512k").split()
    assert int(sent) >= 3000 // 160 and code == "None"
