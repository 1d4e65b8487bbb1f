"""Renju forbidden points for black, read from the shape tables."""
from pattern import reach, STEP


# Renju: why(g, i) -> 0 if black may play the empty point i, else 1 double
# three, 2 double four, 3 overline. A three is real only if its straight
# four can be made on a point that is not forbidden itself. That point is
# judged by its codes as they stand, its straight four counted as a four
# (one level of the recursion: no table is touched, the C stack stays small).
def why(g, i, d0=-1):
    pat = g.pat
    j = i << 2
    n4 = n3 = t = over = 0
    for d in range(4):
        s = 9 if d == d0 else pat[j + (d >> 1)] >> ((d & 1) << 2) & 15
        if s == 10:
            return 0
        if s == 1:
            over = 3
        elif s >= 7:
            n4 += 2 if s == 8 else 1
        elif s >= 5:
            n3 += 1
            t |= 1 << d
    if over or n4 > 1:
        return over or 2
    if n3 < 2 or d0 >= 0:
        return 1 if n3 > 1 else 0
    n3 = 0
    for d in range(4):
        if t >> d & 1 and _three(g, i, d):
            n3 += 1
    return 1 if n3 > 1 else 0


def _three(g, i, d):
    # the first empty point each way from i: a straight four with i, allowed?
    bd = g.board
    for b in range(2):
        s = -STEP[d] if b else STEP[d]
        k = reach(i, d, b)
        p = i
        while k:
            p += s
            k -= 1
            v = bd[p >> 2] >> ((p & 3) << 1) & 3
            if v != 1:
                if not v and _straight(bd, i, p, d) and not why(g, p, d):
                    return 1
                break
    return 0


def _straight(bd, i, e, d):
    # with black on i and e: exactly four in a row through e, each end
    # empty and filling it makes exactly five
    n = 1
    for b in range(2):
        s = -STEP[d] if b else STEP[d]
        k = reach(e, d, b)
        p = e
        v = 1
        while k and v == 1:
            p += s
            k -= 1
            v = 1 if p == i else bd[p >> 2] >> ((p & 3) << 1) & 3
            n += v == 1
        if v or k and bd[(p + s) >> 2] >> (((p + s) & 3) << 1) & 3 == 1:
            return 0
    return n == 4
