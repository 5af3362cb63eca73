#!/usr/bin/env bash
# The project's test command: installs what is needed, builds, and runs every
# test (unit, statistical, e2e) with ctest, except those labelled "slow"
# (minutes each on 2 cores: `ctest --test-dir build -L slow` runs them).
# This is what .ci/run calls.
set -euo pipefail
cd "$(dirname "$0")/.."
./deploy/build.sh
ctest --test-dir build --output-on-failure -j "${PPLDA_JOBS:-$(nproc)}" --timeout 900 -LE slow
