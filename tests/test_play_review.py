"""Mutation review T of tools/play.py, the terminal game against the AI:
what a mistyped move says, the board's labels, which answers a new game
keeps, who the end of a game congratulates, Ctrl-C."""
import os
import select
import signal
import subprocess
import sys
import time

import pytest

from test_play import ROOT, boards, play, run


def game(colour, rule=0):
    """A TerminalGame at level 1, its game set up, writing into a list."""
    lines = []
    tg = play.TerminalGame(read=lambda p: "q", write=lines.append, rule=rule,
                           level=1, colour=colour)
    tg.new_game()
    return tg, lines


def moves(tg, points):
    for m in points:
        tg.g.play(*m)
        tg.moves.append(m)


@pytest.mark.parametrize("text, why", [("p1", "column 'p' is not a-o"),
                                       ("z9", "column 'z' is not a-o"),
                                       ("h", "wants a row number"),
                                       ("hx", "wants a row number"),
                                       ("h8.", "wants a row number"),
                                       ("1 y", "is not a move"),
                                       ("7 .5", "is not a move"),
                                       # digits str.isdigit() takes, int()
                                       # reads as 3 or refuses in its words
                                       ("h\u0663", "wants a row number"),
                                       ("h\u00b2", "wants a row number"),
                                       ("7 \u00b2", "is not a move"),
                                       ("h" + "1" * 5000, "not a move")])
def test_a_mistyped_move_says_what_is_wrong(text, why):
    with pytest.raises(ValueError, match=why):
        play.parse_move(text)


def test_board_labels_rows_on_both_sides_and_columns_above_and_below():
    """Rows 15 (top) to 1 (bottom) on the left and the right of each line,
    the columns a-o over and under the board, as renju notation counts."""
    tg, lines = game("b")
    moves(tg, [(0, 14)])                    # a1: the bottom left corner
    text = play.draw(tg.g, (0, 14))
    rows = text.split("\n")
    assert len(rows) == 17
    assert rows[0] == rows[16] and rows[0].split() == list("abcdefghijklmno")
    for k, line in enumerate(rows[1:16]):
        n = 15 - k
        assert line.split()[0] == str(n) and line.split()[-1] == str(n)
    assert rows[15].split()[1] == "[X]"


def test_enter_keeps_the_last_games_level_and_colour():
    """n, then Enter at each question: the rule, level and colour of the
    last game, whatever they were."""
    out = run("1\n2\nw\nn\n\n\n\nq\n")
    news = [ln for ln in out.split("\n") if "New game:" in ln]
    want = "New game: standard (exactly five), AI level 2, you play white (O)."
    assert [n.split("New game:")[1] for n in news] == \
        [want.split("New game:")[1]] * 2


@pytest.mark.parametrize("human, winner, who", [
    ("w", 1, "The AI wins."), ("b", 1, "You win!"),
    ("w", 2, "You win!"), ("b", 2, "The AI wins.")])
def test_the_end_names_the_winner_and_whether_it_was_you(human, winner, who):
    tg, lines = game(human)
    row = [(x, 7) for x in range(3, 8)]             # the five
    spread = [(x, 11) for x in (0, 2, 4, 6, 8)]     # the loser's stones
    black, white = (row, spread) if winner == 1 else (spread, row)
    seq = [m for k in range(5) for m in (black[k], white[k])]
    seq = seq[:9] if winner == 1 else seq
    moves(tg, seq)
    assert tg.g.winner == winner
    tg.show()
    colour = "Black (X)" if winner == 1 else "White (O)"
    assert lines[-1] == "%s wins with five. %s n new game, u undo, q quit." % (
        colour, who)


def test_winning_against_the_ai_ends_the_game(monkeypatch):
    """You make five: the game says you won and waits for n, u or q (the
    AI, whose turn it would be, does not move on a finished game). An AI
    that plays the top row from the left stands in for the engine."""
    def top_row(g, level):
        return next(x for x in range(15) if not g.stone(x, 0))
    monkeypatch.setattr(play.ai, "best_move", top_row)
    typed = iter(["h8", "i8", "j8", "k8", "l8", "", "q"])
    lines = []
    tg = play.TerminalGame(read=lambda p: next(typed), write=lines.append,
                           rule=0, level=1, colour="b")
    tg.run()
    won = "Black (X) wins with five. You win! n new game, u undo, q quit."
    assert lines.count(won) == 2            # after l8, and after Enter
    assert lines[-1] == won and tg.g.moves == 9


def test_empty_lines_and_the_long_command_words():
    """Enter alone at the prompt plays nothing and says nothing is wrong;
    h and help show the help, undo and new work as u and n do."""
    out = run("0\n1\nb\n\nh\nhelp\nh8\nundo\nnew\n\n\n\nquit\n")
    assert "Not played" not in out
    assert out.count(play.HELP) == 3
    assert out.count("New game") == 2
    b = boards(out)
    assert len(b[-2]) == 0 and any(len(s) == 2 for s in b)   # undone


def test_no_forbidden_marks_once_the_game_is_over():
    """Renju, black (you) to move but white has won: the board shows the
    stones, no ! (no one moves any more)."""
    tg, lines = game("b", rule=4)
    # black: a double three at (8, 7) like test_play's; white: five on row 0
    moves(tg, [(6, 7), (0, 0), (7, 7), (1, 0), (8, 5), (2, 0), (8, 6), (3, 0),
               (13, 13), (4, 0)])
    assert tg.g.winner == 2 and tg.g.turn == 1
    tg.show()
    assert "!" not in lines[-2]
    assert lines[-1].startswith("White (O) wins with five. The AI wins.")


def test_ctrl_c_ends_the_game_quietly():
    """Ctrl-C at a question or at the prompt: status 0, no traceback."""
    from term_screen import foreground
    for typed in ("", "0\n1\nb\n"):
        p = subprocess.Popen([sys.executable, str(ROOT / "tools" / "play.py")],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, preexec_fn=foreground)
        p.stdin.write(typed.encode())
        p.stdin.flush()
        want = b"> " if typed else b"Rule ["
        seen = b""
        end = time.monotonic() + 60         # a guard only
        while want not in seen and time.monotonic() < end:
            if select.select([p.stdout], [], [], 0.05)[0]:
                seen += os.read(p.stdout.fileno(), 4096)
        assert want in seen, seen           # the question is up: Ctrl-C now
        p.send_signal(signal.SIGINT)
        rest, err = p.communicate(timeout=60)
        assert p.returncode == 0 and b"Traceback" not in err, err
