"""CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): save files and radio packets."""


def crc16(buf, end, crc=0xFFFF, start=0):
    """CRC of buf[start:end], continuing from crc."""
    for i in range(start, end):
        crc ^= buf[i] << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
    return crc
