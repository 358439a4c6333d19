#!/bin/sh
# Installs the Debian 12 packages marey builds and tests with. Safe to run again: it only
# calls apt-get when something is missing. Run as root.
set -eu
packages="cmake g++ make pkg-config zlib1g-dev libsimdjson-dev doctest-dev libsqlite3-dev sqlite3 \
libimgui-dev libglfw3-dev libepoxy-dev libstb-dev libgl-dev \
libopenmpi-dev openmpi-bin \
python3 fonts-dejavu-core fonts-droid-fallback xvfb xauth libgl1-mesa-dri clang-14 libclang-rt-14-dev clang-format-14 \
chromium"
missing=""
for package in $packages; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing="$missing $package"
done
if [ -n "$missing" ]; then
  echo "installing:$missing"
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
fi
