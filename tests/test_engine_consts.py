"""The search modules' shared slots: one layout, named alike everywhere.

candscan owns `_g` (the searches' counters and results) and gen()'s status
codes. On MicroPython a private const() is folded where it is read and is
not a module attribute, so each module declares the slots it uses itself:
these checks keep those declarations in step with candscan's.
"""
import ast
import re
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[1] / "firmware" / "engine"
OWNER = "candscan"


def consts(path):
    """{name: value} of the module's top-level `_NAME = const(<int>)`, and
    of `_NAME = <int>` (a slot declared without const() is still one)."""
    out = {}
    for st in ast.parse(path.read_text()).body:
        if not (isinstance(st, ast.Assign) and len(st.targets) == 1
                and isinstance(st.targets[0], ast.Name)):
            continue
        v = st.value
        if isinstance(v, ast.Call) and getattr(v.func, "id", None) == "const":
            v = v.args[0]
        if isinstance(v, ast.Constant) and type(v.value) is int:
            out[st.targets[0].id] = v.value
    return out


def modules():
    return sorted(ENGINE.glob("*.py"))


def sharers():
    """The modules besides candscan that declare any of its names."""
    own = set(consts(ENGINE / (OWNER + ".py")))
    return [p for p in modules()
            if p.stem != OWNER and own & set(consts(p))]


def slot_names():
    """Names that index _g (`_g[NAME]`, or `G[NAME]` after `G = _g`)."""
    found = set()
    for path in modules():
        found |= set(re.findall(r"\b(?:_g|G)\[(_[A-Z][A-Z0-9_]*)\]", path.read_text()))
    return found


def test_candscan_names_each_slot_and_status_once():
    own = consts(ENGINE / (OWNER + ".py"))
    names = slot_names()
    assert len(names) >= 17 and names <= set(own)
    slots = [own[k] for k in names]
    assert len(slots) == len(set(slots))
    assert sorted(v for k, v in own.items() if k.startswith("_S_")) == [0, 1, 2, 3, 4]
    # _g holds every slot
    src = (ENGINE / (OWNER + ".py")).read_text()
    size = int(re.search(r"^_g = \[0\] \* (\d+)$", src, re.M).group(1))
    assert max(slots) < size


def test_the_searches_share_candscans_names():
    assert {p.stem for p in sharers()} >= {"deepsearch", "movepick", "search",
                                          "vcf", "vct"}


@pytest.mark.parametrize("path", sharers(), ids=lambda p: p.stem)
def test_shared_names_have_candscan_values(path):
    own = consts(ENGINE / (OWNER + ".py"))
    shared = {k: v for k, v in consts(path).items() if k in own}
    assert shared == {k: own[k] for k in shared}


@pytest.mark.parametrize("path", modules(), ids=lambda p: p.stem)
def test_every_slot_a_module_reads_it_declares(path):
    used = set(re.findall(r"\b(?:_g|G)\[(_[A-Z][A-Z0-9_]*)\]", path.read_text()))
    assert used <= set(consts(path))


@pytest.mark.parametrize("path", modules(), ids=lambda p: p.stem)
def test_slots_are_read_by_name(path):
    # `_g[6]` or `G[6]` would say nothing, and drift unseen from candscan
    code = "\n".join(line.split("#")[0] for line in path.read_text().splitlines())
    assert not re.findall(r"\b(?:_g|G)\[\d+\]", code)



def test_level1_and_the_searches_weigh_shapes_alike():
    """ai (level 1, which must not import candscan) keeps its own copy of
    the shape weights: the two must not drift apart."""
    import ai
    import candscan
    assert list(ai._W) == list(candscan._W)


def test_the_score_thresholds_are_the_sums_of_the_weights_they_name():
    """candscan's thresholds (level 1's literal copies: the next test)
    are sums of _W over a point's lines: retuning a weight must move them."""
    import candscan as c
    w = c._W
    assert c._WIN == w[10]
    assert c._W_FOUR == w[7]
    assert c._W_DOUBLE == 2 * min(w[5], w[6])            # two threes
    assert c._W_FOUR_THREE == w[7] + min(w[5], w[6])     # a four and a three
    assert c._W_STRAIGHT == w[9] == w[8]                 # straight four, two fours on a line


def test_level1_tiers_turn_at_candscans_thresholds():
    """ai._key writes candscan's _WIN, _W_FOUR_THREE and _W_DOUBLE as
    literals (a const import costs the micro:bit's heap too much): its
    tiers must still turn exactly there."""
    import ai
    import candscan as c

    def tier(a, d):
        return ai._key(a, d) >> 20

    assert (tier(c._WIN, 0), tier(c._WIN - 1, 0)) == (6, 4)
    assert (tier(0, c._WIN), tier(0, c._WIN - 1)) == (5, 3)
    assert (tier(c._W_FOUR_THREE, 0), tier(c._W_FOUR_THREE - 1, 0)) == (4, 2)
    assert (tier(0, c._W_FOUR_THREE), tier(0, c._W_FOUR_THREE - 1)) == (3, 1)
    assert (tier(c._W_DOUBLE, 0), tier(c._W_DOUBLE - 1, 0)) == (2, 0)
