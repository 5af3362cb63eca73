#!/usr/bin/env bash
# Installs the dependencies (skipped when present) and builds pplda into
# build/ (incremental: a second run only rebuilds what changed).
# Usage: deploy/build.sh [TARGET ...]   (no target: everything, tests included)
# Extra CMake options: PPLDA_CMAKE_ARGS="-DPPLDA_SANITIZE=ON" deploy/build.sh
set -euo pipefail
cd "$(dirname "$0")/.."
./deploy/install-deps.sh
jobs=${PPLDA_JOBS:-$(nproc)}
if [ ! -f build/build.ninja ] || [ -n "${PPLDA_CMAKE_ARGS:-}" ]; then
  # shellcheck disable=SC2086
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo ${PPLDA_CMAKE_ARGS:-} >/dev/null
fi
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build build -j "$jobs" "${targets[@]}"
