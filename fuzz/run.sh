#!/usr/bin/env bash
# Runs one libFuzzer target for a given time on its seed corpus (copied to a
# scratch folder so the checked-in seeds are not rewritten) and prints
# libFuzzer's final statistics. Exit status: 0 when nothing was found; a
# finding (crash, sanitizer report, timeout of one input, out-of-memory)
# fails with libFuzzer's status and leaves the input in
# BUILD_DIR/fuzz/TARGET-crash-* (or -timeout-*, -oom-*).
# Usage: fuzz/run.sh TARGET SECONDS [BUILD_DIR]   e.g. fuzz/run.sh fuzz_uci_reader 600
# The build: CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DPPLDA_FUZZ=ON
#            -DPPLDA_BUILD_TESTS=OFF -DPPLDA_BUILD_BENCHMARKS=OFF && ninja -C build-fuzz TARGET
# (deploy/fuzz.sh does both and runs every target: ctest -L fuzz).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
  echo "usage: fuzz/run.sh TARGET SECONDS [BUILD_DIR]" >&2
  exit 2
fi
target=$1
seconds=$2
build=${3:-build-fuzz}
seeds=fuzz/corpus/${target#fuzz_}
if [ ! -x "$build/fuzz/$target" ]; then
  echo "fuzz/run.sh: $build/fuzz/$target is not built (ninja -C $build $target)" >&2
  exit 2
fi
if [ ! -d "$seeds" ]; then
  echo "fuzz/run.sh: no seed corpus $seeds" >&2
  exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$seeds"/. "$work"/
# halt_on_error: a UBSan report is a finding, not a warning.
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  "$build/fuzz/$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
  -print_final_stats=1 -artifact_prefix="$build/fuzz/$target-" "$work"
