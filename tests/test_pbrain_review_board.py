"""Review of tools/pbrain.py: a BOARD under freestyle and exactly five is a
set of stones, in any order (the protocol: "the manager may send moves in
any order and the brain must somehow cope with it"; renju's are in play
order); a TURN that ends the game is kept and the game stays over; a
mid-game INFO rule the game so far does not fit is refused; BOARD's field 3
(continuous games) is refused; an engine move the game refuses is an
ERROR, not a crash. Bad input changes nothing."""
import random
import sys

import pytest

import ai

sys.path.insert(0, str(__import__("upy").ROOT / "tools"))
import pbrain  # noqa: E402
from test_pbrain import as_white, expected_move, xy  # noqa: E402


def brain_with(*lines):
    """An in-process pbrain.Brain at level 1 fed `lines`: (brain, answers)."""
    b = pbrain.Brain(level=1)
    return b, feed(b, *lines)


def feed(b, *lines):
    out = []
    for line in lines:
        out += b.handle(line)
    return out


def board(own, opp):
    """BOARD lines for the brain's stones `own` and the opponent's `opp`."""
    return (["BOARD"] + ["%d,%d,1" % p for p in own] + ["%d,%d,2" % p for p in opp]
            + ["DONE"])


# ---- BOARD under freestyle and exactly five: a set of stones ----------------

SIX = [(x, 7) for x in range(2, 8)]                 # black's six, 2..7,7
WHITE = [(x, 0) for x in (2, 4, 6, 8, 10)]


def test_the_reported_board_is_a_position_whatever_the_order(brain):
    """Under exactly five black's six is no win: the position is legal in
    any order of its lines. With 5,7 fourth, replayed as given, the six's
    5,7 came after an exact five (2,3,4,6,7 then 5,7 makes six, but 2..6
    first is a five): the brain said the game had ended."""
    assert brain.ask("START 15") == "OK"
    brain.send("INFO rule 1")
    assert SIX[3] == (5, 7)                         # fourth
    last = [p for p in SIX if p != (5, 7)] + [(5, 7)]
    answers = [brain.ask(*board(WHITE, opp)) for opp in (SIX, last, SIX[::-1])]
    assert answers[0] == answers[1] == answers[2], answers
    # the engine's move for the position, played in an order with no five
    assert xy(answers[0]) == expected_move(1, [(2, 7), (2, 0), (3, 7), (4, 0), (4, 7), (6, 0),
                                               (6, 7), (8, 0), (7, 7), (10, 0), (5, 7)])


def overline_position():
    """Black: a six (row 7), a crossing six (column 4, through 4,7), a
    seven on a diagonal and an eleven (row 13); white: a ten (row 11), a
    seven (column 13) and a six on an anti-diagonal; scattered stones even
    the counts. No row of exactly five anywhere."""
    black = set(SIX) | {(4, y) for y in range(2, 8)} | {(k, k - 6) for k in range(6, 13)}
    black |= {(x, 13) for x in range(0, 11)}
    white = {(x, 11) for x in range(0, 10)} | {(13, y) for y in range(0, 7)}
    white |= {(12 - k, 3 + k) for k in range(6)}      # 12,3 .. 7,8
    spare = [(x, y) for y in (1, 9) for x in range(0, 15, 2)
             if (x, y) not in black | white]
    while len(white) < len(black):
        white.add(spare.pop())
    assert not black & white and len(black) == len(white)
    for stones in (black, white):
        assert pbrain.find_five(stones, True) is None
        assert pbrain.find_five(stones, False)        # overlines: a win in freestyle
    return sorted(black), sorted(white)


@pytest.mark.parametrize("brain_black", [True, False])
def test_overlines_of_both_colours_in_any_order(brain_black):
    black, white = overline_position()
    if not brain_black:
        black = black + [(14, 14)]      # one black stone more: the brain is white
    own, opp = (black, white) if brain_black else (white, black)
    rnd = random.Random(7)
    answers = set()
    for _ in range(6):
        o, p = own[:], opp[:]
        rnd.shuffle(o)
        rnd.shuffle(p)
        b, out = brain_with("START 15", "INFO rule 1", *board(o, p))
        assert out[0] == "OK" and len(out) == 2, out
        xy(out[1])
        assert sorted(b.moves[:-1]) == sorted(black + white)
        assert b.own == (1 if brain_black else 2)
        answers.add(out[1])
    assert len(answers) == 1, answers


def test_play_order_never_makes_a_five_on_the_way():
    """No part of each order, as it is played, holds a row of exactly five:
    sixes, sevens, a ten (cut anywhere after its fifth stone it leaves a
    five), an eleven, a fifteen, crossing and of both colours."""
    black, white = overline_position()
    for stones in (black, white, [(x, 5) for x in range(15)], [(x, 5) for x in range(10)]):
        order = pbrain.play_order(stones)
        assert sorted(order) == sorted(stones)
        for n in range(1, len(order) + 1):
            assert pbrain.find_five(set(order[:n]), True) is None, order[:n]


def test_play_order_gives_up_past_its_steps():
    assert pbrain.play_order(SIX, steps=0) is None
    assert pbrain.play_order(WHITE, steps=0) == WHITE      # no overline: as given


def test_a_board_sent_in_an_order_of_play_keeps_it_for_takeback():
    """White's six, completed by 3,7 sent last, is already in an order of
    play: kept, so TAKEBACK takes back the moves as the manager played
    them (the six reordered put 3,7 before the end, and TAKEBACK 3,7 was
    refused)."""
    own = [(0, 0), (0, 2), (0, 4), (0, 10), (0, 12), (14, 14)]
    opp = [(0, 7), (1, 7), (2, 7), (4, 7), (5, 7), (3, 7)]
    lines = ["BOARD"]
    for o, p in zip(own, opp):              # as played: the brain black, first
        lines += ["%d,%d,1" % o, "%d,%d,2" % p]
    b, out = brain_with("START 15", "INFO rule 1", *lines, "DONE")
    assert out[0] == "OK" and b.moves[:12] == [m for pair in zip(own, opp) for m in pair]
    assert feed(b, "TAKEBACK %d,%d" % b.moves[-1], "TAKEBACK 3,7", "TAKEBACK 14,14") \
        == ["OK"] * 3
    assert b.moves == [m for pair in zip(own[:5], opp[:5]) for m in pair]


def test_a_board_with_no_order_found_is_an_error_and_changes_nothing(monkeypatch):
    b, out = brain_with("START 15", "TURN 7,7")
    before = list(b.moves)
    monkeypatch.setattr(pbrain, "play_order", lambda stones: None)
    assert feed(b, "INFO rule 1", *board(WHITE, SIX)) == [
        "ERROR BOARD: black's stones have no order of play found in which no move makes "
        "a five on the way to their overlines"]
    assert b.moves == before


@pytest.mark.parametrize("rule, opp, error", [
    (1, [(x, 7) for x in range(2, 7)] + [(9, 9)],
     "ERROR the game is over: black has five from 2,7 to 6,7"),
    (0, SIX, "ERROR the game is over: black has 6 in a row from 2,7 to 7,7"),
    (1, [(3, 3 + k) for k in range(5)] + [(9, 9)],
     "ERROR the game is over: black has five from 3,3 to 3,7"),
])
def test_a_five_on_the_board_is_named_and_changes_nothing(rule, opp, error):
    b, out = brain_with("START 15", "TURN 7,7")
    before = list(b.moves)
    assert feed(b, "INFO rule %d" % rule, *board(WHITE, opp)) == [error]
    assert b.moves == before and b.rule == rule
    assert xy(feed(b, "TURN 0,14")[0]) == expected_move(rule, before + [(0, 14)])


def test_renju_plays_the_board_in_the_order_given():
    """Renju's BOARD is in play order: black's 5,7 last makes an overline,
    forbidden to black; first, it is an ordinary stone."""
    black = [(2, 7), (3, 7), (4, 7), (6, 7), (7, 7)]
    b, out = brain_with("START 15", "INFO rule 4", *board(WHITE, black + [(5, 7)]))
    assert out[1] == "ERROR 5,7: (5, 7) is forbidden for black: overline"
    assert b.moves == []
    out = feed(b, *board(WHITE, [(5, 7)] + black))
    assert out == ["ERROR move 10,0 comes after the game ended (won by black with 6,7)"]


# ---- a TURN that ends the game ------------------------------------------------

def full_board():
    """A board filled with no five anywhere: pairs along each row, shifted
    a point each row. Black (113 points) where ((x // 2) + y) is even."""
    black = [(x, y) for y in range(15) for x in range(15) if (x // 2 + y) % 2 == 0]
    white = [(x, y) for y in range(15) for x in range(15) if (x // 2 + y) % 2 == 1]
    assert (len(black), len(white)) == (113, 112)
    return black, white


def test_a_turn_that_fills_the_board_is_kept_and_the_game_is_drawn():
    black, white = full_board()
    last_b, last_w = (7, 7), (7, 6)
    assert last_b in black and last_w in white
    black.remove(last_b)
    white.remove(last_w)
    b, out = brain_with("START 15", *board(white, black))   # the brain is white
    x, y = xy(out[1])
    over = "ERROR the game is over (a draw: no point left to play after 7,7)"
    assert feed(b, "TAKEBACK %d,%d" % (x, y), "PLAY 7,6", "TURN 7,7") == ["OK", "7,6", over]
    assert b.game.winner == 3 and b.moves[-1] == last_b
    assert feed(b, "TURN 0,0", "BEGIN", "PLAY 0,0") == [over] * 3
    assert feed(b, "TAKEBACK 7,7") == ["OK"]
    assert b.game.winner == 0
    assert feed(b, "RESTART") == ["OK"]
    assert xy(feed(b, "BEGIN")[0]) == expected_move(0, [])


@pytest.mark.parametrize("again", [board([], [(7, 7)]), ["RESTART"], ["START 15"]])
def test_after_a_winning_turn_board_restart_or_start_plays_again(again):
    b, out = brain_with("START 15")
    moves = [(0, 0), (0, 14), (1, 0), (2, 14), (2, 0), (4, 14), (3, 0), (6, 14)]
    b.game, b.moves = b._new_game(moves)
    b.own = 2                           # the brain is white
    assert feed(b, "TURN 4,0") == ["ERROR the game is over (won by black with 4,0)"]
    assert b.moves == moves + [(4, 0)] and b.game.winner == 1
    if again[0] == "BOARD":
        assert xy(feed(b, *again)[0]) == expected_move(0, [(7, 7)])
    else:
        assert feed(b, *again, "BEGIN")[0] == "OK"
        assert b.moves == [expected_move(0, [])]


# ---- a mid-game INFO rule the game does not fit ------------------------------

def test_info_rule_that_the_game_breaks_is_refused_and_the_rule_stays(brain):
    """Exactly five: black's six on row 0 is no win, and the game goes on.
    Freestyle would have ended it at the six, before the moves after it: the
    INFO is refused (told at the next TURN, in place of its move), and the
    game plays on under exactly five."""
    assert brain.ask("START 15") == "OK"
    brain.send("INFO rule 1")
    moves = as_white(brain, [(0, 0), (1, 0), (2, 0), (4, 0), (5, 0), (3, 0), (9, 9)],
                     [(0, 14), (2, 14), (4, 14), (6, 14), (8, 14), (10, 14), (12, 14)])
    brain.send("INFO rule 0")
    assert brain.silent()
    assert brain.ask("TURN 3,9") == (
        "ERROR INFO rule 0 refused: the game so far breaks it: move 10,14 comes after the "
        "game ended (won by black with 3,0); the rule stays 1 until START or RESTART")
    assert xy(brain.ask("TURN 3,9")) == expected_move(1, moves + [(3, 9)])


# black's six on row 0, its last move 3,0
SIX_LAST = [(0, 0), (0, 14), (1, 0), (2, 14), (2, 0), (4, 14), (4, 0), (6, 14),
            (5, 0), (8, 14), (3, 0)]


def test_info_rule_that_would_end_the_game_is_refused():
    """The six last: under freestyle the game would be over already."""
    b, out = brain_with("START 15", "INFO rule 1")
    moves = SIX_LAST
    b.game, b.moves = b._new_game(moves)
    b.own = 1                           # the six is the brain's: white to move
    assert feed(b, "INFO rule 0", "TURN 3,9") == [
        "ERROR INFO rule 0 refused: under it the game so far would be over (won by black "
        "with 3,0), not still on; the rule stays 1 until START or RESTART"]
    assert (b.rule, b.game.rule, b.moves) == (1, 1, moves)
    assert xy(feed(b, "TURN 3,9")[0]) == expected_move(1, moves + [(3, 9)])


def test_info_rule_that_would_undo_a_win_is_refused():
    """Freestyle: black's six won. Under exactly five it would not have."""
    b, out = brain_with("START 15")
    b.game, b.moves = b._new_game(SIX_LAST)
    assert b.game.winner == 1
    assert feed(b, "INFO rule 1", "BEGIN") == [
        "ERROR INFO rule 1 refused: under it the game so far would be still on, not over "
        "(won by black with 3,0); the rule stays 0 until START or RESTART"]
    assert (b.rule, b.game.rule, b.game.winner, b.moves) == (0, 0, 1, SIX_LAST)


@pytest.mark.parametrize("new_game", ["RESTART", "START 15"])
def test_a_rule_the_game_refused_rules_the_next_game(new_game):
    """The refusal was for the game it came in: the new game takes the
    rule asked for, and its first move gets no stale ERROR."""
    b, out = brain_with("START 15", "INFO rule 1")
    b.game, b.moves = b._new_game(SIX_LAST)
    b.own = 1
    assert feed(b, "INFO rule 0") == [] and b.rule == 1
    assert feed(b, new_game) == ["OK"]
    assert (b.rule, b.game.rule, b.moves) == (0, 0, [])
    assert feed(b, "BEGIN") == ["7,7"]
    # a later good INFO rule forgets the refused one
    b, out = brain_with("START 15", "INFO rule 1")
    b.game, b.moves = b._new_game(SIX_LAST)
    feed(b, "INFO rule 0", "INFO rule 1", "RESTART")
    assert (b.rule, b.game.rule) == (1, 1) and not b.info_errors


# ---- BOARD field 3, engine errors --------------------------------------------

def test_board_field_3_is_refused_and_changes_nothing():
    b, out = brain_with("START 15", "TURN 7,7")
    before = list(b.moves)
    assert feed(b, "BOARD", "7,7,3", "DONE") == [
        "ERROR BOARD line '7,7,3': field 3 (continuous game) is not supported: the brain "
        "does not play continuous games"]
    assert b.moves == before
    assert feed(b, "INFO rule 2", "TURN 3,3") == [
        "ERROR INFO rule 2: continuous games are not supported"]
    assert b.moves == before and b.rule == 0


def test_an_engine_move_the_game_refuses_is_an_error_not_a_crash(monkeypatch):
    b, out = brain_with("START 15", "TURN 7,7")
    before = list(b.moves)
    monkeypatch.setattr(ai, "best_move", lambda g, level: 7 * 15 + 7)     # occupied
    assert feed(b, "TURN 3,3") == [
        "ERROR engine chose 7,7, which the game refuses: (7, 7) is occupied"]
    assert b.moves == before and b.game.moves == len(before)
    monkeypatch.undo()
    assert xy(feed(b, "TURN 3,3")[0]) == expected_move(0, before + [(3, 3)])


def test_board_field_3_through_the_process(brain):
    assert brain.ask("START 15") == "OK"
    assert brain.ask("BOARD", "7,7,3", "DONE").startswith("ERROR BOARD line '7,7,3': field 3")
    assert xy(brain.ask("TURN 7,7")) == expected_move(0, [(7, 7)])

