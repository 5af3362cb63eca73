#!/usr/bin/env bash
# Benchmark: the secure protocol over the network (a coordinator and three
# pplda-party daemons on loopback, mutual TLS, the real gRPC transport)
# against the same run in one process (`pplda simulate`), measured in the
# same benchmark run on the same workload, key size and vocabulary:
# paper scale, 3 parties, about 3,000 tokens (one State of the Union
# address per era cut into 100-word sentence windows of at most 20 tokens),
# K = 5. Reports seconds per iteration of both and their ratio, and the
# daemons' real-transport bytes and MPC rounds per iteration (party 0).
#
#   tests/bench/bench_daemons.sh [BITS ...]      (default: 1024 2048)
#   BENCH_ITERATIONS=3 BENCH_OUT=out/bench-daemons
#   BENCH_REPETITIONS=3: simulate and daemons alternate that many times per
#   key size and the medians are printed too (this machine's speed varies
#   by up to 40% from minute to minute, so one pair can mislead)
#   BENCH_RELAY="early middle modern": those parties run in relay mode (they
#   dial the coordinator, which forwards their sealed MPC frames; with any
#   relay party every party relays)
#   BENCH_PARTY_THREADS=1: worker threads per party daemon (default 0 = all
#   cores; simulate always shares one pool of all cores among the parties)
set -euo pipefail
cd "$(dirname "$0")/../.."
repo_root=$PWD
./deploy/build.sh pplda pplda-party pplda-coordinator > /dev/null
pplda=$PWD/build/cli/pplda
party_bin=$PWD/build/party/daemon/pplda-party
coordinator_bin=$PWD/build/coordinator/daemon/pplda-coordinator
iterations=${BENCH_ITERATIONS:-3}
repetitions=${BENCH_REPETITIONS:-1}
root=${BENCH_OUT:-out/bench-daemons}
bits_list=("$@")
[ ${#bits_list[@]} -eq 0 ] && bits_list=(1024 2048)
rm -rf "$root"
mkdir -p "$root/docs/a" "$root/docs/b" "$root/docs/c"
root=$(cd "$root" && pwd)
ln -s "$PWD/data/sotu/1790-1860/1820_james_monroe_dr.txt" "$root/docs/a/"
ln -s "$PWD/data/sotu/1861-1945/1861_abraham_lincoln_r.txt" "$root/docs/b/"
ln -s "$PWD/data/sotu/1946-2021/1988_ronald_reagan_r.txt" "$root/docs/c/"
mkdir -p "$root/docs/all"
ln -s "$root"/docs/[abc]/*.txt "$root/docs/all/"
# The public vocabulary: every term of the three addresses (min_df 1).
$pplda --quiet prepare --input "$root/docs/all" --split sentences --window-words 100 \
  --min-df 1 --test-every 0 --out "$root/vocabulary-source"
vocabulary=$root/vocabulary-source/vocabulary.txt
consortium_threads=${BENCH_PARTY_THREADS:-0}
consortium_relay=${BENCH_RELAY:-}
# shellcheck source=deploy/lib/local-consortium.sh
source deploy/lib/local-consortium.sh
trap consortium_stop EXIT

printf "%-6s %-4s %-7s %13s %13s %7s %13s %10s\n" bits rep tokens "simulate s/it" "daemons s/it" ratio "MB/it party0" "rounds/it"
for bits in "${bits_list[@]}"; do
  dir=$root/$bits
  consortium_setup "$dir" "$bits" 7600 "$vocabulary" sentences 100 20 \
    "$root/docs/a" "$root/docs/b" "$root/docs/c"
  for rep in $(seq 1 "$repetitions"); do
    # In one process: the same parties, key size, vocabulary and options.
    $pplda --quiet simulate --party early="$root/docs/a" --party middle="$root/docs/b" \
      --party modern="$root/docs/c" --vocabulary "$vocabulary" --split sentences \
      --window-words 100 --max-tokens 20 --topics 5 --iterations "$iterations" \
      --key-bits "$bits" --out "$dir/simulate-model-$rep.json" > "$dir/logs/simulate.log" 2>&1
    consortium_start "$dir"
    $pplda run start --config "$dir/coordinator.toml" --topics 5 --iterations "$iterations" \
      --watch > "$dir/logs/run.log" 2>&1
    $pplda run result --config "$dir/coordinator.toml" --out "$dir/daemons-model-$rep.json" \
      > /dev/null
    consortium_stop
    python3 - "$dir" "$bits" "$iterations" "$rep" <<'PY'
import json, sys
d, bits, its, rep = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
sim = json.load(open(f"{d}/simulate-model-{rep}.json"))["metadata"]["training"]
net = json.load(open(f"{d}/daemons-model-{rep}.json"))["metadata"]
t = net["training"]
tokens = sum(p["tokens"] for p in net["corpus"]["parties"])
s_sim = sim["iteration_seconds"] / its
s_net = t["iteration_seconds"] / its
print(f"{bits:<6} {rep:<4} {tokens:<7} {s_sim:13.2f} {s_net:13.2f} {s_net / s_sim:7.2f} "
      f"{t['mpc_bytes_sent_party0_last_iteration'] / 1e6:13.1f} {t['mpc_rounds_last_iteration']:10d}",
      flush=True)
PY
  done
  [ "$repetitions" -gt 1 ] || continue
  python3 - "$dir" "$bits" "$iterations" "$repetitions" <<'PY'
import json, statistics, sys
d, bits, its, reps = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
def s(kind, rep):
    m = json.load(open(f"{d}/{kind}-model-{rep}.json"))["metadata"]["training"]
    return m["iteration_seconds"] / its
sim = statistics.median(s("simulate", r) for r in range(1, reps + 1))
net = statistics.median(s("daemons", r) for r in range(1, reps + 1))
print(f"{bits:<6} {'med':<4} {'':<7} {sim:13.2f} {net:13.2f} {net / sim:7.2f}   (medians of {reps})")
PY
done
