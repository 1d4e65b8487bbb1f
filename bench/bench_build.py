"""Board builds: .mpy size per board, and the heap after boot from the build.

For each board, tools/build.py compiles the firmware (-O1, the default; -O3
for comparison), then the MicroPython unix port boots main.py from that
build's files on host_sim's chip models and measures the heap the firmware
holds (gc.collect(); gc.mem_alloc()) once the menu is up, and after the
first move against the AI, with the chip models' own memory subtracted (it
is allocated before the firmware starts) and the pool entries of the names
the firmware interned added (they go into a pool allocated before it
starts). The same boot from the .py sources shows what compiling on the
device would cost instead. The smallest heap each boots and plays a move
in is the room left free once the models are built, in one block as on a
board (tests/heap_fill.py), plus the names' pool entries: a heap merely
made smaller ran out while the models compiled, before the firmware
started.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "tests")]

import build  # noqa: E402
import built_device  # noqa: E402
import upy  # noqa: E402

BOARDS = ("pico_lcd13", "esp32_ili9341")

# A boot, the menu, "Start" (vs AI), one move, the AI's answer. The heap is
# sampled by timers on the simulated clock at those moments.
# Each figure is followed by the names' line of micropython.qstr_info(), as
# is the base: the names the firmware interned by then are charged their
# pool entries (app_script.fresh_names_pool() made room for them first).
MEASURE = """\
import gc
import sys
import micropython
import board
import app_script
import heap_fill
import sim_clock
rig = app_script.Rig(board)
app_script.fresh_names_pool()
gc.collect()
ballast = heap_fill.leave_free(%r)
base = gc.mem_alloc()
micropython.qstr_info()
peak = [0]
def sample(label):
    def fn():
        gc.collect()
        print("HEAP", repr((label, gc.mem_alloc() - base)))
        micropython.qstr_info()
    return fn
last = [0]
def watch(now):
    if now - last[0] >= 10000:      # every 10 ms of simulated time
        last[0] = now
        gc.collect()
        a = gc.mem_alloc() - base
        if a > peak[0]:
            peak[0] = a
sim_clock.add_hook(watch)
print("BASE", repr(base))
sim_clock.call_at(900000, sample("menu"))
sim_clock.call_at(3200000, sample("move"))
events = [(600, "tap", "place", 80), (1400, "tap", "place", 80),
          (3300, "end")]
rig.run(events)
print("HEAP", repr(("peak", peak[0])))
micropython.qstr_info()
print("SOURCES", repr(sorted(set(getattr(m, "__file__", "?")[-4:]
      for k, m in sys.modules.items() if k in %r))))
"""


def measure(flash, heap_kb=1024, room_kb=None):
    """Boot on the unix port from flash (its lib: .mpy or .py) with a heap of
    heap_kb; -> {label: bytes}, or None if the firmware ran out of memory.
    Room is made for the firmware's names first, and their pool entries
    counted in the figures ("names": all of them, at the end). room_kb: the
    chip models built, all but that much of the heap is filled before the
    firmware starts."""
    modules = [n for n, _, _ in build.firmware_modules()]
    code = MEASURE % (None if room_kb is None else room_kb * 1024, modules)
    env = dict(os.environ, MICROPYPATH=built_device.MICROPYPATH)
    proc = subprocess.run(
        [upy.micropython_binary(), "-X", "heapsize=%dk" % heap_kb, "-c", code],
        capture_output=True, text=True, timeout=300, env=env, cwd=str(flash))
    out = proc.stdout
    samples = built_device.lines_with(out, "HEAP")
    heap = dict(samples)
    # the firmware catches a MemoryError at boot and names the chip it was
    # building, with MicroPython's text: "memory allocation failed"
    said = out + proc.stderr
    if (proc.returncode or "MemoryError" in said or "memory allocation failed" in said
            or len(heap) < 3):
        return None
    start, *at = upy.names_lines(out)
    assert len(at) == len(samples), out
    for (label, _), line in zip(samples, at):
        heap[label] += upy.names_entries(start, line)
    heap["names"] = upy.names_entries(start, at[-1])
    heap["base"] = built_device.lines_with(out, "BASE")[0]
    heap["kinds"] = built_device.lines_with(out, "SOURCES")[0]
    return heap


def smallest_heap(flash):
    """The smallest heap (1 KB steps) that boots and plays the first move:
    what is left free once the chip models are built, plus the pool entries
    of the names the firmware interns. Built in the smallest heap they fit,
    the models would be what runs out (compiling their sources takes far
    more than they keep). The firmware's names go into a pool made for them
    beforehand, as for the other figures: where the rig's own names leave
    the pools, the firmware's would fit the last one or spill into a new
    one twice its size (14 KB on this port), whichever a change to the rig
    happened to make. -> bytes."""
    lo, hi = 0, 256
    top = measure(flash, room_kb=hi)
    if top is None:
        raise SystemExit("the firmware in %s does not boot in %d KB of heap"
                         % (flash, hi))
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if measure(flash, room_kb=mid) is None:
            lo = mid
        else:
            hi = mid
    return hi * 1024 + top["names"]


def main():
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for board in BOARDS:
            report = build.build(board, tmp / "o1")
            o3 = build.build(board, tmp / "o3", opt=3)
            n = len(report["modules"])
            print("%s build: %d modules, total .mpy %d bytes (-O1; -O3 would "
                  "be %d), from %d bytes of source; main.py %d bytes as source"
                  % (board, n, report["total_mpy_bytes"], o3["total_mpy_bytes"],
                     report["total_py_bytes"], report["main_py_bytes"] or 0))
            largest = sorted(report["modules"], key=lambda r: -r["mpy_bytes"])[:3]
            print("%s largest: %s" % (board, ", ".join(
                "%s.mpy %d" % (r["module"], r["mpy_bytes"]) for r in largest)))
            if report["main_py_bytes"] is None:
                print("%s heap after boot: not measured (firmware/main.py "
                      "missing)" % board)
                failed = True
                continue
            flash = tmp / ("flash-" + board)
            built_device.flash_from_build(tmp / "o1" / board, flash)
            mpy = measure(flash)
            assert mpy["kinds"] == [".mpy"], mpy["kinds"]
            # the same flash with the .py sources in lib
            src_flash = tmp / ("src-" + board)
            (src_flash / "lib").mkdir(parents=True)
            shutil.copyfile(ROOT / "boards" / ("board_%s.py" % board),
                            src_flash / "lib" / "board.py")
            shutil.copyfile(ROOT / "firmware" / "main.py", src_flash / "main.py")
            for name, _, src in build.device_modules():
                shutil.copyfile(src, src_flash / "lib" / (name + ".py"))
            print("%s heap after boot from .mpy (menu shown): %d bytes; after "
                  "the first move: %d bytes; peak (sampled every 10 ms): %d "
                  "bytes (firmware only, 64-bit unix port: a 32-bit board needs less)"
                  % (board, mpy["menu"], mpy["move"], mpy["peak"]))
            need_mpy = smallest_heap(flash)
            need_src = smallest_heap(src_flash)
            print("%s smallest heap that boots and plays a move: %d KB from "
                  ".mpy, %d KB from .py sources (compiled on the device)"
                  % (board, need_mpy // 1024, need_src // 1024))
            print("json " + json.dumps({"board": board,
                                        "mpy_total": report["total_mpy_bytes"],
                                        "heap_menu": mpy["menu"],
                                        "heap_move": mpy["move"],
                                        "heap_peak": mpy["peak"],
                                        "min_heap_mpy": need_mpy,
                                        "min_heap_py": need_src}))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
