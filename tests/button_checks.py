"""Button checks that run unchanged on CPython (pytest) and on the
MicroPython unix port: firmware/drivers/buttons.py against the button pad
model (pins pulled up, pressed to ground, bounce in simulated time).

Every `btn_*` function starts a fresh board and raises AssertionError on a
failure; `run()` runs them all and prints one line per check.
"""
import machine
import sim_clock
import time

import button_model
import buttons

PINS = {"place": 15, "back": 17, "menu": 19, "up": 2}


def fresh(start_us=0):
    machine.forget_all()
    sim_clock.reset(start_us)
    return button_model.ButtonPad(PINS), buttons.Buttons(PINS, debounce_ms=20)


def poll_for(keys, ms, step_ms=1):
    """Poll every step_ms for ms; return [(t_ms, name)] of reported presses."""
    events = []
    for _ in range(ms // step_ms):
        now = time.ticks_ms()
        name = keys.poll(now)
        if name is not None:
            events.append((now, name))
        time.sleep_ms(step_ms)
    return events


def btn_pins_are_pulled_up_inputs():
    pad, keys = fresh()
    for pin in PINS.values():
        assert machine.pin_level(pin) == 1, pin
        assert machine._pulls.get(pin) == machine.Pin.PULL_UP, pin
    assert poll_for(keys, 50) == []
    assert not keys.is_down("place")


def btn_held_press_gives_one_edge():
    pad, keys = fresh()
    t0 = time.ticks_ms()
    pad.press("place")
    ev = poll_for(keys, 300)
    assert [n for _, n in ev] == ["place"], ev
    assert time.ticks_diff(ev[0][0], t0) == 20, ev     # stable for 20 ms
    assert keys.is_down("place") and not keys.is_down("back")
    pad.release("place")
    assert poll_for(keys, 100) == []
    assert not keys.is_down("place")


def btn_bouncing_press_gives_one_edge():
    pad, keys = fresh()
    t0 = time.ticks_ms()
    pad.press("place", bounce_ms=2)
    ev = poll_for(keys, 200)
    assert [n for _, n in ev] == ["place"], ev
    assert time.ticks_diff(ev[0][0], t0) == 22, ev     # 2 ms chatter + 20
    pad.release("place", bounce_ms=2)
    assert poll_for(keys, 100) == []                    # release bounce: no press
    assert not keys.is_down("place")


def btn_two_ms_glitch_is_ignored():
    pad, keys = fresh()
    pad.tap("back", hold_ms=2)
    assert poll_for(keys, 100) == []
    assert not keys.is_down("back")
    pad.tap("back", hold_ms=19)                         # just short of stable
    assert poll_for(keys, 100) == []
    pad.tap("back", hold_ms=40)
    assert [n for _, n in poll_for(keys, 100)] == ["back"]


def btn_each_press_counts_once():
    pad, keys = fresh()
    for _ in range(3):
        pad.tap("menu", hold_ms=50, bounce_ms=2)
        ev = poll_for(keys, 120)
        assert [n for _, n in ev] == ["menu"], ev


def btn_simultaneous_presses_come_one_per_poll():
    pad, keys = fresh()
    pad.press("place")
    pad.press("up")
    time.sleep_ms(25)
    now = time.ticks_ms()
    first = keys.poll(now)          # sees both change; not stable yet
    assert first is None
    time.sleep_ms(25)
    now = time.ticks_ms()
    got = [keys.poll(now), keys.poll(now), keys.poll(now)]
    assert sorted(got[:2]) == ["place", "up"] and got[2] is None, got


def btn_clear_forgets_presses_not_yet_reported():
    # two pressed together: the first is reported, the other waits for the
    # next poll; clear() (after a long AI move) drops it
    pad, keys = fresh()
    pad.press("place")
    pad.press("up")
    keys.poll(time.ticks_ms())
    time.sleep_ms(25)
    now = time.ticks_ms()
    assert keys.poll(now) in ("place", "up")
    keys.clear()
    assert keys.poll(now) is None
    assert poll_for(keys, 50) == []                 # still held: no new press
    assert keys.is_down("place") and keys.is_down("up")


def btn_clear_takes_the_buttons_as_they_are():
    # no polls for 200 ms (a slow redraw) while place is let go: after
    # clear() a new press counts at once; one pressed in the spell and
    # held through clear() counts only once released and pressed again
    pad, keys = fresh()
    pad.press("place")
    assert [n for _, n in poll_for(keys, 30)] == ["place"]
    time.sleep_ms(50)
    pad.release("place")
    pad.press("back")
    time.sleep_ms(150)
    keys.clear()
    assert not keys.is_down("place") and keys.is_down("back")
    pad.press("place")
    assert [n for _, n in poll_for(keys, 30)] == ["place"]
    pad.release("back")
    assert poll_for(keys, 30) == []
    pad.press("back")
    assert [n for _, n in poll_for(keys, 30)] == ["back"]


def btn_is_down_is_the_debounced_state():
    # a press counts as down once stable for debounce_ms, a glitch never,
    # and a release only once stable too
    pad, keys = fresh()
    pad.tap("back", hold_ms=5)
    time.sleep_ms(2)
    keys.poll(time.ticks_ms())                      # the pin reads low here
    assert not keys.is_down("back")
    pad.press("place", bounce_ms=2)
    for _ in range(15):
        keys.poll(time.ticks_ms())
        assert not keys.is_down("place")
        time.sleep_ms(1)
    poll_for(keys, 30)
    assert keys.is_down("place")
    pad.release("place")
    keys.poll(time.ticks_ms())
    assert keys.is_down("place")                    # not yet stable
    poll_for(keys, 30)
    assert not keys.is_down("place")


def btn_is_held_ends_at_the_first_poll_that_reads_it_up():
    # what a repeat or a long press asks: a button let go is no longer
    # held from the poll that reads it up, before its release is stable
    pad, keys = fresh()
    pad.press("place")
    poll_for(keys, 30)
    assert keys.is_down("place") and keys.is_held("place")
    pad.release("place")
    assert keys.is_held("place")                    # not read up yet
    keys.poll(time.ticks_ms())
    assert keys.is_down("place") and not keys.is_held("place")
    poll_for(keys, 30)
    assert not keys.is_down("place") and not keys.is_held("place")


def btn_held_at_start_is_not_a_press():
    machine.forget_all()
    sim_clock.reset()
    pad = button_model.ButtonPad(PINS)
    pad.press("place")
    keys = buttons.Buttons(PINS)
    assert keys.is_down("place")
    assert poll_for(keys, 100) == []
    pad.release("place")
    poll_for(keys, 50)
    pad.press("place")
    assert [n for _, n in poll_for(keys, 50)] == ["place"]


def btn_debounce_across_tick_wraparound():
    # ticks_ms wraps at 2**30 on MicroPython: start 10 ms before the wrap
    pad, keys = fresh(((1 << 30) - 10) * 1000)
    assert time.ticks_ms() == (1 << 30) - 10
    pad.press("place")
    ev = poll_for(keys, 60)
    assert [n for _, n in ev] == ["place"] and ev[0][0] == 10, ev


def btn_unknown_name_is_a_clear_error():
    pad, keys = fresh()
    for fn in (lambda: keys.is_down("fire"), lambda: pad.press("fire")):
        try:
            fn()
        except ValueError as e:
            msg = str(e)
            assert "fire" in msg and "place" in msg, msg
            continue
        raise AssertionError("no ValueError")
    try:
        buttons.Buttons({})
    except ValueError:
        pass
    else:
        raise AssertionError("empty button map accepted")


def btn_poll_allocates_nothing():
    import micropython
    pad, keys = fresh()
    pad.press("back")
    now = time.ticks_ms()
    keys.poll(now)
    later = now + 30
    micropython.heap_lock()
    try:
        a = keys.poll(later)
        b = keys.poll(later)
        down = keys.is_down("back")
    finally:
        micropython.heap_unlock()
    assert a == "back" and b is None and down, (a, b, down)


def btn_model_bounce_chatters_then_settles():
    """The pad model itself: a bouncing contact changes level many times
    within bounce_ms, then stays closed; is_pressed follows the pin."""
    pad, keys = fresh()
    edges = []
    machine.watch_pin(PINS["place"], edges.append)
    pad.press("place", bounce_ms=2)
    assert pad.is_pressed("place")
    time.sleep_ms(3)
    assert pad.is_pressed("place") and len(edges) >= 5 and edges[-1] == 0, \
        edges
    pad.release("place")
    assert not pad.is_pressed("place") and edges[-1] == 1


def names():
    return sorted(n for n in globals() if n.startswith("btn_"))


def run():
    for n in names():
        globals()[n]()
        print("ok", n)
