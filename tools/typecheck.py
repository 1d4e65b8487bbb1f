"""Type-check firmware/ with pyright against each device port's MicroPython API.

    python tools/typecheck.py                 # every port (rp2, esp32)
    python tools/typecheck.py --port rp2 -v   # one port, warnings listed too

For each port the pinned micropython-<port>-stubs (and the stdlib stubs they
depend on) are installed with `pip --target` into .venv/stubs/<port>/ (the
ports' stub packages overwrite each other's files, so each has its own
folder). pyright then runs in basic mode with those stubs as both the stub
path and the typeshed: `machine`, `time.ticks_ms`, `micropython.const` and
the builtins are what that port's firmware has, and CPython-only APIs are
errors. `board` resolves to that port's board config (boards/board_*.py).

Exit status 0 when every port is clean; otherwise the errors are printed.
"""
import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV = Path(sys.executable).parent.parent
STUBS = VENV / "stubs"
WORK = ROOT / "build" / "typecheck"

PORTS = {
    "rp2": ("micropython-rp2-stubs==1.29.0.post1",
            "micropython-stdlib-stubs==1.29.0.post2"),
    "esp32": ("micropython-esp32-stubs==1.29.0.post1",
              "micropython-stdlib-stubs==1.29.0.post2"),
}
BOARD_OF_PORT = {"rp2": "pico_lcd13", "esp32": "esp32_ili9341"}
FIRMWARE_PATH = ["firmware/engine", "firmware/drivers", "firmware/app",
                 "firmware"]


def ensure_stubs(port):
    """Install the port's pinned stubs once; return their folder."""
    target = STUBS / port
    stamp = target / ".pinned"
    want = "\n".join(PORTS[port]) + "\n"
    if stamp.exists() and stamp.read_text() == want:
        return target
    if target.exists():
        shutil.rmtree(target)
    cmd = [sys.executable, "-m", "pip", "install", "-q",
           "--disable-pip-version-check", "--no-deps", "--target",
           str(target)] + list(PORTS[port])
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit("installing stubs for %s failed:\n%s"
                         % (port, proc.stdout + proc.stderr))
    stamp.write_text(want)
    return target


def pyright():
    exe = Path(sys.executable).parent / "pyright"
    if exe.exists():
        return str(exe)
    found = shutil.which("pyright")
    if found is None:
        raise SystemExit(
            "typecheck: no pyright beside %s or on PATH: run it with the "
            "project's Python, .venv/bin/python tools/typecheck.py (make venv "
            "installs pyright; the stubs go into that venv)" % sys.executable)
    return found


def write_config(port, stubs):
    """A pyright config for one port, under build/typecheck/<port>/."""
    work = WORK / port
    work.mkdir(parents=True, exist_ok=True)
    board_dir = work / "board"
    board_dir.mkdir(exist_ok=True)
    shutil.copyfile(ROOT / "boards" / ("board_%s.py" % BOARD_OF_PORT[port]),
                    board_dir / "board.py")
    # An empty virtualenv: pyright then searches no CPython library, so an
    # import the port lacks (os.path, functools, ...) is an error.
    (work / "venv" / "lib" / "python3.11" / "site-packages").mkdir(
        parents=True, exist_ok=True)
    (work / "venv" / "pyvenv.cfg").write_text("home = /nonexistent\n")
    up = "../../../"   # pyright wants paths relative to the config's folder
    config = {
        "include": [up + "firmware"],
        "exclude": ["**/__pycache__"],
        "extraPaths": [up + p for p in FIRMWARE_PATH] + ["board"],
        "stubPath": str(stubs),
        "typeshedPath": str(stubs),
        "venvPath": ".",
        "venv": "venv",
        "pythonPlatform": "Linux",
        "typeCheckingMode": "basic",
        "reportMissingModuleSource": "none",
        # Attributes that start as None and are set when a screen or game
        # begins are the app's normal pattern; pyright cannot follow that
        # state, so these are shown as warnings, not failures.
        "reportOptionalMemberAccess": "warning",
        "reportOptionalSubscript": "warning",
    }
    path = work / "pyrightconfig.json"
    path.write_text(json.dumps(config, indent=1) + "\n")
    return path


def check(port):
    """Run pyright for one port; return (error count, diagnostics, raw output)."""
    checker = pyright()         # first: without it, install nothing
    stubs = ensure_stubs(port)
    config = write_config(port, stubs)
    proc = subprocess.run([checker, "--outputjson", "-p", str(config)],
                          capture_output=True, text=True, cwd=str(ROOT))
    try:
        result = json.loads(proc.stdout)
    except ValueError:
        raise SystemExit("pyright failed for %s:\n%s%s"
                         % (port, proc.stdout, proc.stderr))
    diags = [d for d in result.get("generalDiagnostics", ())
             if d.get("severity") == "error"]
    return diags, result


def format_diag(d):
    rel = Path(d["file"])
    try:
        rel = rel.relative_to(ROOT)
    except ValueError:
        pass
    start = d.get("range", {}).get("start", {})
    return "%s:%d:%d: %s%s" % (rel, start.get("line", 0) + 1,
                               start.get("character", 0) + 1,
                               d["message"].replace("\n", " "),
                               " [%s]" % d["rule"] if d.get("rule") else "")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", action="append", choices=sorted(PORTS))
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    failed = 0
    for port in args.port or sorted(PORTS):
        diags, result = check(port)
        summary = result.get("summary", {})
        print("%s: %d files, %d errors, %d warnings" % (
            port, summary.get("filesAnalyzed", 0), len(diags),
            summary.get("warningCount", 0)))
        for d in diags:
            print("  " + format_diag(d))
        if args.verbose:
            for d in result.get("generalDiagnostics", ()):
                if d.get("severity") != "error":
                    print("  (%s) %s" % (d.get("severity"), format_diag(d)))
        failed += bool(diags)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
