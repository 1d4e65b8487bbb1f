"""tools/gen_shapes.py: what its users rely on and the other tests leave
open (found by mutating the tool by hand).

gen_shapes: `translate` keeps the shape a side makes, for both kinds of
colour; `literal` writes any bytes back as the same bytes; `classify`
refuses an occupied point; running the script writes shapes.py.
"""
import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tools import gen_shapes
from tools.gen_shapes import FIVE, OVERLINE, classify

ROOT = Path(__file__).resolve().parents[1]


# gen_shapes ------------------------------------------------------------

def side(code):
    """The cells of one side, nearest first, as the engine sweeps it: a side
    code is (1 << n) | mask, n cells (bit k: own at distance k + 1, else
    empty), then a blocker (the other colour or the board's edge)."""
    n = code.bit_length() - 1
    return [1 if code >> k & 1 else 0 for k in range(n)] + [2]


def shape(left, right, exact):
    """The code of the point between two sides, from a whole line."""
    line = list(reversed(side(left))) + [0] + side(right)
    return classify(tuple(line), len(side(left)), exact)


def test_translate_keeps_the_shape_of_a_five_cell_side():
    """The engine sweeps five cells of a side for an exact colour and looks
    the table up by translate's shorter code: for every pair of sides the
    point's shape must be the same either way. translate(.., False) keeps
    the docstring's word that a free colour ignores the fifth cell."""
    codes = range(1, 64)   # 0..5 cells, each own or empty, then a blocker
    wrong = []
    for exact in (True, False):
        for left in codes:
            if left < 32:
                continue    # a short side: nothing to translate
            t = gen_shapes.translate(left, exact)
            for right in codes:
                want = shape(left, right, exact)
                if t == 0:
                    got = OVERLINE if exact else FIVE
                else:
                    assert t < 32, (left, exact, t)
                    got = shape(t, right, exact)
                if got != want:
                    wrong.append((exact, bin(left), bin(right), want, got))
    assert not wrong, wrong[:5]


def test_translate_leaves_short_sides_alone():
    for code in range(1, 32):
        assert gen_shapes.translate(code, True) == code
        assert gen_shapes.translate(code, False) == code


def test_literal_gives_back_any_bytes():
    """A byte that is a quote, a backslash or not printable must be escaped
    (the tables hold none today, so the generated file cannot show it)."""
    for data in (bytes(range(256)), b"\\'\\\\'", b"", bytes(200)):
        text = gen_shapes.literal(data)
        assert ast.literal_eval(text) == data
        assert all(len(line) <= 79 for line in text.splitlines())


def test_classify_refuses_an_occupied_point():
    """The tests' reference must not quietly answer for a point that holds
    a stone (own or other)."""
    for cell in (1, 2):
        with pytest.raises(AssertionError):
            classify((0, 1, cell, 1, 0), 2, False)


def test_running_the_script_writes_shapes_py(tmp_path):
    """`.venv/bin/python tools/gen_shapes.py` (README) writes the module the
    engine imports, next to the tools folder it runs from."""
    (tmp_path / "tools").mkdir()
    (tmp_path / "firmware" / "engine").mkdir(parents=True)
    shutil.copyfile(ROOT / "tools" / "gen_shapes.py",
                    tmp_path / "tools" / "gen_shapes.py")
    out = subprocess.run([sys.executable, "tools/gen_shapes.py"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    written = tmp_path / "firmware" / "engine" / "shapes.py"
    assert written.read_text() == (ROOT / "firmware" / "engine" / "shapes.py").read_text()
    assert str(written.resolve()) in out.stdout
