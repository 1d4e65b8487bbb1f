"""Renju forbidden moves for black, read from the Game's shape tables."""
# why(g, i): 0 allowed, 1 double three, 2 double four, 3 overline (i empty).
# A three is real if its straight four can be made on a point that is not
# forbidden itself; that check recurses (at most `deep` levels, far more than
# real positions need).
from pattern import reach, STEP, update


def why(g, i, deep=8):
    pat = g.pat
    j = i << 2
    n4 = n3 = t = over = 0
    for d in range(4):
        s = pat[j + (d >> 1)] >> ((d & 1) << 2) & 15
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
    return 1 if n3 > 1 and (not deep or _threes(g, i, t, deep - 1) > 1) else 0


def _threes(g, i, t, deep):
    # a three counts only if a straight four through i can follow on a
    # point that is not forbidden itself (the first empty point each way)
    pat = g.pat
    bd = g.board
    s = (i & 3) << 1
    bd[i >> 2] |= 1 << s
    update(g, i)
    n3 = 0
    for d in range(4):
        b = 2 if t >> d & 1 else 0
        while b:
            b -= 1
            s = -STEP[d] if b else STEP[d]
            k = reach(i, d, b)
            p = i
            while k:
                p += s
                v = bd[p >> 2] >> ((p & 3) << 1) & 3
                if v != 1:
                    if not v and pat[(p << 2) + (d >> 1)] >> ((d & 1) << 2) & 15 == 9 \
                            and not why(g, p, deep):
                        n3 += 1
                        b = 0
                    break
                k -= 1
    bd[i >> 2] &= ~(3 << ((i & 3) << 1))
    update(g, i)
    return n3
