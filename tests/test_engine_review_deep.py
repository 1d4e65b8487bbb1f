"""Review of search level 3 (deepsearch) and its VCT (vct): what their
contract promises whatever the strength: transposition-table entries read
back as stored and only for their own position, the bound a window proves
stored with its flag, mate scores that count the plies to the five (the
faster win, the slower loss preferred), the node budget kept and every
node counted, the game and the hash as they were after a search, forced
wins that hold against every defence (checked by brute force) (CPython)."""
import importlib

import pytest

import ai
import candscan
import deepsearch as D
import gomoku
import vct
from brute import fives, four_points, has_vcf, position, replay, state


@pytest.fixture(autouse=True)
def engine_in_use():
    """The engine modules ai.best_move reaches now: a simulated device's
    reset re-imports them, and a test here reads their tables."""
    global ai, candscan, D, gomoku, vct
    ai, candscan, D, gomoku, vct = (importlib.import_module(n) for n in
                                    ("ai", "candscan", "deepsearch", "gomoku", "vct"))

FAR = [(0, 0), (14, 14), (0, 14), (14, 0)]
# black's two open twos cross at (7, 7): a double three, no four anywhere
DOUBLE = [(5, 7), (6, 7), (7, 5), (7, 6)]
# a level-2 game, black to move: no forced line, a plain value
QUIET_GAME = [112, 113, 128, 144, 142, 127, 141, 114]
# a level-2 game, black to move: fours, no five, no straight four or
# four-three, and a VCF (test_search_tactics' ROOT_VCF_GAME)
VCF_GAME = [112, 113, 98, 84, 97, 99, 85, 127, 69, 155, 141, 125, 55, 83, 53, 101, 52, 54,
            37, 21, 70, 100]
WIN = 30000
BIG = 29000


def new_search():
    D.prepare(3)
    D._lv[1] = D._lv[1] % 63 + 1


def ab(g, depth, ply=1, alpha=-WIN - 1, beta=WIN + 1, limit=100000, fresh=True):
    """deepsearch._ab for the side to move, set up as best_move sets it up
    (level 3's width and VCF limit): (value, nodes)."""
    G = D._g
    if fresh:
        new_search()
    G[D._HASH] = D.hash_of(g)
    G[D._NODES], G[D._NODE_LIMIT], G[D._STOP] = 0, limit, 0
    G[D._WIDTH] = D._LV[0][1]
    G[D._VCF_NODES], G[D._VCF_LIMIT] = 0, D._LV[0][3]
    return D._ab(g, g.turn, depth, alpha, beta, ply), G[D._NODES]


def entry(h):
    """The TT entry of hash h in this search: (depth, flag, value, move), or None."""
    j = D._ttget(h)
    if j < 0:
        return None
    T = D._tt
    return T[j + 3], T[j + 4] & 3, T[j + 5] + (T[j + 6] << 8) - 32768, T[j + 7]


# ---------------------------------------------------------------- the TT

@pytest.mark.parametrize("h", (0, 1, 123456789, (1 << 30) - 1, 0x2AAAAAAA, 0x15555555))
def test_tt_entry_reads_back_as_stored_and_only_for_its_own_hash(h):
    new_search()
    slots = len(D._tt) >> 3
    for depth, flag, value, move in ((1, 1, 0, 0), (7, 2, -29985, 224), (16, 3, 29990, 112),
                                     (3, 1, -1, 17), (2, 2, 12345, 255)):
        new_search()
        D._ttput(h, depth, flag, value, move)
        assert entry(h) == (depth, flag, value, move)
        # every hash bit above the slot index is checked: a position that
        # shares the slot but differs in any of them misses
        for b in range(30):
            other = h ^ (1 << b)
            if other % slots == h % slots:
                assert entry(other) is None, b
        # and an entry of the previous search is no entry
        D._lv[1] = D._lv[1] % 63 + 1
        assert entry(h) is None


def test_tt_generation_wrapping_round_clears_the_table():
    # 63 generations: when the count comes round to 1 again, entries
    # stored 63 searches ago would read as this search's: the table is cleared
    h = D.hash_of(position(DOUBLE, FAR))
    D.prepare(3)
    D._lv[1] = 1
    D._ttput(h, 5, 1, 4321, 7)
    assert entry(h) == (5, 1, 4321, 7)
    D._lv[1] = 63
    assert entry(h) is None
    assert ai.best_move(gomoku.Game(), 3) == 7 * 15 + 7     # the search that wraps round
    assert D._lv[1] == 1 and entry(h) is None
    assert not any(D._tt)


def test_level3_tt_keeps_winning_mate_scores_true_at_any_ply():
    # black to move makes the double three (7, 7) and wins: the win one ply
    # further off for each ply deeper it is met (as test_search_tactics
    # checks for a loss)
    g = position(DOUBLE, FAR)
    assert g.turn == 1 and fives(g, 1) == [] and fives(g, 2) == []
    v1, n1 = ab(g, 2, 1)
    v3, n3 = ab(g, 2, 3)
    assert v1 > BIG and v3 == v1 - 2 and n1 == n3 > 1
    # stored at ply 3, met again at ply 1 in the same search: one node (a
    # TT hit), and the ply-1 value; and the other way round
    assert ab(g, 2, 1, fresh=False) == (v1, 1)
    ab(g, 2, 1)
    assert ab(g, 2, 3, fresh=False) == (v3, 1)


@pytest.mark.parametrize("window", ((-1, 1), (0, 1), (-1, 0), (100, 200), (-200, -100),
                                    (None, 0), (0, None)))
def test_level3_stores_the_bound_its_window_proves(window):
    # fail-soft alpha-beta over (alpha, beta), around the full-window value
    # v: inside, v exactly, stored exact; at or below alpha an upper bound
    # (flag 3), at or above beta a lower bound (flag 2), each stored as the
    # value returned, at the depth searched, with a free point as its move
    g = replay(QUIET_GAME)
    before = state(g)
    h = D.hash_of(g)
    v, _ = ab(g, 2)
    assert -BIG < v < BIG and entry(h)[:3] == (2, 1, v)
    alpha = -WIN - 1 if window[0] is None else v + window[0]
    beta = WIN + 1 if window[1] is None else v + window[1]
    r, _ = ab(g, 2, 1, alpha, beta)
    e = entry(h)
    assert e is not None and e[0] == 2 and e[2] == r
    if r <= alpha:
        assert v <= alpha and e[1] == 3
    elif r >= beta:
        assert v >= beta and e[1] == 2
    else:
        assert r == v and e[1] == 1
    m = e[3]
    assert g.stone(m % 15, m // 15) == 0
    assert state(g) == before


# ---------------------------------------------------------- mate scores

def test_level3_mate_scores_count_the_plies_to_the_five():
    # a win whose five is played k plies on (the move at ply p is ply p+1)
    # scores WIN - k, a loss k - WIN: the faster win and the slower loss
    # score higher, whatever the depth left
    five = position([(4, 7), (5, 7), (6, 7), (7, 7)], [(3, 7)] + FAR[:3])
    lost = position([(4, 7), (5, 7), (6, 7), (7, 7)], FAR[:3])   # white, to an open four
    three = position([(5, 7), (6, 7), (7, 7)], FAR[:3])          # black's straight four
    vcf_game = replay(VCF_GAME)
    assert five.turn == 1 and fives(five, 1) == [7 * 15 + 8]
    assert lost.turn == 2 and len(fives(lost, 1)) == 2 and fives(lost, 2) == []
    assert three.turn == 1 and fives(three, 1) == [] and fives(three, 2) == []
    assert vcf_game.turn == 1 and has_vcf(vcf_game, 1, 4)
    assert fives(vcf_game, 1) == [] and fives(vcf_game, 2) == []
    for ply in (1, 2, 5):
        for depth in (0, 1, 2):
            assert ab(five, depth, ply)[0] == WIN - (ply + 1)
            assert ab(lost, depth, ply)[0] == (ply + 2) - WIN
            assert ab(three, depth, ply)[0] == WIN - (ply + 3)
        for depth in (0, 1):
            # a VCF with no straight four: four, block, four, block, five
            v, nodes = ab(vcf_game, depth, ply)
            assert BIG < v <= WIN - (ply + 5) and nodes > 1


# ----------------------------------------------------------- node budget

@pytest.mark.parametrize("limit", (0, 1, 2, 3, 5, 8, 13, 30, 80))
@pytest.mark.parametrize("points", (QUIET_GAME, VCF_GAME[:-2], VCF_GAME))
def test_level3_counts_every_node_and_vcf_move_and_stops_at_its_budget(monkeypatch, limit, points):
    # every node searched and every VCF move tried counts against the
    # budget; once it is spent (a VCF may run past it) no node is searched
    G = D._g
    real_ab, real_vcf = D._ab, D._vcf
    seen = {"nodes": 0, "vcf": 0, "late": 0}

    def counted_ab(g, me, depth, alpha, beta, ply):
        # the hash the node reads and stores under is its position's
        assert G[D._HASH] == D.hash_of(g) and me == g.turn
        before = G[D._NODES]
        v = real_ab(g, me, depth, alpha, beta, ply)
        if before >= G[D._NODE_LIMIT]:
            seen["late"] += 1
            assert G[D._STOP] == 1 and v == 0
        else:
            seen["nodes"] += 1
        return v

    def counted_vcf(g, me):
        r = real_vcf(g, me)
        seen["vcf"] += G[D._VCF_NODES]
        assert G[D._VCF_NODES] <= G[D._VCF_LIMIT]
        return r

    monkeypatch.setattr(D, "_ab", counted_ab)
    monkeypatch.setattr(D, "_vcf", counted_vcf)
    g = replay(points)
    before = state(g)
    ab(g, 3, 1, limit=limit)
    assert G[D._NODES] == seen["nodes"] + seen["vcf"]
    assert seen["nodes"] <= limit
    assert seen["late"] == G[D._STOP] <= 1
    assert state(g) == before


def test_level3_keys_every_node_by_its_own_position(monkeypatch):
    # through the root's moves and every node below: the hash a node reads
    # and stores its TT entry under is the Zobrist hash of its position
    G = D._g
    real_ab = D._ab
    seen = []

    def checked_ab(g, me, depth, alpha, beta, ply):
        seen.append(G[D._HASH] == D.hash_of(g) and me == g.turn)
        return real_ab(g, me, depth, alpha, beta, ply)

    monkeypatch.setattr(D, "_ab", checked_ab)
    monkeypatch.setattr(D, "_LV", ((3,) + D._LV[0][1:2] + (400,) + D._LV[0][3:],))
    g = replay(QUIET_GAME)
    ai.seed(2)
    ai.best_move(g, 3)
    assert len(seen) > 50 and all(seen)


def test_level3_value_is_the_best_of_its_moves_values():
    # PVS's null windows and re-searches give the value plain minimax
    # gives: at depth 2 the root's value is the best of -(each candidate's
    # value a ply deeper), each searched on its own
    for points in (QUIET_GAME, QUIET_GAME[:6], VCF_GAME[:9], VCF_GAME[:12]):
        g = replay(points)
        v, _ = ab(g, 2)
        G = D._g
        n = candscan.gen(g, 1, g.turn)
        assert G[D._STATUS] == D._S_QUIET
        values = []
        for p in bytes(D._mv[D._MW:D._MW + n]):
            g.play(p % 15, p // 15)
            values.append(-ab(g, 1, 2)[0])
            g.undo()
        assert n >= 2 and v == max(values), points


# ------------------------------------------------- the game left as found

@pytest.mark.parametrize("points", (QUIET_GAME, VCF_GAME[:-1], VCF_GAME[:9]))
def test_level3_leaves_the_game_and_its_hash_as_it_found_them(points):
    g = replay(points)
    before = state(g)
    ai.seed(4)
    m = ai.best_move(g, 3)
    assert state(g) == before
    assert D._g[D._HASH] == D.hash_of(g)
    assert 0 <= m < 225 and g.stone(m % 15, m // 15) == 0
    ai.seed(4)
    assert ai.best_move(g, 3) == m


def test_vct_answers_and_search_leave_the_game_as_found():
    g = position(DOUBLE, FAR)
    for me in (1, 2):
        before = state(g)
        vct.search(g, me, 3, 8, 3000, 40)
        assert state(g) == before
        out = bytearray(12)
        n = vct.answers(g, me, 7 * 15 + 7, out)
        assert state(g) == before and n >= 1 and out[0] == 7 * 15 + 7


# ------------------------------------- VCT wins, checked by brute force

def replies(g, r=2):
    """Empty points within r of a stone: every defence that could matter."""
    return [p for p in range(225) if not g.stone(p % 15, p // 15) and any(
        g.stone(p % 15 + dx, p // 15 + dy) for dx in range(-r, r + 1) for dy in range(-r, r + 1)
        if 0 <= p % 15 + dx < 15 and 0 <= p // 15 + dy < 15)]


def holds_by_vcf(g, me, m):
    """After `me` plays m, every reply of the defender near the stones
    leaves `me` a five or a VCF (brute force, on a plain copy of the board)."""
    g.play(m % 15, m // 15)
    try:
        for d in replies(g):
            g.play(d % 15, d // 15)
            ok = not g.winner and (fives(g, me) or has_vcf(g, me, 2))
            g.undo()
            if not ok:
                return False
        return True
    finally:
        g.undo()


# one threat, then a VCF: black's (7, 7) crosses two open twos (DOUBLE),
# or two split twos; the same on the other diagonal
ONE_THREAT = [
    (DOUBLE, FAR, 7 * 15 + 7),
    ([(4, 7), (5, 7), (7, 4), (7, 5)], FAR, 7 * 15 + 7),
    ([(5, 5), (6, 6), (9, 5), (8, 6)], FAR, 7 * 15 + 7),
]


@pytest.mark.parametrize("black, white, win", ONE_THREAT)
def test_vct_one_threat_win_holds_against_every_reply(black, white, win):
    g = position(black, white)
    assert g.turn == 1 and not has_vcf(g, 1, 4)
    assert vct.search(g, 1, 1, 8, 500, 40) == win
    assert holds_by_vcf(g, 1, win)


def test_vct_claims_no_win_a_defence_refutes():
    # DOUBLE with white's shut three (10..12, 12) and shut (13, 9..10):
    # each black three can be met by a white four, and white's (13, 11)
    # then makes a double four. Brute force: some reply to (7, 7) leaves
    # black no VCF, and vct claims no one-threat win
    black = DOUBLE + [(9, 12), (13, 8)]
    g = position(black, [(10, 12), (11, 12), (12, 12), (13, 9), (13, 10), (13, 11)])
    assert fives(g, 2) == [] and not has_vcf(g, 1, 4)
    assert not holds_by_vcf(g, 1, 7 * 15 + 7)
    assert vct.search(g, 1, 1, 8, 3000, 40) == -1


def on_lines(p, q):
    """q lies on one of p's four lines, within 5 points."""
    dx, dy = q % 15 - p % 15, q // 15 - p // 15
    return (dx == 0 or dy == 0 or abs(dx) == abs(dy)) and max(abs(dx), abs(dy)) <= 5


# threes black's move makes, each end free: open, split, at the edge
THREES = [
    ([(5, 7), (6, 7)], FAR, 7 * 15 + 7),              # _ _ X X [X] _ _
    ([(4, 7), (6, 7)], FAR, 7 * 15 + 7),              # X _ X [X]
    ([(3, 7), (4, 7)], FAR, 7 * 15 + 6),              # X X _ [X]
    ([(5, 5), (6, 6)], FAR, 8 * 15 + 8),              # diagonal, split by (7, 7)
    ([(9, 5), (8, 6)], FAR, 7 * 15 + 7),              # anti-diagonal
    ([(1, 1), (1, 2)], [(7, 7), (8, 8), (9, 9)], 4 * 15 + 1),   # column, split, near the edge
    (DOUBLE, FAR, 7 * 15 + 7),                        # two threes at once
]


@pytest.mark.parametrize("black, white, p", THREES)
def test_vct_answers_a_three_with_every_point_that_makes_it_a_four(black, white, p):
    # the defences of a three are the points where its colour would then
    # make a four (brute force: five to follow), on the three's lines
    g = position(black, white)
    g.turn = 1
    out = bytearray(24)
    n = vct.answers(g, 1, p, out)
    g.play(p % 15, p // 15)
    want = sorted(q for q in four_points(g, 1) if on_lines(p, q))
    g.undo()
    assert want and out[0] == p and sorted(out[1:n]) == want


def test_vct_answers_a_four_with_its_five_point():
    g = position([(4, 7), (5, 7), (6, 7)], [(3, 7)] + FAR[:2])
    assert g.turn == 1
    out = bytearray(24)
    n = vct.answers(g, 1, 7 * 15 + 7, out)
    assert list(out[:n]) == [7 * 15 + 7, 7 * 15 + 8]


def test_level3_move_and_work_do_not_depend_on_a_search_of_another_position():
    # killers, history and TT of one search are not read by the next: with
    # the same seed, the same move from the same number of nodes
    a, b = replay(QUIET_GAME), replay(VCF_GAME[:9])
    runs = []
    for g in (b, a, b):
        ai.seed(6)
        m = ai.best_move(g, 3)
        runs.append((m, D._g[D._NODES]))
    assert runs[0] == runs[2]


def test_level3_guard_keeps_only_moves_that_stop_the_opponents_vct():
    # white to move; black's (7, 7) is a VCT if white passes: of its
    # candidates, level 3 keeps only those after which black has none
    g = position(DOUBLE, FAR[:3])
    assert g.turn == 2
    L = D._LV[0]
    D._g[D._WIDTH] = L[1]
    D._g[D._VCF_NODES], D._g[D._VCF_LIMIT] = 0, L[3]
    n = candscan.gen(g, 0, 2)
    assert n >= 2 and D._g[D._STATUS] == D._S_QUIET
    before = state(g)
    k = D._guard(g, 2, n, L)
    kept = bytes(D._mv[:k])
    assert state(g) == before and 0 < k <= n
    for p in kept:
        g.play(p % 15, p // 15)
        assert vct.search(g, 1, L[6], L[7], L[9], L[3]) == -1, p
        g.undo()


@pytest.mark.parametrize("limit", (1, 2, 3, 5, 8, 13, 30, 60, 120, 400))
def test_vct_counts_its_moves_and_stops_at_its_budget(limit):
    # every threat and every defence tried is counted (a forced reply to
    # one is not), VCF moves too: at most two moves played for each counted;
    # without VCF moves none past the budget, with them one VCF past it
    from test_search_deep_vct import TWO_STEP
    g = replay(TWO_STEP)
    before = state(g)
    played = [0]
    real_play = g.play

    def play(x, y):
        played[0] += 1
        real_play(x, y)

    g.play = play
    G = candscan._g
    for vnodes in (0, 10):
        played[0] = 0
        r = vct.search(g, 1, 3, 8, limit, vnodes)
        used = G[candscan._VCT_NODES]
        assert used <= limit + vnodes and played[0] <= 2 * used, vnodes
        assert r in (-1, 8 * 15 + 8)
    del g.play
    assert state(g) == before
