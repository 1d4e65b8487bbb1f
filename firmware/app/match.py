"""A Gomoku match between two handhelds over the NRF24L01 radio.

API for the app (everything is non-blocking; call poll() every loop):

    import match
    m = match.Match(radio, host=True, rule=gomoku.FREESTYLE, host_colour=1)
    m = match.Match(radio, host=False)          # join: rule/colours from host
    m = match.Match.restore(radio, blob)        # after a reset (see snapshot)

    ev = m.poll(time.ticks_ms())   # None or one of the EV_* events below
    m.send_move(x, y)      # True if played locally (and queued to the peer);
                           # False if not ours to play now (not paired, not
                           # our turn, resyncing, game over); ValueError from
                           # gomoku for an illegal move (nothing changes)
    m.rematch()            # ask for / accept a rematch (colours swap)
    m.close()              # say goodbye, radio powered down

    m.state      # link state for the screen: WAITING, PAIRED, LOST, RESYNCING
    m.code       # "4821": short pairing code both screens show (None before)
    m.game       # the gomoku.Game both devices keep identical (read only:
                 # draw it; never play() on it directly)
    m.my_colour  # 1 black, 2 white (0 before pairing)
    m.my_turn()  # True when send_move() would be accepted
    m.last_peer_move   # (x, y) of the opponent's last move, or None
    m.rematch_wanted, m.peer_rematch   # who asked for a rematch
    m.snapshot() # bytes to save with the game after every event/move;
                 # Match.restore(radio, blob) resumes (ValueError if corrupt)
    m.stats      # counters: dict name -> int (retransmits, foreign, ...)

Events from poll():
    EV_PAIRED        pairing done: show m.code, the rule and m.my_colour
    EV_MOVE          the opponent's move was applied (m.last_peer_move)
    EV_SYNCED        the board was repaired by a resync: redraw it all
    EV_LOST          nothing heard from the peer for a while (m.state LOST)
    EV_BACK          the peer is heard again
    EV_REMATCH_ASKED the peer wants a rematch (call m.rematch() to accept)
    EV_NEW_GAME      both agreed: a fresh m.game, colours swapped
    EV_PEER_LEFT     the peer closed the match
The end of a game is m.game.winner != 0; both devices hold the same move
list, so they agree on it.

Protocol (packets in link.py): the host picks a random session id; the
joiner calls for hosts on a pairing address, the host offers (session, rule,
colours), the joiner confirms reliably. Both then listen on addresses made
from the session id. Moves are numbered by move count and applied only when
the number is the next one: a duplicate is acknowledged again, never applied
twice. Every STATUS (count, hash of the move list, game number) lets the
device behind fetch the moves it misses; if the lists disagree the host's
list wins and it is counted. A restored device stays RESYNCING (no local
moves) until it has heard the peer's status.
"""
