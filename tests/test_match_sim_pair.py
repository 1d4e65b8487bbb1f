"""`make sim-pair` for real: two `python -m host_sim` processes on the wall
clock, their radios sharing the air over UDP on 127.0.0.1, driven through
the menu by keys and buttons only; they pair (the same code on both
screens) and play, and each screen shows the other's stones.

- Two terminal views in pseudo-terminals, typed at like a person does:
  each key waits for the screen it should bring (the terminal writes the
  LCD's text as text), so a loaded machine makes the game slower, not
  wrong. A whole game to the winner; PNGs (the `p` key) checked by pixels.
- A pygame window (SDL's dummy driver) hosting and a headless process
  joining (--udp puts it on the wall clock), both on button scripts: the
  script's screenshots land in --shots, an earlier run's menu choices are
  forgotten with --erase."""
import os
import re
import shutil
import subprocess
import sys

import pytest

import host_sim

host_sim.install()

import board_view as bv  # noqa: E402
import lcd_base  # noqa: E402
from host_sim.device import rgb888  # noqa: E402
from host_sim.terminal import read_text  # noqa: E402
from multitest import free_ports  # noqa: E402
from term_screen import PtyRun, wait_all  # noqa: E402
from PIL import Image  # noqa: E402

BLACK = [7 * 15 + x for x in (7, 6, 5, 4, 3)]     # the host's row: five
WHITE = [8 * 15 + x for x in (7, 6, 5, 4)]        # the joiner's, below it
ENV = dict(os.environ, SDL_VIDEODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1",
           TERM="xterm-256color")
for _k in ("COLUMNS", "LINES"):
    ENV.pop(_k, None)


def stones(png):
    """(black, white, top-left pixel) read off a screenshot at the stones'
    centres (a little below: the last-move mark sits in the middle)."""
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


def screen_text(png):
    im = Image.open(png).convert("RGB")
    return [t[2] for t in read_text(im.tobytes(), im.width, im.height)]


def test_two_terminals_pair_over_udp_and_play_a_game(tmp_path):
    pa, pb = free_ports(2)
    host = PtyRun(["--terminal", "--erase", "--udp", str(pa), "--peer",
                   str(pb), "--flash", str(tmp_path / "fa"), "--shots",
                   str(tmp_path / "a")], env=ENV)
    join = PtyRun(["--terminal", "--erase", "--udp", str(pb), "--peer",
                   str(pa), "--flash", str(tmp_path / "fb"), "--shots",
                   str(tmp_path / "b")], env=ENV)
    both = (host, join)
    try:
        wait_all(both, ("> Start", "> Start"))
        for keys, want in ((b"m", "> Mode:  vs AI"),
                           (b"\r", "> Mode:  2 players"),
                           (b"\r", "> Mode:  Wireless"),
                           (b"m", "> Rule:"), (b"m", "> Black:"),
                           (b"m", "> Start"), (b"\r", "A: host a game")):
            for t in both:
                t.key(keys)
            wait_all(both, (want, want))
        host.key(b"\r")             # A: host
        join.key(b"\x7f")           # B: join
        a, b = wait_all(both, ("paired", "paired"))
        code = re.search(r"Code (\d{4})  paired", a).group(1)
        assert "Code %s  paired" % code in b
        for n in range(1, len(BLACK) + len(WHITE) + 1):
            mover = both[(n - 1) % 2]
            if n > 1:       # the joiner a row down first, then steps left
                mover.key(b"\x1b[B" if n == 2 else b"\x1b[D")
            mover.key(b"\r")   # taps keep their order (test_device)
            # the move is on both screens: the other's as it arrived (the
            # last one puts the winner where the move count was)
            if n < len(BLACK) + len(WHITE):
                wait_all(both, ("#%d" % n, "#%d" % n))
        wait_all(both, ("You win!", "The peer wins"))
        for t in both:
            t.key(b"p")
        wait_all(both, ("saved ", "saved "))
        for t, png in ((host, tmp_path / "a" / "screen-001.png"),
                       (join, tmp_path / "b" / "screen-001.png")):
            black, white, corner = stones(png)
            assert black == sorted(BLACK), png
            assert white == sorted(WHITE), png
            assert corner == rgb888(bv.BANNER), png
            t.key(b"q")
        for t in both:
            assert t.wait_exit() == 0, t.p.stderr.read()
    finally:
        for t in both:
            t.close()


# ---- the window and a headless process, on button scripts -----------------
HOLD = 150          # ms a button is held
GAP = 300


def menu_to_wireless():
    """From power-on to the host/join question, on the menu's defaults
    (Start selected, mode vs AI): X to Mode, A twice (2 players, Wireless),
    X three times (Rule, Black, Start), A."""
    lines = ["at 1500"]
    for key in ("menu", "place", "place", "menu", "menu", "menu", "place"):
        lines += ["tap %s %d" % (key, HOLD), "wait %d" % GAP]
    return lines


def scripts(moves=2):
    """Host is black: centre, then a step left before each move; the
    joiner steps down once, then places and steps left. Each waits for the
    screen: for the pairing, and for the other's move to arrive (the move
    count on the top line), however long the other process takes. An
    await is met as soon as its text is on the screen, and a line is drawn
    a glyph at a time on the simulated clock: the shots of the pairing
    await the whole link line, not "paired" alone (which caught it half
    drawn)."""
    paired = 'await "paired  Freestyle"'
    host = menu_to_wireless() + ["wait 400", "tap place %d" % HOLD,
                                 paired, "shot host-paired.png",
                                 "tap place %d" % HOLD]
    join = menu_to_wireless() + ["wait 400", "tap back %d" % HOLD,
                                 paired, "shot join-paired.png",
                                 "tap down %d" % HOLD]
    for k in range(moves):
        join += ["await \"#%d\"" % (2 * k + 1), "tap place %d" % HOLD,
                 "wait %d" % GAP, "tap left %d" % HOLD]
        host += ["await \"#%d\"" % (2 * k + 2), "tap left %d" % HOLD,
                 "wait %d" % GAP, "tap place %d" % HOLD]
    host += ["await \"#%d\"" % (2 * moves + 1), "wait %d" % GAP, "shot host.png"]
    join += ["await \"#%d\"" % (2 * moves + 1), "wait %d" % GAP, "shot join.png"]
    return "\n".join(host) + "\n", "\n".join(join) + "\n"


def test_window_hosts_headless_joins_on_scripts(tmp_path):
    moves = 2
    host_script, join_script = scripts(moves=moves)
    (tmp_path / "host.txt").write_text(host_script)
    (tmp_path / "join.txt").write_text(join_script)
    # an earlier run chose Wireless: its remembered menu would turn the
    # host's script into a 2-player game on one device; --erase forgets it
    stale = tmp_path / "flash-a"
    stale.mkdir()
    (stale / "gomoku.cfg").write_bytes(bytes((0xA7, 2, 1, 0, 0, 3)))
    pa, pb = free_ports(2)
    common = [sys.executable, "-m", "host_sim", "--erase",
              "--shots", str(tmp_path / "shots")]
    procs = [
        subprocess.Popen(common + ["--window", "--script",
                                   str(tmp_path / "host.txt"),
                                   "--udp", str(pa), "--peer", str(pb),
                                   "--flash", str(tmp_path / "flash-a")],
                         cwd=host_sim.ROOT, env=ENV, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True),
        subprocess.Popen(common + ["--headless", "--script",
                                   str(tmp_path / "join.txt"),
                                   "--udp", str(pb), "--peer", str(pa),
                                   "--flash", str(tmp_path / "flash-b")],
                         cwd=host_sim.ROOT, env=ENV, stdin=subprocess.DEVNULL,
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
    codes = []
    for png in ("host-paired.png", "join-paired.png"):
        lines = screen_text(shots / png)
        link = [t for t in lines if t.startswith("Code ")]
        # both name the host's rule (freestyle) until the peer has moved
        assert link and link[0].endswith("paired  Freestyle"), (png, lines)
        codes.append(link[0].split()[1])
    assert codes[0] == codes[1]
    for png in ("host.png", "join.png"):
        black, white, _ = stones(shots / png)
        assert black == sorted(BLACK[:moves + 1]), png
        assert white == sorted(WHITE[:moves]), png


# ---- make sim-pair-tmux: tmux named, and a window of its own inside tmux ----

def make_sim_pair_tmux(env):
    """The target with only the tools on env's PATH (the venv taken as made)."""
    return subprocess.run([shutil.which("make"), "-s", "-o", ".venv/.installed",
                           "sim-pair-tmux"], cwd=host_sim.ROOT, env=env,
                          capture_output=True, text=True)


@pytest.mark.parametrize("inside", (False, True))
def test_make_sim_pair_tmux_opens_both_terminals_in_tmux(tmp_path, inside):
    """Inside tmux, `tmux new-session` refuses to nest ("sessions should be
    nested with care"): there the pair opens in a new window."""
    tmux = tmp_path / "tmux"
    tmux.write_text('#!/bin/sh\nprintf "%%s\\n" "$@" > %s\n' % (tmp_path / "args"))
    tmux.chmod(0o755)
    env = {"PATH": str(tmp_path)}
    if inside:
        env["TMUX"] = "/tmp/tmux-0/default,1,0"
    proc = make_sim_pair_tmux(env)
    assert proc.returncode == 0, proc.stderr
    args = (tmp_path / "args").read_text().splitlines()
    assert args[0] == ("new-window" if inside else "new-session")
    assert args[2:4] == [";", "split-window"]
    panes = (args[1], args[5])
    for port, peer, flash in ((47101, 47102, "a"), (47102, 47101, "b")):
        assert ("-m host_sim --terminal --udp %d --peer %d --flash "
                "build/flash-pair-%s" % (port, peer, flash)) in panes[flash == "b"]


def test_make_sim_pair_tmux_without_tmux_says_to_install_it(tmp_path):
    proc = make_sim_pair_tmux({"PATH": str(tmp_path)})
    assert proc.returncode != 0
    assert "sim-pair-tmux: needs tmux (apt-get install tmux)" in proc.stderr
