"""Copy a build to a board over USB serial with mpremote, then reset it.

    python tools/deploy.py --board pico_lcd13 --port /dev/ttyACM0
    python tools/deploy.py --board esp32_ili9341 --port /dev/ttyUSB0 --dry-run

Run `python tools/build.py --board NAME` first (`make deploy` does). One
mpremote session:
  1. exec: check that the board can run the build, else stop before
     anything is copied: its MicroPython must be the build's port
     (sys.platform rp2 or esp32: a Pico build on an ESP32 boots with the
     Pico's pin numbers, which there are other pins, GPIO6-11 its flash's,
     and the game does not start) and load the build's .mpy version (an older
     MicroPython fails every import with "incompatible .mpy file"; native
     code also needs the same architecture and sub-version);
     then create /lib, delete our modules' stale copies that would shadow
     the new .mpy files (/lib/<mod>.py, and /<mod>.py or /<mod>.mpy in the
     root, which comes first on sys.path), and delete /lib/<mod>.mpy of our
     modules this build no longer has (those the last deploy listed in
     /lib/gomoku_modules.txt, and the firmware's modules the build leaves
     out: level 3's, which earlier builds shipped), and /main.py, so that
     until step 4 the board boots to the REPL; save files and anything
     else on the flash are left alone;
  2. fs cp build/<board>/lib/*.mpy :lib/  (mpremote skips files whose hash
     already matches);
  3. exec: check that every .mpy on the board has the build's size, else
     stop: a .mpy cut short (a copy interrupted, a cable pulled) can hang
     the import that reads it, and main.py would run it at every boot;
  4. fs cp build/<board>/main.py :main.py;
  5. reset (a hard reset: the board boots into main.py).
A deploy stopped anywhere after step 1 leaves a board that starts at the
REPL, where the next deploy reaches it.
--port takes what `mpremote connect` takes: a device path, "auto", or a
shortcut such as a0 (/dev/ttyACM0) or u0 (/dev/ttyUSB0).
"""
import argparse
import grp
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build"
sys.path.insert(0, str(ROOT / "tools"))
import build as _build  # noqa: E402

# On the board: the names of our modules the last deploy put in /lib.
RECORD = "/lib/gomoku_modules.txt"

# Runs on the board (MicroPython). Checks first; deletes only the files of
# the modules named in _M, _X and the record.
_PREPARE = """\
import os, sys
_P = %(port)r
_V = %(mpy)r
_F = %(native)r
_H = %(hint)r
_v = getattr(sys.implementation, "_mpy", 0)
if _P and sys.platform != _P:
    raise RuntimeError("deploy refused: the board runs MicroPython's %%s port; "
                       "build/%(board)s is for %(port)s: %%s" %% (sys.platform,
                       _H.get(sys.platform, "no board of this project is for it")))
if _v & 255 != _V or (_F is not None and _v >> 8 != _F):
    raise RuntimeError("deploy refused: the board's MicroPython %%s loads .mpy "
                       "version %%d%%s; the build's files are version %%d%%s: "
                       "flash MicroPython %(version)s (docs/HARDWARE.md)" %% (
                           ".".join(str(x) for x in sys.implementation.version[:3]),
                           _v & 255, "" if _F is None else " (arch/sub %%d)" %% (_v >> 8),
                           _V, "" if _F is None else " (arch/sub %%d)" %% _F))
_M = %(names)r
_X = %(left_out)r
try:
    os.mkdir("/lib")
except OSError:
    pass
for _m in _M:
    for _p in ("/lib/" + _m + ".py", "/" + _m + ".py", "/" + _m + ".mpy"):
        try:
            os.remove(_p)
            print("removed stale", _p)
        except OSError:
            pass
try:
    with open(%(record)r) as _f:
        _X = _X + _f.read().split()
except OSError:
    pass
for _m in _X:
    if _m not in _M:
        try:
            os.remove("/lib/" + _m + ".mpy")
            print("removed old", "/lib/" + _m + ".mpy")
        except OSError:
            pass
with open(%(record)r, "w") as _f:
    _f.write("\\n".join(_M) + "\\n")
try:
    os.remove("/main.py")
except OSError:
    pass
"""

# Runs on the board after the copy: every .mpy as long as the build's.
_VERIFY = """\
import os
_S = %(sizes)r
_B = []
for _m in _S:
    try:
        _n = os.stat("/lib/" + _m)[6]
    except OSError:
        _B.append("/lib/%%s is missing" %% _m)
        continue
    if _n != _S[_m]:
        _B.append("/lib/%%s is %%d of %%d bytes" %% (_m, _n, _S[_m]))
if _B:
    raise RuntimeError("deploy stopped: the copy did not complete: " + ", ".join(_B) +
                       ". main.py is not written, so the board starts at the REPL: "
                       "run the deploy again")
"""


class DeployError(Exception):
    pass


def port_problem(port):
    """What to tell the player when `port` is a device path that is not
    there, or that they may not open (mpremote says "it may be in use by
    another program" for both); None when it opens, or is not a path."""
    if not port.startswith("/dev/"):
        return None
    if not os.path.exists(port):
        return ("there is no %s: is the board plugged in over USB? "
                "(PORT=auto takes the first USB serial port)" % port)
    if not os.access(port, os.R_OK | os.W_OK):
        group = _group_of(port)
        return ("%s is not yours to open: join its group, %s (sudo usermod -aG "
                "%s $USER), then log out and in again" % (port, group, group))
    return None


def _group_of(path):
    gid = os.stat(path).st_gid
    try:
        return grp.getgrgid(gid).gr_name
    except KeyError:
        return str(gid)


def where_to_look(port):
    """What to check when mpremote could not talk to the board on `port`."""
    if port == "auto":
        return ("is the board plugged in over USB (PORT=auto takes the first "
                "USB serial port; name it with PORT=/dev/tty...), are you in "
                "its group (dialout on Debian and Ubuntu)")
    return "is the board on %s" % port


def mpremote():
    found = _build.venv_tool("mpremote")
    if not found:
        raise DeployError("mpremote not found: `make venv` installs the pinned "
                          "one into .venv (`make deploy` does it too)")
    return found


def _mpy_header(mpys):
    """(.mpy version, feature byte of native code or None) of the build's
    files; DeployError if they disagree (a mixed build)."""
    versions, native = set(), set()
    for p in mpys:
        head = p.read_bytes()[:4]
        if len(head) < 4 or head[:1] != b"M":
            raise DeployError("%s is not a .mpy file: run `make build` again" % p)
        versions.add(head[1])
        if head[2] >> 2:
            native.add(head[2])
    if len(versions) != 1 or len(native) > 1:
        raise DeployError("the .mpy files in %s differ in version or architecture: "
                          "run `make build` again" % mpys[0].parent)
    return versions.pop(), (native.pop() if native else None)


def _micropython_release(out):
    """The MicroPython release the build's mpy-cross belongs to ("1.29"),
    from its build.json; the board should run that release."""
    try:
        text = json.loads((out / "build.json").read_text())["mpy_cross"]
    except (OSError, ValueError, KeyError):
        text = ""
    m = re.search(r"v(\d+\.\d+)", text)
    return m.group(1) if m else "of the build's mpy-cross"


def deploy_command(board, port, build_root=BUILD, soft_reset=True,
                   check_platform=True):
    """The mpremote argv that deploys build_root/<board> to the device on port.

    soft_reset=False adds mpremote's `resume` (no soft reset before the first
    command): for a MicroPython that exits on Ctrl-D, as the unix port does.
    check_platform=False deploys whatever port the board's MicroPython is
    (the .mpy version is checked still).
    """
    boards = _build.boards()
    if board not in boards:
        raise DeployError("unknown board %r; boards: %s"
                          % (board, ", ".join(sorted(boards))))
    out = Path(build_root) / board
    lib = out / "lib"
    main = out / "main.py"
    if not lib.is_dir():
        raise DeployError("%s does not exist: run `make build BOARD=%s` first"
                          % (lib, board))
    if not main.exists():
        raise DeployError("%s is missing (firmware/main.py not written yet?): "
                          "nothing would run at boot" % main)
    mpys = sorted(lib.glob("*.mpy"))
    if not any(p.name == "board.mpy" for p in mpys):
        raise DeployError("%s has no board.mpy: not a board build" % lib)
    names = [p.stem for p in mpys]
    mpy, native = _mpy_header(mpys)
    hint = {}
    for name, (p, _) in sorted(boards.items()):
        hint.setdefault(p, "make deploy BOARD=%s" % name)
    code = _PREPARE % {
        "port": boards[board][0] if check_platform else None,
        "board": board, "hint": hint, "mpy": mpy, "native": native,
        "version": _micropython_release(out), "names": names,
        "left_out": sorted({m[0] for m in _build.firmware_modules()} - set(names)),
        "record": RECORD}
    cmd = [mpremote(), "connect", port] + ([] if soft_reset else ["resume"]) + [
           "exec", code,
           "+", "fs", "cp"] + [str(p) for p in mpys] + [":lib/",
           "+", "exec", _VERIFY % {"sizes": {p.name: p.stat().st_size
                                            for p in mpys}},
           "+", "fs", "cp", str(main), ":main.py",
           "+", "reset"]
    return cmd


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--board", required=True)
    parser.add_argument("--port", default="auto",
                        help="serial port for mpremote (default: auto)")
    parser.add_argument("--build", default=str(BUILD), help="build root")
    parser.add_argument("--no-soft-reset", action="store_true",
                        help="do not soft-reset first (mpremote resume)")
    parser.add_argument("--skip-platform-check", action="store_true",
                        help="deploy even if the board's MicroPython is not "
                             "the build's port (rp2/esp32)")
    parser.add_argument("--dry-run", action="store_true",
                        help="print the mpremote command, do not run it")
    args = parser.parse_args(argv)
    try:
        cmd = deploy_command(args.board, args.port, args.build,
                             not args.no_soft_reset, not args.skip_platform_check)
    except (DeployError, _build.BuildError) as e:
        print("deploy: %s" % e, file=sys.stderr)
        return 1
    if args.dry_run:
        print(" ".join(shlex.quote(c) for c in cmd))
        return 0
    problem = port_problem(args.port)
    if problem:
        print("deploy: " + problem, file=sys.stderr)
        return 1
    print("deploy: %d modules and main.py to %s on %s, through mpremote "
          "(--dry-run prints its command)"
          % (sum(c.endswith(".mpy") for c in cmd), args.board, args.port),
          flush=True)
    rc = subprocess.call(cmd)
    if rc:
        print("deploy: mpremote exited %d: see its output above (\"deploy "
              "refused\" says what to change; otherwise: %s, running "
              "MicroPython, and no other program holding the port?). A deploy "
              "stopped after the board's checks leaves it starting at the REPL "
              "until one completes"
              % (rc, where_to_look(args.port)), file=sys.stderr)
    return rc


if __name__ == "__main__":
    sys.exit(main())
