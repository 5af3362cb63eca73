#!/usr/bin/env bash
# The sanitizer run (docs/hardening.md): builds everything with
# AddressSanitizer (leaks included) and UndefinedBehaviorSanitizer
# (PPLDA_SANITIZE=ON, gcc) in build-asan/ and runs the unit tests there; any
# report fails its test (halt_on_error). deploy/ubsan.supp lists what is
# not ours to fix. About 20 minutes to build and 4 to test on 2 cores.
# Usage: deploy/sanitize.sh        deploy/sanitize.sh -L statistical (other ctest labels)
set -euo pipefail
cd "$(dirname "$0")/.."
./deploy/install-deps.sh
jobs=${PPLDA_JOBS:-$(nproc)}
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPPLDA_SANITIZE=ON >/dev/null
cmake --build build-asan -j "$jobs"
export ASAN_OPTIONS="detect_leaks=1:fast_unwind_on_malloc=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$PWD/deploy/ubsan.supp${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
# The restart tests' 20 SIGKILL trials with real daemons outlast their
# timeout under instrumentation; 3 trials still take every restart path.
export PPLDA_KILL_TRIALS=${PPLDA_KILL_TRIALS:-3}
# deploy_wan_namespaces checks its emulated round trips against wall-clock
# computation, which instrumentation slows beyond what its bound assumes.
if [ $# -eq 0 ]; then set -- -L unit -E '^deploy_wan_namespaces$'; fi
ctest --test-dir build-asan --output-on-failure -j "$jobs" --timeout 900 "$@"
