"""Mutation review of the Gomocup brain tools (tools/brainloop.py,
tools/pbrain.py, tools/arena.py, tools/quickmatch.py): the protocol as
published (BOARD fields 1 own, 2 opponent, and 3, a continuous game's,
refused; RECTSTART w,h; SWAP2BOARD and BOARD blocks) answered
with one clear ERROR that changes nothing; the arena reads every line end
the protocol allows; its referee and score table; quickmatch scores an
illegal move as the arena does."""
import sys

import pytest

sys.path.insert(0, str(__import__("upy").ROOT / "tools"))
import arena  # noqa: E402
from test_arena import REF, _record, brain_script  # noqa: E402
from test_brain_loop import feed, loop_with  # noqa: E402
from test_pbrain import expected_move, xy  # noqa: E402


# ---- tools/brainloop.py: the reference brains' loop ---------------------------

@pytest.mark.parametrize("rows, error", [
    # the protocol's fields are 1, 2 and 3 (continuous games only, not
    # played): a 0 is no stone the brain can place
    (["7,7,2", "8,8,0"], "ERROR BOARD line '8,8,0': who must be 1 (own) or 2 (opponent)"),
    (["7,7,2", "8,8,3"], "ERROR BOARD line '8,8,3': field 3 (continuous game) is not "
                         "supported: the brain does not play continuous games"),
    # two opponent stones more than the brain's: the brain cannot be to move
    (["7,7,2", "8,8,2"], "ERROR BOARD with 0 own and 2 opponent stones: "
                         "the brain cannot be the side to move"),
])
def test_a_board_the_protocol_does_not_allow_changes_nothing(rows, error):
    loop, choose, _ = loop_with("START 15", "BEGIN")
    assert feed(loop, "BOARD", *rows, "DONE") == [error]
    assert loop.stones == [(0, 0, 1)] and len(choose.calls) == 1


@pytest.mark.parametrize("arg", ["15", "a,b", "15,15,15", ""])
def test_a_malformed_rectstart_is_one_error_and_the_brain_runs_on(arg):
    # RECTSTART width,height: anything else is an ERROR, not a crash
    loop, choose, out = loop_with("START 15", "TURN 7,7", "RECTSTART " + arg)
    assert out[:2] == ["OK", "0,0"]
    assert out[2:] == ["ERROR RECTSTART wants w,h, got %r" % arg]
    assert loop.stones == [(7, 7, 2), (0, 0, 1)]


def test_a_board_block_after_a_swap2board_block_is_a_position():
    # the SWAP2BOARD block is refused; the BOARD block after it is still
    # the protocol's BOARD, answered with a move
    loop, choose, out = loop_with("START 15", "SWAP2BOARD", "7,7", "DONE",
                                  "BOARD", "7,7,2", "DONE")
    assert out == ["OK", "UNKNOWN SWAP2BOARD", "0,0"]
    assert loop.stones == [(7, 7, 2), (0, 0, 1)]


def test_play_on_an_occupied_point_is_refused_and_changes_nothing():
    loop, choose, _ = loop_with("START 15", "TURN 7,7", "TAKEBACK 0,0")
    assert feed(loop, "PLAY 7,7") == ["ERROR 7,7 is occupied"]
    assert loop.stones == [(7, 7, 2)]
    assert feed(loop, "PLAY 3,3") == ["3,3"]
    assert loop.stones == [(7, 7, 2), (3, 3, 1)]


# ---- tools/pbrain.py: the engine behind the same commands ---------------------

def test_pbrain_refuses_a_board_the_protocol_does_not_allow(brain):
    assert brain.ask("START 15") == "OK"
    first = xy(brain.ask("TURN 7,7"))
    for rows in (["7,7,2", "8,8,0"], ["7,7,2", "8,8,2"]):
        answer = brain.ask("BOARD", *rows, "DONE")
        assert answer.startswith("ERROR "), (rows, answer)
    assert brain.ask("BEGIN").startswith("ERROR BEGIN on a board that is not empty")
    assert brain.ask("RECTSTART 15").startswith("ERROR RECTSTART wants w,h")
    # the game is the one before, its two moves: play goes on from there
    assert xy(brain.ask("TURN 3,3")) == expected_move(0, [(7, 7), first, (3, 3)])


def test_pbrain_refuses_a_finished_board_and_keeps_its_game(brain):
    """Equal counts: the brain is black, and the opponent (white) already
    has five in row 0: nothing to play, and the game before stays."""
    assert brain.ask("START 15") == "OK"
    first = xy(brain.ask("TURN 7,7"))
    rows = ["%d,0,2" % x for x in range(5)] + ["%d,14,1" % x for x in (0, 2, 4, 6, 8)]
    assert brain.ask("BOARD", *rows, "DONE").startswith("ERROR the game is over")
    assert brain.ask("TAKEBACK %d,%d" % first) == "OK"
    assert brain.ask("TAKEBACK 7,7") == "OK"



# ---- tools/arena.py: referee and table ----------------------------------------

LINE_END_BRAIN = """
import sys
end = {"cr": "\\r", "crlf": "\\r\\n"}[sys.argv[1]]
x = 0
for line in sys.stdin:
    word = (line.split() or [""])[0].upper()
    if word == "END":
        break
    if word == "START":
        sys.stdout.write("OK" + end)
    elif word in ("BEGIN", "TURN"):         # along row 0, a MESSAGE first
        sys.stdout.write("MESSAGE thinking" + end + "%d,0" % x + end)
        x += 1
    sys.stdout.flush()
"""


@pytest.mark.parametrize("end", ["cr", "crlf"])
def test_a_brain_may_end_its_lines_with_cr_or_cr_lf(tmp_path, end):
    """The protocol: a brain's lines may end in CR LF, LF or CR alone; the
    arena reads its OK, skips its MESSAGE and takes its moves either way."""
    script = tmp_path / "ends.py"
    script.write_text(LINE_END_BRAIN)
    rec = arena.play_game("%s %s %s" % (sys.executable, script, end), REF, timeout=5)
    assert rec.moves[0:1] == [(0, 0)] and rec.moves[2:3] == [(1, 0)], rec
    assert "timeout" not in rec.reason and "start" not in rec.reason, rec


CRLF_BRAIN = """
import sys
x = 0
for line in sys.stdin.buffer:
    if not line.endswith(b"\\r\\n"):
        sys.stdout.write("ERROR line %r does not end in CR LF\\n" % line)
    elif line.startswith(b"START"):
        sys.stdout.write("OK\\n")
    elif line.startswith((b"BEGIN", b"TURN")):
        sys.stdout.write("%d,0\\n" % x)
        x += 1
    sys.stdout.flush()
"""


def test_the_arena_ends_its_lines_in_cr_lf_as_a_manager_must(tmp_path):
    """The protocol: the manager puts CR LF at the end of every line (a brain
    may read them as raw bytes)."""
    script = tmp_path / "strict.py"
    script.write_text(CRLF_BRAIN)
    rec = arena.play_game("%s %s" % (sys.executable, script), REF, timeout=5)
    assert rec.moves[0:1] == [(0, 0)] and rec.moves[2:3] == [(1, 0)], rec
    assert "ERROR" not in rec.reason and "start" not in rec.reason, rec


# black's 5,7 6,7 and 7,5 7,6: 7,7 makes two open threes, forbidden to black
# under renju (and only there)
DOUBLE_THREE = [(5, 7), (0, 0), (6, 7), (0, 14), (7, 5), (14, 0), (7, 6), (14, 14)]


@pytest.mark.parametrize("rule, lost", [(4, True), (0, False)])
def test_the_referee_plays_the_matchs_rule(tmp_path, rule, lost):
    double = brain_script(tmp_path, "double", 'return "7,7"')
    rec = arena.play_game(double, REF, opening=DOUBLE_THREE, rule=rule, timeout=20)
    if lost:
        assert (rec.winner, rec.moves) == (1, [])
        assert rec.reason.startswith("black illegal move 7,7"), rec.reason
        assert "double three" in rec.reason
    else:
        assert rec.moves[0] == (7, 7)           # legal in freestyle


def test_only_an_engine_that_never_started_is_reported():
    fail = "white failed to start: START answered 'ERROR size'"
    first = _record(0, 0, ([0.1], []), fail)
    first.dead = {1: fail}
    once = arena.MatchResult(["A", "B"], [first,
                                          _record(1, 1, ([0.1], [0.2]), "black five")], 0)
    assert once.never_started() == []
    second = _record(1, 0, ([0.1], []), fail.replace("white", "black"))
    second.dead = {1: fail}
    always = arena.MatchResult(["A", "B"], [first, second], 0)
    assert always.never_started() == [(1, fail)]


def test_two_brains_that_never_start_are_both_reported(tmp_path, capsys):
    """Black is started first: were white not started when black fails,
    each would win the games where the other was black, and pass as fine."""
    missing = str(tmp_path / "no-such-brain")
    assert arena.main([missing, "%s -c pass" % sys.executable, "--games", "2"]) == 2
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert len(lines) == 2, err
    assert lines[0].startswith("arena: %s never started (cannot run" % missing)
    assert lines[1].endswith("-c pass never started (white failed to start: "
                             "crashed (exit 0))")
    assert out.splitlines()[0].startswith("2 games (2 void: neither brain started")
    for name in (missing[-20:], "-c pass"):     # no result: not scored
        row = [ln for ln in out.splitlines() if name in ln][0].split()
        assert row[-7:-3] == ["0", "0", "0", "0.0%"], row


@pytest.mark.parametrize("rule, name", [(0, "freestyle"), (1, "standard"), (4, "renju")])
def test_the_table_names_the_rule_and_fits_a_forty_character_name(rule, name):
    forty, longer = "a" * 39 + "z", "b" * 40 + "y"
    res = arena.MatchResult([forty, longer], [_record(0, None, ([0.1], [0.2]), "draw")], rule)
    lines = res.table().split("\n")
    assert lines[0] == "1 games, rule %s" % name
    assert lines[2].split()[0] == forty
    assert lines[3].split()[0] == "..." + longer[-37:]


# ---- tools/quickmatch.py: the arena's games in one process -------------------

class Fixed:
    """A quickmatch player that always answers the same point."""
    name = "fixed"

    def __init__(self, x, y):
        self.point = y * 15 + x

    def start(self, seed):
        pass

    def move(self, g):
        return self.point


def test_quickmatch_scores_an_illegal_move_as_a_loss_like_the_arena():
    """The arena: an illegal move loses (and is no move of the game). A
    player whose move the referee refuses, here black's renju double three,
    loses the game in quickmatch too instead of stopping the match."""
    import quickmatch
    from test_arena import RowMaker
    assert quickmatch.play_game(Fixed(7, 7), RowMaker(14), DOUBLE_THREE, rule=4) == (2, [])
    # freestyle: 7,7 stands, white fills row 14 (0,14 is taken), and black's
    # second 7,7 is on a stone
    assert quickmatch.play_game(Fixed(7, 7), RowMaker(14), DOUBLE_THREE) == (
        2, [(7, 7), (1, 14)])


@pytest.mark.parametrize("brain", ["tools/pbrain.py", "tools/ref_alphabeta.py --depth 1"])
@pytest.mark.parametrize("encoding, bad, shown", [("utf-8", b"\xe9", "\ufffd"),
                                                  ("cp1252", b"\x81", "\\ufffd")])
def test_a_line_that_is_not_text_is_answered_and_the_brain_plays_on(brain, encoding,
                                                                    bad, shown):
    """Bytes the manager's encoding cannot decode are one bad line, not the
    end of the brain: read as U+FFFD, which an answer quotes back. A UTF-8
    locale writes it; a cp1252 pipe, as on Windows where Piskvork runs, has
    no such character: it is escaped, not a crash."""
    import os
    import subprocess
    root = __import__("upy").ROOT
    env = dict(os.environ, PYTHONIOENCODING=encoding)
    out = subprocess.run([sys.executable] + brain.split(), cwd=root, env=env,
                         input=b"START 15\n%s\nTURN 8,%s\nBEGIN\nEND\n" % (bad, bad),
                         capture_output=True, timeout=60)
    assert out.returncode == 0, out.stderr.decode()
    lines = out.stdout.decode(encoding).splitlines()
    assert lines[:3] == ["OK", "UNKNOWN " + shown,
                         "ERROR expected x,y numbers but got '8,%s'" % shown]
    assert len(lines) == 4 and lines[3].count(",") == 1, lines


def test_a_brain_command_runs_where_the_arena_was_started(tmp_path, monkeypatch):
    """As in a shell: `python mine.py` is the file in the current
    directory, wherever the arena itself lives."""
    brain_script(tmp_path, "mine", 'stones.append(1); return "%d,0" % len(stones)')
    monkeypatch.chdir(tmp_path)
    cmd = "%s mine.py" % sys.executable
    rec = arena.play_game(cmd, cmd, opening=[(7, 7), (8, 8)], timeout=20)
    assert rec.moves[:1] == [(1, 0)] and not rec.dead, rec
