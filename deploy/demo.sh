#!/usr/bin/env bash
# The local demo: a secure consortium on this machine. Builds pplda if
# needed, then
#   1. agrees on a public vocabulary (here: frequent terms of the bundled
#      State of the Union slice; a real consortium agrees on a list or
#      selects one with DP),
#   2. makes a consortium CA, one certificate per participant and the
#      consortium file (deploy/make-certs.sh), and deals a threshold
#      Paillier key (`pplda keys deal`: TRUSTED DEALER, demo only),
#   3. starts a coordinator and three party daemons on localhost, each
#      holding one era of the corpus (1790-1860, 1861-1945, 1946-2021),
#   4. runs a secure training run with live progress (`pplda run start
#      --watch`), fetches the model and prints its topics,
#   5. stops every daemon (also on Ctrl-C or an error).
# Everything goes to out/secure-demo/ (override with PPLDA_DEMO_OUT);
# PPLDA_DEMO_BITS (2048), PPLDA_DEMO_TOPICS (5), PPLDA_DEMO_ITERATIONS (5),
# PPLDA_DEMO_BASE_PORT (7400) change the run.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== building pplda, pplda-party, pplda-coordinator (first run: installs packages and compiles)"
./deploy/build.sh pplda pplda-party pplda-coordinator
out=${PPLDA_DEMO_OUT:-out/secure-demo}
bits=${PPLDA_DEMO_BITS:-2048}
topics=${PPLDA_DEMO_TOPICS:-5}
iterations=${PPLDA_DEMO_ITERATIONS:-5}
base=${PPLDA_DEMO_BASE_PORT:-7400}
pplda=$PWD/build/cli/pplda
party_bin=$PWD/build/party/daemon/pplda-party
coordinator_bin=$PWD/build/coordinator/daemon/pplda-coordinator
rm -rf "$out"
mkdir -p "$out/logs"
out=$(cd "$out" && pwd)

repo_root=$PWD
# shellcheck source=deploy/lib/local-consortium.sh
source deploy/lib/local-consortium.sh
trap 'echo "== stopping the daemons"; consortium_stop' EXIT
trap 'exit 130' INT TERM

echo "== 1. the consortium's public vocabulary: terms in at least 30 sentence windows of data/sotu"
$pplda --quiet prepare --input data/sotu --split sentences --min-df 30 --out "$out/vocabulary-source"
echo "   $(wc -l < "$out/vocabulary-source/vocabulary.txt") terms"

echo "== 2. certificates, consortium file (deploy/make-certs.sh) and a dealt ${bits}-bit key"
echo "   (pplda keys deal: TRUSTED DEALER, for demos only)"
consortium_setup "$out" "$bits" "$base" "$out/vocabulary-source/vocabulary.txt" sentences 400 5 \
  "$PWD/data/sotu/1790-1860" "$PWD/data/sotu/1861-1945" "$PWD/data/sotu/1946-2021"

echo "== 3. starting the coordinator and three parties (early, middle, modern: one era each;"
echo "   logs in $out/logs/)"
consortium_start "$out"

echo "== 4. secure training run: K = $topics, $iterations iterations"
$pplda run start --config "$out/coordinator.toml" --topics "$topics" --iterations "$iterations" --watch
$pplda run result --config "$out/coordinator.toml" --out "$out/model.json"
echo "== topics of the published model"
$pplda topics --model "$out/model.json"
echo "demo: model in $out/model.json"
for name in "${consortium_names[@]}"; do
  echo "demo: $name's document topic mixtures (its own documents only) in" \
       "$(ls "$out"/state/"$name"/runs/*/mixtures.csv)"
done
