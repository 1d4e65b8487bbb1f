"""The quick benchmarks run to their end in `make test`, so a change that
breaks one shows here and not first in `make bench` (a grown test helper
once ran bench_sensors' unix-port check out of heap). Their figures are
judged against the budgets by `make bench`, not here; what is checked here
is that each derived figure is the one its printed inputs give."""
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def numbers(pattern, out):
    """Every match of `pattern` in `out` (by line), its groups as floats."""
    found = [tuple(map(float, m.groups())) for m in re.finditer(pattern, out, re.M)]
    assert found, (pattern, out)
    return found


def spi_ms(nbytes, mhz):
    """The time nbytes take on an SPI bus at mhz, in ms."""
    return nbytes * 8 / (mhz * 1e6) * 1e3


def check_sensors(out):
    # bus load at a 50 Hz poll: the read's time 50 times a second
    for load, us in numbers(r"bus load at a 50 Hz poll ([\d.]+)%, (\d+) us "
                            r"\(budget: <= 500 us\) ok$", out):
        assert load == pytest.approx(us * 50 / 1e6 * 100, abs=0.05)


def board_lcd(name):
    """A board file's LCD settings (the board files are data only)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "boards" / (name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.LCD


def check_display(out):
    # each chip's time at the SPI clock its board's port gives it: the
    # Pico's 48 MHz over 2 for the 40 MHz asked, the ESP32's 80 MHz over 8
    for chip, board, asked, mhz in (("st7789", "board_pico_lcd13", 40000000, "24"),
                                    ("ili9341", "board_esp32_ili9341", 10000000, "10")):
        assert board_lcd(board)["baudrate"] == asked
        assert set(re.findall(r"^%s .* at ([\d.]+) MHz$" % chip, out, re.M)) == {mhz}
    # a full-screen clear is every pixel's 2 bytes and a few commands
    # in one RAMWR window
    for w, h, nbytes, windows in numbers(r"(\d+)x(\d+) full-screen clear: (\d+) bytes on SPI "
                                         r"\((\d+) RAMWR windows\)", out):
        assert 2 * w * h < nbytes < 2 * w * h + 64 and windows == 1
    for nbytes, ms, mhz in numbers(r": (\d+) bytes on SPI \(\d+ RAMWR windows\) -> "
                                   r"([\d.]+) ms at ([\d.]+) MHz", out):
        assert ms == pytest.approx(spi_ms(nbytes, mhz), abs=0.005)


def check_radio(out):
    for med, p95 in numbers(r"median (\d+) ms, p95 (\d+) ms", out):
        assert med <= p95


def check_app(out):
    (stone,) = numbers(r"placed stone \(stone, last-move mark, status, cursor\): (\d+)", out)
    ((mhz, ms),) = numbers(r"SPI time per placed stone at ([\d.]+) MHz \(pico_lcd13's clock\): "
                           r"([\d.]+) ms", out)
    assert ms == pytest.approx(spi_ms(stone[0], mhz), abs=0.005)
    peaks = re.findall(r"level \d \(\d+ moves\) \+ rematch: peak ([\d.]+) KB total "
                       r"\(budget: <= 64 KB\) (ok|OVER BUDGET)", out)
    parts = numbers(r"loaded code ([\d.]+) KB, working set beyond it ([\d.]+) KB", out)
    assert len(peaks) == len(parts) == 2, out
    for (peak, word), (code, work) in zip(peaks, parts):
        assert code > 0 and work > 0 and code + work == pytest.approx(float(peak), abs=0.11)
        # the verdict is the printed figure's against the printed budget, to
        # the figure's rounding: 64.0 KB may be either side of 65536 bytes
        assert float(peak) <= 64.05 if word == "ok" else float(peak) >= 63.95
    names = numbers(r"of that, (\d+) names interned \(qstrs\): their text ([\d.]+) KB, "
                    r"their pool entries ([\d.]+) KB \((\d+) bytes each\)", out)
    assert len(names) == 2, out
    for (n, text, entries, each), (_, work) in zip(names, parts):
        assert n > 0 and entries == pytest.approx(n * each / 1024, abs=0.051)
        assert text + entries < work


CHECKS = {"bench_sensors": check_sensors, "bench_display": check_display,
          "bench_radio": check_radio, "bench_app": check_app}


@pytest.mark.parametrize("name", ["bench_sensors", "bench_display", "bench_radio",
                                  "bench_app"])
def test_quick_bench_runs_to_the_end(name):
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / (name + ".py"))],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert len(proc.stdout.splitlines()) >= 3, proc.stdout
    CHECKS[name](proc.stdout)
