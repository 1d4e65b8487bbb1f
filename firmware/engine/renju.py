"""Renju forbidden points for black, read from the shape tables."""
from pattern import STEP, update

# why(g, i) -> 0 if black may play the empty point i, else 1 double three,
# 2 double four, 3 overline. A three is real only if its straight four can
# be made on a point black may play, judged the same way with i on the
# board, and so on down. A straight-four point is judged by its codes as
# they stand, its straight four counted as a four; only where those show
# two threes of its own does why play the point above it (pattern.update,
# taken back before it returns) and judge those threes a level deeper, up
# to 8 levels (a ninth point with two threes has them counted as real).
# One function, no recursion: its calls nest one deep (update), as a search
# running it with the heap locked needs (each Python call's frame then on
# the micro:bit's 1.8 KB C stack), and each def more would cost renju's
# import, the engine's tightest on the micro:bit, heap it does not have.
#
# LINE[0..20]: the 21 points centred on a point along one direction (0
# empty, 1 black, 2 white, 3 off the board). LINE[21..48]: the 7 levels
# above the one why is judging, 4 bytes each: the point, its lines with a
# three (bits 0..3; bit 4: played), the next way to look for a straight four
# (direction << 1 | side), and the real threes found so far.
LINE = bytearray(49)


def why(g, i):
    pat = g.pat
    bd = g.board
    s = LINE
    k = 21
    e = i
    d = q = -1
    m = a = n = 0
    while True:
        # e's codes for black, d's taken as a straight four: its lines with
        # a three (t) and its fault (r: 3 overline, 2 double four, 1 two
        # threes, real or not; 0 none, or a five)
        j = e << 2
        f = t = r = 0
        for c in range(4):
            v = 9 if c == d else pat[j + (c >> 1)] >> ((c & 1) << 2) & 15
            if v == 10:
                r = -1
                break
            if v == 1:
                f = 9
            elif v >= 7:
                f += 2 if v == 8 else 1
            elif v >= 5:
                r += 1
                t |= 1 << c
        r = 0 if r < 0 else 3 if f > 8 else 2 if f > 1 else 1 if r > 1 else 0
        if r == 1 and k < 49:
            # e's threes decide: judge them, with q (if any) on the board
            if q >= 0:
                if not m & 16:
                    update(g, q, 1)
                    m |= 16
                s[k] = q
                s[k + 1] = m
                s[k + 2] = a
                s[k + 3] = n
                k += 4
            q = e
            m = t
            a = n = 0
            r = -1
        elif q < 0:
            return r
        while True:
            if r >= 0:
                # the straight four at a is forbidden (r): the line's other
                # side; or it makes the three real: the next line
                if r:
                    a += 1
                else:
                    n += 1
                    a = (a | 1) + 1
            if n > 1 or a > 7:
                # q judged: r for the level above
                r = n >> 1
                if m & 16:
                    update(g, q, 0)
                if k == 21:
                    return r
                k -= 4
                q = s[k]
                m = s[k + 1]
                a = s[k + 2]
                n = s[k + 3]
                continue
            r = -1
            d = a >> 1
            if not m >> d & 1:
                a += 2
                continue
            # s[10 + j] = the point j steps from q along d (on the board:
            # its column x in 0..14 and its index p in 0..224), q black
            st = STEP[d]
            dx = (38 >> 2 * d & 3) - 1     # 1, 0, 1, -1
            x = q % 15 - 10 * dx
            p = q - 10 * st
            for j in range(21):
                s[j] = (bd[p >> 2] >> ((p & 3) << 1) & 3
                        if (x | p) >= 0 and x < 15 and p < 225 else 3)
                x += dx
                p += st
            s[10] = 1
            # the first empty point e from q going way b: black there makes
            # exactly four in a row, both ends empty and each end making
            # exactly five, a straight four?
            b = (a & 1) * 2 - 1
            e = 10 + b
            while s[e] == 1:
                e += b
            lo = hi = e
            while s[lo - 1] == 1:
                lo -= 1
            while s[hi + 1] == 1:
                hi += 1
            if (s[e] or hi - lo != 3 or s[lo - 1] or s[hi + 1]
                    or s[lo - 2] == 1 or s[hi + 2] == 1):
                a += 1
                continue
            e = q + (e - 10) * st
            break
