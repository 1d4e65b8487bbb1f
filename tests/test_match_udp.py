"""Two simulator processes play one game over UDP on 127.0.0.1 (each with
its own radio model on a UdpMedium, on the real-time clock)."""
import multitest
import match_players


def instance0(node):
    return (yield from match_players.player(node, True, seed=21,
                                            linger_ms=1500))


def instance1(node):
    yield 50
    return (yield from match_players.player(node, False, seed=21,
                                            linger_ms=1500))


def test_two_processes_over_udp():
    a, b = multitest.run_udp(__file__, timeout=150)
    assert a["code"] == b["code"] and a["code"] is not None
    assert {a["colour"], b["colour"]} == {1, 2}
    assert a["moves"] == b["moves"] and len(a["moves"]) >= 18
    assert a["winner"] == b["winner"] != 0
    # every move reached the other board once: by MOVE or by a resync
    got = sum(r["stats"]["moves_applied"] + r["stats"]["moves_synced"]
              for r in (a, b))
    assert got == len(a["moves"]) // 2
