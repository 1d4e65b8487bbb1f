"""Gomocup's referee on renju's forbidden moves, as a second opinion.

PyPI's `renju` ports the Piskvork judge's check (the manager Gomocup runs
renju games under). make installs it apart, in .venv/judges
(requirements-judges.txt): its package is named renju, as the engine's
renju.py is, so it is loaded here from its file, never imported by name.
"""
import importlib.util
import sys
from pathlib import Path

CHECK = Path(sys.prefix) / "judges" / "renju" / "check_forbid.py"


def _load():
    if not CHECK.exists():
        raise RuntimeError("%s missing: run `make venv` (it installs "
                           "requirements-judges.txt there)" % CHECK)
    spec = importlib.util.spec_from_file_location("gomocup_check_forbid", CHECK)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


_judge = _load()


def forbidden(rows, x, y):
    """The judge on black at (x, y) of a plain board (brute.rows: rows[y][x]
    0 empty, 1 black, 2 white): 0 allowed, 1 double three, 2 double four,
    3 overline."""
    # the judge's board is indexed [first][second], its point (first, second)
    return _judge.get_foul_type(rows, y, x)
