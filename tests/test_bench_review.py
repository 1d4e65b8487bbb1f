"""Mutation review of bench/bench_*.py: each figure `make bench` prints is the
one its inputs give, under the name it carries, against the budget its line
states. The slow parts (arena, boards, the unix-port heap runs) are replaced
by fakes whose figures follow from arithmetic on their inputs; the quick
simulator measurements run for real and are checked against datasheet facts."""
import re
from pathlib import Path

import pytest

from test_bench_figures import bench

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

