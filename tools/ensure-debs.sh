#!/usr/bin/env bash
# Installs the Debian packages the tests need, only when they are missing:
# qemu-system-arm (the emulated micro:bit) and MicroPython for the micro:bit.
set -eu
hex=/usr/share/firmware-microbit-micropython/firmware.hex
if command -v qemu-system-arm >/dev/null && [ -f "$hex" ]; then
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "need root to install qemu-system-arm firmware-microbit-micropython" >&2
  echo "run: sudo apt-get install qemu-system-arm firmware-microbit-micropython" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q qemu-system-arm firmware-microbit-micropython
