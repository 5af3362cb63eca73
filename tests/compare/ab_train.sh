#!/usr/bin/env bash
# Two or more pplda binaries timed against each other on one prepared
# corpus, for changes of a few percent on a host whose speed drifts
# (docs/performance.md, "Plaintext sampler against WarpLDA"). Not part of the test run.
#
# Default: each round runs every binary once, one after the other
# (`pplda --quiet train --input PREPARED --topics K --alpha 0.1 --beta 0.01
# --iterations ITERATIONS --threads 2 --seed S --no-evaluate`, seeds 1-4 in
# turn), and prints per binary the median time and the median and mean +-
# s.e. of its per-round ratio to the first binary.
# --side-by-side: exactly two binaries, run at once on one thread each,
# pinned one per core (taskset), the cores swapped every round, so both
# meet the same spell of the host; seed = the round.
#
# Usage: tests/compare/ab_train.sh [--rounds 6] [--iterations 200] [--side-by-side]
#          PREPARED K BINARY BINARY...
set -euo pipefail
rounds=6 iterations=200 side=0
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --iterations) iterations=$2; shift 2 ;;
    --side-by-side) side=1; shift ;;
    -h|--help) sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
    *) break ;;
  esac
done
[ $# -ge 4 ] || { echo "ab_train: need PREPARED K and at least two binaries (see --help)" >&2; exit 2; }
prepared=$1 k=$2; shift 2
bins=("$@")
[ "$side" = 0 ] || [ ${#bins[@]} = 2 ] || { echo "ab_train: --side-by-side takes two binaries" >&2; exit 2; }
scratch=$(mktemp -d); trap 'rm -rf "$scratch"' EXIT
train() {  # binary threads seed out [core]
  local pin=(); [ -n "${5:-}" ] && pin=(taskset -c "$5")
  local start end
  start=$(date +%s.%N)
  "${pin[@]}" "$1" --quiet train --input "$prepared" --topics "$k" --alpha 0.1 --beta 0.01 \
    --iterations "$iterations" --threads "$2" --seed "$3" --no-evaluate --out "$4" >/dev/null
  end=$(date +%s.%N)
  python3 -c "print($end - $start)"
}
for r in $(seq "$rounds"); do
  if [ "$side" = 1 ]; then
    a=$((r % 2)); b=$((1 - a))
    train "${bins[0]}" 1 "$r" "$scratch/a.json" "$a" >"$scratch/a.t" &
    train "${bins[1]}" 1 "$r" "$scratch/b.json" "$b" >"$scratch/b.t" &
    wait
    echo "$(cat "$scratch/a.t") $(cat "$scratch/b.t")"
  else
    line=""
    for bin in "${bins[@]}"; do line+=" $(train "$bin" 2 $(((r - 1) % 4 + 1)) "$scratch/m.json")"; done
    echo "$line"
  fi
done | python3 -c "
import sys, statistics as st
rows = [list(map(float, l.split())) for l in sys.stdin if l.strip()]
for j, name in enumerate(sys.argv[1:]):
    col = [r[j] for r in rows]; ratio = [r[j] / r[0] for r in rows]
    se = st.stdev(ratio) / len(ratio) ** 0.5 if len(ratio) > 1 else 0.0
    print('%s: median %.3f s, ratio to the first: median %.3f, mean %.3f +- %.3f'
          % (name, st.median(col), st.median(ratio), st.fmean(ratio), se))
" "${bins[@]}"
