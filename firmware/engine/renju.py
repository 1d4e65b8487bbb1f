"""Renju forbidden points for black, read from the shape tables."""
from pattern import LINE, STEP, line


# why(g, i) -> 0 if black may play the empty point i, else 1 double three,
# 2 double four, 3 overline. A three is real only if its straight four can be
# made on a point that is not forbidden itself. That point is judged by its
# codes as they stand, its straight four counted as a four (one level of the
# recursion: no table is touched). One function, calling only line() and
# itself once: level 1 runs it with the heap locked, and then every Python
# call takes its frame from the micro:bit's 1.8 KB C stack.
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
    ln = LINE
    n3 = 0
    for d in range(4):
        if not t >> d & 1:
            continue
        line(g.board, i, d)
        ln[10] = 1
        # the first empty point e each way from i: black on it makes exactly
        # four in a row, both ends empty and each end making exactly five?
        for b in range(-1, 2, 2):
            e = 10 + b
            while ln[e] == 1:
                e += b
            if ln[e]:
                continue
            ln[e] = 1
            lo = hi = e
            while ln[lo - 1] == 1:
                lo -= 1
            while ln[hi + 1] == 1:
                hi += 1
            ln[e] = 0
            if (hi - lo == 3 and ln[lo - 1] == 0 and ln[hi + 1] == 0
                    and ln[lo - 2] != 1 and ln[hi + 2] != 1
                    and not why(g, i + (e - 10) * STEP[d], d)):
                n3 += 1
                break
    return 1 if n3 > 1 else 0
