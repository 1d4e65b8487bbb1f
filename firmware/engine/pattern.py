"""Incremental shape tables: rewrite the codes near a changed point."""
from shapes import T as _T, TRX as _TRX, REV as _REV

STEP = (1, 15, 16, 14)


def update(g, i, s):
    # put stone s on point i (0: take it away) and recompute the codes that
    # see it: within 5 of it on its 4 lines, up to each colour's first
    # blocker. No calls: the micro:bit's C stack holds only a few frames.
    bd = g.board
    w = (i & 3) << 1
    bd[i >> 2] = bd[i >> 2] & ~(3 << w) | s << w
    pat = g.pat
    x0 = i % 15
    y0 = i // 15
    for d in range(4):
        st = STEP[d]
        # the 21 points centred on i along d, k = 0..20 (i at 10), as bits:
        # bit k of a where the point blocks black (white, off the board),
        # of b where it blocks white (black, off). On the board (the only
        # ones read): k = 10 - bk .. 10 + fw.
        bk = fw = 10
        if d != 1:                 # along x: forward is x + 1, or x - 1 for d 3
            u = 14 - x0 if d == 3 else x0
            if u < bk:
                bk = u
            if 14 - u < fw:
                fw = 14 - u
        if d:                      # along y: forward is y + 1
            if y0 < bk:
                bk = y0
            if 14 - y0 < fw:
                fw = 14 - y0
        a = (1 << 10 - bk) - 1 | 0x1FFFFF >> 11 + fw << 11 + fw   # off the board
        b = a
        p = i - bk * st
        k = 10 - bk
        while k <= 10 + fw:
            v = bd[p >> 2] >> ((p & 3) << 1) & 3
            if v == 2:
                a |= 1 << k
            elif v:
                b |= 1 << k
            p += st
            k += 1
        st <<= 2                   # from a point's codes to the next one's
        ns = (d & 1) << 2
        keep = 0xF0 >> ns
        o = a | b
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
                    if not o >> k & 1:
                        # before k: its 5 points reversed, nearest lowest
                        s = _REV[a >> k - 5 & 31] | top
                        s &= -s
                        s |= _REV[b >> k - 5 & 31] & s - 1
                        w = a >> k + 1 | top
                        w &= -w
                        w |= b >> k + 1 & w - 1
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
                    elif a >> k & 1:
                        break
                    k += e
                    j += e * st
            v = a
            a = b
            b = v
