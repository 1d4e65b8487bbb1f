"""NRF24L01(+) 2.4 GHz radio over SPI: Enhanced ShockBurst, dynamic payloads.

    nrf = NRF24L01(spi, cs, ce, irq=None, channel=76, rate=RATE_1M,
                   power=POWER_0DBM, ard_us=500, arc=5)
    nrf.open_tx_pipe(b"PEER1")      # 5-byte address (pipe 0 catches ACKs)
    nrf.open_rx_pipe(1, b"ME___")   # pipes 1..5 (2..5: first byte only)
    nrf.start_listening()
    if nrf.any(): n = nrf.recv()    # payload in nrf.rx[:n] (n 0 = dropped)
    nrf.send(buf, n)                # True: acknowledged; False: MAX_RT
    nrf.power_down()
    nrf.check_wires()               # boot self-test of the CE and IRQ wires

Auto-ack with retransmit (SETUP_RETR), 2-byte CRC, 5-byte addresses,
dynamic payload length (FEATURE.EN_DPL, DYNPD). The original nRF24L01
ignores FEATURE and DYNPD until the ACTIVATE command, which toggles them on
and off; the driver sends it only when FEATURE did not take the write (the
nRF24L01+ has no ACTIVATE). rate and power take the constants below only
(else ValueError). RATE_250K needs the nRF24L01+: the nRF24L01 refuses it
with OSError, RF_SETUP left as it was. At 250 kbps an ACK needs a
retransmit delay of 500 us or more: a shorter ard_us is a ValueError. The
chip is powered down whenever it is neither listening nor sending (4.5 ms
start-up before a send from power down). One preallocated buffer each way,
and a view of it kept for each payload width used (16 widths, both ways
together): once a width has been seen, its packets allocate nothing.

The IRQ pin is optional: with it, send_done() reads STATUS only once the
pin has gone low (the chip pulls it low while TX_DS, MAX_RT or RX_DR is set
and not masked in CONFIG, until the flag is cleared by writing 1 to it);
without it, STATUS is polled. Receiving never looks at the pin (any() reads
FIFO_STATUS). A pin that is not wired to the chip reads high for ever, and
every send would time out: check_wires() finds that at boot, and send()
raises OSError when it times out although STATUS shows the send ended. A CE
wire that is missing, IRQ pin or not, means the chip never sends at all:
check_wires() finds that too.
"""
import time
from micropython import const

_CONFIG = const(0x00)
_EN_AA = const(0x01)
_EN_RXADDR = const(0x02)
_SETUP_AW = const(0x03)
_SETUP_RETR = const(0x04)
_RF_CH = const(0x05)
_RF_SETUP = const(0x06)
_STATUS = const(0x07)
_OBSERVE_TX = const(0x08)
_RX_ADDR_P0 = const(0x0A)
_TX_ADDR = const(0x10)
_FIFO_STATUS = const(0x17)
_DYNPD = const(0x1C)
_FEATURE = const(0x1D)

_R_REGISTER = const(0x00)
_W_REGISTER = const(0x20)
_R_RX_PAYLOAD = const(0x61)
_W_TX_PAYLOAD = const(0xA0)
_FLUSH_TX = const(0xE1)
_FLUSH_RX = const(0xE2)
_R_RX_PL_WID = const(0x60)
_ACTIVATE = const(0x50)     # nRF24L01 (not +), followed by _ACTIVATE_KEY
_ACTIVATE_KEY = const(0x73)
_NOP = const(0xFF)

_EN_CRC = const(0x08)
_CRCO = const(0x04)
_PWR_UP = const(0x02)
_PRIM_RX = const(0x01)
_RX_DR = const(0x40)
_TX_DS = const(0x20)
_MAX_RT = const(0x10)
_RX_EMPTY = const(0x01)
_EN_DPL = const(0x04)
_RF_PWR = const(0x06)       # RF_SETUP bits 2:1; 00 is -18 dBm
_ALL_PIPES = const(0x3F)    # EN_AA, DYNPD: pipes 0 to 5
_PIPE_0 = const(0x01)       # EN_RXADDR: pipe 0, on only while not listening
_PIPE_1 = const(0x02)
_AW_3 = const(0x01)         # SETUP_AW: 3-byte addresses
_AW_5 = const(0x03)         # 5-byte
_ARD_500 = const(0x10)      # SETUP_RETR: ARD 500 us (ACKs at any rate), ARC 0
_ARC_CNT = const(0x0F)      # OBSERVE_TX bits 3:0: retransmits of the last packet
_MAX_CHANNEL = const(125)
_MAX_PAYLOAD = const(32)
_LNA_HCURR = const(0x01)    # RF_SETUP bit 0: nRF24L01 LNA gain high (its
                            # reset value; 0 costs 1.5 dB); + : don't care

RATE_250K = const(0x20)
RATE_1M = const(0x00)
RATE_2M = const(0x08)
POWER_M18DBM = const(0x00)
POWER_M12DBM = const(0x02)
POWER_M6DBM = const(0x04)
POWER_0DBM = const(0x06)

_T_PD2STBY = const(4500)    # us: power down -> standby, a crystal of Ls up
                            # to 90 mH (1.5 ms is for Ls < 30 mH only)
_T_SETTLE = const(130)      # us: standby -> RX/TX
_T_CE_PULSE = const(15)     # us: >= 10 us starts a TX
_T_POLL = const(50)         # us between two STATUS reads while sending
_TEST_POLLS = const(400)    # >= 20 ms: check_wires' send takes ~5 ms
_VIEWS = const(16)          # payload views kept, by width and direction

# check_wires' packet goes to _NOBODY, an address no one listens on (and
# neither one level shift, 00..FF, nor a run of the 0101 preamble, which the
# datasheet says noise can match); TX_ADDR and RX_ADDR_P0 then get their
# reset value back
_NOBODY = b"\xc5nRQ\x3a"
_RESET_ADDR = b"\xe7\xe7\xe7\xe7\xe7"


class NRF24L01:
    def __init__(self, spi, cs, ce, irq=None, channel=76, rate=RATE_1M,
                 power=POWER_0DBM, ard_us=500, arc=5):
        self.spi = spi
        self.cs = cs
        self.ce = ce
        self.irq = irq
        cs.init(cs.OUT, value=1)
        ce.init(ce.OUT, value=0)
        if irq is not None:
            irq.init(irq.IN, irq.PULL_UP)
        self._b1 = bytearray(1)
        self._b2 = bytearray(2)
        self._r2 = bytearray(2)
        self.rx = bytearray(_MAX_PAYLOAD)
        self._tx = bytearray(_MAX_PAYLOAD)
        self._txaddr = bytearray(5)     # what TX_ADDR and RX_ADDR_P0 hold
        self._txset = False
        self._rxen = _PIPE_1    # EN_RXADDR's pipes 1..5; see _pipes
        self._en = -1           # EN_RXADDR as last written
        self._views = {}        # see _view
        self.listening = False
        self._resume = False    # listening before a send: _idle goes back
        self.powered = False
        self.lost = 0           # packets that reached MAX_RT
        self.retries = 0        # retransmissions (ARC_CNT summed)
        self.dropped = 0        # RX payloads flushed for a bad width
        self._rate = rate
        self._ard = ard_us
        self._rf_check(rate, power)
        self._check(cs, ce)
        self.set_retries(ard_us, arc)                   # refuses before writing
        self._reg_write(_CONFIG, _EN_CRC | _CRCO)       # 2-byte CRC, down
        self._reg_write(_EN_AA, _ALL_PIPES)
        self._pipes(False)
        self._features()
        self._reg_write(_DYNPD, _ALL_PIPES)
        self.set_channel(channel)
        self.set_rf(rate, power)
        self._cmd(_FLUSH_TX)
        self._cmd(_FLUSH_RX)
        self._reg_write(_STATUS, _RX_DR | _TX_DS | _MAX_RT)

    def _check(self, cs, ce):
        for aw in (_AW_3, _AW_5):
            self._reg_write(_SETUP_AW, aw)
            got = self._reg_read(_SETUP_AW)
            if got != aw:
                raise OSError("NRF24L01 not responding (cs=%s, ce=%s): "
                              "SETUP_AW wrote 0x%02x, read 0x%02x"
                              % (cs, ce, aw, got))

    def _features(self):
        # The nRF24L01 keeps FEATURE, DYNPD and R_RX_PL_WID off (a write is
        # lost, a read gives 0) until ACTIVATE 0x73, and the same command
        # again turns them off: so only when the write did not take. A chip
        # already on (the MCU reset, not the radio) keeps it.
        self._reg_write(_FEATURE, _EN_DPL)
        if self._reg_read(_FEATURE) == _EN_DPL:
            return
        self._cmd2(_ACTIVATE, _ACTIVATE_KEY)
        self._reg_write(_FEATURE, _EN_DPL)
        got = self._reg_read(_FEATURE)
        if got != _EN_DPL:
            raise OSError("NRF24L01: FEATURE wrote 0x%02x, read 0x%02x even "
                          "after ACTIVATE: no dynamic payloads" % (_EN_DPL, got))

    # ---- SPI --------------------------------------------------------------

    def _reg_read(self, reg):
        self._b2[0] = _R_REGISTER | reg
        self._b2[1] = _NOP
        self.cs(0)
        self.spi.write_readinto(self._b2, self._r2)
        self.cs(1)
        return self._r2[1]

    def _standby(self, reg):
        """W_REGISTER is for power down and standby only (datasheet), save
        STATUS, whose RX flags are cleared while listening: CE drops for a
        write while listening. True: the caller raises it again."""
        if self.listening and reg != _STATUS:
            self.ce(0)
            return True
        return False

    def _reg_write(self, reg, val):
        rx = self._standby(reg)
        st = self._cmd2(_W_REGISTER | reg, val)
        if rx:
            self.ce(1)
        return st

    def _cmd2(self, cmd, val):
        """A command and one data byte; returns STATUS."""
        self._b2[0] = cmd
        self._b2[1] = val
        self.cs(0)
        self.spi.write_readinto(self._b2, self._r2)
        self.cs(1)
        return self._r2[0]

    def _reg_write_buf(self, reg, buf):
        rx = self._standby(reg)
        self._cmd_buf(_W_REGISTER | reg, buf)
        if rx:
            self.ce(1)

    def _cmd_buf(self, cmd, buf):
        """A command and the bytes of buf."""
        self._b1[0] = cmd
        self.cs(0)
        self.spi.write(self._b1)
        self.spi.write(buf)
        self.cs(1)

    def _cmd(self, cmd):
        """One-byte command; returns STATUS."""
        self._b1[0] = cmd
        self.cs(0)
        self.spi.write_readinto(self._b1, self._b1)
        self.cs(1)
        return self._b1[0]

    def status(self):
        return self._cmd(_NOP)

    def _view(self, buf, n, key):
        """buf[:n], a view kept for the first _VIEWS keys (rx: n, tx: -n):
        slicing allocates, and a program sends a few widths over and over."""
        v = self._views.get(key)
        if v is None:
            v = memoryview(buf)[:n]
            if len(self._views) < _VIEWS:
                self._views[key] = v
        return v

    # ---- configuration ----------------------------------------------------

    def set_channel(self, ch):
        if not 0 <= ch <= _MAX_CHANNEL:
            raise ValueError("NRF24L01 channel must be 0..125")
        self._reg_write(_RF_CH, ch)

    def set_rf(self, rate, power):
        self._rf_check(rate, power)
        self._slow_ack(rate, self._ard)
        old = self._reg_read(_RF_SETUP)
        self._reg_write(_RF_SETUP, rate | power | _LNA_HCURR)
        if rate == RATE_250K and not self._reg_read(_RF_SETUP) & RATE_250K:
            # the nRF24L01's RF_SETUP has no such bit: it took 1 Mbps
            self._reg_write(_RF_SETUP, old)
            raise OSError("NRF24L01: 250 kbps needs an nRF24L01+; this chip "
                          "has 1 and 2 Mbps only")
        self._rate = rate

    def _rf_check(self, rate, power):
        if rate not in (RATE_250K, RATE_1M, RATE_2M):
            raise ValueError("NRF24L01 rate must be RATE_250K, RATE_1M or "
                             "RATE_2M, not %r" % (rate,))
        if power not in (POWER_M18DBM, POWER_M12DBM, POWER_M6DBM, POWER_0DBM):
            raise ValueError("NRF24L01 power must be POWER_M18DBM, "
                             "POWER_M12DBM, POWER_M6DBM or POWER_0DBM, not %r"
                             % (power,))

    def set_retries(self, ard_us, arc):
        if not (250 <= ard_us <= 4000 and 0 <= arc <= 15):
            raise ValueError("NRF24L01 retries: ard_us 250..4000, arc 0..15")
        self._slow_ack(self._rate, ard_us)
        self._reg_write(_SETUP_RETR, ((ard_us // 250 - 1) << 4) | arc)
        self._ard = ard_us

    def _slow_ack(self, rate, ard_us):
        # at 250 kbps an ACK takes longer on air than an ARD of 250 us
        if rate == RATE_250K and ard_us < 500:
            raise ValueError("NRF24L01: at 250 kbps ard_us must be 500 or more")

    def open_tx_pipe(self, addr):
        """Where send() goes; its ACKs come back on pipe 0, at the same
        address. Written only when it changes: a send to the same peer
        costs no register writes."""
        if len(addr) != 5:
            raise ValueError("NRF24L01 address must be 5 bytes")
        a = self._txaddr
        for i in range(5):
            if a[i] != addr[i]:
                break
        else:
            if self._txset:
                return
        self._reg_write_buf(_RX_ADDR_P0, addr)
        self._reg_write_buf(_TX_ADDR, addr)
        for i in range(5):
            a[i] = addr[i]
        self._txset = True

    def open_rx_pipe(self, pipe, addr):
        if not 1 <= pipe <= 5:
            raise ValueError("NRF24L01 rx pipe must be 1..5 (0 takes ACKs)")
        if pipe == 1:
            if len(addr) != 5:
                raise ValueError("NRF24L01 address must be 5 bytes")
            self._reg_write_buf(_RX_ADDR_P0 + 1, addr)
        else:
            self._reg_write(_RX_ADDR_P0 + pipe, addr[0])
        self._rxen |= 1 << pipe
        self._pipes(self.listening)

    def close_rx_pipe(self, pipe):
        if not 1 <= pipe <= 5:
            raise ValueError("NRF24L01 rx pipe must be 1..5 (0 takes ACKs)")
        self._rxen &= ~(1 << pipe)
        self._pipes(self.listening)

    def _pipes(self, rx):
        # Pipe 0 listens on the TX address for ACKs. Left on in RX mode it
        # would take, and ACK, packets anyone sends to that address (or,
        # from reset, to E7E7E7E7E7): a second radio pairing with the same
        # peer, say. So it is on except while listening.
        en = self._rxen if rx else self._rxen | _PIPE_0
        if en != self._en:
            self._reg_write(_EN_RXADDR, en)
            self._en = en

    # ---- power and modes --------------------------------------------------

    def _power_up(self, rx):
        cfg = _EN_CRC | _CRCO | _PWR_UP | (_PRIM_RX if rx else 0)
        self._reg_write(_CONFIG, cfg)
        if not self.powered:
            time.sleep_us(_T_PD2STBY)
            self.powered = True

    def power_down(self):
        self.ce(0)
        self.listening = False
        self._reg_write(_CONFIG, _EN_CRC | _CRCO)
        self.powered = False

    def start_listening(self):
        self.ce(0)
        self.listening = False
        self._pipes(True)
        self._power_up(True)
        self._reg_write(_STATUS, _RX_DR | _TX_DS | _MAX_RT)
        self.ce(1)
        time.sleep_us(_T_SETTLE)
        self.listening = True

    def stop_listening(self):
        self.ce(0)
        self.listening = False
        self._pipes(False)

    # ---- receiving --------------------------------------------------------

    def any(self):
        return not self._reg_read(_FIFO_STATUS) & _RX_EMPTY

    def recv(self):
        """Take the oldest payload into self.rx; return its length.

        A width over 32 is corrupt (datasheet), and so is 0 (a data packet
        has 1..32 bytes; read as none, it would stay the FIFO's head): the
        RX FIFO is flushed and 0 returned. Call only when any() is True.
        """
        # R_RX_PL_WID is a command, but the same transfer as a register read
        n = self._reg_read(_R_RX_PL_WID)
        if n == 0 or n > _MAX_PAYLOAD:
            self._cmd(_FLUSH_RX)
            self._reg_write(_STATUS, _RX_DR)
            self.dropped += 1
            return 0
        self._b1[0] = _R_RX_PAYLOAD
        self.cs(0)
        self.spi.write(self._b1)
        self.spi.readinto(self._view(self.rx, n, n), _NOP)
        self.cs(1)
        self._reg_write(_STATUS, _RX_DR)
        return n

    def recv_into(self, buf):
        """recv(), the payload copied into buf; -> its length."""
        n = self.recv()
        rx = self.rx
        for i in range(n):
            buf[i] = rx[i]
        return n

    # ---- sending ----------------------------------------------------------

    def send_start(self, buf, n=-1):
        """Load one payload (1..32 bytes) and pulse CE; send_done() tells."""
        if n < 0:
            n = len(buf)
        if not 1 <= n <= _MAX_PAYLOAD or n > len(buf):
            raise ValueError("NRF24L01 payload must be 1..32 bytes, within buf")
        self._resume = self.listening
        self.ce(0)
        self.listening = False
        self._pipes(False)
        self._power_up(False)
        self._reg_write(_STATUS, _TX_DS | _MAX_RT)
        self._cmd(_FLUSH_TX)
        tx = self._tx
        for i in range(n):
            tx[i] = buf[i]
        self._cmd_buf(_W_TX_PAYLOAD, self._view(self._tx, n, -n))
        self.ce(1)
        time.sleep_us(_T_CE_PULSE)
        self.ce(0)

    def send_done(self):
        """None while on air; True when acknowledged; False after MAX_RT
        (the payload is flushed, so the TX FIFO never stays stuck)."""
        if self.irq is not None and self.irq.value():
            return None
        st = self._cmd(_NOP)
        if not st & (_TX_DS | _MAX_RT):
            return None
        self.retries += self._reg_read(_OBSERVE_TX) & _ARC_CNT
        if st & _MAX_RT:
            self._cmd(_FLUSH_TX)
            self.lost += 1
        self._reg_write(_STATUS, _TX_DS | _MAX_RT)
        self._idle()
        return not st & _MAX_RT

    def check_wires(self):
        """Boot self-test of the CE wire, and of the IRQ wire if there is one.

        Sends one 1-byte packet at -18 dBm on the configured channel to an
        address no one uses, with auto-ack and no retransmit (ARC 0): no ACK
        comes, so MAX_RT is set under 1 ms after CE goes high (5 ms with
        the start-up from power down; TX_DS if something did ack it). No
        flag at all means the chip never sent: CE is not wired. The chip
        pulls IRQ low with either flag (CONFIG masks none): an irq pin that
        still reads high is not wired to it. OSError names the fault.
        SETUP_RETR and RF_SETUP are restored, PLOS_CNT is cleared (the test
        packet's loss not counted; __init__ leaves it 0), TX_ADDR and
        RX_ADDR_P0 get their reset value (open_tx_pipe comes before a send),
        and the chip is left as before: listening or powered down.
        """
        retr = self._reg_read(_SETUP_RETR)
        rf = self._reg_read(_RF_SETUP)
        self._resume = self.listening
        self.ce(0)
        self.listening = False
        self._pipes(False)
        self._reg_write(_SETUP_RETR, _ARD_500)      # no retransmit
        self._reg_write(_RF_SETUP, rf & ~_RF_PWR)   # -18 dBm
        self._reg_write_buf(_RX_ADDR_P0, _NOBODY)
        self._reg_write_buf(_TX_ADDR, _NOBODY)
        self._txset = False
        self._power_up(False)
        self._reg_write(_STATUS, _RX_DR | _TX_DS | _MAX_RT)
        self._cmd(_FLUSH_TX)
        self._cmd_buf(_W_TX_PAYLOAD, b"\x00")
        # CE held high, not pulsed: TX starts once the oscillator is up even
        # if that takes longer than 4.5 ms; MAX_RT (or an empty FIFO after
        # TX_DS) ends it, one packet only. The wait is counted in polls, not
        # by the clock: a host that stalls (the simulator waiting for its
        # UDP peers) still gets its last polls.
        self.ce(1)
        st = 0
        for _ in range(_TEST_POLLS):
            time.sleep_us(_T_POLL)
            st = self._cmd(_NOP)
            if st & (_TX_DS | _MAX_RT):
                break
        high = self._irq_high(st)
        self.ce(0)
        self._cmd(_FLUSH_TX)
        self._reg_write(_STATUS, _RX_DR | _TX_DS | _MAX_RT)
        self._reg_write(_SETUP_RETR, retr)
        self._reg_write(_RF_SETUP, rf)
        self._reg_write(_RF_CH, self._reg_read(_RF_CH))  # clears PLOS_CNT
        self._reg_write_buf(_RX_ADDR_P0, _RESET_ADDR)
        self._reg_write_buf(_TX_ADDR, _RESET_ADDR)
        self._idle()
        if not st & (_TX_DS | _MAX_RT):
            raise OSError("NRF24L01 did not finish a test send in %d ms "
                          "(STATUS 0x%02x, no TX_DS or MAX_RT): check the CE "
                          "wire (ce=%s)"
                          % (_TEST_POLLS * _T_POLL // 1000, st, self.ce))
        if high:
            self._irq_error(st)

    def _irq_high(self, st):
        """True if STATUS `st` has an unmasked interrupt flag but the irq
        pin stays high, also 100 us later (the pin follows at once)."""
        if self.irq is None:
            return False
        if not st & (_RX_DR | _TX_DS | _MAX_RT) & ~self._reg_read(_CONFIG):
            return False
        for _ in range(3):
            if not self.irq.value():
                return False
            time.sleep_us(_T_POLL)
        return True

    def _irq_error(self, st):
        raise OSError("NRF24L01 IRQ pin %s stays high while the chip signals "
                      "an interrupt (STATUS 0x%02x): check the IRQ wire, or "
                      "leave irq out of the board file" % (self.irq, st))

    def _idle(self):
        # back to listening if we were; otherwise nothing to do: power down
        if self._resume:
            self.start_listening()
        else:
            self.power_down()

    def send(self, buf, n=-1, timeout_us=100000):
        """Send and wait for the ACK: True if acknowledged, else False."""
        self.send_start(buf, n)
        t0 = time.ticks_us()
        while True:
            r = self.send_done()
            if r is not None:
                return r
            if time.ticks_diff(time.ticks_us(), t0) > timeout_us:
                # send_done() waits for the pin: a send STATUS shows ended
                # while the pin stayed high means the pin is not the chip's
                st = self._cmd(_NOP)
                high = self._irq_high(st)
                self._cmd(_FLUSH_TX)
                self._reg_write(_STATUS, _TX_DS | _MAX_RT)
                self._idle()
                if high:
                    self._irq_error(st)
                return False
            time.sleep_us(_T_POLL)
