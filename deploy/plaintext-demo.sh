#!/usr/bin/env bash
# The plaintext demo (one organisation, no cryptography): builds pplda if needed, then on the bundled real corpus
# (24 State of the Union addresses, cut into ~100-word windows of whole
# sentences) prepares a train/test split, trains a 10-topic model, prints its
# topics, reports held-out perplexity and UMass coherence, and writes an
# HTML report (open it in a browser; it works offline).
# Output goes to out/plaintext-demo/ (override with PPLDA_DEMO_OUT).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== building pplda (first run: installs packages and compiles, a few minutes)"
./deploy/build.sh pplda
out=${PPLDA_DEMO_OUT:-out/plaintext-demo}
mkdir -p "$out"
pplda=build/cli/pplda
rm -rf "$out/prepared"
echo "== pplda prepare: data/sotu -> $out/prepared"
$pplda prepare --input data/sotu --split sentences --out "$out/prepared"
echo "== pplda train: K=10, 300 iterations"
$pplda train --input "$out/prepared" --topics 10 --iterations 300 --seed 1 --out "$out/model.json"
echo "== pplda topics"
$pplda topics --model "$out/model.json"
echo "== pplda evaluate (held-out documents)"
$pplda evaluate --model "$out/model.json" --input "$out/prepared"
echo "== pplda report"
$pplda report --model "$out/model.json" --corpus "$out/prepared" --out "$out/report.html"
echo "demo: model in $out/model.json, report in $out/report.html"
