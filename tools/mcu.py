"""The emulated BBC micro:bit: MicroPython 1.9.2 on qemu-system-arm -M microbit.

A reusable API and a CLI.

    with MicroBit() as mb:               # boots qemu, enters the raw REPL
        mb.put("gomoku.py", text)        # a file on the micro:bit's flash
        mb.soft_reset()                  # fresh heap (files stay)
        mb.call("import gomoku")         # short statement at the REPL's top level
        print(mb.exec("print(gomoku.FREESTYLE)"))  # stdout; MicroBitError if it raised
        print(mb.mem_free())

    python tools/mcu.py game --level 1 [--rule 0] [--opening N] [--engine DIR]
    python tools/mcu.py margins [--rule 4] [--opening N]
    python tools/mcu.py exec "print(1+1)" [--put file.py ...]

`game` uploads the engine (the modules gomoku and ai import at top level,
as device_source makes them: comments and docstrings gone, constants
folded, names short; modules the game imports later are found by
playing) and a small driver with the game's arguments written in, imports
the driver and then the engine module by module (largest first) measuring
the heap, plays one level-N game on the board with the heap locked around
every best_move, and prints a JSON report (moves, per-move ms, median, max,
heap figures, winner, errors). `margins` finds by bisection how much more
heap (one block) and how many more nested Python calls a game could take.

How it talks to the board. The REPL is on the emulated UART (qemu's stdio,
no monitor mux, so Ctrl-A reaches the guest). The guest loses UART input
that comes faster than it reads it, whatever the pacing (qemu hands over
whatever has queued in the pipe): only flow control is safe. So the raw
REPL (Ctrl-A; Ctrl-D runs; 'OK' stdout '\\x04' stderr '\\x04>') gets one
fixed short command, `exec(eval(input('\\x05')))`, and the code follows as
one ascii() line read by input(): readline echoes every character; the host
keeps at most WINDOW bytes unechoed (32 measured safe, 64 loses bytes, ~6 KB/s
either way) and checks the echo, aborting and re-sending on a mismatch.
Files go the same way, a line at a time. Measured facts of this board:
- exec() itself takes ~470 bytes of the 1.8 KB C stack: call() runs short
  statements at the top level, as a device's main.py would;
- input() keeps its last 8 lines (readline history) on the heap: measurements
  first flush it with 8 one-character lines;
- the flash file system holds about 15 KB in all (a fill test), and a full
  one may lose other files;
- guest time is an instruction count (`-icount shift=6`, ~15.6 MHz), so
  utime.ticks_us figures repeat to within a fraction of a percent;
- importing a module takes ~2 KB of scratch heap beyond what it keeps, and
  its largest functions need free blocks as large: the fuller and more
  fragmented the heap, the likelier an import fails;
- the C stack (1.8 KB, ~0.5 KB used at the REPL prompt) holds only about
  five nested Python calls: a call takes 200-240 bytes, more under
  heap_lock, which puts the frames that would go on the heap there too.
"""
import argparse
import ast
import io
import json
import os
import random
import re
import select
import subprocess
import sys
import time
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "firmware" / "engine"
FIRMWARE_HEX = "/usr/share/firmware-microbit-micropython/firmware.hex"
QEMU = "qemu-system-arm"

WINDOW = 16          # unechoed bytes in flight (the guest's ring is small)
LINE = 96            # characters of a file per input() line
PROMPT = b"\x05"     # input() prompt that says "send the next line"
COMMAND = b"exec(eval(input('\\x05')))"


class MicroBitError(Exception):
    """Code raised on the micro:bit; .traceback holds the guest's text."""

    def __init__(self, traceback, code="", output=""):
        self.traceback = traceback
        self.code = code
        self.output = output
        super().__init__("micro:bit raised:\n" + traceback.rstrip())


class LinkError(Exception):
    """The UART link misbehaved (timeout, lost bytes, qemu died)."""


def _garbled(traceback, expr):
    """Did the guest raise because `expr` lost bytes on the way?"""
    lines = traceback.strip().splitlines()
    if len(lines) < 2 or 'File "<stdin>"' not in lines[-2] \
            or sum("File " in ln for ln in lines) != 1:
        return False
    last = lines[-1]
    if last.startswith("SyntaxError"):
        return True
    if last.startswith("NameError"):
        name = last.split("'")[1] if last.count("'") >= 2 else ""
        return name not in expr.replace("(", " ").replace(")", " ").replace("*", " ").split()
    return False


def _interrupted(traceback):
    """Did a Ctrl-C of an earlier abort reach the guest late? It stops the
    command before its input(), so none of the caller's code ran (seen with
    the host loaded: the guest took the Ctrl-C seconds after it was sent)."""
    lines = traceback.strip().splitlines()
    return bool(lines) and lines[-1].startswith("KeyboardInterrupt")


def _file_lines(text):
    """The input() lines that carry `text` to put()'s loader."""
    out = []
    pos = 0
    while pos < len(text):
        end = text.find("\n", pos, pos + LINE + 1)
        piece = text[pos:end if end >= 0 else pos + LINE]
        plain = all(32 <= ord(c) < 127 for c in piece)
        if not plain:
            piece = piece[:LINE // 4]       # escapes can take 4 characters each
            out.append(ascii(piece + ("\n" if end == pos + len(piece) else ""))
                       .encode("ascii"))
            pos += len(piece) + (1 if end == pos + len(piece) else 0)
        elif end >= 0 and end == pos + len(piece):
            out.append(b"+" + piece.encode("ascii"))
            pos = end + 1
        else:
            out.append(b"=" + piece.encode("ascii"))
            pos += len(piece)
    return out


class MicroBit:
    """One emulated micro:bit running MicroPython 1.9.2, in the raw REPL."""

    def __init__(self, firmware=FIRMWARE_HEX, qemu=QEMU, icount=6,
                 boot_timeout=30.0, timeout=120.0):
        self.firmware = firmware
        self.qemu = qemu
        self.icount = icount
        self.boot_timeout = boot_timeout
        self.timeout = timeout
        self.proc = None
        self._buf = b""
        self.retries = 0        # commands re-sent after a lost byte
        self.retry_log = []     # why (the LinkError messages)
        self.window = WINDOW
        self._helper = False    # _mf() defined on the board (see mem_free)

    # -- life cycle -------------------------------------------------------
    def start(self):
        if not Path(self.firmware).exists():
            raise LinkError("micro:bit firmware not found: %s (apt-get install "
                            "firmware-microbit-micropython)" % self.firmware)
        cmd = [self.qemu, "-M", "microbit", "-device",
               "loader,file=" + self.firmware, "-display", "none",
               "-monitor", "none", "-serial", "stdio",
               "-icount", "shift=%d" % self.icount]
        try:
            self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, bufsize=0)
        except FileNotFoundError:
            raise LinkError("%s not found (apt-get install qemu-system-arm)"
                            % self.qemu) from None
        try:
            self._read_until(b">>> ", self.boot_timeout)
            self._enter_raw()
        except BaseException:           # no emulator left running
            self.close()
            raise
        return self

    def close(self):
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            for f in (self.proc.stdin, self.proc.stdout):
                f.close()
            self.proc = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()

    # -- raw UART ---------------------------------------------------------
    def _write(self, data):
        try:
            self.proc.stdin.write(data)
        except (BrokenPipeError, OSError):
            raise LinkError("qemu exited") from None

    def _pump(self, wait):
        """Read what the guest sent within `wait` seconds into the buffer."""
        fd = self.proc.stdout.fileno()
        r, _, _ = select.select([fd], [], [], wait)
        if r:
            data = os.read(fd, 65536)
            if not data:
                raise LinkError("qemu exited; output so far: %r" % self._buf[-300:])
            self._buf += data

    def _read_until(self, marker, timeout):
        """Bytes up to and including `marker` (or the first of a tuple)."""
        markers = marker if isinstance(marker, tuple) else (marker,)
        end = time.monotonic() + timeout
        while not any(m in self._buf for m in markers):
            left = end - time.monotonic()
            if left <= 0:
                raise LinkError("timeout waiting for %r; got %r"
                                % (marker, self._buf[-300:]))
            self._pump(min(left, 0.5))
        i = min(self._buf.index(m) + len(m) for m in markers if m in self._buf)
        out, self._buf = self._buf[:i], self._buf[i:]
        return out

    def _enter_raw(self):
        self._buf = b""
        self._write(b"\r\x03\x03\x01")
        self._read_until(b"raw REPL; CTRL-B to exit\r\n>", 5)

    def _send_echoed(self, line):
        """Send one input() line (printable ASCII), checking its echo."""
        data = line + b"\r"
        expect = line + b"\r\n"
        sent = seen = 0
        end = time.monotonic() + max(10.0, len(data) / 200.0)
        while seen < len(expect):
            if sent < len(data) and sent - seen < self.window:
                n = min(len(data) - sent, self.window - (sent - seen))
                self._write(data[sent:sent + n])
                sent += n
            self._pump(0.002 if sent < len(data) else 0.05)
            if self._buf:
                got = self._buf[:len(expect) - seen]
                want = expect[seen:seen + len(got)]
                if got != want:
                    i = next(k for k in range(len(got)) if got[k] != want[k])
                    raise LinkError("echo mismatch at byte %d: sent %r, got %r"
                                    % (seen + i, want[max(0, i - 8):i + 12],
                                       got[max(0, i - 8):i + 12]))
                seen += len(got)
                self._buf = self._buf[len(got):]
            if time.monotonic() > end:
                raise LinkError("echo timeout after %d of %d bytes" % (seen, len(expect)))

    def _abort(self):
        """Give up on a half-sent command: back to an empty raw REPL prompt.

        Ctrl-C raises KeyboardInterrupt in running code (the guest takes it
        out of the input stream) but does not end a pending input(); the CR
        does. In the raw REPL's own input Ctrl-C clears the line.
        """
        for _ in range(10):
            self._write(b"\x03\r")
            time.sleep(0.1)
            self._pump(0.2)
            if b"\x04>" in self._buf:
                break
        self._write(b"\x03")
        time.sleep(0.05)
        self._pump(0.05)
        self._buf = b""
        self._write(b"\x01")
        self._read_until(b"raw REPL; CTRL-B to exit\r\n>", 5)

    def _begin(self, code):
        """Start running `code` (a str); return once the guest has it all."""
        payload = ascii(code).encode("ascii")
        for attempt in range(5):
            try:
                self._buf = b""
                self._write(COMMAND + b"\x04")
                head = self._read_until((PROMPT, b"\x04>"), 5)
                if head.endswith(b"\x04>"):       # it raised before input()
                    tb = head.split(b"\x04")[-2].decode("utf-8", "replace")
                    tb = tb.replace("\r\n", "\n")
                    if not (_garbled(tb, COMMAND.decode()) or _interrupted(tb)):
                        raise MicroBitError(tb, code)
                    raise LinkError("garbled start: %r" % head)
                if not head.endswith(b"OK" + PROMPT):
                    raise LinkError("bad start: %r" % head)
                self._send_echoed(payload)
                return
            except LinkError as e:
                if self.proc.poll() is not None or attempt == 4:
                    raise
                self.retries += 1
                self.retry_log.append("exec: %s" % e)
                self._abort()

    def _finish(self, timeout, code=""):
        out = self._read_until(b"\x04", timeout)[:-1]
        err = self._read_until(b"\x04>", 10)[:-2]
        text = out.decode("utf-8", "replace").replace("\r\n", "\n")
        if err:
            raise MicroBitError(err.decode("utf-8", "replace").replace("\r\n", "\n"),
                                code, text)
        return text

    # -- API --------------------------------------------------------------
    def exec(self, code, timeout=None, flush=False):
        """Run `code` in the board's __main__; return its stdout.

        Raises MicroBitError (with the guest's traceback) if it raised.
        Keep code small: its source and bytecode share the ~9 KB heap.
        input() keeps a copy of its last 8 lines (readline history), so the
        source of recent exec() calls stays on the heap; flush=True first
        pushes it out with 8 one-character lines (a constant 128 bytes).
        """
        if flush:
            code = "for _ in '01234567':input('\\x05')\n" + code
        self._begin(code)
        if flush:
            for c in b"01234567":
                self._read_until(PROMPT, 10)
                self._send_echoed(bytes([c]))
        return self._finish(self.timeout if timeout is None else timeout, code)

    def flush_history(self):
        """Free the heap copies of recent exec() sources (see exec)."""
        self.exec("", flush=True)

    def call(self, expr, timeout=None):
        """Run a short statement (<= 24 characters) at the raw REPL's top level.

        exec() runs code inside exec(), which takes about 470 of the 1.8 KB C
        stack; use call() for what must see the stack a device's main.py
        sees: define a function with exec(), then call("_f()"). Sent
        without the echo check (too short for the guest to drop bytes in
        practice); a garbled command is recognised and sent again.
        """
        if len(expr) > 24 or not all(32 <= ord(c) < 127 for c in expr):
            raise ValueError("call() takes a short printable expression, not %r" % expr)
        for attempt in range(5):
            self._buf = b""
            self._write(expr.encode("ascii") + b"\x04")
            try:
                self._read_until(b"OK", 3)
            except LinkError as e:
                if self.proc.poll() is not None or attempt == 4:
                    raise
                self.retries += 1
                self.retry_log.append("call %s: %s" % (expr, e))
                self._abort()
                continue
            try:
                return self._finish(self.timeout if timeout is None else timeout, expr)
            except MicroBitError as e:
                if attempt == 4 or not _garbled(e.traceback, expr):
                    raise
                self.retries += 1
                self.retry_log.append("call %s: garbled? %s" % (expr, e.traceback[-80:]))
        raise LinkError("call(%r) failed" % expr)

    def eval(self, expr, timeout=None):
        """The value of a Python literal expression evaluated on the board."""
        return ast.literal_eval(self.exec("print(repr(%s))" % expr, timeout).strip())

    def put(self, name, text):
        """Write `text` to file `name` on the board's flash (replaces it)."""
        for attempt in range(4):
            try:
                self._put(name, text)
                break
            except LinkError as e:
                if self.proc.poll() is not None or attempt == 3:
                    raise
                self.retries += 1
                self.retry_log.append("put %s: %s" % (name, e))
                self._abort()
                self.exec("try:\n f.close()\nexcept:\n pass")
        size = self.eval("__import__('os').size(%r)" % name)
        want = len(text.encode("utf-8"))
        if size != want:
            raise LinkError("%s: %d bytes on the board, %d sent" % (name, size, want))

    def _put(self, name, text):
        # A line is '+text' (write text and a newline), '=text' (write text)
        # for printable ASCII, or an ascii() literal for anything else; ''
        # ends the file. Most lines thus need no parser on the board.
        loader = ("f=open(%r,'w')\nwhile 1:\n l=input('\\x05')\n if not l:break\n"
                  " c=l[0]\n if c=='+':f.write(l[1:]);f.write('\\n')\n"
                  " elif c=='=':f.write(l[1:])\n else:f.write(eval(l))\n"
                  "f.close()\ndel f,l,c" % name)
        self._begin(loader)
        for line in _file_lines(text) + [b""]:
            head = self._read_until((PROMPT, b"\x04>"), 30)
            if not head.endswith(PROMPT):   # the guest raised (e.g. flash full)
                self._buf = head + self._buf
                try:
                    self._finish(5, loader)
                except MicroBitError as e:
                    if name in self.listdir():
                        self.remove(name)
                    full = " (the flash file system is full)" if "OSError: 28" in \
                        e.traceback else ""
                    raise MicroBitError("writing %s failed%s:\n%s"
                                        % (name, full, e.traceback), loader) from None
                raise LinkError("%s: writing stopped early: %r" % (name, head[-200:]))
            self._send_echoed(line)
        self._finish(30, loader)
        self.flush_history()

    def get(self, name):
        """The text of file `name` on the board."""
        out = self.exec("f=open(%r)\nwhile 1:\n s=f.read(64)\n if not s:break\n"
                        " print(repr(s))\nf.close()\ndel f,s" % name)
        return "".join(ast.literal_eval(ln) for ln in out.splitlines() if ln)

    def listdir(self):
        return self.eval("__import__('os').listdir()")

    def remove(self, name):
        self.exec("__import__('os').remove(%r)" % name)

    def soft_reset(self):
        """Soft reboot: clears the heap and all state (files stay)."""
        self._buf = b""
        self._helper = False
        self._write(b"\x04")
        self._read_until(b"soft reboot\r\nraw REPL; CTRL-B to exit\r\n>", 10)

    def mem_free(self):
        """Free heap in bytes after a collection.

        Measured by a small helper (_mf, defined once after each reset) run
        at the top level, so that measuring allocates next to nothing and
        does not fragment the heap between measurements.
        """
        if not self._helper:
            self.exec("import gc,micropython\ndef _mf():\n gc.collect()\n"
                      " print(gc.mem_free())", flush=True)
            self._helper = True
        return int(self.call("_mf()"))

    def largest_free_block(self):
        """The largest contiguous free heap block in bytes (after a collection)."""
        self.mem_free()
        out = self.call("micropython.mem_info()")
        m = re.search(r"max free sz: (\d+)", out)
        if not m:
            raise LinkError("no 'max free sz' in mem_info(): %r" % out)
        return int(m.group(1)) * 16         # 16-byte blocks on a 32-bit port


# -- uploading modules ------------------------------------------------------
def strip_source(text):
    """`text` without comments and docstrings, with the same line numbers.

    What mpy-cross would drop: MicroPython 1.9.2 cannot load today's .mpy
    files, and a docstring is parsed into a heap string while importing.
    """
    starts = [0]
    for ln in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(ln))
    toks = [t for t in tokenize.generate_tokens(io.StringIO(text).readline)
            if t.type != tokenize.NL]
    cuts = []
    for i, tok in enumerate(toks):
        if tok.type == tokenize.COMMENT:
            cuts.append((tok.start, tok.end, ""))
        elif (tok.type == tokenize.STRING
              and (i == 0 or toks[i - 1].type in (tokenize.NEWLINE, tokenize.INDENT,
                                                  tokenize.DEDENT, tokenize.COMMENT))
              and i + 1 < len(toks)
              and toks[i + 1].type in (tokenize.NEWLINE, tokenize.COMMENT)):
            cuts.append((tok.start, tok.end, "0" + "\n" * (tok.end[0] - tok.start[0])))
    out = text
    for (r0, c0), (r1, c1), rep in reversed(cuts):
        out = out[:starts[r0 - 1] + c0] + rep + out[starts[r1 - 1] + c1:]
    out = _compact_indent("\n".join(ln.rstrip() for ln in out.split("\n")))
    compile(out, "<stripped>", "exec")
    return out


# Names a function's locals are renamed to on the board, in this order: all
# are already qstrs in the micro:bit firmware's ROM (found by interning each
# on the board and watching micropython.qstr_info()), so a local costs no heap.
SHORT_NAMES = ("b c d e f g n r key end sep on off value index count find sort copy "
               "clear keys items remove insert extend split join strip upper lower "
               "send close choice step start stop args buf data show read write get "
               "add pitch text delay wait loop speed length queue address group "
               "config mode freq width height crop fill name size").split()


def device_source(text, name=None, engine=ENGINE):
    """What the board gets of engine module `name`: strip_source; private
    integer constants (`_NAME = 40`, assigned once) folded into their uses,
    as const() would; private module names and every function's locals
    renamed to SHORT_NAMES (but names the other modules of `engine`
    import). MicroPython 1.9.2 keeps every identifier it has
    lexed as a qstr on the heap (~16 bytes each, never freed) unless the
    firmware has it in ROM already, as it has every SHORT_NAMES. The same
    behaviour: a test plays the result on CPython against the original."""
    text = strip_source(text)
    if name:
        text = shorten_privates(fold_constants(text, name, engine), name, engine)
    return squeeze(shorten_locals(text))


def imported_names(module, engine=ENGINE):
    """Names other engine modules take from `module`: `from module import
    x`, `module.x`, `alias.x` after `import module as alias`."""
    names = set()
    for path in sorted(engine.glob("*.py")):
        if path.stem == module:
            continue
        tree = ast.parse(path.read_text())
        aliases = {module}
        for n in ast.walk(tree):
            if isinstance(n, ast.ImportFrom) and n.module == module:
                names |= {a.name for a in n.names}
            elif isinstance(n, ast.Import):
                aliases |= {a.asname for a in n.names if a.name == module and a.asname}
        names |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)
                  and isinstance(n.value, ast.Name) and n.value.id in aliases}
    return names


def shorten_privates(text, module, engine=ENGINE):
    """`text` (module `module`) with its private module-level names (`_name`,
    bound at module level, that no other engine module imports from it)
    renamed to SHORT_NAMES the module does not use otherwise."""
    tree = ast.parse(text)
    bound = []
    imported = {a.asname or a.name for n in ast.walk(tree)
                if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}
    for st in tree.body:
        for n in ast.walk(st) if not isinstance(st, (ast.FunctionDef, ast.ClassDef)) else [st]:
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                bound.append(n.id)
            elif isinstance(n, (ast.FunctionDef, ast.ClassDef)):
                bound.append(n.name)
            elif isinstance(n, (ast.Import, ast.ImportFrom)):
                bound += [x.asname or x.name for x in n.names]
    taken = imported_names(module, engine) | imported
    private = [b for b in dict.fromkeys(bound) if re.fullmatch(r"_[A-Za-z]\w*", b)
               and b not in taken]
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    used |= {n.arg for n in ast.walk(tree) if isinstance(n, ast.arg)}
    used |= {a.asname or a.name for n in ast.walk(tree)
             if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}
    free = iter(x for x in SHORT_NAMES if x not in used)
    new = {old: next(free) for old in private}
    if not new:
        return text
    toks = list(tokenize.generate_tokens(io.StringIO(text).readline))
    return _edit(text, [(t.start, t.end, new[t.string]) for i, t in enumerate(toks)
                        if t.type == tokenize.NAME and t.string in new
                        and not (i and toks[i - 1].string == ".")])


def _edit(text, edits):
    """`text` with each (start, end, new) token span replaced (spans on one
    line, in order); the result must still compile."""
    lines = text.split("\n")
    for (r, c0), (_, c1), new in reversed(edits):
        lines[r - 1] = lines[r - 1][:c0] + new + lines[r - 1][c1:]
    out = "\n".join(lines)
    compile(out, "<device source>", "exec")
    return out


def squeeze(text):
    """`text` without the spaces inside a line that no token needs (`a = b + 1`
    becomes `a=b+1`): the micro:bit's flash file system holds ~15 KB."""
    word = (tokenize.NAME, tokenize.NUMBER, tokenize.STRING)
    toks = [t for t in tokenize.generate_tokens(io.StringIO(text).readline)
            if t.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT,
                              tokenize.DEDENT, tokenize.ENDMARKER, tokenize.COMMENT)]
    cuts = []
    for a, b in zip(toks, toks[1:]):
        if a.end[0] == b.start[0] and b.start[1] > a.end[1]:
            keep = 1 if a.type in word and b.type in word else 0
            if b.start[1] - a.end[1] > keep:
                cuts.append(((a.end[0], a.end[1] + keep), b.start, ""))
    return _edit(text, cuts)


def _int_value(node):
    """The int of `<int>` or `const(<int>)`, else None."""
    if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "const"
            and len(node.args) == 1 and not node.keywords):
        node = node.args[0]
    return node.value if isinstance(node, ast.Constant) else None


def fold_constants(text, module, engine=ENGINE):
    """`text` (module `module`) with each module-level `_NAME = <int>` or
    `_NAME = const(<int>)` (the name private, upper case, assigned once,
    taken by no other engine module) replaced by its value where it is
    read, and the assignment made a bare 0 (the line numbers stay)."""
    tree = ast.parse(text)
    taken = imported_names(module, engine)
    stores = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            stores[n.id] = stores.get(n.id, 0) + 1
    consts = {}
    for st in tree.body:
        if (isinstance(st, ast.Assign) and len(st.targets) == 1
                and isinstance(st.targets[0], ast.Name)
                and re.fullmatch(r"_[A-Z][A-Z0-9_]*", st.targets[0].id)
                and stores[st.targets[0].id] == 1 and st.targets[0].id not in taken
                and type(_int_value(st.value)) is int):
            consts[st.targets[0].id] = (st.lineno, _int_value(st.value))
    if not consts:
        return text
    lines = text.split("\n")
    toks = list(tokenize.generate_tokens(io.StringIO(text).readline))
    edits = []
    for i, tok in enumerate(toks):
        if tok.type != tokenize.NAME or tok.string not in consts or (
                i and toks[i - 1].string == "."):
            continue
        row, value = consts[tok.string]
        if tok.start[0] == row and tok.start[1] == 0:
            edits.append((tok.start, (row, len(lines[row - 1])), "0"))
        else:
            edits.append((tok.start, tok.end, str(value)))
    return _edit(text, edits)


def shorten_locals(text):
    """`text` with each function's parameters (but those with a default)
    and assigned locals renamed to the first SHORT_NAMES the function does
    not use otherwise. Functions holding a def, lambda, class, global,
    nonlocal or except-as are left alone, and so are imported names,
    keyword arguments and attributes."""
    tree = ast.parse(text)
    renames = []                     # (first row, last row, {old: new})
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        inner = [n for n in ast.walk(fn) if n is not fn]
        if any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef,
                              ast.Global, ast.Nonlocal))
               or isinstance(n, ast.ExceptHandler) and n.name for n in inner):
            continue
        a = fn.args
        params = [x.arg for x in a.posonlyargs + a.args]
        # a parameter with a default may be passed by keyword (Game(rule=4)):
        # it keeps its name
        keep = {x.arg for x in (a.posonlyargs + a.args)[len(a.posonlyargs + a.args)
                                                       - len(a.defaults):]}
        keep |= {x.arg for x in a.kwonlyargs} | {x.arg for x in (a.vararg, a.kwarg) if x}
        stored = [n.id for n in inner if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]
        local = [x for x in dict.fromkeys(params + stored) if x not in keep]
        free = {n.id for n in inner if isinstance(n, ast.Name)} - set(local)
        free |= {(x.asname or x.name).split(".")[0] for n in inner
                 if isinstance(n, (ast.Import, ast.ImportFrom)) for x in n.names}
        free |= {k.arg for n in inner if isinstance(n, ast.Call) for k in n.keywords if k.arg}
        names = iter(x for x in SHORT_NAMES if x not in free)
        renames.append((fn.lineno, fn.end_lineno, {old: next(names) for old in local}))
    toks = list(tokenize.generate_tokens(io.StringIO(text).readline))
    edits = []
    for i, tok in enumerate(toks):
        if tok.type != tokenize.NAME or (i and toks[i - 1].string == "."):
            continue
        row = tok.start[0]
        inside = [m for r0, r1, m in renames if r0 <= row <= r1 and tok.string in m]
        if not inside or (i + 1 < len(toks) and toks[i + 1].string == "=" and _in_call(toks, i)):
            continue
        # the innermost function that has this name (functions do not nest here)
        edits.append((tok.start, tok.end, inside[-1][tok.string]))
    return _edit(text, edits)


def _in_call(toks, i):
    """Is the NAME at toks[i], followed by '=', a keyword argument of a call
    (not a parameter default in a def)?"""
    depth = 0
    for j in range(i - 1, -1, -1):
        t = toks[j]
        if t.string in ")]}":
            depth += 1
        elif t.string in "([{":
            if not depth:
                return not (t.string == "(" and j > 1 and toks[j - 2].string == "def")
            depth -= 1
        elif t.type == tokenize.NEWLINE:
            return False
    return False


def _compact_indent(text):
    """One space per block level; continuation lines get one space.

    The micro:bit's flash file system holds only about 15 KB in all.
    """
    lines = text.split("\n")
    depth = 0
    indent = {}          # row -> new leading whitespace
    in_string = set()    # rows inside a multi-line string: untouched
    prev = tokenize.NEWLINE
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.INDENT:
            depth += 1
        elif tok.type == tokenize.DEDENT:
            depth -= 1
        elif tok.type in (tokenize.NL, tokenize.COMMENT, tokenize.ENDMARKER):
            continue
        else:
            row = tok.start[0]
            if row not in indent:
                starts = prev in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)
                indent[row] = " " * depth if starts else " "
            if tok.type == tokenize.STRING:
                in_string.update(range(tok.start[0] + 1, tok.end[0] + 1))
            prev = tok.type
    for row, ws in indent.items():
        if row not in in_string:
            lines[row - 1] = ws + lines[row - 1].lstrip()
    return "\n".join(lines)


def _top_imports(path):
    """Modules a file imports at module level (inside try blocks too)."""
    names = []
    stack = list(ast.parse(path.read_text(), str(path)).body)
    while stack:
        node = stack.pop(0)
        if isinstance(node, ast.Import):
            names += [a.name.split(".")[0] for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.append(node.module.split(".")[0])
        elif isinstance(node, (ast.Try, ast.If)):
            stack += node.body + node.orelse + [s for h in getattr(node, "handlers", [])
                                                for s in h.body]
    return names


def engine_modules(entry=("gomoku", "ai"), engine=ENGINE):
    """Engine modules the entry modules import at top level, in import order.

    Only module-level imports count: what a level needs beyond level 1 is
    imported inside functions, when asked for, and is not uploaded. Each
    module comes after its dependencies; of those ready, the largest (its
    stripped source) first: compiling takes ~2 KB of scratch heap and the
    largest functions need the largest free blocks, both easier to find
    while the heap is still empty.
    """
    deps = {}

    def visit(name, chain):
        path = engine / (name + ".py")
        if name in deps or name in chain or not path.exists():
            return
        found = _top_imports(path)
        for dep in found:
            visit(dep, chain + (name,))
        deps[name] = [d for d in found if (engine / (d + ".py")).exists() and d != name]

    for name in entry:
        if not (engine / (name + ".py")).exists():
            raise FileNotFoundError("engine module %s.py missing in %s" % (name, engine))
        visit(name, ())
    size = {n: len(device_source((engine / (n + ".py")).read_text(), n, engine))
            for n in deps}
    order = []
    while len(order) < len(deps):
        ready = [n for n in deps if n not in order
                 and all(d in order or d not in deps for d in deps[n])]
        if not ready:       # an import cycle: the first one found goes first
            ready = [n for n in deps if n not in order][:1]
        order.append(max(ready, key=lambda n: size[n]))
    return order


# -- a level-N game on the board ---------------------------------------------
# A module on the board, imported before the engine, as a device's main.py
# is (an import streams the file through the parser: far less heap than
# exec of its source). The game's arguments are written into it, so that
# nothing is compiled between the engine's import and the game. One line
# a move: "<move> <us> <free heap>", then "W <winner>". The heap is locked
# only around best_move: an allocation there raises MemoryError, which ends
# the game with a traceback (the finally unlocks, so the board stays usable);
# an illegal move raises ValueError from play().
DRIVER = "mcudrv"
DRIVER_SOURCE = """\
import gc,utime,micropython as u
def game():
 import gomoku,ai
{hold} g=gomoku.Game({rule})
 for m in {opening}:g.play(m%15,m//15)
 while g.winner==0:
  gc.collect()
  f=gc.mem_free()
  u.heap_lock()
  try:
   t=utime.ticks_us()
   m=ai.best_move(g,{level})
   t=utime.ticks_diff(utime.ticks_us(),t)
  finally:
   u.heap_unlock()
  print(m,t,f)
  g.play(m%15,m//15)
 print('W',g.winner)
"""


def driver_source(rule, level, op, ballast=0, depth=0):
    """The driver module for one game: rule, level and opening written in.

    ballast: bytes the game holds on the heap from its start (a bytearray);
    depth: Python calls nested under the game (deep(n)), each a frame on the
    C stack. Both 0 for a plain game; margins() raises them until it fails.
    """
    src = DRIVER_SOURCE.format(rule=rule, level=level, opening=tuple(op),
                               hold=" b=bytearray(%d)\n" % ballast if ballast else "")
    if depth:
        src += "def deep(n):\n return deep(n-1) if n>1 else game()\n"
    return src


def opening(seed, stones=4):
    """A short fixed opening near the centre, different for each seed."""
    if seed == 0:
        return []
    rnd = random.Random(seed)
    moves = [7 * 15 + 7]
    while len(moves) < stones:
        x, y = rnd.randint(4, 10), rnd.randint(4, 10)
        if y * 15 + x not in moves:
            moves.append(y * 15 + x)
    return moves


def host_engine():
    """Make the engine's modules importable on CPython (as on a device, from
    one flat folder)."""
    if str(ENGINE) not in sys.path:
        sys.path.insert(0, str(ENGINE))


def _host_draws(moves):
    """The renju game `moves` (points) ends drawn on CPython's engine."""
    host_engine()
    import gomoku
    g = gomoku.Game(gomoku.RENJU)
    try:
        for m in moves:
            g.play(m % 15, m // 15)
    except ValueError:
        return False
    return g.winner == 3


def check_game(rule, op, moves, winner):
    """Replay on a plain host board: every move on an empty point, and the
    final move makes the claimed five (a freestyle/standard check; renju
    forbidden points are the engine's own tests' job). Returns problems."""
    board = {}
    problems = []
    for i, m in enumerate(op + moves):
        if not (0 <= m < 225):
            problems.append("move %d off board: %r" % (i, m))
            return problems
        if m in board:
            problems.append("move %d on occupied point %d,%d" % (i, m % 15, m // 15))
            return problems
        board[m] = 1 + i % 2
    if winner in (1, 2):
        last = (op + moves)[-1]
        colour = board[last]
        if colour != winner:
            problems.append("winner %d but the last stone is colour %d" % (winner, colour))
        x0, y0 = last % 15, last // 15
        best = 0
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            n = 1
            for s in (1, -1):
                x, y = x0 + s * dx, y0 + s * dy
                while 0 <= x < 15 and 0 <= y < 15 and board.get(y * 15 + x) == colour:
                    n += 1
                    x, y = x + s * dx, y + s * dy
            if rule == 0 and n >= 5 or n == 5 or (rule == 4 and colour == 2 and n >= 5):
                best = n
        if not best:
            problems.append("winner %d claimed without a winning line" % winner)
    elif winner == 3 and len(board) != 225 and not (rule == 4 and _host_draws(op + moves)):
        # short of a full board only renju draws: black to move and every
        # free point forbidden to it, which the host's engine judges
        problems.append("draw claimed with %d stones on the board" % len(board))
    elif winner == 0:
        problems.append("game did not finish")
    return problems


def play_game(level=1, rule=0, seed=1, strip=True, mb=None, engine=ENGINE, ballast=0,
              depth=0, import_ballast=0, imports_only=False):
    """Upload the engine, soft-reset, play one game on the board: a report dict.

    import_ballast: bytes held on the heap (a bytearray) while the engine's
    modules compile on import; imports_only: stop after the imports (the
    report then has no moves).

    Uploaded: the modules gomoku and ai import at top level (imported one at
    a time, each one's heap cost measured), plus any engine module the game
    itself imports when it needs it (renju for the renju rule, say): found
    by playing, on "no module named", then uploaded and the game replayed.
    """
    own = mb is None
    mb = mb or MicroBit().start()
    try:
        lazy = []
        while True:
            report = _play_game(level, rule, seed, strip, mb, engine, lazy, ballast, depth,
                                import_ballast, imports_only)
            m = re.search(r"ImportError: no module named '(\w+)'", report["error"] or "")
            if not m or m.group(1) in lazy or not (engine / (m.group(1) + ".py")).exists():
                return report
            lazy += [n for n in engine_modules((m.group(1),), engine) if n not in lazy]
    finally:
        if own:
            mb.close()


def last_passing(fails, hi, step):
    """The largest hold, a multiple of `step` below `hi`, under which
    fails(hold) is false, found by bisection (a larger hold taken to fail
    as a smaller one does); -1 when the plain game, fails(0), fails."""
    lo = 0
    if fails(0):
        return -1
    while hi - lo > step:
        mid = (lo + hi) // 2 // step * step
        if fails(mid):
            hi = mid
        else:
            lo = mid
    return lo


def margins(level=1, rule=0, seed=1, mb=None, engine=ENGINE):
    """How far a game is from failing: {"heap_bytes": the largest block the
    game can hold on top (16-byte steps), "stack_frames": the most Python
    calls it can run under}, each found by bisection over whole games;
    "import_bytes": the largest block up to which every hold, in 16-byte
    steps, lets the engine compile on import (not a bisection: where the
    compiler's blocks land moves with the hold, so a hold that fails can
    have larger ones that pass). -1: the plain game fails."""
    own = mb is None
    mb = mb or MicroBit().start()

    def fails(**kw):
        rep = play_game(level, rule, seed, mb=mb, engine=engine, **kw)
        if rep["error"] and not (rep["memory_error"] or "RuntimeError" in rep["error"]):
            raise MicroBitError(rep.get("traceback") or rep["error"])
        return bool(rep["error"] or rep["problems"])

    try:
        found = {"heap_bytes": last_passing(lambda n: fails(ballast=n), 4096, 16),
                 "stack_frames": last_passing(lambda n: fails(depth=n), 64, 1)}
        hold = 0
        while hold < 4096 and not fails(import_ballast=hold + 16, imports_only=True):
            hold += 16
        found["import_bytes"] = hold if found["heap_bytes"] >= 0 else -1
        return found
    finally:
        if own:
            mb.close()


def _play_game(level, rule, seed, strip, mb, engine, lazy, ballast=0, depth=0,
               import_ballast=0, imports_only=False):
    names = engine_modules(engine=engine)
    lazy = [n for n in lazy if n not in names]
    report = {"level": level, "rule": rule, "modules": {}, "lazy_modules": lazy,
              "error": None, "memory_error": False, "problems": [], "moves": [],
              "move_ms": [], "heap_locked_moves": 0}
    t0 = time.monotonic()
    mb.soft_reset()
    if DRIVER in names + lazy:
        raise ValueError("an engine module may not be called %s.py" % DRIVER)
    for old in mb.listdir():            # the flash holds only ~15 KB
        if old.endswith(".py") and old[:-3] not in names + lazy + [DRIVER]:
            mb.remove(old)
    for name in names + lazy:
        text = (engine / (name + ".py")).read_text()
        sent = device_source(text, name, engine) if strip else text
        mb.put(name + ".py", sent)
        if name in names:
            report["modules"][name] = {"source_bytes": len(text.encode()),
                                       "uploaded_bytes": len(sent.encode())}
    report["uploaded_bytes"] = sum(mb.eval("__import__('os').size(%r)" % (n + ".py"))
                                   for n in names + lazy)
    op = opening(seed)
    driver = driver_source(rule, level, op, ballast, depth)
    mb.put(DRIVER + ".py", driver)
    report["upload_s"] = round(time.monotonic() - t0, 2)
    mb.soft_reset()
    mb.mem_free()                       # defines the helper
    report["free_at_start"] = free = mb.mem_free()
    try:
        # At the raw REPL's top level (call), as from a device's main.py:
        # the C stack is as deep as it would be there. The driver first, as
        # a main.py is compiled before the engine it imports: a compile
        # needs ~2 KB of scratch heap, best found while the heap is empty.
        report["failed_at"] = "import the %d-byte test driver %s.py" % (
            len(driver), DRIVER)
        mb.call("import " + DRIVER)
        report["driver_bytes"] = free - mb.mem_free()
        if import_ballast:
            report["failed_at"] = "hold %d bytes" % import_ballast
            mb.exec("%s.ballast = bytearray(%d)" % (DRIVER, import_ballast))
        report["free_before_import"] = free = mb.mem_free()
        for name in names:              # one at a time: the cost of each
            report["failed_at"] = "import " + name
            mb.call("import " + name)
            now = mb.mem_free()
            report["modules"][name]["import_bytes"] = free - now
            free = now
        report["free_after_import"] = report["free_before_game"] = free
        report["largest_free_block_before_game"] = mb.largest_free_block()
        del report["failed_at"]
    except MicroBitError as e:
        report["error"] = e.traceback.strip().splitlines()[-1]
        report["traceback"] = e.traceback
        report["memory_error"] = "MemoryError" in e.traceback
        return report
    report["import_bytes"] = report["free_before_import"] - report["free_after_import"]
    if imports_only:
        return report
    report["opening"] = [[m % 15, m // 15] for m in op]
    t0 = time.monotonic()
    try:
        out = mb.call("%s.deep(%d)" % (DRIVER, depth) if depth else "%s.game()" % DRIVER,
                      timeout=1800)
    except MicroBitError as e:
        report["error"] = e.traceback.strip().splitlines()[-1]
        report["traceback"] = e.traceback
        report["memory_error"] = "MemoryError" in e.traceback
        out = e.output
    report["game_s"] = round(time.monotonic() - t0, 2)
    moves, us, free = [], [], []
    winner = 0
    for ln in out.split("\n"):
        f = ln.split(None, 1)
        if not f:
            continue
        if f[0] == "W":
            winner = int(f[1])
        else:
            m, t, fr = map(int, ln.split())
            moves.append(m)
            us.append(t)
            free.append(fr)
    ms = [t / 1000 for t in us]
    report["moves"] = [[m % 15, m // 15] for m in moves]
    report["move_ms"] = [round(t, 1) for t in ms]
    report["median_ms"] = round(sorted(ms)[len(ms) // 2], 1) if ms else None
    report["max_ms"] = round(max(ms), 1) if ms else None
    report["min_free_during_game"] = min(free) if free else None
    report["winner"] = winner
    report["heap_locked_moves"] = len(moves)
    try:
        report["free_at_end"] = mb.mem_free()
    except MicroBitError as e:          # the heap too full to measure it
        report["free_at_end"] = None
        report["error"] = report["error"] or "after the game: " + e.traceback.strip()
        mb.soft_reset()
    report["problems"] = check_game(rule, op, moves, winner)
    report["link_retries"] = mb.retries
    return report


def _stock_level(text):
    if text != "1":
        raise argparse.ArgumentTypeError(
            "%s: only level 1 fits the stock firmware's heap; "
            "tools/mcu_firmware.py game --level 2 plays level 2 frozen in" % text)
    return 1


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("game", help="play a complete game on the micro:bit, print a JSON report")
    g.add_argument("--level", type=_stock_level, default=1,
                   help="1: the higher levels do not fit the stock firmware's "
                        "heap (tools/mcu_firmware.py game plays level 2 frozen in)")
    g.add_argument("--rule", type=int, default=0, choices=(0, 1, 4))
    g.add_argument("--opening", type=int, default=1,
                   help="seed of the fixed 4-stone opening (0: empty board)")
    g.add_argument("--no-strip", action="store_true",
                   help="upload sources as they are (docstrings cost heap on import)")
    g.add_argument("--engine", type=Path, default=ENGINE,
                   help="engine folder (default firmware/engine)")
    m = sub.add_parser("margins", help="heap bytes and Python calls a level-1 game can spare")
    m.add_argument("--rule", type=int, default=4, choices=(0, 1, 4))
    m.add_argument("--opening", type=int, default=4)
    e = sub.add_parser("exec", help="run code on a fresh micro:bit, print its output")
    e.add_argument("code")
    e.add_argument("--put", nargs="*", default=[], help="files to upload first")
    a = ap.parse_args(argv)
    if a.cmd == "game" and not (a.engine / "gomoku.py").is_file():
        ap.error("--engine %s: no gomoku.py there" % a.engine)
    for p in a.put if a.cmd == "exec" else ():
        if not Path(p).is_file():
            ap.error("--put %s: no such file" % p)
    try:
        return _run(a)
    except LinkError as e:          # no qemu or firmware, a link that failed
        print("mcu: %s" % e, file=sys.stderr)
        return 1


def _run(a):
    """The subcommand `a.cmd`, its arguments checked: its exit status."""
    if a.cmd == "game":
        rep = play_game(a.level, a.rule, a.opening, strip=not a.no_strip, engine=a.engine)
        print(json.dumps(rep, indent=1))
        return 1 if rep["error"] or rep["problems"] else 0
    if a.cmd == "margins":
        print(json.dumps(margins(1, a.rule, a.opening)))
        return 0
    with MicroBit() as mb:
        for p in a.put:
            mb.put(Path(p).name, Path(p).read_text())
        if a.put:
            mb.soft_reset()
        try:
            sys.stdout.write(mb.exec(a.code))
        except MicroBitError as err:
            sys.stdout.write(err.traceback)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
