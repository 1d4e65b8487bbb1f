"""A Gomoku match between two handhelds over the NRF24L01 radio.

API for the app (everything is non-blocking; call poll() every loop):

    import match
    m = match.Match(radio, host=True, rule=gomoku.FREESTYLE, host_colour=1)
    m = match.Match(radio, host=False)          # join: rule/colours from host
    m = match.Match.restore(radio, blob)        # after a reset (see snapshot)

    ev = m.poll(time.ticks_ms())   # None or one of the EV_* events below
    m.send_move(x, y)      # True if played locally (and queued to the peer);
                           # False if not ours to play now (not paired, not
                           # our turn, resyncing, peer lost before a restored
                           # board was synced, game over); ValueError from
                           # gomoku for an illegal move (nothing changes)
    m.rematch()            # ask for / accept a rematch (colours swap)
    m.close()              # say goodbye, radio powered down

    m.state      # link state, a string to show: WAITING "waiting",
                 # PAIRED "paired", LOST "peer lost", RESYNCING "resyncing",
                 # CLOSED "closed"
    m.code       # "4821": short pairing code both screens show (None before)
    m.rule, m.game_no  # the host's rule; 0, 1, ... one per (re)match game
    m.game       # the gomoku.Game both devices keep identical (read only:
                 # draw it; never play() on it directly); a new object after
                 # EV_NEW_GAME and after a resync that starts over
    m.my_colour  # 1 black, 2 white (0 before pairing)
    m.my_turn()  # True when send_move() would be accepted
    m.last_peer_move   # (x, y) of the opponent's last move, or None
    m.rematch_wanted, m.peer_rematch   # who asked for a rematch
    m.snapshot(won)  # bytes (< 250) to save after pairing, after every
                 # move (own or peer's) and after EV_SYNCED / EV_NEW_GAME,
                 # with the screen's tally (won[1] mine, won[2] the peer's);
                 # Match.restore(radio, blob) resumes (ValueError if
                 # corrupt), saved_won(blob) gives the tally back
    m.saved_key()  # (game_no, count, hash of the moves): changes exactly
                 # when snapshot() would (session, rule, colours are fixed
                 # once paired; the tally changes with a new game): save
                 # only when it differs from the last
    m.stats      # counters, name -> int: sent, radio_fail, retransmits,
                 # received, foreign, malformed, illegal, out_of_turn,
                 # duplicates, conflicts, moves_applied, moves_synced,
                 # resyncs, divergences, acks_sent

Events from poll():
    EV_PAIRED        pairing done: show m.code, the rule and m.my_colour
    EV_MOVE          the opponent's move was applied (m.last_peer_move)
    EV_SYNCED        the board was repaired by a resync: redraw it all
    EV_LOST          nothing heard from the peer for a while (m.state LOST)
    EV_BACK          the peer is heard again
    EV_REMATCH_ASKED the peer wants a rematch (call m.rematch() to accept)
    EV_NEW_GAME      both agreed: a fresh m.game, colours swapped
    EV_PEER_LEFT     the peer closed the match
An event already waiting is not queued twice (it moves to the end): the
app reads the match's state (m.moves, m.game) after an event, not one
change per event.
The end of a game is m.game.winner != 0; both devices hold the same move
list, so they agree on it.

Protocol (packets in link.py): the host picks a random session id; the
joiner calls for hosts on a pairing address, the host offers (session, rule,
colours), the joiner confirms reliably (JOIN) and is paired only by the
host's ACK naming its nonce: with two pairs in a room, a joiner that took
the offer of a host another joiner won gives it up after a while and calls
again, and so does one that never heard the ACK: the host offers again to
the joiner it took until it hears it paired; a joiner taken but not heard
from for 6 s in the first game (reset, or its player left) is given up, and
the game offered to whoever calls next. Both then listen on addresses
made from the session id. Moves are
numbered by move count and applied only when the number is the next one: a
duplicate is acknowledged again, never applied twice. Every STATUS (count,
hash of the move list, game number) lets the device behind fetch the moves
it misses; if the lists disagree the host's list wins and it is counted.
A restored device stays RESYNCING (no local moves) until its list has
matched the peer's; if the peer is lost before that, it waits too.
A repair takes moves back only to replace them with the host's, all of
which the board accepts. A rematch, or a STATUS of the next game, counts
only once this game is over; a restored device not yet in sync follows a
STATUS of any later game (its save was older than the rematch).
Packets of another session, of our own role, malformed, illegal or out of
turn are dropped and counted.
"""
import time
from micropython import const

import gomoku
import link as L

WAITING = "waiting"
PAIRED = "paired"
LOST = "peer lost"
RESYNCING = "resyncing"
CLOSED = "closed"

EV_PAIRED = 1
EV_MOVE = 2
EV_SYNCED = 3
EV_LOST = 4
EV_BACK = 5
EV_REMATCH_ASKED = 6
EV_NEW_GAME = 7
EV_PEER_LEFT = 8

_HELLO_MS = const(100)
_STATUS_MS = const(300)
_RESYNC_STATUS_MS = const(80)
_LOST_MS = const(1500)
_JOIN_GIVEUP_MS = const(3000)
_UNHEARD_MS = const(6000)   # host: the joiner taken, silent since its JOIN
_REPLY_MS = const(25)       # at most one status reply this often
_SNAP_MAGIC = b"GMM3"       # GMM2 (before the games won were kept) and GMM1
                            # (before the joiner's nonce was) read too
_SNAP_MOVES = const(13)     # where a snapshot's moves start (check_snapshot)
_N = const(15)              # the board's side
_POINTS = const(225)
_S_RESYNC = const(2)        # STATUS flags bit 1: the sender is resyncing


def _seed():
    s = time.ticks_diff(time.ticks_us(), 0)
    try:
        import machine
        for b in machine.unique_id():
            s = (s * 31 + b) & 0xFFFFFFFF
    except (ImportError, AttributeError):
        pass
    try:
        import random
        s ^= random.getrandbits(30)
    except (ImportError, AttributeError):
        pass
    return s


def check_snapshot(b):
    """Raise ValueError unless b is a whole snapshot() (magic, length, CRC)
    whose fields are ones a match writes. Whether its moves replay only
    restore() can tell. The layout: magic(4) host session(4) rule
    host_colour game count moves(count) joiner's nonce(4, GMM2 on) games
    won: mine, the peer's (2, GMM3) CRC(2)."""
    if len(b) < _SNAP_MOVES + 2 or b[:4] not in (_SNAP_MAGIC, b"GMM2", b"GMM1"):
        raise ValueError("not a match save")
    n = len(b) - 2
    if L.crc16(b, n) != (b[n] << 8) | b[n + 1] or \
            b[12] != n - _SNAP_MOVES - _nonce_len(b) - _won_len(b):
        raise ValueError("match save is corrupt")
    if b[4] > 1 or not (b[5] | b[6] | b[7] | b[8]) or \
            b[9] not in (gomoku.FREESTYLE, gomoku.STANDARD, gomoku.RENJU) or \
            not 1 <= b[10] <= 2:
        raise ValueError("match save is foreign")
    for i in range(_SNAP_MOVES, _SNAP_MOVES + b[12]):
        if b[i] >= _POINTS:
            raise ValueError("match save is corrupt")


def _nonce_len(b):
    # GMM2 on keeps the joiner's nonce (the host's; 0 on the joiner) after
    # the moves: a host restored before its joiner heard it pair can take
    # that joiner's JOIN again
    return 0 if b[:4] == b"GMM1" else 4


def _won_len(b):
    return 2 if b[:4] == _SNAP_MAGIC else 0


def saved_won(b):
    """The tally a check_snapshot()ed save holds: (games I won, the peer's)
    since pairing; (0, 0) from a save before GMM3."""
    n = len(b) - 4
    return (b[n], b[n + 1]) if _won_len(b) else (0, 0)


class Match:
    def __init__(self, radio, host=True, rule=gomoku.FREESTYLE, host_colour=1,
                 seed=None, now_ms=None, _restore=None):
        if type(rule) is not int or rule not in (gomoku.FREESTYLE, gomoku.STANDARD,
                                                 gomoku.RENJU):
            raise ValueError("unknown rule %r" % (rule,))   # 4.0 too: it is saved as a byte
        if type(host_colour) is not int or host_colour not in (1, 2):
            raise ValueError("host_colour must be 1 (black) or 2 (white)")
        self.link = L.Link(radio, _seed() if seed is None else seed)
        self.stats = self.link.stats
        for k in ("moves_applied", "moves_synced", "illegal", "out_of_turn",
                  "duplicates", "conflicts", "resyncs", "divergences",
                  "acks_sent"):
            self.stats[k] = 0
        now = time.ticks_ms() if now_ms is None else now_ms
        self.host = host
        self.rule = rule
        self.host_colour = host_colour
        self.game_no = 0
        self.moves = bytearray(_POINTS)
        self.count = 0
        self._hash = 0xFFFF
        self.game = gomoku.Game(rule)
        self.code = None
        self.my_colour = 0
        self.session = 0
        self.peer_nonce = None
        self.last_peer_move = None
        self.rematch_wanted = False
        self.peer_rematch = False
        self.events = []
        self.state = WAITING
        self._synced = False    # our list matched the peer's since restore
        self._offering = False  # host: pairing pipe kept for the joiner taken
        self._heard = now
        self._status_due = now
        self._hello_due = now
        self._join_at = now
        self._reply_at = time.ticks_add(now, -_REPLY_MS)
        self._t = now
        self._status = bytearray(3)     # payloads sent in the steady loop,
        self._ack1 = bytearray(1)       # filled in place: a tuple each
                                        # would be garbage every 300 ms
        self.nonce = self.link.rand.next() or 1
        self._nonce4 = bytes(self._u32(self.nonce))     # HELLO's, every 120 ms
        ln = self.link
        if _restore is not None:
            return
        if host:
            self._set_session(self.link.rand.next() | 1)
            ln.listen_on(L.host_address(self.session), pair=True)
        else:
            ln.dest = L.address(L.PAIR_LSB)
            ln.listen_on(L.nonce_address(self.nonce))

    # ---- the app's side ---------------------------------------------------

    def my_turn(self):
        # LOST only with a list that was in sync: a restored one may lack
        # our own last move, which the peer holds (a different move played
        # now would be thrown away when the host's list wins)
        return ((self.state == PAIRED or self.state == LOST and self._synced)
                and self.game.winner == 0
                and self.game.turn == self.my_colour)

    def send_move(self, x, y):
        if not self.my_turn():
            return False
        idx = self.count
        hb = self._hash
        self.game.play(x, y)
        self._record(y * _N + x)
        now = self._now()
        self.link.reliable(L.MOVE, self.game_no, idx,
                           (x, y, hb >> 8, hb & 0xFF), now)
        self.link.service(now)     # on air at once
        return True

    def rematch(self):
        if self.state == CLOSED or not self.game.winner or self.rematch_wanted:
            return False
        self.rematch_wanted = True
        self.link.reliable(L.REMATCH, self.game_no + 1, self.count, (),
                           self._now())
        if self.peer_rematch:
            self._new_game(self.game_no + 1)
        return True

    def close(self):
        if self.state != CLOSED and self.session and self.code:
            for _ in range(3):
                if self.link.send(L.BYE, self.game_no, self.count):
                    break
        self.state = CLOSED
        self.link.radio.power_down()

    def poll(self, now_ms):
        if self.state == CLOSED:
            return self._pop()
        self._t = now_ms
        ln = self.link
        for _ in range(6):
            n = ln.receive()
            if not n:
                break
            self._handle(n, now_ms)
        if self.state == CLOSED:
            return self._pop()
        td = time.ticks_diff
        if self.code is None:
            if not self.host:
                if self.session and td(now_ms, self._join_at) > _JOIN_GIVEUP_MS:
                    self._forget_offer()
                if not self.session and td(now_ms, self._hello_due) >= 0:
                    self._hello_due = time.ticks_add(
                        now_ms, _HELLO_MS + ln.rand.next() % 40)
                    ln.send(L.HELLO, 0, 0, self._nonce4, session=0)
        else:
            st = self.state     # not `in (PAIRED, ...)`: a tuple a poll
            if (st == PAIRED or st == RESYNCING) and \
                    td(now_ms, self._heard) > _LOST_MS:
                self.state = LOST
                self._event(EV_LOST)
            if self._offering and self.peer_nonce is not None and \
                    not self.game_no and td(now_ms, self._heard) > _UNHEARD_MS:
                # the joiner taken was never heard in, and has long given
                # the offer up or gone (reset, or its player pressed B):
                # the first game is offered to whoever calls
                self.peer_nonce = None
            if td(now_ms, self._status_due) >= 0:
                self._send_status(now_ms)
        self._prune()
        ln.service(now_ms)
        return self._pop()

    def snapshot(self, won=(0, 0, 0)):
        if not self.code:
            raise ValueError("no match to save before pairing")
        s = self.session
        b = bytearray(_SNAP_MAGIC)
        b.extend(bytes((1 if self.host else 0, (s >> 24) & 0xFF,
                        (s >> 16) & 0xFF, (s >> 8) & 0xFF, s & 0xFF,
                        self.rule, self.host_colour, self.game_no, self.count)))
        b.extend(self.moves[:self.count])
        b.extend(bytes(self._u32(self.peer_nonce or 0)))
        b.append(won[1])
        b.append(won[2])
        c = L.crc16(b, len(b))
        b.extend(bytes((c >> 8, c & 0xFF)))
        return bytes(b)

    def saved_key(self):
        return (self.game_no, self.count, self._hash)

    @classmethod
    def restore(cls, radio, blob, seed=None, now_ms=None):
        b = bytes(blob)
        check_snapshot(b)
        m = cls(radio, bool(b[4]), b[9], b[10], seed, now_ms, _restore=True)
        m._set_session((b[5] << 24) | (b[6] << 16) | (b[7] << 8) | b[8])
        m.game_no = b[11]
        for i in range(b[12]):
            mv = b[_SNAP_MOVES + i]
            m.game.play(mv % _N, mv // _N)
            m._record(mv)
        if m.host and _nonce_len(b):
            # offer again, to that joiner only, until it is heard in: it
            # may have given the offer up while this host was off
            m.peer_nonce = m._nonce_at(b, _SNAP_MOVES + b[12]) or None
            m._offering = m.peer_nonce is not None
        m._paired(RESYNCING)
        m._find_peer_move()
        m.events = []
        return m

    # ---- state ------------------------------------------------------------

    def _now(self):
        return self._t

    def _pop(self):
        return self.events.pop(0) if self.events else None

    def _event(self, ev):
        # an event already waiting moves to the end instead of queueing
        # twice: the list stays as short as the kinds of event however many
        # packets come between two polls, and its order is that of the
        # latest changes (LOST, BACK, LOST reads BACK, LOST)
        if ev in self.events:
            self.events.remove(ev)
        self.events.append(ev)

    @staticmethod
    def _nonce_at(b, p):
        return (b[p] << 24) | (b[p + 1] << 16) | (b[p + 2] << 8) | b[p + 3]

    @staticmethod
    def _u32(v):
        return ((v >> 24) & 0xFF, (v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF)

    def _set_session(self, s):
        self.session = s & 0xFFFFFFFF
        self.link.session = self.session
        self.link.host = self.host

    def _colour(self):
        c = self.host_colour if self.game_no % 2 == 0 else 3 - self.host_colour
        return c if self.host else 3 - c

    def _paired(self, state=PAIRED):
        self.code = "%04d" % (self.session % 10000)
        self.my_colour = self._colour()
        ln = self.link
        if self.host:
            ln.dest = L.joiner_address(self.session)
            ln.listen_on(L.host_address(self.session), pair=self._offering)
        else:
            ln.dest = L.host_address(self.session)
            ln.listen_on(L.joiner_address(self.session))
        self.state = state
        self._synced = state == PAIRED
        self._event(EV_PAIRED)

    def _forget_offer(self):
        self.link.drop(L.JOIN)
        self._set_session(0)
        self.link.dest = L.address(L.PAIR_LSB)
        self.link.listen_on(L.nonce_address(self.nonce))

    def _record(self, mv):
        self.moves[self.count] = mv
        self.count += 1
        self._hash = L.crc16(self.moves, self.count, self._hash, self.count - 1)

    def _find_peer_move(self):
        i = self.count - 1
        if i >= 0 and (1 if i % 2 == 0 else 2) == self.my_colour:
            i -= 1
        mv = self.moves[i] if i >= 0 else -1
        self.last_peer_move = None if mv < 0 else (mv % _N, mv // _N)

    def hash_at(self, k):
        return L.crc16(self.moves, k)

    def _truncate(self, k):
        while self.count > k:
            self.game.undo()
            self.count -= 1
        self._hash = self.hash_at(k)
        self._find_peer_move()

    def _new_game(self, g):
        self.game_no = g & 0xFF
        self.game = gomoku.Game(self.rule)
        self.count = 0
        self._hash = 0xFFFF
        self.rematch_wanted = False
        self.peer_rematch = False
        self.last_peer_move = None
        self.my_colour = self._colour()
        self.link.drop(L.MOVE)
        self._event(EV_NEW_GAME)

    def _prune(self):
        """Forget queued moves the lists no longer hold (after a repair)."""
        q = self.link.queue
        for e in q:
            if e[1] == L.MOVE:
                idx = e[3]
                p = e[4]
                if e[2] != self.game_no or idx >= self.count or \
                        self.moves[idx] != p[1] * _N + p[0]:
                    q.remove(e)
                    return

    def _send_status(self, now):
        flags = (1 if self.rematch_wanted else 0) | (
            _S_RESYNC if self.state == RESYNCING else 0)
        h = self._hash
        pl = self._status
        pl[0] = h >> 8
        pl[1] = h & 0xFF
        pl[2] = flags
        self.link.send(L.STATUS, self.game_no, self.count, pl)
        self._reply_at = now
        iv = _RESYNC_STATUS_MS if self.state == RESYNCING else _STATUS_MS
        self._status_due = time.ticks_add(now, iv + self.link.rand.next() % 50)

    def _reply_status(self, now):
        if time.ticks_diff(now, self._reply_at) >= _REPLY_MS:
            self._send_status(now)

    def _ack(self, seq, typ, nonce=None):
        # an ACK names the type it acknowledges; a JOIN's, the joiner's nonce
        self.stats["acks_sent"] += 1
        if nonce is None:
            pl = self._ack1
            pl[0] = typ
        else:                           # pairing only
            pl = (typ,) + self._u32(nonce)
        self.link.send(L.ACK, self.game_no, self.count, pl, seq=seq)

    # ---- packets ----------------------------------------------------------

    def _handle(self, n, now):
        b = self.link.rxb
        typ = b[1]
        flags = b[2]
        s = L.session_of(b)
        game = b[7]
        seq = (b[8] << 8) | b[9]
        count = b[10]
        plen = n - 2 - L.HEADER
        p = L.HEADER
        st = self.stats
        if typ == L.HELLO:
            # the host offers while unpaired, and again to the joiner it
            # took while that one has not been heard paired: it gives up
            # an offer whose ACK it never heard, and calls again
            if self.host and plen == 4 and s == 0 and (
                    self.code is None or self._offering and (
                        self.peer_nonce is None or
                        self._nonce_at(b, p) == self.peer_nonce)):
                self.link.send(L.OFFER, 0, 0, (b[p], b[p + 1], b[p + 2],
                               b[p + 3], self.rule, self.host_colour),
                               dest=L.nonce_address(self._nonce_at(b, p)))
            else:
                st["foreign"] += 1
            return
        if typ == L.OFFER:
            nonce = self._nonce_at(b, p) if plen == 6 else -1
            if self.host or self.code is not None or self.session or \
                    nonce != self.nonce or not flags & L.F_HOST or not s:
                st["foreign"] += 1
                return
            rule, hc = b[p + 4], b[p + 5]
            if rule not in (gomoku.FREESTYLE, gomoku.STANDARD, gomoku.RENJU) \
                    or hc not in (1, 2):
                st["malformed"] += 1
                return
            self.rule = rule
            self.host_colour = hc
            self.game = gomoku.Game(rule)
            self._set_session(s)
            self.link.dest = L.host_address(s)
            self.link.listen_on(L.joiner_address(s))
            self._join_at = now
            self.link.reliable(L.JOIN, 0, 0, self._nonce4, now)
            return
        if not self.session or s != self.session or \
                bool(flags & L.F_HOST) == self.host:
            st["foreign"] += 1
            return
        if self._offering and typ != L.JOIN:
            self._offering = False          # the joiner is in: no more offers
            self.link.listen_on(L.host_address(self.session))
        if typ == L.JOIN:
            if not self.host or plen != 4:
                st["malformed"] += 1
                return
            nonce = self._nonce_at(b, p)
            if self.code is None:
                self.peer_nonce = nonce
                self._offering = True
                self._paired()
            elif self.peer_nonce is None and self._offering:
                self.peer_nonce = nonce     # in place of one never heard
            elif nonce != self.peer_nonce:
                st["foreign"] += 1
                return
            self._heard_now(now)
            self._ack(seq, L.JOIN, nonce)     # names the joiner it took
            return
        if self.code is None:
            # Only the host's ACK of our own JOIN (it names our nonce) pairs
            # us: a joiner that lost the race for this host's offer listens
            # on the same session address and hears its packets too.
            if self.host or typ != L.ACK or plen != 5 or b[p] != L.JOIN or \
                    self._nonce_at(b, p + 1) != self.nonce:
                st["foreign"] += 1
                return
            self.link.drop(L.JOIN)      # the host took us: we are in
            self._paired()
        self._heard_now(now)
        if typ == L.ACK:
            if plen == 1 or plen == 5 and b[p] == L.JOIN:
                self.link.acked(seq)
            else:
                st["malformed"] += 1
        elif typ == L.MOVE:
            self._on_move(game, seq, count, b, p, plen, now)
        elif typ == L.STATUS:
            self._on_status(game, count, b, p, plen, now)
        elif typ == L.HIST:
            self._on_hist(game, flags, count, b, p, plen, now)
        elif typ == L.REMATCH:
            self._on_rematch(game, seq)
        elif typ == L.BYE:
            # not acknowledged: the sender powered its radio down after it
            self.state = CLOSED
            self._event(EV_PEER_LEFT)
            self.link.radio.power_down()

    def _heard_now(self, now):
        self._heard = now
        if self.state == LOST:
            self.state = RESYNCING
            self._event(EV_BACK)
            self._status_due = now

    def _on_move(self, game, seq, idx, b, p, plen, now):
        st = self.stats
        if plen != 4 or b[p] >= _N or b[p + 1] >= _N:
            st["malformed"] += 1
            return
        x, y = b[p], b[p + 1]
        if game != self.game_no:
            if (game - self.game_no) & 0xFF > 128:
                self._ack(seq, L.MOVE)      # an old game's move, long done
            else:
                self._reply_status(now)
            return
        if idx < self.count:
            if self.moves[idx] == y * _N + x:
                st["duplicates"] += 1
                self._ack(seq, L.MOVE)
            else:
                st["conflicts"] += 1
                self._reply_status(now)
            return
        if idx > self.count or (b[p + 2] << 8 | b[p + 3]) != self._hash:
            self._reply_status(now)         # we miss moves: ask for them
            return
        if (1 if idx % 2 == 0 else 2) == self.my_colour:
            st["out_of_turn"] += 1
            return
        try:
            self.game.play(x, y)
        except ValueError:
            st["illegal"] += 1
            return
        self._record(y * _N + x)
        st["moves_applied"] += 1
        self.last_peer_move = (x, y)
        self._event(EV_MOVE)
        self._ack(seq, L.MOVE)

    def _on_status(self, game, count, b, p, plen, now):
        if plen != 3:
            self.stats["malformed"] += 1
            return
        ph = (b[p] << 8) | b[p + 1]
        pflags = b[p + 2]
        if game != self.game_no:
            ahead = (game - self.game_no) & 0xFF
            if ahead == 1 and self.game.winner or \
                    not self._synced and ahead < 128:
                # the peer went on to the rematch both asked for (this
                # device was reset before it took, or restored a save
                # older than that); never from a game on
                self.stats["resyncs"] += 1
                self._new_game(game)
            else:
                self._reply_status(now)
                return
        if pflags & 1 and self.game.winner and not self.peer_rematch:
            self.peer_rematch = True
            if self.rematch_wanted:
                self._new_game(self.game_no + 1)
                return
            self._event(EV_REMATCH_ASKED)
        if count == self.count and ph == self._hash:
            if self.state == RESYNCING:
                self.state = PAIRED
                self._synced = True
                self._event(EV_SYNCED)
            if pflags & _S_RESYNC:
                self._reply_status(now)
            return
        if count < self.count:
            if self.hash_at(count) == ph:
                self._send_hist(count, False)
            else:
                self._diverged(now)
            return
        if count == self.count:
            self._diverged(now)
            return
        self._reply_status(now)              # the peer is ahead: it will send

    def _diverged(self, now):
        """The lists differ: the host's wins; the joiner starts over."""
        self.stats["divergences"] += 1
        if self.host:
            self._send_hist(0, True)
        else:
            self._truncate(0)
            self.state = RESYNCING
            self._synced = False
            self._event(EV_SYNCED)
            self._reply_status(now)

    def _send_hist(self, start, repair):
        end = min(self.count, start + L.MAX_PAYLOAD - 5)
        hb = self.hash_at(start)
        ha = self.hash_at(end)
        pl = bytearray((start, hb >> 8, hb & 0xFF, ha >> 8, ha & 0xFF))
        pl.extend(self.moves[start:end])
        self.link.send(L.HIST, self.game_no, self.count, pl,
                       flags=L.F_REPAIR if repair else 0)

    def _on_hist(self, game, flags, total, b, p, plen, now):
        st = self.stats
        if plen < 5 or game != self.game_no:
            if plen < 5:
                st["malformed"] += 1
            return
        start = b[p]
        hb = (b[p + 1] << 8) | b[p + 2]
        ha = (b[p + 3] << 8) | b[p + 4]
        q = p + 5
        nm = plen - 5
        end = start + nm
        if start > self.count or self.hash_at(start) != hb:
            return
        if end <= self.count and self.hash_at(end) == ha and \
                (self.count >= total or not flags & L.F_REPAIR):
            # nothing new. A repair whose moves we hold takes back the rest
            # only while we are behind the list the host had: ahead of it,
            # we would see any difference in its STATUS; and a late copy of
            # a repair must not take back moves made since.
            return
        if start < self.count and not (flags & L.F_REPAIR and not self.host):
            return                  # only the host repairs, and only a joiner
        for i in range(q, q + nm):
            if b[i] >= _POINTS:
                st["malformed"] += 1
                return
        if L.crc16(b, q + nm, hb, q) != ha:
            st["conflicts"] += 1
            return
        # Play the moves before recording them: if the board refuses one,
        # ours, still in self.moves, go back and nothing has changed.
        g = self.game
        old = self.count
        k = start
        while k < old:
            g.undo()
            k += 1
        k = 0
        try:
            while k < nm:
                mv = b[q + k]
                g.play(mv % _N, mv // _N)
                k += 1
        except ValueError:
            while k:
                g.undo()
                k -= 1
            for i in range(start, old):
                mv = self.moves[i]
                g.play(mv % _N, mv // _N)
            st["malformed"] += 1
            return
        if start < old:
            st["divergences"] += 1
        self.count = start
        self._hash = hb
        for i in range(nm):
            self._record(b[q + i])
        st["resyncs"] += 1
        st["moves_synced"] += nm
        self._find_peer_move()
        self._event(EV_SYNCED)
        self._reply_status(now)

    def _on_rematch(self, game, seq):
        self._ack(seq, L.REMATCH)
        if game != (self.game_no + 1) & 0xFF or not self.game.winner:
            # a copy of one already taken, or foreign: a game on here (the
            # peer's STATUS asks again once this device has seen the end)
            return
        if not self.peer_rematch:
            self.peer_rematch = True
            if self.rematch_wanted:
                self._new_game(game)
            else:
                self._event(EV_REMATCH_ASKED)
