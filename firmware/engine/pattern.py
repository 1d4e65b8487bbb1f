"""Incremental shape tables: rewrite the codes near a changed point."""
from shapes import T as _T, TRX as _TRX

STEP = (1, 15, 16, 14)
# LINE: the 21 points centred on a point along one direction (line() fills
# it: 0 empty, 1 black, 2 white, 3 off the board); update and renju share it
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


def update(g, i, s):
    # put stone s on point i (0: take it away) and recompute the codes that
    # see it: within 5 of it on its 4 lines, up to each colour's first
    # blocker. No deeper calls than line(): the micro:bit's C stack holds
    # only a few Python frames.
    bd = g.board
    w = (i & 3) << 1
    bd[i >> 2] = bd[i >> 2] & ~(3 << w) | s << w
    pat = g.pat
    ln = LINE
    for d in range(4):
        st = STEP[d] << 2           # from a point's codes to the next one's
        line(bd, i, d)
        # LINE as bits: LINE[k] is bit k - 1 of a, b and bit 20 - k of x, y,
        # set where the point blocks black (white, off the board: a, x) or
        # white (black, off: b, y)
        a = b = x = y = k = 0
        for v in ln:
            if v:
                if v & 2:
                    a |= 1 << k
                    x |= 0x100000 >> k
                if v & 1:
                    b |= 1 << k
                    y |= 0x100000 >> k
            k += 1
        a >>= 1
        b >>= 1
        ns = (d & 1) << 2
        keep = 0xF0 >> ns
        for c in range(2):
            # side codes (1 << n) | own bits, nearest point lowest, n up to
            # the first blocker: 4 points for a colour that wins with five
            # or more, 5 for an exact colour
            ex = g.exact >> c + 1 & 1
            top = 16 << ex
            # from i on, then back from i - 1: the points that see i, up to z
            # (excluded); s, w: their side codes (the stone s is set already)
            for e in range(-1, 2, 2):
                k = 10 + (e >> 1)
                z = 10 + e * (5 + ex)
                j = (i << 2) + (e >> 1) * st + (c << 1) + (d >> 1)
                while k != z:
                    v = ln[k]
                    if not v:
                        s = x >> 21 - k | top
                        s &= -s
                        s |= y >> 21 - k & s - 1
                        w = a >> k | top
                        w &= -w
                        w |= b >> k & w - 1
                        if ex:
                            s = _TRX[s]
                            w = _TRX[w]
                        if s > w:
                            # no s, w = w, s: MicroPython 1.9.2 on the
                            # micro:bit builds a tuple for it (heap)
                            v = s
                            s = w
                            w = v
                        s = _T[(w * (w + 1) >> 1) + s] >> (ex << 2) & 15
                        pat[j] = pat[j] & keep | s << ns
                    elif k == 10:
                        pat[j] &= keep
                    elif v != c + 1:
                        break
                    k += e
                    j += e * st
            v = a
            a = b
            b = v
            v = x
            x = y
            y = v
