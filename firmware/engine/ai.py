"""Gomoku AI: best_move(g, level) -> y*15+x."""
# Level 1: a single-ply scorer over the shape tables; allocates nothing.
# Higher levels come from the search module, imported only when asked for.
# per-direction weight of a shape code (see gomoku). Sums rank: five >
# straight four, double four, four-three, three threes (>= 780) > double
# three (>= 600) > four > three > twos. The thresholds below are candscan's
# _WIN, _W_FOUR_THREE and _W_DOUBLE as literals: importing const here took
# the micro:bit's renju game past its heap (gamestate failed to import).
_W = (0, 1, 6, 20, 30, 300, 320, 480, 4000, 4000, 30000)
SEED = [0]
# the levels the handheld's menu offers: 1 here, 2 in search (its top).
# Level 3 (search's deepsearch, with vct) is for the PC, asked for by number:
# device builds leave those modules out (tools/build.py PC_ONLY), so a device
# answers level 3 with "level 3 not available"
LEVELS = (1, 2)


def seed(n):
    # seeds the search levels' PRNG; SEED keeps n, for a test to read back.
    # A seed that is not an int fails in the PRNG's arithmetic (TypeError)
    # before SEED changes: an explicit check cost 0.2 KB of the game's heap
    try:
        import search
        search.seed(n)
    except ImportError:
        pass
    SEED[0] = n


def best_move(g, level=1):
    if g.winner:
        import refusal
        raise refusal.error(2)                      # game over
    if level != 1 or type(level) is not int:
        try:
            import search
        except ImportError:
            import refusal
            raise refusal.error(8, level)           # no such level
        return search.best_move(g, level)
    # Level 1, here and not in a function of its own: renju's check below
    # calls pattern.update, and the micro:bit's C stack is short (a frame
    # each call).
    W = _W
    P = g.pat
    bd = g.board
    me = g.turn
    why = g._why
    ao = (me - 1) << 1
    do = 2 - ao
    best = -999
    bi = -1
    bo = 0
    p = 0
    while p < 225:
        i = p << 2
        v = P[i + ao]
        w = P[i + ao + 1]
        e = P[i + do]
        f = P[i + do + 1]
        if v | w | e | f:
            a = W[v & 15] + W[v >> 4] + W[w & 15] + W[w >> 4]
            d = W[e & 15] + W[e >> 4] + W[f & 15] + W[f >> 4]
            if a >= 600 or d >= 600:
                k = _key(a, d)
            else:
                k = a + d + d
            if why and (k > best or k == best < 64):
                # renju: a point where black has a shape, short of a five,
                # may be forbidden to black. Ask why wherever the point may
                # be taken: a new best, or a tie below 64, which goes to the
                # point nearer the centre (an overline weighs only 1)
                s = a if me == 1 else d
                if 0 < s < 30000 and why(g, p):
                    k = -999 if me == 1 else _key(a, 0)
        elif bd[p >> 2] >> ((p & 3) << 1) & 3:
            k = -999
        else:
            # no shape anywhere near: the free point nearest the centre
            v = p % 15 - 7
            w = p // 15 - 7
            k = -1 - v * v - w * w
        if k >= best:
            # quiet ties go to the point nearest the centre, not the first
            # one found: the reply to a lone stone is next to it
            v = p % 15 - 7
            w = p // 15 - 7
            v = v * v + w * w
            if k > best or best < 64 and v < bo:
                best = k
                bi = p
                bo = v
        p += 1
    return bi


def _key(a, d):
    # own five > block five > own win-next > block it > own double three >
    # block it > the rest by a + 2d (defence first pays against the seeds)
    t = 0
    if a >= 600 or d >= 600:
        t = (6 if a >= 30000 else 5 if d >= 30000 else 4 if a >= 780 else
             3 if d >= 780 else 2 if a >= 600 else 1)
    return (t << 20) + a + d + d
