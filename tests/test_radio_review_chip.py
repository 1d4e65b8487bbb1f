"""Review tests: the NRF24L01 driver and its chip model against the nRF24L01+
Product Specification v1.0: the RF_SETUP, RF_CH and SETUP_RETR values the
driver may set, the pipe a packet lands on, the flags left after a send or
a dropped packet, and the model's time on air, settling, FIFOs and dynamic
payload length."""
from test_radio_model import Raw, A, B, air, sniff, send  # noqa: F401
import nrf24l01_model as N


# ---- the model: FIFOs and dynamic payload length ---------------------------

def test_a_ptx_sends_a_payload_length_only_with_dpl_p0(air):
    """'A PTX that transmits to a PRX with DPL enabled must have the DPL_P0
    bit in DYNPD set': without it no length goes in the packet control
    field, and the PRX's DPL pipe takes nothing."""
    _, a, b = air
    b.setup(True, B, A)
    a.setup(False, A, B, retr=0x00)
    a.w(N.DYNPD, 0x3E)
    assert send(a, b"x") & N.MAX_RT and b.model.received == 0
    a.xfer(N.FLUSH_TX)
    a.w(N.DYNPD, 0x01)
    assert send(a, b"x") & N.TX_DS and b.model.received == 1
