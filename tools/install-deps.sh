#!/bin/sh
# Installs the Debian 12 packages marey builds and tests with. Safe to run again: it only
# calls apt-get when something is missing. Run as root.
#   sh tools/install-deps.sh viewer   what building and running the program needs
#   sh tools/install-deps.sh          that and what the tests need (OpenMPI, Xvfb, clang for the
#                                     sanitizer and fuzzer trees, Chromium for the HTML report,
#                                     Node and the MCP SDK pinned in tests/mcp for `marey mcp`)
set -eu
viewer="cmake g++ make pkg-config zlib1g-dev libsimdjson-dev libsqlite3-dev \
libimgui-dev libglfw3-dev libepoxy-dev libstb-dev libgl-dev libgl1-mesa-dri \
fonts-dejavu-core fonts-droid-fallback"
tests="doctest-dev sqlite3 libopenmpi-dev openmpi-bin python3 xvfb xauth \
clang-14 libclang-rt-14-dev clang-format-14 chromium"
case "${1:-all}" in
  viewer) packages="$viewer" ;;
  all) packages="$viewer $tests" ;;
  *) echo "usage: sh tools/install-deps.sh [viewer]" >&2; exit 2 ;;
esac
missing=""
for package in $packages; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing="$missing $package"
done
if [ -n "$missing" ]; then
  echo "installing:$missing"
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
fi

# The tests drive `marey mcp` with the official MCP TypeScript SDK, pinned in tests/mcp's
# package-lock.json: installed from npm's registry once, and again only when the pin changes.
if [ "${1:-all}" = all ]; then
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "installing: nodejs npm"
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nodejs npm
  fi
  mcp="$(dirname "$0")/../tests/mcp"
  if ! cmp -s "$mcp/package-lock.json" "$mcp/node_modules/.installed-lock.json"; then
    (cd "$mcp" && npm ci --no-audit --no-fund)
    cp "$mcp/package-lock.json" "$mcp/node_modules/.installed-lock.json"
  fi
fi
