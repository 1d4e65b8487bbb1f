"""For scripts on the MicroPython unix port: an AI move with the heap locked.

Any allocation during the move raises MemoryError, so a script that
completes proves the move allocated nothing.
"""
import micropython

import ai


def locked(g, level=1):
    micropython.heap_lock()
    try:
        return ai.best_move(g, level)
    finally:
        micropython.heap_unlock()


def locked_forbidden(g, out):
    """out[p] = 1 where black may not play point p, 0 elsewhere: every
    point judged with the heap locked."""
    micropython.heap_lock()
    try:
        for p in range(225):
            out[p] = g.forbidden(p % 15, p // 15)
    finally:
        micropython.heap_unlock()
