"""Review of the path a user takes to flash the handheld (tools/build.py,
tools/deploy.py, tools/freeze.py): what the build and its size report say,
the board-side check against the board's MicroPython, what one deploy
leaves on a board's flash, that every failure is named and exits non-zero,
and the frozen names a firmware's importer looks up."""
import builtins
import json
import os
import re
import shlex
import types

import pytest

from test_build import (BOARDS, NATIVE_ARCH, ROOT, _board_check, _copy_build,
                        add_module, build, deploy, source_modules)

import freeze  # noqa: E402  (tools/, on sys.path by test_build)
import mcu_firmware  # noqa: E402

# mpy-cross 1.29 writes .mpy version 6 (build.py's docstring: "6.3")
MPY_VERSION = 6


def _sources(board):
    """What a device build compiles, from the folders themselves: every
    firmware module but main and the level 3 ones, and the board's config."""
    paths = {}
    for name in source_modules() - set(build.PC_ONLY):
        for folder in ("engine", "drivers", "app", ""):
            path = ROOT / "firmware" / folder / (name + ".py")
            if path.exists():
                paths[name] = path
    paths["board"] = ROOT / "boards" / ("board_%s.py" % board)
    return paths


# ---- tools/build.py -----------------------------------------------------------

def test_a_module_that_does_not_compile_is_named_with_mpy_cross_s_error(
        tmp_path, monkeypatch, capsys):
    """The user sees which file and why (the compiler's own message), and
    build.py exits 1 so `make deploy` stops before copying anything."""
    add_module(monkeypatch, tmp_path / "broken", "oops", "X = 1\ndef f(:\n")
    assert build.main(["--board", "pico_lcd13", "--out", str(tmp_path / "out"),
                       "-q"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("build failed: mpy-cross failed on "), err
    assert "oops.py" in err and "line 2" in err and "SyntaxError" in err, err
    assert not (tmp_path / "out" / "pico_lcd13").exists()


@pytest.mark.parametrize("board", BOARDS)
def test_size_report_counts_every_file_it_ships(board, built):
    root, report = built[board]
    lib = root / board / "lib"
    sources = _sources(board)
    rows = {r["module"]: r for r in report["modules"]}
    assert set(rows) == set(sources) == {p.stem for p in lib.glob("*.mpy")}
    for name, src in sources.items():
        assert rows[name]["py_bytes"] == src.stat().st_size, name
        assert rows[name]["mpy_bytes"] == (lib / (name + ".mpy")).stat().st_size
    assert report["total_py_bytes"] == sum(p.stat().st_size for p in sources.values())
    assert report["main_py_bytes"] == (ROOT / "firmware" / "main.py").stat().st_size
    text = build.format_report(report)
    total = [line for line in text.splitlines() if line.strip().startswith("total lib")]
    assert total[0].split()[2:] == [str(report["total_py_bytes"]),
                                    str(report["total_mpy_bytes"]),
                                    "(%d" % len(sources), "modules)"]
    main = [line.split() for line in text.splitlines() if line.split()[:1] == ["main.py"]]
    assert main == [["main.py", "source", str(report["main_py_bytes"]), "-"]]


def test_report_names_the_board_s_cpu_and_march_none_builds_bytecode_only(
        tmp_path, built, capsys):
    """-march is armv6m for the RP2040 and xtensawin for the ESP32 (the
    docstring); --march none passes no -march: bytecode that loads on any
    CPU, and the report says so."""
    cpu = {"pico_lcd13": "armv6m", "esp32_ili9341": "xtensawin"}
    for board in BOARDS:
        report = built[board][1]
        assert report["march"] == cpu[board]
        assert "mpy-cross -O1 -march=%s (" % cpu[board] in build.format_report(report)
    assert build.main(["--board", "pico_lcd13", "--out", str(tmp_path),
                       "--march", "none"]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert head.startswith("build/pico_lcd13: rp2, mpy-cross -O1 ("), head
    assert "-march" not in head
    report = build.build("pico_lcd13", tmp_path, march="none")
    assert report["march"] is None
    mpys = list((tmp_path / "pico_lcd13" / "lib").glob("*.mpy"))
    assert len(mpys) > 20
    for p in mpys:
        assert p.read_bytes()[2] >> 2 == 0, p


def test_a_debug_build_claims_no_asserts_removed_and_flags_native_code(
        tmp_path, monkeypatch):
    """-O0 keeps assert statements: the report must not say they are gone.
    A module with machine code loads only on that CPU: its line says so."""
    add_module(monkeypatch, tmp_path / "extra", "checked",
               "import micropython\n\n\ndef f(x):\n    assert x > 0\n    return x\n"
               "\n\n@micropython.native\ndef g(x):\n    return x\n")
    # --march x64 (the docstring's example): machine code for the unix port
    report = build.build("pico_lcd13", tmp_path / "out", opt=0, march="x64")
    row = [r for r in report["modules"] if r["module"] == "checked"][0]
    assert row["asserts"] == 0 and row["native"]
    x64 = 2                                     # MicroPython's MP_NATIVE_ARCH_X64
    lib = tmp_path / "out" / "pico_lcd13" / "lib"
    assert (lib / "checked.mpy").read_bytes()[2] >> 2 == x64
    text = build.format_report(report)
    assert "mpy-cross -O0 " in text and "removed" not in text
    line = [t for t in text.splitlines() if "lib/checked.mpy" in t][0]
    assert line.endswith("  native code"), line
    assert [t for t in text.splitlines() if "native code" in t] == [line]


def test_build_with_no_board_named_fails_and_lists_the_boards(capsys):
    with pytest.raises(SystemExit) as stop:
        build.main([])
    assert stop.value.code != 0
    assert "give --board NAME or --all (boards: esp32_ili9341, pico_lcd13)" in \
        capsys.readouterr().err


# ---- tools/deploy.py: the check on the board -----------------------------------

def test_deploy_refuses_a_micropython_of_another_mpy_version(built):
    """MicroPython loads only .mpy files of its own version: a board on an
    older release (version 5) or a newer one (7) is refused, naming both;
    its own release passes, whatever architecture bits it reports (the
    build is bytecode only)."""
    root = built["pico_lcd13"][0]
    code = deploy.deploy_command("pico_lcd13", "auto", root)[4]
    rp2_native = (NATIVE_ARCH["pico_lcd13"] << 2 | 3) << 8     # armv6m, 6.3
    assert _board_check(code, "rp2", MPY_VERSION | rp2_native) is None
    for other in (MPY_VERSION - 1, MPY_VERSION + 1):
        msg = _board_check(code, "rp2", other | rp2_native)
        assert msg and "loads .mpy version %d" % other in msg, msg
        assert "files are version %d" % MPY_VERSION in msg, msg


def test_deploy_refusal_names_the_release_of_the_build_s_mpy_cross(tmp_path, built):
    """The fix it names is the MicroPython release the build's mpy-cross
    belongs to, as build.json records it (a build by another pinned one)."""
    _copy_build(built, tmp_path)
    report = tmp_path / "pico_lcd13" / "build.json"
    data = json.loads(report.read_text())
    data["mpy_cross"] = "MicroPython v1.31.2 on 2027-01-01; mpy-cross emitting mpy v6.3"
    report.write_text(json.dumps(data))
    code = deploy.deploy_command("pico_lcd13", "auto", tmp_path)[4]
    msg = _board_check(code, "rp2", MPY_VERSION - 1)
    assert msg.endswith(": flash MicroPython 1.31 (docs/HARDWARE.md)"), msg


def test_deploy_refuses_native_code_for_two_cpus(tmp_path, built):
    lib = _copy_build(built, tmp_path)
    for name, board in (("ai", "pico_lcd13"), ("gomoku", "esp32_ili9341")):
        data = bytearray((lib / (name + ".mpy")).read_bytes())
        data[2] = NATIVE_ARCH[board] << 2 | 3
        (lib / (name + ".mpy")).write_bytes(bytes(data))
    with pytest.raises(deploy.DeployError, match="differ in version or architecture"):
        deploy.deploy_command("pico_lcd13", "auto", tmp_path)


def test_deploy_refuses_native_code_of_another_sub_version(tmp_path, built):
    """MicroPython loads native code only of its own architecture and .mpy
    sub-version (deploy.py's docstring): same CPU, sub-version 2 against the
    build's 3 is refused."""
    lib = _copy_build(built, tmp_path)
    arch = NATIVE_ARCH["pico_lcd13"] << 2
    data = bytearray((lib / "ai.mpy").read_bytes())
    data[2] = arch | 3
    (lib / "ai.mpy").write_bytes(bytes(data))
    code = deploy.deploy_command("pico_lcd13", "auto", tmp_path)[4]
    assert _board_check(code, "rp2", MPY_VERSION | (arch | 3) << 8) is None
    msg = _board_check(code, "rp2", MPY_VERSION | (arch | 2) << 8)
    assert msg and "(arch/sub %d)" % (arch | 2) in msg, msg


# ---- tools/deploy.py: what one session does ---------------------------------

def test_deploy_session_checks_then_copies_lib_and_main_then_resets(built, capsys):
    """The order of deploy.py's docstring: exec (check and clean), every
    .mpy of the build into :lib/, exec (check the copies), main.py to
    :main.py, reset."""
    root = built["esp32_ili9341"][0]
    assert deploy.main(["--board", "esp32_ili9341", "--build", str(root),
                        "--port", "/dev/ttyUSB0", "--dry-run"]) == 0
    cmd = shlex.split(capsys.readouterr().out)
    assert cmd[1:3] == ["connect", "/dev/ttyUSB0"]
    steps, step = [], []
    for word in cmd[3:] + ["+"]:
        if word == "+":
            steps.append(step)
            step = []
        else:
            step.append(word)
    out = root / "esp32_ili9341"
    assert [s[0] for s in steps] == ["exec", "fs", "exec", "fs", "reset"]
    mpys = sorted(str(p) for p in (out / "lib").glob("*.mpy"))
    assert steps[1] == ["fs", "cp"] + mpys + [":lib/"]
    assert steps[3] == ["fs", "cp", str(out / "main.py"), ":main.py"]
    assert steps[4] == ["reset"]


def _prepare_on(flash, code, platform="rp2", mpy=MPY_VERSION):
    """Run deploy's board-side code as a board whose flash is the folder
    flash would (os.mkdir, os.remove and open on its absolute paths);
    -> what it printed."""
    def on_flash(path):
        assert path.startswith("/"), path
        return flash / path[1:]
    printed = []
    fake = {"sys": types.SimpleNamespace(
                platform=platform, implementation=types.SimpleNamespace(
                    _mpy=mpy, version=(1, 29, 0))),
            "os": types.SimpleNamespace(mkdir=lambda p: os.mkdir(on_flash(p)),
                                        remove=lambda p: os.remove(on_flash(p)),
                                        stat=lambda p: tuple(os.stat(on_flash(p))))}
    importer = builtins.__import__
    exec(code, {"__builtins__": dict(
        vars(builtins),
        __import__=lambda name, *a: fake[name] if name in fake else importer(name, *a),
        open=lambda p, mode="r": builtins.open(on_flash(p), mode),
        print=lambda *a: printed.append(" ".join(map(str, a))))})
    return printed


def _files(flash):
    return sorted(p.relative_to(flash).as_posix() for p in flash.rglob("*") if p.is_file())


def test_deploy_on_a_fresh_board_makes_lib_and_records_the_modules(tmp_path, built):
    """A freshly flashed MicroPython has no /lib: the session makes it
    (else `fs cp ... :lib/` has nowhere to go) and records the modules it
    deploys in /lib/gomoku_modules.txt."""
    root = built["pico_lcd13"][0]
    code = deploy.deploy_command("pico_lcd13", "auto", root)[4]
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "boot.py").write_text("# the port's own\n")
    assert _prepare_on(flash, code) == []
    assert (flash / "lib").is_dir()
    assert _files(flash) == ["boot.py", "lib/gomoku_modules.txt"]
    record = (flash / "lib" / "gomoku_modules.txt").read_text().split()
    assert sorted(record) == sorted(_sources("pico_lcd13"))


def test_deploy_clears_stale_copies_and_old_modules_and_nothing_else(tmp_path, built):
    """Stale copies of our modules that would shadow the new .mpy files
    (/lib/<mod>.py; /<mod>.py and /<mod>.mpy, the root first on sys.path),
    modules the last deploy recorded that the build no longer has, and level
    3's, which earlier builds shipped, go; the owner's files stay, and so do
    our .mpy files the build still has (mpremote copies only changed ones)."""
    root = built["pico_lcd13"][0]
    code = deploy.deploy_command("pico_lcd13", "auto", root)[4]
    flash = tmp_path / "flash"
    (flash / "lib").mkdir(parents=True)
    stale = ["lib/gomoku.py", "ai.py", "app.mpy", "lib/renamed.mpy",
             "lib/deepsearch.mpy", "lib/vct.mpy"]
    kept = ["lib/ai.mpy", "lib/theirs.mpy", "lib/theirs.py", "saves.json"]
    for name in stale + kept + ["main.py"]:
        (flash / name).write_bytes(b"M\x06\x00\x1f")
    (flash / "lib" / "gomoku_modules.txt").write_text("gomoku\nai\nrenamed\n")
    printed = _prepare_on(flash, code)
    assert _files(flash) == sorted(kept + ["lib/gomoku_modules.txt"])
    assert sorted(printed) == sorted(
        ("removed old " if p.startswith("lib/") and p.endswith(".mpy")
         else "removed stale ") + "/" + p for p in stale)
    record = (flash / "lib" / "gomoku_modules.txt").read_text().split()
    assert "renamed" not in record and sorted(record) == sorted(_sources("pico_lcd13"))


def test_deploy_removes_main_py_until_the_copies_are_checked(tmp_path, built):
    """The old main.py goes with the first step and the new one is written
    only after every .mpy on the board has the build's size: a deploy
    stopped between (a cable pulled mid-copy) leaves a board that starts at
    the REPL, not one that imports a .mpy cut short (which can hang)."""
    root = built["pico_lcd13"][0]
    cmd = deploy.deploy_command("pico_lcd13", "auto", root)
    prepare, verify = cmd[4], cmd[cmd.index("exec", 5) + 1]
    lib = root / "pico_lcd13" / "lib"
    flash = tmp_path / "flash"
    (flash / "lib").mkdir(parents=True)
    (flash / "main.py").write_text("import app\n")
    _prepare_on(flash, prepare)
    assert not (flash / "main.py").exists()
    with pytest.raises(RuntimeError, match=r"^deploy stopped: the copy did not "
                       r"complete: /lib/\w+\.mpy is missing, .* the board starts "
                       r"at the REPL"):
        _prepare_on(flash, verify)
    for p in lib.glob("*.mpy"):
        (flash / "lib" / p.name).write_bytes(p.read_bytes())
    assert _prepare_on(flash, verify) == []
    cut = flash / "lib" / "app.mpy"
    whole = cut.stat().st_size
    cut.write_bytes((lib / "app.mpy").read_bytes()[:100])
    with pytest.raises(RuntimeError) as e:
        _prepare_on(flash, verify)
    assert ": /lib/app.mpy is 100 of %d bytes. main.py is not written" % whole \
        in str(e.value)


def test_deploy_refused_by_the_board_changes_nothing(tmp_path, built):
    """The port and version checks come before anything on the flash is
    touched: a refused deploy leaves even the stale files."""
    root = built["pico_lcd13"][0]
    code = deploy.deploy_command("pico_lcd13", "auto", root)[4]
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "gomoku.py").write_text("X = 1\n")
    for platform, mpy in (("esp32", MPY_VERSION), ("rp2", MPY_VERSION - 1)):
        with pytest.raises(RuntimeError, match=r"^deploy refused: "):
            _prepare_on(flash, code, platform, mpy)
        assert _files(flash) == ["gomoku.py"]


def test_deploy_names_a_failed_mpremote_and_exits_with_its_status(built, monkeypatch,
                                                                 capsys):
    root = built["pico_lcd13"][0]
    ran = []
    monkeypatch.setattr(deploy.subprocess, "call", lambda cmd: ran.append(cmd) or 2)
    assert deploy.main(["--board", "pico_lcd13", "--build", str(root),
                        "--port", "a0"]) == 2
    assert len(ran) == 1 and ran[0][1:3] == ["connect", "a0"]
    assert re.search(r"^deploy: mpremote exited 2: ", capsys.readouterr().err, re.M)


# ---- tools/freeze.py: the frozen names the firmware's importer looks up -------


def test_frozen_names_and_code_are_listed_in_step_with_qstrs_low_byte_first():
    """py/frozenmod.c of 1.9.2 finds module i by the i-th "<name>.py" in
    mp_frozen_mpy_names and takes mp_frozen_mpy_content[i]; the VM reads a
    qstr operand as ip[0] | ip[1] << 8 (py/bc.h DECODE_QSTR)."""
    mpys = {name: freeze.compile_mpy(mcu_firmware.mpy_cross(), src, name)
            for name, src in (("alpha", "A = 1\n"), ("beta", "B = 2\n"))}
    c_source, _ = freeze.freeze(mpys, "")
    names = re.search(r"mp_frozen_mpy_names\[\] = (.*);", c_source).group(1)
    assert names == r'"alpha.py\0" "beta.py\0"'      # C: alpha.py NUL beta.py NUL
    content = re.search(r"mp_frozen_mpy_content\[\] = \{(.*?)\};", c_source, re.S)
    assert content.group(1).split() == ["&frozen_alpha,", "&frozen_beta,"]
    assert "MP_QSTR_A & 0xff, MP_QSTR_A >> 8" in c_source
