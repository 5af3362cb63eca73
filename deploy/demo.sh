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

pids=()
stop_all() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  pids=()
}
trap 'echo "== stopping the daemons"; stop_all' EXIT
trap 'exit 130' INT TERM

echo "== 1. the consortium's public vocabulary: terms in at least 20 sentence windows of data/sotu"
$pplda --quiet prepare --input data/sotu --split sentences --min-df 20 --out "$out/vocabulary-source"
cp "$out/vocabulary-source/vocabulary.txt" "$out/vocabulary.txt"
echo "   $(wc -l < "$out/vocabulary.txt") terms in $out/vocabulary.txt"

echo "== 2. certificates, consortium file and a dealt ${bits}-bit key"
eras=(1790-1860 1861-1945 1946-2021)
names=(early middle modern)
./deploy/make-certs.sh --out "$out/certs" --name sotu-demo \
  --coordinator "coordinator=127.0.0.1:$base" \
  --party "early=127.0.0.1:$((base + 1))" --party "middle=127.0.0.1:$((base + 2))" \
  --party "modern=127.0.0.1:$((base + 3))" > "$out/logs/make-certs.log"
$pplda keys deal --party early --party middle --party modern --bits "$bits" --out "$out/keys"

cat > "$out/coordinator.toml" <<TOML
[coordinator]
name = "coordinator"
consortium = "certs/consortium.toml"
vocabulary = "vocabulary.txt"
public_key = "keys/public.key"
state_dir = "state/coordinator"
listen = "127.0.0.1:$base"
metrics_listen = "127.0.0.1:$((base + 10))"
[tls]
ca = "certs/ca.crt"
cert = "certs/coordinator.crt"
key = "certs/coordinator.key"
TOML
for i in 0 1 2; do
  name=${names[$i]}
  cat > "$out/$name.toml" <<TOML
[party]
name = "$name"
consortium = "certs/consortium.toml"
documents = "$PWD/data/sotu/${eras[$i]}"
vocabulary = "vocabulary.txt"
key_share = "keys/$name.key"
state_dir = "state/$name"
listen = "127.0.0.1:$((base + 1 + i))"
metrics_listen = "127.0.0.1:$((base + 11 + i))"
[input]
split = "sentences"
window_words = 400
max_tokens = 10
[tls]
ca = "certs/ca.crt"
cert = "certs/$name.crt"
key = "certs/$name.key"
TOML
done

echo "== 3. starting the coordinator and three parties (logs in $out/logs/)"
$coordinator_bin --config "$out/coordinator.toml" > "$out/logs/coordinator.log" 2>&1 &
pids+=($!)
for name in "${names[@]}"; do
  $party_bin --config "$out/$name.toml" > "$out/logs/$name.log" 2>&1 &
  pids+=($!)
done
for name in coordinator "${names[@]}"; do
  for _ in $(seq 1 100); do
    grep -q "listening on" "$out/logs/$name.log" 2>/dev/null && break
    if ! kill -0 "${pids[@]}" 2>/dev/null; then break; fi
    sleep 0.1
  done
  if ! grep -q "listening on" "$out/logs/$name.log"; then
    echo "demo: $name did not start:" >&2
    cat "$out/logs/$name.log" >&2
    exit 1
  fi
done

echo "== 4. secure training run: K = $topics, $iterations iterations"
$pplda run start --config "$out/coordinator.toml" --topics "$topics" --iterations "$iterations" --watch
$pplda run result --config "$out/coordinator.toml" --out "$out/model.json"
echo "== topics of the published model"
$pplda topics --model "$out/model.json"
echo "demo: model in $out/model.json"
for name in "${names[@]}"; do
  echo "demo: $name's document topic mixtures (its own documents only) in" \
       "$(ls "$out"/state/"$name"/runs/*/mixtures.csv)"
done
