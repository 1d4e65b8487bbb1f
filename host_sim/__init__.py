"""The desktop simulator: the handheld's chips modelled from their datasheets.

`install()` (CPython) makes the firmware run unchanged: host_sim/shims and
host_sim/chips (the chip models, flat like the firmware) first
on sys.path (machine), MicroPython's `time` extras added to CPython's `time`,
a `micropython` module, `sys.print_exception`, and the firmware's flat /lib path behind them.
Everything under shims/ and chips/ also runs on the MicroPython unix port.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHIMS = os.path.join(ROOT, "host_sim", "shims")
# the longest a script (or --until) may run on the device clock: a game
# takes minutes, and a mistyped time would keep a headless run busy for ever
DAY_MS = 24 * 3600 * 1000
CHIPS = os.path.join(ROOT, "host_sim", "chips")
FIRMWARE_PATH = [os.path.join(ROOT, *p) for p in (
    ("firmware", "engine"), ("firmware", "drivers"), ("firmware", "app"),
    ("firmware",), ("boards",))]

_installed = False


def install():
    """Idempotent: prepare this CPython process to run the firmware."""
    global _installed
    if _installed:
        return
    for p in reversed([SHIMS, CHIPS] + FIRMWARE_PATH):
        if p in sys.path:
            sys.path.remove(p)
        sys.path.insert(0, p)
    import time
    import sim_clock
    from host_sim import micropython_cpython
    sys.modules.setdefault("micropython", micropython_cpython)
    sim_clock.wall_sleep = time.sleep   # the host's, whoever wraps it later
    shim = _load_shim_time()
    for name in ("ticks_ms", "ticks_us", "ticks_cpu", "ticks_add",
                 "ticks_diff", "sleep_ms", "sleep_us"):
        setattr(time, name, getattr(shim, name))
    if not hasattr(sys, "print_exception"):   # MicroPython's, on CPython
        sys.print_exception = _print_exception
    # MicroPython's name for the same module; the firmware may use either.
    sys.modules.setdefault("utime", time)
    sim_clock.reset()
    _installed = True


def save_screen(device, folder):
    """Save the device's screen as the first free screen-NNN.png in
    folder; return its path. An earlier session's shots, and those of a
    second simulator saving there (make sim-pair), are kept."""
    n = 1
    while True:
        path = os.path.join(folder, "screen-%03d.png" % n)
        try:
            open(path, "x").close()     # the name is ours before we write
        except FileExistsError:
            n += 1
        else:
            return device.screenshot(path)


def _load_shim_time():
    # shims/time.py cannot be imported as `time` on CPython (built in), so
    # load it under another name.
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "_sim_time", os.path.join(SHIMS, "time.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _print_exception(exc, file=None):
    import traceback
    traceback.print_exception(type(exc), exc, exc.__traceback__,
                              file=sys.stdout if file is None else file)
