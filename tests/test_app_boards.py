"""The same firmware on every board: the ESP32's landscape ILI9341 with an
MPU6050 and three keys (no joystick), the Pico-LCD-1.3 in its hat's
rotation, the simulator's board: menu by keys, cursor by tilt, stones by
pixels."""
import os

import pytest

import host_sim

host_sim.install()

import board_esp32_ili9341  # noqa: E402
import board_pico_lcd13  # noqa: E402
import board_sim  # noqa: E402
import board_view as bv  # noqa: E402
from app_script import Script, layout, run_device, stone_point  # noqa: E402

BOARDS = [board_sim, board_pico_lcd13, board_esp32_ili9341]


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: b.NAME)
def test_two_player_moves_by_tilt_and_keys(board, tmp_path):
    view = layout(board)
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        s = Script()
        s.tap("menu")       # Mode
        s.tap("place")      # 2 players
        s.tap("menu")       # Rule
        s.tap("menu")       # Start
        s.tap("place")
        s.wait(300)
        a, b = 5 * 15 + 9, 9 * 15 + 4
        s.place(a, how="tilt")
        s.place(b, how="tilt")
        s.wait(300)
        s.snap("stones", [stone_point(view, i) for i in range(225)])
        s.snap("cursor", [view.origin(i) for i in range(225)])
        s.tap("back")       # undo white
        s.wait(300)
        s.snap("undone", [stone_point(view, i) for i in range(225)])
        dev = run_device(board, s.end(), str(tmp_path))
    finally:
        os.chdir(old)
    want = [0] * 225
    want[a] = bv.BLACK
    want[b] = bv.WHITE
    got = [p if p in (bv.BLACK, bv.WHITE) else 0
           for p in dev.snaps["stones"]]
    assert got == want
    assert [i for i in range(225) if dev.snaps["cursor"][i] == bv.CURSOR] \
        == [b]
    want[b] = 0
    assert [p if p in (bv.BLACK, bv.WHITE) else 0
            for p in dev.snaps["undone"]] == want


def test_missing_display_is_named_and_retried(tmp_path, capsys):
    from host_sim import device
    dev = device.Device(board_esp32_ili9341, str(tmp_path), lcd=False)
    dev.run(until_ms=12000)
    out = capsys.readouterr().out
    assert out.count("Display ILI9341 not found (SPI2 sck=18 mosi=23 "
                     "miso=19 cs=5 dc=4 rst=15)") >= 2   # at boot, on retry


def test_missing_radio_is_named_and_wireless_is_not_offered(tmp_path, capsys):
    view = layout(board_sim)
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        s = Script(start_ms=700)
        s.snap("note", [(x, y) for x in range(0, 240, 3)
                        for y in range(0, 80, 2)])
        s.tap("place")      # dismiss the note
        s.tap("menu")       # Mode
        s.tap("place")      # 2 players
        s.tap("place")      # vs AI again: no third mode without a radio
        import app
        lines = 4 if len(app.ai_levels()) > 1 else 3
        for _ in range(lines):
            s.tap("menu")   # (Level when there are levels) Rule, Black, Start
        s.tap("place")
        s.wait(300)
        s.place(7 * 15 + 8)
        s.wait(400)
        s.snap("stones", [stone_point(view, i) for i in range(225)])
        dev = run_device(board_sim, s.end(), str(tmp_path), radio=False)
    finally:
        os.chdir(old)
    out = capsys.readouterr().out
    assert "Radio NRF24L01 not found (SPI0 sck=6 mosi=7 miso=4 cs=5 ce=14 " \
        "irq=22)" \
        in out
    assert bv.ALERT in dev.snaps["note"]
    stones = dev.snaps["stones"]
    assert stones.count(bv.BLACK) == 1 and stones.count(bv.WHITE) == 1


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: b.NAME)
def test_missing_gyro_names_chip_bus_pins_and_hex_address(board, tmp_path,
                                                           capsys):
    from host_sim import device
    dev = device.Device(board, str(tmp_path), gyro=False)
    dev.run(until_ms=900)
    out = capsys.readouterr().out
    g = board.GYRO
    assert "Gyro %s not found (I2C%d scl=%d sda=%d addr=0x%02x)" % (
        g["chip"].upper(), g["i2c"], g["scl"], g["sda"], g["addr"]) in out
