"""MicroPython's `time` for the unix port under host_sim: the virtual clock.

(CPython's `time` is built in and cannot be shadowed; host_sim.install()
adds the same functions to it instead.)
"""
import sim_clock

_PERIOD = 1 << 30


def _int(v):
    # MicroPython takes no float where these want an int
    if not isinstance(v, int):
        raise TypeError("can't convert %s to int" % type(v).__name__)
    return v


def ticks_us():
    return sim_clock.read_us() % _PERIOD


def ticks_ms():
    return (sim_clock.read_us() // 1000) % _PERIOD


def ticks_cpu():
    return ticks_us()


def ticks_add(ticks, delta):
    # as MicroPython: only what ticks_diff can tell back
    if not -_PERIOD // 2 < _int(delta) < _PERIOD // 2:
        raise OverflowError("ticks interval overflow")
    return (_int(ticks) + delta) % _PERIOD


def ticks_diff(end, start):
    d = (_int(end) - _int(start)) % _PERIOD
    if d >= _PERIOD // 2:
        d -= _PERIOD
    return d


def sleep_us(us):
    sim_clock.advance_us(_int(us))


def sleep_ms(ms):
    sim_clock.advance_us(_int(ms) * 1000)


def sleep(s):
    sim_clock.advance_us(int(s * 1000000))


def time():
    return 1700000000 + sim_clock.now_us() // 1000000


def time_ns():
    return (1700000000 * 1000000 + sim_clock.now_us()) * 1000
