#!/usr/bin/env bash
# The committee-and-data-holders table of docs/performance.md: bench_data_holders
# (tests/bench/bench_data_holders.cc) for 3, 10 and 30 data holders served by a
# committee of 3, 10 by a committee of 5, and today's roles (every holder a
# compute party) for 3 holders, at 1024 and 2048 bits; one process per row.
# Usage: tests/bench/data_holders_table.sh [BUILD_DIR] [ITERATIONS]
# Prints a Markdown table, then the JSON lines it was made from.
set -euo pipefail
build=${1:-build}
iterations=${2:-3}
bench="$build/tests/bench/bench_data_holders"
[ -x "$bench" ] || { echo "data_holders_table: $bench not built (deploy/build.sh)" >&2; exit 1; }
rows=()
for bits in 1024 2048; do
  for spec in "0 3" "3 3" "3 10" "3 30" "5 10"; do
    read -r committee holders <<< "$spec"
    # The JSON line only (the log goes to the same stream).
    rows+=("$("$bench" --committee "$committee" --holders "$holders" --bits "$bits" \
      --iterations "$iterations" | grep '^{')")
  done
done
printf '%s\n' "${rows[@]}" | python3 -c '
import json, sys
print("| bits | roles | s / iteration | member 0 s / it | slowest holder s / it | MPC rounds / it | member MPC MB / it | member link MB / it | holder MB sent / received per it | coordinator MB / it | peak memory GB | powm ms |")
print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for line in sys.stdin:
    r = json.loads(line)
    roles = ("%d parties (all compute)" % r["holders"]) if r["committee"] == 0 else \
            ("committee of %d, %d data holders" % (r["committee"], r["holders"]))
    holder = "-" if r["committee"] == 0 else "%.3f / %.3f" % (
        r["holder_bytes_sent_per_iteration"] / 1e6, r["holder_bytes_received_per_iteration"] / 1e6)
    holder_s = "-" if r["committee"] == 0 else "%.2f" % r["slowest_holder_s_per_iteration"]
    print("| %d | %s | %.2f | %.2f | %s | %.0f | %.2f | %.2f | %s | %.2f | %.2f | %.1f |" % (
        r["bits"], roles, r["s_per_iteration"], r["member_s_per_iteration"], holder_s,
        r["mpc_rounds_per_iteration"],
        r["member_mpc_bytes_per_iteration"] / 1e6, r["member_link_bytes_per_iteration"] / 1e6,
        holder, r["coordinator_bytes_per_iteration"] / 1e6, r["peak_rss_mb"] / 1024, r["powm_ms"]))
'
printf '%s\n' "${rows[@]}"
