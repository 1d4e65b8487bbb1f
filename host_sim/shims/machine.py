"""MicroPython's `machine` for the simulator: pins and buses wired to chip models.

The firmware's drivers use Pin, SPI and I2C exactly as on a board. Behind
them, chip models (host_sim.chips) are attached to a bus like parts soldered
to a PCB:

    machine.attach_spi(bus_id, cs_pin, model, name, dc=None)
    machine.attach_i2c(bus_id, addr, model, name)
    machine.detach_spi(bus_id, cs_pin)   # a module come off its header

An SPI model implements `spi_select()`, `spi_deselect()` (its CS pin went low
or high) and `spi_transfer(tx) -> rx` (bytes in, the same number of bytes out;
the model reads other pins, e.g. DC, with `pin_level`). A model that cares
about the clock (a datasheet's maximum SCK) may also implement
`spi_clock(hz, reads)`: called before each of its transfers with the bus's
rate and whether the host keeps the bytes clocked in (SPI.read, readinto,
write_readinto) or drops them (SPI.write). An I2C model
implements `i2c_write(data)` (the bytes after the address of one write, the
register pointer first, as the datasheets frame it) and `i2c_read(n)`.

Models drive input pins (buttons, IRQ lines) with `drive_pin(id, level)` and
follow output pins (CS, CE, reset) with `watch_pin(id, callback)`.

Every transfer moves the simulated clock by its duration on the wire at the
bus's baud rate. `set_trace(fn)` receives one dict per CS-low period (or per
DC change within it) and per I2C transfer, like a logic-analyser capture.

Pin(n), SPI(n) and I2C(n) return the one object for that pin or bus, made
the first time, as the rp2 and esp32 ports do (theirs are static: making
one allocates nothing). They take the arguments both ports take: what
either refuses (an unknown keyword, a keyword-only argument given by
position) raises TypeError here too. `hardware(board)` makes a board's up
front, so a heap measured from then on holds only what the firmware
allocates.

Runs on CPython and on the MicroPython unix port.
"""
import sim_clock

_levels = {}        # pin id -> level driven by the firmware (outputs)
_driven = {}        # pin id -> level driven from outside (buttons, IRQ lines)
_pulls = {}         # pin id -> Pin.PULL_UP / PULL_DOWN
_modes = {}         # pin id -> Pin.IN / OUT / OPEN_DRAIN
_watchers = {}      # pin id -> [callback(level)]
_irqs = {}          # pin id -> (handler, trigger, pin object)
_spi_devices = {}   # bus id -> [[cs pin, model, name, dc pin, clock hook]]
_cs_watchers = {}   # (bus id, cs pin) -> its chip's CS watcher
_i2c_devices = {}   # bus id -> {addr: (model, name)}
_objects = {}       # (class, pin or bus id) -> its one Pin, SPI or I2C
_trace = None
_unique_id = b"\x53\x49\x4d\x00\x00\x00\x00\x01"


class SimReset(BaseException):
    """machine.reset() in the simulator: the front end restarts main.py.
    A BaseException: on a board the reset never returns, so firmware
    catching Exception must not catch it."""


def set_trace(fn):
    global _trace
    _trace = fn


def set_unique_id(uid):
    global _unique_id
    _unique_id = bytes(uid)


def forget_all():
    """Unwire everything: a fresh board (tests, a simulated power cycle)."""
    for d in (_levels, _driven, _pulls, _modes, _watchers, _irqs,
              _spi_devices, _cs_watchers, _i2c_devices, _objects):
        d.clear()


def _one(cls, id):
    o = _objects.get((cls, id))
    if o is None:
        o = _objects[(cls, id)] = object.__new__(cls)
    return o


def hardware(board):
    """The Pin, SPI and I2C objects of every pin and bus a board's pin map
    (boards/board_*.py) names: the port's, not the firmware's. So is the
    room for those pins' state (mode, pull, level, handler): a board keeps
    it in registers, so setting a pin up must not grow the heap here."""
    pins = list(board.BUTTONS.values())
    for cfg in (board.LCD, getattr(board, "GYRO", None),
                getattr(board, "RADIO", None)):
        if cfg is None:
            continue
        for key in ("sck", "mosi", "miso", "cs", "dc", "rst", "bl", "scl",
                    "sda", "ce", "irq"):
            if cfg.get(key) is not None:
                pins.append(cfg[key])
        if "spi" in cfg:
            SPI(cfg["spi"])
        if "i2c" in cfg:
            I2C(cfg["i2c"])
    for pin in pins:
        Pin(pin)
    for d in (_levels, _driven, _pulls, _modes, _watchers, _irqs):
        _reserve(d, len(pins))


def _reserve(d, n):
    # a dict keeps its table when keys leave it: room for n more
    for k in range(n):
        d[("room", k)] = 0
    for k in range(n):
        del d[("room", k)]


def pin_level(pin_id):
    """The level on a pin's wire: outside drive wins, then output (its
    latch, 0 until written, as after a reset on rp2 and esp32), then pull."""
    if pin_id in _driven:
        return _driven[pin_id]
    if _modes.get(pin_id) == Pin.OUT:
        return _levels.get(pin_id, 0)
    if _modes.get(pin_id) == Pin.OPEN_DRAIN and _levels.get(pin_id) == 0:
        return 0
    return 0 if _pulls.get(pin_id) == Pin.PULL_DOWN else 1


def watch_pin(pin_id, callback):
    _watchers.setdefault(pin_id, []).append(callback)


def drive_pin(pin_id, level):
    """Something outside the micro drives the pin (None releases it)."""
    before = pin_level(pin_id)
    if level is None:
        _driven.pop(pin_id, None)
    else:
        _driven[pin_id] = 1 if level else 0
    _changed(pin_id, before)


def _changed(pin_id, before):
    after = pin_level(pin_id)
    if after == before:
        return
    for cb in _watchers.get(pin_id, ()):
        cb(after)
    irq = _irqs.get(pin_id)
    if irq:
        handler, trigger, pin = irq
        if (trigger & Pin.IRQ_RISING and after) or (
                trigger & Pin.IRQ_FALLING and not after):
            handler(pin)


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    ALT = 3
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __new__(cls, id, *args, **kw):
        return _one(cls, id)

    def __init__(self, id, mode=-1, pull=-1, *, value=None, alt=-1,
                 drive=None, hold=None):
        self.id = id
        self.init(mode, pull, value=value)

    def init(self, mode=-1, pull=-1, *, value=None, alt=-1, drive=None,
             hold=None):
        pid = self.id
        before = pin_level(pid)
        if mode != -1:
            _modes[pid] = mode
        if pull != -1:
            if pull is None:
                _pulls.pop(pid, None)
            else:
                _pulls[pid] = pull
        if value is not None:
            _levels[pid] = 1 if value else 0
        _changed(pid, before)

    def value(self, v=None):
        if v is None:
            return pin_level(self.id)
        before = pin_level(self.id)
        _levels[self.id] = 1 if v else 0
        _changed(self.id, before)

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    high = on
    low = off

    def toggle(self):
        self.value(1 - _levels.get(self.id, 0))

    def irq(self, *args, **kw):
        """With no arguments the IRQ stays as it is (the ports return their
        irq object then; there is none here)."""
        if args or kw:
            self._set_irq(*args, **kw)

    def _set_irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING,
                 hard=False):
        if handler is None:
            _irqs.pop(self.id, None)
        else:
            _irqs[self.id] = (handler, trigger, self)

    def __repr__(self):
        return "Pin(%r)" % (self.id,)


def attach_spi(bus_id, cs_pin, model, name, dc=None):
    devices = _spi_devices.setdefault(bus_id, [])
    devices.append([cs_pin, model, name, dc,
                    getattr(model, "spi_clock", None)])

    def on_cs(level):
        if level:
            SPI._flush(bus_id)
            model.spi_deselect()
        else:
            model.spi_select()
    watch_pin(cs_pin, on_cs)
    _cs_watchers[(bus_id, cs_pin)] = on_cs


def detach_spi(bus_id, cs_pin):
    """Unwire the chip on cs_pin from the bus: it no longer sees its CS line
    or the clock, and the bus reads what no one drives (0xFF)."""
    devices = _spi_devices.get(bus_id, [])
    devices[:] = [d for d in devices if d[0] != cs_pin]
    on_cs = _cs_watchers.pop((bus_id, cs_pin), None)
    if on_cs in _watchers.get(cs_pin, ()):
        _watchers[cs_pin].remove(on_cs)


def attach_i2c(bus_id, addr, model, name):
    _i2c_devices.setdefault(bus_id, {})[addr] = (model, name)


def _hex(b):
    return "".join("%02x" % x for x in b)


class SPI:
    MSB = 0
    LSB = 1
    _segments = {}   # bus id -> [t_us, name, dc, bytearray tx, bytearray rx]

    def __new__(cls, id, *args, **kw):
        return _one(cls, id)

    def __init__(self, id, baudrate=1000000, *, polarity=0, phase=0, bits=8,
                 firstbit=0, sck=None, mosi=None, miso=None):
        self.id = id
        self.init(baudrate=baudrate, polarity=polarity, phase=phase,
                  bits=bits, firstbit=firstbit)

    def __repr__(self):
        return "SPI(%s, baudrate=%d, polarity=%d, phase=%d)" % (
            self.id, self.baudrate, self.polarity, self.phase)

    def init(self, *, baudrate=None, polarity=None, phase=None, bits=None,
             firstbit=None):
        """As rp2's SPI.init: what is not given stays as it was."""
        if baudrate is not None:
            self.baudrate = baudrate
        if polarity is not None:
            self.polarity = polarity
        if phase is not None:
            self.phase = phase
        if firstbit is not None:
            self.firstbit = firstbit

    def deinit(self):
        pass

    def _xfer(self, tx, reads=True):
        rx = None
        for cs, model, name, dc, clock in _spi_devices.get(self.id, ()):
            if pin_level(cs) == 0:
                if clock is not None:
                    clock(self.baudrate, reads)
                out = model.spi_transfer(bytes(tx))
                if out is not None and rx is None:
                    rx = bytes(out)
                if _trace is not None:
                    self._record(name, None if dc is None else pin_level(dc),
                                 tx, out)
        sim_clock.advance_us(len(tx) * 8 * 1000000 // self.baudrate)
        return rx if rx is not None else b"\xff" * len(tx)

    def _record(self, name, dc, tx, rx):
        seg = SPI._segments.get(self.id)
        if seg is not None and (seg[1] != name or seg[2] != dc):
            SPI._flush(self.id)
            seg = None
        if seg is None:
            seg = [sim_clock.now_us(), name, dc, bytearray(), bytearray()]
            SPI._segments[self.id] = seg
        seg[3].extend(tx)
        if rx is not None:
            seg[4].extend(rx)

    @staticmethod
    def _flush(bus_id):
        seg = SPI._segments.pop(bus_id, None)
        if seg is None or _trace is None:
            return
        rec = {"t": seg[0], "bus": "spi%s" % (bus_id,), "dev": seg[1]}
        if seg[2] is not None:
            rec["dc"] = seg[2]
        rec["tx"] = _hex(seg[3])
        rec["rx"] = _hex(seg[4])
        _trace(rec)

    def write(self, buf):
        self._xfer(buf, False)

    def read(self, nbytes, write=0):
        return self._xfer(bytes([write]) * nbytes)

    def readinto(self, buf, write=0):
        rx = self._xfer(bytes([write]) * len(buf))
        for i in range(len(buf)):
            buf[i] = rx[i]

    def write_readinto(self, write_buf, read_buf):
        if len(write_buf) != len(read_buf):
            raise ValueError("buffers must be the same length")
        rx = self._xfer(write_buf)
        for i in range(len(read_buf)):
            read_buf[i] = rx[i]


class I2C:
    def __new__(cls, id=0, *args, **kw):
        return _one(cls, id)

    def __init__(self, id=0, *, scl=None, sda=None, freq=400000,
                 timeout=50000):
        # freq keyword-only as on esp32 (rp2 also takes it second)
        self.id = id
        self.freq = freq
        self._t0 = 0
        self.scl = getattr(scl, "id", scl)
        self.sda = getattr(sda, "id", sda)

    def __repr__(self):
        # as the rp2 port prints it: drivers' error messages name the pins
        return "I2C(%s, freq=%d, scl=%s, sda=%s)" % (
            self.id, self.freq, self.scl, self.sda)

    def _device(self, addr):
        dev = _i2c_devices.get(self.id, {}).get(addr)
        if dev is None:
            # the address was NACKed: ENODEV as esp32 raises it (rp2
            # raises EIO, 5): a driver must take both
            raise OSError(19)
        return dev

    def _clock(self, nbytes):
        # address byte + data, 9 clocks each (8 bits and the ACK)
        self._t0 = sim_clock.now_us()
        sim_clock.advance_us((nbytes + 1) * 9 * 1000000 // self.freq)

    def _record(self, name, addr, tx, rx):
        # stamped, like an SPI segment, when the transfer starts
        if _trace is not None:
            _trace({"t": self._t0, "bus": "i2c%s" % (self.id,),
                    "dev": name, "addr": addr, "tx": _hex(tx), "rx": _hex(rx)})

    def scan(self):
        return sorted(_i2c_devices.get(self.id, {}))

    def writeto(self, addr, buf, stop=True):
        model, name = self._device(addr)
        model.i2c_write(bytes(buf))
        self._clock(len(buf))
        self._record(name, addr, buf, b"")
        return len(buf)

    def readfrom_into(self, addr, buf, stop=True):
        model, name = self._device(addr)
        rx = model.i2c_read(len(buf))
        for i in range(len(buf)):
            buf[i] = rx[i]
        self._clock(len(buf))
        self._record(name, addr, b"", rx)

    def readfrom(self, addr, nbytes, stop=True):
        buf = bytearray(nbytes)
        self.readfrom_into(addr, buf, stop)
        return bytes(buf)

    def writeto_mem(self, addr, memaddr, buf, *, addrsize=8):
        model, name = self._device(addr)
        data = _memaddr(memaddr, addrsize) + bytes(buf)
        model.i2c_write(data)
        self._clock(len(data))
        self._record(name, addr, data, b"")

    def readfrom_mem_into(self, addr, memaddr, buf, *, addrsize=8):
        mem = _memaddr(memaddr, addrsize)
        model, name = self._device(addr)
        model.i2c_write(mem)                # repeated start follows
        rx = model.i2c_read(len(buf))
        for i in range(len(buf)):
            buf[i] = rx[i]
        self._clock(len(mem) + 1 + len(buf))   # + the address again
        self._record(name, addr, mem, rx)

    def readfrom_mem(self, addr, memaddr, nbytes, *, addrsize=8):
        buf = bytearray(nbytes)
        self.readfrom_mem_into(addr, memaddr, buf, addrsize=addrsize)
        return bytes(buf)


def _memaddr(memaddr, addrsize):
    # as MicroPython sends it: addrsize bits (8, 16, 24 or 32), MSB first
    if addrsize % 8 or not 0 <= addrsize <= 32:
        raise ValueError("invalid addrsize")
    return bytes((memaddr >> s) & 0xFF for s in range(addrsize - 8, -1, -8))


class SoftI2C:
    def __init__(self, *args, **kw):
        raise NotImplementedError("the simulator has no SoftI2C: give the "
                                  "board's bus as I2C(id, scl=..., sda=...)")


class SoftSPI:
    def __init__(self, *args, **kw):
        raise NotImplementedError("the simulator has no SoftSPI: give the "
                                  "board's bus as SPI(id, sck=..., mosi=...)")


class PWM:
    """Enough for a backlight: the duty is remembered, the pin follows it."""

    def __init__(self, pin, freq=1000, duty_u16=0, **kw):
        self.pin = pin
        self._freq = freq
        # the PWM drives the pin, whatever its mode was
        pin.init(Pin.OUT, value=1 if duty_u16 else 0)
        self.duty_u16(duty_u16)

    def freq(self, f=None):
        if f is None:
            return self._freq
        self._freq = f

    def duty_u16(self, d=None):
        if d is None:
            return self._duty
        self._duty = d
        self.pin.value(1 if d else 0)

    def deinit(self):
        pass


def unique_id():
    return _unique_id


def freq(hz=None):
    return 125000000


def idle():
    sim_clock.advance_us(100)


def lightsleep(ms=0):
    sim_clock.advance_us(ms * 1000)


def reset():
    raise SimReset()


soft_reset = reset


def disable_irq():
    return 0


def enable_irq(state=0):
    pass
