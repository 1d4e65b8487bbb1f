"""`make bench`: run every bench/bench_*.py in order and print its figures.

Each bench script prints its own lines, `name: value unit`; a line with a
budget names it and ends in its verdict (bench/budget.py: ok, OVER BUDGET
or MISSED).
A script that fails, or prints a cost OVER BUDGET, is reported and the rest
still run; the exit code is then non-zero. A win rate MISSED is a figure
against its target (docs/AI.md), not a failed run.
"""
import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(script):
    """Run one bench, its lines passed through: -> why it failed, or None."""
    over = 0
    env = dict(os.environ, PYTHONUNBUFFERED="1")    # each line as it comes
    with subprocess.Popen([sys.executable, str(script)], cwd=str(ROOT), env=env,
                          stdout=subprocess.PIPE, text=True, bufsize=1) as proc:
        for line in proc.stdout:
            print(line, end="", flush=True)
            over += line.rstrip().endswith("OVER BUDGET")
    if proc.returncode:
        return "failed (exit %d)" % proc.returncode
    if over:
        return "%d line%s OVER BUDGET" % (over, "" if over == 1 else "s")
    return None


def main(argv=()):
    argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="One area alone: .venv/bin/python bench/bench_<area>.py "
               "(about an hour in all; most of it is bench_ai)").parse_args(argv)
    failed = []
    for script in sorted((ROOT / "bench").glob("bench_*.py")):
        print("== %s" % script.stem, flush=True)
        why = run(script)
        if why:
            failed.append(script.stem)
            print("!! %s %s" % (script.stem, why), flush=True)
    if failed:
        print("failed: " + ", ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
