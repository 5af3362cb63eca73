#!/usr/bin/env bash
# Runs one libFuzzer target for a given time on its seed corpus (copied to a
# scratch folder so the checked-in seeds are not rewritten).
# Usage: fuzz/run.sh TARGET SECONDS [BUILD_DIR]   e.g. fuzz/run.sh fuzz_uci_reader 600
# The build: CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DPPLDA_FUZZ=ON
#            -DPPLDA_BUILD_TESTS=OFF -DPPLDA_BUILD_BENCHMARKS=OFF && ninja -C build-fuzz TARGET
set -euo pipefail
cd "$(dirname "$0")/.."
target=$1
seconds=$2
build=${3:-build-fuzz}
seeds=fuzz/corpus/${target#fuzz_}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$seeds"/. "$work"/
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  "$build/fuzz/$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
  -artifact_prefix="${build}/fuzz/${target}-" "$work"
