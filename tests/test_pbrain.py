"""tools/pbrain.py: the Gomocup protocol brain, driven as a subprocess."""
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

import ai
import gomoku
from pbrain_process import Pbrain

ROOT = Path(__file__).resolve().parents[1]


def xy(answer):
    m = re.fullmatch(r"(\d+),(\d+)", answer)
    assert m, "not a move: %r" % answer
    return int(m.group(1)), int(m.group(2))


def expected_move(rule, moves):
    g = gomoku.Game(rule)
    for x, y in moves:
        g.play(x, y)
    m = ai.best_move(g, 1)
    return m % 15, m // 15


@pytest.mark.parametrize("rule", [0, 1, 4])
@pytest.mark.parametrize("brain_first", [True, False])
def test_a_whole_game_refereed_move_by_move(brain, rule, brain_first):
    """Every answer is legal and is the engine's own choice for the position."""
    rnd = random.Random(rule * 2 + brain_first)
    assert brain.ask("START 15") == "OK"
    brain.send("INFO timeout_turn 5000", "INFO timeout_match 100000", "INFO rule %d" % rule)
    ref = gomoku.Game(rule)
    moves = []
    answer = brain.ask("BEGIN") if brain_first else None
    while True:
        if answer is not None:
            x, y = xy(answer)
            assert (x, y) == expected_move(rule, moves)
            ref.play(x, y)                  # raises if illegal (renju too)
            moves.append((x, y))
            if ref.winner:
                break
        empty = [(x, y) for y in range(15) for x in range(15)
                 if not ref.stone(x, y) and not (ref.turn == 1 and ref.forbidden(x, y))]
        x, y = rnd.choice(empty[:40] if len(moves) < 10 else empty)
        ref.play(x, y)
        moves.append((x, y))
        if ref.winner:
            assert brain.ask("TURN %d,%d" % (x, y)).startswith("ERROR the game is over")
            break
        answer = brain.ask("TURN %d,%d" % (x, y))
    assert brain.ask("RESTART") == "OK"
    assert xy(brain.ask("BEGIN")) == expected_move(rule, [])


def test_board_gives_the_position_in_play_order(brain):
    assert brain.ask("START 15") == "OK"
    moves = [(7, 7), (8, 7), (7, 8), (9, 9), (7, 9), (2, 3)]   # brain is black to move
    brain.send("BOARD")
    for i, (x, y) in enumerate(moves):
        brain.send("%d,%d,%d" % (x, y, 1 if i % 2 == 0 else 2))
    answer = brain.ask("DONE")
    assert xy(answer) == expected_move(0, moves)
    # the brain as white: one opponent stone more
    brain.send("BOARD", "7,7,2", "3,12,1", "7,8,2", "DONE")
    assert xy(brain.read()) == expected_move(0, [(7, 7), (3, 12), (7, 8)])


def test_board_any_order(brain):
    assert brain.ask("START 15") == "OK"
    in_order = brain.ask("BOARD", "7,7,1", "1,1,2", "8,8,1", "13,2,2", "DONE")
    shuffled = brain.ask("BOARD", "13,2,2", "8,8,1", "1,1,2", "7,7,1", "DONE")
    assert in_order == shuffled
    assert xy(in_order) == expected_move(0, [(7, 7), (1, 1), (8, 8), (13, 2)])


def test_x_is_the_column(brain):
    """A lone opponent stone at x=3,y=11: the engine's answer, same axes."""
    assert brain.ask("START 15") == "OK"
    answer = brain.ask("TURN 3,11")
    assert xy(answer) == expected_move(0, [(3, 11)])
    x, y = xy(answer)
    assert brain.ask("TAKEBACK %d,%d" % (x, y)) == "OK"
    assert brain.ask("TAKEBACK 3,11") == "OK"
    assert brain.ask("TAKEBACK 3,11").startswith("ERROR")      # empty board now
    assert xy(brain.ask("TURN 11,3")) == expected_move(0, [(11, 3)])


def test_takeback_only_the_last_move(brain):
    assert brain.ask("START 15") == "OK"
    first = xy(brain.ask("BEGIN"))
    second = xy(brain.ask("TURN 0,0"))
    assert brain.ask("TAKEBACK %d,%d" % first).startswith("ERROR")
    assert brain.ask("TAKEBACK %d,%d" % second) == "OK"
    assert brain.ask("TAKEBACK 0,0") == "OK"
    # the same position again gives the same answer
    assert xy(brain.ask("TURN 0,0")) == second


def test_info_rule_numbers_are_the_engine_rules(monkeypatch):
    """pbrain hands brainloop.rule_from_info's answer to gomoku.Game as is."""
    monkeypatch.syspath_prepend(str(ROOT / "tools"))
    import brainloop
    assert [brainloop.rule_from_info(v) for v in ("0", "1", "4", "5")] == [
        gomoku.FREESTYLE, gomoku.STANDARD, gomoku.RENJU, gomoku.RENJU]
    for v in ("2", "3", "6"):           # bit 2: a continuous game
        with pytest.raises(brainloop.ProtocolError, match="continuous games"):
            brainloop.rule_from_info(v)


def test_renju_rule_reaches_the_engine(brain):
    """Under renju the brain as black gets the engine's renju answer."""
    assert brain.ask("START 15") == "OK"
    brain.send("INFO rule 4")
    moves = [(7, 7), (0, 0), (8, 7), (0, 14), (7, 8), (14, 0), (8, 9), (14, 14)]
    brain.send("BOARD")
    for i, (x, y) in enumerate(moves):
        brain.send("%d,%d,%d" % (x, y, 1 if i % 2 == 0 else 2))
    x, y = xy(brain.ask("DONE"))
    assert (x, y) == expected_move(4, moves)
    ref = gomoku.Game(4)
    for m in moves:
        ref.play(*m)
    assert not ref.forbidden(x, y)


BAD_INPUT = [
    ("START 20", "ERROR"), ("START", "ERROR"), ("START x", "ERROR"),
    ("RECTSTART 15,20", "ERROR"), ("TURN", "ERROR"), ("TURN 1", "ERROR"),
    ("TURN a,b", "ERROR"), ("TURN 1,2,3", "ERROR"), ("TURN -1,5", "ERROR"),
    ("TURN 15,0", "ERROR"), ("TURN 7,7", "ERROR"), ("TAKEBACK 3,3", "ERROR"),
    ("TAKEBACK", "ERROR"), ("INFO rule x\nTURN 8,8", "ERROR"),
    ("INFO rule 8\nTURN 8,8", "ERROR"), ("INFO\nBEGIN", "ERROR"),
    ("INFO rule 24\nBOARD\nDONE", "ERROR"), ("BEGIN", "ERROR"),
    ("HELLO there", "UNKNOWN"), ("42", "UNKNOWN"), ("SWAP2BOARD\n7,7\nDONE", "UNKNOWN"),
]


def test_bad_input_is_answered_and_changes_nothing(brain):
    assert brain.ask("START 15") == "OK"
    first = xy(brain.ask("TURN 7,7"))
    for line, word in BAD_INPUT:
        answer = brain.ask(line)
        assert answer.split()[0] == word, (line, answer)
        assert len(answer) > len(word) + 1, "no reason given for %r" % line
    # the game is as it was: the last two moves can be taken back, and the
    # brain plays on
    assert brain.ask("TAKEBACK %d,%d" % first) == "OK"
    assert brain.ask("TAKEBACK 7,7") == "OK"
    assert xy(brain.ask("TURN 8,8")) == expected_move(0, [(8, 8)])


BAD_BOARDS = [
    ["7,7,1", "7,7,2"],               # the same point twice
    ["7,7,1", "1,2"],                  # not x,y,who
    ["7,7,1", "1,2,7"],                # who out of range
    ["a,b,1"],                         # not numbers
    ["7,7,1", "8,8,1"],                # two own stones more: not the brain's turn
    ["15,1,1"],                        # off the board
    ["0,0,1", "1,0,2", "0,1,1", "2,0,2", "0,2,1", "3,0,2", "0,3,1", "4,0,2",
     "0,4,1", "14,14,2"],               # the game is already won
]


@pytest.mark.parametrize("lines", BAD_BOARDS, ids=range(len(BAD_BOARDS)))
def test_a_bad_board_is_an_error_and_changes_nothing(brain, lines):
    assert brain.ask("START 15") == "OK"
    first = xy(brain.ask("TURN 7,7"))
    answer = brain.ask("BOARD", *lines, "DONE")
    assert answer.startswith("ERROR "), answer
    assert brain.ask("TAKEBACK %d,%d" % first) == "OK"
    assert brain.ask("TAKEBACK 7,7") == "OK"


def test_board_before_start_is_read_to_done_and_answered_once(brain):
    """With no game, a BOARD block is still read through DONE: one ERROR,
    not an ERROR for BOARD and UNKNOWN for each of its lines."""
    answer = brain.ask("BOARD", "7,7,2", "DONE")
    assert answer.startswith("ERROR no game"), answer
    assert brain.silent()
    assert brain.ask("START 15") == "OK"
    assert xy(brain.ask("TURN 7,7")) == expected_move(0, [(7, 7)])


def test_protocol_odds_and_ends(brain):
    about = brain.ask("ABOUT")
    for key in ("name", "version", "author", "country"):
        assert re.search(r'\b%s="[^"]*"' % key, about), about
    brain.send("", "   ")                       # blank lines: no answer
    assert brain.silent()
    brain.send("INFO max_memory 83886080", "INFO game_type 1", "INFO folder /tmp",
               "INFO evaluate 1,1", "INFO time_left 1000")
    assert brain.silent()                       # INFO is never answered
    assert brain.ask("start 15\r") == "OK"      # case and CR line ends
    assert brain.ask("RECTSTART 15,15") == "OK"
    assert brain.ask("PLAY 4,5") == "4,5"
    assert xy(brain.ask("turn 5,5")) == expected_move(0, [(4, 5), (5, 5)])
    brain.send("END")
    assert brain.proc.wait(timeout=10) == 0


def test_end_of_input_exits_cleanly():
    b = Pbrain()
    try:
        b.proc.stdin.close()
        assert b.proc.wait(timeout=10) == 0
    finally:
        b.proc.stdin = open(os.devnull, "wb")
        b.close()


_OPPONENT = [(7, 7), (8, 6), (6, 9), (9, 9), (5, 5), (10, 3), (3, 10), (11, 11)]


def _level2_game(reply):
    """The replies reply(game, x, y) gives to a fixed sequence of opponent
    moves (each moved along its row off a stone already there)."""
    g = gomoku.Game()
    out = []
    for x, y in _OPPONENT:
        while g.stone(x, y):
            x = (x + 1) % 15
        g.play(x, y)
        mx, my = reply(g, x, y)
        g.play(mx, my)
        out.append((mx, my))
        if g.winner:
            break
    return out


def _brain_game(seed):
    b = Pbrain("--level", "2", "--seed", str(seed))
    try:
        assert b.ask("START 15") == "OK"
        return _level2_game(lambda g, x, y: xy(b.ask("TURN %d,%d" % (x, y))))
    finally:
        b.close()


def _engine_game(seed):
    """The same game answered in this process by level 2 after ai.seed."""
    def reply(g, x, y):
        m = ai.best_move(g, 2)
        return m % 15, m // 15
    ai.seed(seed)
    try:
        return _level2_game(reply)
    finally:
        ai.seed(1)          # the search's seed at import (movepick)


def test_seed_replays_a_search_game():
    """--seed N seeds the search as ai.seed(N) does: the brain plays the
    engine's own game for that seed, the same each time it is run. The seed
    matters in this game (seed 1, the search's default, plays another), so
    a brain that ignored --seed would not pass."""
    want = _engine_game(5)
    assert _engine_game(1) != want
    assert _brain_game(5) == want
    assert _brain_game(5) == want


def test_an_info_problem_is_told_at_the_next_move_command(brain):
    """The spec: the manager does not read the brain's output after INFO, so
    a problem with one waits for the first TURN, BOARD or BEGIN, answered
    with one ERROR in place of the move; a later good value of the same key
    clears it, and nothing else changes."""
    assert brain.ask("START 15") == "OK"
    brain.send("INFO rule 8", "INFO time_left -1234", "INFO", "INFO rule x", "INFO rule 8")
    assert brain.silent()
    answer = brain.ask("BEGIN")
    assert answer.startswith("ERROR ") and "caro" in answer, answer
    assert "key" in answer and "time_left" not in answer, answer
    assert brain.silent()
    # told once; the board is still empty and the rule freestyle
    assert xy(brain.ask("BEGIN")) == expected_move(0, [])
    brain.send("INFO rule 8", "INFO rule 4")         # the later rule stands
    assert brain.silent()
    assert brain.ask("RESTART") == "OK"
    moves = [(7, 7), (0, 0), (8, 7), (0, 14), (7, 8), (14, 0), (8, 9), (14, 14)]
    brain.send("BOARD", *("%d,%d,%d" % (x, y, 1 if i % 2 == 0 else 2)
                          for i, (x, y) in enumerate(moves)))
    assert xy(brain.ask("DONE")) == expected_move(4, moves)
    brain.send("INFO rule lots")
    answer = brain.ask("TURN 0,1")
    assert answer.startswith("ERROR INFO rule wants a number"), answer
    xy(brain.ask("TURN 0,1"))                       # the TURN was not kept: it plays now


def test_swap2board_is_read_to_done_and_answered_once(brain):
    """SWAP2BOARD is a block ending in DONE: one UNKNOWN for it, not one for
    every line of it."""
    assert brain.ask("START 15") == "OK"
    assert brain.ask("SWAP2BOARD", "DONE").startswith("UNKNOWN SWAP2BOARD")
    assert brain.silent()
    assert brain.ask("SWAP2BOARD", "7,7", "8,7", "9,9", "DONE").startswith("UNKNOWN")
    assert brain.silent()
    assert xy(brain.ask("TURN 7,7")) == expected_move(0, [(7, 7)])


def test_turn_and_play_out_of_turn_are_refused(brain):
    """PLAY is the brain's own move and TURN the opponent's: each out of
    turn is an ERROR, not a stone of the wrong colour."""
    assert brain.ask("START 15") == "OK"
    first = xy(brain.ask("TURN 7,7"))                # the brain is white
    assert brain.ask("PLAY 3,3").startswith("ERROR "), "the opponent is to move"
    assert brain.ask("TAKEBACK %d,%d" % first) == "OK"
    assert brain.ask("TURN 3,3").startswith("ERROR "), "the brain is to move"
    assert brain.ask("PLAY 3,3") == "3,3"
    assert xy(brain.ask("TURN 4,4")) == expected_move(0, [(7, 7), (3, 3), (4, 4)])


def test_readme_documents_every_option_and_level(monkeypatch):
    """README's pbrain entry names each command-line option pbrain takes
    (--seed was missing) and each level it plays."""
    helptext = subprocess.run([sys.executable, str(ROOT / "tools" / "pbrain.py"), "--help"],
                              capture_output=True, text=True, timeout=60).stdout
    options = set(re.findall(r"(--[a-z-]+)", helptext)) - {"--help"}
    readme = (ROOT / "README.md").read_text()
    entry = readme[readme.index("tools/pbrain.py --level"):]
    entry = entry[:entry.index("\n- ")]
    assert options == {"--level", "--seed"}
    for opt in options:
        assert opt in entry, opt
    monkeypatch.syspath_prepend(str(ROOT / "tools"))
    import pbrain
    levels = pbrain.engine_levels()
    assert "%s (the default)" % levels[0] in entry
    assert " or %d" % levels[-1] in entry


def test_commands_before_start_are_errors_and_the_brain_keeps_running(brain):
    for line in ("TURN 7,7", "PLAY 7,7", "BEGIN", "TAKEBACK 7,7", "RESTART"):
        answer = brain.ask(line)
        assert answer.startswith("ERROR no game"), (line, answer)
    assert brain.ask("START 15") == "OK"
    assert xy(brain.ask("TURN 7,7")) == expected_move(0, [(7, 7)])


def as_white(brain, opponent, own):
    """Lay out a position with the brain as white: each opponent stone by
    TURN, the brain's answer taken back and replaced by PLAY of `own`."""
    moves = []
    for (ox, oy), (wx, wy) in zip(opponent, own):
        answer = brain.ask("TURN %d,%d" % (ox, oy))
        assert brain.ask("TAKEBACK %d,%d" % xy(answer)) == "OK"
        assert brain.ask("PLAY %d,%d" % (wx, wy)) == "%d,%d" % (wx, wy)
        moves += [(ox, oy), (wx, wy)]
    return moves


def test_a_winning_turn_is_kept_and_the_game_stays_over(brain):
    """The opponent's five ends the game: a legal move, which the manager
    keeps, so the brain keeps it too and answers ERROR saying who won (no
    move: there is none to make). Every later TURN, BEGIN and PLAY is
    refused as the game being over, until TAKEBACK of that five's stone."""
    assert brain.ask("START 15") == "OK"
    moves = as_white(brain, [(0, 0), (1, 0), (2, 0), (3, 0)],
                     [(0, 14), (2, 14), (4, 14), (6, 14)])
    over = "ERROR the game is over (won by black with 4,0)"
    assert brain.ask("TURN 4,0") == over
    for line in ("TURN 7,7", "BEGIN", "PLAY 7,7", "TURN 4,0"):
        assert brain.ask(line) == over, line
    assert brain.ask("TAKEBACK 6,14").startswith("ERROR TAKEBACK 6,14: the last move is 4,0")
    assert brain.ask("TAKEBACK 4,0") == "OK"
    assert xy(brain.ask("TURN 4,1")) == expected_move(0, moves + [(4, 1)])


def test_info_rule_mid_game_replays_the_moves_under_the_new_rule(brain):
    """A manager sends INFO rule after START; a rule told once the game has
    moves applies to them too: under exactly-five the opponent's six does not
    win, and the brain plays on."""
    assert brain.ask("START 15") == "OK"
    moves = as_white(brain, [(0, 0), (1, 0)], [(0, 14), (2, 14)])
    brain.send("INFO rule 1")
    moves += as_white(brain, [(2, 0), (4, 0), (5, 0)], [(4, 14), (6, 14), (8, 14)])
    assert xy(brain.ask("TURN 3,0")) == expected_move(1, moves + [(3, 0)])


def test_the_brains_colour_comes_from_play_and_is_forgotten_at_the_start(brain):
    assert brain.ask("START 15") == "OK"
    assert brain.ask("PLAY 7,7") == "7,7"               # the brain is black now
    assert brain.ask("PLAY 8,8").startswith("ERROR ")   # the opponent is to move
    assert brain.ask("TAKEBACK 7,7") == "OK"
    answer = brain.ask("TURN 7,7")                      # empty: either side opens
    assert xy(answer) == expected_move(0, [(7, 7)])
    assert brain.ask("RESTART") == "OK"
    first = xy(brain.ask("TURN 7,7"))                   # white this time
    assert brain.ask("RESTART") == "OK"
    assert brain.ask("PLAY 7,7") == "7,7"               # and black after RESTART
    assert xy(brain.ask("TURN %d,%d" % first)) == expected_move(0, [(7, 7), first])
