"""`make sim-pair` for real: two `python -m host_sim` processes on the wall
clock, their radios sharing the air over UDP on 127.0.0.1, driven through
the menu by button scripts only: one hosts (a pygame window on SDL's dummy
driver), the other joins (headless: --udp puts it on the wall clock too);
they pair (the same code on both screens) and play a game to the end,
and each screen (the PNGs the scripts take) shows the other's stones."""
import os
import subprocess
import sys


import host_sim

host_sim.install()

import board_view as bv  # noqa: E402
import lcd_base  # noqa: E402
from host_sim.device import rgb888  # noqa: E402
from host_sim.terminal import read_text  # noqa: E402
from multitest import free_ports  # noqa: E402
from PIL import Image  # noqa: E402

BLACK = [7 * 15 + x for x in (7, 6, 5, 4, 3)]     # the host's row: five
WHITE = [8 * 15 + x for x in (7, 6, 5, 4)]        # the joiner's, below it
HOLD = 150          # ms a button is held: real time, so be generous
GAP = 300


def menu_to_wireless():
    """From power-on to the host/join question, on the menu's defaults
    (Start selected, mode vs AI): X to Mode, A twice (2 players, Wireless),
    X three times (Rule, Black, Start), A."""
    lines = ["at 1500"]
    for key in ("menu", "place", "place", "menu", "menu", "menu", "place"):
        lines += ["tap %s %d" % (key, HOLD), "wait %d" % GAP]
    return lines


def scripts(t0=6000, every=1000):
    """Host is black: centre, then a step left before each move; the
    joiner steps down once, then places and steps left. Moves alternate
    every `every` ms from t0, so each waits for the other's to arrive."""
    host = menu_to_wireless() + ["wait 400", "tap place %d" % HOLD,
                                 "at %d" % (t0 - 700), "shot host-paired.png",
                                 "at %d" % t0, "tap place %d" % HOLD]
    join = menu_to_wireless() + ["wait 400", "tap back %d" % HOLD,
                                 "at %d" % (t0 - 700), "shot join-paired.png",
                                 "at %d" % (t0 - 500), "tap down %d" % HOLD]
    t = t0
    for _ in WHITE:
        t += every
        join += ["at %d" % t, "tap place %d" % HOLD, "wait %d" % GAP,
                 "tap left %d" % HOLD]
        t += every
        host += ["at %d" % (t - 2 * GAP), "tap left %d" % HOLD,
                 "wait %d" % GAP, "tap place %d" % HOLD]
    t += every + 500
    host += ["at %d" % t, "shot host.png"]
    join += ["at %d" % t, "shot join.png"]
    return "\n".join(host) + "\n", "\n".join(join) + "\n"


def stones(png):
    """(black, white) points read off a screenshot at the stones' centres
    (a little below: the last-move mark sits in the middle)."""
    class Glass:
        width = height = 240
    view = bv.BoardView(Glass(), lcd_base.FONT_W, lcd_base.FONT_H)
    im = Image.open(png).convert("RGB")
    black, white = [], []
    for i in range(225):
        x, y = view.center(i)
        c = im.getpixel((x, y + view.radius // 2 + 1))
        if c == rgb888(bv.BLACK):
            black.append(i)
        elif c == rgb888(bv.WHITE):
            white.append(i)
    return sorted(black), sorted(white), im.getpixel((1, 1))


def test_two_simulators_pair_over_udp_and_play_to_the_end(tmp_path):
    host_script, join_script = scripts()
    (tmp_path / "host.txt").write_text(host_script)
    (tmp_path / "join.txt").write_text(join_script)
    # an earlier run chose Wireless: its remembered menu would turn the
    # host's script into a 2-player game on one device; --erase forgets it
    stale = tmp_path / "flash-a"
    stale.mkdir()
    (stale / "gomoku.cfg").write_bytes(bytes((0xA7, 2, 1, 0, 0, 3)))
    pa, pb = free_ports(2)
    env = dict(os.environ, SDL_VIDEODRIVER="dummy",
               PYGAME_HIDE_SUPPORT_PROMPT="1")
    common = [sys.executable, "-m", "host_sim", "--erase",
              "--shots", str(tmp_path / "shots")]
    procs = [
        subprocess.Popen(common + ["--window", "--script",
                                   str(tmp_path / "host.txt"),
                                   "--udp", str(pa), "--peer", str(pb),
                                   "--flash", str(tmp_path / "flash-a")],
                         cwd=host_sim.ROOT, env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True),
        subprocess.Popen(common + ["--headless", "--script",
                                   str(tmp_path / "join.txt"),
                                   "--udp", str(pb), "--peer", str(pa),
                                   "--flash", str(tmp_path / "flash-b")],
                         cwd=host_sim.ROOT, env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)]
    try:
        for p in procs:
            out, err = p.communicate(timeout=90)
            assert p.returncode == 0, err[-3000:]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    shots = tmp_path / "shots"
    # both screens show the same pairing code, and the link paired
    codes = []
    for png in ("host-paired.png", "join-paired.png"):
        im = Image.open(shots / png).convert("RGB")
        lines = [t[2] for t in read_text(im.tobytes(), im.width, im.height)]
        link = [t for t in lines if t.startswith("Code ")]
        assert link and link[0].endswith("paired"), (png, lines)
        codes.append(link[0].split()[1])
    assert codes[0] == codes[1] and len(codes[0]) == 4
    for png in ("host.png", "join.png"):
        black, white, corner = stones(shots / png)
        assert black == sorted(BLACK), png
        assert white == sorted(WHITE), png
        assert corner == rgb888(bv.BANNER), png     # the winner's banner
