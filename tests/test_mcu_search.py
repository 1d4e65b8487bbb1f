"""The search's building blocks on the emulated micro:bit (MicroPython 1.9.2).

Level 2 itself does not fit the stock firmware's heap (it runs on the
frozen-engine firmware: test_mcu_frozen), but its moves are g.play/g.undo
and the VCF's five count, run here with the heap locked.
MicroPython 1.9.2 as built for the micro:bit turns `a, b = b, a` and a tuple
display inside a function into heap tuples, where the unix port (1.29)
allocates nothing: only the board shows such an allocation.
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import mcu  # noqa: E402

import candscan  # noqa: E402
import gomoku  # noqa: E402
import vcf  # noqa: E402

# Black to move can make a four at (6,7) (see test_search_tactics' VCF).
BLACK = [(3, 7), (4, 7), (5, 7), (3, 8), (4, 8), (5, 8), (6, 9), (6, 10)]
WHITE = [(2, 7), (2, 8), (6, 11), (0, 0), (3, 6), (0, 14), (14, 14), (7, 10)]
FOUR = (6, 7)

PROBE = """import micropython as u
def run():
 import gamestate,candscan,vcf
 g=gamestate.Game(0)
 for m in %r:g.play(m%%15,m//15)
 u.heap_lock()
 try:
  g.play(%d,%d)
  n=vcf._fives(g,%d,1)
  g.undo()
 finally:
  u.heap_unlock()
 print(n,candscan._g[8],g.moves)
"""


def test_a_search_step_allocates_nothing_on_the_microbit():
    seq = []
    for (bx, by), (wx, wy) in zip(BLACK, WHITE):
        seq += [by * 15 + bx, wy * 15 + wx]
    x, y = FOUR
    g = gomoku.Game(0)
    for m in seq:
        g.play(m % 15, m // 15)
    g.play(x, y)
    want = "%d %d %d" % (vcf._fives(g, y * 15 + x, 1), candscan._g[candscan._POINT], len(seq))
    g.undo()
    assert want.split()[:2] != ["0", "-1"]          # the four has a five point
    names = ["shapes", "candscan", "pattern", "vcf", "gamestate"]
    with mcu.MicroBit() as mb:
        for old in mb.listdir():
            mb.remove(old)
        for n in names:
            text = (ROOT / "firmware" / "engine" / (n + ".py")).read_text()
            mb.put(n + ".py", mcu.device_source(text, n))
        mb.put("probe.py", PROBE % (tuple(seq), x, y, y * 15 + x))
        mb.soft_reset()
        mb.call("import probe")             # compiled first, on an empty heap
        for n in names:
            mb.call("import " + n)
        assert mb.call("probe.run()").split() == want.split()
