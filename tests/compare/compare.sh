#!/usr/bin/env bash
# Compares pplda's plaintext sampler with scikit-learn and gensim on the Brown
# corpus (K = 20, alpha 0.1, beta 0.01), every model scored by pplda's own
# evaluator (held-out perplexity by document completion, UMass coherence).
# Not part of the default test run. Installs Debian's python3-sklearn and
# python3-gensim. Usage: tests/compare/compare.sh [BROWN_DIR] [PPLDA_ITERATIONS]
set -euo pipefail
cd "$(dirname "$0")/../.."
brown=${1:-../shared/data/brown}
iterations=${2:-200}
threads=${PPLDA_THREADS:-2}
out=out/compare
./deploy/build.sh >/dev/null
need=()
for p in python3-sklearn python3-gensim python3-scipy python3-numpy; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi
pplda=build/cli/pplda
rm -rf "$out" && mkdir -p "$out"
$pplda --quiet prepare --input "$brown" --out "$out/prepared"
# pplda: wall time of the whole `pplda train` command (reads the prepared folder, trains, writes
# the model; --no-evaluate skips its own held-out evaluation, done below for every system alike).
start=$(/usr/bin/python3 -c "import time;print(time.time())")
$pplda --quiet train --input "$out/prepared" --topics 20 --alpha 0.1 --beta 0.01 \
  --iterations "$iterations" --threads "$threads" --seed 1 --no-evaluate --out "$out/pplda.json" >/dev/null
pplda_seconds=$(/usr/bin/python3 -c "import time;print(time.time() - $start)")
/usr/bin/python3 tests/compare/compare_baselines.py "$out/prepared" "$out" 20 0.1 0.01 "$threads" \
  > "$out/baselines.jsonl"
tokens=$(python3 -c "import json;print(json.load(open('$out/prepared/stats.json'))['train']['tokens'])" 2>/dev/null || echo 0)
printf '| %-45s | %8s | %12s | %10s | %8s |\n' system "wall s" "tokens/s" perplexity "UMass"
printf '|%s|%s|%s|%s|%s|\n' "-----------------------------------------------" "----------" "--------------" "------------" "----------"
row() {  # row NAME SECONDS MODEL PASSES
  local json ppl coh
  json=$($pplda --quiet evaluate --model "$3" --input "$out/prepared" --json --seed 1)
  ppl=$(echo "$json" | /usr/bin/python3 -c "import json,sys;print('%.1f'%json.load(sys.stdin)['held_out_perplexity'])")
  coh=$(echo "$json" | /usr/bin/python3 -c "import json,sys;print('%.3f'%json.load(sys.stdin)['umass_coherence_top10'])")
  local rate; rate=$(/usr/bin/python3 -c "print($tokens * $4 / $2)")
  printf '| %-45s | %8.1f | %12.0f | %10s | %8s |\n' "$1" "$2" "$rate" "$ppl" "$coh"
}
row "pplda (standard Gibbs, $iterations it., $threads threads)" "$pplda_seconds" "$out/pplda.json" "$iterations"
while read -r line; do
  name=$(echo "$line" | /usr/bin/python3 -c "import json,sys;print(json.load(sys.stdin)['name'])")
  secs=$(echo "$line" | /usr/bin/python3 -c "import json,sys;print(json.load(sys.stdin)['seconds'])")
  model=$(echo "$line" | /usr/bin/python3 -c "import json,sys;print(json.load(sys.stdin)['model'])")
  passes=100; [[ $name == gensim* ]] && passes=20
  row "$name" "$secs" "$model" "$passes"
done < "$out/baselines.jsonl"
echo "tokens/s = training tokens x iterations (or passes) / wall seconds; $tokens training tokens"
