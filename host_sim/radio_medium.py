"""The air between simulated NRF24L01 radios, on the simulated clock.

    medium = Medium(loss=0.3, dup=0.1, reorder=0.1, delay_us=0, seed=1)
    NRF24L01Model(ce_pin, irq_pin, medium=medium)    # attaches itself

A packet leaves its sender at its start time and arrives at every other
radio when its last bit is on air (sim_clock.call_at); the receiving model
decides whether it hears it (mode, channel, rate, address, CRC) and answers
with an ACK frame, which travels back the same way. Knobs, each drawn per
packet and per receiver from the medium's own seeded generator:
- loss: the packet (or the ACK) never arrives;
- dup: a second copy arrives later (up to reorder_us);
- reorder: the packet is held back up to reorder_us, so later ones overtake;
- delay_us: every packet arrives this much later;
- drop: a function (frame, receiver) -> bool replacing `loss` (scripted
  loss patterns in tests).
Two packets overlapping on one channel destroy each other (a collision).
`inject(...)` is a third transmitter: any bytes to any address.
`listeners` get every frame put on air (a sniffer, for replay attacks).

UdpMedium does the same between simulator processes over UDP on 127.0.0.1
(CPython): a frame's end on air sends it to every peer port, the peers'
radios answer with their ACK (or none) at once, and the sender waits (wall
clock, at most `wait_s`) for the answers while still serving its own port.
Peers serve their port from a sim_clock hook, i.e. whenever their clock moves.
Between processes only `loss` applies (dup/reorder/delay act in-process).
Any other datagram on the port (not a peer's, damaged, or a frame no
NRF24L01 could send) is dropped and counted in stats["foreign"].

MicroPython-compatible except UdpMedium.
"""
import sim_clock
from nrf24l01_model import Frame, T_SETTLE, air_us


class Rng:
    """xorshift32: the same sequence on CPython and MicroPython."""

    def __init__(self, seed):
        self.s = (seed * 2654435761 + 0x9E3779B9) & 0xFFFFFFFF or 1

    def next(self):
        s = self.s
        s ^= (s << 13) & 0xFFFFFFFF
        s ^= s >> 17
        s ^= (s << 5) & 0xFFFFFFFF
        self.s = s
        return s

    def chance(self, p):
        return p > 0 and self.next() % 1000000 < int(p * 1000000)

    def below(self, n):
        return self.next() % n if n > 0 else 0


class Medium:
    def __init__(self, loss=0.0, dup=0.0, reorder=0.0, delay_us=0, seed=0,
                 reorder_us=3000):
        self.radios = []
        self.loss = loss
        self.dup = dup
        self.reorder = reorder
        self.delay_us = delay_us
        self.reorder_us = reorder_us
        self.rng = Rng(seed)
        self.listeners = []
        self.drop = None        # fn(frame, receiver) -> True: lose it
        self.enabled = True
        self._air = []          # recent frames, for collisions
        self.stats = {"frames": 0, "acks": 0, "lost": 0, "duplicated": 0,
                      "reordered": 0, "collisions": 0, "injected": 0}

    def attach(self, radio):
        if radio not in self.radios:
            self.radios.append(radio)
        radio.medium = self

    def detach(self, radio):
        if radio in self.radios:
            self.radios.remove(radio)
        radio.medium = None

    # ---- air ----------------------------------------------------------------

    def _on_air(self, f):
        now = sim_clock.now_us()
        self._air = [a for a in self._air if a.t_end > now - 20000]
        self._air.append(f)

    def _collided(self, f):
        for a in self._air:
            if a is not f and a.sender is not f.sender and a.channel == f.channel \
                    and a.t0 < f.t_end and f.t0 < a.t_end:
                return True
        return False

    def transmit(self, sender, f):
        """Called by a model when frame f starts on air."""
        self.stats["frames"] += 1
        self._on_air(f)
        for fn in self.listeners:
            fn(f)
        if not self.enabled:
            return
        for r in self.radios:
            if r is not sender:
                self._schedule(f, r)

    def _lose(self, f, r):
        if self.drop is not None:
            return self.drop(f, r)
        return self.rng.chance(self.loss)

    def _schedule(self, f, r):
        if self._lose(f, r):
            self.stats["lost"] += 1
            return
        extra = self.delay_us
        if self.rng.chance(self.reorder):
            self.stats["reordered"] += 1
            extra += 1 + self.rng.below(self.reorder_us)
        self._later(f, r, extra)
        if self.rng.chance(self.dup):
            self.stats["duplicated"] += 1
            self._later(f, r, extra + 1 + self.rng.below(self.reorder_us))

    def _later(self, f, r, extra):
        if extra:
            g = Frame(f.channel, f.rate, f.addr, f.payload, f.pid, f.noack,
                      f.dpl, f.crc)
            g.t0 = f.t0 + extra
            g.t_end = f.t_end + extra
            g.sender = f.sender
            g.token = f.token
            g.entry = f.entry
            g.copy_of = f
        else:
            g = f
        sim_clock.call_at(g.t_end, lambda: self._deliver(g, r))

    def _deliver(self, g, r):
        if g is getattr(g, "copy_of", g) and self._collided(g):
            self.stats["collisions"] += 1
            return
        ack = r.air_receive(g)
        if ack is None:
            return
        self.stats["acks"] += 1
        self._on_air(ack)
        sender = g.sender
        if sender is None or not hasattr(sender, "ack_in"):
            return
        if self._lose(ack, sender):
            self.stats["lost"] += 1
            return
        orig = getattr(g, "copy_of", g)
        sim_clock.call_at(ack.t_end + self.delay_us,
                          lambda: sender.ack_in(orig, ack))

    def inject(self, channel, addr, payload, rate=2000000, crc=2, pid=0,
               noack=False, dpl=True):
        """A third transmitter puts a packet on air now."""
        f = Frame(channel, rate, addr, payload, pid, noack, dpl, crc)
        f.t0 = sim_clock.now_us()
        f.t_end = f.t0 + air_us(len(payload), len(addr), crc, rate)
        self.stats["injected"] += 1
        self.transmit(None, f)
        return f


class UdpMedium(Medium):
    """Medium between processes: this process's radios plus peers over UDP."""

    def __init__(self, port, peers, wait_s=0.05, **knobs):
        import socket
        Medium.__init__(self, **knobs)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            self.sock.bind(("127.0.0.1", port))
        except OSError:
            self.sock.close()
            raise
        self.sock.setblocking(False)
        self.port = self.sock.getsockname()[1]
        self.peers = list(peers)
        self.wait_s = wait_s
        self._next_id = 0
        self._replies = {}      # frame id -> the peers' answers so far
        self.stats["foreign"] = 0
        sim_clock.add_hook(self._hook)

    def close(self):
        """Give the port back, and stop serving it as the clock moves."""
        sim_clock.remove_hook(self._hook)
        self.sock.close()

    def install_hook(self):
        """Again after a sim_clock.reset() (which forgets hooks)."""
        sim_clock.add_hook(self._hook)

    def _hook(self, now):
        self.pump()

    def transmit(self, sender, f):
        Medium.transmit(self, sender, f)
        if self.enabled and not f.is_ack:
            sim_clock.call_at(f.t_end, lambda: self._send_remote(f))

    def _send_remote(self, f):
        import json
        import time
        self._next_id += 1
        fid = "%d:%d" % (self.port, self._next_id)
        msg = json.dumps({"k": "f", "id": fid, "ch": f.channel, "rate": f.rate,
                          "addr": f.addr.hex(), "p": f.payload.hex(),
                          "pid": f.pid, "noack": f.noack, "dpl": f.dpl,
                          "crc": f.crc, "air": f.t_end - f.t0}).encode()
        targets = []
        for port in self.peers:
            if self.rng.chance(self.loss):
                self.stats["lost"] += 1
                continue
            self.sock.sendto(msg, ("127.0.0.1", port))
            targets.append(port)
        if not targets:
            return
        answers = self._replies[fid] = []   # every peer answers: ACK or None
        deadline = time.monotonic() + self.wait_s
        got = 0
        acked = False
        while got < len(targets) and time.monotonic() < deadline:
            self.pump(0.002)
            while got < len(answers):
                ack = answers[got]
                got += 1
                if ack is not None and not acked and f.sender is not None:
                    acked = True        # the first ACK: the sender takes one
                    self._remote_ack(f, ack)
        del self._replies[fid]

    def _remote_ack(self, f, payload):
        if self.rng.chance(self.loss):
            self.stats["lost"] += 1
            return
        ack = Frame(f.channel, f.rate, f.addr, payload, f.pid, True, f.dpl,
                    f.crc, True)
        ack.t0 = f.t_end + T_SETTLE
        ack.t_end = ack.t0 + air_us(len(payload), len(f.addr), f.crc, f.rate)
        self.stats["acks"] += 1
        sender = f.sender
        sim_clock.call_at(ack.t_end, lambda: sender.ack_in(f, ack))

    def pump(self, timeout=0.0):
        """Serve datagrams waiting on our port (frames in, replies back).
        Anything else sent to the port (another program, a damaged or
        stale datagram, an answer nobody waits for) is dropped."""
        import select
        first = True
        while True:
            r, _, _ = select.select([self.sock], [], [], timeout if first else 0)
            first = False
            if not r:
                return
            try:
                data, src = self.sock.recvfrom(4096)
            except OSError:
                continue
            msg = _peer_message(data)
            if msg is None:
                self.stats["foreign"] += 1
            elif msg[0] == "a":
                answers = self._replies.get(msg[1])
                if answers is not None:
                    answers.append(msg[2])
            else:
                self._serve(msg[1], src)

    def _serve(self, msg, src):
        import json
        now = sim_clock.now_us()
        f = Frame(msg["ch"], msg["rate"], msg["addr"], msg["p"], msg["pid"],
                  msg["noack"], msg["dpl"], msg["crc"])
        f.t0 = now - msg["air"]
        f.t_end = now
        ack_payload = None
        for fn in self.listeners:
            fn(f)
        for r in self.radios:
            ack = r.air_receive(f)
            if ack is not None and ack_payload is None:
                ack_payload = ack.payload.hex()
        self.sock.sendto(json.dumps({"k": "a", "id": msg["id"],
                                     "ack": ack_payload}).encode(), src)


def _int_in(v, lo, hi):
    return type(v) is int and lo <= v <= hi


def _peer_message(data):
    """A peer simulator's datagram: ("f", frame fields with bytes) for a
    frame, ("a", id, ACK payload bytes or None) for an answer; None for
    anything that is not one, or a frame no NRF24L01 could put on air."""
    import json
    try:
        msg = json.loads(data.decode())
        if not isinstance(msg, dict) or not isinstance(msg.get("id"), str):
            return None
        if msg.get("k") == "a":
            ack = msg["ack"]
            if ack is not None:
                ack = bytes.fromhex(ack)
                if len(ack) > 32:
                    return None
            return ("a", msg["id"], ack)
        if msg.get("k") != "f":
            return None
        msg["addr"] = bytes.fromhex(msg["addr"])
        msg["p"] = bytes.fromhex(msg["p"])
    except (KeyError, TypeError, ValueError, RecursionError):
        return None     # RecursionError: JSON nested past the parser's depth
    if not (_int_in(msg.get("ch"), 0, 127)
            and msg.get("rate") in (250000, 1000000, 2000000)
            and 3 <= len(msg["addr"]) <= 5 and len(msg["p"]) <= 32
            and _int_in(msg.get("pid"), 0, 3)
            and _int_in(msg.get("crc"), 0, 2)
            and _int_in(msg.get("air"), 0, 100000)
            and isinstance(msg.get("noack"), bool)
            and isinstance(msg.get("dpl"), bool)):
        return None
    return ("f", msg)
