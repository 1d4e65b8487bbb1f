"""The Gomocup (piskvork) protocol loop of the reference brains.

tools/ref_alphabeta.py, tools/seed_brain.py and tools/gomokubench_brain.py
are a move function each; this turns one into a brain on stdin/stdout:

    import brainloop
    brainloop.serve(choose, name="ref_alphabeta")

`choose(grid, me, rule, last) -> (x, y)`: grid[y][x] is 0 empty, 1 black,
2 white (a fresh grid every call); `me` is the colour to move; `rule` is
0 freestyle, 1 exactly five or 4 renju, of those serve's `rules` names;
`last` is the opponent's last move or None. A ValueError from it is
answered with ERROR.

Commands as tools/pbrain.py takes them (one a line, case-insensitive):
START 15, RECTSTART 15,15, RESTART, INFO key value, BEGIN, TURN x,y,
BOARD ... DONE (lines x,y,who: 1 own, 2 opponent; 3, a continuous game's
winning or forbidden stone, is an ERROR: these brains do not play
continuous games), TAKEBACK x,y (the last move), PLAY x,y (the brain's
move, on its turn), ABOUT, END. Malformed or out-of-place input (TURN on the
brain's turn too) gets one `ERROR <reason>` (an unknown command
`UNKNOWN <word>`) and leaves the position as it was; a BOARD block is read
to its DONE before anything is answered, so the loop stays in step. INFO
is never answered, as the protocol asks: a bad INFO rule, one the brain
does not play (or an INFO with no key) waits for the next BEGIN, TURN or
BOARD, which gets its ERROR instead of a move; the other keys are not
used, and their values not checked. The loop knows the board, not the
rules: a move after a five is not refused.

Its line handling (CommandLoop) and input checks (ProtocolError, parse_xy,
rule_from_info, check_start, check_rectstart, parse_info, board_stones)
are also tools/pbrain.py's, which puts the engine behind the same
commands; this module imports neither the engine nor ai.
"""
import sys

SIZE = 15


class ProtocolError(Exception):
    """Bad input: answered with ERROR, the position is left as it was."""


ERROR_TEXT_MAX = 160


def error_line(text):
    """'ERROR <text>' for the manager, the text cut at ERROR_TEXT_MAX
    characters: a reason quotes the input, which may be any length."""
    if len(text) > ERROR_TEXT_MAX:
        text = text[:ERROR_TEXT_MAX - 3] + "..."
    return "ERROR " + text


def digits(text):
    """True for ASCII digits only: str.isdigit() takes '²' and other
    scripts' digits too, and int() reads some of them."""
    return text.isascii() and text.isdigit()


def number(text):
    """int() of ASCII digits, a leading minus allowed; ValueError for
    anything else, such as the '1_4' and other scripts' digits int() takes."""
    t = text.strip()
    if not digits(t[1:] if t[:1] == "-" else t):
        raise ValueError("not a number: %r" % text)
    return int(t)


def parse_xy(text):
    """'x,y' -> (x, y) ints; ProtocolError if malformed or off the board."""
    parts = text.split(",")
    if len(parts) != 2:
        raise ProtocolError("expected x,y but got %r" % text)
    try:
        x, y = number(parts[0]), number(parts[1])
    except ValueError:
        raise ProtocolError("expected x,y numbers but got %r" % text) from None
    if not (0 <= x < SIZE and 0 <= y < SIZE):
        raise ProtocolError("%d,%d is off the 15x15 board" % (x, y))
    return x, y


def rule_from_info(value):
    """0 freestyle, 1 exactly five or 4 renju for an INFO rule bitmask (the
    engine's gomoku.FREESTYLE, STANDARD and RENJU)."""
    try:
        bits = number(value)
    except ValueError:
        raise ProtocolError("INFO rule wants a number, got %r" % value) from None
    if bits < 0:
        raise ProtocolError("INFO rule %d is negative" % bits)
    if bits >= 16:
        raise ProtocolError("INFO rule %d: no Gomocup rule has bits above 8" % bits)
    if bits & 8:
        raise ProtocolError("INFO rule %d: caro is not supported" % bits)
    if bits & 2:
        raise ProtocolError("INFO rule %d: continuous games are not supported"
                            % bits)
    return 4 if bits & 4 else (1 if bits & 1 else 0)


def check_start(arg):
    """START's argument: ProtocolError unless it is 15."""
    try:
        size = number(arg)
    except ValueError:
        raise ProtocolError("START wants a board size, got %r" % arg) from None
    if size != SIZE:
        raise ProtocolError("only a 15x15 board is supported, not %d" % size)


def check_rectstart(arg):
    """RECTSTART's argument: ProtocolError unless it is 15,15."""
    try:
        w, h = (number(v) for v in arg.split(","))
    except ValueError:
        raise ProtocolError("RECTSTART wants w,h, got %r" % arg) from None
    if (w, h) != (SIZE, SIZE):
        raise ProtocolError("only a 15x15 board is supported, not %dx%d" % (w, h))


def parse_info(arg):
    """INFO's 'key value' -> (key lower-cased, value); ProtocolError for no
    key or a rule rule_from_info refuses. The other keys' values are not
    checked: these brains play by fixed limits, not by the clock or a
    memory limit, and the protocol lets a brain ignore what it does not
    use (a manager may send a negative time_left)."""
    key = info_key(arg)
    value = (arg.split(None, 1) + [""])[1].strip() if key else ""
    if not key:
        raise ProtocolError("INFO wants a key and a value")
    if key == "rule":
        rule_from_info(value)
    return key, value


def info_key(arg):
    """INFO's key, lower-cased ('' for none): the first word, however spaced."""
    return arg.split(None, 1)[0].lower() if arg.strip() else ""


def board_stones(lines):
    """A BOARD block's lines -> its stones (x, y, 1 own / 2 opponent) in the
    order given; ProtocolError for a bad line, a point given twice, counts
    that do not leave the brain to move, or the field 3 of a continuous game
    (a stone of a winning line, or one renju forbids), which is not played."""
    stones, seen = [], set()
    for ln in lines:
        parts = ln.split(",")
        if len(parts) != 3:
            raise ProtocolError("BOARD line %r is not x,y,who" % ln)
        x, y = parse_xy(",".join(parts[:2]))
        try:
            who = number(parts[2])
        except ValueError:
            raise ProtocolError("BOARD line %r: who is not a number" % ln) from None
        if who == 3:
            raise ProtocolError("BOARD line %r: field 3 (continuous game) is not "
                                "supported: the brain does not play continuous games" % ln)
        if who not in (1, 2):
            raise ProtocolError("BOARD line %r: who must be 1 (own) or 2 (opponent)" % ln)
        if (x, y) in seen:
            raise ProtocolError("BOARD: %d,%d given twice" % (x, y))
        seen.add((x, y))
        stones.append((x, y, who))
    own = sum(1 for s in stones if s[2] == 1)
    opp = len(stones) - own
    if opp not in (own, own + 1):
        raise ProtocolError("BOARD with %d own and %d opponent stones: the brain "
                            "cannot be the side to move" % (own, opp))
    return stones


class CommandLoop:
    """The line handling of BrainLoop and pbrain's Brain: `handle(line)`
    calls `cmd_<word>(arg)` and returns the answer lines (ERROR for a
    ProtocolError, UNKNOWN for a word with no cmd_). A BOARD block is read
    to DONE whatever the state, then given to `_board_done(lines)`; a
    SWAP2BOARD block is read to DONE and answered UNKNOWN. END (never a
    row) ends the brain inside a block too, leaving the position as it was."""

    def __init__(self):
        self.board_lines = None  # collecting BOARD (or SWAP2BOARD) ... DONE
        self.block = "BOARD"
        self.info_errors = {}    # INFO key -> its problem, told at BEGIN/TURN/BOARD
        self.done = False

    def handle(self, line):
        line = line.strip()
        if self.board_lines is not None:
            return self._board_line(line)
        if not line:
            return []
        word, arg = (line.split(None, 1) + [""])[:2]
        # ASCII before lower(): the Kelvin sign lowers to 'k'
        fn = (getattr(self, "cmd_" + word.lower(), None)
              if word.isascii() and word.isalnum() else None)
        if fn is None:
            return ["UNKNOWN " + word[:40]]
        word = word.lower()
        if word == "info":
            return self._info(fn, arg.strip())
        if word in ("begin", "turn") and self.info_errors:
            return [self._info_error()]
        try:
            return fn(arg.strip())
        except ProtocolError as e:
            return [error_line(str(e))]

    def _info(self, fn, arg):
        """INFO is never answered: the manager does not read the brain after
        it. A problem waits for the next BEGIN, TURN or BOARD, which it
        answers instead (the protocol's way); a later good value of the same
        key forgets it."""
        key = info_key(arg)
        try:
            fn(arg)
        except ProtocolError as e:
            self.info_errors[key] = str(e)
        else:
            self.info_errors.pop(key, None)
        return []

    def _info_error(self):
        """The ERROR line for the INFO problems waiting, which it clears."""
        text = "; ".join(self.info_errors.values())
        self.info_errors = {}
        return error_line(text)

    def _check_turn(self, to_move, brain, cmd):
        """ProtocolError unless `to_move` (1 black, 2 white; 0 the game is
        over) is the brain (PLAY) or its opponent (TURN): a stone out of
        turn would take the other colour. self.own: the brain's colour once
        it has moved, else None (either side may come)."""
        own = self.own
        if own is None or not to_move or (to_move == own) == brain:
            return
        raise ProtocolError("%s: it is the %s's turn (the brain plays %s)" % (
            cmd, "opponent" if brain else "brain", ("black", "white")[own - 1]))

    def cmd_board(self, arg):
        self.board_lines = []
        self.block = "BOARD"
        return []

    def cmd_swap2board(self, arg):
        """Swap2 is not played, but its block is read to DONE and answered
        once (UNKNOWN), so the loop stays in step."""
        self.board_lines = []
        self.block = "SWAP2BOARD"
        return []

    def _board_line(self, line):
        word = line.upper()
        if word == "END":                   # the manager gave up on the block
            self.board_lines = None
            return self.cmd_end("")
        if word != "DONE":
            if line:
                self.board_lines.append(line)
            return []
        lines, self.board_lines = self.board_lines, None
        if self.block != "BOARD":
            return ["UNKNOWN " + self.block]
        if self.info_errors:
            return [self._info_error()]
        try:
            return self._board_done(lines)
        except ProtocolError as e:
            return [error_line(str(e))]

    def _board_done(self, lines):
        raise NotImplementedError

    def _reset(self):
        """Start an empty game (START, RECTSTART, RESTART)."""
        raise NotImplementedError

    def _need_game(self):
        raise NotImplementedError

    def cmd_start(self, arg):
        check_start(arg)
        self._reset()
        return ["OK"]

    def cmd_rectstart(self, arg):
        check_rectstart(arg)
        return self.cmd_start(str(SIZE))

    def cmd_restart(self, arg):
        self._need_game()
        self._reset()
        return ["OK"]

    def cmd_end(self, arg):
        self.done = True
        return []


RULES = {0: "freestyle", 1: "exactly five", 4: "renju"}


class BrainLoop(CommandLoop):
    """Protocol state around `choose`; `handle(line)` returns the answer
    lines. `rules`: those `choose` plays (an INFO rule for another is an
    ERROR, not a game played by the wrong rule)."""

    def __init__(self, choose, name="brain", rules=tuple(RULES)):
        super().__init__()
        self.choose = choose
        self.name = name
        self.rules = rules
        self.rule = 0
        self.stones = None       # None before START; (x, y, 1 own / 2 opponent) in order
        self.own = None          # the brain's colour (1 black, 2 white) once it moved

    # -- position ------------------------------------------------------------
    def _need_game(self):
        if self.stones is None:
            raise ProtocolError("no game: send START 15 first")

    def _to_move(self):
        return 1 if len(self.stones) % 2 == 0 else 2

    def _free(self, x, y, stones):
        if any(s[0] == x and s[1] == y for s in stones):
            raise ProtocolError("%d,%d is occupied" % (x, y))

    def _reply(self, stones):
        """Ask `choose` for a move on `stones`; keep the position only if it
        answers a free point, and return that move's line."""
        if len(stones) >= SIZE * SIZE:
            raise ProtocolError("the board is full")
        me = 1 if len(stones) % 2 == 0 else 2
        grid = [[0] * SIZE for _ in range(SIZE)]
        for x, y, f in stones:
            grid[y][x] = me if f == 1 else 3 - me
        last = stones[-1][:2] if stones and stones[-1][2] == 2 else None
        try:
            x, y = self.choose(grid, me, self.rule, last)
        except ValueError as e:
            raise ProtocolError("engine: %s" % e) from None
        if not (isinstance(x, int) and isinstance(y, int)
                and 0 <= x < SIZE and 0 <= y < SIZE):
            raise ProtocolError("engine chose %r, off the board" % ((x, y),))
        if any(s[0] == x and s[1] == y for s in stones):
            raise ProtocolError("engine chose %d,%d, which is occupied" % (x, y))
        self.stones = stones + [(x, y, 1)]
        self.own = me
        return ["%d,%d" % (x, y)]

    # -- commands --------------------------------------------------------------
    def _reset(self):
        self.stones = []
        self.own = None

    def cmd_info(self, arg):
        key, value = parse_info(arg)
        if key == "rule":
            rule = rule_from_info(value)
            if rule not in self.rules:
                raise ProtocolError("INFO rule %s: %s plays %s only" % (
                    value, self.name, " and ".join(RULES[r] for r in self.rules)))
            self.rule = rule
        return []

    def cmd_begin(self, arg):
        self._need_game()
        if self.stones:
            raise ProtocolError("BEGIN on a board that is not empty")
        return self._reply([])

    def cmd_turn(self, arg):
        self._need_game()
        x, y = parse_xy(arg)
        self._check_turn(self._to_move(), False, "TURN")
        self._free(x, y, self.stones)
        return self._reply(self.stones + [(x, y, 2)])

    def cmd_play(self, arg):
        self._need_game()
        x, y = parse_xy(arg)
        self._check_turn(self._to_move(), True, "PLAY")
        self._free(x, y, self.stones)
        self.own = 1 if len(self.stones) % 2 == 0 else 2
        self.stones = self.stones + [(x, y, 1)]
        return ["%d,%d" % (x, y)]

    def cmd_takeback(self, arg):
        self._need_game()
        x, y = parse_xy(arg)
        if not self.stones:
            raise ProtocolError("TAKEBACK on an empty board")
        if self.stones[-1][:2] != (x, y):
            raise ProtocolError("TAKEBACK %d,%d: the last move is %d,%d"
                                % ((x, y) + self.stones[-1][:2]))
        self.stones = self.stones[:-1]
        if not self.stones:
            self.own = None      # back to the start: either side may open
        return ["OK"]

    def _board_done(self, lines):
        self._need_game()
        return self._reply(board_stones(lines))

    def cmd_about(self, arg):
        return ['name="%s", version="1.0", country="-"' % self.name]


def protocol_stdin():
    """sys.stdin with bytes that are not text in its encoding read as
    U+FFFD: such a line is answered (UNKNOWN or ERROR) like any bad one,
    where a strict decoder would end the brain with a traceback."""
    sys.stdin.reconfigure(errors="replace")
    return sys.stdin


def protocol_stdout():
    """sys.stdout writing what its encoding lacks (the U+FFFD of a bad
    byte, quoted back in an ERROR) as a backslash escape: on a cp1252 pipe,
    as on Windows, a strict encoder would end the brain with a traceback."""
    sys.stdout.reconfigure(errors="backslashreplace")
    return sys.stdout


def serve(choose, name="brain", stdin=None, stdout=None, rules=tuple(RULES)):
    """Run the brain loop around `choose` until END or the end of input."""
    stdin = stdin or protocol_stdin()
    stdout = stdout or protocol_stdout()
    loop = BrainLoop(choose, name, rules)
    for line in iter(stdin.readline, ""):
        for out in loop.handle(line):
            stdout.write(out + "\n")
            stdout.flush()
        if loop.done:
            return
