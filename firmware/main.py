"""Boot the handheld: build the drivers `board` describes, then run the game.

`board` is the board's pin map (boards/board_<name>.py copied as board.py);
hw_setup builds the drivers from it and is unloaded once they exist.

A chip that does not answer is named, with its pins, on the console and on
the screen (when the screen works); the game goes on without it where it
can: no gyroscope -> the joystick, or key steering on a board without one; no radio -> no wireless.
A firmware file missing or broken (a copy cut short) is named on the screen.
"""
import gc
import sys
import time

# On MicroPython a restart after a fault unloads every module loaded since
# boot: the phase that failed did not unload its own (app.py's phases)
_UNLOAD = sys.implementation.name == "micropython"

try:
    import board
except ImportError:
    board = None


def main():
    while board is None:
        print("gomoku: no board.py: copy boards/board_<name>.py to the "
              "device as board.py")
        time.sleep_ms(5000)
    boot = set(sys.modules)
    a = tilt = None
    while True:
        try:
            import hw_setup
            a = hw_setup.build_app()
            sys.modules.pop("hw_setup", None)   # boot code out of the heap
            hw_setup = None
            gc.collect()
            if a is None:
                time.sleep_ms(5000)     # try the display again
                continue
            tilt = a.controls.tilt
            a.run()
        except Exception as e:      # not KeyboardInterrupt: Ctrl-C reaches the REPL
            # a firmware fault, or a file missing: say so, then start again
            # (the save resumes)
            sys.print_exception(e)  # the traceback, with lines, on the console
            msg = "%s: %s" % (type(e).__name__, e)
            e = None                # the exception, and its frames, freed
            print("gomoku:", msg)
            # a gyro that stopped answering (controls drops it) is named
            # by the boot, with its pins, as the restart finds it missing
            if a is None or not tilt or a.controls.tilt:
                try:
                    show_note(a, msg)
                except Exception:
                    time.sleep_ms(2000)
            if _UNLOAD:
                for name in list(sys.modules):
                    if name not in boot:
                        del sys.modules[name]
        a = tilt = None
        gc.collect()


def show_note(a, msg):
    # in a frame of its own: a module main() named would stay on its stack
    if a is None or "named '" in msg or ".mpy" in msg:
        import hw_setup         # no app, or a firmware file missing or broken
        return hw_setup.fault(a, msg)
    import notes
    notes.show(a, "Error (%s). The game restarts." % msg)


if __name__ == "__main__":
    main()
