"""Run code on the MicroPython unix port, with the firmware's flat /lib path.

On a device every firmware module sits in one flat namespace; here the
firmware folders (and, for hardware code, host_sim's shims) are put on
MICROPYPATH in the same order, so `import gomoku` works as on a board.
"""
import atexit
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE_PATH = [
    ROOT / "firmware" / "engine",
    ROOT / "firmware" / "drivers",
    ROOT / "firmware" / "app",
    ROOT / "firmware",
    ROOT / "boards",
]
SHIMS = ROOT / "host_sim" / "shims"


def micropython_binary():
    venv = Path(sys.executable).parent / "micropython"
    if venv.exists():
        return str(venv)
    found = shutil.which("micropython")
    if not found:
        raise RuntimeError("micropython (unix port) not found: run `make setup`")
    return found


_COMPILED = []      # the folder compile_firmware filled once in this process


def compile_firmware(out):
    """Every firmware module and main.py as .mpy in one flat folder (a
    board's /lib), listed and compiled as `make build` does: its optimisation
    level, and the bare file name as each module's source name, a qstr on
    the heap. Compiled once a process (2 s) and copied: the sources do not
    change while the tests run."""
    if not _COMPILED:
        if str(ROOT / "tools") not in sys.path:
            sys.path.append(str(ROOT / "tools"))
        import build
        lib = Path(tempfile.mkdtemp(prefix="gomoku-lib-"))
        atexit.register(shutil.rmtree, lib, True)
        for name, _, src in build.firmware_modules() + [("main", "", build.MAIN)]:
            build.compile_module(src, lib / (name + ".mpy"), name + ".py",
                                 build.OPT, None)
        _COMPILED.append(lib)
    out.mkdir(parents=True, exist_ok=True)
    for mpy in _COMPILED[0].iterdir():
        shutil.copyfile(mpy, out / mpy.name)
    return out


def run(code, heapsize="64k", shims=False, extra_path=(), timeout=300, args=()):
    """Run `code` (a string) on the unix port; return its stdout.

    Raises AssertionError with stdout and stderr if it exits non-zero.
    `shims=True` puts host_sim's machine/micropython/time shims first, as the
    simulator does, so drivers and the app run against the chip models.
    """
    path = ([SHIMS] if shims else []) + [Path(p) for p in extra_path] + FIRMWARE_PATH
    env = dict(os.environ, MICROPYPATH=":".join(str(p) for p in path))
    proc = subprocess.run(
        [micropython_binary(), "-X", "heapsize=" + heapsize, "-c", code, *args],
        capture_output=True, text=True, timeout=timeout, env=env, cwd=str(ROOT),
    )
    if proc.returncode != 0:
        raise AssertionError(
            "micropython exited %d\n--- stdout\n%s\n--- stderr\n%s"
            % (proc.returncode, proc.stdout[-4000:], proc.stderr[-4000:]))
    return proc.stdout


# a name's entry in a qstr pool on the unix port (py/qstr.h): its text's
# pointer (8 bytes), hash (2) and length (1); a pool of 1280 takes 14144
QSTR_ENTRY = 11


def names_lines(out):
    """What each "qstr pool:" line micropython.qstr_info() printed in `out`
    says, in order: [(pools, names, bytes of their text), ...]."""
    return [tuple(int(n) for n in re.findall(r"=(\d+)", ln)[:3])
            for ln in out.splitlines() if ln.startswith("qstr pool:")]


def names_entries(before, after):
    """The bytes of pool entries of the names interned between two of those
    lines, in a pool app_script.fresh_names_pool() allocated before them."""
    assert after[0] == before[0], "a pool for names was allocated in the run: " \
        "app_script.fresh_names_pool() left too little room"
    return (after[1] - before[1]) * QSTR_ENTRY
