#!/usr/bin/env bash
# The fuzz run (docs/hardening.md): builds every libFuzzer target
# (clang, AddressSanitizer + UndefinedBehaviorSanitizer) in build-fuzz/ and
# runs each on its seed corpus for PPLDA_FUZZ_SECONDS (default 30):
# `ctest -L fuzz`. A finding fails the run and leaves the input in
# build-fuzz/fuzz/TARGET-crash-* (or -timeout-*, -oom-*).
# Usage: deploy/fuzz.sh        PPLDA_FUZZ_SECONDS=600 deploy/fuzz.sh
set -euo pipefail
cd "$(dirname "$0")/.."
./deploy/install-deps.sh
jobs=${PPLDA_JOBS:-$(nproc)}
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DPPLDA_FUZZ=ON -DPPLDA_BUILD_TESTS=OFF -DPPLDA_BUILD_BENCHMARKS=OFF \
  -DPPLDA_FUZZ_SECONDS="${PPLDA_FUZZ_SECONDS:-30}" >/dev/null
cmake --build build-fuzz -j "$jobs" --target fuzz_targets
ctest --test-dir build-fuzz --output-on-failure -j "$jobs" -L fuzz
