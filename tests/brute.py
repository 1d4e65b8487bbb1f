"""Positions for the search tests, and brute-force answers about them that
do not read the engine's tables."""
import gomoku


def position(black, white, rule=gomoku.FREESTYLE):
    """A game with black's and white's stones played in turn."""
    g = gomoku.Game(rule)
    for i in range(max(len(black), len(white))):
        if i < len(black):
            g.play(*black[i])
        if i < len(white):
            g.play(*white[i])
    return g


def replay(points, rule=gomoku.FREESTYLE):
    """A game with these points (y*15+x) played in turn, black first."""
    g = gomoku.Game(rule)
    for p in points:
        g.play(p % 15, p // 15)
    return g


def state(g):
    """What a search must leave as it found it: stones, shape tables, the
    moves so far (hist past g.moves is scratch), turn, winner."""
    return (bytes(g.board), bytes(g.pat), bytes(g.hist[:g.moves]), g.moves, g.turn, g.winner)


def fives(g, c):
    """Empty points (y*15+x) where colour c would complete five or more."""
    return sorted(y * 15 + x for x, y in _board_fives(rows(g), c))


def rows(g):
    """A plain copy of the board: rows of 0, 1, 2 (rows[y][x])."""
    return [[g.stone(x, y) for x in range(15)] for y in range(15)]


def _five_at(board, x, y, c):
    # colour c on the empty (x, y) of a plain board makes five or more
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for s in (1, -1):
            i, j = x + s * dx, y + s * dy
            while 0 <= i < 15 and 0 <= j < 15 and board[j][i] == c:
                n += 1
                i, j = i + s * dx, j + s * dy
        if n >= 5:
            return True
    return False


def _board_fives(board, c, near=None):
    # empty points where c makes five: all, or those on near's four lines
    if near is None:
        pts = [(x, y) for y in range(15) for x in range(15)]
    else:
        x0, y0 = near
        pts = [(x0 + s * dx, y0 + s * dy) for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1))
               for s in range(-4, 5) if s]
    return sorted(set((x, y) for x, y in pts
                      if 0 <= x < 15 and 0 <= y < 15 and not board[y][x]
                      and _five_at(board, x, y, c)))


def _vcf(board, me, depth):
    you = 3 - me
    theirs = _board_fives(board, you)
    if len(theirs) > 1:
        return False
    moves = theirs or [(x, y) for y in range(15) for x in range(15) if not board[y][x]]
    for x, y in moves:
        board[y][x] = me
        mine = _board_fives(board, me, (x, y))
        won = len(mine) > 1
        if len(mine) == 1 and depth > 1:
            bx, by = mine[0]
            if not _five_at(board, bx, by, you):
                board[by][bx] = you
                won = _vcf(board, me, depth - 1)
                board[by][bx] = 0
        board[y][x] = 0
        if won:
            return True
    return False


def four_points(g, c):
    """Empty points where colour c (freestyle) would make a four: one five to follow."""
    board = rows(g)
    out = []
    for p in range(225):
        x, y = p % 15, p // 15
        if not board[y][x]:
            board[y][x] = c
            if _board_fives(board, c, (x, y)):
                out.append(p)
            board[y][x] = 0
    return out


def has_vcf(g, me, depth=8):
    """Freestyle: can `me` (to move, no five to play) win with at most `depth`
    fours in a row, each answered by the one block there is? By trying
    every four on a plain copy of the board, not the engine's tables."""
    board = rows(g)
    assert not _board_fives(board, me), "a five to play is no VCF question"
    return _vcf(board, me, depth)


def solve(g):
    """The game's value for the side to move, by trying every legal move to
    the end (1 won, 0 drawn, -1 lost): for boards a few points from full."""
    if g.winner:
        return 0 if g.winner == 3 else -1       # the side that moved won
    best = -1
    for p in range(225):
        x, y = p % 15, p // 15
        if g.stone(x, y) or g.forbidden(x, y) and g.turn == 1:
            continue
        g.play(x, y)
        v = -solve(g)
        g.undo()
        if v > best:
            best = v
            if v == 1:
                break
    return best
