#!/usr/bin/env bash
# The project's test command: installs what is needed, builds, and runs every
# test (unit, statistical, e2e) with ctest, except those labelled "slow"
# (minutes each on 2 cores: `ctest --test-dir build -L slow` runs them), then
# the fuzz label: every libFuzzer target for 30 s on its seed corpus, built
# with clang and AddressSanitizer + UndefinedBehaviorSanitizer in
# build-fuzz/ (deploy/fuzz.sh; about 4.5 minutes to build from scratch and
# 2.5 to run on 2 cores). PPLDA_SKIP_FUZZ=1 skips that part.
# This is what .ci/run calls.
set -euo pipefail
cd "$(dirname "$0")/.."
./deploy/build.sh
ctest --test-dir build --output-on-failure -j "${PPLDA_JOBS:-$(nproc)}" --timeout 900 -LE slow
[ "${PPLDA_SKIP_FUZZ:-0}" = 1 ] || ./deploy/fuzz.sh
