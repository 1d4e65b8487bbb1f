"""Headless wireless matches: two simulated handhelds on one radio medium.

    python -m host_sim.match --games 5 --loss 0.3 --dup 0.1 --reorder 0.1 \
        --reset-every 12 --inject 0.05 --seed 1

prints a JSON summary: games, moves, retransmissions, median and p95 move
latency (simulated ms from send_move on one device to the move on the
other's board), divergences (games whose final move lists differ, or differ
from the moves the players made), foreign and malformed packets rejected.

How two firmware instances share one process: every device is a generator
that polls its Match and then `yield`s the milliseconds it sleeps. The
Scheduler resumes whichever device wakes first and moves the virtual clock
(host_sim/shims/sim_clock) to that time, so the two interleave like two
CPUs; while one runs (a blocking radio send, say) the other's radio model
keeps receiving and acknowledging on the sim clock, as real hardware does.
Each device has its own NRF24L01 model on its own SPI bus and pins.
A reset kills a device's generator and boots it again from its "flash"
(the last match snapshot the device saved; sometimes the one before, as
when power fails between a move and its save).
"""
import argparse
import json
import os
import random
import sys

import host_sim

host_sim.install()
sys.path.append(os.path.join(host_sim.ROOT, "host_sim"))   # radio_medium

import machine  # noqa: E402
import sim_clock  # noqa: E402
import time  # noqa: E402
from nrf24l01_model import NRF24L01Model  # noqa: E402
from radio_medium import Medium  # noqa: E402

import gomoku  # noqa: E402
import ai  # noqa: E402
import link as L  # noqa: E402
import match as M  # noqa: E402
import nrf24l01  # noqa: E402


class Node:
    """One simulated handheld's radio: model + driver on its own pins."""

    def __init__(self, idx, medium):
        self.idx = idx
        bus, cs, ce, irq = idx * 10, 5 + 100 * idx, 14 + 100 * idx, 22 + 100 * idx
        self.model = NRF24L01Model(ce, irq, medium, "nrf%d" % idx)
        machine.attach_spi(bus, cs, self.model, "nrf%d" % idx)
        self.pins = (bus, cs, ce, irq)
        self.flash = {}
        self.boots = 0
        self.radio = None
        self.boot()

    def boot(self, power_loss=False):
        """Reset: the MCU restarts (and the radio too on a power loss)."""
        if power_loss:
            self.model.power_cycle()
        bus, cs, ce, irq = self.pins
        self.radio = nrf24l01.NRF24L01(machine.SPI(bus, baudrate=4000000),
                                       machine.Pin(cs), machine.Pin(ce),
                                       machine.Pin(irq))
        self.boots += 1


class Scheduler:
    """Run generators (`yield ms` = sleep) on the shared virtual clock."""

    def __init__(self):
        self.tasks = {}     # name -> [wake_us, generator]

    def start(self, name, gen, delay_ms=0):
        self.tasks[name] = [sim_clock.now_us() + delay_ms * 1000, gen]

    def kill(self, name):
        t = self.tasks.pop(name, None)
        if t:
            t[1].close()

    def step(self):
        """Resume the earliest task; False when none is left."""
        if not self.tasks:
            return False
        name = min(self.tasks, key=lambda k: (self.tasks[k][0], k))
        wake, gen = self.tasks[name]
        now = sim_clock.now_us()
        if wake > now:
            sim_clock.advance_us(wake - now)
        try:
            ms = next(gen)
        except StopIteration:
            self.tasks.pop(name, None)
            return True
        if name in self.tasks:
            self.tasks[name][0] = sim_clock.now_us() + max(1, int(ms)) * 1000
        return True


def make_medium(loss=0.0, dup=0.0, reorder=0.0, delay_us=0, seed=0):
    sim_clock.reset()
    machine.forget_all()
    return Medium(loss=loss, dup=dup, reorder=reorder, delay_us=delay_us,
                  seed=seed)


def percentile(values, pc):
    """The nearest-rank pc-th percentile of sorted values (pc a whole number
    of percent): the smallest value at least pc% of them do not exceed."""
    if not values:
        return None
    return values[max(0, (len(values) * pc + 99) // 100 - 1)]


def choose_move(g, rng):
    """A plausible player: the level-1 AI, sometimes a nearby random move;
    never an occupied or (renju, black) forbidden point."""
    def ok(x, y):
        return g.stone(x, y) == 0 and not (g.turn == 1 and g.forbidden(x, y))
    if rng.random() >= 0.25 or not g.moves:
        i = ai.best_move(g, 1)
        if 0 <= i < 225 and ok(i % 15, i // 15):
            return i % 15, i // 15
    near = [(x, y) for y in range(15) for x in range(15)
            if ok(x, y) and any(
                0 <= x + dx < 15 and 0 <= y + dy < 15 and g.stone(x + dx, y + dy)
                for dx in (-1, 0, 1) for dy in (-1, 0, 1))]
    if near:
        return rng.choice(near)
    for i in range(112, 337):           # from the centre on
        x, y = i % 225 % 15, i % 225 // 15
        if ok(x, y):
            return x, y


def other_match(packet):
    """packet as another match nearby would send it: another session and, in
    a packet that names a joiner (OFFER, JOIN, the ACK of a JOIN), another
    joiner's nonce. One with another session and our joiner's nonce is no
    other match's: only a transmitter that rewrites what it hears could send
    it, and no packet check stops that (the handhelds then show different
    codes: link.py)."""
    p = bytearray(packet)
    p[3] ^= 0x5A
    typ = p[1]
    at = L.HEADER + (typ == L.ACK)
    if (typ == L.OFFER or typ == L.JOIN or typ == L.ACK and len(p) > at
            and p[L.HEADER] == L.JOIN) and len(p) >= at + 4 + 2:
        p[at] ^= 0x5A
    return _sealed(p)


def reflected(packet):
    """packet from our session as the receiver's own role would send it."""
    p = bytearray(packet)
    p[2] ^= L.F_HOST
    return _sealed(p)


def _sealed(p):
    n = len(p) - 2
    c = L.crc16(p, n, L.session_key(L.session_of(p)))
    p[n], p[n + 1] = c >> 8, c & 0xFF
    return bytes(p)


class MatchRun:
    """Two devices playing `games` games (rematches) with faults injected."""

    def __init__(self, games=3, loss=0.0, dup=0.0, reorder=0.0, reset_every=0,
                 inject=0.0, seed=1, rule=gomoku.FREESTYLE, think_ms=(30, 300),
                 limit_ms=None):
        self.rng = random.Random(seed)
        self.medium = make_medium(loss, dup, reorder, 0, seed)
        self.nodes = [Node(0, self.medium), Node(1, self.medium)]
        self.sched = Scheduler()
        self.games = games
        self.rule = rule
        self.seed = seed
        self.think_ms = think_ms
        self.reset_every = reset_every
        self.inject = inject
        self.limit_ms = limit_ms or 600000 * max(1, games)
        self.made = {}              # (game, idx) -> move the player made
        self.sent_at = {}           # (game, idx) -> ms sent
        self.latency = []
        self.seen = [{}, {}]        # per device: game -> (moves, winner)
        self.matches = [None, None]
        self.finished = [False, False]
        self.moves_made = 0
        self.resets = 0
        self.stats_total = {}
        self.captured = []
        self.medium.listeners.append(self._sniff)
        self.injected = 0

    # ---- devices ----------------------------------------------------------

    def device(self, i):
        node = self.nodes[i]
        snap = node.flash.get("snap")
        now = time.ticks_ms()
        seed = self.seed * 1000 + i * 100 + node.boots
        if snap:
            m = M.Match.restore(node.radio, snap, seed=seed, now_ms=now)
        else:
            m = M.Match(node.radio, host=(i == 0), rule=self.rule,
                        host_colour=1, seed=seed, now_ms=now)
        self.matches[i] = m
        rng = random.Random(seed)
        think_until = None
        saved = None
        other = 1 - i
        while True:
            now = time.ticks_ms()
            while m.poll(now) is not None:
                pass
            self._observe(i, m, now)
            if m.code is not None:
                key = (m.game_no, m.count, m.state == M.RESYNCING)
                if key != saved:
                    node.flash["prev"] = node.flash.get("snap")
                    node.flash["snap"] = m.snapshot()
                    node.flash["acted"] = False
                    saved = key
            if m.game.winner:
                done = sum(1 for g, v in self.seen[i].items() if v[1])
                if done < self.games:
                    if not m.rematch_wanted:
                        m.rematch()
                        node.flash["acted"] = True
                else:
                    self.finished[i] = True
            elif m.my_turn():
                if think_until is None:
                    think_until = now + rng.randint(*self.think_ms)
                elif time.ticks_diff(now, think_until) >= 0:
                    x, y = choose_move(m.game, rng)
                    idx = m.count
                    if m.send_move(x, y):
                        node.flash["acted"] = True
                        self.made[(m.game_no, idx)] = y * 15 + x
                        self.sent_at[(m.game_no, idx)] = now
                        self.moves_made += 1
                        self._maybe_reset()
                    think_until = None
            else:
                think_until = None
            if self.finished[i] and self.finished[other]:
                return
            yield 10

    def _observe(self, i, m, now):
        g = m.game_no
        self.seen[i][g] = (bytes(m.moves[:m.count]), m.game.winner)
        for idx in range(m.count):
            k = (g, idx)
            t = self.sent_at.get(k)
            if t is not None and (idx % 2 == 0) != (m.my_colour == 1):
                self.latency.append(time.ticks_diff(now, t))
                del self.sent_at[k]

    def _maybe_reset(self):
        if self.reset_every and self.moves_made % self.reset_every == 0:
            victim = self.rng.randrange(2)
            at = self.rng.randint(0, 400)
            self.sched.start("reset%d" % self.moves_made,
                             self._reset(victim), at)

    def _reset(self, i):
        node = self.nodes[i]
        self._harvest(i)
        self.sched.kill("dev%d" % i)
        self.resets += 1
        self.finished[i] = False        # until its restored match ends again
        if node.flash.get("prev") and self.rng.random() < 0.3 and \
                not node.flash.get("acted"):
            # the last save was lost: the reset came as it was written, so
            # before the device acted on what it saved (a save that was
            # whole when the player then moved or asked a rematch stays)
            node.flash["snap"] = node.flash["prev"]
        power = self.rng.random() < 0.5
        yield self.rng.randint(50, 500)               # off, then booting
        node.boot(power_loss=power)
        self.sched.start("dev%d" % i, self.device(i))

    def _harvest(self, i):
        m = self.matches[i]
        if m is not None:
            for k, v in m.stats.items():
                self.stats_total[k] = self.stats_total.get(k, 0) + v
            self.matches[i] = None

    # ---- the third transmitter -------------------------------------------

    def _sniff(self, f):
        if not f.is_ack and f.sender is not None and len(self.captured) < 200:
            self.captured.append((f.channel, f.addr, f.payload))

    def injector(self):
        rng = random.Random(self.seed + 7)
        while True:
            yield 10
            if not self.captured or rng.random() >= self.inject:
                continue
            ch, addr, payload = rng.choice(self.captured)
            kind = rng.randrange(5)
            p = payload         # kind 4: a replay of an old packet
            if kind == 0:       # random bytes
                p = bytes(rng.randrange(256) for _ in range(rng.randint(1, 32)))
            elif kind == 1:     # a mutated valid packet
                p = bytearray(payload)
                for _ in range(rng.randint(1, 3)):
                    p[rng.randrange(len(p))] = rng.randrange(256)
            elif kind == 2:
                p = other_match(payload)
            elif kind == 3:
                p = reflected(payload)
            self.medium.inject(ch, addr, bytes(p), rate=1000000)
            self.injected += 1

    # ---- running ----------------------------------------------------------

    def run(self):
        self.sched.start("dev0", self.device(0))
        self.sched.start("dev1", self.device(1), 37)
        if self.inject:
            self.sched.start("inject", self.injector())
        limit = self.limit_ms * 1000
        while not (self.finished[0] and self.finished[1]):
            if sim_clock.now_us() > limit or not self.sched.step():
                break
        self.sched.tasks.pop("inject", None)
        self._harvest(0)
        self._harvest(1)
        return self.summary()

    def summary(self):
        div = 0
        games = 0
        moves = 0
        winners_agree = True
        for g in sorted(set(self.seen[0]) | set(self.seen[1])):
            a = self.seen[0].get(g)
            b = self.seen[1].get(g)
            if a is None or b is None or not (a[1] or b[1]):
                continue
            games += 1
            moves += len(a[0])
            want = bytes(self.made.get((g, k), 255) for k in range(len(a[0])))
            if a != b or a[0] != want:
                div += 1
            if a[1] != b[1]:
                winners_agree = False
        lat = sorted(self.latency)
        st = self.stats_total
        radio_retx = sum(n.model.retransmits for n in self.nodes)
        frames = self.medium.stats["frames"]
        return {
            "games": games, "moves": moves,
            "finished": bool(self.finished[0] and self.finished[1]),
            "retransmissions": st.get("retransmits", 0),
            "radio_retransmissions": radio_retx,
            "median_latency_ms": percentile(lat, 50), "p95_latency_ms": percentile(lat, 95),
            "divergences": div, "winners_agree": winners_agree,
            "foreign_rejected": st.get("foreign", 0),
            "malformed_rejected": st.get("malformed", 0),
            "illegal_rejected": st.get("illegal", 0),
            "out_of_turn_rejected": st.get("out_of_turn", 0),
            "duplicates_ignored": st.get("duplicates", 0),
            "repairs": st.get("divergences", 0), "resyncs": st.get("resyncs", 0),
            "resets": self.resets, "injected": self.injected,
            "frames_on_air": frames,
            "frames_per_move": round(frames / moves, 1) if moves else None,
            "sim_seconds": round(sim_clock.now_us() / 1e6, 1),
            "radio_violations": sorted(set(v for n in self.nodes
                                           for v in n.model.violations)),
        }


def _chance(text):
    p = float(text)
    if not 0.0 <= p <= 1.0:
        raise argparse.ArgumentTypeError("%s is not a chance (0 to 1)" % text)
    return p


def _count(least):
    def count(text):
        n = int(text)
        if n < least:
            raise argparse.ArgumentTypeError("%s: at least %d" % (text, least))
        return n
    return count


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=_count(1), default=3,
                    help="games to play (the first, then rematches)")
    ap.add_argument("--loss", type=_chance, default=0.0,
                    help="chance a packet or an ACK is lost")
    ap.add_argument("--dup", type=_chance, default=0.0,
                    help="chance a packet arrives twice")
    ap.add_argument("--reorder", type=_chance, default=0.0,
                    help="chance a packet is held back up to 3 ms")
    ap.add_argument("--reset-every", type=_count(0), default=0,
                    metavar="K",
                    help="after every K moves one device resets (power loss "
                    "half the time; 30%% of boots lose the last save)")
    ap.add_argument("--inject", type=_chance, default=0.0,
                    help="chance per 10 ms that a third transmitter sends "
                    "junk, mutated, forged or replayed packets")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rule", type=int, default=gomoku.FREESTYLE,
                    choices=(gomoku.FREESTYLE, gomoku.STANDARD, gomoku.RENJU),
                    help="0 freestyle, 1 standard, 4 renju")
    a = ap.parse_args(argv)
    run = MatchRun(a.games, a.loss, a.dup, a.reorder, a.reset_every, a.inject,
                   a.seed, a.rule)
    s = run.run()
    print(json.dumps(s))
    bad = [why for why, failed in (
        ("the games did not finish within %s simulated s" % s["sim_seconds"],
         not s["finished"]),
        ("%d game(s) diverged" % s["divergences"], s["divergences"]),
        ("the devices disagree on a winner", not s["winners_agree"]),
        ("the radio driver broke the datasheet: " + ", ".join(s["radio_violations"]),
         s["radio_violations"])) if failed]
    if bad:
        print("match: " + "; ".join(bad), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
