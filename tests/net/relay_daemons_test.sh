#!/usr/bin/env bash
# Relay mode end to end with the real daemons (deploy/lib/local-consortium.sh):
# a coordinator and three parties on loopback, 1024-bit dealt key, tiny
# corpora, K = 2, 2 iterations; the run must publish a model.
#   MODE all    every party in relay mode: no party listens (no listen address,
#               and none of their logs says it listens), every control call
#               and MPC frame goes through the coordinator's outbound streams
#   MODE mixed  only "middle" in relay mode: the coordinator dials early and
#               modern, middle dials out; all MPC frames are relayed, sealed
#   MODE direct no relay mode (the control: nothing goes through a relay)
# usage: relay_daemons_test.sh PPLDA PARTY_BIN COORDINATOR_BIN REPO_ROOT MODE
# (ctest runs it; PPLDA_KEEP_TEST_DIR=1 keeps the folder with the logs).
set -euo pipefail
pplda=$1 party_bin=$2 coordinator_bin=$3 repo_root=$4 mode=$5
case "$mode" in
  all) consortium_relay="early middle modern" ;;
  mixed) consortium_relay="middle" ;;
  direct) consortium_relay="" ;;
  *) echo "unknown mode $mode" >&2; exit 2 ;;
esac
work=$(mktemp -d "${TMPDIR:-/tmp}/pplda-relay-e2e-XXXXXX")
# shellcheck source=deploy/lib/local-consortium.sh
source "$repo_root/deploy/lib/local-consortium.sh"
fail() {
  echo "FAIL: $*" >&2
  for log in "$work"/logs/*.log; do echo "== $log" >&2; tail -n 30 "$log" >&2; done
  exit 1
}
cleanup() {
  consortium_stop
  if [ "${PPLDA_KEEP_TEST_DIR:-0}" = 1 ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

# Three parties' documents over one small vocabulary.
words=(river mountain forest valley ocean desert harbor island canyon meadow glacier prairie)
for p in 0 1 2; do
  mkdir -p "$work/docs/$p"
  for d in 0 1 2 3 4 5; do
    line=""
    for k in 0 1 2 3 4 5 6 7; do line+="${words[$(( (p * 7 + d * 3 + k * k) % 12 ))]} "; done
    echo "$line" > "$work/docs/$p/doc$d.txt"
  done
done
printf '%s\n' "${words[@]}" > "$work/words.txt"

# Below the ephemeral range (net.ipv4.ip_local_port_range), as the C++ e2e
# tests do (tests/e2e/e2e_test_util.h FreePorts): a port in it can be held by
# an outgoing connection of a test running beside this one.
low=$(awk '{print $1}' /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
[ "${low:-0}" -gt 22048 ] || low=32768
base=$(( low - 20000 + RANDOM % (20000 - 32) ))
consortium_setup "$work" 1024 "$base" "$work/words.txt" none 100 0 \
  "$work/docs/0" "$work/docs/1" "$work/docs/2"
for name in $consortium_relay; do
  grep -q '^listen' "$work/$name.toml" && fail "$name.toml has a listen address in relay mode"
  grep -q "name = \"$name\"" -A3 "$work/certs/consortium.toml" || fail "no $name in consortium.toml"
done
consortium_start "$work" || fail "daemons did not start"

"$pplda" run start --config "$work/coordinator.toml" --topics 2 --iterations 2 --watch \
  > "$work/logs/run.log" 2>&1 || fail "the run failed: $(tail -n 5 "$work/logs/run.log")"
"$pplda" run result --config "$work/coordinator.toml" --out "$work/model.json" \
  > "$work/logs/result.log" 2>&1 || fail "no result: $(cat "$work/logs/result.log")"
grep -q '"topic_term_counts"' "$work/model.json" || fail "model.json has no topic_term_counts"

if [ "$mode" = direct ]; then
  grep -q "relaying sealed\\|relay: party" "$work/logs/coordinator.log" && fail "a relay in a direct consortium"
  echo "direct mode: model published, $(wc -c < "$work/model.json") bytes"
  exit 0
fi
for name in "${consortium_names[@]}"; do
  grep -q "relay connected" "$work/logs/$name.log" || fail "$name never reached the relay"
  grep -q "relay: party $name connected" "$work/logs/coordinator.log" ||
    fail "the coordinator never saw $name's stream"
  if consortium_is_relay "$name"; then
    grep -q "listening on" "$work/logs/$name.log" && fail "$name listens in relay mode"
    grep -q "in relay mode: never listens" "$work/logs/$name.log" || fail "$name is not in relay mode"
  else
    grep -q "listening on" "$work/logs/$name.log" || fail "$name (direct) does not listen"
  fi
  ls "$work"/state/"$name"/runs/*/mixtures.csv > /dev/null 2>&1 || fail "$name wrote no mixtures"
done
grep -q "relaying sealed MPC frames" "$work/logs/coordinator.log" || fail "the coordinator relays nothing"
# The coordinator's /metrics counts the frames it forwarded (plain HTTP GET
# with bash's /dev/tcp: no curl needed).
exec 3<>"/dev/tcp/127.0.0.1/$((base + 10))" || fail "cannot reach the coordinator's metrics"
printf 'GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
frames=$(awk '/^pplda_coordinator_relay_frames_total/ {print $NF}' <&3)
exec 3<&-
[[ "$frames" =~ ^[0-9.e+]+$ ]] && [ "${frames%%.*}" != 0 ] ||
  fail "pplda_coordinator_relay_frames_total is \"$frames\""
if grep -qi "refused" "$work"/logs/*.log; then fail "a frame or call was refused"; fi
echo "relay mode ($mode): model published, $(wc -c < "$work/model.json") bytes, $frames sealed frames relayed"
