#!/usr/bin/env bash
# Installs the dependencies (skipped when present) and builds pplda into
# build/ (incremental: a second run only rebuilds what changed).
# Usage: deploy/build.sh [extra cmake -D options]
set -euo pipefail
cd "$(dirname "$0")/.."
./deploy/install-deps.sh
jobs=${PPLDA_JOBS:-$(nproc)}
if [ ! -f build/build.ninja ] || [ $# -gt 0 ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
fi
cmake --build build -j "$jobs"
