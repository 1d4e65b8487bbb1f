"""Arena: play Gomocup brains against each other, refereed by gomoku.Game.

Each engine is a command line speaking the Gomocup (piskvork) protocol, e.g.
`.venv/bin/python tools/pbrain.py --level 2` or any external brain. A match
plays pairs of games from seeded, varied openings (a few stones near the
centre), colours swapped within each pair. The referee is the project's own
`gomoku.Game`: an illegal move, a crash, garbage output or a timeout loses.
A brain that cannot start, or answers its first move with ERROR or UNKNOWN
(a rule it does not play), loses too, and when it does so in every game
the CLI says it never started and exits 2: its opponent's score says
nothing. Ctrl-C ends a match at once, its brains with it (exit 130).

CLI:
    python tools/arena.py "CMD A" "CMD B" --games 20 --rule 0 --timeout 30
Python:
    from arena import run_match
    result = run_match(cmd_a, cmd_b, games=20)
    result.score(0)      # fraction of points for A (win 1, draw 1/2)
    print(result.table())

A `{seed}` in a command is replaced by a per-game number, so seedable brains
vary between games yet every match is repeatable. Commands run in the
current directory, as in a shell: the examples here from the project's.
"""
import argparse
import os
import random
import re
import select
import shlex
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from brainloop import number

ROOT = Path(__file__).resolve().parents[1]
for _p in ("firmware/engine",):
    _full = str(ROOT / _p)
    if _full not in sys.path:
        sys.path.insert(0, _full)

FREESTYLE, STANDARD, RENJU = 0, 1, 4


def _gomoku():
    """The project's engine (the referee), imported when a game is refereed."""
    import gomoku
    return gomoku

SIZE = 15
# openings drawn in a row without a new one before the square is taken as
# used up
_OPENING_MISSES = 10000
RULE_NAMES = {0: "freestyle", 1: "standard", 4: "renju"}
_EOL = re.compile(rb"\r\n|\r|\n")    # a brain's line end: any of the three
_DETAIL = re.compile(r" -?\d+,-?\d+$")     # an ending's move: "illegal move 3,3"


class BrainError(Exception):
    """The brain crashed, timed out or said something that is not a move."""


class BrainTimeout(BrainError):
    """The brain's time for an answer ran out."""


class BrainRefused(BrainError):
    """The brain answered ERROR or UNKNOWN (the protocol's words for a
    command it cannot carry out or does not know): no move."""


def brain_argv(command):
    """A brain's command (a string, split as a shell would, or a list) as
    argv; ValueError if it names no program or its quotes do not close."""
    if isinstance(command, str):
        try:
            argv = shlex.split(command)
        except ValueError as e:
            raise ValueError("brain command %r: %s" % (command, e)) from None
    else:
        argv = list(command)
    if not argv:
        raise ValueError("brain command %r names no program" % (command,))
    return argv


_LIVE = set()       # the brains' processes running: ended on Ctrl-C


class Brain:
    """One brain process, driven over stdin/stdout."""

    def __init__(self, command, name=None, cwd=None):
        self.argv = brain_argv(command)
        self.name = name or " ".join(self.argv)
        self._err = tempfile.TemporaryFile()   # its last words, if it dies
        try:
            self.proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=self._err, cwd=cwd, bufsize=0)
        except OSError:
            self._err.close()
            raise
        _LIVE.add(self.proc)
        self._buf = b""

    def _crashed(self, how="crashed"):
        """BrainError naming the exit status and the last line the brain
        wrote to stderr (a traceback's last line says what went wrong)."""
        try:
            code = self.proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            code = None
        self._err.seek(0, 2)
        self._err.seek(max(0, self._err.tell() - 400))
        said = [ln.strip() for ln in self._err.read().decode("utf-8", "replace")
                .splitlines() if ln.strip()]
        what = "exit %s" % code if code is not None else "output closed"
        if said:
            what += ": " + said[-1][:160]
        return BrainError("%s (%s)" % (how, what))

    def send(self, line):
        # the protocol: a manager ends each line in CR LF
        try:
            self.proc.stdin.write((line + "\r\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._crashed("crashed, stdin closed") from None

    def readline(self, timeout):
        """Next line of output that is not empty or MESSAGE/DEBUG,
        within `timeout` s. Lines end in LF, CR LF or CR alone (the protocol)."""
        deadline = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        blank = False
        while True:
            while _EOL.search(self._buf):
                line, self._buf = _EOL.split(self._buf, 1)
                text = line.decode("utf-8", "replace").strip()
                if not text:
                    blank = True
                    continue
                word = text.split(None, 1)[0].upper()
                if word in ("MESSAGE", "DEBUG"):
                    continue
                return text
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise BrainTimeout("timeout (it answered only with empty lines)" if blank
                                   else "timeout")
            chunk = os.read(fd, 65536)
            if not chunk:
                raise self._crashed()
            self._buf += chunk

    def ask_move(self, line, timeout):
        """Send a command that wants a move; return ((x, y), seconds).

        A brain may answer SUGGEST x,y instead: the manager tells it to
        PLAY that move, and the move it then names is its answer."""
        t0 = time.monotonic()
        self.send(line)
        reply = self.readline(timeout)
        if reply[:8].upper() == "SUGGEST ":
            self.send("PLAY " + reply[8:].strip())
            reply = self.readline(t0 + timeout - time.monotonic())
        spent = time.monotonic() - t0
        if reply.split(None, 1)[0].upper() in ("ERROR", "UNKNOWN"):
            raise BrainRefused("said %r" % reply[:120])
        parts = reply.split(",")
        try:
            if len(parts) != 2:
                raise ValueError
            x, y = number(parts[0]), number(parts[1])
        except ValueError:
            raise BrainError("not a move: %r" % reply[:80]) from None
        return (x, y), spent

    def close(self):
        try:
            self.send("END")
        except BrainError:
            pass
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        _LIVE.discard(self.proc)
        self._err.close()


def openings(count, seed=1, rule=FREESTYLE, min_stones=2, max_stones=4, radius=2):
    """`count` distinct openings: lists of (x, y), black first, near the centre.

    Stones fall in the (2*radius+1)^2 square around the centre; none ends the
    game or is forbidden, so every opening is a playable, roughly balanced start.
    """
    side = 2 * radius + 1
    if max_stones > side * side:
        raise ValueError("%d stones do not fit in a %dx%d square" % (max_stones, side, side))
    rng = random.Random(seed)
    c = SIZE // 2
    found, seen = [], set()
    misses = 0      # draws in a row that found nothing new
    while len(found) < count:
        misses += 1
        if misses > _OPENING_MISSES:
            raise ValueError("cannot find %d distinct openings (%d found)"
                             % (count, len(found)))
        n = rng.randint(min_stones, max_stones)
        g = _gomoku().Game(rule=rule)
        stones = []
        while len(stones) < n:
            x = c + rng.randint(-radius, radius)
            y = c + rng.randint(-radius, radius)
            if g.stone(x, y):
                continue
            try:
                g.play(x, y)
            except ValueError:
                break
            stones.append((x, y))
        if len(stones) != n or g.winner:
            continue
        key = tuple(stones)
        if key in seen:
            continue
        seen.add(key)
        found.append(stones)
        misses = 0
    return found


class GameRecord:
    def __init__(self, black, white, opening):
        self.black = black          # engine index (0 = A, 1 = B)
        self.white = white
        self.opening = list(opening)
        self.moves = []             # moves after the opening, (x, y)
        self.times = ([], [])       # seconds per move, by engine index
        self.winner = None          # engine index, or None for a draw
        self.reason = ""
        self.dead = {}              # engine index -> why it did not start

    def void(self):
        """Neither brain started: the game has no result at all."""
        return len(self.dead) == 2

    def __repr__(self):
        return "GameRecord(black=%d, white=%d, winner=%r, %s, %d moves)" % (
            self.black, self.white, self.winner, self.reason, len(self.moves))


def _board_command(history, own_color):
    lines = ["BOARD"]
    for i, (x, y) in enumerate(history):
        color = 1 if i % 2 == 0 else 2
        lines.append("%d,%d,%d" % (x, y, 1 if color == own_color else 2))
    lines.append("DONE")
    return "\r\n".join(lines)     # send() ends the last


def play_game(cmd_black, cmd_white, opening=(), rule=FREESTYLE, timeout=30.0,
              idx_black=0, idx_white=1, seed=0, max_moves=SIZE * SIZE):
    """Play one game; return a GameRecord (engine indexes as given)."""
    rec = GameRecord(idx_black, idx_white, opening)
    g = _gomoku().Game(rule=rule)
    for x, y in opening:
        g.play(x, y)
    history = list(opening)
    brains = {}
    fresh = {1: True, 2: True}
    try:
        failed = []
        for color, cmd in ((1, cmd_black), (2, cmd_white)):
            try:
                b = Brain(cmd.replace("{seed}", str(brain_seed(seed, color))))
                brains[color] = b
                b.send("START %d" % SIZE)
                reply = b.readline(timeout)
                if reply.upper() != "OK":
                    raise BrainError("START answered %r" % reply[:80])
                b.send("INFO rule %d" % rule)
                b.send("INFO timeout_turn %d" % int(timeout * 1000))
            except BrainError as e:
                failed.append((color, "%s failed to start: %s" % (
                    "black" if color == 1 else "white", e)))
            except OSError as e:
                failed.append((color, "cannot run %r: %s" % (cmd, e)))
        if failed:
            # both are started first, so that one that cannot start is
            # named even when the other cannot either; then no one wins
            rec.dead = {idx_black if c == 1 else idx_white: r for c, r in failed}
            rec.reason = "; ".join(r for _, r in failed)
            if len(failed) == 1:
                rec.winner = idx_white if failed[0][0] == 1 else idx_black
            return rec
        while g.winner == 0 and len(history) < max_moves:
            color = g.turn
            idx = idx_black if color == 1 else idx_white
            other = idx_white if color == 1 else idx_black
            side = "black" if color == 1 else "white"
            b = brains[color]
            first = fresh[color]
            if first:
                fresh[color] = False
                cmd = "BEGIN" if not history else _board_command(history, color)
            else:
                cmd = "TURN %d,%d" % history[-1]
            try:
                (x, y), spent = b.ask_move(cmd, timeout)
            except BrainError as e:
                if isinstance(e, BrainTimeout):
                    rec.times[idx].append(timeout)  # the move's time, at least
                rec.winner, rec.reason = other, "%s %s" % (side, e)
                if first and isinstance(e, BrainRefused):
                    # refusing its first move refuses the game it was given
                    # (a rule it does not play, a BOARD it does not know):
                    # it never started
                    rec.reason = "%s refused the game: %s" % (side, e)
                    rec.dead = {idx: rec.reason}
                return rec
            rec.times[idx].append(spent)
            try:
                g.play(x, y)
            except ValueError as e:
                rec.winner, rec.reason = other, "%s illegal move %d,%d: %s" % (side, x, y, e)
                return rec
            history.append((x, y))
            rec.moves.append((x, y))
        if g.winner in (1, 2):
            rec.winner = idx_black if g.winner == 1 else idx_white
            rec.reason = ("black" if g.winner == 1 else "white") + " five"
        else:
            rec.winner, rec.reason = None, "draw"
        return rec
    finally:
        for b in brains.values():
            b.close()


def _label(name, width=40):
    """A command as the table's engine name: its end, marked where cut."""
    return name if len(name) <= width else "..." + name[3 - width:]


class MatchResult:
    def __init__(self, names, games, rule):
        self.names = names
        self.games = games
        self.rule = rule

    def played(self):
        """The games with a result: not those neither brain started."""
        return [r for r in self.games if not r.void()]

    def void(self):
        return len(self.games) - len(self.played())

    def wins(self, i):
        return sum(1 for r in self.games if r.winner == i)

    def draws(self):
        return sum(1 for r in self.played() if r.winner is None)

    def as_black(self, i):
        """(games won, games played) by engine i as black."""
        games = [r for r in self.played() if r.black == i]
        return sum(1 for r in games if r.winner == i), len(games)

    def score(self, i):
        """Fraction of points for engine i over the games played: win 1,
        draw 1/2."""
        n = len(self.played())
        if not n:
            return 0.0
        return (self.wins(i) + 0.5 * self.draws()) / n

    def times(self, i):
        out = []
        for r in self.games:
            out.extend(r.times[i])
        return out

    def time_stats(self, i):
        t = self.times(i)
        if not t:
            return {"moves": 0, "median": 0.0, "mean": 0.0, "max": 0.0}
        return {"moves": len(t), "median": statistics.median(t),
                "mean": sum(t) / len(t), "max": max(t)}

    def never_started(self):
        """The engines (0, 1) that failed to start in every game, each with
        the first game's reason: their scores say nothing."""
        out = []
        for i in (0, 1):
            lost = [r.dead[i] for r in self.games if i in r.dead]
            if self.games and len(lost) == len(self.games):
                out.append((i, lost[0]))
        return out

    def table(self):
        void = self.void()
        out = ["%d games%s, rule %s" % (
                   len(self.games),
                   " (%d void: neither brain started; not scored)" % void if void else "",
                   RULE_NAMES.get(self.rule, self.rule)),
               "%-40s %5s %5s %5s %6s %7s %9s %9s" % (
                   "engine", "win", "loss", "draw", "score", "as blk", "med ms", "max ms")]
        for i in (0, 1):
            as_black = self.as_black(i)[0]
            st = self.time_stats(i)
            out.append("%-40s %5d %5d %5d %5.1f%% %7d %9.1f %9.1f" % (
                _label(self.names[i]), self.wins(i), self.wins(1 - i), self.draws(),
                100 * self.score(i), as_black, st["median"] * 1000, st["max"] * 1000))
        reasons = {}
        for r in self.games:
            # the kind of ending: not its move, exit status or details
            key = _DETAIL.sub("", r.reason.split(":")[0].split(" (")[0])
            reasons[key] = reasons.get(key, 0) + 1
        out.append("endings: " + ", ".join("%s %d" % kv for kv in sorted(reasons.items())))
        return "\n".join(out)


def schedule(games, seed=1, rule=FREESTYLE, stones=(2, 4)):
    """A match's games: (opening, the first player has black, game seed),
    `games` rounded up to pairs, colours swapped in each pair; each opening
    has stones[0] to stones[1] stones."""
    for k, op in enumerate(openings((games + 1) // 2, seed=seed, rule=rule,
                                    min_stones=stones[0], max_stones=stones[1])):
        yield op, True, seed * 1000 + 2 * k
        yield op, False, seed * 1000 + 2 * k + 1


def brain_seed(game_seed, color):
    """The number a `{seed}` in the command of the brain playing `color`
    stands for in the game with seed `game_seed`."""
    return game_seed * 2 + color


def run_match(cmd_a, cmd_b, games=10, rule=FREESTYLE, timeout=30.0, seed=1,
              workers=2, names=None, progress=None, stones=(2, 4)):
    """Play `games` games (rounded up to pairs), colours swapped in each pair,
    from openings of stones[0] to stones[1] stones. ValueError (before any
    game) for a command brain_argv refuses or openings that cannot be had."""
    for cmd in (cmd_a, cmd_b):
        brain_argv(cmd)
    jobs = []
    for op, a_black, n in schedule(games, seed, rule, stones):
        if a_black:
            jobs.append((cmd_a, cmd_b, op, 0, 1, n))
        else:
            jobs.append((cmd_b, cmd_a, op, 1, 0, n))
    lock = threading.Lock()

    def one(job):
        cb, cw, op, ib, iw, n = job
        rec = play_game(cb, cw, op, rule=rule, timeout=timeout, idx_black=ib,
                        idx_white=iw, seed=n)
        if progress:
            with lock:
                progress(rec)
        return rec

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        try:
            records = list(pool.map(one, jobs))
        except KeyboardInterrupt:
            # Ctrl-C: no more games, and the brains in play killed (one the
            # signal missed would hold its game's thread to its timeout)
            pool.shutdown(wait=False, cancel_futures=True)
            for proc in list(_LIVE):
                proc.kill()
            raise
    return MatchResult(names or [str(cmd_a), str(cmd_b)], records, rule)


def number_range(text):
    """'N' or 'N-M' -> (N, M); ValueError unless both are numbers, N <= M."""
    lo, _, hi = text.partition("-")
    try:
        lo, hi = int(lo), int(hi or lo)
    except ValueError:
        raise ValueError("%s: want N or N-M" % text) from None
    if hi < lo:
        raise ValueError("%s: the range runs backwards" % text)
    return lo, hi


def _stones(text):
    """--stones: 'N' or 'N-M' -> (N, M), 1 <= N <= M <= 25 (the 5x5 square)."""
    try:
        lo, hi = number_range(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError("%s (like 2-4)" % e) from None
    if not 1 <= lo <= hi <= 25:
        raise argparse.ArgumentTypeError("%s: from 1 to 25 stones" % text)
    return lo, hi


def _seconds(text):
    """--timeout: a number of seconds, more than 0 (0 would lose every game
    before its first move, as "failed to start: timeout")."""
    try:
        t = float(text)
    except ValueError:
        t = 0.0
    if not 0 < t < float("inf"):
        raise argparse.ArgumentTypeError("%s is not a time in seconds (more "
                                         "than 0)" % text)
    return t


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("engine_a", help="brain command (quoted), e.g. "
                    "'.venv/bin/python tools/pbrain.py --level 2'")
    ap.add_argument("engine_b", help="second brain command")
    ap.add_argument("--games", type=int, default=10, help="games (rounded up to pairs)")
    ap.add_argument("--rule", type=int, default=0, choices=(0, 1, 4),
                    help="0 freestyle, 1 standard, 4 renju")
    ap.add_argument("--timeout", type=_seconds, default=30.0,
                    help="seconds per move before the brain loses")
    ap.add_argument("--seed", type=int, default=1, help="opening seed")
    ap.add_argument("--stones", type=_stones, default=(2, 4), metavar="N-M",
                    help="stones in each opening, N to M (default 2-4; 1: "
                         "white's first reply to a lone stone)")
    ap.add_argument("--workers", type=int, default=2, help="games played at once")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each game")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be at least 1")
    for cmd in (args.engine_a, args.engine_b):
        try:
            brain_argv(cmd)
        except ValueError as e:
            ap.error(str(e))

    def show(rec):
        if args.verbose:
            print(rec, flush=True)

    try:
        next(schedule(args.games, args.seed, args.rule, args.stones))
    except ValueError as e:         # fewer distinct openings than pairs
        ap.error("--stones %d-%d: %s" % (args.stones + (e,)))
    res = run_match(args.engine_a, args.engine_b, games=args.games, rule=args.rule,
                    timeout=args.timeout, seed=args.seed, workers=args.workers, progress=show,
                    stones=args.stones)
    print(res.table())
    dead = res.never_started()
    for i, reason in dead:
        print("arena: %s never started (%s)" % (res.names[i], reason), file=sys.stderr)
    if res.void() and not dead:
        print("arena: %d games void, neither brain started (%s)" % (
            res.void(), next(r.reason for r in res.games if r.void())), file=sys.stderr)
    return 2 if dead or res.void() else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:       # the games in play are dropped
        print("arena: interrupted", file=sys.stderr)
        sys.exit(130)
