"""The incremental shape tables equal a fresh recomputation, always.

The reference is tools/gen_shapes.classify applied to every whole board line
(edges and the other colour as blocks): slow and plain. The engine only
rewrites codes near each played or undone move, from a generated lookup.
"""
import random

from hypothesis import given, settings, strategies as st

import gomoku
from tools import gen_shapes
from tools.gen_shapes import classify, FIVE, OVERLINE, FOUR_O, THREE, THREE_B, THREE_D, TWO

DIRS = ((1, 0), (0, 1), (1, 1), (-1, 1))


def recompute(g):
    """The 900-byte table from scratch, by classify() on whole lines."""
    out = bytearray(900)
    for i in range(225):
        x, y = i % 15, i // 15
        if g.stone(x, y):
            continue
        for d, (dx, dy) in enumerate(DIRS):
            px, py = x, y
            while 0 <= px - dx < 15 and 0 <= py - dy < 15:
                px, py = px - dx, py - dy
            line, q = [], None
            while 0 <= px < 15 and 0 <= py < 15:
                if (px, py) == (x, y):
                    q = len(line)
                line.append(g.stone(px, py))
                px, py = px + dx, py + dy
            for c in (1, 2):
                cells = tuple(0 if v == 0 else 1 if v == c else 2 for v in line)
                code = classify(cells, q, bool(g.exact >> c & 1))
                out[4 * i + 2 * (c - 1) + (d >> 1)] |= code << (4 * (d & 1))
    return out


def check(g):
    assert bytes(g.pat) == bytes(recompute(g))
    stones = [(i % 15, i // 15) for i in g.hist[:g.moves]]
    assert len(set(stones)) == g.moves
    for n, (x, y) in enumerate(stones):
        assert g.stone(x, y) == 1 + n % 2
    assert sum(1 for i in range(225) if g.stone(i % 15, i // 15)) == g.moves


# A move: a point near the middle (dense, many shapes) or anywhere; or undo.
step = st.one_of(st.tuples(st.integers(3, 11), st.integers(3, 11)),
                 st.tuples(st.integers(0, 14), st.integers(0, 14)),
                 st.just("undo"))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from((0, 1, 4)), st.lists(step, min_size=1, max_size=90))
def test_tables_after_random_play_and_undo(rule, steps):
    g = gomoku.Game(rule)
    for s in steps:
        if s == "undo":
            if g.moves:
                g.undo()
            continue
        try:
            g.play(*s)
        except ValueError:
            pass
        if g.winner:
            g.undo()
    check(g)
    while g.moves:
        g.undo()
    assert not any(g.board) and not any(g.pat)


def test_tables_in_long_dense_games():
    """Many moves near the centre, undo bursts, all three rules."""
    for rule in (0, 1, 4):
        rnd = random.Random(rule + 5)
        g = gomoku.Game(rule)
        for n in range(400):
            if g.moves and (g.winner or rnd.random() < 0.15):
                for _ in range(rnd.randint(1, 3)):
                    if g.moves:
                        g.undo()
            else:
                try:
                    g.play(rnd.randint(2, 12), rnd.randint(2, 12))
                except ValueError:
                    pass
            if n % 50 == 49:
                check(g)
        check(g)


def test_shape_codes_mean_what_they_say():
    def code(s, exact=False):
        cells = tuple({".": 0, "x": 1, "o": 2, "q": 0}[ch] for ch in s)
        return classify(cells, s.index("q"), exact)
    assert code("..xxqx..") == FOUR_O
    assert code("o.xxqx.o") == gen_shapes.FOUR_O
    assert code("x.xqx.x") == gen_shapes.FOUR_D
    assert code("oxxqx.") == gen_shapes.FOUR
    assert code("..xq.x..") == THREE_B
    assert code("...xqx...") == THREE
    assert code("o.xqx.o") == THREE_D
    assert code("...xq....") == TWO
    assert code(".xxqxxx.") == FIVE
    assert code(".xxqxxx.", exact=True) == OVERLINE
    assert code("xxxxq.") == FIVE
    assert code("xxxxxq", exact=True) == OVERLINE
    assert code("ooqoo") == gen_shapes.NONE
    # exact colours: an own stone beyond the window spoils the five there
    assert code(".xxxq.x", exact=False) == FOUR_O
    assert code(".xxxq.x", exact=True) == gen_shapes.FOUR


def test_generated_tables_are_current():
    """firmware/engine/shapes.py is exactly what tools/gen_shapes.py writes."""
    assert gen_shapes.OUT.read_text() == gen_shapes.source()


def test_gen_shapes_check_writes_nothing_and_says_when_out_of_date(tmp_path, monkeypatch,
                                                                   capsys):
    out = tmp_path / "shapes.py"
    out.write_text("stale")
    monkeypatch.setattr(gen_shapes, "OUT", out)
    assert gen_shapes.main(["--check"]) == 1
    assert "out of date" in capsys.readouterr().out and out.read_text() == "stale"
    assert gen_shapes.main([]) == 0 and gen_shapes.main(["--check"]) == 0
    assert out.read_text() == gen_shapes.source()


def test_memory_budget():
    g = gomoku.Game()
    assert len(g.board) + len(g.pat) <= 1024
    assert len(g.board) == 57 and len(g.pat) == 900
