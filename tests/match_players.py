"""Instance functions for two-device match tests (see multitest.py), and
step() for two matches polled side by side in one test."""
import random
import time

import match as M
from host_sim.match import choose_move


def player(node, host, seed=1, rule=0, linger_ms=1500, think_ms=(5, 60)):
    """Pair, play one game to its end, keep answering a while, report."""
    m = M.Match(node.radio, host=host, rule=rule, seed=seed * 10 + host,
                now_ms=time.ticks_ms())
    rng = random.Random(seed * 7 + host)
    events = []
    wait = None
    end = None
    while True:
        now = time.ticks_ms()
        ev = m.poll(now)
        while ev is not None:
            events.append(ev)
            ev = m.poll(now)
        if m.game.winner:
            if end is None:
                end = now + linger_ms
            elif time.ticks_diff(now, end) >= 0:
                break
        elif m.my_turn():
            if wait is None:
                wait = now + rng.randint(*think_ms)
            elif time.ticks_diff(now, wait) >= 0:
                x, y = choose_move(m.game, rng)
                assert m.send_move(x, y)
                wait = None
        yield 5
    return {"code": m.code, "colour": m.my_colour, "winner": m.game.winner,
            "moves": bytes(m.moves[:m.count]).hex(), "events": events,
            "stats": m.stats}


def step(a, b, cond, limit=3000):
    """Poll both matches (5 ms apart on the clock) until cond() holds."""
    for _ in range(limit):
        a.poll(time.ticks_ms())
        b.poll(time.ticks_ms())
        if cond():
            return
        time.sleep_ms(5)
    raise AssertionError("condition not reached")
