"""tools/pbrain.py in its own process, talked to as a Gomocup manager does."""
import os
import select
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


class Pbrain:
    def __init__(self, *args):
        # as a Gomocup manager runs it: no PYTHONUNBUFFERED, so an answer
        # the brain does not flush itself never arrives
        env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "tools" / "pbrain.py"), *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            bufsize=0, env=env)
        self.buf = b""

    def send(self, *lines):
        self.proc.stdin.write("".join(ln + "\n" for ln in lines).encode())
        self.proc.stdin.flush()

    def read(self, timeout=30):
        """The next answer line; fails if none comes (every line is flushed)."""
        end = time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = end - time.monotonic()
            r, _, _ = select.select([self.proc.stdout], [], [], max(left, 0))
            assert r, "no answer within %ss; so far %r" % (timeout, self.buf)
            data = os.read(self.proc.stdout.fileno(), 4096)
            assert data, "brain exited: %r" % self.proc.stderr.read()
            self.buf += data
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode().rstrip("\r")

    def ask(self, *lines):
        self.send(*lines)
        return self.read()

    def silent(self, wait=0.3):
        """True if the brain says nothing more for `wait` seconds."""
        r, _, _ = select.select([self.proc.stdout], [], [], wait)
        return not r and b"\n" not in self.buf

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            f.close()
