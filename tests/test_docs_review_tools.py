"""The README's engine tools refuse a level the engine does not play at once,
naming the levels it does, instead of failing later (pbrain: an ERROR to
every move; quickmatch: a traceback mid-match; play: a prompt offering 1-9)."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOOLS = str(ROOT / "tools")
if TOOLS not in sys.path:
    sys.path.insert(0, TOOLS)


def test_pbrain_refuses_an_unknown_level_at_start():
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "pbrain.py"),
                        "--level", "5"], input="START 15\nBEGIN\nEND\n",
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2, r.stdout
    assert "level 5 not available (levels: 1, 2, 3)" in r.stderr
    assert r.stdout == ""


def test_pbrain_still_plays_a_known_level():
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "pbrain.py"),
                        "--level", "1"], input="START 15\nBEGIN\nEND\n",
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0
    assert r.stdout.split() == ["OK", "7,7"]


def test_quickmatch_refuses_an_unknown_level_before_playing(capsys):
    import quickmatch
    with pytest.raises(SystemExit) as e:
        quickmatch.main(["5", "ref", "--seeds", "1", "--games", "2"])
    assert e.value.code == 2
    assert "level 5 not available (levels: 1, 2, 3)" in capsys.readouterr().err


def test_play_offers_only_the_levels_the_engine_plays():
    import play
    prompts = []
    answers = iter(["", "", "", "q"])

    def read(prompt):
        prompts.append(prompt)
        return next(answers)

    play.TerminalGame(read=read, write=lambda *a: None).run()
    assert any(p.startswith("AI level [1/2/3] ") for p in prompts), prompts


def test_quickmatch_scores_a_draw_half_as_the_arena_does(capsys, monkeypatch):
    # README's percentages (and arena.py's score column) count a draw half
    import quickmatch
    monkeypatch.setattr(quickmatch, "run_match", lambda *a, **k: (1, 2, 0, 2))
    quickmatch.main(["1", "2", "--seeds", "1", "--games", "4"])
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("level1 vs level2: 50.0% (won 1 of 2 as black, "
                           "0 of 2 as white, 2 drawn"), last
