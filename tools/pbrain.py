"""A Gomocup (piskvork) protocol brain on stdin/stdout, playing the engine.

    python tools/pbrain.py --level 1

Commands (one a line, case-insensitive; x = column, y = row, 0-based):
  START 15            new game on a 15x15 board (other sizes: ERROR)
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
  PLAY x,y            the brain must play x,y (answers x,y)
  ABOUT               name="...", version="...", author="...", country="..."
  END                 exit
Answers: a move `x,y`, `OK`, or `ERROR <reason>` / `UNKNOWN <command>` for
malformed or unknown input, after which the brain keeps running and its
game is unchanged. Every line is flushed.
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

SIZE = 15
ABOUT = ('name="handheld-gomoku", version="1.0", author="Handheld Gomoku project", '
         'country="Internet", www="", email=""')


class ProtocolError(Exception):
    """Bad input: answered with ERROR, the game is left as it was."""


def rule_from_info(value):
    """The engine rule for a Gomocup INFO rule bitmask."""
    try:
        bits = int(value)
    except ValueError:
        raise ProtocolError("INFO rule wants a number, got %r" % value) from None
    if bits < 0:
        raise ProtocolError("INFO rule %d is negative" % bits)
    if bits & 8:
        raise ProtocolError("INFO rule %d: caro is not supported" % bits)
    if bits & 4:
        return gomoku.RENJU
    if bits & 1:
        return gomoku.STANDARD
    return gomoku.FREESTYLE


def parse_xy(text):
    """'x,y' -> (x, y) ints; ProtocolError if malformed or off the board."""
    parts = text.split(",")
    if len(parts) != 2:
        raise ProtocolError("expected x,y but got %r" % text)
    try:
        x, y = int(parts[0]), int(parts[1])
    except ValueError:
        raise ProtocolError("expected x,y numbers but got %r" % text) from None
    if not (0 <= x < SIZE and 0 <= y < SIZE):
        raise ProtocolError("%d,%d is off the 15x15 board" % (x, y))
    return x, y


class Brain:
    """Protocol state; `handle(line)` returns the lines to answer."""

    def __init__(self, level=1):
        self.level = level
        self.rule = gomoku.FREESTYLE
        self.info = {}
        self.game = None        # gomoku.Game once STARTed
        self.moves = []         # (x, y) in play order, for rebuilding
        self.board_lines = None  # collecting BOARD ... DONE
        self.done = False

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
        g.play(x, y)
        self.moves.append((x, y))
        return "%d,%d" % (x, y)

    def _reply_or_restore(self, saved):
        try:
            return self._reply()
        except ProtocolError:
            self.game, self.moves = self._new_game(saved)
            raise

    # -- commands ----------------------------------------------------------
    def handle(self, line):
        line = line.strip()
        if self.board_lines is not None:
            return self._board_line(line)
        if not line:
            return []
        cmd, _, arg = line.partition(" ")
        cmd = cmd.upper()
        arg = arg.strip()
        fn = getattr(self, "cmd_" + cmd.lower(), None)
        if fn is None or not cmd.isalpha():
            return ["UNKNOWN " + line.split()[0][:40]]
        try:
            return fn(arg)
        except ProtocolError as e:
            return ["ERROR " + str(e)]

    def cmd_start(self, arg):
        try:
            size = int(arg)
        except ValueError:
            raise ProtocolError("START wants a board size, got %r" % arg) from None
        if size != SIZE:
            raise ProtocolError("only a 15x15 board is supported, not %d" % size)
        self.game, self.moves = self._new_game()
        return ["OK"]

    def cmd_rectstart(self, arg):
        try:
            w, h = (int(v) for v in arg.split(","))
        except ValueError:
            raise ProtocolError("RECTSTART wants w,h, got %r" % arg) from None
        if (w, h) != (SIZE, SIZE):
            raise ProtocolError("only a 15x15 board is supported, not %dx%d" % (w, h))
        return self.cmd_start(str(SIZE))

    def cmd_restart(self, arg):
        self._need_game()
        self.game, self.moves = self._new_game()
        return ["OK"]

    def cmd_info(self, arg):
        key, _, value = arg.partition(" ")
        key = key.lower()
        value = value.strip()
        if not key:
            raise ProtocolError("INFO wants a key and a value")
        if key == "rule":
            rule = rule_from_info(value)
            if self.game is not None and rule != self.rule:
                self.game, self.moves = self._new_game(self.moves, rule)
            self.rule = rule
        elif key in ("timeout_turn", "timeout_match", "time_left", "max_memory",
                     "game_type"):
            try:
                int(value)
            except ValueError:
                raise ProtocolError("INFO %s wants a number, got %r" % (key, value)) from None
        self.info[key] = value
        return []

    def cmd_begin(self, arg):
        self._need_game()
        if self.moves:
            raise ProtocolError("BEGIN on a board that is not empty")
        return [self._reply_or_restore([])]

    def cmd_turn(self, arg):
        self._need_game()
        x, y = parse_xy(arg)
        saved = list(self.moves)
        self._opponent(x, y)
        return [self._reply_or_restore(saved)]

    def cmd_play(self, arg):
        self._need_game()
        x, y = parse_xy(arg)
        self._opponent(x, y)
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
        return ["OK"]

    def cmd_board(self, arg):
        self._need_game()
        self.board_lines = []
        return []

    def _board_line(self, line):
        if line.upper() != "DONE":
            if line:
                self.board_lines.append(line)
            return []
        lines, self.board_lines = self.board_lines, None
        try:
            return self._board_done(lines)
        except ProtocolError as e:
            return ["ERROR " + str(e)]

    def _board_done(self, lines):
        """Stones in play order; own/opponent colours from the side to move."""
        own, opp, seen = [], [], set()
        for ln in lines:
            parts = ln.split(",")
            if len(parts) != 3:
                raise ProtocolError("BOARD line %r is not x,y,who" % ln)
            x, y = parse_xy(",".join(parts[:2]))
            try:
                who = int(parts[2])
            except ValueError:
                raise ProtocolError("BOARD line %r: who is not a number" % ln) from None
            if who == 3:
                continue
            if who not in (1, 2):
                raise ProtocolError("BOARD line %r: who must be 1, 2 or 3" % ln)
            if (x, y) in seen:
                raise ProtocolError("BOARD: %d,%d given twice" % (x, y))
            seen.add((x, y))
            (own if who == 1 else opp).append((x, y))
        if len(own) == len(opp):
            black, white = own, opp         # the brain is black, to move
        elif len(opp) == len(own) + 1:
            black, white = opp, own
        else:
            raise ProtocolError("BOARD with %d own and %d opponent stones: the brain "
                                "cannot be the side to move" % (len(own), len(opp)))
        order = []
        for i in range(len(white)):
            order += [black[i], white[i]]
        order += black[len(white):]
        saved = self.moves
        self.game, self.moves = self._new_game(order)
        return [self._reply_or_restore(saved)]

    def cmd_about(self, arg):
        return [ABOUT]

    def cmd_end(self, arg):
        self.done = True
        return []


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--level", type=int, default=1, help="AI level (ai.best_move)")
    ap.add_argument("--seed", type=int, default=None,
                    help="seed the search levels' choice among near-equal moves "
                         "(ai.seed): the same seed replays the same game")
    args = ap.parse_args(argv)
    if args.seed is not None:
        ai.seed(args.seed)
    brain = Brain(level=args.level)
    for line in sys.stdin:
        for out in brain.handle(line):
            sys.stdout.write(out + "\n")
            sys.stdout.flush()
        if brain.done:
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
