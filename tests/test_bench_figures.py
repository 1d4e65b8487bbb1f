"""The figures `make bench` prints, from synthetic results: each bench's
median, maximum, percentage, colour split and budget verdict is the one its
inputs give, and a failing bench fails `make bench`. The boards, the arena
and the radio are replaced by fakes here (the real runs take 40 minutes);
the unix-port scripts, which are quick, run for real."""
import importlib
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
    (tmp_path / "bench" / "bench_b.py").write_text("print('fixed')\n")
    assert make_bench.main() == 0
    assert not any(ln.startswith(("!!", "failed")) for ln in lines(capsys))


# -- bench_ai: arena lines and the unix-port heap ---------------------------------

def _game(black, winner, reason, times=((), ())):
    rec = arena.GameRecord(black, 1 - black, [(7, 7)])
    rec.winner, rec.reason, rec.times = winner, reason, (list(times[0]), list(times[1]))
    return rec


def test_arena_line_splits_wins_by_colour_and_counts_draws_half(monkeypatch, capsys):
    bench_ai = bench("bench_ai")
    games = [                                   # A: black in 5 games, white in 3
        _game(0, 0, "black five", ([0.1, 0.3], [2.0])),
        _game(1, 0, "white five", ([0.2], [1.0, 3.0])),
        _game(0, 1, "white five", ([0.4], [4.0])),
        _game(0, None, "draw"),
        _game(0, 1, "black timeout", ([], [])),
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
        " 3 of 3 as white; budget >= 90%) [levelX: median 200.0 ms, max 400.0 ms a move"
        " on CPython; "), out[0]
    assert out[1] == "  faults: black timeout; black illegal move 1,1: (1, 1) is occupied"


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

    def run(code, heapsize):
        tried.append(heapsize)
        if heapsize in ("48k", "64k"):
            raise AssertionError("MemoryError")
        return "30000 0 112\n"

    monkeypatch.setattr(upy, "run", run)
    bench_ai.unix_heap(3)
    assert tried == ["48k", "64k", "96k"]
    out = lines(capsys)[-1]
    assert out.startswith("level3 heap on the unix port: 30000 bytes ")
    assert out.endswith("fits -X heapsize=96k")


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
    ok = {0.0: [20 - k for k in range(20)], 0.3: [5] * 10 + [100] * 9 + [1000]}
    assert _radio(monkeypatch, ok) == 0
    out = lines(capsys)
    assert out[0] == ("radio move latency at 0% loss: median 11 ms, p95 20 ms over 20 moves"
                      " (budget: median <= 50, p95 <= 250)")
    assert out[1].startswith("radio packets on air per move at 0% loss: 2.0 (+ 1.0 ESB ACKs;")
    assert out[2] == ("radio move latency at 30% loss: median 100 ms, p95 1000 ms over 20 moves"
                      " (budget: median <= 100, p95 <= 1000)")


@pytest.mark.parametrize("loss, lat", [
    (0.0, [1] * 19 + [251]),                    # p95 over, median fine
    (0.0, [51] * 11 + [1] * 9),                 # median over, p95 fine
    (0.3, [1] * 19 + [1001]),
    (0.3, [101] * 11 + [1] * 9),
])
def test_radio_over_budget_fails(monkeypatch, capsys, loss, lat):
    latency = {0.0: [1] * 20, 0.3: [1] * 20}
    latency[loss] = lat
    assert _radio(monkeypatch, latency) == 1


@pytest.mark.parametrize("finished, divergences", [(False, ()), (True, [(4, "board")])])
def test_radio_unclean_match_fails(monkeypatch, capsys, finished, divergences):
    assert _radio(monkeypatch, {0.0: [1] * 3, 0.3: [1] * 3}, finished, divergences) == 1
    assert "did not finish cleanly" in lines(capsys)[0]
