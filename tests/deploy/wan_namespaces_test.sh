#!/usr/bin/env bash
# Multi-host test with no container engine: the coordinator and three party
# daemons, each in its own Linux network namespace on this machine, joined by
# virtual links (veth pairs to a bridge in a hub namespace) with emulated WAN
# conditions, running the real binaries and deploy/lib/local-consortium.sh's
# configs. Bandwidth: tc tbf on each participant's link (egress). Delay: these
# kernels have no netem, so each daemon listens on 127.0.0.1 inside its
# namespace behind tests/deploy/delay_relay.h (pplda-delay-relay), which holds
# every byte for RTT / 2 each way on its advertised address; every connection
# to a daemon crosses one relay, so every round trip pays the RTT once. (The
# relay acknowledges at once: TCP's own slow start over a long path is not
# emulated, so real links may pay a little more on the first rounds.)
# Created namespaces, links and processes are removed on exit.
#
#   wan_namespaces_test.sh PPLDA PARTY COORDINATOR RELAY REPO_ROOT [bench]
# Test mode (ctest, label e2e): a small run (1024-bit key, 2 iterations) at
# 20 ms RTT and 100 Mbit/s and the same run with no delay and no shaping in
# the same namespaces; both must publish; prints seconds per iteration split
# into computation (the unshaped run) and network waiting (the difference).
# Bench mode: the paper-scale workload of tests/bench/bench_daemons.sh at 0,
# 20 and 80 ms RTT with 100 Mbit/s (and 0 ms unshaped), 2048-bit key by
# default (WAN_BITS, WAN_ITERATIONS=3, WAN_RTTS="0 20 80"), as the table in
# docs/performance.md.
# Exit 77 (skipped, reason printed) where namespaces cannot be made here.
set -euo pipefail
pplda=$1 party_bin=$2 coordinator_bin=$3 relay_bin=$4 repo_root=$5 mode=${6:-test}
skip() { echo "SKIPPED: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "creating network namespaces needs root"
command -v ip > /dev/null || skip "iproute2 (ip) is not installed (deploy/install-deps.sh installs it)"
command -v tc > /dev/null || skip "tc (iproute2) is not installed"

tag=pw$$
hub=$tag-hub
participants=(coordinator early middle modern)
subnet=10.231.77
hosts=("$subnet.10" "$subnet.11" "$subnet.12" "$subnet.13")
work=$(mktemp -d /tmp/pplda-wan-test.XXXXXX)
relay_pids=()

cleanup() {
  set +e
  consortium_stop 2> /dev/null
  for pid in "${relay_pids[@]}"; do kill -TERM "$pid" 2> /dev/null; done
  for pid in "${relay_pids[@]}"; do wait "$pid" 2> /dev/null; done
  for i in 0 1 2 3; do ip netns del "$tag-$i" 2> /dev/null; done
  ip netns del "$hub" 2> /dev/null
  if [ -n "${WAN_KEEP:-}" ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# `ip netns exec` needs a private mount namespace with / as a mount point;
# in a chroot it fails ("mount --make-rslave /"), so probe that first, with
# nothing to clean up afterwards.
if ! err=$(unshare --mount --propagation slave true 2>&1); then
  skip "no private mount namespace here (a chroot?), which ip netns exec needs: $err"
fi
if ! err=$(ip netns add "$hub" 2>&1); then skip "cannot create a network namespace here: $err"; fi
ip -n "$hub" link add br0 type bridge
ip -n "$hub" link set br0 up
for i in 0 1 2 3; do
  ns=$tag-$i
  ip netns add "$ns"
  ip -n "$ns" link set lo up
  ip link add "$tag-$i-a" type veth peer name "$tag-$i-b"
  ip link set "$tag-$i-a" netns "$ns"
  ip link set "$tag-$i-b" netns "$hub"
  ip -n "$ns" link set "$tag-$i-a" name wan0
  ip -n "$ns" addr add "${hosts[$i]}/24" dev wan0
  ip -n "$ns" link set wan0 up
  ip -n "$hub" link set "$tag-$i-b" master br0
  ip -n "$hub" link set "$tag-$i-b" up
done

# shaping RATE_MBIT|none: tbf on every participant's link.
shaping() {
  local i
  for i in 0 1 2 3; do
    ip netns exec "$tag-$i" tc qdisc del dev wan0 root 2> /dev/null || true
    [ "$1" = none ] && continue
    ip netns exec "$tag-$i" tc qdisc add dev wan0 root tbf rate "${1}mbit" burst 256kb latency 400ms
  done
}

# relays RTT_MS BASE: a delaying relay on each participant's advertised
# address in front of its daemon (127.0.0.1:port+100 in its namespace).
relays() {
  local rtt=$1 base=$2 i pid
  for pid in "${relay_pids[@]}"; do kill -TERM "$pid" 2> /dev/null || true; done
  for pid in "${relay_pids[@]}"; do wait "$pid" 2> /dev/null || true; done
  relay_pids=()
  for i in 0 1 2 3; do
    ip netns exec "$tag-$i" "$relay_bin" "${hosts[$i]}:$((base + i))" \
      "127.0.0.1:$((base + i + 100))" "$(awk -v r="$rtt" 'BEGIN { print r / 2 }')" \
      2>> "$work/relays.log" &
    relay_pids+=($!)
  done
}

consortium_hosts=("${hosts[@]}")
consortium_listen_shift=100
consortium_exec() {
  local name=$1 i
  shift
  for i in 0 1 2 3; do
    if [ "${participants[$i]}" = "$name" ]; then exec ip netns exec "$tag-$i" "$@"; fi
  done
  echo "no namespace for $name" >&2
  exit 1
}
# shellcheck source=deploy/lib/local-consortium.sh
source "$repo_root/deploy/lib/local-consortium.sh"

if [ "$mode" = bench ]; then
  bits=${WAN_BITS:-2048} iterations=${WAN_ITERATIONS:-3} rtts=(${WAN_RTTS:-0 20 80})
  mkdir -p "$work/docs/a" "$work/docs/b" "$work/docs/c" "$work/docs/all"
  ln -s "$repo_root/data/sotu/1790-1860/1820_james_monroe_dr.txt" "$work/docs/a/"
  ln -s "$repo_root/data/sotu/1861-1945/1861_abraham_lincoln_r.txt" "$work/docs/b/"
  ln -s "$repo_root/data/sotu/1946-2021/1988_ronald_reagan_r.txt" "$work/docs/c/"
  window=100 max_tokens=20 min_df=1
else
  bits=1024 iterations=2 rtts=(20)
  mkdir -p "$work/docs/a" "$work/docs/b" "$work/docs/c" "$work/docs/all"
  ln -s "$repo_root/data/sotu/1790-1860/1820_james_monroe_dr.txt" "$work/docs/a/"
  ln -s "$repo_root/data/sotu/1861-1945/1861_abraham_lincoln_r.txt" "$work/docs/b/"
  ln -s "$repo_root/data/sotu/1946-2021/1988_ronald_reagan_r.txt" "$work/docs/c/"
  window=100 max_tokens=4 min_df=3
fi
ln -s "$work"/docs/[abc]/*.txt "$work/docs/all/"
"$pplda" --quiet prepare --input "$work/docs/all" --split sentences --window-words "$window" \
  --min-df "$min_df" --test-every 0 --out "$work/vocabulary-source"
base=7700
consortium_setup "$work/run" "$bits" "$base" "$work/vocabulary-source/vocabulary.txt" \
  sentences "$window" "$max_tokens" "$work/docs/a" "$work/docs/b" "$work/docs/c"

# one_run LABEL RTT_MS RATE_MBIT|none: a whole run; prints its table row.
one_run() {
  local label=$1 rtt=$2 rate=$3 log="$work/run/logs/run-$1.log"
  shaping "$rate"
  relays "$rtt" "$base"
  consortium_start "$work/run"
  if ! ip netns exec "$tag-0" "$pplda" run start --config "$work/run/coordinator.toml" \
      --topics 5 --iterations "$iterations" --watch > "$log" 2>&1; then
    echo "FAILED: the run at $label did not publish" >&2
    cat "$log" >&2
    tail -n 20 "$work"/run/logs/*.log >&2
    return 1
  fi
  ip netns exec "$tag-0" "$pplda" run result --config "$work/run/coordinator.toml" \
    --out "$work/model-$label.json" > /dev/null
  consortium_stop
  # iteration_seconds over the run's iterations, bytes and rounds of the last.
  local seconds bytes rounds
  seconds=$(grep -o '"iteration_seconds": *[0-9.e+-]*' "$work/model-$label.json" | head -1 |
            sed 's/.*: *//')
  bytes=$(grep -o '"mpc_bytes_sent_party0_last_iteration": *[0-9]*' "$work/model-$label.json" |
          sed 's/.*: *//')
  rounds=$(grep -o '"mpc_rounds_last_iteration": *[0-9]*' "$work/model-$label.json" |
           sed 's/.*: *//')
  awk -v l="$label" -v s="$seconds" -v n="$iterations" -v b="$bytes" -v r="$rounds" \
    'BEGIN { printf "%-22s %10.2f %12.1f %8d\n", l, s / n, b / 1e6, r }' | tee -a "$work/table"
}

echo "== $bits-bit key, $iterations iterations, 3 parties in their own network namespaces"
printf "%-22s %10s %12s %8s\n" link "s/it" "MB/it party0" rounds | tee "$work/table"
one_run "loopback-like" 0 none
for rtt in "${rtts[@]}"; do
  one_run "${rtt}ms-100Mbit" "$rtt" 100
done
# Computation = the unshaped run's seconds per iteration; network waiting =
# each shaped run's excess over it.
awk 'NR == 2 { base = $2 } NR > 2 {
       printf "%s: %.2f s/iteration = %.2f computation + %.2f network waiting\n", $1, $2, base, $2 - base
     }' "$work/table"
# The emulation must be in effect: each shaped run waits at least half of
# its rounds x RTT more than the unshaped one (the bytes only add to that).
awk 'NR == 2 { base = $2 } NR > 2 {
       rtt = $1; sub(/ms.*/, "", rtt)
       if ($2 - base < 0.5 * $4 * rtt / 1000) {
         printf "FAILED: %s waited %.2f s per iteration, less than half of %d rounds x %s ms\n",
                $1, $2 - base, $4, rtt; bad = 1
       }
     } END { exit bad }' "$work/table"
echo "PASSED"
