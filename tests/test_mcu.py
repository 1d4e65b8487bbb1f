"""The engine on the emulated BBC micro:bit (MicroPython 1.9.2, ~9 KB heap).

A complete level-1 game is played on the board with the heap locked around
every best_move: a move that allocates raises MemoryError there and fails.
"""
import ast
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import mcu  # noqa: E402

import gomoku  # noqa: E402  (the engine on CPython, to replay the board's game)


def replay(rule, opening, moves):
    """Replay on the CPython engine: every move legal; the final winner."""
    g = gomoku.Game(rule)
    for x, y in opening + moves:
        assert g.winner == 0, "a move after the game ended"
        g.play(x, y)
    return g.winner


@pytest.mark.parametrize("rule", [gomoku.FREESTYLE, gomoku.STANDARD, gomoku.RENJU])
def test_level1_game_on_microbit(mb, rule):
    rep = mcu.play_game(level=1, rule=rule, seed=1 + rule, mb=mb)
    assert rep["error"] is None, rep.get("traceback") or rep["error"]
    assert rep["problems"] == []
    assert rep["winner"] in (1, 2, 3)
    assert rep["heap_locked_moves"] == len(rep["moves"]) > 0
    assert len(rep["move_ms"]) == len(rep["moves"])
    assert replay(rule, rep["opening"], rep["moves"]) == rep["winner"]
    assert rep["free_before_import"] > rep["free_after_import"] > 0
    assert rep["import_bytes"] == sum(m["import_bytes"] for m in rep["modules"].values())
    assert rep["driver_bytes"] == rep["free_at_start"] - rep["free_before_import"] > 0
    assert all(m["import_bytes"] > 0 for m in rep["modules"].values())
    assert rep["median_ms"] == statistics.median_high(rep["move_ms"])
    assert rep["max_ms"] == max(rep["move_ms"])


def test_ballast_and_depth_take_heap_and_c_stack(mb):
    """margins() raises these until a game fails: each must bite."""
    rep = mcu.play_game(level=1, rule=0, seed=1, mb=mb, ballast=6000)
    assert rep["memory_error"] and rep["moves"] == []
    rep = mcu.play_game(level=1, rule=0, seed=1, mb=mb, depth=12)
    assert rep["error"] == "RuntimeError: maximum recursion depth exceeded"
    assert "in deep" in rep["traceback"] and rep["moves"] == []
    rep = mcu.play_game(level=1, rule=0, seed=1, mb=mb, import_ballast=4096,
                        imports_only=True)
    assert rep["memory_error"] and rep["failed_at"].startswith("import ")


def test_depth_nests_that_many_calls_under_the_game(mb, tmp_path):
    (tmp_path / "gomoku.py").write_text(TINY_GOMOKU)
    (tmp_path / "ai.py").write_text("def best_move(g, level):\n    raise ValueError\n")
    rep = mcu.play_game(level=1, rule=0, seed=1, mb=mb, engine=tmp_path, depth=3)
    assert rep["error"].startswith("ValueError")
    assert rep["traceback"].count(", in deep") == 3
    assert rep["traceback"].count(", in game") == 1


def test_engine_compiles_on_microbit_with_heap_to_spare(mb):
    """Compiling the sources on import is the engine's tightest moment on the
    board: a 16-byte difference in free heap once failed renju's import in a
    bench game. Where the compiler's blocks land moves with what the heap
    holds, so every hold up to the margin is tried: an engine change that
    eats it fails here instead."""
    for hold in range(0, 80, 16):
        rep = mcu.play_game(level=1, rule=gomoku.RENJU, seed=4, mb=mb, import_ballast=hold,
                            imports_only=True)
        assert rep["error"] is None, "holding %d: %s at %s" % (hold, rep["error"],
                                                               rep.get("failed_at"))
        assert rep["moves"] == [] and rep["free_after_import"] > 0


def test_cli_prints_a_json_game_report():
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "mcu.py"), "game",
                           "--level", "1", "--rule", "0", "--opening", "3"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rep = json.loads(proc.stdout)
    for key in ("moves", "move_ms", "median_ms", "max_ms", "free_before_import",
                "free_after_import", "free_at_end", "winner", "memory_error"):
        assert key in rep
    assert rep["memory_error"] is False
    assert rep["winner"] in (1, 2, 3)
    assert replay(0, rep["opening"], rep["moves"]) == rep["winner"]


# A stand-in engine for testing the harness itself, independent of the real one.
TINY_GOMOKU = '''
class Game:
    def __init__(self, rule=0):
        self.b = bytearray(225)
        self.turn = 1
        self.winner = 0
        self.n = 0

    def stone(self, x, y):
        return self.b[y * 15 + x]

    def play(self, x, y):
        if not (0 <= x < 15 and 0 <= y < 15) or self.b[y * 15 + x]:
            raise ValueError("illegal")
        self.b[y * 15 + x] = self.turn
        self.turn = 3 - self.turn
        self.n += 1
        if self.n == 225:
            self.winner = 3
        return self.winner
'''

ALLOCATING_AI = '''
def best_move(g, level):
    free = [i for i in range(225) if not g.stone(i % 15, i // 15)]
    return free[0]
'''


def test_a_move_that_allocates_fails_the_game(mb, tmp_path):
    (tmp_path / "gomoku.py").write_text(TINY_GOMOKU)
    (tmp_path / "ai.py").write_text(ALLOCATING_AI)
    rep = mcu.play_game(level=1, rule=0, seed=1, mb=mb, engine=tmp_path)
    assert rep["memory_error"] is True
    assert "MemoryError" in rep["error"]
    assert rep["moves"] == []
    assert "game did not finish" in rep["problems"]


def test_modules_imported_when_needed_are_found_and_uploaded(mb, tmp_path):
    """A module the engine imports only for one rule goes up on demand."""
    (tmp_path / "gomoku.py").write_text(TINY_GOMOKU.replace(
        "        self.n = 0\n",
        "        self.n = 0\n"
        "        if rule == 4:\n            import extra\n            extra.setup(self)\n"))
    (tmp_path / "extra.py").write_text("def setup(g):\n    g.b[224] = 2\n    g.n += 1\n")
    (tmp_path / "ai.py").write_text(
        "def best_move(g, level):\n    for i in range(225):\n"
        "        if not g.b[i]:\n            return i\n")
    plain = mcu.play_game(level=1, rule=0, seed=1, mb=mb, engine=tmp_path)
    assert plain["error"] is None and plain["lazy_modules"] == []
    rep = mcu.play_game(level=1, rule=4, seed=1, mb=mb, engine=tmp_path)
    assert rep["error"] is None, rep.get("traceback")
    assert rep["lazy_modules"] == ["extra"]
    assert list(rep["modules"]) == ["gomoku", "ai"]
    assert len(rep["moves"]) == 225 - 4 - 1         # (14, 14) was taken by extra
    assert sorted(mb.listdir()) == ["ai.py", "extra.py", "gomoku.py", "mcudrv.py"]


def test_engine_modules_largest_ready_module_first(tmp_path):
    (tmp_path / "gomoku.py").write_text("import small\ntry:\n    import ustruct\n"
                                        "except ImportError:\n    import big\n")
    (tmp_path / "small.py").write_text("A = 1\n")
    (tmp_path / "big.py").write_text("".join("V%d = %d\n" % (i, i) for i in range(50)))
    (tmp_path / "ai.py").write_text("import gomoku\n")
    assert mcu.engine_modules(engine=tmp_path) == ["big", "small", "gomoku", "ai"]


def test_engine_modules_dependencies_first(tmp_path):
    (tmp_path / "gomoku.py").write_text("from shapes import T\ntry:\n    import tables\n"
                                        "except ImportError:\n    pass\nimport micropython\n")
    (tmp_path / "shapes.py").write_text("import tables\nT = 1\n")
    (tmp_path / "tables.py").write_text("X = 1\n")
    (tmp_path / "ai.py").write_text("import gomoku\n\n\ndef best_move(g, level):\n"
                                    "    import search\n")
    (tmp_path / "search.py").write_text("import ai\n")
    assert mcu.engine_modules(engine=tmp_path) == ["tables", "shapes", "gomoku", "ai"]
    assert mcu.engine_modules(("search",), tmp_path) == ["tables", "shapes", "gomoku", "ai",
                                                         "search"]
    (tmp_path / "ai.py").unlink()
    with pytest.raises(FileNotFoundError):
        mcu.engine_modules(engine=tmp_path)


def test_an_illegal_move_is_reported(mb, tmp_path):
    (tmp_path / "gomoku.py").write_text(TINY_GOMOKU)
    (tmp_path / "ai.py").write_text("def best_move(g, level):\n    return 7 * 15 + 7\n")
    rep = mcu.play_game(level=1, rule=0, seed=1, mb=mb, engine=tmp_path)
    assert rep["error"] == "ValueError: illegal"  # from play(): (7, 7) is taken
    assert rep["problems"] == ["move 4 on occupied point 7,7"]
    assert rep["moves"] == [[7, 7]] and rep["heap_locked_moves"] == 1


def test_a_stand_in_engine_plays_to_a_full_board(mb, tmp_path):
    (tmp_path / "gomoku.py").write_text(TINY_GOMOKU)
    (tmp_path / "ai.py").write_text(
        "def best_move(g, level):\n    for i in range(225):\n"
        "        if not g.b[i]:\n            return i\n")
    rep = mcu.play_game(level=1, rule=0, seed=1, mb=mb, engine=tmp_path)
    assert rep["error"] is None and rep["problems"] == []
    assert rep["winner"] == 3 and len(rep["moves"]) == 225 - 4
    assert rep["heap_locked_moves"] == 221


def test_move_times_and_heap_figures_of_a_stand_in_game(mb, tmp_path):
    """move_ms is the move's guest time in ms (each move spins a known loop,
    timed apart with ticks_ms), median_ms and max_ms are of those;
    min_free_during_game sees what the game holds by its last move (play()
    keeps 100 bytes a stone)."""
    (tmp_path / "gomoku.py").write_text(TINY_GOMOKU.replace(
        "        self.n = 0\n", "        self.n = 0\n        self.held = []\n").replace(
        "        self.n += 1\n", "        self.n += 1\n        self.held.append(bytearray(100))\n")
        .replace("self.n == 225", "self.n == 12"))           # a short game (a "draw")
    spins = (3000, 1000, 5000, 2000, 4000, 1000, 3000, 2000)
    (tmp_path / "ai.py").write_text(
        "SPINS = %r\n\n\ndef spin(n):\n    for i in range(n):\n        pass\n\n\n"
        "def best_move(g, level):\n    spin(SPINS[g.n - 4])\n    for i in range(225):\n"
        "        if not g.b[i]:\n            return i\n" % (spins,))
    rep = mcu.play_game(level=1, rule=0, seed=1, mb=mb, engine=tmp_path)
    assert rep["error"] is None, rep.get("traceback")
    ms_10k = int(mb.exec("import ai,utime\nt=utime.ticks_ms()\nai.spin(10000)\n"
                         "print(utime.ticks_diff(utime.ticks_ms(),t))"))
    assert len(rep["move_ms"]) == len(spins)
    for ms, n in zip(rep["move_ms"], spins):
        assert abs(ms - n * ms_10k / 10000) < 1 + ms / 20, (rep["move_ms"], ms_10k)
    assert rep["median_ms"] == statistics.median_high(rep["move_ms"])
    assert rep["max_ms"] == max(rep["move_ms"])
    stones = len(rep["opening"]) + len(rep["moves"]) - 1    # held at the last move
    assert rep["free_before_game"] - rep["min_free_during_game"] >= 100 * stones
    assert rep["free_at_end"] > rep["min_free_during_game"]


def test_largest_free_block_of_a_fresh_heap(mb):
    """In bytes: nearly all of a fresh heap, less than all once it is in pieces."""
    mb.soft_reset()
    free = mb.mem_free()
    assert free * 3 // 4 < mb.largest_free_block() <= free
    mb.exec("junk = [bytearray(16) for _ in range(100)]\nfor i in range(0, 100, 2):\n"
            " junk[i] = None", flush=True)
    assert mb.largest_free_block() < mb.mem_free()
    mb.soft_reset()


def test_exec_output_state_errors_and_soft_reset(mb):
    mb.soft_reset()
    assert mb.exec("x = 6 * 7\nprint(x)") == "42\n"
    assert mb.eval("x + 1") == 43
    with pytest.raises(mcu.MicroBitError) as err:
        mb.exec("print('before')\n1 // 0")
    assert "ZeroDivisionError" in err.value.traceback
    assert err.value.output == "before\n"
    assert mb.eval("x") == 42               # an error changes nothing else
    mb.soft_reset()
    with pytest.raises(mcu.MicroBitError, match="NameError"):
        mb.exec("x")
    assert 8000 < mb.mem_free() < 10240


def test_call_runs_at_top_level_and_resends_garbled_commands(mb):
    mb.soft_reset()
    mb.exec("import micropython\ndef _s():\n print(micropython.stack_use())")
    top = int(mb.call("_s()"))
    nested = int(mb.exec("_s()"))
    assert top < nested                     # exec() itself takes C stack
    before = mb.retries
    with pytest.raises(mcu.MicroBitError, match="SyntaxError"):
        mb.call("_s(")                      # looks garbled: sent again, then raised
    assert mb.retries == before + 4
    with pytest.raises(mcu.MicroBitError, match="NameError"):
        mb.call("_nope()")                  # a real error: raised at once
    assert mb.retries == before + 4
    with pytest.raises(ValueError):
        mb.call("x" * 25)
    with pytest.raises(ValueError):
        mb.call("1\x04")                    # a control character would reach the REPL
    assert mb.call("print(%s)" % ("1" * 17)) == "1" * 17 + "\n"    # 24 characters


@pytest.mark.parametrize("tb,expr,garbled", [
    ('Traceback (most recent call last):\n  File "<stdin>", line 1\nSyntaxError: invalid syntax',
     "_g()", True),
    ('Traceback (most recent call last):\n  File "<stdin>", line 1, in <module>\n'
     "NameError: name '_gme' is not defined", "_game(*_a)", True),
    ('Traceback (most recent call last):\n  File "<stdin>", line 1, in <module>\n'
     "NameError: name '_game' is not defined", "_game(*_a)", False),
    ('Traceback (most recent call last):\n  File "<stdin>", line 1, in <module>\n'
     '  File "gomoku.py", line 3\nSyntaxError: invalid syntax', "_i('gomoku')", False),
])
def test_garbled_command_detection(tb, expr, garbled):
    assert mcu._garbled(tb, expr) is garbled


def test_a_late_ctrl_c_that_stops_the_command_before_its_input_is_sent_again(mb):
    """A Ctrl-C left from an abort that reaches the guest as the next command
    starts raises KeyboardInterrupt before the command reads the caller's
    code: a link fault, sent again, not the caller's error. (The guest's
    answer is given here; the abort and the second attempt are real.)"""
    mb.soft_reset()
    real = mb._read_until
    late = [b'OK\x04Traceback (most recent call last):\r\n  File "<stdin>", '
            b"line 1, in <module>\r\nKeyboardInterrupt: \r\n\x04>"]

    def read_until(ends, timeout):
        got = real(ends, timeout)
        return late.pop() if late else got
    mb._read_until = read_until
    before = mb.retries
    try:
        assert mb.eval("6 * 7") == 42
    finally:
        del mb._read_until
    assert not late and mb.retries == before + 1
    assert "KeyboardInterrupt" in mb.retry_log[-1]


@pytest.mark.parametrize("tb,interrupted", [
    ('Traceback (most recent call last):\n  File "<stdin>", line 1, in <module>\n'
     "KeyboardInterrupt: ", True),
    ('Traceback (most recent call last):\n  File "<stdin>", line 1, in <module>\n'
     "NameError: name 'KeyboardInterrupt' is not defined", False),
    ("", False),
])
def test_a_late_ctrl_c_is_told_from_an_error(tb, interrupted):
    assert mcu._interrupted(tb) is interrupted


def test_put_get_round_trip_of_awkward_text(mb):
    text = ("".join(chr(c) for c in range(32, 128)) * 3 + "\n\t'\"\\\\n\r\n" * 20
            + "caf\u00e9 \u2603\n" + "".join(chr(c) for c in range(1, 32)) + "\x7f\n"
            + "x" * 300 + "end")
    mb.put("awk.txt", text)
    assert mb.get("awk.txt") == text
    assert "awk.txt" in mb.listdir()
    mb.remove("awk.txt")
    assert "awk.txt" not in mb.listdir()


def test_a_put_leaves_the_heap_as_it_was(mb):
    """input() keeps its last lines on the heap: put() pushes the file's out."""
    mb.soft_reset()
    before = mb.mem_free()
    mb.put("lines.txt", "".join("%02d %s\n" % (i, "z" * 85) for i in range(12)))
    assert before - mb.mem_free() < 128         # 12 lines of 88 bytes went through
    mb.remove("lines.txt")


def test_a_file_that_arrives_short_is_an_error(mb, monkeypatch):
    real = mcu._file_lines
    monkeypatch.setattr(mcu, "_file_lines", lambda text: real(text)[:-1])
    with pytest.raises(mcu.LinkError, match="bytes on the board"):
        mb.put("short.txt", "first line\nsecond line\n")
    monkeypatch.undo()
    mb.remove("short.txt")


def test_a_big_python_file_arrives_intact_and_imports(mb):
    body = "".join("def f%d(a, b):\n    # %s\n    return a * %d + b  # %s\n"
                   % (i, "comment " * 8, i, "x" * 20) for i in range(25))
    mb.put("bigmod.py", body)
    assert mb.get("bigmod.py") == body
    mb.soft_reset()
    assert mb.eval("__import__('bigmod').f24(2, 3)") == 2 * 24 + 3
    mb.remove("bigmod.py")


def test_a_put_that_loses_bytes_starts_again(mb, monkeypatch):
    """A line whose echo goes wrong halfway: abort, then the file is rewritten."""
    real = mb._send_echoed
    calls = []

    def flaky(line):
        calls.append(line)
        if len(calls) == 4:                 # the third line of the file
            mb._write(line[:len(line) // 2])
            time.sleep(0.05)
            raise mcu.LinkError("simulated lost byte")
        return real(line)

    monkeypatch.setattr(mb, "_send_echoed", flaky)
    text = "".join("line %03d of a file sent twice\n" % i for i in range(12))
    before = mb.retries
    mb.put("again.txt", text)
    monkeypatch.undo()
    assert mb.retries == before + 1
    assert mb.get("again.txt") == text
    mb.remove("again.txt")
    assert mb.eval("6 * 7") == 42


def lose_once(mb, monkeypatch, spoil):
    """The first write that spoil(data) changes goes over changed; the
    writes spoiled, in a list."""
    real = mb._write
    lost = []

    def lossy(data):
        bad = None if lost else spoil(data)
        if bad is not None:
            lost.append(data)
            data = bad
        return real(data)

    monkeypatch.setattr(mb, "_write", lossy)
    return lost


def test_a_byte_lost_on_the_way_is_caught_by_the_echo(mb, monkeypatch):
    """One byte of the code dropped (what the guest does when rushed): the
    echo shows it and the command goes again, rather than running what
    arrived (here still valid code, printing another number)."""
    lost = lose_once(mb, monkeypatch,
                     lambda d: d.replace(b"5", b"", 1) if b"12345" in d else None)
    before = mb.retries
    assert mb.exec("print(123456789)", timeout=5) == "123456789\n"
    assert lost and mb.retries == before + 1


def test_a_call_whose_ctrl_d_is_lost_is_sent_again(mb, monkeypatch):
    """No 'OK' comes: the half-typed command is cleared, then sent again."""
    lost = lose_once(mb, monkeypatch,
                     lambda d: d[:-1] if d == b"print(6*7)\x04" else None)
    before = mb.retries
    assert mb.call("print(6*7)") == "42\n"
    assert lost and mb.retries == before + 1


def test_window_of_unechoed_bytes_is_safe_for_long_lines(mb):
    mb.soft_reset()
    line = "".join(chr(33 + (i * 7) % 90) for i in range(500)).replace("\\", "/")
    before = mb.retries
    mb.exec("s = %r\nprint(len(s))" % line)
    assert mb.eval("s") == line and mb.retries == before
    mb.exec("del s", flush=True)


def test_a_full_heap_is_a_clear_error(mb):
    mb.soft_reset()
    mb.exec("junk = []\ntry:\n while 1:\n  junk.append(bytearray(64))\nexcept MemoryError:\n"
            " pass", flush=True)
    with pytest.raises(mcu.MicroBitError, match="MemoryError"):
        mb.exec("x = [1, 2, 3]\nprint(len(x))")
    mb.soft_reset()
    assert mb.eval("1 + 1") == 2


def test_a_full_flash_is_a_clear_error(mb):
    """Last of the board tests: a full micro:bit file system may lose files."""
    mb.soft_reset()
    for name in mb.listdir():
        mb.remove(name)
    with pytest.raises(mcu.MicroBitError, match="flash file system is full"):
        try:
            mb.put("huge.txt", "y" * 40000)
        except mcu.LinkError as e:
            raise AssertionError("%s; retries: %s" % (e, mb.retry_log)) from None
    assert "huge.txt" not in mb.listdir()
    assert mb.eval("1 + 1") == 2            # the link still works


def test_a_command_that_runs_too_long_times_out():
    """The board's timeout, or the one given to exec() or call(), ends the
    wait for a command that runs on (each board then is given up)."""
    loop = "for i in range(10**7):pass"
    with mcu.MicroBit(timeout=0.5) as board:
        with pytest.raises(mcu.LinkError, match="timeout"):
            board.exec(loop)
    with mcu.MicroBit() as board:
        with pytest.raises(mcu.LinkError, match="timeout"):
            board.exec(loop, timeout=0.5)
    with mcu.MicroBit() as board:
        board.exec("def _l():\n " + loop)
        with pytest.raises(mcu.LinkError, match="timeout"):
            board.call("_l()", timeout=0.5)


def test_a_missing_firmware_or_qemu_is_a_clear_error(tmp_path):
    with pytest.raises(mcu.LinkError, match="firmware not found"):
        mcu.MicroBit(firmware=str(tmp_path / "none.hex")).start()
    with pytest.raises(mcu.LinkError, match="qemu-none not found"):
        mcu.MicroBit(qemu="qemu-none").start()


def test_guest_time_is_an_instruction_count():
    """-icount shift=N: an instruction takes 2**N ns of guest time, so the
    same loop's ticks_us doubles from shift 6 to 7, whatever the host."""
    code = ("import utime\nt=utime.ticks_us()\nfor i in range(2000):pass\n"
            "print(utime.ticks_diff(utime.ticks_us(),t))")
    us = {}
    for shift in (6, 7):
        with mcu.MicroBit(icount=shift) as board:
            us[shift] = int(board.exec(code))
    assert 1.9 < us[7] / us[6] < 2.1


def test_margins_bisects_to_the_last_passing_hold(monkeypatch):
    """margins() over a stand-in for play_game that fails past known limits:
    each figure is the largest that passes (16-byte steps for the heap)."""
    limits = {"ballast": 1000, "depth": 7, "import_ballast": 300}
    plain_fails = []

    def game(level, rule, seed, mb, engine, **kw):
        over = [k for k, v in kw.items() if k in limits and v > limits[k]]
        if plain_fails or over:
            error = ("RuntimeError: maximum recursion depth exceeded" if over == ["depth"]
                     else "MemoryError: memory allocation failed")
            return {"error": error, "memory_error": error.startswith("Memory"),
                    "problems": []}
        return {"error": None, "memory_error": False, "problems": []}

    monkeypatch.setattr(mcu, "play_game", game)
    assert mcu.margins(mb=object()) == {"heap_bytes": 992, "stack_frames": 7,
                                        "import_bytes": 288}
    plain_fails.append(True)
    assert mcu.margins(mb=object()) == {"heap_bytes": -1, "stack_frames": -1,
                                        "import_bytes": -1}
    monkeypatch.setattr(mcu, "play_game", lambda *a, **kw: {
        "error": "ValueError: illegal", "memory_error": False, "problems": []})
    with pytest.raises(mcu.MicroBitError, match="illegal"):
        mcu.margins(mb=object())


def test_check_game_finds_what_is_wrong_with_a_game():
    row = [y * 15 + x for x in range(6) for y in (0, 2)]       # black (x, 0), white (x, 2)
    six = row[:-1]                                              # black's last stone: six
    assert mcu.check_game(0, [], six, 1) == []
    for rule in (1, 4):                                         # an overline is no five
        assert mcu.check_game(rule, [], six, 1) == ["winner 1 claimed without a winning line"]
    assert mcu.check_game(0, [], row[:7], 1) == ["winner 1 claimed without a winning line"]
    assert mcu.check_game(0, [], row[:9], 1) == []             # five
    assert mcu.check_game(0, [], row[:9], 2) == ["winner 2 but the last stone is colour 1"]
    assert mcu.check_game(0, [112], [225], 0) == ["move 1 off board: 225"]
    assert mcu.check_game(0, [112], [-1], 0) == ["move 1 off board: -1"]
    for rule in (0, 1):
        assert mcu.check_game(rule, [], list(range(224)), 3) == ["draw claimed with 224 "
                                                                 "stones on the board"]
    # renju draws short of a full board only where black, to move, has no
    # point left that it may play
    from engine_cases import black_boxed_in
    _, boxed = black_boxed_in(4)
    assert mcu.check_game(4, [], boxed, 3) == []
    for short in (boxed[:222], boxed[:223], list(range(224))):
        assert mcu.check_game(4, [], short, 3) == ["draw claimed with %d stones on the "
                                                   "board" % len(short)]
    assert mcu.check_game(0, [], [0, 1], 0) == ["game did not finish"]


def test_openings_differ_by_seed_and_lie_near_the_centre():
    assert mcu.opening(0) == []
    ops = [mcu.opening(seed) for seed in range(1, 9)]
    assert len({tuple(op) for op in ops}) == len(ops)
    for op in ops:
        assert op[0] == 7 * 15 + 7 and len(set(op)) == len(op) == 4
        assert all(4 <= m % 15 <= 10 and 4 <= m // 15 <= 10 for m in op)


def _without_docstrings(tree):
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            node.body = [s for s in body if not (isinstance(s, ast.Expr) and
                                                 isinstance(s.value, ast.Constant))]
    return ast.dump(tree)


@pytest.mark.parametrize("path", sorted((ROOT / "firmware").rglob("*.py"))
                         + [ROOT / "tools" / "mcu.py"], ids=lambda p: p.name)
def test_strip_source_keeps_the_code_and_line_numbers(path):
    text = path.read_text()
    out = mcu.strip_source(text)
    assert _without_docstrings(ast.parse(out)) == _without_docstrings(ast.parse(text))
    assert out.count("\n") == text.count("\n")
    toks = mcu.tokenize.generate_tokens(mcu.io.StringIO(out).readline)
    assert not [t for t in toks if t.type == mcu.tokenize.COMMENT]


SAME_GAMES = """
import sys
sys.path.insert(0, sys.argv[1])
import gomoku, ai
out = []
for rule in (0, 1, 4):
    for level in (1, 2):
        ai.seed(5)
        g = gomoku.Game(rule)
        for x, y in ((7, 7), (8, 8), (6, 8)):
            g.play(x, y)
        while not g.winner and g.moves < 60:
            m = ai.best_move(g, level)
            g.play(m % 15, m // 15)
        out.append(bytes(g.hist[:g.moves]).hex())
        while g.moves > 3:
            g.undo()
        out.append(bytes(g.pat).hex())
for args in ((-1, 3), (1, 15), (3, 3)):
    try:
        gomoku.Game(0).play(*args)
    except ValueError as e:
        out.append(str(e))
try:
    gomoku.Game(7)
except ValueError as e:
    out.append(str(e))
print(" ".join(out))
"""


def test_device_source_plays_the_same_games(tmp_path):
    """What the board gets (comments gone, constants folded, names made
    short) plays move for move what the engine plays, and refuses alike."""
    for path in sorted(mcu.ENGINE.glob("*.py")):
        (tmp_path / path.name).write_text(mcu.device_source(path.read_text(), path.stem))
    runs = [subprocess.run([sys.executable, "-c", SAME_GAMES, str(d)], capture_output=True,
                           text=True, timeout=600) for d in (mcu.ENGINE, tmp_path)]
    for r in runs:
        assert r.returncode == 0, r.stderr
    assert runs[0].stdout == runs[1].stdout
    assert "off the board" in runs[0].stdout and "rule must be" in runs[0].stdout


def test_device_source_renames_locals_to_rom_names_only():
    src = ("_LIMIT = 40\n_BUF = bytearray(4)\n\n\ndef f(total, rule=0):\n"
           "    count_here = total + _LIMIT\n    _BUF[0] = rule\n"
           "    return g(count_here, rule=rule)\n")
    out = mcu.device_source(src, "demo")
    tree = ast.parse(out)
    fn = [n for n in tree.body if isinstance(n, ast.FunctionDef)][0]
    assert [a.arg for a in fn.args.args][1:] == ["rule"]        # has a default
    assert fn.args.args[0].arg in mcu.SHORT_NAMES               # ROM names
    assert "rule=rule)" in out                                  # keyword kept
    assert "40" in out and "_LIMIT" not in out                  # folded
    assert "_BUF" not in out                                    # private renamed
    assert out.count("\n") == src.count("\n")
    ns = {"g": lambda a, rule: (a, rule)}
    exec(out, ns)
    assert ns["f"](2, rule=5) == (42, 5)


def test_device_source_folds_only_constants_assigned_once():
    src = "_N = 3\n_M = 4\n\n\ndef bump():\n    global _N\n    _N += 1\n    return _N + _M\n"
    out = mcu.device_source(src, "demo")
    assert "4" in out and "_M" not in out
    ns = {}
    exec(out, ns)
    assert (ns["bump"](), ns["bump"]()) == (8, 9)


def test_squeeze_drops_the_spaces_no_token_needs():
    assert mcu.squeeze("x = (a + 1) * b[2] if not c else d\n") == "x=(a+1)*b[2]if not c else d\n"


def test_device_source_folds_const_declarations_too():
    # `_NAME = const(n)` (the MicroPython idiom) folds like `_NAME = n`: the
    # stock firmware would otherwise keep each name as a qstr on its heap
    src = ("try:\n    from micropython import const\nexcept ImportError:\n"
           "    const = lambda x: x\n_SLOT = const(6)\n_g = [0] * 8\n\n\n"
           "def f():\n    _g[_SLOT] += 1\n    return _g[_SLOT]\n")
    out = mcu.device_source(src, "demo")
    assert "_SLOT" not in out and "[6]" in out
    ns = {}
    exec(out, ns)
    assert ns["f"]() == 1
