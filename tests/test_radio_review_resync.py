"""Review tests: what a restored device may do before it has resynced."""
import time

import host_sim.match as H
import match as M


def step(devs, cond, limit=3000):
    for _ in range(limit):
        for d in devs:
            d.poll(time.ticks_ms())
        if cond():
            return
        time.sleep_ms(5)
    raise AssertionError("condition not reached")


def test_a_restored_device_never_synced_plays_no_move_while_the_peer_is_lost():
    """The joiner plays move 3, the host gets it, power fails before the
    joiner's save: it boots from the save before (count 3, its turn again).
    The host is out of range for longer than the lost timeout. The joiner's
    board may be stale, so it must not play move 3 again: that move would
    differ from the one the host holds and be thrown away at the resync
    (the host's list wins), taking the player's stone off the board."""
    medium = H.make_medium(seed=5)
    na, nb = H.Node(0, medium), H.Node(1, medium)
    a = M.Match(na.radio, host=True, seed=5, now_ms=time.ticks_ms())
    b = M.Match(nb.radio, host=False, seed=6, now_ms=time.ticks_ms())
    step((a, b), lambda: a.code and b.code and b.state == M.PAIRED)
    assert b.my_colour == 2
    for k in range(3):
        mover = a if k % 2 == 0 else b
        assert mover.send_move(k, 4)
        step((a, b), lambda n=k + 1: a.count == b.count == n)
    stale = b.snapshot()                     # the joiner's save at count 3
    assert b.send_move(3, 4)
    step((a, b), lambda: a.count == 4)
    medium.enabled = False                   # out of range
    nb.boot()                                # the joiner resets
    b2 = M.Match.restore(nb.radio, stale, seed=9, now_ms=time.ticks_ms())
    assert b2.state == M.RESYNCING and b2.count == 3 and not b2.my_turn()
    step((a, b2), lambda: b2.state == M.LOST)
    # the peer is lost, but this board was never compared with the peer's
    assert not b2.my_turn()
    assert b2.send_move(9, 9) is False and b2.count == 3
    # back in range: the joiner gets its own move 3 back from the host
    medium.enabled = True
    step((a, b2), lambda: a.state == b2.state == M.PAIRED and b2.count == 4)
    assert bytes(b2.moves[:4]) == bytes(a.moves[:4])
    assert b2.game.stone(3, 4) == 2 and b2.game.stone(9, 9) == 0
    # a device that was in sync may still move while the peer is lost
    assert a.send_move(5, 5)
    step((a, b2), lambda: b2.count == 5)
    medium.enabled = False
    step((a, b2), lambda: b2.state == M.LOST)
    assert b2.my_turn() and b2.send_move(6, 6)


def test_a_device_restored_a_game_behind_follows_the_peer_to_its_game():
    """B's saves failed in the last moves of game 0 (wireless tolerates a
    full flash) and the two went on to the rematch; B boots from its save
    at 8 moves. A STATUS of game 1 started the next game only once B's
    game was over, HIST and MOVE of another game are refused: B stayed
    resyncing for good, A waiting on a MOVE it could not deliver."""
    medium = H.make_medium(seed=7)
    na, nb = H.Node(0, medium), H.Node(1, medium)
    a = M.Match(na.radio, host=True, seed=7, now_ms=time.ticks_ms())
    b = M.Match(nb.radio, host=False, seed=8, now_ms=time.ticks_ms())
    step((a, b), lambda: a.state == b.state == M.PAIRED)
    stale = None
    for k in range(9):
        mover = a if k % 2 == 0 else b
        if k == 8:
            stale = b.snapshot()        # B's last good save: game 0, 8 moves
        assert mover.send_move(k // 2, 0 if mover is a else 1)
        step((a, b), lambda n=k + 1: a.count == b.count == n
             and not a.link.queue and not b.link.queue)
    assert a.game.winner == b.game.winner == 1
    assert a.rematch() and b.rematch()
    step((a, b), lambda: a.game_no == b.game_no == 1)
    assert b.send_move(3, 3)            # game 1 under way: colours swapped,
    step((a, b), lambda: a.count == 1 and not b.link.queue)   # B is black
    nb.boot()
    b = M.Match.restore(nb.radio, stale, seed=11, now_ms=time.ticks_ms())
    step((a, b), lambda: b.state == M.PAIRED and b.game_no == 1
         and b.count == a.count and not a.link.queue, limit=2000)
    assert bytes(b.moves[:b.count]) == bytes(a.moves[:a.count])
    assert b.my_colour == 3 - a.my_colour and b.my_turn() != a.my_turn()
