"""Renju forbidden points for black, read from the shape tables."""
from pattern import STEP

# LINE: the 21 points centred on a point along one direction (line() fills
# it: 0 empty, 1 black, 2 white, 3 off the board)
LINE = bytearray(21)


def line(bd, i, d):
    # LINE[10 + k] = the point k steps from i along direction d (on the
    # board: its column x in 0..14 and its index p in 0..224)
    ln = LINE
    st = STEP[d]
    dx = 0 if d == 1 else -1 if d == 3 else 1
    x = i % 15 - 10 * dx
    p = i - 10 * st
    for k in range(21):
        ln[k] = bd[p >> 2] >> ((p & 3) << 1) & 3 if (x | p) >= 0 and x < 15 and p < 225 else 3
        x += dx
        p += st


# why(g, i) -> 0 if black may play the empty point i, else 1 double three,
# 2 double four, 3 overline. A three is real only if its straight four can be
# made on a point that is not forbidden itself. That point is judged by its
# codes as they stand, its straight four counted as a four (one level deep,
# no table touched). No recursion: why calls only line(), _four_at() and
# _tally(), so a search that runs it with the heap locked (every Python
# call's frame then on the micro:bit's 1.8 KB C stack) nests two calls below
# its own.
def _tally(pat, i, d0):
    # i's four codes for black, d0's taken as a straight four: -1 if one is
    # a five, else overline << 12 | fours << 8 | threes << 4 | their lines
    j = i << 2
    r = 0
    for d in range(4):
        s = 9 if d == d0 else pat[j + (d >> 1)] >> ((d & 1) << 2) & 15
        if s == 10:
            return -1
        if s == 1:
            r |= 0x1000
        elif s >= 7:
            r += 0x200 if s == 8 else 0x100
        elif s >= 5:
            r += 16 + (1 << d)
    return r


def _bad(r):
    return 0 if r < 0 else 3 if r >> 12 else 2 if r >> 8 > 1 else 1 if (r >> 4 & 15) > 1 else 0


def _four_at(ln, b):
    # the first empty point e from LINE's middle going way b: black on it
    # makes exactly four in a row, both ends empty and each end making
    # exactly five? e's offset from the middle, else 0. A leaf: why() calls
    # it, so the search's call depth stays as line() makes it.
    e = 10 + b
    while ln[e] == 1:
        e += b
    if ln[e]:
        return 0
    ln[e] = 1
    lo = hi = e
    while ln[lo - 1] == 1:
        lo -= 1
    while ln[hi + 1] == 1:
        hi += 1
    ln[e] = 0
    if (hi - lo == 3 and ln[lo - 1] == 0 and ln[hi + 1] == 0
            and ln[lo - 2] != 1 and ln[hi + 2] != 1):
        return e - 10
    return 0


def why(g, i):
    # (kept small: MicroPython 1.9.2 parses a whole top-level def at once,
    # and compiling renju on the micro:bit is the engine's tightest import)
    pat = g.pat
    t = _tally(pat, i, -1)
    r = _bad(t)
    if r != 1:
        return r
    ln = LINE
    n3 = 0
    for d in range(4):
        if not t >> d & 1:
            continue
        line(g.board, i, d)
        ln[10] = 1
        for b in range(-1, 2, 2):
            k = _four_at(ln, b)
            if k and not _bad(_tally(pat, i + k * STEP[d], d)):
                n3 += 1
                break
    return 1 if n3 > 1 else 0
