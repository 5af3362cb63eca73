#!/usr/bin/env bash
# Prints the Debian packages that hold the shared libraries the given
# binaries load (one per line, sorted): what a runtime image or host needs
# besides the binaries. Used by deploy/Dockerfile's runtime stage.
#   deploy/runtime-packages.sh build/cli/pplda build/party/daemon/pplda-party ...
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 BINARY..." >&2; exit 2; }
for binary in "$@"; do
  ldd "$binary" | awk '/=> \// { print $3 }'
done | sort -u | while read -r lib; do
  # Debian is usr-merged: ldd may name /lib/... where dpkg knows /usr/lib/...
  dpkg -S "$lib" 2> /dev/null || dpkg -S "/usr$lib" 2> /dev/null ||
    dpkg -S "$(readlink -f "$lib")" 2> /dev/null ||
    { echo "runtime-packages: no package holds $lib" >&2; exit 1; }
done | cut -d: -f1 | sort -u
