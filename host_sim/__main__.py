"""Run the handheld's firmware on the simulated board.

    python -m host_sim [--board sim] [--window | --terminal | --headless]
                       [--script FILE] [--until MS] [--shots DIR]
                       [--trace FILE] [--flash DIR] [--erase] [--scale N]
                       [--realtime]
                       [--udp PORT --peer PORT ...]

With no front end named: a pygame window when a display is there, else the
terminal view; with neither, it stops and says so (--headless needs
--script or --until: it has no keys to read). Headless runs play the
script on the virtual clock as fast as the host allows (exactly repeatable);
the window and terminal run in real time, and so does headless with
--realtime or --udp: two simulators sharing the air over UDP must both
follow the wall clock, or one's packets reach the other in its past or
future. The script format is in the README ("Headless scripts"); --trace
writes every SPI/I2C transaction as a JSON line.
"""
import argparse
import os
import sys

import host_sim

ROOT = host_sim.ROOT


def board_module(name):
    host_sim.install()
    have = sorted(f[6:-3] for f in os.listdir(os.path.join(host_sim.ROOT,
                                                           "boards"))
                  if f.startswith("board_") and f.endswith(".py"))
    if name not in have:
        raise SystemExit("no board %r (have: %s)" % (name, ", ".join(have)))
    return __import__("board_" + name)     # its own errors, as they are


def port(text):
    n = int(text)
    if not 1 <= n <= 65535:
        raise argparse.ArgumentTypeError("%s is not a UDP port (1-65535)"
                                         % text)
    return n


def at_least(least, what, most=None):
    """An argparse type: an int of at least `least` (and at most `most`)."""
    def number(text):
        try:
            n = int(text)
        except ValueError:
            n = None
        if n is None or n < least or most is not None and n > most:
            raise argparse.ArgumentTypeError(
                "%s is not %s (a whole number, at least %d%s)" % (
                    text, what, least, "" if most is None else ", at most %d" % most))
        return n
    return number


def parse(argv):
    p = argparse.ArgumentParser(
        prog="python -m host_sim", description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n")[2],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--board", default="sim",
                   help="boards/board_<NAME>.py (default: sim)")
    ui = p.add_mutually_exclusive_group()
    ui.add_argument("--window", action="store_true", help="pygame window")
    ui.add_argument("--terminal", action="store_true",
                    help="truecolour half-blocks in this terminal")
    ui.add_argument("--headless", action="store_true",
                    help="no view: play --script on the virtual clock "
                         "(or the wall clock: --realtime)")
    p.add_argument("--script", help="events to play: timed, or awaiting text on the screen "
                        "(README, \"Headless scripts\")")
    p.add_argument("--until", type=at_least(0, "a time in ms", host_sim.DAY_MS), metavar="MS",
                   help="stop after MS of simulated time")
    p.add_argument("--shots", metavar="DIR", default=None,
                   help="where screenshots go (default: current dir)")
    p.add_argument("--trace", metavar="FILE",
                   help="bus trace: one JSON line per SPI/I2C transaction")
    p.add_argument("--flash", metavar="DIR",
                   help="the device's flash (save files), for one "
                        "simulator at a time; default build/flash-<board> "
                        "(build/flash-<board>-<port> with --udp)")
    p.add_argument("--erase", action="store_true",
                   help="start from an empty flash: remove the firmware's "
                        "files (gomoku.*) from the flash dir first, so a "
                        "script meets the menu's defaults, not the choices "
                        "and games an earlier run left there")
    p.add_argument("--scale", type=at_least(1, "a zoom"), default=2,
                   help="window zoom")
    p.add_argument("--realtime", action="store_true",
                   help="headless on the wall clock (script times are real "
                        "milliseconds); implied by --udp")
    p.add_argument("--udp", type=port, metavar="PORT",
                   help="radio: share the air with other simulators over "
                        "UDP on 127.0.0.1, listening on PORT")
    p.add_argument("--peer", type=port, action="append", default=[],
                   metavar="PORT", help="radio: another simulator's --udp "
                                        "port (repeatable)")
    return p.parse_args(argv)


def erase(flash):
    """Remove the firmware's files (settings, saved game, saved match and
    their temporaries) from a flash dir; nothing else there is touched."""
    if not os.path.isdir(flash):
        return
    for name in os.listdir(flash):
        path = os.path.join(flash, name)
        if name.startswith("gomoku.") and os.path.isfile(path):
            os.remove(path)


def hold_flash(flash):
    """Lock the flash folder for this process (the lock goes with it): two
    simulators on one folder would overwrite each other's saves."""
    import fcntl
    f = open(os.path.join(flash, ".host_sim.lock"), "w")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.close()
        raise SystemExit("--flash %s: another simulator is using it (give "
                         "each its own --flash DIR)" % flash) from None
    return f


def choose(args):
    if args.window:
        return "window"
    if args.terminal:
        return "terminal"
    if args.headless:
        return "headless"
    from host_sim import window
    if window.display_available():
        try:
            import pygame  # noqa: F401
            return "window"
        except ImportError:
            pass
    if sys.stdin.isatty() and sys.stdout.isatty():
        return "terminal"
    return "headless"


def main(argv=None):
    args = parse(sys.argv[1:] if argv is None else argv)
    board = board_module(args.board)
    from host_sim import device
    script = None
    if args.script:
        try:
            script = device.Script.load(args.script)
        except (OSError, device.ScriptError) as e:
            raise SystemExit("script: %s" % e)
    mode = choose(args)
    if mode == "headless" and script is None and args.until is None:
        raise SystemExit(
            "headless needs --script FILE or --until MS" if args.headless else
            "no display and no terminal to draw on: run it in a terminal "
            "(or pass --terminal), or --headless with --script FILE or --until MS")
    if args.peer and args.udp is None:
        raise SystemExit("--peer needs --udp PORT")
    # a handheld of its own for each simulator of a UDP pair
    flash = args.flash or os.path.join(ROOT, "build", "flash-" + board.NAME + (
        "" if args.udp is None else "-%d" % args.udp))
    shots = os.path.abspath(args.shots or ".")
    for opt, path in (("--shots", shots), ("--flash", flash)):
        try:
            os.makedirs(path, exist_ok=True)
        except FileExistsError:
            raise SystemExit("%s %s: a file, not a folder" % (opt, path)) from None
        except OSError as e:
            raise SystemExit("%s %s: %s" % (opt, path, e.strerror or e))
    lock = hold_flash(flash)
    try:
        return run(args, board, script, mode, flash, shots)
    finally:
        lock.close()


def run(args, board, script, mode, flash, shots):
    """The simulator, its arguments checked and its flash folder held."""
    from host_sim import device
    medium = None
    if args.udp is not None:
        from host_sim import radio_medium
        try:
            medium = radio_medium.UdpMedium(args.udp, args.peer)
        except OSError as e:
            raise SystemExit("--udp %d: %s (another simulator still running "
                             "on it?)" % (args.udp, e.strerror or e))
    if args.erase:
        erase(flash)
    dev = device.Device(board, os.path.abspath(flash), medium=medium)
    if args.udp is not None:        # two chips of one make differ in theirs
        import machine
        machine.set_unique_id(b"SIMUDP" + args.udp.to_bytes(2, "big"))
    dev.shots_dir = shots       # a script's `shot` lands here in every view
    if args.trace:
        try:
            dev.trace_to(os.path.abspath(args.trace))
        except OSError as e:
            dev.close()
            raise SystemExit("--trace %s: %s" % (args.trace, e.strerror or e))
    try:
        if mode == "headless":
            if args.realtime or medium is not None:
                import sim_clock
                sim_clock.set_real(True)
            end = dev.run(script, until_ms=args.until, shots_dir=shots)
            print("ran %d ms of device time; %d screenshot(s)%s" % (
                end, len(dev.shots),
                "".join("\n  " + s for s in dev.shots)))
        elif mode == "terminal":
            from host_sim import terminal
            view = terminal.TerminalView(dev, shots_dir=shots)
            if args.until is not None:
                dev.schedule(device.Script([(args.until, "end")]))
            view.run(script)
        else:
            from host_sim import window
            try:
                view = window.WindowView(dev, scale=args.scale,
                                         shots_dir=shots)
            except Exception as e:      # pygame.error: no usable display
                if args.window or not sys.stdin.isatty():
                    raise SystemExit("no window: %s" % e)
                print("no window (%s): using the terminal" % e)
                from host_sim import terminal
                view = terminal.TerminalView(dev, shots_dir=shots)
            if args.until is not None:
                dev.schedule(device.Script([(args.until, "end")]))
            view.run(script)
    except KeyboardInterrupt:
        pass
    except device.ScriptError as e:
        raise SystemExit("script: %s" % e)
    finally:
        dev.close()
        if medium is not None:
            medium.close()
    for e in (dev.lcd.errors if dev.lcd else [])[:5]:
        print("lcd:", e, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
