#!/usr/bin/env bash
# Reproduces the LiRA figures of docs/audit.md (Manzonelli, Zhang & Vadhan,
# "Membership Inference Attacks and Privacy in Topic Modeling", Table 2 and
# Figure 3: TPR at 0.1% FPR grows with K; Figure 6: privacy mechanisms lower
# it) on real
# corpora with `pplda audit`. Not part of any test run: it trains
# (SHADOWS + 1) models per row, tens of minutes in all on two cores.
#
# Usage: tests/privacy/reproduce_lira.sh [BUILD_DIR] [OUT_DIR]
#   BUILD_DIR  a build folder holding cli/pplda (default: build)
#   OUT_DIR    where each audit's folder and summary.md go
#              (default: BUILD_DIR/lira-reproduction; must not hold earlier results)
# Environment (defaults in brackets):
#   DATA        corpora folder [../shared/data next to the repository]
#   CORPORA     which corpora ["sotu brown"]
#   TOPICS      values of K ["5 10 20"]
#   SHADOWS     shadows per target [64]
#   ITERATIONS  Gibbs iterations per model [500]
#   PRIORS      extra rows with other priors, "ALPHA:BETA" pairs at K = 10
#               ["0.1:0.1", the scikit-learn defaults 1/K at K = 10]
#   SEED        [1]
#   MAX_TOKENS  cap every document at this many tokens in every row [none]
#   FINAL_NOISE_SIGMAS  for each K, one more row per value with final-count
#               noise of that sigma (--final-noise-sigma: a heuristic with NO
#               differential-privacy guarantee; the rows measure its effect)
#               [none]
#   DP_VOCAB_EPSILONS  at K = 10, rows with DP vocabulary selection at each
#               value (delta 1e-5; DP for the vocabulary only) combined with
#               each FINAL_NOISE_SIGMAS value [none]
#   VOCABULARY  "fixed": every model uses the vocabulary built once from all
#               documents, as the paper did (--fixed-vocabulary); "per-model":
#               each model builds its own from its documents, as a real run
#               does (pplda audit's default) [fixed]
#
# Corpora (preprocessing: pplda defaults, docs/corpus.md):
#   sotu   State of the Union addresses cut into windows of whole sentences
#          of at most 200 words (about 10,000 documents of 77 tokens)
#   brown  the Brown corpus, one document per sample (500 documents of
#          about 820 tokens; long documents, like the paper's NIPS corpus)
#   bundled  the repository's own SOTU slice (data/sotu) in windows of
#          whole sentences of at most 100 words (2,513 documents)
set -euo pipefail

repo="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$repo/build}"
out="${2:-$build/lira-reproduction}"
data="${DATA:-$repo/../shared/data}"
case "${VOCABULARY:-fixed}" in
  fixed) vocabulary_args="--fixed-vocabulary" ;;
  per-model) vocabulary_args="" ;;
  *) echo "VOCABULARY must be fixed or per-model, not '$VOCABULARY'" >&2; exit 2 ;;
esac
corpora="${CORPORA:-sotu brown}"
topics="${TOPICS:-5 10 20}"
shadows="${SHADOWS:-64}"
iterations="${ITERATIONS:-500}"
priors="${PRIORS-0.1:0.1}"
seed="${SEED:-1}"
max_tokens="${MAX_TOKENS:-}"
if [ -n "${DP_EPSILONS:-}" ]; then
  echo "reproduce_lira: DP_EPSILONS is gone with --dp-epsilon (it claimed a DP guarantee the" \
       "final-count noise does not give); use FINAL_NOISE_SIGMAS (docs/audit.md)" >&2
  exit 1
fi
noise_sigmas="${FINAL_NOISE_SIGMAS:-}"
dp_vocab_epsilons="${DP_VOCAB_EPSILONS:-}"
cap_args=""
[ -n "$max_tokens" ] && cap_args="--max-tokens $max_tokens"
pplda="$build/cli/pplda"

[ -x "$pplda" ] || { echo "reproduce_lira: $pplda not found; build the pplda target first" >&2; exit 1; }
[ -d "$data" ] || { echo "reproduce_lira: corpora folder $data not found; set DATA" >&2; exit 1; }
if [ -e "$out/summary.md" ]; then
  echo "reproduce_lira: $out already holds results; choose another OUT_DIR" >&2
  exit 1
fi
mkdir -p "$out"

corpus_args() {
  case "$1" in
    sotu) echo "--input $data/sotu --split sentences --window-words 200" ;;
    brown) echo "--input $data/brown" ;;
    bundled) echo "--input $repo/data/sotu --split sentences" ;;
    *) echo "reproduce_lira: unknown corpus $1 (sotu, brown, bundled)" >&2; return 1 ;;
  esac
}

summary="$out/summary.md"
{
  echo "| corpus | documents | tokens | K | alpha | beta | final-count noise sigma (no DP guarantee) / DP vocabulary epsilon | shadows | online TPR at 0.1% FPR | offline TPR at 0.1% FPR | online TPR at 1% FPR | offline TPR at 1% FPR | online AUC | wall time |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
} > "$summary.tmp"

# run CORPUS K ALPHA BETA [NOISE_SIGMA [DP_VOCAB_EPSILON]]: one audit, one
# summary row.
run() {
  local corpus="$1" k="$2" alpha="$3" beta="$4" fn="${5:-}" dv="${6:-}"
  local dir="$out/$corpus-k$k-a$alpha-b$beta"
  local dp_args="" dp_label="none"
  if [ -n "$fn" ]; then dir="$dir-fn$fn"; dp_args="--final-noise-sigma $fn"; dp_label="$fn / none"; fi
  if [ -n "$dv" ]; then dir="$dir-dv$dv"; dp_args="$dp_args --dp-vocab-epsilon $dv"; dp_label="${fn:-none} / $dv"; fi
  local args
  args="$(corpus_args "$corpus") $cap_args $vocabulary_args --topics $k --alpha $alpha --beta $beta \
--shadows $shadows --iterations $iterations --seed $seed $dp_args --out $dir"
  echo "== pplda audit $args" >&2
  local log="$dir.log"
  # shellcheck disable=SC2086
  "$pplda" audit $args 2> >(tee "$log.err" >&2) | tee "$log"
  local on off docs tokens secs
  on="$(sed -n 's/^online LiRA: TPR \([0-9.]*\)% at 0.1% FPR, \([0-9.]*\)% at 1% FPR, AUC \([0-9.]*\)$/\1 \2 \3/p' "$log")"
  off="$(sed -n 's/^offline LiRA: TPR \([0-9.]*\)% at 0.1% FPR, \([0-9.]*\)% at 1% FPR.*/\1 \2/p' "$log")"
  read -r docs tokens secs < <(sed -n 's/^audit of \([0-9]*\) documents (\([0-9]*\) tokens) .* took \([0-9.]*\) s.*/\1 \2 \3/p' "$log")
  read -r on_tpr on_tpr1 on_auc <<< "$on"
  read -r off_tpr off_tpr1 <<< "$off"
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s%% | %s%% | %s%% | %s%% | %s | %s s |\n' \
    "$corpus" "$docs" "$tokens" "$k" "$alpha" "$beta" "$dp_label" "$shadows" "$on_tpr" "$off_tpr" \
    "$on_tpr1" "$off_tpr1" "$on_auc" "$secs" >> "$summary.tmp"
}

# plot_rocs OUT.svg TITLE COLUMN DIR...: the COLUMN curves of several audits'
# roc.csv on one log-log plot from 1e-5 (the geometry of privacy/roc_plot.cc),
# one series per DIR, labelled from the folder name: "final-count noise
# sigma = s" (and "DP vocabulary epsilon = e") when LABEL=dp, "no noise" for
# the others; "K = k" otherwise.
plot_rocs() {
  local svg="$1" title="$2" column="$3"
  shift 3
  awk -v title="$title" -v column="$column" -v min=1e-5 -v mode="${LABEL:-k}" -v series="$#" '
    function frac(r) { if (r < min) r = min; if (r > 1) r = 1; return 1 - log(r) / log(min) }
    function px(r) { return 78 + frac(r) * 538 }
    function py(r) { return 44 + (1 - frac(r)) * 366 }
    BEGIN {
      split("#1f5fa8 #d0661c #2a9d4b #8e44ad #c0392b #555555 #b7950b #17a2b8", colors, " ")
      height = 480 + 16 * series
      printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"%d\" viewBox=\"0 0 640 %d\" font-family=\"sans-serif\" font-size=\"13\">\n", height, height
      printf "<rect width=\"640\" height=\"%d\" fill=\"white\"/>\n", height
      printf "<text x=\"320\" y=\"26\" text-anchor=\"middle\" font-size=\"15\">%s</text>\n", title
      for (e = -5; e <= 0; e++) {
        r = 10 ^ e
        printf "<line x1=\"%.1f\" y1=\"44\" x2=\"%.1f\" y2=\"410\" stroke=\"#e3e3e3\"/>\n", px(r), px(r)
        printf "<line x1=\"78\" y1=\"%.1f\" x2=\"616\" y2=\"%.1f\" stroke=\"#e3e3e3\"/>\n", py(r), py(r)
        label = (e == 0) ? "1" : sprintf("10<tspan dy=\"-7\" font-size=\"10\">%d</tspan>", e)
        printf "<text x=\"%.1f\" y=\"432\" text-anchor=\"middle\">%s</text>\n", px(r), label
        printf "<text x=\"70\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", py(r) + 5, label
      }
      printf "<rect x=\"78\" y=\"44\" width=\"538\" height=\"366\" fill=\"none\" stroke=\"#444\"/>\n"
      printf "<line x1=\"78\" y1=\"410\" x2=\"616\" y2=\"44\" stroke=\"#888\" stroke-dasharray=\"5 4\"/>\n"
      printf "<text x=\"347\" y=\"458\" text-anchor=\"middle\">false-positive rate</text>\n"
      printf "<text transform=\"translate(20 227) rotate(-90)\" text-anchor=\"middle\">true-positive rate</text>\n"
    }
    FNR == 1 {
      if (points != "") flush()
      for (i = 1; i <= NF; i++) if ($i == column) col = i
      n = split(FILENAME, parts, "/"); name = parts[n - 1]; points = " "
      label = name
      if (mode == "dp") {
        label = "no noise"
        if (match(name, /-fn[0-9.]+/)) label = "final-count noise sigma = " substr(name, RSTART + 3, RLENGTH - 3)
        if (match(name, /-dv[0-9.]+/)) label = label ", DP vocabulary epsilon = " substr(name, RSTART + 3, RLENGTH - 3)
      } else if (match(name, /-k[0-9]+-/)) {
        label = "K = " substr(name, RSTART + 2, RLENGTH - 3)
      }
      name = label
      next
    }
    $1 + 0 < min { next }
    { points = points sprintf("%.2f,%.2f ", px($1), py($col)) }
    function flush() {
      s++
      printf "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>\n", points, colors[s]
      y = 470 + 16 * s
      printf "<line x1=\"78\" y1=\"%d\" x2=\"106\" y2=\"%d\" stroke=\"%s\" stroke-width=\"3\"/>\n", y - 5, y - 5, colors[s]
      printf "<text x=\"114\" y=\"%d\">%s</text>\n", y, name
    }
    END { flush(); printf "</svg>\n" }
  ' FS=, "${@/%//roc.csv}" > "$svg"
}

start=$(date +%s)
for corpus in $corpora; do
  for k in $topics; do
    run "$corpus" "$k" 0.1 0.01
    for e in $noise_sigmas; do run "$corpus" "$k" 0.1 0.01 "$e"; done
  done
  for v in $dp_vocab_epsilons; do
    for e in $noise_sigmas; do run "$corpus" 10 0.1 0.01 "$e" "$v"; done
  done
  for p in $priors; do run "$corpus" 10 "${p%%:*}" "${p##*:}"; done
done
mv "$summary.tmp" "$summary"
for corpus in $corpora; do
  dirs=()
  for k in $topics; do dirs+=("$out/$corpus-k$k-a0.1-b0.01"); done
  plot_rocs "$out/$corpus-offline-by-k.svg" "Offline LiRA on $corpus, $shadows shadows, varying K" \
    tpr_offline "${dirs[@]}"
  plot_rocs "$out/$corpus-online-by-k.svg" "Online LiRA on $corpus, $shadows shadows, varying K" \
    tpr_online "${dirs[@]}"
  if [ -n "$noise_sigmas" ]; then
    dirs=("$out/$corpus-k10-a0.1-b0.01")
    for e in $noise_sigmas; do dirs+=("$out/$corpus-k10-a0.1-b0.01-fn$e"); done
    for v in $dp_vocab_epsilons; do
      for e in $noise_sigmas; do dirs+=("$out/$corpus-k10-a0.1-b0.01-fn$e-dv$v"); done
    done
    LABEL=dp plot_rocs "$out/$corpus-online-by-dp.svg" \
      "Online LiRA on $corpus, K = 10, $shadows shadows, with and without final-count noise" \
      tpr_online "${dirs[@]}"
  fi
done
echo "reproduce_lira: done in $(( $(date +%s) - start )) s; table in $summary" >&2
cat "$summary"
