"""Incremental shape tables: rewrite the codes near a changed point."""
from shapes import T as _T, TRX as _TRX

STEP = (1, 15, 16, 14)
# LINE: the 21 points centred on a point along one direction (line() fills
# it: 0 empty, 1 black, 2 white, 3 off the board); update and renju share it
LINE = bytearray(21)
_LB = bytearray(16)


def line(bd, i, d):
    # LINE[10 + k] = the point k steps from i along direction d
    ln = LINE
    st = STEP[d]
    dx = 0 if d == 1 else -1 if d == 3 else 1
    dy = 0 if d == 0 else 1
    x = i % 15 - 10 * dx
    y = i // 15 - 10 * dy
    p = i - 10 * st
    for k in range(21):
        ln[k] = bd[p >> 2] >> ((p & 3) << 1) & 3 if 0 <= x < 15 and 0 <= y < 15 else 3
        x += dx
        y += dy
        p += st


def update(g, i, s):
    # put stone s on point i (0: take it away) and recompute both colours'
    # codes within 5 of it on its 4 lines. No deeper calls than line():
    # the micro:bit's C stack holds only a few Python frames.
    bd = g.board
    k = (i & 3) << 1
    bd[i >> 2] = bd[i >> 2] & ~(3 << k) | s << k
    pat = g.pat
    ln = LINE
    lb = _LB
    for d in range(4):
        st = STEP[d]
        line(bd, i, d)
        ns = (d & 1) << 2
        keep = 0xF0 >> ns
        for c in range(1, 3):
            # side codes (1 << n) | own bits, nearest cell lowest: 4 cells for
            # a colour that wins with five or more, 5 for an exact colour
            ex = g.exact >> c & 1
            top = 32 if ex else 16
            off = ((c - 1) << 1) + (d >> 1)
            u = 1
            for k in range(15):
                v = ln[k]
                u = u << 1 if v == 0 else u << 1 | 1 if v == c else 1
                if u >= top + top:
                    u = u & (top - 1) | top
                if k > 3:
                    lb[k + 1] = u
            w = 1
            for k in range(20, 5, -1):
                v = ln[k]
                w = w << 1 if v == 0 else w << 1 | 1 if v == c else 1
                if w >= top + top:
                    w = w & (top - 1) | top
                v = ln[k - 1]
                if k < 17 and v != 3:
                    j = ((i + (k - 11) * st) << 2) + off
                    if v:
                        pat[j] &= keep
                    else:
                        a = lb[k - 1]
                        b = w
                        if ex:
                            a = _TRX[a]
                            b = _TRX[b]
                        if a > b:
                            # no a, b = b, a: MicroPython 1.9.2 on the
                            # micro:bit builds a tuple for it (heap)
                            v = a
                            a = b
                            b = v
                        a = _T[(b * (b + 1) >> 1) + a] >> (ex << 2) & 15
                        pat[j] = pat[j] & keep | a << ns
