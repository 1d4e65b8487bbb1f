"""Mutation review of tools/mcu.py: the figures a game report gives, and the
failures of the link and the board that must not pass unnoticed.

Board tests play stand-in engines whose cost is known (a move waits a given
guest time, a stone holds a given number of bytes); the others give the
harness a recorded or scripted board.
"""
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import mcu  # noqa: E402
import mcu_firmware  # noqa: E402

from test_mcu import TINY_GOMOKU  # noqa: E402


def stand_in(tmp_path, gomoku_edits, ai_source):
    """An engine folder: TINY_GOMOKU with (old, new) edits, and `ai_source`."""
    text = TINY_GOMOKU
    for old, new in gomoku_edits:
        assert old in text
        text = text.replace(old, new)
    (tmp_path / "gomoku.py").write_text(text)
    (tmp_path / "ai.py").write_text(ai_source)
    return tmp_path


# -- move times and the winner ---------------------------------------------
# Black plays (0,0)..(4,0), white (0,2)..(3,2), after the 4-stone opening of
# seed 1 (all near the centre): black's ninth stone of the game is its five.
SCRIPT = [(x, 0) if i % 2 == 0 else (x, 2) for i, x in
          enumerate([0, 0, 1, 1, 2, 2, 3, 3, 4])]
WAIT_US = (250000, 50000, 120000, 400000, 80000, 300000, 60000, 200000, 150000)

WAITING_AI = """
import utime

SCRIPT = %r
WAIT_US = %r


def best_move(g, level):
    k = g.n - 4
    t = utime.ticks_us()
    while utime.ticks_diff(utime.ticks_us(), t) < WAIT_US[k]:
        pass
    x, y = SCRIPT[k]
    return y * 15 + x
""" % (SCRIPT, WAIT_US)


def test_move_times_are_the_guest_time_in_ms_and_a_five_is_reported(mb, tmp_path):
    """Each move waits a known guest time (ticks_us; guest time is an
    instruction count, so the figures repeat): move_ms is that time in ms
    (1000 us to the ms), median_ms the upper median, max_ms the longest.
    The stand-in declares black the winner on its five, as the report says."""
    engine = stand_in(tmp_path, [("        return self.winner\n",
                                  "        if self.n == 13:\n            self.winner = 1\n"
                                  "        return self.winner\n")], WAITING_AI)
    rep = mcu.play_game(level=1, rule=0, seed=1, mb=mb, engine=engine)
    assert rep["error"] is None, rep.get("traceback")
    assert rep["moves"] == [list(m) for m in SCRIPT]
    assert len(rep["move_ms"]) == len(WAIT_US)
    for ms, us in zip(rep["move_ms"], WAIT_US):
        assert us / 1000 <= ms <= us / 1000 + 1, rep["move_ms"]
    upper_median = sorted(WAIT_US)[len(WAIT_US) // 2] / 1000
    assert upper_median <= rep["median_ms"] <= upper_median + 1
    assert max(WAIT_US) / 1000 <= rep["max_ms"] <= max(WAIT_US) / 1000 + 1
    assert rep["winner"] == 1 and rep["problems"] == []


# -- the free-heap figure ---------------------------------------------------
# A stone holds a 100-byte bytearray until the ninth, which lets all go; every
# play() also leaves 500 bytes of garbage.
HOLDING = [("        self.n = 0\n", "        self.n = 0\n        self.held = []\n"),
           ("        self.n += 1\n",
            "        self.n += 1\n        bytearray(500)\n"
            "        self.held.append(bytearray(100))\n"
            "        if self.n == 9:\n            self.held = []\n"),
           ("self.n == 225", "self.n == 12")]
FIRST_FREE_AI = ("def best_move(g, level):\n    for i in range(225):\n"
                 "        if not g.b[i]:\n            return i\n")


def test_min_free_is_the_lowest_free_heap_after_a_collection(mb, tmp_path):
    """min_free_during_game is the least free heap before any move, each
    taken after a collection: what the game holds at its fullest (eight
    100-byte holds, before the ninth stone frees them), not its garbage
    (500 bytes a stone) nor the free heap at the last move."""
    rep = mcu.play_game(level=1, rule=0, seed=1, mb=mb,
                        engine=stand_in(tmp_path, HOLDING, FIRST_FREE_AI))
    assert rep["error"] is None, rep.get("traceback")
    assert len(rep["moves"]) == 8
    taken = rep["free_before_game"] - rep["min_free_during_game"]
    # eight holds of 100 bytes at least; at most 160 each (the object, the
    # bytes in 16-byte blocks) and the Game with its 225-byte board in 768:
    # less than eight stones' garbage alone
    assert 8 * 100 <= taken < 8 * 160 + 768, rep
    assert rep["free_at_end"] > rep["min_free_during_game"]


# -- a link that stops -------------------------------------------------------
def test_an_echo_that_never_comes_is_a_timeout(mb, monkeypatch):
    """A line sent while the board runs code (it reads no input, so echoes
    nothing) ends in a LinkError after the echo timeout (10 s at least; the
    clock here runs 100 times fast), not in a wait without end."""
    mb.soft_reset()
    mb.exec("def _spin():\n for i in range(10**7):pass")
    mb._buf = b""
    mb._write(b"_spin()\x04")
    mb._read_until(b"OK", 5)

    class Fast:
        start = time.monotonic()

        @staticmethod
        def monotonic():
            return Fast.start + (time.monotonic() - Fast.start) * 100

        sleep = staticmethod(time.sleep)

    monkeypatch.setattr(mcu, "time", Fast)
    t0 = time.monotonic()
    with pytest.raises(mcu.LinkError, match="echo timeout after 0 of"):
        mb._send_echoed(b"print(1)")
    assert time.monotonic() - t0 >= 10 / 100
    monkeypatch.undo()
    mb._write(b"\x03")                      # end the spin
    mb._abort()
    assert mb.eval("6 * 7") == 42


def test_qemu_dying_mid_command_is_reported_at_once():
    """qemu gone while a command runs: 'qemu exited', not a wait for the
    command's timeout (a game's is 30 minutes)."""
    with mcu.MicroBit() as board:
        proc = board.proc
        killer = threading.Timer(0.5, proc.kill)
        killer.start()
        # not detected, the wait would end in "timeout waiting for ..."
        with pytest.raises(mcu.LinkError, match="qemu exited"):
            board.exec("for i in range(10**8):pass", timeout=20)
        killer.join()


class _Proc:
    """A qemu that stays up."""

    def poll(self):
        return None


def test_a_command_that_never_arrives_gives_up_after_five_tries(monkeypatch):
    """Every try of exec() loses bytes: after the fifth, LinkError, and the
    code is never run on what arrived."""
    board = mcu.MicroBit()
    board.proc = _Proc()
    sent = []
    monkeypatch.setattr(board, "_write", sent.append)
    monkeypatch.setattr(board, "_abort", lambda: None)

    def read_until(marker, timeout):
        assert marker == (mcu.PROMPT, b"\x04>"), "waited for output of code never sent"
        return b"OK" + mcu.PROMPT

    def lossy(line):
        raise mcu.LinkError("echo mismatch at byte 3")

    monkeypatch.setattr(board, "_read_until", read_until)
    monkeypatch.setattr(board, "_send_echoed", lossy)
    with pytest.raises(mcu.LinkError, match="echo mismatch"):
        board.exec("print(1)")
    assert sent == [mcu.COMMAND + b"\x04"] * 5
    assert board.retries == 4 and len(board.retry_log) == 4


def test_call_refuses_what_is_not_printable_ascii():
    """call() sends its text to the raw REPL unchecked: DEL (0x7f) is no
    more printable than the control characters below 32."""
    board = mcu.MicroBit()          # not started: refused before anything is sent
    for expr in ("1\x7f", "\x7f", "a\x1f", "caf\u00e9"):
        with pytest.raises(ValueError, match="printable"):
            board.call(expr)


# micropython.mem_info() as MicroPython 1.9.2 prints it on the micro:bit
MEM_INFO = ("stack: 528 out of 1800\nGC: total: 10048, used: 1056, free: 8992\n"
            " No. of 1-blocks: 14, 2-blocks: 4, max blk sz: 24, max free sz: 486\n")


def test_largest_free_block_is_max_free_sz_in_16_byte_blocks(monkeypatch):
    """'max free sz' counts GC blocks of 4 words, 16 bytes on the 32-bit
    micro:bit; 'max blk sz' is the largest block in use, another figure."""
    board = mcu.MicroBit()
    calls = []
    monkeypatch.setattr(board, "mem_free", lambda: calls.append("collect") or 8992)
    monkeypatch.setattr(board, "call", lambda expr: calls.append(expr) or MEM_INFO)
    assert board.largest_free_block() == 486 * 16
    assert calls == ["collect", "micropython.mem_info()"]
    monkeypatch.setattr(board, "call", lambda expr: MEM_INFO.replace("max free sz", "max fr"))
    with pytest.raises(mcu.LinkError, match="max free sz"):
        board.largest_free_block()


def _importing(module):
    return {"error": "ImportError: no module named '%s'" % module, "problems": []}


def test_a_module_missing_from_the_engine_is_reported_not_uploaded(monkeypatch, tmp_path):
    """play_game uploads a module the game imports late only if the engine
    has it: an import of another (here 'ustruct') is the game's error, in
    the report; and a module already uploaded that still fails is too."""
    (tmp_path / "gomoku.py").write_text("X = 1\n")
    (tmp_path / "extra.py").write_text("Y = 1\n")
    runs = []

    def game(level, rule, seed, strip, mb, engine, lazy, *rest):
        runs.append(list(lazy))
        assert len(runs) < 5, "replayed without end"
        return _importing(scripted.pop(0) if scripted else "extra")

    monkeypatch.setattr(mcu, "_play_game", game)
    scripted = ["ustruct"]
    assert mcu.play_game(mb=object(), engine=tmp_path) == _importing("ustruct")
    assert runs == [[]]
    runs.clear()
    scripted = []
    assert mcu.play_game(mb=object(), engine=tmp_path) == _importing("extra")
    assert runs == [[], ["extra"]]


def test_cli_exit_status_says_whether_the_game_or_code_failed(monkeypatch, capsys):
    """`mcu.py game` exits 1 on a game with an error or a problem (an illegal
    or unfinished game), 0 on a sound one; `mcu.py exec` exits 1 when the
    code raised, with the board's traceback on stdout."""
    sound = {"error": None, "problems": []}
    for rep, status in ((sound, 0), (dict(sound, problems=["game did not finish"]), 1),
                        (dict(sound, error="MemoryError: memory allocation failed"), 1)):
        monkeypatch.setattr(mcu, "play_game", lambda *a, rep=rep, **kw: rep)
        assert mcu.main(["game"]) == status
        assert '"problems"' in capsys.readouterr().out

    class Board:
        def __init__(self, raises):
            self.raises = raises

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            pass

        def exec(self, code):
            if self.raises:
                raise mcu.MicroBitError("Traceback (most recent call last):\n"
                                        "ZeroDivisionError: divide by zero\n", code)
            return "2\n"

    monkeypatch.setattr(mcu, "MicroBit", lambda: Board(True))
    assert mcu.main(["exec", "1//0"]) == 1
    assert "ZeroDivisionError" in capsys.readouterr().out
    monkeypatch.setattr(mcu, "MicroBit", lambda: Board(False))
    assert mcu.main(["exec", "print(1+1)"]) == 0
    assert capsys.readouterr().out == "2\n"


def test_check_game_lets_white_win_renju_with_an_overline():
    """Renju forbids black only the overline: white's six wins there, as
    any line of five or more does in freestyle; in standard gomoku a six
    wins nobody."""
    black = [(x, 0) for x in (0, 2, 4, 6, 8, 10)]
    white = [(x, 2) for x in (0, 1, 2, 3, 5, 4)]         # the last stone joins six
    moves = [y * 15 + x for pair in zip(black, white) for x, y in pair]
    assert mcu.check_game(4, [], moves, 2) == []
    assert mcu.check_game(0, [], moves, 2) == []
    assert mcu.check_game(1, [], moves, 2) == ["winner 2 claimed without a winning line"]


def test_margins_counts_a_game_with_problems_as_failed(monkeypatch):
    """A hold under which the game runs on but ends unfinished or illegal
    (problems, no error) is past the margin, as one that raises is."""
    def game(level, rule, seed, mb, engine, ballast=0, depth=0, import_ballast=0,
             imports_only=False):
        bad = ballast > 1000 or depth > 7 or import_ballast > 300
        return {"error": None, "memory_error": False,
                "problems": ["game did not finish"] if bad else []}

    monkeypatch.setattr(mcu, "play_game", game)
    assert mcu.margins(mb=object()) == {"heap_bytes": 992, "stack_frames": 7,
                                        "import_bytes": 288}


def test_device_source_keeps_keyword_arguments_named_like_locals():
    """A local is renamed on the board; a keyword argument of the same name
    is the callee's parameter and keeps its name."""
    src = "def f(x):\n    y = x + 1\n    return dict(y=y)\n"
    out = mcu.device_source(src, "demo")
    assert "dict(y=" in out
    ns = {}
    exec(out, ns)
    assert ns["f"](1) == {"y": 2}


def test_frozen_move_ms_is_each_moves_guest_time_in_ms(frozen_mb, monkeypatch):
    """On the frozen firmware, move_ms is the guest time of each move in
    milliseconds (ticks_ms): together the moves take most of the game's
    guest time, measured around it, and never more."""
    real = frozen_mb.call
    span = []

    def timed(expr, timeout=None):
        if expr != "frozdrv.game()":
            return real(expr, timeout)
        frozen_mb.exec("import utime\nfrozdrv.T0=utime.ticks_ms()")
        out = real(expr, timeout)
        span.append(int(frozen_mb.exec(
            "print(utime.ticks_diff(utime.ticks_ms(),frozdrv.T0))")))
        return out

    monkeypatch.setattr(frozen_mb, "call", timed)
    rep = mcu_firmware.play_game(frozen_mb, level=1, rule=0, seed=1)
    assert rep["winner"] != 0 and len(span) == 1
    assert span[0] / 2 < sum(rep["move_ms"]) <= span[0], (span, rep["move_ms"])


def test_a_failing_build_step_is_a_build_error(tmp_path):
    """Any non-zero exit of a build step (pip's is 1, make's 2) stops the
    build with the step's last output, not only some."""
    for status in (1, 2, 100):
        with pytest.raises(mcu_firmware.BuildError, match="no such package"):
            mcu_firmware._run([sys.executable, "-c", "import sys; print('no such package'); "
                               "sys.exit(%d)" % status], tmp_path)
    assert mcu_firmware._run([sys.executable, "-c", "print('built')"], tmp_path) == "built\n"


LAZY = [("        self.n = 0\n",
         "        self.n = 0\n"
         "        if rule == 4:\n            import extra\n            extra.setup(self)\n"),
        ("self.n == 225", "self.n == 12")]


def test_upload_figures_count_what_the_flash_holds(mb, tmp_path):
    """uploaded_bytes is what the engine takes of the flash file system,
    the module loaded when needed included; each top-level module's
    source_bytes is its file in the engine folder, uploaded_bytes its
    stripped copy on the board."""
    engine = stand_in(tmp_path, LAZY, FIRST_FREE_AI)
    (tmp_path / "extra.py").write_text("def setup(g):\n    g.b[224] = 2\n    g.n += 1\n")
    rep = mcu.play_game(level=1, rule=4, seed=1, mb=mb, engine=engine)
    assert rep["error"] is None and rep["lazy_modules"] == ["extra"], rep.get("traceback")
    on_flash = {n: mb.eval("__import__('os').size(%r)" % (n + ".py"))
                for n in ("gomoku", "ai", "extra")}
    assert rep["uploaded_bytes"] == sum(on_flash.values())
    for name in ("gomoku", "ai"):
        figures = rep["modules"][name]
        assert figures["source_bytes"] == len((tmp_path / (name + ".py")).read_bytes())
        assert figures["uploaded_bytes"] == on_flash[name] < figures["source_bytes"]


def test_engine_modules_survive_an_import_cycle(tmp_path):
    """Two modules importing each other at top level: each listed once
    (neither can wait for the other), no endless recursion."""
    (tmp_path / "gomoku.py").write_text("import ai\n")
    (tmp_path / "ai.py").write_text("import gomoku\n")
    assert sorted(mcu.engine_modules(engine=tmp_path)) == ["ai", "gomoku"]


def test_a_private_name_another_module_imports_keeps_its_name(mb, tmp_path):
    """`--engine DIR` (play_game(engine=...)): a private constant that the
    folder's other module imports stays defined under its name on the
    board, as it does for firmware/engine's own modules."""
    engine = stand_in(tmp_path, [("class Game:", "_FIRST = 0\n\n\nclass Game:")],
                      "from gomoku import _FIRST\n\n\ndef best_move(g, level):\n"
                      "    for i in range(_FIRST, 225):\n"
                      "        if not g.b[i]:\n            return i\n")
    rep = mcu.play_game(level=1, rule=0, seed=1, mb=mb, engine=engine)
    assert rep["error"] is None, rep.get("traceback")
    assert rep["winner"] == 3 and rep["problems"] == []


def test_a_renju_draw_claimed_over_a_five_is_a_problem():
    """Short of a full board a renju draw stands only where the host's
    engine ends the game drawn: black's five there is a win, not a draw."""
    black = [(x, 0) for x in range(5)]
    white = [(x, 2) for x in range(4)]
    moves = [y * 15 + x for x, y in [s for pair in zip(black, white) for s in pair] + black[4:]]
    assert mcu.check_game(4, [], moves, 1) == []
    assert mcu.check_game(4, [], moves, 3) == ["draw claimed with 9 stones on the board"]


# imports leave 16-byte holes between the blocks they keep
FRAGMENTING = [("class Game:", "_junk = [bytearray(8) for _ in range(40)]\n"
                "for _i in range(0, 40, 2):\n    _junk[_i] = None\n\n\nclass Game:")]


def test_unstripped_upload_and_the_largest_free_block(mb, tmp_path):
    """strip=False (`--no-strip`) uploads each module as it is; the largest
    free block before the game is one block, less than the free heap when
    that lies in pieces (here 16-byte holes the import left)."""
    engine = stand_in(tmp_path, FRAGMENTING, FIRST_FREE_AI)
    rep = mcu.play_game(level=1, rule=0, seed=1, mb=mb, engine=engine, strip=False,
                        imports_only=True)
    assert rep["error"] is None, rep.get("traceback")
    for name, figures in rep["modules"].items():
        assert figures["uploaded_bytes"] == figures["source_bytes"]
        assert mb.get(name + ".py") == (tmp_path / (name + ".py")).read_text()
    largest = rep["largest_free_block_before_game"]
    assert largest % 16 == 0 and 0 < largest <= rep["free_before_game"] - 20 * 16


def test_cli_game_passes_its_arguments_on(monkeypatch, capsys, tmp_path):
    """`mcu.py game` plays the level, rule, opening, stripping and engine
    folder it is given."""
    seen = []
    monkeypatch.setattr(mcu, "play_game", lambda *a, **kw: seen.append((a, kw)) or
                        {"error": None, "problems": []})
    (tmp_path / "gomoku.py").write_text("")
    assert mcu.main(["game", "--level", "1", "--rule", "4", "--opening", "3", "--no-strip",
                     "--engine", str(tmp_path)]) == 0
    assert seen == [((1, 4, 3), {"strip": False, "engine": tmp_path})]
    seen.clear()
    assert mcu.main(["game"]) == 0
    assert seen == [((1, 0, 1), {"strip": True, "engine": mcu.ENGINE})]
    capsys.readouterr()
    # the higher levels do not fit the stock firmware: refused at once,
    # pointing at the frozen-engine firmware, before qemu starts
    seen.clear()
    for level in ("2", "5"):
        with pytest.raises(SystemExit):
            mcu.main(["game", "--level", level])
        assert "only level 1 fits the stock firmware's heap; tools/mcu_firmware.py" \
            in capsys.readouterr().err
    # paths that are not there: one line each, before qemu starts
    for args, why in ((["game", "--engine", str(tmp_path / "none")], "no gomoku.py there"),
                      (["exec", "1", "--put", str(tmp_path / "none.py")], "no such file")):
        with pytest.raises(SystemExit):
            mcu.main(args)
        assert capsys.readouterr().err.rstrip().endswith(why)
    assert seen == []
