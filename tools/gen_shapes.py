"""Generate firmware/engine/shapes.py: the line-shape lookup tables.

`classify(line, q, exact)` is the plain definition of the 4-bit shape code a
stone placed on the empty cell `q` of one line makes (cells: 0 empty, 1 own,
2 blocked = opponent stone or off the board). `exact` is True for a colour
that wins with exactly five (standard rule, black under renju): a run of six
or more is then an overline, not a five. The tests use `classify` on whole
board lines as the slow, obviously-correct reference for the incremental
tables.

The engine looks codes up by two side codes (the cells left and right of the
point, see firmware/engine/pattern.py); this script fills those tables from
`classify` and writes shapes.py. Run: .venv/bin/python tools/gen_shapes.py
"""
from functools import lru_cache
from pathlib import Path

NONE, OVERLINE, TWO_D, TWO, THREE_D, THREE_B, THREE, FOUR, FOUR_D, FOUR_O, FIVE = range(11)
NAMES = ("NONE", "OVERLINE", "TWO_D", "TWO", "THREE_D", "THREE_B", "THREE",
         "FOUR", "FOUR_D", "FOUR_O", "FIVE")
OUT = Path(__file__).resolve().parents[1] / "firmware" / "engine" / "shapes.py"


def _run(a, q):
    """Length of the run of own stones through q (a[q] own)."""
    lo = q
    while lo > 0 and a[lo - 1] == 1:
        lo -= 1
    hi = q
    while hi < len(a) - 1 and a[hi + 1] == 1:
        hi += 1
    return lo, hi


def _near(a, q):
    return [e for e in range(max(0, q - 4), min(len(a), q + 5)) if a[e] == 0]


def _completions(a, q, exact):
    """Empty cells that give a five containing q (a[q] own)."""
    out = []
    for e in _near(a, q):
        b = list(a)
        b[e] = 1
        lo, hi = _run(b, e)
        n = hi - lo + 1
        if lo <= q <= hi and (n == 5 or (n > 5 and not exact)):
            out.append(e)
    return out


def _straight(a, q, exact):
    """True if q (own) is in exactly four in a row whose both ends make five."""
    lo, hi = _run(a, q)
    if hi - lo + 1 != 4:
        return False
    c = _completions(a, q, exact)
    return (lo - 1) in c and (hi + 1) in c


@lru_cache(maxsize=None)
def classify(line, q, exact):
    """Shape code for placing an own stone on empty cell q of `line` (a tuple)."""
    a = list(line)
    assert a[q] == 0
    a[q] = 1
    lo, hi = _run(a, q)
    n = hi - lo + 1
    if n >= 5:
        return FIVE if n == 5 or not exact else OVERLINE
    c = _completions(a, q, exact)
    if c:
        if _straight(a, q, exact):
            return FOUR_O
        return FOUR_D if len(c) > 1 else FOUR
    near = [e for e in _near(a, q) if e != q]
    ext = 0
    dead3 = False
    for e in near:
        b = list(a)
        b[e] = 1
        if _straight(b, q, exact):
            ext += 1
        elif _completions(b, q, exact):
            dead3 = True
    if ext:
        return THREE if ext > 1 else THREE_B
    if dead3:
        return THREE_D
    best = NONE
    for e in near:
        b = list(line)
        b[e] = 1
        k = classify(tuple(b), q, exact)
        if k in (THREE, THREE_B):
            return TWO
        if k == THREE_D:
            best = TWO_D
    return best


def side_cells(code):
    """Cells at distance 1, 2, ... of a side code (1 << L) | mask; 2 = blocked."""
    n = code.bit_length() - 1
    cells = [1 if code >> k & 1 else 0 for k in range(n)]
    return cells + [2] * (5 - n)


def translate(code5, exact):
    """5-cell side code (as swept by the engine) -> the 4-cell table index.

    Free colours ignore the fifth cell. For an exact colour an own stone at
    distance 5 poisons the run of own stones next to it and the empty cell
    before that run (any five using them would be an overline): the side is
    cut short before the poisoned cells; 0 means the cells 1..5 are all own
    (the point itself would make an overline).
    """
    n = code5.bit_length() - 1
    mask = code5 & ((1 << n) - 1)
    if n < 5:
        return code5
    if not exact or not mask >> 4 & 1:
        return 16 | (mask & 15)
    j = 5
    while j > 1 and mask >> (j - 2) & 1:
        j -= 1
    if j == 1:
        return 0
    keep = j - 2
    return (1 << keep) | (mask & ((1 << keep) - 1))


def table_entry(left, right):
    codes = []
    for exact in (True, False):
        if left == 0 or right == 0:
            codes.append(OVERLINE if exact else FIVE)
            continue
        line = list(reversed(side_cells(left))) + [0] + side_cells(right)
        codes.append(classify(tuple(line), 5, exact))
    return codes[0] << 4 | codes[1]


def tables():
    t = bytearray(528)
    for r in range(32):
        for left in range(r + 1):
            t[r * (r + 1) // 2 + left] = table_entry(left, r)
    trx = bytes(translate(c, True) if c else 1 for c in range(64))
    return bytes(t), trx


def literal(b):
    toks = []
    for v in b:
        ch = chr(v)
        toks.append(ch if 32 <= v < 127 and ch not in "\\'" else "\\x%02x" % v)
    lines, cur = [], ""
    for tok in toks:
        if len(cur) + len(tok) > 72:
            lines.append(cur)
            cur = ""
        cur += tok
    lines.append(cur)
    return "(\n    " + "\n    ".join("b'" + x + "'" for x in lines) + ")"


def source():
    t, trx = tables()
    return (
        '"""Generated by tools/gen_shapes.py: do not edit."""\n'
        "# T[r*(r+1)//2 + l] (side codes l <= r, 0..31) = exact code << 4 | free code.\n"
        "# TRX: an exact colour's 5-cell side code -> its table side code.\n"
        "# REV: 5 bits in reverse order.\n"
        "T = %s\nTRX = %s\nREV = %s\n" % (literal(t), literal(trx), literal(rev5())))


def rev5():
    return bytes(sum(1 << 4 - k for k in range(5) if v >> k & 1) for v in range(32))


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 if shapes.py is not what this makes")
    a = ap.parse_args(argv)
    text = source()
    if a.check:
        same = OUT.read_text() == text
        print("%s is %s" % (OUT, "current" if same else "out of date: run tools/gen_shapes.py"))
        return 0 if same else 1
    OUT.write_text(text)
    print("wrote", OUT)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
