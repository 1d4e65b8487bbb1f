"""The simulator's clock, in microseconds.

Virtual by default: time moves only when the firmware sleeps or a bus
transfers bytes, so a headless run is exactly repeatable. `set_real(True)`
follows the wall clock instead (the interactive window).
"""
_now = 0
_real = False
_start = 0
_timers = []        # [due_us, seq, fn], kept sorted
_seq = 0
_hooks = []         # fn(now_us) after every advance (front ends pump here)
_depth = 0          # timers' fns running, one inside another's sleep


def _wall_us():
    import time
    return time.monotonic_ns() // 1000


def wall_sleep(s):
    """The host waits s seconds. host_sim.install() puts CPython's own
    time.sleep here before Device.run wraps time.sleep for the firmware
    (a sleep on this clock, which would call itself)."""
    import time
    time.sleep(s)


def set_real(real):
    """Follow the wall clock, or stop following it: either way the time
    goes on from where it is."""
    global _real, _start, _now
    if real and not _real:
        _start = _wall_us() - _now
    elif _real and not real:
        _now = now_us()
    _real = real


def now_us():
    if _real:
        return _wall_us() - _start
    return _now


def call_at(due_us, fn):
    """Run fn() once the clock reaches due_us (scripted events, radio air)."""
    global _seq
    _seq += 1
    _timers.append([due_us, _seq, fn])
    _timers.sort()


def add_hook(fn):
    _hooks.append(fn)


def remove_hook(fn):
    """Stop calling fn (a medium closed), however often it was added."""
    _hooks[:] = [h for h in _hooks if h != fn]


def advance_us(us):
    """Time passes (a sleep, a bus transfer); a real clock really waits.

    Timers due within the interval fire in order, each at its own time.
    """
    global _now
    if us < 0:
        us = 0
    if _real:
        wall_sleep(us / 1000000)
        end = now_us()
    else:
        end = _now + us
    _fire(end)
    if not _real and end > _now:
        _now = end
    for fn in _hooks:
        fn(now_us())


def read_us():
    """The clock as the firmware reads it (time.ticks_us and the rest).

    On the wall clock the timers due by now fire first: the time runs on
    while the firmware computes, and a firmware must not read a time whose
    events (a packet's arrival, a script's next step) have not happened."""
    if _real:
        _fire(now_us())
    return now_us()


def _fire(end):
    global _now, _depth
    while _timers and _timers[0][0] <= end:
        due, _, fn = _timers.pop(0)
        if not _real and due > _now:
            _now = due
        _depth += 1
        try:
            fn()
        finally:
            _depth -= 1


def in_timer():
    """True while a timer's fn runs: a simulated peer's code, a radio's
    air, a script's event. Sleeps there are not the firmware's own."""
    return _depth > 0


def reset(us=0):
    global _now, _start
    _now = us
    if _real:
        _start = _wall_us() - us
    del _timers[:]
    del _hooks[:]
