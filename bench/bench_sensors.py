"""Gyroscope and button figures: I2C bytes and time on the wire per read at
the boards' 400 kHz, bus load of the tilt poll, and heap allocated per read
and per button poll on the MicroPython unix port.

Bytes on the wire count the address bytes (write address, register,
repeated-start read address, data); 9 clocks a byte (8 bits and the ACK).
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import host_sim  # noqa: E402

host_sim.install()
import machine  # noqa: E402
import sim_clock  # noqa: E402
import upy  # noqa: E402
from budget import verdict  # noqa: E402

import l3g4200d  # noqa: E402
import l3g4200d_model  # noqa: E402
import mpu6050  # noqa: E402
import mpu6050_model  # noqa: E402
import tilt_model  # noqa: E402

FREQ = 400000
POLL_HZ = 50          # the app's tilt poll (every 20 ms)


class Capture:
    def __init__(self):
        self.records = []

    def __call__(self, rec):
        self.records.append(rec)

    def take(self):
        recs, self.records = self.records, []
        return recs


def wire_bytes(recs):
    """Bytes on the wire: one address byte per START, plus the data."""
    n = 0
    for r in recs:
        tx = len(r["tx"]) // 2
        rx = len(r["rx"]) // 2
        n += tx + rx + (1 if tx else 0) + (1 if rx else 0)
    return n


def measure(label, setup, action):
    machine.forget_all()
    sim_clock.reset()
    cap = Capture()
    machine.set_trace(cap)
    dev = setup(cap)
    cap.take()
    t0 = sim_clock.now_us()
    action(dev)
    us = sim_clock.now_us() - t0
    n = wire_bytes(cap.take())
    machine.set_trace(None)
    return label, n, us


def l3g_setup(cap):
    tilt = tilt_model.TiltModel()
    machine.attach_i2c(1, 0x69, l3g4200d_model.L3G4200DModel(tilt), "l3g4200d")
    i2c = machine.I2C(1, scl=machine.Pin(27), sda=machine.Pin(26), freq=FREQ)
    return l3g4200d.L3G4200D(i2c)


def mpu_setup(cap, part="6050"):
    tilt = tilt_model.TiltModel()
    machine.attach_i2c(0, 0x68, mpu6050_model.MPU6050Model(tilt, part=part), "mpu6050")
    i2c = machine.I2C(0, scl=machine.Pin(22), sda=machine.Pin(21), freq=FREQ)
    return mpu6050.MPU6050(i2c)


OUT = [0, 0, 0]
ACC = [0, 0, 0]

UNIX_CODE = """
import gc, micropython, time
import gyro_checks, l3g4200d, mpu6050, buttons, button_model, machine
import sim_clock
regs = bytearray(128)
regs[0x0F] = 0xD3
regs[0x75] = 0x68
for i in range(6):
    regs[0x28 + i] = 0x80 + i
    regs[0x3B + i] = 0x10 + i
    regs[0x43 + i] = 0x20 + i
g = l3g4200d.L3G4200D(gyro_checks.RegisterBus(regs, 0x80))
m = mpu6050.MPU6050(gyro_checks.RegisterBus(regs, 0))
out = [0, 0, 0]
acc = [0, 0, 0]
pins = {"place": 15, "back": 17, "menu": 19, "up": 2, "down": 18}
keys = buttons.Buttons(pins)
def per_call(fn, n=200):
    gc.collect()
    before = gc.mem_alloc()
    for _ in range(n):
        fn()
    return (gc.mem_alloc() - before) / n
def poll():
    keys.poll(time.ticks_ms())
print("l3g", per_call(lambda: g.read_rates(out)))
print("mpu", per_call(lambda: m.read_all(acc, out)))
print("btn", per_call(poll))
"""


def main():
    rows = [
        measure("L3G4200D read_rates (6 data bytes, auto-increment)",
                l3g_setup, lambda d: d.read_rates(OUT)),
        measure("MPU6050 read_rates (6 data bytes)",
                mpu_setup, lambda d: d.read_rates(OUT)),
        measure("MPU6050 read_all (14-byte burst: accel, temp, gyro)",
                mpu_setup, lambda d: d.read_all(ACC, OUT)),
    ]
    for label, n, us in rows:
        load = us * POLL_HZ / 10000
        print("%s at %d kHz: %d bytes on the wire, bus load at a %d Hz poll"
              " %.1f%%, %d us (budget: <= 500 us) %s"
              % (label, FREQ // 1000, n, POLL_HZ, load, us, verdict(us <= 500)))
    inits = [
        measure("L3G4200D init", lambda cap: None,
                lambda d: l3g_setup(None)),
        measure("MPU6050 init", lambda cap: None,
                lambda d: mpu_setup(None)),
        measure("MPU-6500 (GY-521 clone) init", lambda cap: None,
                lambda d: mpu_setup(None, "6500")),
    ]
    for label, n, us in inits:
        print("%s: %d bytes on the wire, %.1f ms including waits"
              % (label, n, us / 1000))
    # the heap holds the harness too (gyro_checks and the chip models it
    # imports); the figures are what one call allocates on top
    out = upy.run(UNIX_CODE, heapsize="256k", shims=True,
                  extra_path=[ROOT / "host_sim" / "chips", ROOT / "tests"])
    got = dict(line.split() for line in out.splitlines() if line.strip())
    for label, key in (("L3G4200D read_rates", "l3g"), ("MPU6050 read_all", "mpu"),
                       ("Buttons.poll (5 buttons)", "btn")):
        print("heap per %s on the unix port: %s bytes (budget: 0) %s"
              % (label, got[key], verdict(float(got[key]) == 0)))


if __name__ == "__main__":
    main()
