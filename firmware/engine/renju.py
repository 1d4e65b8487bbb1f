"""Renju forbidden moves for black, read from the Game's shape tables."""
# why(g, i): 0 allowed, 1 double three, 2 double four, 3 overline.
# veto(g, i): raise ValueError naming the reason if i is forbidden.
from pattern import reach, STEP


def veto(g, i):
    w = why(g, i)
    if w:
        raise ValueError("(%d, %d) is forbidden for black: %s" % (
            i % 15, i // 15, ("double three", "double four", "overline")[w - 1]))


def why(g, i):
    pat = g.pat
    j = i << 2
    fours = 0
    threes = 0
    over = 0
    tdirs = 0
    d = 0
    while d < 4:
        s = (pat[j + (d >> 1)] >> ((d & 1) << 2)) & 15
        if s == 10:
            return 0
        if s == 1:
            over = 1
        elif s == 8:
            fours += 2
        elif s >= 7:
            fours += 1
        elif s >= 5:
            threes += 1
            tdirs |= 1 << d
        d += 1
    if over:
        return 3
    if fours > 1:
        return 2
    if threes < 2:
        return 0
    bd = g.board
    g._set(i, 1)
    real = 0
    d = 0
    while d < 4:
        if tdirs >> d & 1 and _real_three(g, bd, pat, i, d):
            real += 1
        d += 1
    g._set(i, 0)
    return 1 if real > 1 else 0


def _real_three(g, bd, pat, i, d):
    """True if some straight four through i on line d can be made legally."""
    st = STEP[d]
    back = 1
    while back >= 0:
        k = reach(i, d, back)
        if k > 4:
            k = 4
        p = i
        while k:
            p = p - st if back else p + st
            v = (bd[p >> 2] >> ((p & 3) << 1)) & 3
            if v == 2:
                break
            if v == 0:
                if (pat[(p << 2) + (d >> 1)] >> ((d & 1) << 2)) & 15 == 9 and not why(g, p):
                    return True
                break
            k -= 1
        back -= 1
    return False
