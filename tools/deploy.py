"""Copy a build to a board over USB serial with mpremote, then reset it.

    python tools/deploy.py --board pico_lcd13 --port /dev/ttyACM0
    python tools/deploy.py --board esp32_ili9341 --port /dev/ttyUSB0 --dry-run

Run `python tools/build.py --board NAME` first (`make deploy` does). One
mpremote session:
  1. exec: create /lib, delete our modules' stale copies that would shadow
     the new .mpy files (/lib/<mod>.py, and /<mod>.py or /<mod>.mpy in the
     root, which comes first on sys.path); save files and anything else on
     the flash are left alone;
  2. fs cp build/<board>/lib/*.mpy :lib/  (mpremote skips files whose hash
     already matches);
  3. fs cp build/<board>/main.py :main.py;
  4. reset (a hard reset: the board boots into main.py).
--port takes what `mpremote connect` takes: a device path, "auto", or a
shortcut such as a0 (/dev/ttyACM0) or u0 (/dev/ttyUSB0).
"""
import argparse
import json
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build"

# Runs on the board (MicroPython). Deletes only the files named in _M.
_PREPARE = """\
import os
_M = %s
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
"""


class DeployError(Exception):
    pass


def mpremote():
    exe = Path(sys.executable).parent / "mpremote"
    return str(exe) if exe.exists() else "mpremote"


def deploy_command(board, port, build_root=BUILD, soft_reset=True):
    """The mpremote argv that deploys build_root/<board> to the device on port.

    soft_reset=False adds mpremote's `resume` (no soft reset before the first
    command): for a MicroPython that exits on Ctrl-D, as the unix port does.
    """
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
    cmd = [mpremote(), "connect", port] + ([] if soft_reset else ["resume"]) + [
           "exec", _PREPARE % json.dumps(names),
           "+", "fs", "cp"] + [str(p) for p in mpys] + [":lib/",
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
    parser.add_argument("--dry-run", action="store_true",
                        help="print the mpremote command, do not run it")
    args = parser.parse_args(argv)
    try:
        cmd = deploy_command(args.board, args.port, args.build,
                             not args.no_soft_reset)
    except DeployError as e:
        print("deploy: %s" % e, file=sys.stderr)
        return 1
    shown = " ".join(shlex.quote(c) for c in cmd)
    print(shown, flush=True)
    if args.dry_run:
        return 0
    rc = subprocess.call(cmd)
    if rc:
        print("deploy: mpremote exited %d (is the board on %s, running "
              "MicroPython, and no other program holding the port?)"
              % (rc, args.port), file=sys.stderr)
    return rc


if __name__ == "__main__":
    sys.exit(main())
