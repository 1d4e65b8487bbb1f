#!/usr/bin/env bash
# Installs the Debian packages the tests need, only when they are missing:
# qemu-system-arm (the emulated micro:bit), MicroPython for the micro:bit,
# and what tools/mcu_firmware.py needs to rebuild that firmware with the
# engine frozen in: the ARM toolchain, yotta, and Debian's source packages.
set -eu
pkgs="qemu-system-arm firmware-microbit-micropython gcc-arm-none-eabi \
libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib yotta ninja-build cmake \
srecord dpkg-dev python3-setuptools"
# the packages themselves, not their commands: gcc-arm-none-eabi only
# recommends the newlib the firmware links with
installed() {
  dpkg-query -W -f='${Status}\n' $pkgs 2>/dev/null | grep -c '^install ok installed$' || true
}
# deb-src: apt-get source needs it next to the binary package lists
src_listed() {
  grep -rqs '^Types:.*deb-src\|^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/
}
if [ "$(installed)" = "$(echo $pkgs | wc -w)" ] && src_listed; then
  exit 0
fi
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
