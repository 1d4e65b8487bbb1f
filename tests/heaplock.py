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
