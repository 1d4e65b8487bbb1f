"""Gomoku against the AI in a terminal, on the engine alone (`make play`).

    python tools/play.py [--rule 0|1|4] [--level N] [--colour black|white]

Moves: `h8` (column letter a-o, row number 1-15 as drawn) or `7 7` (x y,
both from 0). `u` undo, `n` new game, `q` quit, `?` help. Options not given
on the command line are asked for at the start of each game.
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
from brainloop import digits  # noqa: E402  (tools/, the script's folder)

SIZE = 15
LETTERS = "abcdefghijklmno"
RULES = {0: "freestyle (five or more)", 1: "standard (exactly five)",
         4: "renju (black: no 3-3, 4-4, overline)"}
STONE = {0: ".", 1: "X", 2: "O"}
HELP = ("Moves: h8 (column a-o, row 1-15 from the bottom) or 7 7 (x y from 0,\n"
        "y from the top, as Gomocup counts).\n"
        "u undo, n new game, q quit, ? this help.")
QUIT = ("q", "quit", "exit")


class Quit(Exception):
    """q typed while a question was asked: the game ends."""


def _levels():
    """The levels the engine plays on the PC (pbrain's list)."""
    from pbrain import engine_levels
    return engine_levels()


def parse_move(text):
    """'h8' or '7 7' / '7,7' -> (x, y); ValueError with a reason otherwise."""
    t = text.strip().lower()
    if len(t) > 16:     # no move is this long; int() refuses 4300 digits
        raise ValueError("not a move (try h8 or 7 7)")
    if t[:1].isalpha():
        col, row = t[:1], t[1:].strip()
        if col not in LETTERS:
            raise ValueError("column %r is not a-o" % col)
        if not digits(row):
            raise ValueError("%r: a column letter wants a row number, like h8" % text)
        x, y = LETTERS.index(col), SIZE - int(row)
    else:
        parts = t.replace(",", " ").split()
        if len(parts) != 2 or not all(digits(p) for p in parts):
            raise ValueError("%r is not a move (try h8 or 7 7)" % text)
        x, y = int(parts[0]), int(parts[1])
    if not (0 <= x < SIZE and 0 <= y < SIZE):
        raise ValueError("%r is off the board" % text)
    return x, y


def name(x, y):
    """Renju notation: column a-o, row 1-15 counted from the bottom."""
    return "%s%d" % (LETTERS[x], SIZE - y)


def draw(g, last=None, marks=()):
    """The board as text: X black, O white, [ ] the last move, ! forbidden."""
    rows = ["    " + "  ".join(LETTERS[:SIZE])]
    for y in range(SIZE):
        cells = []
        for x in range(SIZE):
            s = STONE[g.stone(x, y)]
            if (x, y) in marks:
                s = "!"
            cells.append("[%s]" % s if (x, y) == last else " %s " % s)
        line = "".join(cells)
        rows.append("%2d %s %d" % (SIZE - y, line, SIZE - y))
    rows.append(rows[0])
    return "\n".join(rows)


class TerminalGame:
    def __init__(self, read=input, write=print, rule=None, level=None, colour=None):
        self.read = read
        self.write = write
        self.fixed = (rule, level, colour)
        self.rule, self.level, self.human = 0, 1, 1
        self.g = None
        self.moves = []

    def ask(self, prompt, choices, default, words=None):
        """One of `choices`, or the one a word in `words` stands for (as
        "white" for "w"); the default for an empty answer; asked again
        otherwise."""
        while True:
            ans = self.read("%s [%s] (%s): " % (prompt, "/".join(choices), default)).strip().lower()
            if not ans:
                return default
            if ans in QUIT:
                raise Quit
            if words:
                ans = words.get(ans, ans)
            if ans in choices:
                return ans
            self.write("Please answer one of: %s" % ", ".join(choices))

    def new_game(self):
        rule, level, colour = self.fixed
        if rule is None:
            self.write("Rules: " + "; ".join("%d %s" % kv for kv in RULES.items()))
            rule = int(self.ask("Rule", ["0", "1", "4"], str(self.rule)))
        levels = [str(n) for n in _levels()]
        if level is None:
            level = int(self.ask("AI level", levels, str(self.level)))
        if colour is None:
            colour = self.ask("Play black (moves first) or white", ["b", "w"],
                              "b" if self.human == 1 else "w",
                              {"black": "b", "white": "w"})
        self.rule, self.level = rule, level
        self.human = 1 if colour[0] == "b" else 2
        self.g = gomoku.Game(rule)
        self.moves = []
        self.write("New game: %s, AI level %d, you play %s."
                   % (RULES[rule], level, "black (X)" if self.human == 1 else "white (O)"))

    def ai_move(self):
        m = ai.best_move(self.g, self.level)
        x, y = m % SIZE, m // SIZE
        self.g.play(x, y)
        self.moves.append((x, y))
        self.write("AI plays %s" % name(x, y))

    def show(self):
        g = self.g
        marks = ()
        if self.rule == gomoku.RENJU and g.turn == 1 == self.human and not g.winner:
            marks = {(x, y) for y in range(SIZE) for x in range(SIZE)
                     if not g.stone(x, y) and g.forbidden(x, y)}
        self.write(draw(g, self.moves[-1] if self.moves else None, marks))
        if g.winner == 3:
            self.write("Draw: %s. n new game, u undo, q quit." % (
                "the board is full" if g.moves > 224 else "black has no move"))
        elif g.winner:
            who = "You win!" if g.winner == self.human else "The AI wins."
            self.write("%s wins with five. %s n new game, u undo, q quit."
                       % ("Black (X)" if g.winner == 1 else "White (O)", who))
        else:
            self.write("%s to move%s." % ("Black (X)" if g.turn == 1 else "White (O)",
                                           " (you)" if g.turn == self.human else ""))

    def undo(self):
        """Take back to the human's previous turn."""
        if not self.moves or (len(self.moves) == 1 and self.human == 2):
            self.write("Nothing to undo.")
            return
        self.g.undo()
        self.moves.pop()
        if self.g.turn != self.human:
            self.g.undo()
            self.moves.pop()

    def run(self):
        self.write(HELP)
        try:
            self._play()
        except Quit:
            pass

    def _play(self):
        self.new_game()
        while True:
            if not self.g.winner and self.g.turn != self.human:
                self.ai_move()
            self.show()
            try:
                cmd = self.read("> ").strip()
            except EOFError:
                return
            low = cmd.lower()
            if not cmd:
                continue
            if low in QUIT:
                return
            if low in ("?", "h", "help"):
                self.write(HELP)
            elif low in ("u", "undo"):
                self.undo()
            elif low in ("n", "new"):
                self.new_game()
            else:
                try:
                    x, y = parse_move(cmd)
                except ValueError as e:
                    self.write("Not played: %s" % e)
                    continue
                try:
                    self.g.play(x, y)
                except ValueError as e:
                    # the engine names points as (x, y): say them as typed
                    self.write("Not played: %s" % str(e).replace(
                        "(%d, %d)" % (x, y), name(x, y)))
                    continue
                self.moves.append((x, y))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rule", type=int, choices=sorted(RULES))
    ap.add_argument("--level", type=int)
    ap.add_argument("--colour", "--color", choices=["black", "white", "b", "w"])
    a = ap.parse_args(argv)
    if a.level is not None and a.level not in _levels():
        raise SystemExit("level %d is not available: the levels are %s"
                         % (a.level, ", ".join(str(n) for n in _levels())))
    game = TerminalGame(rule=a.rule, level=a.level, colour=a.colour)
    try:
        game.run()
    except (EOFError, KeyboardInterrupt):
        pass
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
