"""The engine on the MicroPython unix port under a fixed heap: the same
cases as on CPython, the same tables, the same level-1 moves, and a level-1
move that allocates nothing (micropython.heap_lock())."""
import inspect
import random
from pathlib import Path

import ai
import gomoku
import upy
from test_engine_tables import recompute

TESTS = Path(__file__).resolve().parent


def test_engine_cases_on_the_unix_port():
    out = upy.run("import engine_cases\nengine_cases.run_all()", heapsize="128k",
                  extra_path=[TESTS])
    assert out.split() == ["ok", str(len(__import__("engine_cases").CASES))]


def _script(rnd, n):
    """A random play/undo script: (x, y) plays (illegal ones skipped), None undoes."""
    s = []
    for _ in range(n):
        s.append(None if rnd.random() < 0.15 else (rnd.randint(2, 12), rnd.randint(2, 12)))
    return s


def _replay(g, script):
    # also sent to the unix port, as it is
    for m in script:
        if m is None:
            if g.moves:
                g.undo()
            continue
        try:
            g.play(*m)
        except ValueError:
            pass
        if g.winner:
            g.undo()


def test_tables_and_level1_moves_match_cpython():
    scripts = [(rule, _script(random.Random(rule * 7 + k), 120)) for rule in (0, 1, 4)
               for k in range(2)]
    code = """
import gomoku
from heaplock import locked
%s
for rule, script in %r:
    g = gomoku.Game(rule)
    _replay(g, script)
    print(rule, g.moves, locked(g), ''.join('%%02x' %% b for b in g.pat))
""" % (inspect.getsource(_replay), scripts)
    lines = upy.run(code, heapsize="256k", extra_path=[TESTS]).split("\n")
    for (rule, script), line in zip(scripts, lines):
        r, moves, move, pat = line.split()
        g = gomoku.Game(rule)
        _replay(g, script)
        assert (int(r), int(moves)) == (rule, g.moves)
        assert bytes.fromhex(pat) == bytes(g.pat) == bytes(recompute(g))
        assert int(move) == ai.best_move(g, 1)


def test_level1_allocates_nothing_in_whole_games():
    """Every level-1 move of a game in each rule runs with the heap locked,
    including renju's forbidden-point checks for black and for white."""
    out = upy.run("""
import gomoku
from heaplock import locked
for rule in (0, 1, 4):
    g = gomoku.Game(rule)
    n = 0
    for x, y in ((7, 7), (8, 8), (6, 8), (9, 6)):
        g.play(x, y)
    while not g.winner:
        m = locked(g)
        g.play(m % 15, m // 15)
        n += 1
    print(rule, n, g.winner)
g = gomoku.Game(4)
for x, y in ((6, 7), (1, 9), (7, 7), (4, 1), (8, 5), (4, 13), (8, 6), (0, 4)):
    g.play(x, y)
print('renju', g.forbidden(8, 7), locked(g))
""", heapsize="32k", extra_path=[TESTS])
    rows = out.split("\n")
    for rule, row in zip((0, 1, 4), rows):
        g = gomoku.Game(rule)           # the same game on CPython
        for x, y in ((7, 7), (8, 8), (6, 8), (9, 6)):
            g.play(x, y)
        n = 0
        while not g.winner:
            m = ai.best_move(g, 1)
            g.play(m % 15, m // 15)
            n += 1
        assert list(map(int, row.split())) == [rule, n, g.winner]
    tag, forb, m = rows[3].split()
    assert forb == "True" and int(m) != 8 + 7 * 15


def test_renju_judges_two_stones_deep_without_allocating():
    """engine_cases' deep position: renju.why plays two stones on the
    tables to judge (4, 9), every point with the heap locked."""
    from engine_cases import DEEP_FORBIDDEN, DEEP_MOVES
    out = upy.run("""
import gomoku
from heaplock import locked_forbidden
g = gomoku.Game(4)
for m in %r:
    g.play(m %% 15, m // 15)
f = bytearray(225)
locked_forbidden(g, f)
print(''.join('%%d' %% b for b in f))
""" % (DEEP_MOVES,), heapsize="32k", extra_path=[TESTS])
    found = [(p % 15, p // 15) for p, c in enumerate(out.strip()) if c == "1"]
    assert found == DEEP_FORBIDDEN
