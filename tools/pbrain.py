"""A Gomocup (piskvork) protocol brain on stdin/stdout, playing the engine.

    python tools/pbrain.py --level 1

Commands (one a line, case-insensitive; x = column, y = row, 0-based):
  START 15            new game on a 15x15 board (other sizes: ERROR)
  RECTSTART 15,15     the same (other sizes: ERROR)
  RESTART             new game, same settings
  INFO key value      rule (0 freestyle, 1 exactly five, 4 renju; bitmask:
                      2 continuous, 8 caro are ERRORs), timeout_turn, timeout_match,
                      time_left, max_memory, game_type, evaluate, folder...
  BEGIN               the brain plays the first move
  TURN x,y            the opponent played x,y; the brain answers its move
  BOARD               then lines x,y,who (1 own, 2 opponent; 3, a continuous
  ...                 game's field, is an ERROR), then DONE: a whole
  DONE                position; the brain answers its move. Under renju
                      the stones are played in the order given; under
                      freestyle and exactly five they are a set, in any
                      order (a five already on the board is an ERROR)
  TAKEBACK x,y        take back the last move (x,y); answers OK
  PLAY x,y            the brain must play x,y (answers x,y); ERROR when it
                      is the opponent's turn, as TURN is when it is the brain's
  ABOUT               name="...", version="...", author="...", country="..."
  SWAP2BOARD ... DONE not played: read through DONE, answered UNKNOWN
  END                 exit
Answers: a move `x,y`, `OK`, or `ERROR <reason>` / `UNKNOWN <command>` for
malformed or unknown input, after which the brain keeps running and its
game is unchanged; a BOARD block is read through DONE before it is
answered, even with no game. A TURN that ends the game (a five, or the
board full) is kept, as the manager keeps it, and answered
`ERROR the game is over (...)`, as every TURN, BEGIN and PLAY is after it
until a TAKEBACK of that move, RESTART, START or BOARD. INFO is never
answered (the manager does not read it): a bad rule (INFO rule 8), a rule
change the game so far does not fit (a six of exactly five's game would
win under freestyle: the rule stays until the next START or RESTART,
whose game it rules) or an INFO with no key is one ERROR
at the next BEGIN, TURN or BOARD, in place of its move. The brain plays
by its level's fixed limits: the time and memory keys are not used, and
their values are not checked. Every line
is flushed. The line handling and input checks (x,y, START sizes, INFO,
BOARD lines) are tools/brainloop.py's, the reference brains' loop.
"""
import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_ENGINE = str(ROOT / "firmware" / "engine")
if _ENGINE not in sys.path:
    sys.path.insert(0, _ENGINE)

import ai  # noqa: E402
import gomoku  # noqa: E402

_TOOLS = str(ROOT / "tools")
if _TOOLS not in sys.path:
    sys.path.insert(0, _TOOLS)

from brainloop import (  # noqa: E402
    SIZE, CommandLoop, ProtocolError, board_stones, parse_info, parse_xy,
    protocol_stdin, protocol_stdout, rule_from_info)

ABOUT = ('name="handheld-gomoku", version="1.0", author="Handheld Gomoku project", '
         'country="Internet", www="", email=""')


def engine_levels():
    """The levels ai.best_move plays here: the device's (ai.LEVELS) and the
    PC-only deep search's (deepsearch.levels())."""
    import deepsearch
    return tuple(ai.LEVELS) + tuple(deepsearch.levels())


def result(g, move):
    """How the finished game `g` ended with its last move `move` (x, y)."""
    if g.winner == 3:
        return "a draw: no point left to play after %d,%d" % move
    return "won by %s with %d,%d" % ((("black", "white")[g.winner - 1],) + tuple(move))


LINES = ((1, 0), (0, 1), (1, 1), (1, -1))   # a point's four lines, one way along each
ORDER_STEPS = 20000     # stones tried, at most, for play_order


def _beyond(points, x, y, dx, dy):
    """How many of `points` follow x,y in a row, stepping dx,dy."""
    n = 0
    while (x + (n + 1) * dx, y + (n + 1) * dy) in points:
        n += 1
    return n


def find_five(points, exact):
    """A five among `points` (one colour's stones, a set of (x, y)): its
    first stone, step and length (x, y, dx, dy, n); a row of exactly five
    if `exact` (the exactly-five rule), of five or more if not. Else None."""
    for x, y in sorted(points):
        for dx, dy in LINES:
            if (x - dx, y - dy) not in points:          # the row starts here
                n = 1 + _beyond(points, x, y, dx, dy)
                if n == 5 or n > 5 and not exact:
                    return x, y, dx, dy, n
    return None


def plays_in_order(stones):
    """True if one colour's `stones`, played in the order given, never make a
    row of exactly five on the way (the exactly-five rule)."""
    have = set()
    for x, y in stones:
        have.add((x, y))
        for dx, dy in LINES:
            if _beyond(have, x, y, dx, dy) + _beyond(have, x, y, -dx, -dy) == 4:
                return False
    return True


def play_order(stones, steps=ORDER_STEPS):
    """One colour's `stones` (a list of (x, y), with no row of exactly five)
    in an order to play them under exactly five where no move makes a five:
    a six is a six only once all its stones are down, not a five first.
    None if there is no such order (or none is found in `steps` stones
    tried). A stone in no overline (six or more in a row) never makes a
    five, now or later: those come first, as given. The rest are ordered
    from the last back: the last can be any stone whose removal leaves no
    row of exactly five beside it on any line, the one before it any such
    stone of those left, and so on, backtracking from a dead end."""
    points = set(stones)
    over = [p for p in stones if any(
        _beyond(points, p[0], p[1], dx, dy) + _beyond(points, p[0], p[1], -dx, -dy) > 4
        for dx, dy in LINES)]
    failed = set()
    left = [steps]

    def last_first(have):
        # the stones of `have` (a frozenset) in reverse play order, or None
        if not have:
            return []
        if have not in failed:
            for p in over:
                if p not in have or left[0] <= 0:
                    continue
                left[0] -= 1
                if all(_beyond(have, p[0], p[1], dx * e, dy * e) != 5
                       for dx, dy in LINES for e in (1, -1)):
                    tail = last_first(have - {p})
                    if tail is not None:
                        return [p] + tail
            failed.add(have)
        return None

    tail = last_first(frozenset(over))
    if tail is None:
        return None
    over = set(over)
    return [p for p in stones if p not in over] + tail[::-1]


class Brain(CommandLoop):
    """Protocol state; `handle(line)` returns the lines to answer."""

    def __init__(self, level=1):
        super().__init__()
        self.level = level
        self.rule = gomoku.FREESTYLE
        self.game = None        # gomoku.Game once STARTed
        self.moves = []         # (x, y) in play order, for rebuilding
        self.own = None         # the brain's colour (1 black, 2 white) once it moved
        self.next_rule = None   # an INFO rule the game refused: the next game's

    # -- game state ----------------------------------------------------
    def _new_game(self, moves=(), rule=None):
        """A Game with `moves` replayed; ProtocolError if one is illegal."""
        g = gomoku.Game(rule=self.rule if rule is None else rule)
        last = None
        for x, y in moves:
            if g.winner:
                raise ProtocolError("move %d,%d comes after the game ended (%s)"
                                    % (x, y, result(g, last)))
            try:
                g.play(x, y)
            except ValueError as e:
                raise ProtocolError("%d,%d: %s" % (x, y, e)) from None
            last = (x, y)
        return g, list(moves)

    def _need_game(self):
        if self.game is None:
            raise ProtocolError("no game: send START 15 first")

    def _to_move(self):
        g = self.game
        return 0 if g.winner else g.turn

    def _check_not_over(self):
        """ProtocolError if the game is over, saying how it ended."""
        if self.game.winner:
            raise ProtocolError("the game is over (%s)" % result(self.game, self.moves[-1]))

    def _opponent(self, x, y):
        g = self.game
        self._check_not_over()
        if g.stone(x, y):
            raise ProtocolError("%d,%d is occupied" % (x, y))
        try:
            g.play(x, y)
        except ValueError as e:
            raise ProtocolError("%d,%d: %s" % (x, y, e)) from None
        self.moves.append((x, y))

    def _reply(self):
        """The brain's move, played and formatted; ProtocolError if none."""
        g = self.game
        self._check_not_over()
        try:
            m = ai.best_move(g, self.level)
        except ValueError as e:
            raise ProtocolError("engine: %s" % e) from None
        x, y = m % SIZE, m // SIZE
        own = g.turn
        try:
            g.play(x, y)
        except ValueError as e:             # a bug in the engine: no crash
            raise ProtocolError("engine chose %d,%d, which the game refuses: %s"
                                % (x, y, e)) from None
        self.own = own
        self.moves.append((x, y))
        return "%d,%d" % (x, y)

    def _reply_or_restore(self, saved):
        try:
            return self._reply()
        except ProtocolError:
            self.game, self.moves = self._new_game(saved)
            raise

    # -- commands ----------------------------------------------------------
    def _reset(self):
        if self.next_rule is not None:
            # a new game: the rule its predecessor refused, and no ERROR
            self.rule, self.next_rule = self.next_rule, None
            self.info_errors.pop("rule", None)
        self.game, self.moves = self._new_game()
        self.own = None

    def cmd_info(self, arg):
        key, value = parse_info(arg)
        if key == "rule":
            rule = rule_from_info(value)
            self.next_rule = None
            if self.game is not None and rule != self.rule:
                try:
                    self.game, self.moves = self._replayed(rule, value)
                except ProtocolError:
                    self.next_rule = rule
                    raise
            self.rule = rule
        return []

    def _replayed(self, rule, value):
        """The game so far replayed under `rule` (INFO rule `value`); a
        ProtocolError refusing the INFO, the rule as it was, unless the game
        plays alike under it: each move legal, and over (the same way) only
        if it is over now. A six of exactly five's game, say, wins under
        freestyle: under it the game would have ended there."""
        try:
            g, moves = self._new_game(self.moves, rule)
        except ProtocolError as e:
            why = "the game so far breaks it: %s" % e
        else:
            if g.winner == self.game.winner:
                return g, moves
            why = "under it the game so far would be %s, not %s" % tuple(
                "over (%s)" % result(h, moves[-1]) if h.winner else "still on"
                for h in (g, self.game))
        raise ProtocolError("INFO rule %s refused: %s; the rule stays %d "
                            "until START or RESTART" % (value, why, self.rule))

    def cmd_begin(self, arg):
        self._need_game()
        self._check_not_over()
        if self.moves:
            raise ProtocolError("BEGIN on a board that is not empty")
        return [self._reply_or_restore([])]

    def cmd_turn(self, arg):
        self._need_game()
        x, y = parse_xy(arg)
        self._check_not_over()
        self._check_turn(self._to_move(), False, "TURN")
        saved = list(self.moves)
        self._opponent(x, y)
        # a move that ends the game is legal: it is kept, as the manager
        # keeps it, and answered with how the game ended
        self._check_not_over()
        return [self._reply_or_restore(saved)]

    def cmd_play(self, arg):
        """The brain's own move, imposed (the answer to a SUGGEST)."""
        self._need_game()
        x, y = parse_xy(arg)
        self._check_turn(self._to_move(), True, "PLAY")
        own = self.game.turn
        self._opponent(x, y)
        self.own = own
        return ["%d,%d" % (x, y)]

    def cmd_takeback(self, arg):
        self._need_game()
        x, y = parse_xy(arg)
        if not self.moves:
            raise ProtocolError("TAKEBACK on an empty board")
        if self.moves[-1] != (x, y):
            raise ProtocolError("TAKEBACK %d,%d: the last move is %d,%d"
                                % ((x, y) + self.moves[-1]))
        self.game.undo()
        self.moves.pop()
        if not self.moves:
            self.own = None     # back to the start: either side may open
        return ["OK"]

    def _board_done(self, lines):
        """Own/opponent colours from the side to move; the stones played in
        the order given under renju (the protocol: renju's BOARD is in play
        order). Under freestyle and exactly five the manager may send them
        in any order: the position is a set, refused if a five stands on it,
        played in an order where no move makes one (_set_order)."""
        self._need_game()
        stones = board_stones(lines)
        own = [s[:2] for s in stones if s[2] == 1]
        opp = [s[:2] for s in stones if s[2] == 2]
        if len(own) == len(opp):
            black, white = own, opp         # the brain is black, to move
        else:                               # one opponent stone more
            black, white = opp, own
        if self.rule != gomoku.RENJU:
            black, white = self._set_order(black, "black"), self._set_order(white, "white")
        order = []
        for i in range(len(white)):
            order += [black[i], white[i]]
        order += black[len(white):]
        game, moves = self._new_game(order)
        if game.winner:                     # renju's five last, or a full board
            raise ProtocolError("the game is over (%s)" % result(game, moves[-1]))
        saved = self.moves
        self.game, self.moves = game, moves
        return [self._reply_or_restore(saved)]

    def _set_order(self, stones, colour):
        """One colour's BOARD stones in an order to play them (freestyle and
        exactly five); ProtocolError naming a five on the board."""
        exact = self.rule == gomoku.STANDARD
        five = find_five(set(stones), exact)
        if five:
            x, y, dx, dy, n = five
            raise ProtocolError("the game is over: %s has %s from %d,%d to %d,%d" % (
                colour, "five" if n == 5 else "%d in a row" % n,
                x, y, x + (n - 1) * dx, y + (n - 1) * dy))
        if not exact or plays_in_order(stones):
            # no five or more, nor has any part of it; or the order given is
            # one of play, kept so that TAKEBACK takes back the last move
            return stones
        order = play_order(stones)
        if order is None:
            raise ProtocolError("BOARD: %s's stones have no order of play found in which "
                                "no move makes a five on the way to their overlines" % colour)
        return order

    def cmd_about(self, arg):
        return [ABOUT]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--level", type=int, default=1, help="AI level (ai.best_move)")
    ap.add_argument("--seed", type=int, default=None,
                    help="seed the search levels' choice among near-equal moves "
                         "(ai.seed): the same seed replays the same game")
    args = ap.parse_args(argv)
    if args.level not in engine_levels():
        # refused here, not with an ERROR to every move of the game
        ap.error("level %d not available (levels: %s)" % (
            args.level, ", ".join(map(str, engine_levels()))))
    if args.seed is not None:
        ai.seed(args.seed)
    brain = Brain(level=args.level)
    stdout = protocol_stdout()
    for line in protocol_stdin():
        for out in brain.handle(line):
            stdout.write(out + "\n")
            stdout.flush()
        if brain.done:
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
