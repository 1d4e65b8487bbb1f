"""A Gomocup (piskvork) protocol brain on stdin/stdout, playing the engine.

    python tools/pbrain.py --level 1

Commands (one a line, case-insensitive; x = column, y = row, 0-based):
  START 15            new game on a 15x15 board (other sizes: ERROR)
  RECTSTART 15,15     the same (other sizes: ERROR)
  RESTART             new game, same settings
  INFO key value      rule (0 freestyle, 1 exactly five, 4 renju; bitmask,
                      2 "continuous" is ignored), timeout_turn, timeout_match,
                      time_left, max_memory, game_type, evaluate, folder...
  BEGIN               the brain plays the first move
  TURN x,y            the opponent played x,y; the brain answers its move
  BOARD               then lines x,y,who (1 own, 2 opponent, 3 winning-line
  ...                 marker of a continuous game: ignored), then DONE: a
  DONE                whole position; the brain answers its move
  TAKEBACK x,y        take back the last move (x,y); answers OK
  PLAY x,y            the brain must play x,y (answers x,y); ERROR when it
                      is the opponent's turn, as TURN is when it is the brain's
  ABOUT               name="...", version="...", author="...", country="..."
  SWAP2BOARD ... DONE not played: read through DONE, answered UNKNOWN
  END                 exit
Answers: a move `x,y`, `OK`, or `ERROR <reason>` / `UNKNOWN <command>` for
malformed or unknown input, after which the brain keeps running and its
game is unchanged; a BOARD block is read through DONE before it is
answered, even with no game. INFO is never answered (the manager does not
read it): a bad rule (INFO rule 8) or an INFO with no key is one ERROR
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
    protocol_stdin, rule_from_info)

ABOUT = ('name="handheld-gomoku", version="1.0", author="Handheld Gomoku project", '
         'country="Internet", www="", email=""')


def engine_levels():
    """The levels ai.best_move plays here: the device's (ai.LEVELS) and the
    PC-only deep search's (deepsearch.levels())."""
    import deepsearch
    return tuple(ai.LEVELS) + tuple(deepsearch.levels())


class Brain(CommandLoop):
    """Protocol state; `handle(line)` returns the lines to answer."""

    def __init__(self, level=1):
        super().__init__()
        self.level = level
        self.rule = gomoku.FREESTYLE
        self.game = None        # gomoku.Game once STARTed
        self.moves = []         # (x, y) in play order, for rebuilding
        self.own = None         # the brain's colour (1 black, 2 white) once it moved

    # -- game state ----------------------------------------------------
    def _new_game(self, moves=(), rule=None):
        """A Game with `moves` replayed; ProtocolError if one is illegal."""
        g = gomoku.Game(rule=self.rule if rule is None else rule)
        for x, y in moves:
            if g.winner:
                raise ProtocolError("move %d,%d comes after the game ended" % (x, y))
            try:
                g.play(x, y)
            except ValueError as e:
                raise ProtocolError("%d,%d: %s" % (x, y, e)) from None
        return g, list(moves)

    def _need_game(self):
        if self.game is None:
            raise ProtocolError("no game: send START 15 first")

    def _to_move(self):
        g = self.game
        return 0 if g.winner else g.turn

    def _opponent(self, x, y):
        g = self.game
        if g.winner:
            raise ProtocolError("the game is over")
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
        if g.winner:
            raise ProtocolError("the game is over (%s)" % (
                "draw" if g.winner == 3 else "won by %s" % ("black", "white")[g.winner - 1]))
        try:
            m = ai.best_move(g, self.level)
        except ValueError as e:
            raise ProtocolError("engine: %s" % e) from None
        x, y = m % SIZE, m // SIZE
        own = g.turn
        g.play(x, y)
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
        self.game, self.moves = self._new_game()
        self.own = None

    def cmd_info(self, arg):
        key, value = parse_info(arg)
        if key == "rule":
            rule = rule_from_info(value)
            if self.game is not None and rule != self.rule:
                self.game, self.moves = self._new_game(self.moves, rule)
            self.rule = rule
        return []

    def cmd_begin(self, arg):
        self._need_game()
        if self.moves:
            raise ProtocolError("BEGIN on a board that is not empty")
        return [self._reply_or_restore([])]

    def cmd_turn(self, arg):
        self._need_game()
        x, y = parse_xy(arg)
        self._check_turn(self._to_move(), False, "TURN")
        saved = list(self.moves)
        self._opponent(x, y)
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
        """Stones in play order; own/opponent colours from the side to move."""
        self._need_game()
        stones = board_stones(lines)
        own = [s[:2] for s in stones if s[2] == 1]
        opp = [s[:2] for s in stones if s[2] == 2]
        if len(own) == len(opp):
            black, white = own, opp         # the brain is black, to move
        else:                               # one opponent stone more
            black, white = opp, own
        order = []
        for i in range(len(white)):
            order += [black[i], white[i]]
        order += black[len(white):]
        saved = self.moves
        self.game, self.moves = self._new_game(order)
        return [self._reply_or_restore(saved)]

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
    for line in protocol_stdin():
        for out in brain.handle(line):
            sys.stdout.write(out + "\n")
            sys.stdout.flush()
        if brain.done:
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
