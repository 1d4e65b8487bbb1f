"""NRF24L01+ model, from the nRF24L01+ Product Specification v1.0; with
plus=False the original nRF24L01, from its Product Specification v2.0.

What a driver sees through SPI, CE and IRQ:
- registers 0x00..0x1D with their reset values; W_REGISTER masks to the
  implemented bits, STATUS flags clear by writing 1;
- SPI commands R_REGISTER, W_REGISTER, R_RX_PAYLOAD, W_TX_PAYLOAD,
  FLUSH_TX, FLUSH_RX, REUSE_TX_PL, R_RX_PL_WID, W_ACK_PAYLOAD,
  W_TX_PAYLOAD_NOACK, NOP; STATUS is clocked out with every command byte;
- 3-deep TX and RX FIFOs, FIFO_STATUS, RX_P_NO, TX_FULL;
- modes: power down, standby-I/II, RX and TX, with PWR_UP start-up
  (Tpd2stby: 1.5 ms with a crystal of Ls < 30 mH, the default; more with a
  larger Ls, 4.5 ms at 90 mH: `tpd2stby_us`), 130 us TX/RX settling and
  the >= 10 us CE pulse;
- Enhanced ShockBurst: auto-ack (EN_AA), auto retransmit after ARD up to
  ARC times on the simulated clock, MAX_RT (TX FIFO kept until flushed;
  its packet sent again only on a CE toggle once MAX_RT is cleared),
  OBSERVE_TX counters, the 2-bit PID with duplicate detection on the
  receiver (same PID and CRC as the previous packet: acked, discarded),
  dynamic payload length (FEATURE.EN_DPL, DYNPD; a PTX sends the length
  only with DPL_P0 set) or static RX_PW_Px,
  ACK payloads;
- the IRQ pin (active low): low while RX_DR, TX_DS or MAX_RT is set in
  STATUS and its MASK_ bit in CONFIG is 0, high again once every such flag
  is cleared (writing 1 to it) or masked; driven at power-on (high: STATUS
  resets to no flags). irq_pin=None is a chip whose IRQ pin is wired to
  nothing: the micro's pin, if the board names one, reads its pull-up.

The nRF24L01 (plus=False) differs where a driver can tell:
- FEATURE and DYNPD, and the commands R_RX_PL_WID, W_ACK_PAYLOAD and
  W_TX_PAYLOAD_NOACK, start deactivated: a write has no effect, a read
  gives zeros, so no dynamic payload length is sent or accepted.
  ACTIVATE (0x50) followed by 0x73 activates them; the same again
  deactivates them (a toggle, kept until the supply goes). ACTIVATE is
  allowed in power down and standby only. What the registers hold while
  deactivated the datasheet does not say: the model keeps the last value
  written while active and reads, and acts on, zeros.
- RF_SETUP has no 250 kbps bit: bits 7:5 are reserved (only 000 allowed),
  so RF_DR_LOW reads 0 and the rate is RF_DR's, 1 or 2 Mbps; bit 0 is
  LNA_HCURR, reset value 0x0F.
On the nRF24L01+ ACTIVATE is not a command (its command table has none):
the model ignores it, and FEATURE and DYNPD always work.

Packets go on air through a medium (host_sim/radio_medium.py): a receiver
hears a packet only if it is in RX mode on the same channel and data rate,
with the same address width and CRC, on an enabled pipe's address.

`violations` lists things the datasheet forbids that a driver did (e.g. a
CE pulse shorter than 10 us, TX before the oscillator started, a register
other than STATUS written in RX mode, a packet that wants an ACK sent at
250 kbps with an ARD under 500 us, an SPI clock above the part's
maximum: 10 Mbps on the nRF24L01+, 8 Mbps on the nRF24L01, told by the
machine shim's `spi_clock` hook; each rate noted once); tests assert it
stays empty.
MicroPython-compatible (runs on the unix port).
"""
import sim_clock

try:
    import machine
except ImportError:     # pragma: no cover
    machine = None

# registers
CONFIG = 0x00
EN_AA = 0x01
EN_RXADDR = 0x02
SETUP_AW = 0x03
SETUP_RETR = 0x04
RF_CH = 0x05
RF_SETUP = 0x06
STATUS = 0x07
OBSERVE_TX = 0x08
RPD = 0x09
RX_ADDR_P0 = 0x0A
RX_ADDR_P1 = 0x0B
TX_ADDR = 0x10
RX_PW_P0 = 0x11
FIFO_STATUS = 0x17
DYNPD = 0x1C
FEATURE = 0x1D

# STATUS / CONFIG bits
RX_DR = 0x40
TX_DS = 0x20
MAX_RT = 0x10
TX_FULL = 0x01
PWR_UP = 0x02
PRIM_RX = 0x01
EN_CRC = 0x08
CRCO = 0x04
EN_DPL = 0x04
EN_ACK_PAY = 0x02
EN_DYN_ACK = 0x01

# commands
R_REGISTER = 0x00
W_REGISTER = 0x20
R_RX_PAYLOAD = 0x61
W_TX_PAYLOAD = 0xA0
FLUSH_TX = 0xE1
FLUSH_RX = 0xE2
REUSE_TX_PL = 0xE3
R_RX_PL_WID = 0x60
W_ACK_PAYLOAD = 0xA8
W_TX_PAYLOAD_NOACK = 0xB0
NOP = 0xFF
ACTIVATE = 0x50         # nRF24L01 (not +): followed by ACTIVATE_KEY
ACTIVATE_KEY = 0x73

# writable bits of each 1-byte register (datasheet register map)
_MASK = {CONFIG: 0x7F, EN_AA: 0x3F, EN_RXADDR: 0x3F, SETUP_AW: 0x03,
         SETUP_RETR: 0xFF, RF_CH: 0x7F, RF_SETUP: 0xBE, STATUS: 0x70,
         0x0C: 0xFF, 0x0D: 0xFF, 0x0E: 0xFF, 0x0F: 0xFF,
         0x11: 0x3F, 0x12: 0x3F, 0x13: 0x3F, 0x14: 0x3F, 0x15: 0x3F,
         0x16: 0x3F, DYNPD: 0x3F, FEATURE: 0x07}
_RESET = {CONFIG: 0x08, EN_AA: 0x3F, EN_RXADDR: 0x03, SETUP_AW: 0x03,
          SETUP_RETR: 0x03, RF_CH: 0x02, RF_SETUP: 0x0E, STATUS: 0x0E,
          OBSERVE_TX: 0x00, RPD: 0x00, 0x0C: 0xC3, 0x0D: 0xC4, 0x0E: 0xC5,
          0x0F: 0xC6, 0x11: 0, 0x12: 0, 0x13: 0, 0x14: 0, 0x15: 0, 0x16: 0,
          FIFO_STATUS: 0x11, DYNPD: 0, FEATURE: 0}
# the nRF24L01 (v2.0): RF_SETUP bits 7:5 reserved, bit 0 LNA_HCURR (set)
_MASK_V2 = dict(_MASK)
_MASK_V2[RF_SETUP] = 0x1F
_RESET_V2 = dict(_RESET)
_RESET_V2[RF_SETUP] = 0x0F

# SPI clock: "0-10Mbps 4-wire SPI" (nRF24L01+ Product Specification v1.0,
# 8.1; 8.2: "a maximum data rate of 10Mbps"); "0-8Mbps 4-wire SPI serial
# interface" (nRF24L01 Product Specification v2.0, 8.1, as drivers quote it)
SPI_HZ_MAX_PLUS = 10000000
SPI_HZ_MAX_V2 = 8000000
T_PD2STBY = 1500     # us, power down -> standby (crystal Ls < 30 mH)
T_SETTLE = 130       # us, standby -> TX or RX
T_CE_PULSE = 10      # us, minimum CE high to start a TX

# modes
POWER_DOWN = "power_down"
STANDBY_I = "standby_I"
STANDBY_II = "standby_II"
RX_MODE = "rx"
TX_MODE = "tx"


def rate_bps(rf_setup):
    if rf_setup & 0x20:
        return 250000
    if rf_setup & 0x08:
        return 2000000
    return 1000000


def air_us(nbytes, addr_w, crc_len, rate):
    """Time on air of one packet: preamble, address, 9-bit PCF, payload, CRC."""
    bits = (1 + addr_w + nbytes + crc_len) * 8 + 9
    return (bits * 1000000 + rate - 1) // rate


class Frame:
    """One packet on air (what the medium carries)."""

    def __init__(self, channel, rate, addr, payload, pid, noack, dpl, crc,
                 is_ack=False):
        self.channel = channel
        self.rate = rate
        self.addr = bytes(addr)
        self.payload = bytes(payload)
        self.pid = pid
        self.noack = noack
        self.dpl = dpl
        self.crc = crc
        self.is_ack = is_ack
        self.entry = None
        self.t0 = 0
        self.t_end = 0
        self.sender = None
        self.token = 0

    def crc_value(self):
        # stands for the packet's on-air CRC in duplicate detection
        h = 0
        for b in self.addr + self.payload:
            h = (h * 31 + b) & 0xFFFF
        return h


class NRF24L01Model:
    def __init__(self, ce_pin=None, irq_pin=None, medium=None, name="nrf24l01",
                 plus=True, tpd2stby_us=T_PD2STBY):
        self.name = name
        self.plus = plus        # False: the original nRF24L01 (v2.0)
        self.tpd2stby_us = tpd2stby_us  # the crystal's start-up
        self._mask = _MASK if plus else _MASK_V2
        self.ce_pin = ce_pin
        self.irq_pin = irq_pin
        self.violations = []
        self.spi_hz_max = SPI_HZ_MAX_PLUS if plus else SPI_HZ_MAX_V2
        self._hz_noted = []     # SPI rates already noted as too fast
        self.medium = None
        self.sent = 0           # counters for benchmarks and tests
        self.received = 0
        self.retransmits = 0
        self.power_cycle()
        if machine is not None and ce_pin is not None:
            machine.watch_pin(ce_pin, self._ce_changed)
        if medium is not None:
            medium.attach(self)

    # ---- power and registers -------------------------------------------

    def power_cycle(self):
        """Supply off and on: every register back to its reset value."""
        self.regs = bytearray(0x1E)
        for r, v in (_RESET if self.plus else _RESET_V2).items():
            self.regs[r] = v
        self.activated = False  # nRF24L01: ACTIVATE 0x73 toggles this
        self.addr = {RX_ADDR_P0: bytearray(b"\xe7" * 5),
                     RX_ADDR_P1: bytearray(b"\xc2" * 5),
                     TX_ADDR: bytearray(b"\xe7" * 5)}
        self.tx_fifo = []       # [payload, noack, ack pipe or -1, PID or -1]
        self.rx_fifo = []       # [pipe, payload bytes]
        self.reuse = False
        self.mode = POWER_DOWN
        self.ce = 0
        self._ready_us = 0      # oscillator stable (standby reachable)
        self._rx_since = None   # listening from this time (after settling)
        self._busy_until = 0    # sending an ACK: deaf until then
        self._tx_gen = 0        # bumps to cancel scheduled TX events
        self._tx_busy = False
        self._awaiting = None   # frame waiting for its ACK
        self._pid = 0
        self._last_rx = {}      # pipe -> (pid, crc) for duplicate detection
        self._ack_sent = False  # an ACK payload went out (PRX TX_DS later)
        self._cs = False
        self._cmd = None
        self._pos = 0
        self._data = bytearray()
        self._wid_glitch = None     # see glitch_width
        self._ce_rise = 0
        self._failed = None     # the TX FIFO entry MAX_RT left: sent again
                                # only after a CE toggle
        self._irq_level = None
        self._drive_irq()

    def _status(self):
        s = self.regs[STATUS] & 0x70
        if self.rx_fifo:
            s |= (self.rx_fifo[0][0] & 7) << 1
        else:
            s |= 0x0E
        if len(self.tx_fifo) >= 3:
            s |= TX_FULL
        return s

    def _fifo_status(self):
        v = 0
        if self.reuse:
            v |= 0x40
        if len(self.tx_fifo) >= 3:
            v |= 0x20
        if not self.tx_fifo:
            v |= 0x10
        if len(self.rx_fifo) >= 3:
            v |= 0x02
        if not self.rx_fifo:
            v |= 0x01
        return v

    def _addr_w(self):
        aw = self.regs[SETUP_AW] & 3
        return aw + 2 if aw else 0

    def _crc_len(self):
        c = self.regs[CONFIG]
        if not c & EN_CRC and not self.regs[EN_AA] & 0x3F:
            return 0
        return 2 if c & CRCO else 1     # EN_AA forces CRC on

    def _features(self):
        """FEATURE/DYNPD and their commands work (always on the +)."""
        return self.plus or self.activated

    def _feature(self):
        return self.regs[FEATURE] if self._features() else 0

    def _dpl(self, pipe):
        return bool(self._feature() & EN_DPL and
                    self.regs[DYNPD] >> pipe & 1)

    def read_reg(self, reg):
        if reg in self.addr:
            return bytes(self.addr[reg][:self._addr_w() or 5])
        if reg == STATUS:
            return bytes([self._status()])
        if reg == FIFO_STATUS:
            return bytes([self._fifo_status()])
        if reg in (FEATURE, DYNPD) and not self._features():
            return b"\x00"
        if reg < len(self.regs):
            return bytes([self.regs[reg]])
        return b"\x00"

    def rx_address(self, pipe):
        """The full address a pipe listens on (P2..P5 share P1's high bytes)."""
        if pipe == 0:
            return bytes(self.addr[RX_ADDR_P0][:self._addr_w()])
        a = bytearray(self.addr[RX_ADDR_P1][:self._addr_w()])
        if pipe > 1:
            a[0] = self.regs[RX_ADDR_P0 + pipe]
        return bytes(a)

    def _write_reg(self, reg, data):
        if not data:
            return
        if reg in self.addr:
            a = self.addr[reg]
            for i in range(min(len(data), 5)):
                a[i] = data[i]
            return
        if reg not in self._mask:
            return
        if reg in (FEATURE, DYNPD) and not self._features():
            return              # nRF24L01 before ACTIVATE: no effect
        v = data[0] & self._mask[reg]
        if reg == STATUS:
            self.regs[STATUS] &= ~(v & 0x70) & 0xFF
            if v & MAX_RT:
                self._tx_kick()
            self._drive_irq()
            return
        if reg == RF_CH:
            self.regs[OBSERVE_TX] &= 0x0F   # writing RF_CH clears PLOS_CNT
        old = self.regs[reg]
        self.regs[reg] = v
        if reg == CONFIG:
            if v & PWR_UP and not old & PWR_UP:
                self._ready_us = sim_clock.now_us() + self.tpd2stby_us
            self._drive_irq()
            self._update_mode()

    # ---- SPI ----------------------------------------------------------------

    def spi_select(self):
        self._cs = True
        self._cmd = None
        self._pos = 0
        self._data = bytearray()

    def spi_deselect(self):
        if self._cs and self._cmd is not None:
            self._end_command()
        self._cs = False
        self._cmd = None

    def spi_clock(self, hz, reads):
        """The bus's SCK for the transfer that follows (machine shim hook):
        above the part's maximum, in either direction, is a violation."""
        if hz > self.spi_hz_max and hz not in self._hz_noted:
            self._hz_noted.append(hz)
            self.violations.append(
                "SPI clock %d Hz above the %s's %d Mbps" % (
                    hz, "nRF24L01+" if self.plus else "nRF24L01",
                    self.spi_hz_max // 1000000))

    def spi_transfer(self, tx):
        out = bytearray(len(tx))
        for i in range(len(tx)):
            out[i] = self._byte(tx[i])
        return bytes(out)

    def _byte(self, b):
        if self._cmd is None:
            self._cmd = b
            self._pos = 0
            if b == FLUSH_TX:
                self.tx_fifo = []
                self.reuse = False
                self._tx_busy = False
                self._awaiting = None
                self._tx_gen += 1
            elif b == FLUSH_RX:
                self.rx_fifo = []
                self._wid_glitch = None     # the corrupt packet went with it
            elif b == REUSE_TX_PL:
                self.reuse = True
            return self._status()
        cmd = self._cmd
        pos = self._pos
        self._pos += 1
        if cmd < 0x20:                      # R_REGISTER
            val = self.read_reg(cmd & 0x1F)
            return val[pos] if pos < len(val) else 0
        if cmd < 0x40:                      # W_REGISTER
            self._data.append(b)
            return 0
        if cmd == ACTIVATE:
            self._data.append(b)
            return 0
        if cmd == R_RX_PL_WID:
            if not self._features():
                return 0        # deactivated: zeros on MISO
            if self._wid_glitch is not None and self.rx_fifo:
                return self._wid_glitch
            return len(self.rx_fifo[0][1]) if self.rx_fifo else 0
        if cmd == R_RX_PAYLOAD:
            if not self.rx_fifo:
                return 0
            p = self.rx_fifo[0][1]
            return p[pos] if pos < len(p) else 0
        if cmd in (W_TX_PAYLOAD, W_TX_PAYLOAD_NOACK) or (cmd & 0xF8) == W_ACK_PAYLOAD:
            self._data.append(b)
            return 0
        return 0

    def _end_command(self):
        cmd = self._cmd
        data = bytes(self._data)
        if 0x20 <= cmd < 0x40:
            reg = cmd & 0x1F
            if reg != STATUS and data and self.mode == RX_MODE:
                # the command table: power down and standby only (STATUS
                # is how the RX flags are cleared while listening). Not
                # flagged in TX: once CE falls the chip ends its packet on
                # its own, and powering down then is how a send is dropped.
                self.violations.append("W_REGISTER 0x%02x in RX mode" % reg)
            self._write_reg(reg, data)
        elif cmd == ACTIVATE:
            self._activate(data)
        elif cmd == R_RX_PAYLOAD:
            if self.rx_fifo and self._pos > 0:
                self.rx_fifo.pop(0)
                self._wid_glitch = None
        elif cmd in (W_TX_PAYLOAD, W_TX_PAYLOAD_NOACK):
            if cmd == W_TX_PAYLOAD_NOACK and not self._features():
                return          # nRF24L01 before ACTIVATE: not a command
            if cmd == W_TX_PAYLOAD_NOACK and not self._feature() & EN_DYN_ACK:
                self.violations.append("W_TX_PAYLOAD_NOACK without EN_DYN_ACK")
                return
            if len(self.tx_fifo) >= 3 or not 1 <= len(data) <= 32:
                return
            self.reuse = False
            self.tx_fifo.append([data, cmd == W_TX_PAYLOAD_NOACK, -1, -1])
            self._tx_kick()
        elif (cmd & 0xF8) == W_ACK_PAYLOAD:
            if self._features() and len(self.tx_fifo) < 3 and \
                    1 <= len(data) <= 32:
                self.tx_fifo.append([data, False, cmd & 7, -1])

    def _activate(self, data):
        if self.plus:
            return              # not a command on the nRF24L01+
        if len(data) != 1 or data[0] != ACTIVATE_KEY:
            return
        if self.mode not in (POWER_DOWN, STANDBY_I, STANDBY_II):
            self.violations.append("ACTIVATE outside power down / standby")
            return
        self.activated = not self.activated

    def glitch_width(self, w):
        """Make R_RX_PL_WID answer `w` (0..255; > 32 is the datasheet's
        corrupt case, 0 a width no data packet has) for the packet at the
        head of the RX FIFO, until it is read or flushed; None: no glitch."""
        if w is not None and not 0 <= w <= 255:
            raise ValueError("R_RX_PL_WID is one byte: 0..255 or None")
        self._wid_glitch = w

    # ---- IRQ --------------------------------------------------------------

    def _drive_irq(self):
        flags = self.regs[STATUS] & 0x70 & ~(self.regs[CONFIG] & 0x70)
        level = 0 if flags else 1
        if level != self._irq_level:
            self._irq_level = level
            if machine is not None and self.irq_pin is not None:
                machine.drive_pin(self.irq_pin, level)

    def _flag(self, bit):
        self.regs[STATUS] |= bit
        self._drive_irq()

    # ---- modes ------------------------------------------------------------

    def _ce_changed(self, level):
        if level and not self.ce:
            self._ce_rise = sim_clock.now_us()
            self._failed = None
        self.ce = 1 if level else 0
        self._update_mode()

    def _update_mode(self):
        now = sim_clock.now_us()
        cfg = self.regs[CONFIG]
        if not cfg & PWR_UP:
            self.mode = POWER_DOWN
            self._rx_since = None
            self._tx_gen += 1
            self._tx_busy = False
            self._awaiting = None
            return
        if self._tx_busy:
            return              # a TX sequence finishes on its own
        if cfg & PRIM_RX:
            if self.ce:
                if self.mode != RX_MODE:
                    self.mode = RX_MODE
                    self._rx_since = max(now, self._ready_us) + T_SETTLE
            else:
                self.mode = STANDBY_I
                self._rx_since = None
            return
        self._rx_since = None
        if self.ce:
            if self.mode not in (TX_MODE, STANDBY_II):
                self.mode = STANDBY_II
                gen = self._tx_gen
                sim_clock.call_at(now + T_CE_PULSE,
                                  lambda: self._ce_pulse_check(gen))
            else:
                self._tx_kick()
        else:
            self.mode = STANDBY_I

    def _ce_pulse_check(self, gen):
        if gen != self._tx_gen:
            return
        if not self.ce:
            self.violations.append("CE pulse shorter than 10 us")
            return
        self._tx_kick(True)

    def _tx_kick(self, pulse_ok=False):
        """Start transmitting the TX FIFO's head if TX mode allows it."""
        cfg = self.regs[CONFIG]
        if self._tx_busy or cfg & PRIM_RX or not cfg & PWR_UP:
            return
        if not self.ce or self.regs[STATUS] & MAX_RT:
            return
        if self._failed is not None and self._failed is self._tx_head():
            return              # PS 7.8.7: a CE toggle starts it again
        if not pulse_ok and self.mode != STANDBY_II:
            return
        if not pulse_ok and sim_clock.now_us() - self._ce_rise < T_CE_PULSE:
            return
        head = self._tx_head()
        if head is None:
            self.mode = STANDBY_II
            return
        now = sim_clock.now_us()
        if now < self._ready_us:
            self.violations.append("TX before Tpd2stby (PWR_UP %d us)"
                                   % self.tpd2stby_us)
        self._tx_busy = True
        self.mode = TX_MODE
        self._tx_gen += 1
        gen = self._tx_gen
        if head[3] < 0:
            # a new payload from the MCU gets the next PID; the same payload
            # again (REUSE_TX_PL, CE toggled after MAX_RT) keeps its PID
            self._pid = (self._pid + 1) & 3
            head[3] = self._pid
        self.regs[OBSERVE_TX] &= 0xF0   # ARC_CNT restarts per packet
        start = max(now, self._ready_us) + T_SETTLE
        sim_clock.call_at(start, lambda: self._tx_air(gen, head))

    def _tx_head(self):
        for e in self.tx_fifo:
            if e[2] < 0:
                return e
        return None

    def _tx_air(self, gen, entry):
        if gen != self._tx_gen:
            return
        now = sim_clock.now_us()
        rate = rate_bps(self.regs[RF_SETUP])
        noack = entry[1]
        f = Frame(self.regs[RF_CH], rate,
                  bytes(self.addr[TX_ADDR][:self._addr_w()]), entry[0],
                  entry[3], noack, self._dpl(0),
                  self._crc_len())
        f.t0 = now
        f.t_end = now + air_us(len(entry[0]), self._addr_w(), f.crc, rate)
        f.sender = self
        f.token = gen
        f.entry = entry
        want_ack = not noack and self.regs[EN_AA] & 1
        self.sent += 1
        if want_ack:
            self._awaiting = f
        if self.medium is not None:
            self.medium.transmit(self, f)
        ard = ((self.regs[SETUP_RETR] >> 4) + 1) * 250
        if want_ack and rate == 250000 and ard < 500:
            # the ACK cannot be in before the ARD ends (SETUP_RETR, 7.4.2)
            self.violations.append("ARD %d us at 250 kbps" % ard)
        if want_ack:
            sim_clock.call_at(f.t_end + ard, lambda: self._ack_timeout(gen, entry))
        else:
            sim_clock.call_at(f.t_end, lambda: self._tx_done(gen, entry))

    def ack_in(self, frame, ack):
        """The medium brings the ACK (a Frame) for `frame`."""
        if self._awaiting is not frame or frame.token != self._tx_gen:
            return
        if not self.regs[EN_AA] & self.regs[EN_RXADDR] & 1 or \
                ack.addr != self.rx_address(0):
            return      # pipe 0 must listen on TX_ADDR to catch the ACK
        self._awaiting = None
        if ack.payload and len(self.rx_fifo) < 3:
            self.rx_fifo.append([0, ack.payload])
            self._flag(RX_DR)
        self._tx_done(frame.token, frame.entry)

    def _tx_done(self, gen, entry):
        if gen != self._tx_gen:
            return
        self._tx_gen += 1
        if entry is not None and not self.reuse and entry in self.tx_fifo:
            self.tx_fifo.remove(entry)
        self._tx_busy = False
        self._flag(TX_DS)
        self.mode = STANDBY_I
        self._after_tx()

    def _after_tx(self):
        if self.ce and not self.regs[CONFIG] & PRIM_RX:
            self.mode = STANDBY_II
            self._tx_kick(True)
        else:
            self._update_mode()

    def _ack_timeout(self, gen, entry):
        if gen != self._tx_gen or self._awaiting is None:
            return
        self._awaiting = None
        obs = self.regs[OBSERVE_TX]
        plos = obs >> 4
        arc_cnt = obs & 0x0F
        if arc_cnt >= (self.regs[SETUP_RETR] & 0x0F):
            # a lost packet: PLOS_CNT counts them, stops at 15
            self.regs[OBSERVE_TX] = (min(15, plos + 1) << 4) | arc_cnt
            self._tx_busy = False
            self._tx_gen += 1
            self.mode = STANDBY_I
            self._failed = entry
            self._flag(MAX_RT)      # the payload stays in the TX FIFO
            self._after_tx()
            return
        self.regs[OBSERVE_TX] = (plos << 4) | (arc_cnt + 1)
        self.retransmits += 1
        self._tx_gen += 1
        self._tx_air(self._tx_gen, entry)     # same PID: a retransmission

    # ---- receiving --------------------------------------------------------

    def listening(self, at_us):
        return (self.mode == RX_MODE and self._rx_since is not None
                and self._rx_since <= at_us and self._busy_until <= at_us)

    def air_receive(self, f):
        """A packet ends on air. Returns the ACK Frame to send back, or None."""
        if f.is_ack or not self.listening(f.t0):
            return None
        if f.channel != self.regs[RF_CH] or f.rate != rate_bps(self.regs[RF_SETUP]):
            return None
        if len(f.addr) != self._addr_w() or f.crc != self._crc_len():
            return None
        pipe = -1
        en = self.regs[EN_RXADDR]
        for p in range(6):
            if en >> p & 1 and self.rx_address(p) == f.addr:
                pipe = p
                break
        if pipe < 0:
            return None
        dpl = self._dpl(pipe)
        if dpl and not f.dpl:
            return None     # no length in the packet control field
        if not dpl and len(f.payload) != self.regs[RX_PW_P0 + pipe]:
            return None     # static width mismatch: the CRC fails
        auto_ack = self.regs[EN_AA] >> pipe & 1 and not f.noack
        key = (f.pid, f.crc_value())
        dup = auto_ack and self._last_rx.get(pipe) == key
        if not dup:
            if len(self.rx_fifo) >= 3:
                return None     # RX FIFO full: dropped, not acknowledged
            self._last_rx[pipe] = key
            self.rx_fifo.append([pipe, f.payload])
            self.received += 1
            if self._ack_sent:
                self._ack_sent = False
                self._flag(TX_DS)
            self._flag(RX_DR)
        if not auto_ack:
            return None
        payload = b""
        if self._feature() & EN_ACK_PAY:
            for e in self.tx_fifo:
                if e[2] == pipe:
                    payload = e[0]
                    self.tx_fifo.remove(e)
                    self._ack_sent = True
                    break
        ack = Frame(f.channel, f.rate, f.addr, payload, f.pid, True, f.dpl,
                    f.crc, True)
        ack.t0 = f.t_end + T_SETTLE
        ack.t_end = ack.t0 + air_us(len(payload), len(f.addr), f.crc, f.rate)
        ack.sender = self
        self._busy_until = ack.t_end
        return ack
