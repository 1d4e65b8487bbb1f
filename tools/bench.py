"""`make bench`: run every bench/bench_*.py in order and print its figures.

Each bench script prints its own lines, `name: value unit`; a line with a
budget names it and ends in its verdict (bench/budget.py: ok, OVER BUDGET
or MISSED).
A failing script is reported and the rest still run; the exit code is
non-zero if any failed.
"""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main():
    failed = []
    for script in sorted((ROOT / "bench").glob("bench_*.py")):
        print("== %s" % script.stem, flush=True)
        rc = subprocess.call([sys.executable, str(script)], cwd=str(ROOT))
        if rc:
            failed.append(script.stem)
            print("!! %s failed (exit %d)" % (script.stem, rc), flush=True)
    if failed:
        print("failed: " + ", ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
