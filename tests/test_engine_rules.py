"""Rules, renju and level-1 behaviour (tests/engine_cases.py) on CPython."""
import pytest

import engine_cases


@pytest.mark.parametrize("name", engine_cases.CASES)
def test_case(name):
    getattr(engine_cases, name)()


def readme_contract():
    """The README's example of the engine contract, as written there."""
    from pathlib import Path
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    return readme.split("use\nonly this", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]


def test_the_readmes_engine_example_runs_on_cpython_and_the_unix_port():
    """Each line does what its comment says, on both runtimes: the centre
    played, white to move, the renju point read, the move taken back, and
    level 2 opening on the centre of an empty board."""
    import upy
    code = readme_contract()
    check = ("\nassert (g.turn, g.winner, g.stone(7, 7), g.moves, i) == (1, 0, 0, 0, 112)"
             "\nprint('ok')\n")
    assert "g.play(7, 7)" in code and "ai.best_move(g, 2)" in code
    ns = {}
    exec(compile(code + check, "README.md", "exec"), ns)
    assert upy.run(code + check, heapsize="256k").split() == ["ok"]
