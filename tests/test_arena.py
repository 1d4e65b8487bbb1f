"""The arena referees Gomocup brains: legal games end in five, faults lose."""
import signal
import subprocess
import sys
import textwrap
import time

import pytest

sys.path.insert(0, str(__import__("upy").ROOT / "tools"))
import arena  # noqa: E402
import gomoku  # noqa: E402

PY = sys.executable
REF = "%s tools/ref_alphabeta.py --width 3 --depth 1" % PY


def brain_script(tmp_path, name, body):
    """A tiny Gomocup brain: `body` decides the reply to BEGIN/TURN/BOARD."""
    src = textwrap.dedent('''
        import sys, time
        stones = []
        def move():
            %s
        while True:
            line = sys.stdin.readline()
            if not line:
                break
            w = line.strip().split(" ")[0].upper()
            if w == "START":
                print("OK", flush=True)
            elif w == "BOARD":
                while sys.stdin.readline().strip().upper() != "DONE":
                    pass
                print(move(), flush=True)
            elif w in ("BEGIN", "TURN"):
                print(move(), flush=True)
            elif w == "END":
                break
    ''') % body
    path = tmp_path / (name + ".py")
    path.write_text(src)
    return "%s %s" % (PY, path)


def test_openings_are_distinct_legal_and_repeatable():
    ops = arena.openings(6, seed=3)
    assert ops == arena.openings(6, seed=3)
    assert len({tuple(o) for o in ops}) == 6
    for op in ops:
        g = gomoku.Game()
        for x, y in op:
            assert abs(x - 7) <= 2 and abs(y - 7) <= 2
            g.play(x, y)
        assert g.winner == 0


def test_illegal_move_loses_and_colours_swap(tmp_path):
    bad = brain_script(tmp_path, "always77", 'return "7,7"')   # illegal by its 2nd move
    res = arena.run_match(REF, bad, games=4, timeout=20, seed=5)
    assert len(res.games) == 4
    assert res.wins(0) == 4
    assert all("illegal move 7,7" in r.reason for r in res.games)
    # each pair: same opening, colours swapped
    for a, b in zip(res.games[0::2], res.games[1::2]):
        assert a.opening == b.opening
        assert (a.black, a.white) == (b.white, b.black) == (0, 1)
    assert res.as_black(0) == (2, 2) and res.as_black(1) == (0, 2)
    assert "100.0%" in res.table()


def test_crash_and_garbage_lose(tmp_path):
    crash = brain_script(tmp_path, "crash", 'sys.exit(3)')
    garbage = brain_script(tmp_path, "garbage", 'return "hello"')
    for cmd, word in ((crash, "crashed"), (garbage, "not a move")):
        res = arena.run_match(cmd, REF, games=2, timeout=20, seed=2)
        assert res.wins(1) == 2, res.games
        assert all(word in r.reason for r in res.games)


def test_a_crash_names_the_exit_status_and_the_brains_last_words(tmp_path):
    """A brain that dies says why on stderr (a traceback, a usage error):
    the reason carries its exit status and last line, not `exit None`."""
    dies = brain_script(tmp_path, "dies", 'raise RuntimeError("no opening book")')
    rec = arena.play_game(dies, REF, opening=[(7, 7), (8, 8)], timeout=20,
                          idx_black=0, idx_white=1)
    assert rec.winner == 1
    assert rec.reason == "black crashed (exit 1: RuntimeError: no opening book)", rec.reason
    typo = "%s %s" % (PY, tmp_path / "pbrian.py")
    rec = arena.play_game(typo, REF, timeout=20, idx_black=0, idx_white=1)
    assert rec.reason.startswith("black failed to start: crashed (exit 2: ")
    assert "can't open file" in rec.reason and rec.reason.endswith(")"), rec.reason


@pytest.mark.parametrize("answer, reason", [
    ("7", "black not a move: '7'"),
    ("7,", "black not a move: '7,'"),
    ("a,b", "black not a move: 'a,b'"),
    ("7,7,7", "black not a move: '7,7,7'"),
    ("1.5,2", "black not a move: '1.5,2'"),
    # forms int() takes and a manager's %d,%d does not
    ("1_0,7", "black not a move: '1_0,7'"),
    ("+3, 0", "black not a move: '+3, 0'"),
    ("\u0663,\u0663", "black not a move: '\u0663,\u0663'"),
    ("99,99", "black illegal move 99,99: (99, 99) is off the board"),
    ("-1,3", "black illegal move -1,3: (-1, 3) is off the board"),
    ("8,8", "black illegal move 8,8: (8, 8) is occupied"),     # the opening's stone
    ("", "black timeout (it answered only with empty lines)"),
])
def test_every_garbage_answer_loses_with_its_reason(tmp_path, answer, reason):
    bad = brain_script(tmp_path, "garbage", "return %r" % answer)
    rec = arena.play_game(bad, REF, opening=[(7, 7), (8, 8)],
                          timeout=3 if answer == "" else 20, idx_black=0, idx_white=1)
    assert rec.winner == 1 and rec.moves == [], rec
    assert rec.reason.startswith(reason), rec.reason


def test_ctrl_c_ends_the_arena_and_its_brains_at_once(tmp_path):
    """SIGINT to the arena alone (its brains not signalled, as from a
    script): 'arena: interrupted', exit 130, no traceback, and the brains
    thinking are ended, not waited for until their timeout; no game more
    starts."""
    mark = tmp_path / "thinking"
    slow = brain_script(tmp_path, "slow", 'open(%r, "a").write("x"); '
                        'time.sleep(600)' % str(mark))
    from term_screen import foreground
    proc = subprocess.Popen([PY, str(arena.ROOT / "tools" / "arena.py"), slow, slow,
                             "--games", "8", "--timeout", "600"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=foreground)
    while not mark.exists() or len(mark.read_text()) < 2:     # both games under way
        assert proc.poll() is None
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)    # not the brains' 600 s
    assert (proc.returncode, err) == (130, "arena: interrupted\n"), err
    assert mark.read_text() == "xx"             # no game more started


def test_timeout_loses(tmp_path):
    slow = brain_script(tmp_path, "slow", 'time.sleep(30); return "0,0"')
    rec = arena.play_game(slow, REF, opening=[], timeout=2.0)
    assert rec.winner == 1 and "timeout" in rec.reason


def test_game_ends_in_five_that_the_referee_confirms():
    weak = "%s tools/ref_alphabeta.py --width 1 --depth 1" % PY
    rec = arena.play_game(REF, weak, opening=[(7, 7), (8, 8)], timeout=20)
    assert rec.reason in ("black five", "white five", "draw"), rec
    g = gomoku.Game()
    for x, y in rec.opening + rec.moves:
        g.play(x, y)
    if rec.winner is None:
        assert g.winner == 3
    else:
        assert g.winner == (1 if rec.winner == rec.black else 2)
        assert "five" in rec.reason
    assert len(rec.times[0]) + len(rec.times[1]) == len(rec.moves)


def test_reference_brain_answers_protocol_and_survives_bad_input():
    proc = subprocess.run(
        [PY, "tools/ref_alphabeta.py"], cwd=str(arena.ROOT), text=True, timeout=30,
        input="START 15\nTURN x,y\nTURN 7,7\nTURN 7,7\nFROB\nABOUT\nEND\n",
        capture_output=True)
    out = proc.stdout.split("\n")
    assert out[0] == "OK"
    assert out[1].startswith("ERROR")
    x, y = (int(v) for v in out[2].split(","))
    assert (x, y) != (7, 7) and max(abs(x - 7), abs(y - 7)) == 1
    assert out[3].startswith("ERROR")         # occupied point
    assert out[4].startswith("UNKNOWN")
    assert out[5].startswith("name=")


@pytest.mark.parametrize("bad", [0, -1])
def test_arena_cli_rejects_bad_game_count(bad):
    with pytest.raises(SystemExit):
        arena.main([REF, REF, "--games", str(bad)])


@pytest.mark.parametrize("a, b, cmd_b", [
    ("2", "ref", "%s tools/ref_alphabeta.py" % PY),
    ("2", "2", "%s tools/pbrain.py --level 2 --seed {seed}" % PY),
])
def test_quickmatch_plays_the_arenas_games_move_for_move(a, b, cmd_b):
    # in one process, with each player's PRNG kept apart, the arena's games
    import quickmatch
    cmd_a = "%s tools/pbrain.py --level 2 --seed {seed}" % PY
    res = arena.run_match(cmd_a, cmd_b, games=2, seed=5, timeout=60, workers=2)
    pa, pb = quickmatch.player(a), quickmatch.player(b)
    op = arena.openings(1, seed=5)[0]
    for n, rec in enumerate(res.games):
        black, white = (pa, pb) if n == 0 else (pb, pa)
        winner, moves = quickmatch.play_game(black, white, op, seed=5 * 1000 + n)
        assert rec.opening == op and moves == rec.moves
        assert winner == (1 if rec.winner == rec.black else 2)


class RowMaker:
    """Fills its own row from the left, far from the opening: the side that
    moves first after the opening makes five first, whichever colour."""

    def __init__(self, row):
        self.row = row
        self.name = "row%d" % row

    def start(self, seed):
        pass

    def move(self, g):
        return next(self.row * 15 + x for x in range(15) if not g.stone(x, self.row))


def test_quickmatch_tallies_by_colour_and_rejects_unknown_players(capsys):
    import quickmatch
    # an even opening leaves black to move (the first player wins as black),
    # an odd one white (it wins as white): the schedule's openings say how
    # many of each the tally must show
    ops = [op for op, a_black, _ in arena.schedule(8, seed=3) if a_black]
    even = sum(1 for op in ops if len(op) % 2 == 0)
    assert len(ops) == 4 and 0 < even < 4          # both kinds, unequal
    lost = []
    res = quickmatch.run_match(RowMaker(0), RowMaker(14), games=8, seed=3,
                               lost=lambda *game: lost.append(game))
    assert res == (even, 4, 4 - even, 0)           # won as black, pairs, as white, draws
    assert len(lost) == 4
    for op, moves in lost:           # a lost game, replayed, ends in the other's five
        g = gomoku.Game()
        for x, y in op + moves:
            g.play(x, y)
        x, y, dx, dy, n = g.five()
        assert g.winner in (1, 2) and (y, dy, n) == (14, 0, 5)
    with pytest.raises(SystemExit):
        quickmatch.main(["2", "alphazero"])
    assert "unknown player 'alphazero'" in capsys.readouterr().err
    for args, error in ((["--seeds", "5-3"], "--seeds 5-3: the range runs backwards (like 11-18"),
                        (["--seeds", "x"], "--seeds x: want N or N-M (like 11-18 or 11,19)"),
                        (["--games", "0"], "0: want an even number of games"),
                        (["--games", "3"], "3: want an even number of games")):
        with pytest.raises(SystemExit):
            quickmatch.main(["1", "seed"] + args)
        assert error in capsys.readouterr().err


def test_quickmatch_counts_a_full_board_as_a_draw():
    import quickmatch

    class Filler:
        # fills its colour of a pattern with no five anywhere: the board
        # fills up (225 moves) with no winner
        name = "filler"

        def __init__(self, colour):
            self.todo = [y * 15 + x for y in range(15) for x in range(15)
                         if ((x // 2) + y) % 2 == colour - 1]

        def start(self, seed):
            pass

        def move(self, g):
            return self.todo.pop(0)

    winner, moves = quickmatch.play_game(Filler(1), Filler(2), ())
    assert (winner, len(moves)) == (0, 225)


LOGGING_BRAIN = '''
import sys
log = open(sys.argv[1], "w")
taken = set()
def answer():
    x, y = next((x, y) for y in range(15) for x in range(15) if (x, y) not in taken)
    taken.add((x, y))
    print("MESSAGE thinking", flush=True)        # chatter the manager skips
    print("DEBUG at %d,%d" % (x, y), flush=True)
    print("%d,%d" % (x, y), flush=True)
for line in sys.stdin:
    line = line.strip()
    log.write(line + "\\n")
    log.flush()
    word = line.split(" ")[0].upper()
    if word == "START":
        print("OK", flush=True)
    elif word == "END":
        break
    elif word == "BOARD":
        for row in sys.stdin:
            row = row.strip()
            log.write(row + "\\n")
            if row.upper() == "DONE":
                break
            taken.add(tuple(int(v) for v in row.split(",")[:2]))
        answer()
    elif word == "TURN":
        taken.add(tuple(int(v) for v in line.split(" ")[1].split(",")))
        answer()
    elif word == "BEGIN":
        answer()
'''


def logging_brains(tmp_path):
    script = tmp_path / "logging_brain.py"
    script.write_text(LOGGING_BRAIN)
    logs = [tmp_path / "black.log", tmp_path / "white.log"]
    return ["%s %s %s" % (PY, script, log) for log in logs], logs


def test_the_arena_tells_each_brain_the_game_in_the_protocols_words(tmp_path):
    """START, the rule, the time per move in ms, the position from each
    brain's own side (BEGIN on an empty board, else BOARD), then the other's
    moves by TURN, and END; MESSAGE/DEBUG lines are not moves."""
    (cmd_b, cmd_w), (log_b, log_w) = logging_brains(tmp_path)
    rec = arena.play_game(cmd_b, cmd_w, opening=[(7, 7), (8, 8)], rule=4, timeout=20,
                          idx_black=1, idx_white=0, max_moves=7)
    assert rec.moves == [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]
    assert (rec.winner, rec.reason) == (None, "draw")           # stopped at 7 stones
    assert (len(rec.times[1]), len(rec.times[0])) == (3, 2)     # black is engine 1
    head = ["START 15", "INFO rule 4", "INFO timeout_turn 20000"]
    assert log_b.read_text().split("\n") == head + [
        "BOARD", "7,7,1", "8,8,2", "DONE", "TURN 1,0", "TURN 3,0", "END", ""]
    assert log_w.read_text().split("\n") == head + [
        "BOARD", "7,7,2", "8,8,1", "0,0,2", "DONE", "TURN 2,0", "END", ""]
    rec = arena.play_game(cmd_b, cmd_w, opening=[], timeout=20, max_moves=2)
    assert rec.moves == [(0, 0), (1, 0)]
    assert log_b.read_text().split("\n")[3:] == ["BEGIN", "END", ""]
    assert log_w.read_text().split("\n")[3:] == ["BOARD", "0,0,2", "DONE", "END", ""]


def test_a_brain_that_fails_to_start_loses(tmp_path):
    refuses = brain_script(tmp_path, "refuses", 'return "0,0"')
    path = tmp_path / "refuses.py"
    path.write_text(path.read_text().replace('print("OK"', 'print("ERROR size"'))
    rec = arena.play_game(REF, refuses, opening=[(7, 7)], timeout=20)
    assert (rec.winner, rec.moves) == (0, []), rec
    assert rec.reason == "white failed to start: START answered 'ERROR size'"
    rec = arena.play_game(str(tmp_path / "no-such-brain"), REF, timeout=20,
                          idx_black=1, idx_white=0)
    assert rec.winner == 0 and rec.reason.startswith("cannot run"), rec


def test_a_match_against_a_brain_that_never_starts_is_an_error(tmp_path, capsys):
    """A mistyped command would win the other engine every game: the table
    still shows what happened, but the arena says so and exits 2."""
    missing = str(tmp_path / "no-such-brain")
    assert arena.main([REF, missing, "--games", "2"]) == 2
    out, err = capsys.readouterr()
    assert "endings: cannot run '%s' 2" % missing in out
    assert err.startswith("arena: %s never started (cannot run" % missing)
    assert "..." + missing[-37:] in out         # a long name, marked where cut


def test_a_brain_that_refuses_the_rule_never_started(capsys):
    """ref_alphabeta plays freestyle only: asked for its first renju move it
    answers ERROR. The arena does not score that as a game level 1 won: it
    names the refusal and exits 2, as for a brain that cannot start."""
    lv1 = "%s tools/pbrain.py --level 1" % PY
    assert arena.main([lv1, REF, "--games", "2", "--rule", "4"]) == 2
    out, err = capsys.readouterr()
    assert "endings: black refused the game 1, white refused the game 1" in out
    assert err == ("arena: %s never started (white refused the game: said "
                   "'ERROR INFO rule 4: ref_alphabeta plays freestyle only')\n" % REF)
    res = arena.run_match(lv1, REF, games=2, rule=arena.FREESTYLE)
    assert res.never_started() == [] and len(res.played()) == 2


def test_a_brain_that_does_not_know_board_refused_the_game(tmp_path):
    # joining after the opening, a brain is sent BOARD first
    path = tmp_path / "noboard.py"
    path.write_text(textwrap.dedent("""
        import sys
        for line in sys.stdin:
            w = line.strip().split(" ")[0].upper()
            if w == "START":
                print("OK", flush=True)
            elif w == "BOARD":
                print("UNKNOWN board", flush=True)
            elif w == "END":
                break
    """))
    rec = arena.play_game("%s %s" % (PY, path), REF, opening=[(7, 7), (8, 8)], timeout=20)
    assert rec.winner == 1 and rec.moves == [], rec
    assert rec.dead == {0: "black refused the game: said 'UNKNOWN board'"}


def test_an_error_in_mid_game_loses_but_the_brain_had_started(tmp_path):
    later = brain_script(tmp_path, "later", """
            stones.append(1)
            return "0,0" if len(stones) == 1 else "ERROR out of memory"
    """)
    rec = arena.play_game(later, REF, opening=[(7, 7), (8, 8)], timeout=20)
    assert rec.moves[0] == (0, 0) and rec.winner == 1, rec
    assert rec.reason == "black said 'ERROR out of memory'" and rec.dead == {}


def test_a_full_board_is_a_draw_for_neither_engine(tmp_path):
    # each side fills its half of a pattern with no five anywhere
    cmds = []
    for colour in (1, 2):
        todo = [(x, y) for y in range(15) for x in range(15)
                if ((x // 2) + y) % 2 == colour - 1]
        cmds.append(brain_script(tmp_path, "filler%d" % colour,
                                 'return "%%d,%%d" %% TODO.pop(0)\nTODO = %r' % todo))
    rec = arena.play_game(cmds[0], cmds[1], opening=[], timeout=20, idx_black=1, idx_white=0)
    assert (rec.winner, rec.reason, len(rec.moves)) == (None, "draw", 225)
    assert (len(rec.times[1]), len(rec.times[0])) == (113, 112)
    res = arena.MatchResult(["a", "b"], [rec], 0)
    assert res.wins(0) == res.wins(1) == 0 and res.score(0) == res.score(1) == 0.5


def test_a_brain_that_only_chatters_loses_on_time(tmp_path):
    # a stream of DEBUG lines with no pause: the time runs out between reads
    chatter = brain_script(tmp_path, "chatter", textwrap.dedent('''\
        end = time.time() + 3
            while time.time() < end:
                print("DEBUG still thinking", flush=True)
            return "0,0"'''))
    rec = arena.play_game(chatter, REF, opening=[], timeout=1)
    assert rec.winner == 1 and rec.reason.endswith("timeout"), rec


def test_endings_are_counted_by_kind_not_by_move_or_exit_status():
    games = [_record(0, 1, ([], []), "black illegal move %d,%d: occupied" % (i, i))
             for i in range(3)]
    games += [_record(i, 1 - i, ([], []), "black crashed (exit %d)" % (i + 1))
              for i in range(2)]
    end = arena.MatchResult(["A", "B"], games, 0).table().split("\n")[-1]
    assert end == "endings: black crashed 2, black illegal move 3"


SUGGESTING = '''
    print("SUGGEST %d,%d" % (x, y), flush=True)
    play = sys.stdin.readline().strip()
    log.write(play + "\\n")
    print(play.split(" ")[1], flush=True)
'''


def test_a_brain_may_suggest_its_move_and_plays_it_when_told(tmp_path):
    """SUGGEST x,y in place of a move: the manager answers PLAY x,y and the
    brain's answer to that is the move (the protocol), not a timeout."""
    script = tmp_path / "suggesting_brain.py"
    script.write_text(LOGGING_BRAIN.replace(
        '\n    print("%d,%d" % (x, y), flush=True)\n', SUGGESTING))
    log = tmp_path / "black.log"
    rec = arena.play_game("%s %s %s" % (PY, script, log), REF, opening=[], timeout=10,
                          max_moves=4)
    assert rec.reason == "draw" and rec.moves[0] == (0, 0), rec     # stopped at 4 stones
    sent = log.read_text().split("\n")
    assert sent[3:7] == ["BEGIN", "PLAY 0,0", "TURN %d,%d" % rec.moves[1],
                         "PLAY %d,%d" % rec.moves[2]]


def test_the_board_block_ends_every_line_in_cr_lf():
    assert arena._board_command([(7, 7), (8, 8)], 2) == "BOARD\r\n7,7,2\r\n8,8,1\r\nDONE"


def test_a_move_that_times_out_counts_the_whole_time_in_the_table(tmp_path):
    slow = brain_script(tmp_path, "slow", "time.sleep(5)")
    rec = arena.play_game(slow, REF, opening=[], timeout=0.5)
    assert rec.reason == "black timeout" and rec.times[0] == [0.5]


def _record(black, winner, times, reason):
    rec = arena.GameRecord(black, 1 - black, [(7, 7)])
    rec.winner, rec.times, rec.reason = winner, times, reason
    return rec


def test_score_table_counts_each_engine_and_colour():
    """A won twice as black, B once as black, one draw: wins, losses,
    draws, score, wins as black, and the median and max of each engine's
    move times, from the games' records."""
    games = [
        _record(0, 0, ([0.1, 0.5, 0.2], [1.0, 3.0]), "black five"),
        _record(1, 1, ([0.3], [2.0, 6.0, 4.0]), "black five"),
        _record(0, 0, ([0.25], []), "white illegal move 3,3: occupied"),
        _record(1, None, ([], []), "draw"),
    ]
    res = arena.MatchResult(["A", "B"], games, 0)
    assert (res.wins(0), res.wins(1), res.draws()) == (2, 1, 1)
    assert res.as_black(0) == (2, 2) and res.as_black(1) == (1, 2)
    assert (res.score(0), res.score(1)) == (0.625, 0.375)
    assert res.time_stats(0) == {"moves": 5, "median": 0.25,
                                 "mean": pytest.approx(0.27), "max": 0.5}
    assert res.time_stats(1) == {"moves": 5, "median": 3.0, "mean": 3.2, "max": 6.0}
    lines = res.table().split("\n")
    assert lines[0] == "4 games, rule freestyle"
    assert lines[2].split() == ["A", "2", "1", "1", "62.5%", "2", "250.0", "500.0"]
    assert lines[3].split() == ["B", "1", "2", "1", "37.5%", "1", "3000.0", "6000.0"]
    assert lines[4] == "endings: black five 2, draw 1, white illegal move 1"


def test_an_odd_game_count_is_rounded_up_to_a_pair():
    games = list(arena.schedule(3, seed=2))
    assert len(games) == 4
    assert [a_black for _, a_black, _ in games] == [True, False, True, False]
    assert games[0][0] == games[1][0] != games[2][0] == games[3][0]
    assert len({n for _, _, n in games}) == 4                   # a seed per game


def test_openings_are_distinct_even_when_few_exist():
    # 72 two-stone openings fit a 3x3 square: 60 of them repeat without the
    # check; 9 one-stone ones cannot make 10
    ops = arena.openings(60, seed=1, min_stones=2, max_stones=2, radius=1)
    assert len({tuple(o) for o in ops}) == 60
    with pytest.raises(ValueError, match="cannot find 10 distinct openings"):
        arena.openings(10, seed=1, min_stones=1, max_stones=1, radius=1)
    # more stones than points: refused at once, not placed forever
    with pytest.raises(ValueError, match="2 stones do not fit in a 1x1 square"):
        arena.openings(1, seed=1, min_stones=2, max_stones=2, radius=0)
    assert arena.openings(1, seed=1, min_stones=1, max_stones=1, radius=0) == [[(7, 7)]]


def test_openings_asked_past_those_that_exist_are_refused_soon(monkeypatch):
    """`--games 2000 --stones 1` took a minute to say 1000 one-stone
    openings do not exist: it drew 1000 a pair asked before giving up."""
    real = arena._gomoku
    drawn = []
    monkeypatch.setattr(arena, "_gomoku", lambda: drawn.append(1) or real())
    with pytest.raises(ValueError, match=r"cannot find 1000 distinct "
                                         r"openings \(25 found\)"):
        arena.openings(1000, seed=1, min_stones=1, max_stones=1)
    assert len(drawn) < 2 * arena._OPENING_MISSES


def test_the_fruitless_draws_are_counted_in_a_row(monkeypatch):
    """The limit is on draws in a row that find nothing new, not on all
    draws: 60 openings take more than 50 draws."""
    monkeypatch.setattr(arena, "_OPENING_MISSES", 50)
    assert len(arena.openings(60, seed=1)) == 60


def test_quickmatch_counts_draws(monkeypatch):
    import quickmatch

    class Filler:
        # the pattern of test_quickmatch_counts_a_full_board_as_a_draw, for
        # whichever colour is to move
        name = "filler"

        def start(self, seed):
            pass

        def move(self, g):
            return next(y * 15 + x for y in range(15) for x in range(15)
                        if ((x // 2) + y) % 2 == g.turn - 1 and not g.stone(x, y))

    monkeypatch.setattr(quickmatch.arena, "schedule",
                        lambda games, seed, rule: [((), True, 0), ((), False, 1)])
    assert quickmatch.run_match(Filler(), Filler(), games=2) == (0, 1, 0, 2)
