"""Victory by continuous fours: each move a four, each reply forced."""
from candscan import _g, const

_VCF_NODES = const(2)       # candscan._g slots
_VCF_LIMIT = const(3)
_POINT = const(8)


def _fives(g, p, c):
    # empty points on p's lines where c now makes five: count; one in _g[_POINT]
    P = g.pat
    o = (c - 1) << 1
    x0 = p % 15
    y0 = p // 15
    n = d = 0
    q = -1
    while d < 4:
        # no tuple display here: MicroPython 1.9.2 builds it on the heap
        dx = 0 if d == 1 else -1 if d == 3 else 1
        dy = 0 if d == 0 else 1
        s = -4
        while s < 5:
            x = x0 + s * dx
            y = y0 + s * dy
            if s and 0 <= x < 15 and 0 <= y < 15:
                r = y * 15 + x
                if (P[(r << 2) + o + (d >> 1)] >> ((d & 1) << 2)) & 15 == 10:
                    n += 1
                    q = r
            s += 1
        d += 1
    _g[_POINT] = q
    return n


def vcf(g, me, only=-1):
    """First move of a win by continuous fours for `me` (to move), or -1."""
    P = g.pat
    why = g._why
    ao = (me - 1) << 1
    p = 0 if only < 0 else only
    while p < 225:
        v = P[(p << 2) + ao]
        w = P[(p << 2) + ao + 1]
        if v | w and (6 < (v & 15) < 10 or 6 < (v >> 4) < 10 or
                      6 < (w & 15) < 10 or 6 < (w >> 4) < 10):
            if _g[_VCF_NODES] >= _g[_VCF_LIMIT]:
                return -1
            _g[_VCF_NODES] += 1
            if not (me == 1 and why and why(g, p)):
                g.play(p % 15, p // 15)
                r = -1
                # drawn (renju: black left no point): no win
                n = 0 if g.winner else _fives(g, p, me)
                q = _g[_POINT]
                if n > 1 or (n == 1 and me == 2 and why and why(g, q)):
                    r = p
                elif n == 1:
                    g.play(q % 15, q // 15)
                    if not g.winner:
                        m = _fives(g, q, 3 - me)
                        if m < 2 and vcf(g, me, _g[_POINT] if m else -1) >= 0:
                            r = p
                    g.undo()
                g.undo()
                if r >= 0:
                    return r
        if only >= 0:
            return -1
        p += 1
    return -1


