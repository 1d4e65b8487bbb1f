"""Random hands on the simulated handheld: seeded key mashing through
every screen the keys reach, with power cuts on CPython and without them
on the MicroPython unix port (whose rarely taken paths CPython cannot vouch
for); and a hosted wireless match whose peer plays random moves, asks
rematches and reboots, over air that loses, duplicates and reorders
packets. Whatever the keys do, the firmware must never fault, never set
aside a save it wrote itself, and leave on flash only saves that decode
and replay; the two handhelds of a match must end holding the same game."""
import json
import random

import host_sim

host_sim.install()

import time  # noqa: E402
import board_sim  # noqa: E402
import gomoku  # noqa: E402
import match  # noqa: E402
import saveread  # noqa: E402
import savegame  # noqa: E402
import sim_clock  # noqa: E402
from app_script import Script  # noqa: E402
from test_app_upy import LOAD_RIG, run_script  # noqa: E402
from test_app_wireless import start_hosting  # noqa: E402
from host_sim import device, radio_medium  # noqa: E402
from host_sim import match as H  # noqa: E402

KEYS = ("place", "back", "menu", "extra", "up", "down", "left", "right", "press")
WEIGHTS = (10, 1, 1.5, 0.5, 3, 3, 3, 3, 2)     # A most, as a player presses it


def mash(rng, s, n, cut, keys=KEYS):
    """n random taps of `keys` (holds and gaps of a hurried player), a power
    cut with chance `cut` instead of a tap; then quiet until the script's
    end."""
    weights = [WEIGHTS[KEYS.index(k)] for k in keys]
    for _ in range(n):
        if rng.random() < cut:
            s.reset()
            s.wait(rng.randint(50, 3000))
        else:
            hold = rng.choice((30, 80, 80, 80, 700))
            s.tap(rng.choices(keys, weights)[0], hold,
                  rng.choice((20, 60, 120, 120, 300, 1500)))


def no_fault(out):
    """No firmware fault in the console's text: main.py prints "gomoku:
    <error>" for one, and restarts the game."""
    faults = [line for line in out.splitlines() if line.startswith("gomoku:")]
    assert not faults, faults


# Every 500 ms of device time, the longest game saved so far (its file's
# size); on CPython and on the unix port (sim_clock and os are on both)
WATCH_SAVES = """
import os
import sim_clock
most_saved = [0]


def watch_saves():
    try:
        most_saved[0] = max(most_saved[0], os.stat("%s")[6] - %d)
    except OSError:
        pass
    sim_clock.call_at(sim_clock.now_us() + 500000, watch_saves)
""" % (savegame.PATH, savegame.HEAD + 2)


def watched_saves():
    """WATCH_SAVES on CPython: -> (start it, the most moves saved so far)."""
    scope = {}
    exec(WATCH_SAVES, scope)
    return scope["watch_saves"], lambda: scope["most_saved"][0]


def assert_saves_replay(flash):
    assert not (flash / savegame.BAD).exists() and \
        not (flash / savegame.MATCH_BAD).exists()
    if (flash / savegame.PATH).exists():
        saved = saveread.decode((flash / savegame.PATH).read_bytes())
        g = gomoku.Game(saved.rule)
        for mv in saved.moves:
            g.play(mv % 15, mv // 15)           # ValueError: a bad save
    if (flash / savegame.MATCH).exists():
        b = (flash / savegame.MATCH).read_bytes()
        match.check_snapshot(b)
        g = gomoku.Game(b[9])
        for mv in b[13:13 + b[12]]:
            g.play(mv % 15, mv // 15)


def test_random_keys_and_power_cuts_never_fault(flash, capsys):
    random.seed(7)          # a wireless match seeds its session from it
    rng = random.Random(7)
    s = Script()
    mash(rng, s, 1500, 0.004)
    dev = device.Device(board_sim, str(flash))
    watch, most = watched_saves()
    watch()
    dev.run(device.Script(s.end(3000)))
    no_fault(capsys.readouterr().out)
    assert dev.resets >= 3                      # the cuts came
    assert most() >= 10                         # and games were played
    assert_saves_replay(flash)


def test_random_keys_never_fault_on_the_unix_port(flash):
    """As above on MicroPython, without power cuts (a reset ends the rig's
    run). The heap is the rig's (its chip models, the script) and a
    wireless match's, not a budget: bench_app measures the game's."""
    rng = random.Random(11)
    s = Script()
    mash(rng, s, 1500, 0)
    code = LOAD_RIG % (str(flash), "board_sim", {}) + WATCH_SAVES + """
watch_saves()
print(json.dumps({"r": rig.run(events), "most_saved": most_saved[0]}))
"""
    out = run_script(code, s.end(3000), flash, "2048k")
    no_fault(out)
    res = json.loads(out.strip().splitlines()[-1])
    assert res["r"] == "end" and res["most_saved"] >= 10     # games were played
    assert_saves_replay(flash)


class RandomPeer:
    """The other handheld (match.Match, joining): random legal moves near
    the centre after a random pause, a rematch asked now and then after a
    game, a reboot that resumes from its own snapshot now and then; from
    `quiet_ms` on it only listens."""

    def __init__(self, medium, rng, quiet_ms):
        self.node = H.Node(1, medium)
        self.rng = rng
        self.quiet_ms = quiet_ms
        self.m = None
        self.due = None
        self.moves = self.reboots = self.left = 0
        sim_clock.call_at(sim_clock.now_us() + 300000, self.tick)

    def tick(self):
        now = time.ticks_ms()
        r = self.rng
        if self.m is None:
            self.m = match.Match(self.node.radio, host=False,
                                 seed=r.randint(1, 999999), now_ms=now)
        m = self.m
        e = m.poll(now)
        while e is not None and e != match.EV_PEER_LEFT:
            e = m.poll(now)
        if e == match.EV_PEER_LEFT:
            self.m = None           # join again: the host may come back
            self.left += 1
        elif now < self.quiet_ms:
            self.act(m, now, r)
        sim_clock.call_at(sim_clock.now_us() + 10000, self.tick)

    def act(self, m, now, r):
        if m.code and r.random() < 0.0005:
            blob = m.snapshot()
            self.node.boot()
            self.m = match.Match.restore(self.node.radio, blob, now_ms=now)
            self.reboots += 1
        elif m.game.winner:
            if r.random() < 0.01:
                m.rematch()
        elif m.my_turn():
            if self.due is None:
                self.due = now + r.choice((30, 60, 200, 800))
            elif time.ticks_diff(now, self.due) >= 0:
                g = m.game
                free = [i for i in range(225)
                        if abs(i % 15 - 7) < 4 and abs(i // 15 - 7) < 4
                        and not g.stone(i % 15, i // 15)
                        and not (g.rule == gomoku.RENJU and g.turn == 1
                                 and g.forbidden(i % 15, i // 15))]
                p = r.choice(free)
                m.send_move(p % 15, p // 15)
                self.moves += 1
                self.due = None


def test_a_wireless_match_under_random_keys_and_lossy_air(flash, capsys):
    """Every key but X, which leaves a match, and no power cut, after which
    B forgets it (test_app_wireless resets a match): once paired, the host
    stays in the match, whatever the keys do."""
    random.seed(30)         # the firmware's match seeds its session from it
    rng = random.Random(30)
    s = Script()
    start_hosting(s)
    mash(rng, s, 1500, 0, [k for k in KEYS if k != "menu"])
    quiet = s.t
    events = s.end(8000)    # the link settles
    air = radio_medium.Medium(loss=0.3, dup=0.15, reorder=0.15, seed=30)
    dev = device.Device(board_sim, str(flash), medium=air)
    peer = RandomPeer(dev.medium, random.Random(1030), quiet)
    dev.run(device.Script(events))
    no_fault(capsys.readouterr().out)
    assert peer.reboots >= 1 and peer.moves >= 50 and peer.left == 0
    assert_saves_replay(flash)
    m = peer.m
    assert m.state == match.PAIRED      # both hold the same game
    b = (flash / savegame.MATCH).read_bytes()
    assert (b[11], list(b[13:13 + b[12]])) == (m.game_no, list(m.moves[:m.count]))
