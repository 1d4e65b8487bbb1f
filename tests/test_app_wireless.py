"""A wireless match from the handheld's menu: the device (host_sim Device,
its firmware driven by buttons only) hosts, a second radio on the same
simulated medium joins with match.Match and plays back; the device's screen
and the peer's game must agree, to the winner banner; a reset mid-match
resumes it from the saved snapshot."""
import os
import pytest

import host_sim

host_sim.install()

import time  # noqa: E402
import sim_clock  # noqa: E402
import board_sim  # noqa: E402
import board_view as bv  # noqa: E402
from host_sim import match as H  # noqa: E402
from app_script import (SCATTER, Script, band, layout, run_device,  # noqa: E402
                        screen_text, stone_point)

VIEW = layout(board_sim)


class Peer:
    """The other handheld: a Match on its own radio, polled every 10 ms,
    answering each move after 60 ms with the first free SCATTER point."""

    def __init__(self, medium):
        self.node = H.Node(1, medium)
        self.m = None
        self.due = None
        sim_clock.call_at(sim_clock.now_us() + 300000, self.tick)

    def tick(self):
        import match
        now = time.ticks_ms()
        if self.m is None:
            self.m = match.Match(self.node.radio, host=False, seed=77,
                                 now_ms=now)
        m = self.m
        while m.poll(now) is not None:
            pass
        if m.my_turn():
            if self.due is None:
                self.due = now + 60
            elif time.ticks_diff(now, self.due) >= 0:
                g = m.game
                p = [i for i in SCATTER if not g.stone(i % 15, i // 15)][0]
                m.send_move(p % 15, p // 15)
                self.due = None
        sim_clock.call_at(sim_clock.now_us() + 10000, self.tick)


def to_host_or_join(s, steps=2):
    """From the start menu: Mode stepped `steps` times to Wireless (2 from
    vs AI, 1 from 2 players), Start: the screen that asks A: host, B: join."""
    s.tap("menu")           # Mode
    for _ in range(steps):
        s.tap("place")      # (2 players) Wireless
    for _ in range(3):
        s.tap("menu")       # Rule, Black, Start
    s.tap("place")
    s.wait(200)


def start_hosting(s, steps=2):
    """to_host_or_join, then A: host; the peer joins."""
    to_host_or_join(s, steps)
    s.tap("place")          # A: host
    s.wait(1500)            # the peer joins


def won_match(s):
    """Host and win: the end screen."""
    start_hosting(s)
    for i in [7 * 15 + x for x in range(3, 8)]:
        s.place(i)
        s.wait(400)


def board_of(snap):
    return [1 if p == bv.BLACK else 2 if p == bv.WHITE else 0 for p in snap]


def test_hosted_match_to_the_winner(flash):
    from host_sim import device
    dev = device.Device(board_sim, str(flash))
    peer = Peer(dev.medium)
    s = Script()
    start_hosting(s)
    s.snap("paired", [(x, VIEW.message.y + y) for x in range(0, 240, 2)
                      for y in range(VIEW.message.h)])
    row = [7 * 15 + x for x in range(3, 8)]
    for i in row:
        s.place(i)
        s.wait(400)
    s.snap("end", [stone_point(VIEW, i) for i in range(225)])
    s.snap("end:bg", [(VIEW.origin(i)[0] + 1, VIEW.origin(i)[1] + 1)
                      for i in range(225)])
    s.snap("banner", [(1, 1)])
    snaps = run_device(board_sim, s.end(), str(flash), dev=dev).snaps
    m = peer.m
    assert m.code is not None and m.my_colour == 2
    # the five is highlighted, and nothing else
    assert [i for i in range(225) if snaps["end:bg"][i] == bv.WIN] == row
    assert bv.TEXT in snaps["paired"]          # the code and link state
    want = [0] * 225
    for k in range(m.count):
        want[m.moves[k]] = 1 + (k & 1)
    assert board_of(snaps["end"]) == want
    assert all(want[i] == 1 for i in row) and m.game.winner == 1
    assert snaps["banner"] == [bv.BANNER]


def test_a_match_starts_with_the_cursor_on_the_centre(flash):
    """As every new game does: not where the last game at the menu left it."""
    from host_sim import device
    dev = device.Device(board_sim, str(flash))
    Peer(dev.medium)
    s = Script()
    s.start_two_players()
    s.place(0)                  # the top left corner
    for _ in range(4):
        s.tap("menu")           # Paused: Resume, Undo, New game, Main menu
    s.tap("place")
    s.wait(300)
    start_hosting(s, steps=1)
    s.snap("match", [VIEW.origin(i) for i in range(225)])
    snaps = run_device(board_sim, s.end(), str(flash), dev=dev).snaps
    assert [i for i in range(225) if snaps["match"][i] == bv.CURSOR] == [7 * 15 + 7]


def test_every_refusal_shows_until_the_next_key(flash):
    """A second warning (B again, A on a taken point) was drawn over by the
    link line within a poll: the key that cleared the first made the link
    line due again, and the new warning did not hold it back."""
    from host_sim import device
    dev = device.Device(board_sim, str(flash))
    Peer(dev.medium)
    line = band(VIEW.message.y, VIEW.message.h)
    s = Script()
    start_hosting(s)
    for k in range(2):
        s.tap("back")
        s.wait(300)
        s.snap("undo%d" % k, line)
    s.place(7 * 15 + 7)
    s.wait(400)                 # the peer answers
    for k in range(2):
        s.tap("place")          # on the stone just placed
        s.wait(300)
        s.snap("taken%d" % k, line)
    snaps = run_device(board_sim, s.end(), str(flash), dev=dev).snaps
    h = VIEW.message.h
    for k in range(2):
        assert screen_text(snaps["undo%d" % k], h) == ["No undo in a wireless match"]
        assert screen_text(snaps["taken%d" % k], h)[0].startswith("Taken"), \
            screen_text(snaps["taken%d" % k], h)


def play_through_a_reset(flash, times=None):
    """Host, place three stones, reset, resume the saved match, place the
    other two of the row: -> (device, peer, snaps "offer", "resumed", "end").
    times, if given, gets the script's ms of the "third" move and the
    "reset" (read while the device runs)."""
    from host_sim import device
    dev = device.Device(board_sim, str(flash))
    peer = Peer(dev.medium)
    s = Script()
    start_hosting(s)
    row = [7 * 15 + x for x in range(3, 8)]
    times = {} if times is None else times
    for i in row[:3]:
        times["third"] = s.t
        s.place(i)
        s.wait(400)
    times["reset"] = s.t
    s.reset()
    s.wait(1500)
    s.snap("offer", band(0, 60))
    s.tap("place")          # "Wireless match saved": resume it
    s.cursor = row[2]       # on the player's last stone, as they left it
    s.wait(1500)            # resync with the peer
    s.snap("resumed", [stone_point(VIEW, i) for i in range(225)])
    for i in row[3:]:
        s.place(i)
        s.wait(400)
    s.snap("end", [stone_point(VIEW, i) for i in range(225)])
    return dev, peer, run_device(board_sim, s.end(), str(flash), dev=dev).snaps


def test_reset_mid_match_resumes_and_resyncs(flash):
    dev, peer, snaps = play_through_a_reset(flash)
    assert dev.resets == 1
    m = peer.m
    assert board_of(snaps["resumed"]).count(1) == 3
    assert board_of(snaps["resumed"]).count(2) == 3
    want = [0] * 225
    for k in range(m.count):
        want[m.moves[k]] = 1 + (k & 1)
    assert board_of(snaps["end"]) == want and m.game.winner == 1
    assert m.count == 9 and m.stats["divergences"] == 0


def test_a_match_cut_off_mid_save_resumes_from_its_temporary_file(flash, monkeypatch):
    """Power lost inside a save's rename (on FAT: the old snapshot already
    removed, the new one still under its temporary name) loses nothing:
    at boot the whole temporary file is the match, offered and resumed."""
    real = os.rename
    refused = []
    times = {}

    def rename(src, dst):       # fails for the saves of the third moves
        if dst == "gomoku.mat" and times["third"] <= time.ticks_ms() < times["reset"]:
            refused.append(src)
            raise OSError(5, "power lost")
        return real(src, dst)
    monkeypatch.setattr(os, "rename", rename)
    dev, peer, snaps = play_through_a_reset(flash, times)
    assert refused and set(refused) == {"gomoku.mtt"} and dev.resets == 1
    assert "Wireless match saved" in screen_text(snaps["offer"], 60)
    resumed = board_of(snaps["resumed"])
    assert resumed.count(1) == 3 and resumed.count(2) == 3
    assert peer.m.count == 9 and peer.m.game.winner == 1


def test_a_waiting_match_does_not_rewrite_the_save(flash, monkeypatch):
    """The snapshot is written when it changes (pairing, each move), not
    on every loop while the board is empty: flash wear on a device."""
    from host_sim import device
    renames = []
    real = os.rename

    def rename(src, dst):
        if dst == "gomoku.mat":
            renames.append(time.ticks_ms())
        return real(src, dst)
    monkeypatch.setattr(os, "rename", rename)
    dev = device.Device(board_sim, str(flash))
    peer = Peer(dev.medium)
    s = Script()
    start_hosting(s)
    s.wait(3000)            # paired, nobody moves: count 0
    paired_until = s.t
    s.place(7 * 15 + 7)
    s.wait(3000)            # the peer answers, then both wait
    run_device(board_sim, s.end(), str(flash), dev=dev)
    m = peer.m
    assert m.code is not None and m.count == 2
    assert len([t for t in renames if t < paired_until]) == 1
    assert len(renames) == 3        # pairing, my move, the peer's
    assert os.path.exists(flash / "gomoku.mat")


class HostPeer:
    """The other handheld hosting a match under renju, polled every 10 ms."""

    def __init__(self, medium):
        import match
        self.node = H.Node(1, medium)
        self.m = match.Match(self.node.radio, host=True, rule=4, host_colour=1,
                             seed=78, now_ms=time.ticks_ms())
        sim_clock.call_at(sim_clock.now_us() + 10000, self.tick)

    def tick(self):
        while self.m.poll(time.ticks_ms()) is not None:
            pass
        sim_clock.call_at(sim_clock.now_us() + 10000, self.tick)


def test_a_joiner_is_told_the_hosts_rule(flash):
    """The joiner's own Rule setting (freestyle) does not apply: the
    host/join screen says so, and once paired the link line names the
    host's rule (renju) until the peer's first move shows."""
    from host_sim import device
    dev = device.Device(board_sim, str(flash))
    peer = HostPeer(dev.medium)
    whole = band(0, 240)
    line = band(VIEW.message.y, VIEW.message.h)
    s = Script()
    to_host_or_join(s)      # the Rule line left at freestyle
    s.snap("choose", whole)
    s.tap("back")           # B: join
    s.wait(1500)
    s.snap("paired", line)
    snaps = run_device(board_sim, s.end(), str(flash), dev=dev).snaps
    assert "A: host a game (Freestyle)" in screen_text(snaps["choose"], 240)
    assert "B: join a game (the host's rule)" in screen_text(snaps["choose"], 240)
    assert peer.m.code is not None and peer.m.count == 0
    assert screen_text(snaps["paired"], VIEW.message.h) == ["Code %s  paired  Renju" % peer.m.code]


class _View:
    cursor = -1

    def attach(self, game):
        pass

    def draw_all(self):
        pass

    def draw_cell(self, i):
        pass

    def set_last(self, i):
        pass


class _App:
    def __init__(self):
        self.n = 0
        self.moves = bytearray(225)
        self.cursor = 7 * 15 + 7
        self.view = _View()
        self.said = []
        self.statuses = 0

    def update_status(self):
        self.statuses += 1

    def say(self, text, colour=None):
        self.said.append(text)


class _Match:
    """A paired match standing still: what Wireless reads of match.Match."""

    def __init__(self):
        import gomoku
        import match as M
        self.count = 0
        self.moves = bytearray(225)
        self.game = gomoku.Game(0)
        self.state = M.PAIRED
        self.code = "4821"
        self.last_peer_move = None
        self.my_colour = 1
        self.rule = 4

    def saved_key(self):
        return (0, self.count, 0xFFFF)

    def snapshot(self, won):
        return b"GMM1"


def test_the_match_loop_builds_no_text_while_nothing_changes(flash):
    """Wireless.play calls sync() and show_link() every 20 ms loop: while
    the match stands still (paired, waiting for a move, even before the
    first one) they must not format status or link text, nor build the save
    key: garbage 50 times a second for the collector on the device."""
    import tracemalloc
    import match as M
    import wireless

    app = _App()
    w = wireless.Wireless(app, None)
    w.m = m = _Match()
    w.new_board()
    w.show_link()
    assert app.said[-1] == "Code 4821  paired  Renju" and app.statuses == 1
    del app.said[:]
    loops = iter(range(50))
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        for _ in loops:
            w.sync()
            w.show_link()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak == base
    assert app.said == [] and app.statuses == 1
    # a change still shows: the peer's move, then the link lost
    m.last_peer_move = (7, 7)
    w.show_link()
    m.state = M.LOST
    w.show_link()
    m.last_peer_move = (8, 0)       # renju notation: I is a column, row 1 the bottom
    w.show_link()
    m.last_peer_move = (14, 14)
    w.show_link()
    assert app.said == ["Code 4821  paired  peer H8",
                        "Code 4821  peer lost  peer H8",
                        "Code 4821  peer lost  peer I15",
                        "Code 4821  peer lost  peer O1"]


def _snapshot(moves=b"", host=1, session=0x12345679):
    """A match save as the firmware before GMM2 wrote it, which this one
    still resumes (GMM1: no joiner's nonce; freestyle, host black)."""
    from crc16 import crc16
    b = b"GMM1" + bytes((host, session >> 24, (session >> 16) & 0xFF,
                         (session >> 8) & 0xFF, session & 0xFF, 0, 1, 0,
                         len(moves))) + bytes(moves)
    c = crc16(b, len(b))
    return b + bytes((c >> 8, c & 0xFF))


@pytest.mark.parametrize("saved", [None, "gomoku.mtt"])
def test_boot_reads_a_saved_match_only_when_there_is_one(flash, saved):
    """With no match saved, a radio board boots to the menu without
    loading the code that reads one (its names would stay on the heap
    through every game after); a match cut off mid-save, under its
    temporary name alone, is still offered."""
    import sys
    from host_sim import device
    if saved:
        (flash / saved).write_bytes(_snapshot(b"\x70\x71"))
    dev = device.Device(board_sim, str(flash))
    loaded = []
    s = Script()
    s.wait(300)
    s.snap("boot", band(0, 240))
    s.wait(100)
    sim_clock.call_at(s.t * 1000,
                      lambda: loaded.append("match_menu" in sys.modules))
    s.wait(100)
    snaps = run_device(board_sim, s.end(), str(flash), dev=dev).snaps
    text = " ".join(screen_text(snaps["boot"], 240))
    assert ("Wireless match saved" in text) == bool(saved)
    assert ("> Start" in text) != bool(saved)
    assert loaded == [bool(saved)]


def test_only_b_forgets_a_saved_match(flash):
    """"Wireless match saved: A resume it, B forget it": the menu key,
    which the screen does not offer, must not delete the match."""
    (flash / "gomoku.mat").write_bytes(_snapshot(b"\x70\x71"))
    s = Script()
    s.tap("menu")
    s.wait(300)
    run_device(board_sim, s.end(), str(flash))
    assert (flash / "gomoku.mat").exists()
    s = Script()
    s.tap("back")
    s.wait(300)
    run_device(board_sim, s.end(), str(flash))
    assert not (flash / "gomoku.mat").exists()


def test_a_match_holds_no_boot_code(flash):
    """The radio's driver is built by hw_setup, which leaves sys.modules as
    soon as it has: nothing may keep the module alive through the match (a
    name in the menu's frame once held it, 4 KB of a match's heap)."""
    import gc
    import types
    from host_sim import device
    dev = device.Device(board_sim, str(flash))
    peer = Peer(dev.medium)
    alive = []

    def look():
        gc.collect()
        alive.append([m for m in gc.get_objects()
                      if isinstance(m, types.ModuleType)
                      and m.__name__ == "hw_setup"])
    s = Script()
    start_hosting(s)
    s.place(7 * 15 + 7)
    s.wait(400)             # the peer answers
    sim_clock.call_at(s.t * 1000, look)
    s.wait(100)
    run_device(board_sim, s.end(), str(flash), dev=dev)
    assert peer.m.count == 2 and not peer.m.game.winner     # mid-match
    assert alive == [[]]


def test_a_saved_match_forgotten_at_boot_tells_the_peer(flash):
    """B at "Wireless match saved" after a reset: the peer, left showing
    "peer lost" for good, is told the match is over, as when a player
    leaves one."""
    import match
    from host_sim import device
    dev = device.Device(board_sim, str(flash))
    peer = Peer(dev.medium)
    s = Script()
    start_hosting(s)
    s.place(7 * 15 + 7)
    s.wait(400)             # the peer answers
    s.reset()
    s.wait(1500)
    s.tap("back")           # "Wireless match saved": B forgets it
    s.wait(500)
    run_device(board_sim, s.end(), str(flash), dev=dev)
    assert peer.m.count == 2 and peer.m.state == match.CLOSED
    assert not (flash / "gomoku.mat").exists()


@pytest.mark.parametrize("blob, why", [
    (b"GMM1 any saved match", "corrupt"),
    (_snapshot(session=0), "foreign"),          # no match has session 0
    (_snapshot(host=7), "foreign"),
])
def test_a_damaged_saved_match_is_set_aside_at_boot_not_offered(flash, capsys, blob, why):
    """A saved match that is not one a match writes is reported at boot,
    before "A: resume it" would offer it, kept as gomoku.mbd for a
    post-mortem (a damaged local save is kept the same way, as gomoku.bad),
    and out of the way of the next boot."""
    (flash / "gomoku.mat").write_bytes(blob)
    s = Script()
    s.wait(300)
    s.snap("note", band(0, 240))
    s.tap("place")          # A: continue
    s.wait(300)
    s.snap("next", band(0, 240))
    snaps = run_device(board_sim, s.end(), str(flash)).snaps
    assert "Saved match not resumed (match save is %s): kept as gomoku.mbd" % why \
        in capsys.readouterr().out
    note, after = " ".join(screen_text(snaps["note"], 240)), screen_text(snaps["next"], 240)
    assert "not resumed" in note
    after = " ".join(after)
    assert "Wireless match saved" not in note + after and "> Start" in after
    assert not (flash / "gomoku.mat").exists()
    assert (flash / "gomoku.mbd").read_bytes() == blob


def test_a_damaged_match_and_a_damaged_game_at_one_boot_are_both_kept(flash, capsys):
    """Both saves damaged (a flash fault): each is reported and kept under its
    own name; the match's copy overwrote the game's when both were .bad."""
    (flash / "gomoku.sav").write_bytes(b"GMKS a damaged game")
    (flash / "gomoku.mat").write_bytes(b"GMM1 a damaged match")
    s = Script()
    s.wait(300)
    s.tap("place")          # A: continue (the game's note)
    s.wait(300)
    s.tap("place")          # A: continue (the match's note)
    s.wait(300)
    s.snap("next", band(0, 240))
    snaps = run_device(board_sim, s.end(), str(flash)).snaps
    out = capsys.readouterr().out
    assert "Saved game not resumed (version 32): kept as gomoku.bad" in out
    assert "Saved match not resumed (match save is corrupt): kept as " \
        "gomoku.mbd" in out
    assert "> Start" in " ".join(screen_text(snaps["next"], 240))
    assert (flash / "gomoku.bad").read_bytes() == b"GMKS a damaged game"
    assert (flash / "gomoku.mbd").read_bytes() == b"GMM1 a damaged match"


def test_a_saved_match_whose_moves_do_not_replay_is_set_aside(flash, capsys):
    """Only the board can refuse a move taken twice: the match is offered,
    and set aside with the board's reason when A tries to resume it."""
    blob = _snapshot(b"\x70\x71\x70")
    (flash / "gomoku.mat").write_bytes(blob)
    s = Script()
    s.wait(300)
    s.snap("offer", band(0, 60))
    s.tap("place")          # A: resume it
    s.wait(300)
    snaps = run_device(board_sim, s.end(), str(flash)).snaps
    assert "Wireless match saved" in screen_text(snaps["offer"], 60)
    assert "Saved match not resumed (H8 is occupied): kept as gomoku.mbd" \
        in capsys.readouterr().out
    assert not (flash / "gomoku.mat").exists()
    assert (flash / "gomoku.mbd").read_bytes() == blob


def test_a_match_save_that_fails_is_reported_in_the_players_words(flash, monkeypatch):
    """A full flash during a match says "Not saved: flash full", as a local
    game does; before, the failure was silent and the player trusted a
    resume that was not there. The save is tried again at the next move."""
    import errno
    import savegame
    import wireless
    calls = []

    def full(tmp, path, data):
        calls.append(path)
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(savegame, "replace", full)

    app = _App()
    w = wireless.Wireless(app, None)
    w.m = m = _Match()
    w.new_board()
    assert app.said[-1] == "Not saved: flash full"
    m.moves[0] = 112
    m.count = 1
    m.game.play(7, 7)
    w.sync()
    assert calls == ["gomoku.mat", "gomoku.mat"]
    assert app.said[-1] == "Not saved: flash full"
    assert not [t for t in app.said if "rrno" in t or "space" in t]


class AgreeingPeer(Peer):
    """A Peer that accepts a rematch when asked, and leaves the match
    (match.close()) once it has made `leave_after` moves, if given."""

    def __init__(self, medium, leave_after=None):
        super().__init__(medium)
        self.leave_after = leave_after

    def tick(self):
        import match
        m = self.m
        if m is not None and m.state != match.CLOSED:
            now = time.ticks_ms()
            while True:
                ev = m.poll(now)
                if ev is None:
                    break
                if ev == match.EV_REMATCH_ASKED:
                    m.rematch()
            if self.leave_after is not None and \
                    m.count >= 2 * self.leave_after + 1:
                m.close()
                return
        super().tick()


def test_the_winner_is_named_the_rematch_swaps_colours_leaving_forgets(flash):
    from host_sim import device
    dev = device.Device(board_sim, str(flash))
    peer = AgreeingPeer(dev.medium)
    status = band(VIEW.status.y, VIEW.status.h)
    s = Script()
    won_match(s)
    s.snap("won", status)
    s.tap("place")          # A: rematch; the peer agrees
    s.wait(1000)
    s.snap("rematch", status)
    s.place(7 * 15 + 7)     # the new game takes our stones
    s.wait(400)
    s.tap("menu")           # X: leave the match? the next X: yes
    s.wait(300)
    s.tap("menu")
    s.wait(300)
    snaps = run_device(board_sim, s.end(), str(flash), dev=dev).snaps
    assert peer.m.game_no == 1 and peer.m.my_colour == 1
    assert peer.m.game.stone(7, 7) == 2
    assert screen_text(snaps["won"], VIEW.status.h) == ["You win!  You 1 Peer 0"]
    # white now: the peer (black) opens the new game, and may have already
    line = screen_text(snaps["rematch"], VIEW.status.h)[0]
    assert line.startswith(("Black (peer) to move", "White (you) to move")), line
    assert not (flash / "gomoku.mat").exists()      # nothing to resume


def test_a_reset_mid_rematch_keeps_the_games_won_since_pairing(flash):
    """Won, a rematch (white now), two stones, a power cut: the resumed
    match keeps the tally, and the second win shows "You 2"."""
    from host_sim import device
    dev = device.Device(board_sim, str(flash))
    AgreeingPeer(dev.medium)
    status = band(VIEW.status.y, VIEW.status.h)
    row = [7 * 15 + x for x in range(3, 8)]     # the peer plays even rows
    s = Script()
    start_hosting(s)
    for i in row:
        s.place(i)
        s.wait(400)
    s.snap("first", status)
    s.tap("place")          # A: rematch; the peer agrees and opens
    s.wait(1000)
    for i in row[:2]:
        s.place(i)
        s.wait(400)
    s.reset()
    s.wait(1500)
    s.tap("place")          # "Wireless match saved": resume it
    s.cursor = row[1]
    s.wait(1500)            # resync with the peer
    for i in row[2:]:
        s.place(i)
        s.wait(400)
    s.snap("second", status)
    snaps = run_device(board_sim, s.end(), str(flash), dev=dev).snaps
    assert dev.resets == 1
    assert screen_text(snaps["first"], VIEW.status.h) == ["You win!  You 1 Peer 0"]
    assert screen_text(snaps["second"], VIEW.status.h) == ["You win!  You 2 Peer 0"]


def test_a_match_resumed_on_its_end_screen_shows_the_whole_banner(flash):
    """Won, then a power cut on the end screen: resumed, the match resyncs
    and redraws its board, and the banner is laid again all across the top
    line (it was laid only under the letters: the line took the screen's
    fill for its own banner colour)."""
    from host_sim import device
    dev = device.Device(board_sim, str(flash))
    AgreeingPeer(dev.medium)
    status = band(VIEW.status.y, VIEW.status.h)
    s = Script()
    won_match(s)
    s.reset()
    s.wait(1500)
    s.tap("place")          # "Wireless match saved": resume it
    s.wait(1500)            # resync with the peer
    s.snap("resumed", status)
    snaps = run_device(board_sim, s.end(), str(flash), dev=dev).snaps
    assert screen_text(snaps["resumed"], VIEW.status.h) == ["You win!  You 1 Peer 0"]
    assert set(snaps["resumed"]) == {bv.BANNER, bv.BANNER_TEXT}


class QuietPeer(Peer):
    """A Peer silent from `quiet[0]` to `quiet[1]` ms (out of range, say),
    that asks for a rematch when a game ends if `asks`."""

    def __init__(self, medium, quiet=(0, 0), asks=False):
        super().__init__(medium)
        self.quiet = quiet
        self.asks = asks

    def tick(self):
        if self.quiet[0] <= time.ticks_ms() < self.quiet[1]:
            sim_clock.call_at(sim_clock.now_us() + 10000, self.tick)
            return
        m = self.m
        if self.asks and m is not None and m.game.winner and not m.rematch_wanted:
            m.rematch()
        super().tick()


@pytest.mark.parametrize("who", ["you", "the peer"])
def test_a_rematch_asked_still_shows_after_the_link_comes_back(flash, who):
    """The end screen with a rematch asked (by A here, or by the peer),
    then the peer out of range 2.5 s: the link is lost, found, resynced and
    the board drawn again, with the request still on the bottom line (it
    read "A: rematch  X: leave", and A then did nothing)."""
    from host_sim import device
    dev = device.Device(board_sim, str(flash))
    line = band(VIEW.message.y, VIEW.message.h)
    s = Script()
    won_match(s)
    if who == "you":
        s.tap("place")          # A: rematch; this peer never agrees
    s.wait(300)
    s.snap("asked", line)
    QuietPeer(dev.medium, (s.t + 100, s.t + 2600), asks=who != "you")
    s.wait(4000)
    s.snap("after", line)
    snaps = run_device(board_sim, s.end(), str(flash), dev=dev).snaps
    want = ["Rematch asked: waiting for the peer" if who == "you" else
            "Peer asks for a rematch: A"]
    assert screen_text(snaps["asked"], VIEW.message.h) == want
    assert screen_text(snaps["after"], VIEW.message.h) == want


def test_a_rematch_the_peer_asked_shows_after_a_reset(flash):
    """The peer asks on the end screen; this device is reset and resumes:
    the peer's status brings the request and the resync together, and the
    redraw for the resync left the request unsaid."""
    from host_sim import device
    dev = device.Device(board_sim, str(flash))
    QuietPeer(dev.medium, asks=True)
    line = band(VIEW.message.y, VIEW.message.h)
    s = Script()
    won_match(s)
    s.wait(500)
    s.reset()
    s.wait(1500)
    s.tap("place")          # "Wireless match saved": resume it
    s.wait(2000)
    s.snap("after", line)
    snaps = run_device(board_sim, s.end(), str(flash), dev=dev).snaps
    assert dev.resets == 1
    assert screen_text(snaps["after"], VIEW.message.h) == ["Peer asks for a rematch: A"]


def test_the_peer_leaving_is_shown_and_forgets_the_match(flash):
    from host_sim import device
    dev = device.Device(board_sim, str(flash))
    peer = AgreeingPeer(dev.medium, leave_after=2)
    s = Script()
    start_hosting(s)
    for i in (7 * 15 + 3, 7 * 15 + 4, 7 * 15 + 5):
        s.place(i)
        s.wait(400)
    s.wait(500)
    s.snap("note", [(x, y) for y in range(240) for x in range(240)])
    snaps = run_device(board_sim, s.end(), str(flash), dev=dev).snaps
    import match
    assert peer.m.state == match.CLOSED
    assert "The other player left the match" in " ".join(
        screen_text(snaps["note"], 240))
    assert not (flash / "gomoku.mat").exists()      # nothing to resume


def test_the_hosts_black_setting_gives_the_peer_black(flash):
    from host_sim import device
    dev = device.Device(board_sim, str(flash))
    peer = Peer(dev.medium)
    s = Script()
    s.tap("menu")           # Mode
    s.tap("place")          # 2 players
    s.tap("place")          # Wireless
    s.tap("menu")           # Rule
    s.tap("menu")           # Black: you
    s.tap("place")          # Black: peer
    s.tap("menu")           # Start
    s.tap("place")
    s.wait(200)
    s.tap("place")          # A: host
    s.wait(1500)            # the peer joins, and opens as black
    run_device(board_sim, s.end(), str(flash), dev=dev)
    assert peer.m.code is not None
    assert peer.m.my_colour == 1 and peer.m.count >= 1


def test_a_new_match_gives_up_the_game_left_at_the_menu(flash):
    """A game left through the pause menu's Main menu, then a match hosted
    and reset mid-way: the boot offered the old game, and the match (the
    peer waiting) only if that was declined."""
    from host_sim import device
    dev = device.Device(board_sim, str(flash))
    Peer(dev.medium)
    s = Script()
    s.start_two_players()
    s.place(7 * 15 + 7)
    s.wait(100)
    for _ in range(4):
        s.tap("menu")       # pause: Resume, Undo, New game, Main menu
    s.tap("place")
    s.wait(300)
    start_hosting(s, 1)     # the menu is back on 2 players
    s.place(7 * 15 + 3)
    s.wait(400)
    s.reset()
    s.wait(1500)
    s.snap("offer", band(0, 60))
    snaps = run_device(board_sim, s.end(), str(flash), dev=dev).snaps
    assert "Wireless match saved" in screen_text(snaps["offer"], 60)
    assert not os.path.exists(os.path.join(str(flash), "gomoku.sav"))
