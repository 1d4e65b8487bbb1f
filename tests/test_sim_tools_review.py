"""Review of the simulator and the tools: bad input gets a clear answer."""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import deploy  # noqa: E402


def test_deploy_names_an_unknown_board_before_looking_for_its_build(tmp_path,
                                                                    capsys):
    """A misspelt board is not sent to `make build BOARD=<typo>` (which
    would only refuse it in turn): it is named as unknown, with the boards
    there are."""
    assert deploy.main(["--board", "pico", "--build", str(tmp_path),
                        "--dry-run"]) == 1
    err = capsys.readouterr().err
    assert "unknown board 'pico'" in err and "pico_lcd13" in err, err
    assert "make build" not in err, err
