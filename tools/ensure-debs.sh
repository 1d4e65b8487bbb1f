#!/usr/bin/env bash
# Installs the Debian packages the tests need, only when they are missing:
# qemu-system-arm (the emulated micro:bit), MicroPython for the micro:bit,
# and what tools/mcu_firmware.py needs to rebuild that firmware with the
# engine frozen in: the ARM toolchain, yotta, and Debian's source packages.
set -eu
hex=/usr/share/firmware-microbit-micropython/firmware.hex
tools="qemu-system-arm arm-none-eabi-gcc yotta ninja cmake srec_cat dpkg-source"
missing=0
for t in $tools; do
  command -v "$t" >/dev/null || missing=1
done
[ -f "$hex" ] || missing=1
# deb-src: apt-get source needs it next to the binary package lists
src_listed() {
  grep -rqs '^Types:.*deb-src\|^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/
}
src_listed || missing=1
if [ "$missing" = 0 ]; then
  exit 0
fi
pkgs="qemu-system-arm firmware-microbit-micropython gcc-arm-none-eabi \
libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib yotta ninja-build cmake \
srecord dpkg-dev python3-setuptools"
if [ "$(id -u)" != 0 ]; then
  echo "need root to install: $pkgs" >&2
  echo "and deb-src lines in the apt sources (for apt-get source)" >&2
  echo "run \`sudo make debs\` once, then this again" >&2
  exit 1
fi
if ! src_listed; then
  # the same archives as the binary packages, for their sources too
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && sed -i 's/^Types: deb$/Types: deb deb-src/' "$f"
  done
  if [ -f /etc/apt/sources.list ]; then
    sed -n 's/^deb \(.*\)/deb-src \1/p' /etc/apt/sources.list > /etc/apt/sources.list.d/deb-src.list
  fi
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q $pkgs
