#!/usr/bin/env bash
# Dealer-free key generation over the network (docs/crypto.md,
# "Dealer-free keys"): the three compute parties of a consortium on this
# machine (deploy/lib/local-consortium.sh: certificates, consortium file,
# configs), each running `pplda keys generate --config <its party.toml>` in
# its own process at the same time, over loopback mutual TLS. Prints each
# party's wall time, MPC bytes sent and rounds, the candidate pairs, and
# checks that all three printed the same fingerprint.
# Usage: tests/bench/bench_network_keygen.sh [BITS]     (default 2048)
set -euo pipefail
cd "$(dirname "$0")/../.."
bits=${1:-2048}
./deploy/build.sh pplda pplda-party pplda-coordinator > /dev/null
pplda=$PWD/build/cli/pplda
party_bin=$PWD/build/party/daemon/pplda-party
coordinator_bin=$PWD/build/coordinator/daemon/pplda-coordinator
repo_root=$PWD
out=$(mktemp -d /tmp/pplda-keygen-bench.XXXXXX)
trap '[ -n "${BENCH_KEEP:-}" ] || rm -rf "$out"' EXIT
# shellcheck source=deploy/lib/local-consortium.sh
source deploy/lib/local-consortium.sh
printf 'a\nb\n' > "$out/terms.txt"
# The set-up deals a 1024-bit key; it is removed: the parties generate theirs.
consortium_setup "$out" 1024 "${BENCH_BASE_PORT:-7700}" "$out/terms.txt" sentences 400 5 \
  "$PWD/data/sotu/1790-1860" "$PWD/data/sotu/1861-1945" "$PWD/data/sotu/1946-2021"
rm -rf "$out/keys"
echo "== ${bits}-bit dealer-free key, 3 parties in their own processes over loopback TLS"
pids=()
for name in "${consortium_names[@]}"; do
  "$pplda" keys generate --config "$out/$name.toml" --bits "$bits" \
    --public-key "$out/keys/$name-public.key" > "$out/$name.out" 2> "$out/$name.err" &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
for name in "${consortium_names[@]}"; do
  if [ "$status" != 0 ]; then
    echo "-- $name"; cat "$out/$name.err" "$out/$name.out"
  else
    echo "$name: $(head -1 "$out/$name.out")"
  fi
done
[ "$status" = 0 ] || exit 1
fingerprints=$(grep -h '^  fingerprint' "$out"/*.out | awk '{print $2}' | sort -u | wc -l)
[ "$fingerprints" = 1 ] || { echo "bench_network_keygen: the parties hold different keys" >&2; exit 1; }
echo "one fingerprint: $(grep -h '^  fingerprint' "$out/early.out" | awk '{print $2}')"
