"""tools/play.py: the terminal game against the AI, driven through stdin."""
import subprocess
import sys
from pathlib import Path

import pytest


ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import play  # noqa: E402


def run(stdin, *args):
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "play.py"), *args],
                          input=stdin, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def boards(out, marked=False):
    """Every board drawn, as {(x, y): 'X'|'O'} dicts (marked: the points
    drawn in brackets, the last move, instead)."""
    found = []
    lines = out.split("\n")
    for i, ln in enumerate(lines):
        if ln.lstrip("> ").startswith("a  b  c") and i + 15 < len(lines) and \
                lines[i + 1].lstrip().startswith("15 "):
            stones = {}
            for y in range(15):
                row = lines[i + 1 + y][3:3 + 45]
                for x in range(15):
                    cell = row[3 * x:3 * x + 3]
                    if marked and cell.startswith("["):
                        stones[(x, y)] = cell.strip("[] ")
                    elif not marked and ("X" in cell or "O" in cell):
                        stones[(x, y)] = cell.strip("[] ")
            found.append(stones)
    return found


def test_q_quits_while_the_setup_asks():
    """q ends the game at a setup question too (it was "Please answer one
    of: 0, 1, 4" until input ran out)."""
    out = run("q\n")
    assert "Please answer" not in out and "New game" not in out
    out = run("0\n1\nb\nh8\nn\nquit\n")      # the questions of a new game
    assert out.count("New game") == 1 and "Please answer" not in out


@pytest.mark.parametrize("colour, moves, line, other", [
    ("b", "h8\n", "Black (X) to move (you).", "White (O) to move"),
    ("w", "", "White (O) to move (you).", "Black (X) to move")])
def test_the_turn_line_names_the_side_to_move_and_the_player(colour, moves, line,
                                                            other):
    # as black: before the first move and after the AI's reply; as white,
    # after the AI's opening
    out = run("0\n1\n%s\n%sq\n" % (colour, moves))
    assert out.count(line) == len(boards(out)) and other not in out


def test_move_ai_reply_undo_and_quit():
    out = run("0\n1\nb\nh8\nu\nq\n")
    b = boards(out)
    assert b[0] == {}
    assert b[1][(7, 7)] == "X" and len(b[1]) == 2          # mine and the AI's
    ai_move = [p for p, s in b[1].items() if s == "O"][0]
    assert "AI plays %s" % play.name(*ai_move) in out
    assert boards(out, marked=True)[1] == {ai_move: "O"}   # the last move
    assert b[2] == {}                                      # undo takes both back
    assert len(b) == 3


def test_bad_input_changes_nothing():
    out = run("0\n1\nb\nzz\n16 3\n3\nh99\nh8\nh8\n7 7\nq\n")
    assert out.count("Not played") == 6
    assert out.count("Not played: h8 is occupied") == 2     # as typed, h8 or 7 7
    b = boards(out)
    assert all(s == {} for s in b[:5])
    assert all(s == b[5] for s in b[6:]) and len(b[5]) == 2


# Far apart edge points: the player cannot make five with these.
EDGE = ["%s%d" % (c, r) for r in (1, 15) for c in "acegikmo"] + \
       ["%s%d" % (c, r) for c in "ao" for r in (3, 5, 7, 9, 11, 13)]


@pytest.mark.parametrize("rule", ["0", "1", "4"])
def test_the_ai_wins_and_the_game_says_so(rule):
    out = run("\n".join([rule, "1", "b"] + EDGE + ["h8", "n", "", "", "w", "q"]) + "\n")
    assert "White (O) wins with five. The AI wins." in out
    end = out.index("The AI wins.")
    assert "Not played: game over" in out[end:]         # a move after the end
    after_new = out[out.rindex("New game"):]
    assert "you play white (O)" in after_new
    # Enter keeps the last game's answers: its rule
    assert after_new.startswith("New game: %s," % play.RULES[int(rule)])
    assert "AI plays" in after_new                   # the AI opened as black


def test_options_on_the_command_line_skip_the_questions():
    out = run("q\n", "--rule", "4", "--level", "1", "--colour", "white")
    assert "Rule [" not in out and "AI level [" not in out
    assert "New game: renju" in out and "you play white (O)" in out
    b = boards(out)
    assert len(b) == 1 and list(b[0].values()) == ["X"]
    out = run("q\n", "--rule", "1", "--level", "1", "--color", "black")
    assert "Play black" not in out and "you play black (X)" in out
    assert len(boards(out)) == 1 and boards(out)[0] == {}


def test_end_of_input_exits():
    out = run("0\n1\nb\nh8\n")
    assert len(boards(out)) == 2
    out = run("0\n")                   # while the setup asks: no traceback
    assert "Rule [" in out and "AI level [" in out and "New game" not in out


def test_a_wrong_answer_is_asked_again():
    out = run("7\n1\n9\n2\nx\nw\nq\n")
    assert out.count("Please answer one of: 0, 1, 4") == 1
    assert out.count("Please answer one of: %s"
                     % ", ".join(str(n) for n in play._levels())) == 1
    assert out.count("Please answer one of: b, w") == 1
    assert "New game: standard (exactly five), AI level 2, you play white" in out


def test_the_colour_question_takes_the_words_the_option_takes():
    out = run("0\n1\nwhite\nq\n")
    assert "Please answer" not in out and "you play white" in out
    out = run("0\n1\nBlack\nq\n")
    assert "Please answer" not in out and "you play black" in out


def test_help_and_every_quit_word():
    out = run("0\n1\nb\n?\nexit\nh8\n")
    assert out.count(play.HELP) == 2                # at the start, and on ?
    b = boards(out)                 # drawn at the start and after the help
    assert b == [{}, {}] and "Not played" not in out    # exit ended it


def test_undo_as_white():
    """Playing white, undo before my first move has nothing of mine to
    take back (the AI's opening stays); after it, undo takes back my move
    and the AI's reply, not the opening."""
    out = run("0\n1\nw\nu\nh9\nu\nq\n")
    assert out.count("Nothing to undo.") == 1
    b = boards(out)
    assert len(b[0]) == 1 and list(b[0].values()) == ["X"]     # the opening
    assert b[1] == b[0] and len(b[2]) == 3 and b[3] == b[0]


def test_a_level_the_engine_lacks_is_refused_on_the_command_line():
    # at once, as argparse refuses a bad --rule: not after the questions
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "play.py"),
                           "--level", "99"], input="0\nq\n",
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert "Rule" not in proc.stdout
    assert proc.stderr.startswith("level 99 is not available: the levels are %s"
                                  % ", ".join(str(n) for n in play._levels())), proc.stderr


@pytest.mark.parametrize("text,xy", [("h8", (7, 7)), ("7 7", (7, 7)), ("a1", (0, 14)),
                                     ("o15", (14, 0)), (" 3,12 ", (3, 12)), ("B 2", (1, 13)),
                                     ("i3", (8, 12))])
def test_parse_move(text, xy):
    """Renju notation (row 1 at the bottom, i a column) or Gomocup's x y."""
    assert play.parse_move(text) == xy
    if text[0].isalpha():
        assert play.name(*xy) == text.strip().lower().replace(" ", "")


@pytest.mark.parametrize("text", ["p1", "a0", "a16", "15 0", "1", "1 2 3", "h", "-1 3", "x y"])
def test_parse_move_rejects(text):
    with pytest.raises(ValueError):
        play.parse_move(text)


def test_renju_shows_black_forbidden_points():
    lines = []
    tg = play.TerminalGame(read=lambda p: "q", write=lines.append, rule=4, level=1,
                           colour="b")
    tg.new_game()
    # black double three at (8, 7): a row three and a column three
    for m in [(6, 7), (0, 0), (7, 7), (14, 0), (8, 5), (0, 14), (8, 6), (14, 14)]:
        tg.g.play(*m)
        tg.moves.append(m)
    assert tg.g.forbidden(8, 7)
    tg.show()
    board = lines[-2].split("\n")
    assert board[1 + 7][3 + 3 * 8:3 + 3 * 8 + 3].strip() == "!"
    assert "!" not in "".join(board[1:7])


@pytest.mark.parametrize("rule, why", [(4, "black has no move"),
                                       (1, "the board is full")])
def test_a_drawn_game_says_why(rule, why):
    from engine_cases import black_boxed_in
    lines = []
    tg = play.TerminalGame(read=lambda p: "q", write=lines.append, rule=rule, level=1,
                           colour="w")
    tg.new_game()
    tg.g, moves = black_boxed_in(rule)
    tg.moves = [(m % 15, m // 15) for m in moves]
    if rule != 4:
        tg.g.play(3, 0)         # black's six in a row fills the board
        tg.moves.append((3, 0))
    assert tg.g.winner == 3
    tg.show()
    assert lines[-1] == "Draw: %s. n new game, u undo, q quit." % why
