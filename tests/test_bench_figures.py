"""The figures `make bench` prints, from synthetic results: each bench's
median, maximum, percentage, colour split and budget verdict is the one its
inputs give, and a failing bench fails `make bench`. The boards, the arena
and the radio are replaced by fakes here (the real runs take 40 minutes);
the unix-port scripts, which are quick, run for real."""
import importlib
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parents[1]
for _p in (ROOT / "bench", ROOT / "tools"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

import arena  # noqa: E402
import upy  # noqa: E402


def bench(name):
    return importlib.import_module(name)


def lines(capsys):
    return capsys.readouterr().out.splitlines()


# -- tools/bench.py ------------------------------------------------------------

def test_make_bench_fails_when_one_bench_fails_and_runs_the_rest(tmp_path, monkeypatch,
                                                                 capsys):
    import bench as make_bench
    (tmp_path / "bench").mkdir()
    for name, rc in (("bench_a", 0), ("bench_b", 3), ("bench_c", 0)):
        (tmp_path / "bench" / (name + ".py")).write_text(
            "import sys\nprint(%r)\nsys.exit(%d)\n" % (name + " ran", rc))
    monkeypatch.setattr(make_bench, "ROOT", tmp_path)
    assert make_bench.main() == 1
    out = lines(capsys)
    assert "!! bench_b failed (exit 3)" in out
    assert out[-1] == "failed: bench_b"
    assert "== bench_c" in out                  # the rest still ran
    assert "bench_b ran" in out                 # its lines are passed through
    (tmp_path / "bench" / "bench_b.py").write_text("print('fixed')\n")
    assert make_bench.main() == 0
    assert not any(ln.startswith(("!!", "failed")) for ln in lines(capsys))


def test_make_bench_fails_on_a_cost_over_budget_not_on_a_missed_target(
        tmp_path, monkeypatch, capsys):
    """A cost past its budget fails `make bench` as a failed run does; a win
    rate under its target is a figure, reported as MISSED."""
    import bench as make_bench
    (tmp_path / "bench").mkdir()
    script = tmp_path / "bench" / "bench_a.py"
    monkeypatch.setattr(make_bench, "ROOT", tmp_path)
    script.write_text("print('heap: 9 bytes (budget <= 8) OVER BUDGET')\n"
                      "print('time: 1 ms (budget <= 2) OVER BUDGET')\n")
    assert make_bench.main() == 1
    out = lines(capsys)
    assert "!! bench_a 2 lines OVER BUDGET" in out and out[-1] == "failed: bench_a"
    script.write_text("print('level 2 vs x: 80% (budget >= 90%) MISSED')\n"
                      "print('OVER BUDGET is what a line ends with, not this one')\n")
    assert make_bench.main() == 0
    assert not any(ln.startswith(("!!", "failed")) for ln in lines(capsys))


@pytest.mark.parametrize("argv", [["--help"], ["--quick"]])
def test_make_bench_asked_for_help_or_given_an_unknown_option_runs_no_bench(
        tmp_path, monkeypatch, capsys, argv):
    """`tools/bench.py --help` prints what it does; it does not start the
    40-minute run, and neither does an option it does not know."""
    import bench as make_bench
    (tmp_path / "bench").mkdir()
    ran = tmp_path / "ran"
    (tmp_path / "bench" / "bench_a.py").write_text(
        "open(%r, 'w').close()\n" % str(ran))
    monkeypatch.setattr(make_bench, "ROOT", tmp_path)
    with pytest.raises(SystemExit) as e:
        make_bench.main(argv)
    out = capsys.readouterr()
    assert e.value.code == (0 if argv == ["--help"] else 2)
    assert "usage: " in out.out + out.err
    assert "== bench_a" not in out.out and not ran.exists()


# -- bench_ai: arena lines and the unix-port heap ---------------------------------

def _game(black, winner, reason, times=((), ())):
    rec = arena.GameRecord(black, 1 - black, [(7, 7)])
    rec.winner, rec.reason, rec.times = winner, reason, (list(times[0]), list(times[1]))
    return rec


def test_arena_line_splits_wins_by_colour_and_counts_draws_half(monkeypatch, capsys):
    bench_ai = bench("bench_ai")
    games = [                                   # A: black in 5 games, white in 3
        _game(0, 1, "black timeout", ([], [])),
        _game(0, 0, "black five", ([0.1, 0.3], [2.0])),
        _game(1, 0, "white five", ([0.2], [1.0, 3.0])),
        _game(0, 1, "white five", ([0.4], [4.0])),
        _game(0, None, "draw"),
        _game(1, 0, "black illegal move 1,1: (1, 1) is occupied", ([0.05], [])),
        _game(1, 0, "white five", ([0.15], [0.5])),
        _game(0, 1, "white five", ([0.25], [0.6])),
    ]
    calls = []

    def run_match(a, b, **kw):
        calls.append((a, b, kw))
        return arena.MatchResult(kw["names"], games, 0)

    monkeypatch.setattr(bench_ai.arena, "run_match", run_match)
    bench_ai.match("A", "B", 8, "levelX", "refY", 90)
    assert calls[0][:2] == ("A", "B") and calls[0][2]["games"] == 8
    out = lines(capsys)
    # A: 4 won (1 of 5 as black, 3 of 3 as white), 3 lost, 1 drawn: 4.5 of 8
    assert out[0].startswith(
        "levelX vs refY: 56.2% (4 won, 3 lost, 1 drawn of 8 games; won 1 of 5 as black,"
        " 3 of 3 as white; budget >= 90%) MISSED [levelX: median 200.0 ms, max 400.0 ms a move"
        " on CPython; "), out[0]
    assert out[1] == "  faults: black timeout; black illegal move 1,1: (1, 1) is occupied"


@pytest.mark.parametrize("budget, word", [(50, "ok"), (51, "MISSED")])
def test_arena_line_verdict_is_ok_from_the_budget_up(monkeypatch, capsys, budget, word):
    bench_ai = bench("bench_ai")
    games = [_game(0, 0, "black five"), _game(1, 1, "black five")]     # 1 of 2 won
    monkeypatch.setattr(bench_ai.arena, "run_match",
                        lambda a, b, **kw: arena.MatchResult(kw["names"], games, 0))
    bench_ai.match("A", "B", 2, "levelX", "refY", budget)
    assert ("50.0%% (1 won, 1 lost, 0 drawn of 2 games; won 1 of 1 as black, 0 of 1 as white;"
            " budget >= %d%%) %s [levelX:" % (budget, word)) in lines(capsys)[0]


def test_arena_line_without_a_budget_is_a_figure_from_the_openings_asked(monkeypatch,
                                                                          capsys):
    bench_ai = bench("bench_ai")
    games = [_game(0, 0, "black five"), _game(1, 1, "black five")]
    calls = []

    def run_match(a, b, **kw):
        calls.append(kw)
        return arena.MatchResult(kw["names"], games, 0)

    monkeypatch.setattr(bench_ai.arena, "run_match", run_match)
    bench_ai.match("A", "B", 2, "levelX", "refY from one stone", None, stones=(1, 1))
    assert calls[0]["stones"] == (1, 1)
    assert lines(capsys)[0].startswith(
        "levelX vs refY from one stone: 50.0% (1 won, 1 lost, 0 drawn of 2 games; won 1 of 1"
        " as black, 0 of 1 as white) [levelX:")


def test_arena_openings_have_the_stones_asked_for():
    """--stones 1: the 25 points of the centre's 5x5 square, each once;
    fewer distinct openings than pairs is refused before any game."""
    ops = [op for op, a_black, _ in arena.schedule(50, seed=3, stones=(1, 1)) if a_black]
    assert sorted(ops) == sorted([(x, y)] for x in range(5, 10) for y in range(5, 10))
    ops = [op for op, _, _ in arena.schedule(40, seed=3, stones=(3, 4))]
    assert {len(op) for op in ops} == {3, 4}
    with pytest.raises(SystemExit):
        arena.main(["a", "b", "--stones", "1", "--games", "52"])


def test_unix_heap_is_the_engines_share_and_the_first_heap_that_runs(monkeypatch, capsys):
    bench_ai = bench("bench_ai")
    import deepsearch
    tt = deepsearch._LV[0][4]
    bench_ai.unix_heap(3)                       # for real: a second or less
    out = lines(capsys)[-1]
    used = int(out.split(": ")[1].split()[0])
    assert used > tt, out                       # engine + search + its table
    assert "(TT %d bytes)" % tt in out
    tried = []

    def run(code, heapsize, extra_path):
        tried.append(heapsize)
        assert (extra_path[0] / "deepsearch.mpy").exists()     # as a board loads it
        if heapsize in ("48k", "64k"):
            raise AssertionError("MemoryError")
        return "30000 0 112\n"

    monkeypatch.setattr(upy, "run", run)
    assert bench_ai.unix_heap(3)
    assert tried == ["48k", "64k", "96k"]
    out = lines(capsys)[-1]
    assert out.startswith("level3 heap on the unix port: 30000 bytes ")
    assert out.endswith("fits -X heapsize=96k")


@pytest.mark.parametrize("error", [
    "MemoryError: memory allocation failed, heap is locked",
    "ImportError: no module named 'deepsearch'"])
def test_unix_heap_tries_a_bigger_heap_only_when_the_heap_is_too_small(
        monkeypatch, error):
    """An allocation under heap_lock, or any other fault, is not a heap too
    small: it stops the bench with its own error, not "does not run"."""
    bench_ai = bench("bench_ai")
    tried = []

    def run(code, heapsize, extra_path):
        tried.append(heapsize)
        raise AssertionError("micropython exited 1\n" + error)

    monkeypatch.setattr(upy, "run", run)
    with pytest.raises(AssertionError, match=error.split(":")[0]):
        bench_ai.unix_heap(3)
    assert tried == ["48k"]


def test_unix_heap_that_fits_no_heap_fails_the_bench(monkeypatch, capsys):
    bench_ai = bench("bench_ai")

    def run(code, heapsize, extra_path):
        raise AssertionError("MemoryError: memory allocation failed, allocating 9 bytes")

    monkeypatch.setattr(upy, "run", run)
    assert not bench_ai.unix_heap(3)
    assert lines(capsys)[-1] == "level3 heap on the unix port: does not run in 256k"


# -- bench_radio -------------------------------------------------------------------

def _radio(monkeypatch, latency, finished=True, divergences=()):
    """bench_radio's main() on fake matches: `latency[loss]` split over its
    three seeds; 2 frames and 1 ack a move."""
    bench_radio = bench("bench_radio")

    class Run:
        def __init__(self, games, loss, seed):
            self.loss, self.seed = loss, seed

        def run(self):
            lat = latency[self.loss]
            self.latency = lat[self.seed - 1::3]
            n = len(self.latency)
            self.medium = SimpleNamespace(stats={"frames": 2 * n, "acks": n})
            return {"finished": finished, "divergences": list(divergences), "moves": n}

    monkeypatch.setattr(bench_radio.H, "MatchRun", Run)
    return bench_radio.main()


def test_radio_median_p95_and_budget(monkeypatch, capsys):
    ok = {0.0: [20 - k for k in range(20)], 0.3: [5] * 9 + [100] * 9 + [1000] * 2}
    assert _radio(monkeypatch, ok) == 0
    out = lines(capsys)
    assert out[0] == ("radio move latency at 0% loss: median 10.5 ms, p95 19 ms over 20 moves"
                      " (budget: median <= 50, p95 <= 250) ok")
    assert out[1].startswith("radio packets on air per move at 0% loss: 2.0 (+ 1.0 ESB ACKs;")
    assert out[2] == ("radio move latency at 30% loss: median 100 ms, p95 1000 ms over 20 moves"
                      " (budget: median <= 100, p95 <= 1000) ok")


@pytest.mark.parametrize("loss, lat", [
    (0.0, [1] * 18 + [251] * 2),                # p95 over, median fine
    (0.0, [51] * 11 + [1] * 9),                 # median over, p95 fine
    (0.3, [1] * 18 + [1001] * 2),
    (0.3, [101] * 11 + [1] * 9),
])
def test_radio_over_budget_fails(monkeypatch, capsys, loss, lat):
    latency = {0.0: [1] * 20, 0.3: [1] * 20}
    latency[loss] = lat
    assert _radio(monkeypatch, latency) == 1
    assert lines(capsys)[0 if loss == 0.0 else 2].endswith(") OVER BUDGET")


@pytest.mark.parametrize("finished, divergences", [(False, ()), (True, [(4, "board")])])
def test_radio_unclean_match_fails(monkeypatch, capsys, finished, divergences):
    assert _radio(monkeypatch, {0.0: [1] * 3, 0.3: [1] * 3}, finished, divergences) == 1
    assert "did not finish cleanly" in lines(capsys)[0]


# -- bench_engine ------------------------------------------------------------------

def test_engine_table_memory_is_board_plus_tables_against_1024(monkeypatch, capsys):
    bench_engine = bench("bench_engine")
    bench_engine.memory()                       # the real engine
    head = lines(capsys)[0]
    total, board, tables = map(int, re.match(
        r"board \+ pattern tables: (\d+) bytes \(board (\d+), tables (\d+);", head).groups())
    assert total == board + tables and head.endswith(" ok")
    for board, pat, word in ((24, 1000, "ok"), (25, 1000, "OVER BUDGET")):
        g = SimpleNamespace(board=bytearray(board), pat=bytearray(pat), hist=bytearray(225))
        monkeypatch.setattr(bench_engine.gomoku, "Game", lambda g=g: g)
        bench_engine.memory()
        assert lines(capsys) == [
            "board + pattern tables: %d bytes (board %d, tables %d; budget <= 1024) %s"
            % (board + pat, board, pat, word),
            "move history: 225 bytes; renju's line and stack: %d bytes"
            % len(bench_engine.renju.LINE)]


@pytest.mark.parametrize("wins, word", [(19, "95.0% (budget >= 95%) ok"),
                                        (18, "90.0% (budget >= 95%) MISSED")])
def test_engine_strength_percent_and_verdict(monkeypatch, capsys, wins, word):
    bench_engine = bench("bench_engine")
    got = []

    def match(openings):
        got.append(list(openings))
        return wins, 20, [(3, "white", 3, 120), (5, "black", 2, 41)]

    monkeypatch.setattr(bench_engine.engine_match, "match", match)
    bench_engine.strength(21)                   # an odd count: the pairs below it
    assert got == [list(range(1, 11))]          # 10 openings, each twice: 20 games
    out = lines(capsys)
    assert out[0] == "level 1 vs seed 000 scorer: %d/20 games won = %s" % (wins, word)
    assert out[1:] == ["  drawn: opening 3, level 1 white, after 120 moves",
                       "  lost: opening 5, level 1 black, after 41 moves"]


# The script's first best_move allocates, every other one (heaplock's) not.
ALLOCATING_AI = """
import ai
_real, _n, _keep = ai.best_move, [0], []
def _best_move(g, level):
    _n[0] += 1
    if _n[0] == 5:
        _keep.append(bytearray(200))
    return _real(g, level)
ai.best_move = _best_move
"""


def test_engine_unix_port_allocation_is_the_worst_move(monkeypatch, capsys):
    bench_engine = bench("bench_engine")
    bench_engine.unix_port()                    # for real: no allocation
    out = lines(capsys)[0]
    assert out.startswith("unix port level-1 allocation: 0 bytes max over ")
    assert out.endswith("(budget 0) ok")
    real = upy.run
    monkeypatch.setattr(bench_engine.upy, "run",
                        lambda code, **kw: real(ALLOCATING_AI + code, **kw))
    bench_engine.unix_port()
    out = lines(capsys)[0]
    worst = int(out.split(": ")[1].split()[0])
    assert 200 <= worst < 400 and out.endswith("(budget 0) OVER BUDGET"), out


class FakeBoard:
    """The emulated micro:bit's file system, as a context manager."""

    def __init__(self, *a, **kw):
        self.files = ["old.py", "main.txt"]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def listdir(self):
        return list(self.files)

    def remove(self, name):
        self.files.remove(name)

    def put(self, name, text):
        self.files.append(name)


def _microbit(monkeypatch, rows):
    bench_engine = bench("bench_engine")
    import mcu
    monkeypatch.setattr(mcu, "MicroBit", FakeBoard)
    monkeypatch.setattr(mcu, "engine_modules", lambda: ["gomoku", "ai"])
    monkeypatch.setattr(mcu, "device_source", lambda text, name: text)
    monkeypatch.setattr(bench_engine, "microbit_game",
                        lambda mb, names, rule, seed: (9000, 3000 + rule, rows[rule]))
    bench_engine.microbit()


def test_engine_microbit_move_time_is_best_move_plus_play(monkeypatch, capsys):
    # (move, best_move us, play us): totals 100..500 ms and 600 ms
    rows = {0: [(1, 90000, 10000), (2, 250000, 50000)],
            1: [(3, 180000, 20000), (4, 400000, 100000)],
            4: [(5, 550000, 50000), (6, 380000, 20000), (7, 120000, 30000)]}
    _microbit(monkeypatch, rows)
    out = lines(capsys)
    assert out[0] == "micro:bit heap: 3004 bytes free after import of a driver and gomoku+ai " \
                     "(of 9000)"
    # totals 100 300 200 500 600 400 150: median 300, max 600, both at their budgets
    assert out[1] == ("level1 move on micro:bit incl. table updates (best_move + play): "
                      "median 300 ms, max 600 ms over 7 moves in 3 games, one each of "
                      "freestyle, standard, renju (budget: median <= 300, max <= 600) ok")
    assert out[2] == ("  of which best_move: median 250 ms, max 550 ms; "
                      "play(): median 30 ms, max 100 ms")
    assert out[3:] == ["  rule 0: median 200 ms, max 300 ms over 2 moves",
                       "  rule 1: median 350 ms, max 500 ms over 2 moves",
                       "  rule 4: median 400 ms, max 600 ms over 3 moves"]


@pytest.mark.parametrize("rows", [
    # one move over 600 ms, the median at 300
    {0: [(1, 300000, 0), (2, 300000, 0)], 1: [(3, 600000, 1000)], 4: [(4, 100000, 0)]},
    # the median over 300 ms, no move over 600
    {0: [(1, 300000, 0), (2, 300000, 0)], 1: [(3, 599000, 1000)], 4: [(4, 301000, 0)]},
])
def test_engine_microbit_over_budget(monkeypatch, capsys, rows):
    _microbit(monkeypatch, rows)
    assert lines(capsys)[1].endswith(" OVER BUDGET")


# -- bench_mcu: level 1 on the stock micro:bit firmware ------------------------------

def _mcu_report(rule, move_ms, min_free, free_at_end, uploaded, **kw):
    rep = {"error": None, "problems": [], "rule": rule, "move_ms": move_ms,
           "heap_locked_moves": len(move_ms), "import_bytes": 5000,
           "modules": {"gomoku": {"import_bytes": 3000, "source_bytes": 7000},
                       "ai": {"import_bytes": 2000, "source_bytes": 4000}},
           "free_before_import": 8000, "free_after_import": 3000,
           "free_before_game": 2500, "driver_bytes": 400,
           "largest_free_block_before_game": 1200, "min_free_during_game": min_free,
           "free_at_end": free_at_end, "uploaded_bytes": uploaded, "lazy_modules": []}
    rep.update(kw)
    return rep


def _bench_mcu(monkeypatch, reports, margins=None):
    bench_mcu = bench("bench_mcu")
    games = iter(reports)
    monkeypatch.setattr(bench_mcu.mcu, "MicroBit", FakeBoard)
    monkeypatch.setattr(bench_mcu.mcu, "play_game", lambda **kw: next(games))
    monkeypatch.setattr(bench_mcu.mcu, "margins", lambda *a, **kw: dict(
        margins or {"heap_bytes": 640, "stack_frames": 12, "import_bytes": 96}))
    return bench_mcu.main([])


def test_mcu_level1_figures(monkeypatch, capsys):
    reports = [_mcu_report(0, [100, 200], 900, 950, 11000),
               _mcu_report(0, [300], 800, 700, 11000),
               _mcu_report(1, [250, 50], 600, 640, 11500, lazy_modules=["winrow"]),
               _mcu_report(4, [600], 700, 650, 12000, lazy_modules=["renju"]),
               _mcu_report(4, [280, 290], 650, 500, 11000)]
    assert _bench_mcu(monkeypatch, reports) == 0
    out = lines(capsys)
    # 50 100 200 250 280 290 300 600: median 265, max 600
    assert out[0] == ("level1 move on micro:bit: median 265 ms, max 600 ms over 8 moves in "
                      "5 games (budget: median <= 300, max <= 600) ok")
    assert out[1:4] == ["  rule 0: median 200 ms, max 300 ms over 3 moves",
                        "  rule 1: median 150 ms, max 250 ms over 2 moves",
                        "  rule 4: median 290 ms, max 600 ms over 3 moves"]
    assert "heap_lock held for all 8 moves" in out[4]
    assert out[5] == ("engine import on micro:bit: 5000 bytes of heap (gomoku 3000, ai 2000); "
                      "free heap 8000 before import, 3000 after (budget: fits in ~9 KB) ok")
    # the lowest free heap of any game, during it or at its end
    assert out[6].endswith("), 500 at the lowest during a game (budget: > 0) ok")
    assert out[7].startswith("engine on micro:bit flash: up to 12000 bytes uploaded "
                             "(top-level modules 11000 bytes in source; ")
    assert "also loaded when needed: renju, winrow) of ~15100 bytes" in out[7]
    assert out[8].endswith("holding 640 more bytes of heap (one block) and under 12 more "
                           "Python calls (C stack; heap_lock puts frames there); its engine "
                           "still compiles on import holding 96 (budget: > 0) ok")


@pytest.mark.parametrize("reports, line, word", [
    ([_mcu_report(0, [301, 301, 100], 500, 500, 1)] * 5, 0, "OVER BUDGET"),
    ([_mcu_report(0, [100, 601, 100], 500, 500, 1)] * 5, 0, "OVER BUDGET"),
    ([_mcu_report(0, [300, 600, 100], 500, 500, 1)] * 5, 0, "ok"),
    ([_mcu_report(0, [100], 500, 500, 1, free_after_import=0)] * 5, 2, "OVER BUDGET"),
    ([_mcu_report(0, [100], 500, 500, 1)] * 4 + [_mcu_report(0, [100], 0, 500, 1)],
     3, "OVER BUDGET"),
    ([_mcu_report(0, [100], 500, 500, 1)] * 4 + [_mcu_report(0, [100], 500, 0, 1)],
     3, "OVER BUDGET"),
])
def test_mcu_level1_verdicts(monkeypatch, capsys, reports, line, word):
    assert _bench_mcu(monkeypatch, reports) == 0
    out = [ln for ln in lines(capsys) if not ln.startswith(" ")]
    assert out[line].endswith(") " + word), out[line]


@pytest.mark.parametrize("key", ["heap_bytes", "stack_frames", "import_bytes"])
def test_mcu_margin_of_zero_is_over_budget(monkeypatch, capsys, key):
    margins = {"heap_bytes": 640, "stack_frames": 12, "import_bytes": 96}
    margins[key] = 0
    assert _bench_mcu(monkeypatch, [_mcu_report(0, [100], 500, 500, 1)] * 5, margins) == 0
    assert lines(capsys)[-1].endswith("(budget: > 0) OVER BUDGET")


def test_mcu_failed_game_fails_the_bench_and_counts_its_upload(monkeypatch, capsys):
    bad = _mcu_report(1, [], 0, 0, 13000, error="MemoryError", problems=[],
                      failed_at="import ai")
    reports = [_mcu_report(0, [100], 500, 500, 11000)] * 4
    assert _bench_mcu(monkeypatch, reports[:2] + [bad] + reports[2:]) == 1
    out = lines(capsys)
    assert out[0] == ("level1 game on micro:bit (rule 1, opening 3) FAILED at import ai: "
                      "MemoryError []")
    assert "level1 move on micro:bit: median 100 ms, max 100 ms over 4 moves in 4 games" in \
        "\n".join(out)
    assert any(ln.startswith("engine on micro:bit flash: up to 13000 bytes") for ln in out)
    assert _bench_mcu(monkeypatch, [bad] * 5) == 1


# -- bench_mcu_ai: level 2 on the frozen-engine firmware -----------------------------

class FrozenBoard(FakeBoard):
    """Free heap: 9000 at boot; the engine's import takes 3000, level 2's
    search 2000, a Game 500."""

    COST = {"g=gomoku.Game(4)": 500}

    def soft_reset(self):
        self.free = 9000

    def mem_free(self):
        return self.free

    def exec(self, code):
        self.free -= self.COST.get(code, 3000 if "gomoku" in code else 2000)


def test_mcu_ai_level2_figures(monkeypatch, tmp_path, capsys):
    bench_mcu_ai = bench("bench_mcu_ai")
    mf = bench_mcu_ai.mcu_firmware
    (tmp_path / "build.log").write_text(
        "   text    data     bss     dec     hex filename\n"
        " 200000    1000    3000  204000   31ce0 build/bbc-microbit/microbit-micropython\n")
    games, after, holds = {}, [], []

    def play_game(mb, level, rule, seed, ballast=0):
        if level == 1:
            return {"move_ms": [100 * seed, 600]}
        if ballast:
            holds.append((rule, seed, ballast))
        if ballast > 1000:      # the most a game can hold from its start
            raise bench_mcu_ai.mcu.MicroBitError("MemoryError: memory allocation failed")
        n = bench_mcu_ai.GAMES.index((rule, seed))
        games[rule, seed] = [n, n + 1]
        ms = [1000 * (n + 1), 3000]
        # the least free heap before a move in the game of rule 1, seed 3
        return {"moves": games[rule, seed], "move_ms": ms,
                "free_before_move": [4000 - n if n != 6 else 3900, 4100],
                "free_after_move": after or [300 + n, 3000]}

    monkeypatch.setattr(mf, "OUT", tmp_path)
    monkeypatch.setattr(mf, "build", lambda: tmp_path / "fw.hex")
    monkeypatch.setattr(mf, "play_game", play_game)
    diverges = (1, 3)
    monkeypatch.setattr(mf, "host_game", lambda level, rule, seed: (
        games[rule, seed] if (rule, seed) != diverges else [], 1))
    monkeypatch.setattr(bench_mcu_ai.mcu, "MicroBit", FrozenBoard)
    monkeypatch.setattr(mf, "frozen_names", lambda: ["gomoku", "ai", "search"])
    monkeypatch.setattr(bench_mcu_ai.mcu, "engine_modules", lambda entry: (
        ["gomoku", "ai", "refusal"] if "gomoku" in entry else ["gomoku", "search"]))
    assert bench_mcu_ai.main() == 1             # one game not CPython's
    out = lines(capsys)
    assert out[0].startswith("frozen-engine firmware: 201000 bytes of the micro:bit's 262144 "
                             "of flash (code 200000, data 1000); ")
    assert out[1] == ("level2 heap on micro:bit (frozen engine): 9000 bytes free at boot; the "
                      "engine's import takes 3000, level 2's search 2000, a Game 500: 3500 "
                      "free for a move's call frames (budget: > 0) ok")
    # 12 games: 1000..12000 ms and 3000 ms each: median 3 s, max 12 s
    assert out[2] == ("level2 move on micro:bit (frozen engine): median 3.0 s, max 12.0 s over "
                      "24 moves in 12 games, all three rules (budget: median <= 10 s) ok")
    assert out[3] == ("level2 move on micro:bit by rule: freestyle median 3.0 s, max 4.0 s; "
                      "standard median 4.0 s, max 8.0 s; renju median 6.0 s, max 12.0 s")
    assert out[4] == "level2 games on micro:bit: 11 of 12 play every move CPython plays " \
                     "(budget: all) OVER BUDGET"
    assert out[5].endswith("free heap before a move at least 3900 bytes, right after one at "
                           "least 300 (budget: > 0) ok")
    # the game with the least free heap is not CPython's even holding nothing
    assert out[6] == ("level2 game on micro:bit, rule 1 opening 3 (the least free heap before "
                      "a move), margin: it does not complete even holding nothing more "
                      "(budget: > 0) OVER BUDGET")
    assert holds == []
    assert out[7] == ("level1 move on micro:bit (frozen engine, heap locked): median 500 ms, "
                      "max 600 ms over 4 moves (budget: median <= 300, max <= 600) OVER BUDGET")
    assert out[8].endswith("(free before a level-2 move: 4100)")
    # every game CPython's; the median at its budget; the heap used up
    monkeypatch.setattr(mf, "host_game", lambda level, rule, seed: (games[rule, seed], 1))
    monkeypatch.setattr(bench_mcu_ai, "BUDGET_MS", 3000)
    monkeypatch.setattr(FrozenBoard, "COST", {"g=gomoku.Game(4)": 4000})
    after[:] = [0, 3000]
    games.clear()
    assert bench_mcu_ai.main() == 0
    out = lines(capsys)
    assert out[1].endswith("a Game 4000: 0 free for a move's call frames (budget: > 0) "
                           "OVER BUDGET")
    assert out[2].endswith("(budget: median <= 3 s) ok")
    assert out[4].endswith("12 of 12 play every move CPython plays (budget: all) ok")
    assert out[5].endswith("at least 0 (budget: > 0) OVER BUDGET")
    # bisected on that game, to the last hold it completes with
    assert out[6] == ("level2 game on micro:bit, rule 1 opening 3 (the least free heap before "
                      "a move), margin: it still completes holding 992 more bytes of heap "
                      "(one block) (budget: > 0) ok")
    assert {h[:2] for h in holds} == {(1, 3)} and max(h[2] for h in holds) > 992


# -- bench_build: the smallest heap, the build lines ---------------------------------

def test_smallest_heap_bisects_to_the_kilobyte_of_the_threshold(monkeypatch, tmp_path):
    bench_build = bench("bench_build")
    asked = []

    def measure(flash, heap_kb=1024, room_kb=None):
        asked.append((flash, heap_kb, room_kb))
        if room_kb is None or room_kb < 101:
            return None
        return {"base": 20 * 1024, "menu": 1, "move": 2, "peak": 3,
                "names": 5000}

    monkeypatch.setattr(bench_build, "measure", measure)
    need = bench_build.smallest_heap(tmp_path)
    # the room left beside the chip models, in the whole heap (made
    # smaller, the models would be what ran out), and the pool entries of
    # the firmware's names (their pool is made before the room is left)
    assert need == 101 * 1024 + 5000
    assert all(f == tmp_path and kb == 1024 and room is not None
               for f, kb, room in asked)
    monkeypatch.setattr(bench_build, "measure", lambda *a, **kw: None)
    with pytest.raises(SystemExit):
        bench_build.smallest_heap(tmp_path)


def test_build_lines_and_a_missing_main_fails_the_bench(monkeypatch, capsys):
    bench_build = bench("bench_build")
    mods = [{"module": m, "mpy_bytes": n} for m, n in (("a", 10), ("b", 300), ("c", 50),
                                                       ("d", 200))]
    monkeypatch.setattr(bench_build.build, "build", lambda board, out, opt=1: {
        "modules": mods, "total_mpy_bytes": 560 if opt == 1 else 520,
        "total_py_bytes": 2000, "main_py_bytes": None})
    assert bench_build.main() == 1
    out = lines(capsys)
    assert out[:3] == [
        "pico_lcd13 build: 4 modules, total .mpy 560 bytes (-O1; -O3 would be 520), from "
        "2000 bytes of source; main.py 0 bytes as source",
        "pico_lcd13 largest: b.mpy 300, d.mpy 200, c.mpy 50",
        "pico_lcd13 heap after boot: not measured (firmware/main.py missing)"]


# -- bench_app: a wireless match's heap ------------------------------------------

def test_app_match_heap_comes_from_a_match_played_and_left(capsys):
    """Run for real (3 s): the peer joins, the match is played to black's
    five (bench_app asserts 9 stones and the winner), and the line gives the
    peak with the peer's own bytes out."""
    bench("bench_app").match_heap()
    out = lines(capsys)
    m = re.fullmatch(r"app heap on the unix port, wireless match hosted, 5 stones "
                     r"each, won and left: peak ([\d.]+) KB total \(no budget: a "
                     r"board without a radio never loads it; the other "
                     r"handheld's ([\d.]+) KB taken out\)", out[-1])
    assert m, out
    peak, peer = float(m[1]), float(m[2])
    assert 0 < peer < 16 < peak, (peak, peer)


# -- bench_app: SPI bytes -------------------------------------------------------------

def spi_run(monkeypatch, bytes_at, ends="end"):
    """bench_app.spi_and_latency() on a rig that counted `bytes_at` SPI
    bytes at its snapshots and whose run ends with `ends`; its pixel watch
    is never called, so the stone is never seen. -> bench_app"""
    bench_app = bench("bench_app")

    class Rig:
        def __init__(self, board):
            self.bytes_at = bytes_at

        def count_spi(self):
            pass

        def run(self, events):
            return ends

    monkeypatch.setattr(bench_app, "Rig", Rig)
    monkeypatch.setattr(bench_app.sim_clock, "add_hook", lambda fn: None)
    bench_app.spi_and_latency()
    return bench_app


def test_app_spi_figures_are_the_largest_step_and_stone(monkeypatch, capsys):
    # SPI bytes counted at each snapshot: cursor steps of 100, 150 and
    # 300 bytes; stones of 1000 and 1200
    spi_run(monkeypatch, {"c0": 0, "c1": 100, "c2": 250, "p1": 1250, "c3": 1550,
                          "p2": 2750})
    out = lines(capsys)
    assert out[0] == "SPI bytes per cursor step: 300 (budget: <= 2048) ok"
    assert out[1].endswith("cursor): 1200 (budget: <= 2048) ok")
    # at the Pico's real clock: 40 MHz asked, 48 MHz / 2
    assert out[2] == "SPI time per placed stone at 24 MHz (pico_lcd13's clock): %.2f ms" % (
        1200 * 8 * 1000 / 24000000)
    # a step of exactly 2048 bytes is within budget, a stone of 2049 is not
    spi_run(monkeypatch, {"c0": 0, "c1": 2048, "c2": 2048, "p1": 4097, "c3": 4097,
                          "p2": 4197})
    out = lines(capsys)
    assert out[0] == "SPI bytes per cursor step: 2048 (budget: <= 2048) ok"
    assert out[1].endswith("cursor): 2049 (budget: <= 2048) OVER BUDGET")


# -- bench_sensors: bytes on the wire, the heap lines ---------------------------------

def test_wire_bytes_count_an_address_byte_per_start():
    bench_sensors = bench("bench_sensors")
    # a register write then a repeated-start 6-byte read; a write alone
    recs = [{"tx": "28", "rx": "000102030405"}, {"tx": "2007", "rx": ""}]
    assert bench_sensors.wire_bytes(recs[:1]) == 1 + 1 + 1 + 6
    assert bench_sensors.wire_bytes(recs) == 9 + 1 + 2


def sensors_main(monkeypatch, heap="l3g 0.0\nmpu 0.0\nbtn 0.0\n", times=None):
    """bench_sensors.main() with the unix port's heap figures given as its
    output, and the read and init times (us, three each) if given."""
    bench_sensors = bench("bench_sensors")
    monkeypatch.setattr(bench_sensors.upy, "run", lambda code, **kw: heap)
    if times is not None:
        times = iter(times)
        monkeypatch.setattr(bench_sensors, "measure",
                            lambda label, setup, call: (label, 9, next(times)))
    try:
        bench_sensors.main()
    finally:
        bench_sensors.machine.set_trace(None)
        bench_sensors.machine.forget_all()


def test_sensors_heap_lines_name_their_own_figures(monkeypatch, capsys):
    sensors_main(monkeypatch, "l3g 1.5\nmpu 0.0\nbtn 3.5\n")
    out = lines(capsys)[-3:]
    assert out == [
        "heap per L3G4200D read_rates on the unix port: 1.5 bytes (budget: 0) OVER BUDGET",
        "heap per MPU6050 read_all on the unix port: 0.0 bytes (budget: 0) ok",
        "heap per Buttons.poll (5 buttons) on the unix port: 3.5 bytes (budget: 0) OVER BUDGET"]


def test_sensors_read_time_verdict_is_ok_up_to_500_us(monkeypatch, capsys):
    """The verdict ends the line, where `make bench` looks for it."""
    sensors_main(monkeypatch, times=[500, 501, 200, 1000, 1000, 1000])  # reads, inits
    out = lines(capsys)
    assert [ln.rsplit(" us (budget: <= 500 us) ", 1)[1] for ln in out[:3]] \
        == ["ok", "OVER BUDGET", "ok"]


# -- tools/quickmatch.py's tally ----------------------------------------------------

def test_quickmatch_prints_each_seed_and_the_sum_by_colour(monkeypatch, capsys):
    import quickmatch
    tallies = {1: (3, 4, 1, 2), 2: (2, 4, 0, 1)}    # won as black, pairs, as white, draws
    monkeypatch.setattr(quickmatch, "run_match", lambda a, b, games, s, rule, show: tallies[s])
    quickmatch.main(["1", "2", "--seeds", "1-2", "--games", "8"])
    out = lines(capsys)
    assert out[:2] == ["seed 1: won 3 of 4 as black, 1 of 4 as white, 2 drawn",
                       "seed 2: won 2 of 4 as black, 0 of 4 as white, 1 drawn"]
    # 6 wins and 3 draws of 16 games: 7.5 points
    assert out[2].startswith("level1 vs level2: 46.9% (won 5 of 8 as black, 1 of 8 as white, "
                             "3 drawn; ")
