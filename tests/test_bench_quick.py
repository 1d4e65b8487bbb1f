"""The quick benchmarks run to their end in `make test`, so a change that
breaks one shows here and not first in `make bench` (a grown test helper
once ran bench_sensors' unix-port check out of heap). Their figures are
judged against the budgets by `make bench`, not here."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", ["bench_sensors", "bench_display", "bench_radio",
                                  "bench_app"])
def test_quick_bench_runs_to_the_end(name):
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / (name + ".py"))],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert len(proc.stdout.splitlines()) >= 3, proc.stdout
