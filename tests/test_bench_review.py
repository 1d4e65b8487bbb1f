"""Mutation review of bench/bench_*.py: each figure `make bench` prints is the
one its inputs give, under the name it carries, against the budget its line
states. The slow parts (arena, boards, the unix-port heap runs) are replaced
by fakes whose figures follow from arithmetic on their inputs; the quick
simulator measurements run for real and are checked against datasheet facts."""
import re
from pathlib import Path

import pytest

from test_bench_figures import bench, lines

ROOT = Path(__file__).resolve().parents[1]


# -- bench_ai: which level plays which, against which target -----------------------

def test_ai_main_scores_each_level_under_its_own_name_against_its_target(monkeypatch):
    bench_ai = bench("bench_ai")
    calls = []
    monkeypatch.setattr(bench_ai, "match", lambda a, b, games, la, lb, budget, timeout=60:
                        calls.append((a, b, la, lb, budget)))
    monkeypatch.setattr(bench_ai, "unix_heap", lambda level: None)
    bench_ai.main()

    def level(cmd):
        m = re.search(r"pbrain\.py --level (\d) --seed \{seed\}$", cmd)
        return m and int(m.group(1))

    for a, b, la, lb, budget in calls:
        assert la == "level%d" % level(a), (a, la)      # the scored side is the named one
        if "pbrain" in b:
            assert lb == "level%d" % level(b) and level(b) == level(a) - 1
            assert budget == 70                          # each level beats the one below
        elif "seed_brain" in b:
            assert budget == 99                          # the seed scorer's target
        else:
            assert budget == 90
    # the handheld's top level (README: level 2) plays the three references
    tops = [la for a, b, la, lb, budget in calls if "pbrain" not in b]
    assert tops[:3] == ["level2"] * 3 and tops[3:] == ["level3"] * 3
    assert [la for a, b, la, lb, budget in calls if "pbrain" in b] == ["level2", "level3"]


# -- bench_app: the heap verdict, the press-to-stone figure --------------------------

def _app_heap(monkeypatch, level, **res):
    """bench_app.heap(level) with the unix-port run faked: it reports `res`."""
    import json
    bench_app = bench("bench_app")
    monkeypatch.setattr(bench_app, "plan_lost_game",
                        lambda rule, lv, human: ([112, 113, 114, 115], None))
    monkeypatch.setattr(bench_app, "compile_firmware", lambda path: path)
    out = dict({"r": "end", "code": 30 * 1024,
                "used": list(bench_app.LEVEL_MODULES[level])}, **res)
    monkeypatch.setattr(bench_app.upy, "run", lambda code, **kw: "boot\n" + json.dumps(out))
    bench_app.heap(level)


@pytest.mark.parametrize("peak, word", [(64 * 1024, "ok"), (64 * 1024 + 1, "OVER BUDGET")])
def test_app_heap_is_within_budget_up_to_64_kb(monkeypatch, capsys, peak, word):
    _app_heap(monkeypatch, 2, peak=peak)
    out = lines(capsys)
    assert out[0] == ("app heap on the unix port, full game vs AI level 2 (4 moves) + rematch: "
                      "peak 64.0 KB total (budget: <= 64 KB) %s" % word)
    assert out[1] == "app heap at AI level 2: loaded code 30.0 KB, working set beyond it %.1f KB" \
        % ((peak - 30 * 1024) / 1024)


@pytest.mark.parametrize("res", [{"r": "timeout"}, {"used": ["candscan", "vcf"]}])
def test_app_heap_refuses_a_game_that_did_not_end_or_ran_another_level(monkeypatch, res):
    with pytest.raises(AssertionError):
        _app_heap(monkeypatch, 1, peak=1000, **res)


def test_app_press_to_stone_is_the_time_from_the_press(capsys):
    bench_app = bench("bench_app")
    try:
        bench_app.spi_and_latency()
    finally:
        bench_app.sim_clock.reset()             # its pixel watch off the shared clock
    out = lines(capsys)
    got = [ln for ln in out if ln.startswith("press to stone on screen")]
    assert len(got) == 1, out                   # the figure is there, not dropped
    ms = float(got[0].rsplit(": ", 1)[1].split()[0])
    # the press is held 80 ms and the next snapshot is 400 ms after the
    # release, with the white stone already drawn
    assert 0 < ms < 480, got


def test_app_spi_figures_refuse_a_run_that_did_not_reach_its_end(monkeypatch):
    bench_app = bench("bench_app")

    class Rig:
        def __init__(self, board):
            pass

        def count_spi(self):
            pass

        def run(self, events):
            return "timeout"

    monkeypatch.setattr(bench_app, "Rig", Rig)
    monkeypatch.setattr(bench_app.sim_clock, "add_hook", lambda fn: None)
    with pytest.raises(AssertionError):
        bench_app.spi_and_latency()

