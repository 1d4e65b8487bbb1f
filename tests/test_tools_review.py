"""tools/gen_shapes.py and tools/typecheck.py: what their users rely on and
the other tests leave open (found by mutating each tool by hand).

gen_shapes: `translate` keeps the shape a side makes, for both kinds of
colour; `literal` writes any bytes back as the same bytes; `classify`
refuses an occupied point; running the script writes shapes.py.
typecheck: the pinned stubs are installed once and again only when the pins
change; a failed install or a pyright crash stops with a message; each port
is checked with its own board; diagnostics read file:line:column; the exit
status and --port/-v do what the usage says.
"""
import ast
import json
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

from tools import gen_shapes
from tools.gen_shapes import FIVE, OVERLINE, classify

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import typecheck  # noqa: E402


# gen_shapes ------------------------------------------------------------

def side(code):
    """The cells of one side, nearest first, as the engine sweeps it: a side
    code is (1 << n) | mask, n cells (bit k: own at distance k + 1, else
    empty), then a blocker (the other colour or the board's edge)."""
    n = code.bit_length() - 1
    return [1 if code >> k & 1 else 0 for k in range(n)] + [2]


def shape(left, right, exact):
    """The code of the point between two sides, from a whole line."""
    line = list(reversed(side(left))) + [0] + side(right)
    return classify(tuple(line), len(side(left)), exact)


def test_translate_keeps_the_shape_of_a_five_cell_side():
    """The engine sweeps five cells of a side for an exact colour and looks
    the table up by translate's shorter code: for every pair of sides the
    point's shape must be the same either way. translate(.., False) keeps
    the docstring's word that a free colour ignores the fifth cell."""
    codes = range(1, 64)   # 0..5 cells, each own or empty, then a blocker
    wrong = []
    for exact in (True, False):
        for left in codes:
            if left < 32:
                continue    # a short side: nothing to translate
            t = gen_shapes.translate(left, exact)
            for right in codes:
                want = shape(left, right, exact)
                if t == 0:
                    got = OVERLINE if exact else FIVE
                else:
                    assert t < 32, (left, exact, t)
                    got = shape(t, right, exact)
                if got != want:
                    wrong.append((exact, bin(left), bin(right), want, got))
    assert not wrong, wrong[:5]


def test_translate_leaves_short_sides_alone():
    for code in range(1, 32):
        assert gen_shapes.translate(code, True) == code
        assert gen_shapes.translate(code, False) == code


def test_literal_gives_back_any_bytes():
    """A byte that is a quote, a backslash or not printable must be escaped
    (the tables hold none today, so the generated file cannot show it)."""
    for data in (bytes(range(256)), b"\\'\\\\'", b"", bytes(200)):
        text = gen_shapes.literal(data)
        assert ast.literal_eval(text) == data
        assert all(len(line) <= 79 for line in text.splitlines())


def test_classify_refuses_an_occupied_point():
    """The tests' reference must not quietly answer for a point that holds
    a stone (own or other)."""
    for cell in (1, 2):
        with pytest.raises(AssertionError):
            classify((0, 1, cell, 1, 0), 2, False)


def test_running_the_script_writes_shapes_py(tmp_path):
    """`.venv/bin/python tools/gen_shapes.py` (README) writes the module the
    engine imports, next to the tools folder it runs from."""
    (tmp_path / "tools").mkdir()
    (tmp_path / "firmware" / "engine").mkdir(parents=True)
    shutil.copyfile(ROOT / "tools" / "gen_shapes.py",
                    tmp_path / "tools" / "gen_shapes.py")
    out = subprocess.run([sys.executable, "tools/gen_shapes.py"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    written = tmp_path / "firmware" / "engine" / "shapes.py"
    assert written.read_text() == (ROOT / "firmware" / "engine" / "shapes.py").read_text()
    assert str(written.resolve()) in out.stdout


# typecheck: the stubs ----------------------------------------------------

class FakePip:
    """Stands in for subprocess.run of `pip install --target DIR specs`:
    records each call and puts one file per spec into DIR."""

    def __init__(self, returncode=0):
        self.calls = []
        self.returncode = returncode

    def run(self, cmd, **kw):
        self.calls.append(cmd)
        target = Path(cmd[cmd.index("--target") + 1])
        if self.returncode == 0:
            target.mkdir(parents=True, exist_ok=True)
            for spec in cmd[cmd.index("--target") + 2:]:
                (target / spec.split("==")[0]).write_text(spec)
        return subprocess.CompletedProcess(cmd, self.returncode,
                                           "ERROR: no such version\n", "")


@pytest.fixture
def pip(tmp_path, monkeypatch):
    fake = FakePip()
    monkeypatch.setattr(typecheck, "STUBS", tmp_path / "stubs")
    monkeypatch.setattr(typecheck, "subprocess", types.SimpleNamespace(
        run=fake.run, CompletedProcess=subprocess.CompletedProcess))
    return fake


def test_stubs_are_installed_once(pip, tmp_path):
    target = typecheck.ensure_stubs("rp2")
    assert target == tmp_path / "stubs" / "rp2"
    assert len(pip.calls) == 1
    cmd = pip.calls[0]
    assert cmd[cmd.index("--target") + 1] == str(target)
    assert set(typecheck.PORTS["rp2"]) <= set(cmd)
    assert (target / "micropython-rp2-stubs").exists()
    assert typecheck.ensure_stubs("rp2") == target
    assert len(pip.calls) == 1, "the stubs were current: no second install"


def test_stubs_are_replaced_when_the_pins_change(pip, tmp_path):
    """A folder from older pins is removed, not installed over: files the
    new packages no longer have must not stay behind."""
    target = tmp_path / "stubs" / "esp32"
    target.mkdir(parents=True)
    (target / ".pinned").write_text("micropython-esp32-stubs==1.0.0\n")
    (target / "gone_module.pyi").write_text("x: int\n")
    assert typecheck.ensure_stubs("esp32") == target
    assert len(pip.calls) == 1
    assert not (target / "gone_module.pyi").exists()
    assert (target / "micropython-esp32-stubs").exists()
    typecheck.ensure_stubs("esp32")
    assert len(pip.calls) == 1


def test_a_failed_install_stops_with_pips_words(pip, tmp_path):
    pip.returncode = 1
    with pytest.raises(SystemExit) as stop:
        typecheck.ensure_stubs("rp2")
    assert "rp2" in str(stop.value)
    assert "no such version" in str(stop.value)
    assert not (tmp_path / "stubs" / "rp2" / ".pinned").exists()


# typecheck: the config, pyright's answer, the report ----------------------

@pytest.mark.parametrize("port", sorted(typecheck.PORTS))
def test_each_port_is_checked_with_its_own_board(port, tmp_path, monkeypatch):
    monkeypatch.setattr(typecheck, "WORK", tmp_path / "work")
    typecheck.write_config(port, tmp_path / "stubs")
    # the second run (every run after the first) reuses the folder
    config = typecheck.write_config(port, tmp_path / "stubs")
    board = config.parent / "board" / "board.py"
    assert "board" in json.loads(config.read_text())["extraPaths"]
    values = {}
    exec(compile(board.read_text(), str(board), "exec"), values)
    assert values["PORT"] == port


def test_a_pyright_that_does_not_answer_json_is_reported(tmp_path, monkeypatch):
    fake = tmp_path / "pyright"
    fake.write_text("#!/bin/sh\necho 'pyright: out of memory'\nexit 3\n")
    fake.chmod(0o755)
    monkeypatch.setattr(typecheck, "pyright", lambda: str(fake))
    monkeypatch.setattr(typecheck, "ensure_stubs", lambda port: tmp_path / "stubs")
    monkeypatch.setattr(typecheck, "WORK", tmp_path / "work")
    with pytest.raises(SystemExit) as stop:
        typecheck.check("esp32")
    assert "esp32" in str(stop.value)
    assert "out of memory" in str(stop.value)


def diag(file, line, col, message="bad", rule=None, severity="error"):
    d = {"file": str(file), "severity": severity, "message": message,
         "range": {"start": {"line": line, "character": col},
                   "end": {"line": line, "character": col + 1}}}
    if rule:
        d["rule"] = rule
    return d


def test_a_diagnostic_reads_file_line_column():
    """pyright counts lines and columns from 0; editors and people from 1.
    A file in the repository is named from its root."""
    d = diag(ROOT / "firmware" / "app" / "x.py", 6, 4,
             'Cannot access attribute "perf_counter"\n  for module "time"',
             "reportAttributeAccessIssue")
    assert typecheck.format_diag(d) == (
        'firmware/app/x.py:7:5: Cannot access attribute "perf_counter"   for '
        'module "time" [reportAttributeAccessIssue]')
    outside = diag("/elsewhere/y.py", 0, 0, "no rule")
    assert typecheck.format_diag(outside) == "/elsewhere/y.py:1:1: no rule"


def fake_check(results):
    """check() for main(): port -> list of diagnostics (errors and others)."""
    seen = []

    def check(port):
        seen.append(port)
        all_diags = results[port]
        errors = [d for d in all_diags if d["severity"] == "error"]
        return errors, {"generalDiagnostics": all_diags,
                        "summary": {"filesAnalyzed": 3,
                                    "errorCount": len(errors),
                                    "warningCount": len(all_diags) - len(errors)}}
    return check, seen


def test_exit_status_is_0_only_when_every_port_is_clean(monkeypatch, capsys):
    warn = diag(ROOT / "firmware" / "app" / "ui.py", 9, 0, "maybe None",
                severity="warning")
    err = diag(ROOT / "firmware" / "engine" / "ai.py", 41, 7, "no such API")
    check, seen = fake_check({"rp2": [warn], "esp32": [warn]})
    monkeypatch.setattr(typecheck, "check", check)
    assert typecheck.main([]) == 0
    assert seen == ["esp32", "rp2"]
    check, seen = fake_check({"rp2": [], "esp32": [err, warn, warn]})
    monkeypatch.setattr(typecheck, "check", check)
    capsys.readouterr()
    assert typecheck.main([]) == 1
    out = capsys.readouterr().out
    assert "esp32: 3 files, 1 errors, 2 warnings" in out
    assert "rp2: 3 files, 0 errors, 0 warnings" in out
    assert "firmware/engine/ai.py:42:8: no such API" in out
    assert "ui.py" not in out, "warnings are listed only with -v"


def test_port_picks_the_ports_checked(monkeypatch):
    err = diag(ROOT / "firmware" / "main.py", 0, 0)
    check, seen = fake_check({"rp2": [], "esp32": [err]})
    monkeypatch.setattr(typecheck, "check", check)
    assert typecheck.main(["--port", "rp2"]) == 0
    assert seen == ["rp2"]


def test_verbose_lists_warnings_once_and_errors_once(monkeypatch, capsys):
    warn = diag(ROOT / "firmware" / "app" / "ui.py", 9, 0, "maybe None",
                severity="warning")
    err = diag(ROOT / "firmware" / "engine" / "ai.py", 41, 7, "no such API")
    check, _ = fake_check({"rp2": [err, warn]})
    monkeypatch.setattr(typecheck, "check", check)
    assert typecheck.main(["--port", "rp2", "-v"]) == 1
    out = capsys.readouterr().out
    assert out.count("firmware/engine/ai.py:42:8") == 1
    assert "(warning) firmware/app/ui.py:10:1: maybe None" in out


def test_main_names_file_and_line_of_each_fault(tmp_path, monkeypatch, capsys):
    """End to end with pyright: a firmware file using what rp2 lacks fails
    the run, each fault printed as path:line from the repository root."""
    src = tmp_path / "firmware"
    src.mkdir()
    (src / "probe.py").write_text(
        "import time\n"
        "t = time.ticks_ms()\n"
        "c = time.perf_counter()\n"
        "import functools\n")
    shutil.copytree(ROOT / "boards", tmp_path / "boards")
    monkeypatch.setattr(typecheck, "ROOT", tmp_path)
    monkeypatch.setattr(typecheck, "WORK", tmp_path / "build" / "typecheck")
    assert typecheck.main(["--port", "rp2"]) == 1
    out = capsys.readouterr().out
    faults = sorted(line.split(":")[1] for line in out.splitlines()
                    if line.strip().startswith("firmware/probe.py:"))
    assert faults == ["3", "4"], out
