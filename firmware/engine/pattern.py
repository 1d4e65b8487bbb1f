"""Incremental shape tables: rewrite the codes near a changed point."""
from shapes import T as _T, TRX as _TRX

STEP = (1, 15, 16, 14)


def update(g, i, s):
    # put stone s on point i (0: take it away) and recompute the codes that
    # see it: within 5 of it on its 4 lines, up to each colour's first
    # blocker. No deeper calls: the micro:bit's C stack holds only a few
    # Python frames.
    bd = g.board
    w = (i & 3) << 1
    bd[i >> 2] = bd[i >> 2] & ~(3 << w) | s << w
    pat = g.pat
    x0 = i % 15
    y0 = i // 15
    for d in range(4):
        st = STEP[d]
        # the 21 points centred on i along d, k = 0..20 (i at 10), as bits:
        # bit k - 1 of a, b and bit 20 - k of x, y set where the point
        # blocks black (white or off the board: a, x) or white (black or
        # off: b, y). On the board: k = 10 - bk .. 10 + fw; read only those.
        if d == 0:
            bk = x0
            fw = 14 - x0
        elif d == 1:
            bk = y0
            fw = 14 - y0
        elif d == 2:
            bk = x0 if x0 < y0 else y0
            fw = 14 - (x0 if x0 > y0 else y0)
        else:
            bk = 14 - x0 if 14 - x0 < y0 else y0
            fw = x0 if x0 < 14 - y0 else 14 - y0
        if bk > 10:
            bk = 10
        if fw > 10:
            fw = 10
        # off the board (a: bit k for now, shifted below)
        a = (1 << 10 - bk) - 1 | 0x1FFFFF >> 11 + fw << 11 + fw
        x = (1 << 10 - fw) - 1 | 0x1FFFFF >> 11 + bk << 11 + bk
        b = a
        y = x
        p = i - bk * st
        k = 10 - bk
        while k <= 10 + fw:
            v = bd[p >> 2] >> ((p & 3) << 1) & 3
            if v == 2:
                a |= 1 << k
                x |= 0x100000 >> k
            elif v:
                b |= 1 << k
                y |= 0x100000 >> k
            p += st
            k += 1
        a >>= 1
        b >>= 1
        st <<= 2                   # from a point's codes to the next one's
        ns = (d & 1) << 2
        keep = 0xF0 >> ns
        o = x | y                  # bit 20 - k: point k is not empty
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
                    if not o >> 20 - k & 1:
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
                    elif x >> 20 - k & 1:
                        break
                    k += e
                    j += e * st
            v = a
            a = b
            b = v
            v = x
            x = y
            y = v
