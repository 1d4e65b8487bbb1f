"""Boot the handheld: build the drivers `board` describes, then run the game.

A chip that does not answer is named, with its pins, on the console and on
the screen (when the screen works); the game goes on without it where it
can: no gyroscope -> joystick and buttons only; no radio -> no wireless.
"""
import gc
import sys
import time

_ERRORS = (OSError, ValueError, TypeError, IndexError, KeyError,
           AttributeError, MemoryError, ImportError)


def main():
    while True:
        import hw_setup
        a = hw_setup.build_app()
        sys.modules.pop("hw_setup", None)   # boot code out of the heap
        hw_setup = None
        gc.collect()
        if a is None:
            time.sleep_ms(5000)     # try the display again
            continue
        try:
            a.run()
        except _ERRORS as e:
            # a firmware fault: say so, then start again (the save resumes)
            print("gomoku: %r" % (e,))
            try:
                a.show_note("Error: %r. The game restarts." % (e,))
            except _ERRORS:
                time.sleep_ms(2000)
        a = None
        gc.collect()


if __name__ == "__main__":
    main()
