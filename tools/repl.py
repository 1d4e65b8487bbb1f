"""The board's MicroPython REPL over USB serial, through mpremote.

    python tools/repl.py --port /dev/ttyACM0     (make repl PORT=...)

mpremote alone answers a port that does not exist with "it may be in use
by another program", and PORT=auto with no board with "no device found";
this says what to check, as deploy does. Ctrl-] or Ctrl-x leaves the REPL.
"""
import argparse
import subprocess
import sys

import deploy


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", default="auto",
                        help="serial port for mpremote (default: auto)")
    args = parser.parse_args(argv)
    problem = deploy.port_problem(args.port)
    if problem:
        print("repl: " + problem, file=sys.stderr)
        return 1
    try:
        cmd = [deploy.mpremote(), "connect", args.port, "repl"]
    except deploy.DeployError as e:
        print("repl: %s" % e, file=sys.stderr)
        return 1
    rc = subprocess.call(cmd)
    if rc:
        print("repl: mpremote exited %d: %s, running MicroPython, and no "
              "other program holding the port?"
              % (rc, deploy.where_to_look(args.port)), file=sys.stderr)
    return rc


if __name__ == "__main__":
    sys.exit(main())
