"""tools/brainloop.py, the reference brains' Gomocup loop: bad input gets one
ERROR and changes nothing, BOARD blocks are read to DONE, games still play."""
import io
import subprocess
import sys

import pytest

sys.path.insert(0, str(__import__("upy").ROOT / "tools"))
import brainloop  # noqa: E402
import ref_alphabeta  # noqa: E402

ROOT = __import__("upy").ROOT
PY = sys.executable


class Recorder:
    """A move function: the first free point in reading order; remembers
    what it was asked, answers `answer` or raises ValueError when told to."""

    def __init__(self):
        self.calls = []
        self.fail = None
        self.answer = None

    def __call__(self, grid, me, rule, last):
        self.calls.append(([row[:] for row in grid], me, rule, last))
        if self.fail:
            raise ValueError(self.fail)
        if self.answer:
            return self.answer
        return next((x, y) for y in range(15) for x in range(15) if not grid[y][x])


def loop_with(*lines):
    choose = Recorder()
    loop = brainloop.BrainLoop(choose, name="t")
    out = []
    for line in lines:
        out += loop.handle(line)
    return loop, choose, out


def feed(loop, *lines):
    out = []
    for line in lines:
        out += loop.handle(line)
    return out


def test_malformed_board_row_gives_one_error_and_the_loop_stays_in_step():
    loop, choose, out = loop_with("START 15", "TURN 7,7")
    before = list(loop.stones)
    out = feed(loop, "BOARD", "7,7", "8,8,2", "DONE", "ABOUT")
    assert out == ["ERROR BOARD line '7,7' is not x,y,who",
                   'name="t", version="1.0", country="-"']
    assert loop.stones == before and len(choose.calls) == 1


@pytest.mark.parametrize("rows, error", [
    (["7,7,1", "x,8,2"], "ERROR expected x,y numbers but got 'x,8'"),
    (["7,7,1", "15,8,2"], "ERROR 15,8 is off the 15x15 board"),
    (["7,7,1", "8,8,x"], "ERROR BOARD line '8,8,x': who is not a number"),
    (["7,7,1", "8,8,4"], "ERROR BOARD line '8,8,4': who must be 1 (own) or 2 (opponent)"),
    (["7,7,1", "8,8,3"], "ERROR BOARD line '8,8,3': field 3 (continuous game) is not "
                         "supported: the brain does not play continuous games"),
    (["7,7,2", "7,7,1"], "ERROR BOARD: 7,7 given twice"),
    (["7,7,1", "8,8,1"], "ERROR BOARD with 2 own and 0 opponent stones: "
                         "the brain cannot be the side to move"),
])
def test_bad_board_blocks_are_refused_whole(rows, error):
    loop, choose, _ = loop_with("START 15", "BEGIN")
    before = list(loop.stones)
    assert feed(loop, "BOARD", *rows, "DONE") == [error]
    assert loop.stones == before and len(choose.calls) == 1
    assert feed(loop, "TURN 5,5") == ["1,0"]      # still in step, same game


def test_board_before_start_is_read_to_done():
    loop, choose, out = loop_with("BOARD", "7,7,2", "DONE", "START 15")
    assert out == ["ERROR no game: send START 15 first", "OK"]
    assert choose.calls == []


def test_board_position_colours_and_last_move():
    loop, choose, out = loop_with("START 15", "INFO rule 4", "BOARD", "7,7,2", "8,8,1",
                                  "6,6,2", "", "DONE")
    grid, me, rule, last = choose.calls[0]
    assert (me, rule, last) == (2, 4, (6, 6))   # 2 opponent stones, 1 own: white
    assert grid[7][7] == grid[6][6] == 1 and grid[8][8] == 2
    assert out == ["OK", "0,0"] and loop.stones[-1] == (0, 0, 1)


@pytest.mark.parametrize("arg, error", [
    ("7,7", "ERROR 7,7 is occupied"),
    ("15,3", "ERROR 15,3 is off the 15x15 board"),
    ("-1,3", "ERROR -1,3 is off the 15x15 board"),
    ("7", "ERROR expected x,y but got '7'"),
    ("a,b", "ERROR expected x,y numbers but got 'a,b'"),
    ("1_4,0", "ERROR expected x,y numbers but got '1_4,0'"),     # int() takes it
    ("\u0667,7", "ERROR expected x,y numbers but got '\u0667,7'"),  # an Arabic-Indic 7
    ("", "ERROR expected x,y but got ''"),
])
def test_bad_turn_changes_nothing(arg, error):
    loop, choose, _ = loop_with("START 15", "TURN 7,7")
    before = list(loop.stones)
    assert feed(loop, "TURN " + arg) == [error]
    assert loop.stones == before and len(choose.calls) == 1


def test_turn_the_engine_refuses_changes_nothing():
    loop, choose, _ = loop_with("START 15", "TURN 7,7")
    before = list(loop.stones)
    choose.fail = "stone counts do not fit the side to move"
    assert feed(loop, "TURN 3,3") == ["ERROR engine: stone counts do not fit the side to move"]
    assert loop.stones == before
    choose.fail = None
    choose.answer = (7, 7)                      # occupied: a bug in the engine
    assert feed(loop, "TURN 3,3") == ["ERROR engine chose 7,7, which is occupied"]
    assert loop.stones == before
    choose.answer = None
    assert feed(loop, "TURN 3,3") == ["1,0"]    # the opponent's stone now counts
    assert loop.stones == [(7, 7, 2), (0, 0, 1), (3, 3, 2), (1, 0, 1)]


def test_unknown_and_out_of_place_commands():
    loop, choose, out = loop_with("BEGIN", "TURN 7,7", "START 19", "START x")
    assert out == ["ERROR no game: send START 15 first"] * 2 + [
        "ERROR only a 15x15 board is supported, not 19",
        "ERROR START wants a board size, got 'x'"]
    out = feed(loop, "START 15", "FROB 1", "7,7", "TAKEBAC\u212a 0,0",
               "INFO rule x", "INFO folder /tmp", "BEGIN", "BEGIN", "BEGIN")
    # TAKEBACK with a Kelvin sign for its K: lower() made it ASCII
    assert out == ["OK", "UNKNOWN FROB", "UNKNOWN 7,7", "UNKNOWN TAKEBAC\u212a",
                   "ERROR INFO rule wants a number, got 'x'",
                   "0,0", "ERROR BEGIN on a board that is not empty"]
    assert loop.rule == 0 and loop.stones == [(0, 0, 1)]


def test_takeback_play_restart_and_end():
    loop, choose, out = loop_with("start 15", "turn 7,7", "TAKEBACK 7,7", "TAKEBACK 0,0",
                                  "TAKEBACK 7,7", "TAKEBACK 7,7", "PLAY 7,7", "PLAY 3,3",
                                  "TURN 3,3", "RESTART", "RECTSTART 15,15", "RECTSTART 20,15")
    assert out == ["OK", "0,0", "ERROR TAKEBACK 7,7: the last move is 0,0", "OK", "OK",
                   "ERROR TAKEBACK on an empty board", "7,7",
                   "ERROR PLAY: it is the opponent's turn (the brain plays black)", "0,0",
                   "OK", "OK", "ERROR only a 15x15 board is supported, not 20x15"]
    assert loop.stones == [] and not loop.done
    assert feed(loop, "END") == [] and loop.done


def test_serve_answers_line_by_line_and_stops_at_end():
    out = io.StringIO()
    brainloop.serve(Recorder(), "t", io.StringIO("START 15\nBEGIN\nEND\nABOUT\n"), out)
    assert out.getvalue() == "OK\n0,0\n"


def test_normal_game_gives_ref_alphabeta_the_positions_it_always_had():
    # the loop hands choose() the grid, side and last move of the game: the
    # reference brain plays as ref_alphabeta.choose does on that position
    got = []

    def choose(grid, me, rule, last):
        move = ref_alphabeta.choose(grid, me, rule, last, 3, 1)
        got.append(([row[:] for row in grid], me, last, move))
        return move

    loop = brainloop.BrainLoop(choose)
    out = feed(loop, "START 15", "INFO rule 1", "BOARD", "7,7,2", "DONE")
    opponent = [(5, 5), (6, 5), (9, 9), (2, 12)]
    for x, y in opponent:
        out += feed(loop, "TURN %d,%d" % (x, y))
    moves = [m for _, _, _, m in got]
    assert out == ["OK"] + ["%d,%d" % m for m in moves] and len(moves) == 5
    grid = [[0] * 15 for _ in range(15)]
    grid[7][7] = 1
    for i, (g, me, last, move) in enumerate(got):
        assert me == 2 and g == grid
        assert last == ((7, 7) if i == 0 else opponent[i - 1])
        assert ref_alphabeta.choose([r[:] for r in grid], 2, 1, last, 3, 1) == move
        grid[move[1]][move[0]] = 2
        if i < len(opponent):
            grid[opponent[i][1]][opponent[i][0]] = 1
    assert [s[:2] for s in loop.stones[1::2]] == moves


@pytest.mark.parametrize("brain", ["seed_brain.py", "ref_alphabeta.py --width 3 --depth 1",
                                   "gomokubench_brain.py"])
def test_each_reference_brain_runs_the_loop(brain):
    proc = subprocess.run(
        [PY] + ("tools/" + brain).split(), cwd=str(ROOT), text=True, timeout=60,
        input="START 15\nBOARD\n7,7\n8,8,2\nDONE\nBOARD\n7,7,2\nDONE\nTURN 7,7\nEND\n",
        capture_output=True)
    out = proc.stdout.split("\n")
    assert out[:2] == ["OK", "ERROR BOARD line '7,7' is not x,y,who"], proc.stdout
    x, y = (int(v) for v in out[2].split(","))
    assert (x, y) != (7, 7) and 0 <= x < 15 and 0 <= y < 15
    assert out[3] == "ERROR 7,7 is occupied" and out[4:] == [""]


def test_info_problems_wait_for_the_next_move_command():
    """The manager does not read answers to INFO (the spec): a problem with
    one is one ERROR at the next BEGIN, TURN or BOARD, in place of its
    answer; a later good value of the key clears it."""
    loop, choose, out = loop_with("START 15", "INFO rule x", "INFO rule 8",
                                  "INFO", "INFO folder /tmp")
    assert out == ["OK"]
    assert feed(loop, "BEGIN") == ["ERROR INFO rule 8: caro is not supported; "
                                   "INFO wants a key and a value"]
    assert loop.stones == [] and choose.calls == [] and loop.rule == 0
    assert feed(loop, "BEGIN") == ["0,0"]
    out = feed(loop, "INFO rule 8", "INFO rule 4", "INFO", "TURN 5,5", "TURN 5,5")
    assert out == ["ERROR INFO wants a key and a value", "1,0"]
    assert loop.rule == 4
    out = feed(loop, "INFO rule 99", "BOARD", "7,7,2", "DONE", "BOARD", "7,7,2", "DONE")
    assert out == ["ERROR INFO rule 99: no Gomocup rule has bits above 8", "0,0"]


def test_swap2board_block_is_one_unknown():
    loop, choose, out = loop_with("START 15", "SWAP2BOARD", "DONE",
                                  "SWAP2BOARD", "7,7", "8,7", "9,9", "DONE", "TURN 7,7")
    assert out == ["OK", "UNKNOWN SWAP2BOARD", "UNKNOWN SWAP2BOARD", "0,0"]


def test_turn_and_play_out_of_turn_change_nothing():
    loop, choose, out = loop_with("START 15", "TURN 7,7", "PLAY 3,3")
    assert out[-1].startswith("ERROR ") and loop.stones == [(7, 7, 2), (0, 0, 1)]
    out = feed(loop, "TAKEBACK 0,0", "TURN 3,3")
    assert out[0] == "OK" and out[1].startswith("ERROR ")
    assert loop.stones == [(7, 7, 2)]
    assert feed(loop, "PLAY 3,3", "TURN 4,4") == ["3,3", "0,0"]
    grid, me, _, _ = choose.calls[-1]
    assert me == 2 and grid[7][7] == grid[4][4] == 1 and grid[3][3] == 2


@pytest.mark.parametrize("line, error", [
    ("START 10", "ERROR only a 15x15 board is supported, not 10"),       # smaller too
    ("START 16", "ERROR only a 15x15 board is supported, not 16"),
    ("RESTART", "ERROR no game: send START 15 first"),                  # before START
])
def test_start_takes_only_15_and_restart_needs_a_game(line, error):
    loop, choose, out = loop_with(line)
    assert out == [error] and loop.stones is None
    assert feed(loop, "TURN 7,7") == ["ERROR no game: send START 15 first"]
    assert choose.calls == []


@pytest.mark.parametrize("info, error", [
    ("INFO rule 9", "ERROR INFO rule 9: caro is not supported"),      # caro bit with others
    ("INFO rule -9", "ERROR INFO rule -9 is negative"),               # -9 & 8 == 0
    ("INFO RULE x", "ERROR INFO rule wants a number, got 'x'"),
    ("INFO rule 16", "ERROR INFO rule 16: no Gomocup rule has bits above 8"),
    ("INFO rule 24", "ERROR INFO rule 24: no Gomocup rule has bits above 8"),
    ("INFO rule\t9", "ERROR INFO rule 9: caro is not supported"),   # a tab between
])
def test_every_bad_info_value_is_told_at_the_next_move(info, error):
    loop, choose, out = loop_with("START 15", info)
    assert out == ["OK"]
    assert feed(loop, "BEGIN") == [error]
    assert loop.stones == [] and choose.calls == [] and loop.rule == 0


@pytest.mark.parametrize("info", [
    "INFO time_left -1234", "INFO timeout_turn 5000.5", "INFO max_memory lots",
    "INFO game_type x", "INFO timeout_match " + "9" * 5000, "INFO evaluate 3,4"])
def test_info_the_brain_does_not_use_is_ignored_whatever_its_value(info):
    # a manager may send time_left below 0 once a brain is over its time;
    # an ERROR for it would stand in for the next move and lose the game
    loop, choose, out = loop_with("START 15", info, "BEGIN")
    assert out == ["OK", "0,0"]


def test_a_tab_parts_a_command_from_its_argument():
    loop, choose, out = loop_with("START\t15", "TURN\t7,7")
    assert out == ["OK", "0,0"] and loop.stones == [(7, 7, 2), (0, 0, 1)]


def test_info_key_is_case_insensitive():
    loop, choose, out = loop_with("START 15", "INFO RULE 4", "BEGIN")
    assert out == ["OK", "0,0"] and loop.rule == 4 and choose.calls[0][2] == 4


def test_turn_off_the_bottom_edge_is_refused():
    loop, choose, _ = loop_with("START 15", "TURN 7,7")
    before = list(loop.stones)
    assert feed(loop, "TURN 3,15") == ["ERROR 3,15 is off the 15x15 board"]
    assert loop.stones == before and len(choose.calls) == 1


@pytest.mark.parametrize("rows, error", [
    (["7,7,1"], "ERROR BOARD with 1 own and 0 opponent stones: "
                "the brain cannot be the side to move"),
    (["7,7,2", "8,8,1", "9,9,1"], "ERROR BOARD with 2 own and 1 opponent stones: "
                                  "the brain cannot be the side to move"),
    (["7,7,2", "8,8,1,0"], "ERROR BOARD line '8,8,1,0' is not x,y,who"),
])
def test_board_with_one_own_stone_too_many_or_a_long_line_is_refused(rows, error):
    loop, choose, _ = loop_with("START 15", "BEGIN")
    assert feed(loop, "BOARD", *rows, "DONE") == [error]
    assert loop.stones == [(0, 0, 1)] and len(choose.calls) == 1


def test_board_block_ends_at_done_in_any_case():
    loop, choose, out = loop_with("START 15", "BOARD", "7,7,2", "done")
    assert out == ["OK", "0,0"] and loop.stones == [(7, 7, 2), (0, 0, 1)]


def test_end_inside_an_unfinished_board_block_ends_the_brain():
    # a manager that aborts mid-block must not be left waiting on a brain
    # that reads END as one more row
    loop, choose, out = loop_with("START 15", "BEGIN", "BOARD", "7,7,2", "end")
    assert out == ["OK", "0,0"] and loop.done
    assert loop.stones == [(0, 0, 1)] and len(choose.calls) == 1


def test_an_error_quoting_a_huge_input_stays_one_short_line():
    huge = "9" * 5000
    loop, choose, out = loop_with("START 15", "TURN %s,7" % huge, "INFO rule " + huge,
                                  "BEGIN", "BOARD", "1,%s" % huge, "DONE")
    assert [line[:6] for line in out] == ["OK"] + ["ERROR "] * 3
    assert all(len(line) <= 6 + brainloop.ERROR_TEXT_MAX for line in out)
    assert out[1].startswith("ERROR expected x,y") and out[1].endswith("...")
    assert loop.stones == [] and choose.calls == []


def test_a_full_board_is_an_error_not_a_question_to_choose():
    # 113 opponent and 112 own stones fill the board: nothing left to play
    loop, choose, _ = loop_with("START 15")
    rows = ["%d,%d,%d" % (i % 15, i // 15, 2 if i % 2 == 0 else 1) for i in range(225)]
    assert feed(loop, "BOARD", *rows, "DONE") == ["ERROR the board is full"]
    assert loop.stones == [] and choose.calls == []


def test_last_move_is_none_when_the_board_block_ends_with_an_own_stone():
    # `last` is the opponent's last move; the block's order is not play order
    loop, choose, out = loop_with("START 15", "BOARD", "7,7,2", "8,8,1", "DONE")
    assert out == ["OK", "0,0"]
    assert choose.calls[0][1:] == (1, 0, None)     # black to move, no last move


@pytest.mark.parametrize("answer", [(15, 3), (3, 15), (-1, 0)])
def test_an_off_board_choice_of_the_engine_is_an_error(answer):
    loop, choose, _ = loop_with("START 15", "TURN 7,7")
    before = list(loop.stones)
    choose.answer = answer
    assert feed(loop, "TURN 3,3") == ["ERROR engine chose %r, off the board" % (answer,)]
    assert loop.stones == before


def test_restart_forgets_the_brains_colour():
    # white in the last game; after RESTART either side may open again
    loop, choose, out = loop_with("START 15", "TURN 7,7", "RESTART", "PLAY 7,7", "TURN 8,8")
    assert out == ["OK", "0,0", "OK", "7,7", "0,0"]
    assert loop.stones == [(7, 7, 1), (8, 8, 2), (0, 0, 1)]


def grid_with(black=(), white=()):
    grid = [[0] * 15 for _ in range(15)]
    for x, y in black:
        grid[y][x] = 1
    for x, y in white:
        grid[y][x] = 2
    return grid


def test_ref_alphabeta_shape_scores():
    """Seed-001's ranks: (run, open ends) -> score, 100000 for a five."""
    three = [(3, 7), (4, 7), (5, 7)]
    grid = grid_with(three)
    # (6, 7) makes an open four (10000) plus a lone open stone in each of
    # the other three directions (10 each)
    assert ref_alphabeta.point_score(grid, 6, 7, 1) == 10030
    grid = grid_with(three, [(2, 7)])                  # one end shut: a four
    assert ref_alphabeta.point_score(grid, 6, 7, 1) == 1030
    grid = grid_with(three + [(6, 7)])
    assert ref_alphabeta.makes_five(grid, 7, 7, 1) and ref_alphabeta.makes_five(grid, 2, 7, 1)
    assert not ref_alphabeta.makes_five(grid, 7, 8, 1)
    assert ref_alphabeta.point_score(grid, 7, 7, 1) == 100030
    # position: an open three (1000) and 3 stones x 3 directions x 10
    assert ref_alphabeta.position_score(grid_with(three), 1) == 1090
    assert ref_alphabeta.position_score(grid, 1) < ref_alphabeta.WIN
    assert ref_alphabeta.position_score(grid_with(three + [(6, 7), (7, 7)]), 1) == \
        ref_alphabeta.WIN


def test_ref_alphabeta_candidates_weigh_defence_and_keep_width():
    # white's open four: its two ends lead black's candidates
    grid = grid_with([(10, 10)], [(3, 7), (4, 7), (5, 7), (6, 7)])
    assert set(ref_alphabeta.candidates(grid, 1, 2)) == {(2, 7), (7, 7)}
    assert len(ref_alphabeta.candidates(grid, 1, 5)) == 5
    assert ref_alphabeta.candidates(grid_with(), 1, 5) == [(7, 7)]


def test_ref_alphabeta_leaf_is_own_score_minus_the_opponents():
    grid = grid_with([(3, 7), (4, 7), (5, 7)], [(10, 10)])
    leaf = ref_alphabeta.alphabeta(grid, 1, 1, 0, -10, 10, 5)
    assert leaf == ref_alphabeta.position_score(grid, 1) - ref_alphabeta.position_score(grid, 2)
    assert leaf > 0


def test_ref_alphabeta_wins_and_blocks():
    # black's four open at (7, 7) only; white's four open at (10, 5) only
    black = [(3, 7), (4, 7), (5, 7), (6, 7), (10, 0)]
    white = [(2, 7), (10, 1), (10, 2), (10, 3), (10, 4)]
    assert ref_alphabeta.choose(grid_with(black, white), 1, 0, None, 3, 1) == (7, 7)
    assert ref_alphabeta.choose(grid_with(black, white), 2, 0, None, 3, 1) == (10, 5)
    # no four of its own: black must shut white's
    assert ref_alphabeta.choose(grid_with(black[:3] + [(12, 12), (10, 0)], white), 1) == (10, 5)


def test_seed_brain_keeps_to_the_renju_rule():
    import seed_brain
    # black to move: (7, 7) scores most but is a double three
    grid = grid_with([(5, 7), (6, 7), (7, 5), (7, 6)], [(0, 0), (14, 0), (0, 14), (14, 14)])
    assert seed_brain.choose([r[:] for r in grid], 1, 0) == (7, 7)
    x, y = seed_brain.choose([r[:] for r in grid], 1, 4)
    assert (x, y) != (7, 7) and not grid[y][x]


def test_gomokubench_brain_plays_its_own_colour_in_x_y():
    import gomokubench_brain
    choose = gomokubench_brain.make_choose("standard")
    # each side has a four with one open end: the side to move completes its own
    black = [(2, 12), (3, 12), (4, 12), (5, 12), (10, 0)]
    white = [(1, 12), (10, 1), (10, 2), (10, 3), (10, 4)]
    assert choose(grid_with(black, white), 1, 0, (10, 4)) == (6, 12)
    assert choose(grid_with(black + [(14, 14)], white), 2, 0, (14, 14)) == (10, 5)
    # gomokubench's answer to one stone: the diagonal neighbour toward the centre
    assert choose(grid_with([], [(2, 12)]), 1, 0, (2, 12)) == (3, 11)


def test_a_brain_that_plays_freestyle_only_refuses_another_rule():
    """ref_alphabeta and gomokubench know freestyle only: an INFO rule for
    another is an ERROR in place of the next move, not a game played by the
    wrong rule (a renju game lost on a forbidden point it never saw)."""
    loop = brainloop.BrainLoop(Recorder(), name="ref", rules=(0,))
    assert feed(loop, "START 15", "INFO rule 4", "BEGIN") == [
        "OK", "ERROR INFO rule 4: ref plays freestyle only"]
    assert loop.rule == 0 and loop.stones == []
    assert feed(loop, "INFO rule 1", "INFO rule 0", "BEGIN") == ["0,0"]


@pytest.mark.parametrize("brain", ["ref_alphabeta.py --depth 1", "gomokubench_brain.py"])
def test_the_freestyle_reference_brains_say_so(brain):
    proc = subprocess.run(
        [PY] + ("tools/" + brain).split(), cwd=str(ROOT), text=True, timeout=60,
        input="START 15\nINFO rule 4\nBEGIN\nEND\n", capture_output=True)
    out = proc.stdout.splitlines()
    assert out[0] == "OK" and out[1].startswith("ERROR INFO rule 4: "), proc.stdout
    assert out[1].endswith(" plays freestyle only") and len(out) == 2


def test_quickmatch_will_not_pit_ref_alphabeta_at_another_rule(capsys):
    import quickmatch
    with pytest.raises(SystemExit) as e:
        quickmatch.main(["2", "ref", "--rule", "4"])
    assert e.value.code == 2
    assert "ref_alphabeta plays freestyle only, not --rule 4" in capsys.readouterr().err
