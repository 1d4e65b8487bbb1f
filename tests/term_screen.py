"""A terminal's screen for tests: what the host_sim terminal view writes
(cursor moves, clears, colours, text) applied to rows of characters, and
a simulator run in a pseudo-terminal of a chosen size, typed at.

    t = PtyRun(["--terminal", ...], rows=50, cols=120)
    t.wait_for("> Start"); t.key(b"\\r"); t.text()
"""
import os
import re
import select
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_CSI = re.compile(r"\x1b\[([0-9;?]*)([@-~])")
_CUT = re.compile(r"\x1b(\[[0-9;?]*)?")


class Screen:
    def __init__(self, rows, cols):
        self.rows = rows
        self.cols = cols
        self.cells = [[" "] * cols for _ in range(rows)]
        self.colours = [[None] * cols for _ in range(rows)]
        self.fg = self.bg = None        # truecolour (SGR 38;2 / 48;2)
        self.r = self.c = 0
        self._rest = ""

    def feed(self, data):
        data = self._rest + data
        self._rest = ""
        i = 0
        n = len(data)
        while i < n:
            ch = data[i]
            if ch == "\x1b":
                m = _CSI.match(data, i)
                if m is None:
                    if _CUT.fullmatch(data, i):
                        self._rest = data[i:]       # cut mid-sequence
                        return
                    i += 1
                    continue
                self._csi(m.group(1), m.group(2))
                i = m.end()
                continue
            i += 1
            if ch == "\r":
                self.c = 0
            elif ch == "\n":
                self.r = min(self.r + 1, self.rows - 1)
                self.c = 0
            elif ch >= " ":
                if self.c < self.cols:
                    self.cells[self.r][self.c] = ch
                    self.colours[self.r][self.c] = (self.fg, self.bg)
                self.c += 1

    def _csi(self, params, final):
        if params.startswith("?"):
            return
        nums = [int(p) if p else 0 for p in params.split(";")] if params else []
        if final == "H":
            self.r = min(max((nums[0] if nums else 1) - 1, 0), self.rows - 1)
            self.c = min(max((nums[1] if len(nums) > 1 else 1) - 1, 0),
                         self.cols - 1)
        elif final == "J" and nums == [2]:
            self.cells = [[" "] * self.cols for _ in range(self.rows)]
            self.colours = [[None] * self.cols for _ in range(self.rows)]
        elif final == "K":
            for k in range(self.c, self.cols):
                self.cells[self.r][k] = " "
                self.colours[self.r][k] = None
        elif final == "m":
            if nums[:2] == [38, 2]:
                self.fg = tuple(nums[2:5])
            elif nums[:2] == [48, 2]:
                self.bg = tuple(nums[2:5])
            elif nums in ([], [0]):
                self.fg = self.bg = None

    def text(self):
        """The screen's characters, half blocks as blanks: what reads."""
        return "\n".join("".join(row).replace("\u2580", " ").rstrip()
                         for row in self.cells)


def foreground():
    """In the child: Ctrl-C's SIGINT as a shell's foreground job has it
    (a test runner started in the background ignores SIGINT, and an
    ignored signal stays ignored across exec)."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class PtyRun:
    """`python -m host_sim ARGS` with a pseudo-terminal of rows x cols."""

    def __init__(self, args, rows=50, cols=120, env=None):
        import fcntl
        import pty
        import struct
        import termios
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ,
                    struct.pack("HHHH", rows, cols, 0, 0))
        env = dict(os.environ if env is None else env, TERM="xterm-256color")
        for k in ("COLUMNS", "LINES"):
            env.pop(k, None)
        self.p = subprocess.Popen([sys.executable, "-m", "host_sim"] + args,
                                  stdin=slave, stdout=slave,
                                  stderr=subprocess.PIPE, cwd=ROOT, env=env,
                                  preexec_fn=foreground)
        os.close(slave)
        import codecs
        self._utf8 = codecs.getincrementaldecoder("utf-8")("replace")
        self.screen = Screen(rows, cols)
        self.raw = []           # everything written, for the end checks

    def pump(self, timeout=0.0):
        """Read all the output there is (waiting up to timeout for some)."""
        while select.select([self.master], [], [], timeout)[0]:
            timeout = 0
            try:
                data = os.read(self.master, 1 << 16)
            except OSError:
                return
            if not data:
                return
            s = self._utf8.decode(data)
            self.raw.append(s)
            self.screen.feed(s)

    def text(self):
        self.pump()
        return self.screen.text()

    def key(self, keys):
        os.write(self.master, keys)

    def wait_for(self, text, timeout=60):
        return wait_all([self], [text], timeout)[0]

    def wait_exit(self, timeout=30):
        """The exit status, reading the output meanwhile (a child blocked
        writing to a full terminal never exits)."""
        end = time.monotonic() + timeout
        while self.p.poll() is None and time.monotonic() < end:
            self.pump(0.05)
        self.pump()
        if self.p.poll() is None:
            raise AssertionError("still running after %s s" % timeout)
        return self.p.returncode

    def close(self):
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()
        os.close(self.master)


def wait_all(runs, wants, timeout=60):
    """Until every run's screen holds its text (None: anything); -> the
    screens' texts. A slow machine makes this slower, not wrong."""
    end = time.monotonic() + timeout
    while True:
        for r in runs:
            r.pump(0.01)
        screens = [r.screen.text() for r in runs]
        if all(w is None or w in s for w, s in zip(wants, screens)):
            return screens
        if time.monotonic() > end:
            raise AssertionError("waiting for %r; screens:\n%s" % (
                wants, "\n----\n".join(
                    "\n".join(line for line in s.split("\n") if line.strip())
                    for s in screens)))
