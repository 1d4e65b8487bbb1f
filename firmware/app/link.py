"""Match packets over the NRF24L01 and the reliable link under match.py.

A packet (at most 32 bytes, one radio payload):
    0 version  1 type  2 flags (bit 0: sent by the host; bit 1: a HIST
                                that repairs, see F_REPAIR)
    3..6 session id (big endian)  7 game number  8..9 seq  10 move count
    11.. payload (0..19 bytes)    last 2: CRC-16/CCITT of all before it,
                                  started from a key made of the session id
The radio's own CRC guards the air; this one catches packets that are not
ours, truncated or built wrong, and ties each packet to its session. It is
no signature: a transmitter that rewrites the packets it hears can stand
between two handhelds as they pair, and the two then show different codes.
The 4-digit code on both screens is the players' check that they paired.

Link: addresses, one preallocated buffer each way, send now or reliably
(retransmitted with backoff and jitter until an ACK of its seq arrives),
receive and check. Counters in `stats`.
"""
import time
from micropython import const
from crc16 import crc16

VERSION = const(1)
HEADER = const(11)
MAX_PAYLOAD = const(19)

HELLO = const(1)    # joiner -> pairing address: payload nonce(4)
OFFER = const(2)    # host -> joiner: nonce(4) rule host_colour
JOIN = const(3)     # joiner -> host, reliable: nonce(4)
ACK = const(4)      # seq = the seq acknowledged; payload: its type
                    # (of a JOIN: JOIN, then the joiner's nonce(4))
MOVE = const(5)     # reliable: count = move index; x y hash_before(2)
STATUS = const(6)   # count; hash(2) flags(1)
HIST = const(7)     # count = the sender's move count;
                    # start(1) hash_before(2) hash_after(2) moves...
REMATCH = const(8)  # reliable: game = the new game number
BYE = const(9)      # the peer leaves: sent at once, up to 3 times (not queued)
_LAST_TYPE = const(9)

F_HOST = const(1)
F_REPAIR = const(2)     # HIST: host's list replaces the receiver's

# address byte 0 (LSB, written first) per use; bytes 1..4 are shared so the
# host can listen on its session address (pipe 1) and pairing (pipe 2)
PAIR_LSB = const(0x50)
_BASE = b"GmK1"


def session_key(s):
    return (0xFFFF ^ (s >> 16) ^ (s & 0xFFFF)) & 0xFFFF


def address(lsb):
    return bytes((lsb,)) + _BASE


def host_address(session):
    return address(0x80 | (session & 0x7E))


def joiner_address(session):
    return address(0x81 | (session & 0x7E))


def nonce_address(nonce):
    return address(0x10 + nonce % 0x30)


def _xorshift16(x):
    x ^= (x << 7) & 0xFFFF
    x ^= x >> 9
    return x ^ ((x << 8) & 0xFFFF)


class Rand:
    """Two xorshift16s for jitter and ids (seeded by the caller): 30 bits
    a call. Every value stays a small int on the 32-bit ports (31 bits,
    signed), so no call allocates; a 32-bit generator would, on most."""

    def __init__(self, seed):
        self.a = (seed & 0xFFFF) or 0x2545
        self.b = ((seed >> 16) & 0xFFFF) or 0xF491

    def next(self):
        a = self.a = _xorshift16(self.a)
        b = self.b = _xorshift16(self.b)
        return ((a & 0x7FFF) << 15) ^ b


class Link:
    RETRY_MS = 40
    RETRY_MAX_MS = 400

    def __init__(self, radio, seed=1):
        self.radio = radio
        self.rand = Rand(seed)
        self.tx = bytearray(32)
        self.rxb = bytearray(32)
        self.session = 0
        self.host = False
        self.dest = address(PAIR_LSB)
        self.seq = self.rand.next() & 0xFFFF
        self.queue = []         # reliable: [seq, type, game, count, payload, due, tries]
        self.backoff = self.RETRY_MS
        self.stats = {"sent": 0, "radio_fail": 0, "retransmits": 0,
                      "received": 0, "foreign": 0, "malformed": 0}

    # ---- addresses ------------------------------------------------------

    def listen_on(self, own, pair=False):
        r = self.radio
        r.stop_listening()
        r.open_rx_pipe(1, own)
        if pair:
            r.open_rx_pipe(2, bytes((PAIR_LSB,)))
        else:
            r.close_rx_pipe(2)
        r.start_listening()

    # ---- building and sending --------------------------------------------

    def build(self, typ, game, seq, count, payload, session=None, flags=0):
        b = self.tx
        s = self.session if session is None else session
        b[0] = VERSION
        b[1] = typ
        b[2] = flags | (F_HOST if self.host else 0)
        b[3] = (s >> 24) & 0xFF
        b[4] = (s >> 16) & 0xFF
        b[5] = (s >> 8) & 0xFF
        b[6] = s & 0xFF
        b[7] = game & 0xFF
        b[8] = (seq >> 8) & 0xFF
        b[9] = seq & 0xFF
        b[10] = count & 0xFF
        n = HEADER
        for v in payload:
            b[n] = v
            n += 1
        c = crc16(b, n, session_key(s))
        b[n] = c >> 8
        b[n + 1] = c & 0xFF
        return n + 2

    def send(self, typ, game, count, payload=(), dest=None, session=None,
             flags=0, seq=0):
        """Put one packet on air now; True if the peer's radio acked it."""
        n = self.build(typ, game, seq, count, payload, session, flags)
        return self.send_built(n, dest)

    def send_built(self, n, dest=None):
        r = self.radio
        r.open_tx_pipe(dest or self.dest)
        ok = r.send(self.tx, n)
        self.stats["sent"] += 1
        if not ok:
            self.stats["radio_fail"] += 1
        return ok

    def reliable(self, typ, game, count, payload, now):
        """Queue a packet sent until acknowledged; returns its seq."""
        self.seq = (self.seq + 1) & 0xFFFF
        self.queue.append([self.seq, typ, game, count, bytes(payload), now, 0])
        return self.seq

    def acked(self, seq):
        for e in self.queue:
            if e[0] == seq:
                self.queue.remove(e)
                self.backoff = self.RETRY_MS
                return e
        return None

    def drop(self, typ):
        self.queue = [e for e in self.queue if e[1] != typ]

    def service(self, now):
        """Send the head of the reliable queue if it is due."""
        if not self.queue:
            return
        e = self.queue[0]
        if time.ticks_diff(now, e[5]) < 0:
            return
        if e[6]:
            self.stats["retransmits"] += 1
        e[6] += 1
        ok = self.send(e[1], e[2], e[3], e[4], seq=e[0])
        wait = self.backoff + self.rand.next() % (self.backoff // 2 + 1)
        if ok:
            self.backoff = min(self.backoff * 2, self.RETRY_MAX_MS)
        e[5] = time.ticks_add(now, wait)

    # ---- receiving --------------------------------------------------------

    def receive(self):
        """Next well-formed packet into rxb (returns its length) or 0.

        Only checks the frame (version, type, length, CRC); match.py checks
        the session and the peer.
        """
        r = self.radio
        for _ in range(4):
            if not r.any():
                return 0
            n = r.recv_into(self.rxb)
            if self.check(self.rxb, n):
                self.stats["received"] += 1
                return n
            self.stats["malformed"] += 1
        return 0

    @staticmethod
    def check(b, n):
        if n < HEADER + 2 or n > 32 or b[0] != VERSION:
            return False
        if not 1 <= b[1] <= _LAST_TYPE:
            return False
        # session_key(session_of(b)), without the 32-bit int a foreign
        # session would be
        key = 0xFFFF ^ ((b[3] << 8) | b[4]) ^ ((b[5] << 8) | b[6])
        return crc16(b, n - 2, key) == (b[n - 2] << 8) | b[n - 1]


def session_of(b):
    return (b[3] << 24) | (b[4] << 16) | (b[5] << 8) | b[6]
