"""Incremental shape tables: rewrite the codes near a changed point."""
from shapes import T as _T, TRF as _TRF, TRX as _TRX

STEP = (1, 15, 16, 14)


def reach(i, d, back):
    # steps from point i along direction d (back: -STEP[d]) on the board
    x = i % 15
    y = i // 15
    if d == 1:
        x = y
    elif d == 2:
        if back:
            return x if x < y else y
        return 14 - (x if x > y else y)
    elif d == 3:
        if back:
            return 14 - x if 14 - x < y else y
        return x if x < 14 - y else 14 - y
    return x if back else 14 - x


def update(g, i):
    # recompute both colours' codes within 5 of point i on its 4 lines
    bd = g.board
    ln = g._ln
    d = 0
    while d < 4:
        st = STEP[d]
        k = 0
        while k < 21:
            ln[k] = 3
            k += 1
        lo = reach(i, d, 1)
        if lo > 10:
            lo = 10
        hi = reach(i, d, 0)
        if hi > 10:
            hi = 10
        k = 10 - lo
        p = i - lo * st
        while k <= 10 + hi:
            ln[k] = (bd[p >> 2] >> ((p & 3) << 1)) & 3
            p += st
            k += 1
        base = i - 10 * st
        _sweep(g, ln, base, st, d, 1)
        _sweep(g, ln, base, st, d, 2)
        d += 1


def _sweep(g, ln, base, st, d, c):
    pat = g.pat
    lb = g._lb
    ns = (d & 1) << 2
    keep = 0xF0 >> ns
    if g.exact >> c & 1:
        tr = _TRX
        sh = 4
    else:
        tr = _TRF
        sh = 0
    off = ((c - 1) << 1) + (d >> 1)
    lc = 1
    k = 0
    while k < 15:
        v = ln[k]
        if v == 0:
            lc <<= 1
        elif v == c:
            lc = (lc << 1) | 1
        else:
            lc = 1
        if lc >= 64:
            lc = (lc & 31) | 32
        k += 1
        if k >= 5:
            lb[k] = lc
    rc = 1
    k = 20
    while k > 5:
        v = ln[k]
        if v == 0:
            rc <<= 1
        elif v == c:
            rc = (rc << 1) | 1
        else:
            rc = 1
        if rc >= 64:
            rc = (rc & 31) | 32
        k -= 1
        if k <= 15:
            v = ln[k]
            if v != 3:
                j = ((base + k * st) << 2) + off
                if v:
                    pat[j] &= keep
                else:
                    a = tr[lb[k]]
                    b = tr[rc]
                    if a > b:
                        a, b = b, a
                    pat[j] = (pat[j] & keep) | (((_T[((b * (b + 1)) >> 1) + a] >> sh) & 15) << ns)
