"""Rules, renju and level-1 behaviour (tests/engine_cases.py) on CPython."""
import pytest

import engine_cases


@pytest.mark.parametrize("name", engine_cases.CASES)
def test_case(name):
    getattr(engine_cases, name)()
