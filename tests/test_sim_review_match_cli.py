"""python -m host_sim.match refuses settings it cannot play, with a usage
line instead of a traceback from deep in the firmware."""
import pytest

import host_sim

host_sim.install()
from host_sim import match  # noqa: E402


@pytest.mark.parametrize("args,why", [
    (["--rule", "2"], "--rule"), (["--rule", "3"], "--rule"),
    (["--games", "0"], "--games"), (["--loss", "1.5"], "--loss"),
    (["--dup", "-0.1"], "--dup"), (["--reset-every", "-1"], "--reset-every"),
])
def test_match_cli_refuses_what_it_cannot_play(args, why, capsys):
    with pytest.raises(SystemExit) as e:
        match.main(args)
    assert e.value.code == 2
    assert why in capsys.readouterr().err
