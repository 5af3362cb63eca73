#!/usr/bin/env bash
# DP utility study of `pplda train` (docs/privacy.md, "Utility study"). NOT part of
# any test run (no CMake/CTest entry): it trains and evaluates about 45 models
# per repeat, about 5 minutes per repeat on two idle cores at the defaults
# (from the smoke timings: 0.4 to 2 s per model at 5 to 20 iterations). It
# measures, for K = 10 topics and delta 1e-5:
#
#   1. held-out perplexity and UMass coherence against epsilon (0.5, 1, 2, 4,
#      8 and infinity = no DP flag) for the whole DP pipeline and each part
#      alone, on all training documents of each corpus;
#   2. the same against corpus size at epsilon 4 (whole pipeline and the
#      non-private model), on nested subsets of the real training documents;
#   3. whether epsilon 8 comes within 15% of the non-private model (the larger
#      corpus is marked), and the corpus size at which epsilon 4 gets there:
#      measured, or read off the size curve and labelled as such.
#
# Usage:
#   tests/privacy/utility_study.sh [--out DIR] [--build DIR] [--report-only] [DIR]
#     --out DIR (or DIR)  results folder [out/utility-study]. Runs already in
#                         its runs.csv are not run again (delete a row, or the
#                         folder, to redo one), so an interrupted study resumes
#                         and a larger REPEATS adds runs; a folder holding a
#                         study made with other settings is refused.
#     --build DIR         build folder holding cli/pplda [build]; PPLDA=path overrides
#     --report-only       rewrite study.md (and the plots) from runs.csv, run
#                         nothing (give the same environment as the study)
#   Full study, from the repository root:
#     nice -n 19 tests/privacy/utility_study.sh --out out/utility-study
#   (REPEATS=3 in front for means over three runs, about three times as long.)
#   Smoke test (under a minute):
#     ITERATIONS=5 EPSILONS="8 inf" SIZES="50 100" EVAL_SWEEPS=10 \
#       nice -n 19 tests/privacy/utility_study.sh --out /tmp/utility-smoke
#   Needs jq and gnuplot (Debian's jq and gnuplot-nox: installed with apt-get
#   when missing and the script runs as root or with sudo; without gnuplot
#   the plots are skipped with a message). Builds pplda when build/cli/pplda
#   is missing (deploy/build.sh installs the rest).
#
# Environment (defaults in brackets):
#   DATA         corpora folder [../shared/data next to the repository]
#   CORPORA      ["sotu brown"]; names:
#                  sotu     DATA/sotu: the 233 State of the Union addresses
#                  brown    DATA/brown: the 500 Brown samples (*.txt only)
#                  bundled  the repository's slice data/sotu (24 addresses,
#                           about 2,500 windows)
#   SOTU_SPLIT, BROWN_SPLIT, BUNDLED_SPLIT  --split of each corpus [sentences]
#                (Brown too: see "Documents" below; BROWN_SPLIT=none reads
#                whole samples)
#   WINDOW_WORDS --window-words with --split sentences [100]
#   HOLDOUT_EVERY  source file i (0-based, in byte order of its path) is held
#                out when i % N == N - 1 [5: every 5th address or sample]
#   EPSILONS     total epsilons; "inf" = no DP flag [0.5 1 2 4 8 inf]; the
#                non-private model is always trained (every change refers to it)
#   PIPELINES    DP pipelines run at each finite epsilon E [whole counts vocab]
#                  whole   --dp-epsilon E --dp-vocab-epsilon VOCAB_SHARE*E: the
#                          whole model (E, DELTA)-DP; the vocabulary's
#                          (VOCAB_SHARE*E, DELTA/2) is debited first (DELTA/2 is
#                          pplda's vocabulary delta with --dp-epsilon), the
#                          counts get the rest of the budget
#                  counts  --dp-epsilon E on the non-private vocabulary
#                          (pplda's default --min-df 2 --max-df 0.5): the
#                          counts alone, the whole budget
#                  vocab   --dp-vocab-epsilon E --dp-vocab-delta DELTA, exact
#                          counts: the vocabulary alone, the whole budget
#   VOCAB_SHARE  the vocabulary's share of the whole pipeline's epsilon [0.25]
#   DELTA        [1e-5]
#   SIZES        percentages of the training files for the size curve
#                [25 50 75 100]; each is a prefix of one fixed order (the
#                training files sorted by SHA-256 of "pplda-utility-study:"
#                and their path, which mixes eras and genres), so the subsets
#                are nested and no document is ever repeated
#   SIZE_EPSILON epsilon of the size curve (whole pipeline) [4]
#   TARGET_EPSILON, TARGET_PERCENT  the target [8, 15]
#   TOPICS       K [10]
#   ITERATIONS   Gibbs iterations of every model [500, pplda train's default]
#   DP_NOISY_ITERATIONS  --dp-noisy-iterations [10]: docs/measurements.md (DP
#                utility, fewer noisy iterations) measured lower perplexity with fewer noisy
#                releases (R = 100, 20, 5 at epsilon 8); 10 is between the
#                measured 20 and 5. Capped at ITERATIONS; 0 = every iteration
#   DP_SAMPLE_RATE  --dp-sample-rate q of every DP training run [1: every
#                document in every release]; below 1 each noisy release uses a
#                fresh Poisson sample of the documents (Renyi-DP accounting).
#                tests/privacy/subsampling_study.sh runs the study once per q
#   DP_MAX_TOKENS, DP_MAX_TERM_COUNT, DP_VOCAB_MAX_TERMS  passed when set
#                [pplda's defaults: L = 20, c = 1, N = 5]
#   SAMPLER      sampler of every run [batched]: DP training runs only the
#                batched sampler, so the non-private and vocabulary-only runs
#                use it too and the comparison measures DP, not the sampler
#   SEED         seed of the non-private and vocabulary-only training (repeat
#                r uses SEED + r - 1) and of every held-out fold-in [1]
#   EVAL_SWEEPS  `pplda evaluate --sweeps` (burn-in a fifth) [50]
#   REPEATS      runs of each configuration, reported as their mean (± sd)
#                [1]; DP training draws its noise and its Gibbs seed from the
#                OS CSPRNG (libsodium), so every DP run differs
#   THREADS      --threads of train and evaluate [0 = all cores]
#   KEEP_MODELS  1 keeps every model file in DIR/models, 0 only the
#                non-private ones (the DP runs restrict them) [1]
#
# Documents. DP vocabulary selection needs raw documents (a prepared folder is
# refused), so this script splits the SOURCE FILES itself, deterministically:
# every HOLDOUT_EVERY-th file (by path) goes to the held-out folder, the rest
# to the training folder (symbolic links in DIR/data). With --split sentences
# one document (the DP privacy unit) is a window of whole sentences of at most
# WINDOW_WORDS words, and all windows of an address or sample are on the same
# side. Brown is cut into windows too by default: the DP caps keep L = 20
# tokens per document, about 1% of a 2,000-word sample, and windows make
# the two corpora's units alike (the guarantee then covers one window; a whole
# sample only by group privacy, as pplda prints).
#
# Measurement. Each model is trained on the training folder and scored by
# `pplda evaluate --model M --input HELD_OUT_FOLDER --split ...`
# (cli/evaluate_command.cc): the held-out raw documents are preprocessed as in
# training (stop words, lengths; no document-frequency filter) and mapped
# onto the MODEL's vocabulary; tokens of other terms are dropped
# (lda/preprocessor.cc, MapToVocabulary), so each model is scored on the
# tokens its vocabulary covers:
#   perplexity  document completion over the covered tokens (lda/metrics.h)
#   coherence   UMass, top 10 words, mean over topics; co-document frequencies
#               from the HELD-OUT documents (evaluate uses the mapped held-out
#               documents as its reference corpus); pairs with a word in no
#               held-out document are left out (lda/metrics.h)
# A smaller vocabulary trivially lowers perplexity, so every run also reports
#   vocabulary size, and held-out coverage = covered tokens / held-out tokens
#     after preprocessing (the dropped count is read from evaluate's log,
#     "... tokens of terms outside the vocabulary were dropped": its JSON
#     output does not give it);
#   the same-vocabulary comparison: for a DP vocabulary (whole, vocab) the
#     non-private model of the same corpus, size and repeat is restricted to
#     that vocabulary (its topic-term counts on those terms, 0 for a term it
#     lacks; a valid model file) and scored on exactly the same held-out
#     tokens, so "change, same vocabulary" compares like with like.
# A vocabulary-INDEPENDENT figure (a likelihood of ALL held-out tokens) is NOT
# available: the CLI scores covered tokens only and cannot charge the dropped
# ones. study.md says so too. The target counts as met only when perplexity
# and coherence at the same vocabulary AND the held-out coverage are each
# within TARGET_PERCENT of the non-private model's.
#
# Output in DIR:
#   runs.csv   one row per run (its columns are listed at the end of study.md)
#   study.md   the tables (means over repeats; relative change against the
#              non-private model of the same corpus and size), the target
#              check and the command, ready to paste into docs/privacy.md
#   *.svg      plots, only when gnuplot is on PATH (svg terminal);
#              plot-data/ holds what they plot either way
#   data/      the split (held-out and training file lists, folders of links)
#   logs/, models/  each run's stdout/stderr and model file
set -euo pipefail

repo="$(cd "$(dirname "$0")/../.." && pwd)"
build="$repo/build"
out=""
report_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --out=*) out="${1#--out=}"; shift ;;
    --build) build="$2"; shift 2 ;;
    --build=*) build="${1#--build=}"; shift ;;
    --report-only) report_only=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "utility_study: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) [ -z "$out" ] || { echo "utility_study: two results folders given" >&2; exit 2; }
       out="$1"; shift ;;
  esac
done
out="${out:-out/utility-study}"

data="${DATA:-$repo/../shared/data}"
corpora="${CORPORA:-sotu brown}"
sotu_split="${SOTU_SPLIT:-sentences}"
brown_split="${BROWN_SPLIT:-sentences}"
bundled_split="${BUNDLED_SPLIT:-sentences}"
window_words="${WINDOW_WORDS:-100}"
holdout_every="${HOLDOUT_EVERY:-5}"
epsilons="${EPSILONS:-0.5 1 2 4 8 inf}"
pipelines="${PIPELINES:-whole counts vocab}"
vocab_share="${VOCAB_SHARE:-0.25}"
delta="${DELTA:-1e-5}"
sizes="${SIZES:-25 50 75 100}"
size_epsilon="${SIZE_EPSILON:-4}"
target_epsilon="${TARGET_EPSILON:-8}"
target_percent="${TARGET_PERCENT:-15}"
topics="${TOPICS:-10}"
iterations="${ITERATIONS:-500}"
noisy_iterations="${DP_NOISY_ITERATIONS:-10}"
dp_sample_rate="${DP_SAMPLE_RATE:-1}"
dp_max_tokens="${DP_MAX_TOKENS:-}"
dp_max_term_count="${DP_MAX_TERM_COUNT:-}"
dp_vocab_max_terms="${DP_VOCAB_MAX_TERMS:-}"
sampler="${SAMPLER:-batched}"
seed="${SEED:-1}"
eval_sweeps="${EVAL_SWEEPS:-50}"
repeats="${REPEATS:-1}"
threads="${THREADS:-0}"
keep_models="${KEEP_MODELS:-1}"
pplda="${PPLDA:-$build/cli/pplda}"

die() { echo "utility_study: $*" >&2; exit 1; }

# The study's own tools, from Debian packages (not needed by the test suite).
install_study_tools() {
  local missing=()
  command -v jq > /dev/null 2>&1 || missing+=(jq)
  command -v gnuplot > /dev/null 2>&1 || missing+=(gnuplot-nox)
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo > /dev/null 2>&1 || { echo "utility_study: cannot install ${missing[*]} (not root, no sudo)" >&2; return 0; }
    sudo="sudo"
  fi
  echo "utility_study: installing ${missing[*]}" >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null ||
    echo "utility_study: installing ${missing[*]} failed" >&2
}
install_study_tools
command -v jq > /dev/null 2>&1 || die "jq is needed (apt-get install jq)"
if [ ! -x "$pplda" ] && [ -z "${PPLDA:-}" ]; then
  "$repo/deploy/build.sh" || die "building pplda failed"
fi
is_number() { [[ "$1" =~ ^[0-9]+([.][0-9]+)?([eE][-+]?[0-9]+)?$ ]]; }
for e in $epsilons; do
  [ "$e" = inf ] || { is_number "$e" && awk -v e="$e" 'BEGIN { exit !(e > 0) }'; } ||
    die "EPSILONS: $e is neither a positive number nor inf"
done
for p in $pipelines; do
  case "$p" in whole|counts|vocab) ;; *) die "PIPELINES: unknown pipeline $p (whole, counts, vocab)" ;; esac
done
for s in $sizes; do
  [[ "$s" =~ ^[0-9]+$ ]] && [ "$s" -ge 1 ] && [ "$s" -le 100 ] || die "SIZES: $s is not a percentage in [1, 100]"
done
for c in $corpora; do
  case "$c" in sotu|brown|bundled) ;; *) die "CORPORA: unknown corpus $c (sotu, brown, bundled)" ;; esac
done
is_number "$size_epsilon" || die "SIZE_EPSILON must be a number"
[[ "$repeats" =~ ^[1-9][0-9]*$ ]] || die "REPEATS must be a positive integer"
[[ "$iterations" =~ ^[1-9][0-9]*$ ]] || die "ITERATIONS must be a positive integer"
[[ "$eval_sweeps" =~ ^[1-9][0-9]*$ ]] || die "EVAL_SWEEPS must be a positive integer"
[[ "$holdout_every" =~ ^[2-9]$|^[1-9][0-9]+$ ]] || die "HOLDOUT_EVERY must be an integer >= 2"
[[ "$noisy_iterations" =~ ^[0-9]+$ ]] || die "DP_NOISY_ITERATIONS must be an integer >= 0"
{ is_number "$dp_sample_rate" && awk -v q="$dp_sample_rate" 'BEGIN { exit !(q > 0 && q <= 1) }'; } ||
  die "DP_SAMPLE_RATE must be a number in (0, 1]"
effective_noisy="$noisy_iterations"
[ "$effective_noisy" -gt "$iterations" ] && effective_noisy="$iterations"

mkdir -p "$out"
out="$(cd "$out" && pwd)"
csv="$out/runs.csv"
header="run,corpus,pipeline,epsilon,vocab_epsilon,counts_epsilon,size_pct,train_files,repeat,train_documents,train_tokens,vocab_size,heldout_documents,heldout_tokens,heldout_tokens_covered,coverage,perplexity,coherence,np_perplexity_same_vocab,np_coherence_same_vocab,sigma,train_seconds,eval_seconds,seconds,status"

# Everything that changes what one run measures; a results folder holds one
# setting (which runs are made: CORPORA, EPSILONS, PIPELINES, SIZES, REPEATS,
# THREADS may change between invocations, and runs already made are kept).
settings="topics=$topics iterations=$iterations sampler=$sampler delta=$delta vocab_share=$vocab_share \
noisy_iterations=$effective_noisy dp_max_tokens=${dp_max_tokens:-default} \
dp_max_term_count=${dp_max_term_count:-default} dp_vocab_max_terms=${dp_vocab_max_terms:-default} \
seed=$seed eval_sweeps=$eval_sweeps holdout_every=$holdout_every window_words=$window_words \
${DP_SAMPLE_RATE:+dp_sample_rate=$dp_sample_rate }splits=sotu:$sotu_split,brown:$brown_split,bundled:$bundled_split data=$(cd "$data" 2>/dev/null && pwd || echo "$data")"
if [ -f "$out/settings.txt" ]; then
  [ "$(cat "$out/settings.txt")" = "$settings" ] ||
    die "$out holds a study made with other settings ($out/settings.txt:
$(cat "$out/settings.txt")
now:
$settings); choose another --out"
else
  printf '%s' "$settings" > "$out/settings.txt"
fi
[ -f "$csv" ] || echo "$header" > "$csv"
[ "$(head -n 1 "$csv")" = "$header" ] || die "$csv has other columns; choose another --out"

# The command that reproduces this study, for the report.
command_line() {
  local v vars=""
  for v in DATA CORPORA SOTU_SPLIT BROWN_SPLIT BUNDLED_SPLIT WINDOW_WORDS HOLDOUT_EVERY EPSILONS \
           PIPELINES VOCAB_SHARE DELTA SIZES SIZE_EPSILON TARGET_EPSILON TARGET_PERCENT TOPICS \
           ITERATIONS DP_NOISY_ITERATIONS DP_SAMPLE_RATE DP_MAX_TOKENS DP_MAX_TERM_COUNT DP_VOCAB_MAX_TERMS \
           SAMPLER SEED EVAL_SWEEPS REPEATS THREADS; do
    if [ -n "${!v:-}" ]; then
      case "${!v}" in *[[:space:]]*) vars="$vars$v=\"${!v}\" " ;; *) vars="$vars$v=${!v} " ;; esac
    fi
  done
  echo "${vars}tests/privacy/utility_study.sh --out $1"
}

# ---------------------------------------------------------------- the split

corpus_source() {
  case "$1" in
    sotu) echo "$data/sotu" ;;
    brown) echo "$data/brown" ;;
    bundled) echo "$repo/data/sotu" ;;
  esac
}
corpus_split() {
  case "$1" in
    sotu) echo "$sotu_split" ;;
    brown) echo "$brown_split" ;;
    bundled) echo "$bundled_split" ;;
  esac
}
size_files() {  # size_files PCT N: files in the PCT% prefix of N training files
  local n=$(( ($1 * $2 + 50) / 100 ))
  [ "$n" -ge 1 ] || n=1
  echo "$n"
}

# prepare_split CORPUS: DIR/data/CORPUS/{heldout,train-PCT}/ as links to the
# source files, and the lists heldout.txt and train-order.txt. Deterministic.
prepare_split() {
  local corpus="$1" src dir
  src="$(corpus_source "$corpus")"
  [ -d "$src" ] || die "corpus folder $src not found (set DATA)"
  src="$(cd "$src" && pwd)"
  dir="$out/data/$corpus"
  rm -rf "$dir"
  mkdir -p "$dir/heldout"
  local -a files train
  mapfile -t files < <(cd "$src" && find . -type f -name '*.txt' | sed 's|^\./||' | LC_ALL=C sort)
  [ "${#files[@]}" -ge "$holdout_every" ] || die "$src has fewer than $holdout_every .txt files"
  local i f
  : > "$dir/heldout.txt"
  for i in "${!files[@]}"; do
    f="${files[$i]}"
    if [ $(( i % holdout_every )) -eq $(( holdout_every - 1 )) ]; then
      echo "$f" >> "$dir/heldout.txt"
      ln -s "$src/$f" "$dir/heldout/${f//\//_}"
    else
      train+=("$f")
    fi
  done
  for f in "${train[@]}"; do
    printf '%s %s\n' "$(printf 'pplda-utility-study:%s' "$f" | sha256sum | cut -c1-64)" "$f"
  done | LC_ALL=C sort | cut -d' ' -f2- > "$dir/train-order.txt"
  local pct n
  for pct in $(echo "$sizes 100" | tr ' ' '\n' | sort -un); do
    n="$(size_files "$pct" "${#train[@]}")"
    mkdir -p "$dir/train-$pct"
    head -n "$n" "$dir/train-order.txt" | while IFS= read -r f; do
      ln -s "$src/$f" "$dir/train-$pct/${f//\//_}"
    done
  done
  echo "utility_study: $corpus: ${#files[@]} files from $src, $(wc -l < "$dir/heldout.txt") held out" \
       "(every ${holdout_every}th), ${#train[@]} for training" >&2
}

# ---------------------------------------------------------------- one run

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
clean() { tr ',\n\r' ';  ' | cut -c1-300; }  # a CSV-safe message

# evaluate MODEL HELD_OUT_DIR LOG SPLIT_ARGS...: `pplda evaluate` of MODEL on
# the held-out raw documents; sets ev_perplexity, ev_coherence, ev_docs,
# ev_covered, ev_total, ev_coverage and ev_error (empty on success).
evaluate() {
  local model="$1" heldout_dir="$2" log="$3"
  shift 3
  ev_perplexity="" ev_coherence="" ev_docs="" ev_covered="" ev_total="" ev_coverage="" ev_error=""
  if ! "$pplda" evaluate --model "$model" --input "$heldout_dir" "$@" \
       --sweeps "$eval_sweeps" --burn-in $(( eval_sweeps / 5 )) --seed "$seed" \
       --threads "$threads" --json > "$log.json" 2> "$log.err"; then
    ev_error="$(grep -v '^info:' "$log.err" | tail -n 3 | clean)"
    return 0
  fi
  ev_perplexity="$(jq -r '.held_out_perplexity' "$log.json")"
  ev_coherence="$(jq -r '.umass_coherence_top10' "$log.json")"
  ev_docs="$(jq -r '.test_documents' "$log.json")"
  ev_covered="$(jq -r '.test_tokens' "$log.json")"
  # The dropped tokens are only in the log (cli/input_flags.cc, LogPreprocessReport).
  local unknown
  unknown="$(sed -n 's/.*info: \([0-9]*\) tokens of terms outside the vocabulary were dropped.*/\1/p' \
             "$log.err" | tail -n 1)"
  ev_total=$(( ev_covered + ${unknown:-0} ))
  ev_coverage="$(awk -v c="$ev_covered" -v t="$ev_total" 'BEGIN { printf "%.6f", (t > 0 ? c / t : 0) }')"
}

# restrict_model FROM VOCABULARY_MODEL OUT: FROM's topic-term counts on the
# terms of VOCABULARY_MODEL's vocabulary, in its order (0 for a term FROM does
# not have): the non-private model conditioned on a DP vocabulary, scored on
# exactly the held-out tokens the DP model is scored on.
restrict_model() {
  jq --slurpfile v "$2" '
    (.vocabulary | to_entries | map({key: .value, value: .key}) | from_entries) as $index
    | ($v[0].vocabulary) as $terms
    | .topic_term_counts = [.topic_term_counts[] as $row
                            | [$terms[] | $index[.] as $i | if $i == null then 0 else $row[$i] end]]
    | .vocabulary = $terms
    | .metadata = {"utility_study": "non-private model restricted to another model'"'"'s vocabulary"}
  ' "$1" > "$3"
}

# run_one CORPUS PIPELINE EPSILON SIZE_PCT REPEAT: trains and evaluates one
# model and appends its row to runs.csv (unless that run is already there).
# For a DP vocabulary (whole, vocab) it also scores the non-private model of
# the same corpus, size and repeat restricted to that vocabulary.
run_one() {
  local corpus="$1" pipeline="$2" eps="$3" pct="$4" rep="$5"
  local key="$corpus-$pipeline-e$eps-s$pct-r$rep"
  if awk -F, -v k="$key" '$1 == k { found = 1 } END { exit !found }' "$csv"; then
    echo "utility_study: $key is in runs.csv already" >&2
    return 0
  fi
  local split train_dir heldout_dir train_files
  split="$(corpus_split "$corpus")"
  train_dir="$out/data/$corpus/train-$pct"
  heldout_dir="$out/data/$corpus/heldout"
  train_files="$(find "$train_dir" -name '*.txt' | wc -l)"
  local -a read_args=(--split "$split")
  [ "$split" = sentences ] && read_args+=(--window-words "$window_words")
  local -a args=(train --input "$train_dir" "${read_args[@]}" --topics "$topics"
                 --iterations "$iterations" --sampler "$sampler" --threads "$threads")
  local -a dp_counts=(--dp-delta "$delta" --dp-noisy-iterations "$effective_noisy")
  [ "$dp_sample_rate" = 1 ] || dp_counts+=(--dp-sample-rate "$dp_sample_rate")
  [ -n "$dp_max_tokens" ] && dp_counts+=(--dp-max-tokens "$dp_max_tokens")
  [ -n "$dp_max_term_count" ] && dp_counts+=(--dp-max-term-count "$dp_max_term_count")
  local -a dp_vocab=()
  [ -n "$dp_vocab_max_terms" ] && dp_vocab+=(--dp-vocab-max-terms "$dp_vocab_max_terms")
  local vocab_eps="" counts_eps=""
  case "$pipeline" in
    none) args+=(--seed $(( seed + rep - 1 ))) ;;
    whole)
      vocab_eps="$(awk -v e="$eps" -v s="$vocab_share" 'BEGIN { printf "%.6g", e * s }')"
      counts_eps="$eps"  # the run's budget; the counts get what the vocabulary leaves
      args+=(--dp-epsilon "$eps" "${dp_counts[@]}" --dp-vocab-epsilon "$vocab_eps" "${dp_vocab[@]}") ;;
    counts) counts_eps="$eps"; args+=(--dp-epsilon "$eps" "${dp_counts[@]}") ;;
    vocab)
      vocab_eps="$eps"
      args+=(--seed $(( seed + rep - 1 )) --dp-vocab-epsilon "$eps" --dp-vocab-delta "$delta" "${dp_vocab[@]}") ;;
  esac
  mkdir -p "$out/logs" "$out/models"
  local model="$out/models/$key.json" log="$out/logs/$key"
  rm -f "$model"
  echo "== $key: pplda ${args[*]}" >&2
  local t0 t1 t2 status=ok train_seconds="" eval_seconds=""
  t0="$(now)"
  if ! "$pplda" "${args[@]}" --out "$model" > "$log.train.out" 2> "$log.train.err"; then
    status="train failed: $(grep -v '^info:' "$log.train.err" | tail -n 3 | clean)"
  fi
  t1="$(now)"
  train_seconds="$(elapsed "$t0" "$t1")"
  local train_docs="" train_tokens="" vocab_size="" sigma=""
  read -r train_docs train_tokens < <(sed -n 's/.*info: training .*: \([0-9]*\) documents, \([0-9]*\) tokens, .*/\1 \2/p' \
                                      "$log.train.err" | tail -n 1) || true
  sigma="$(sed -n 's/.*discrete Gaussian sigma \([0-9.e+]*\) on every count.*/\1/p' "$log.train.out" | tail -n 1)"
  local perplexity="" coherence="" docs="" covered="" total="" coverage=""
  local np_perplexity="" np_coherence=""
  if [ "$status" = ok ]; then
    vocab_size="$(jq '.vocabulary | length' "$model")"
    evaluate "$model" "$heldout_dir" "$log.eval" "${read_args[@]}"
    if [ -z "$ev_error" ]; then
      perplexity="$ev_perplexity" coherence="$ev_coherence" docs="$ev_docs"
      covered="$ev_covered" total="$ev_total" coverage="$ev_coverage"
    else
      status="evaluate failed: $ev_error"
    fi
    t2="$(now)"
    eval_seconds="$(elapsed "$t1" "$t2")"
    local np_model="$out/models/$corpus-none-einf-s$pct-r$rep.json"
    if [ "$status" = ok ] && { [ "$pipeline" = whole ] || [ "$pipeline" = vocab ]; }; then
      if [ ! -f "$np_model" ]; then
        status="ok; no non-private model $np_model to restrict"
      elif ! restrict_model "$np_model" "$model" "$model.np-restricted"; then
        status="ok; restricting the non-private model failed"
      else
        evaluate "$model.np-restricted" "$heldout_dir" "$log.np-restricted" "${read_args[@]}"
        if [ -n "$ev_error" ]; then
          status="ok; the restricted non-private model failed: $ev_error"
        elif [ "$ev_covered" != "$covered" ]; then
          status="ok; the restricted non-private model was scored on $ev_covered tokens; not $covered"
        else
          np_perplexity="$ev_perplexity" np_coherence="$ev_coherence"
        fi
      fi
      rm -f "$model.np-restricted"
    fi
  fi
  # The non-private models stay: the DP runs of the same size restrict them.
  [ "$keep_models" = 1 ] || [ "$pipeline" = none ] || rm -f "$model"
  local seconds
  seconds="$(awk -v a="$train_seconds" -v b="${eval_seconds:-0}" 'BEGIN { printf "%.2f", a + b }')"
  echo "$key,$corpus,$pipeline,$eps,$vocab_eps,$counts_eps,$pct,$train_files,$rep,$train_docs,$train_tokens,$vocab_size,$docs,$total,$covered,$coverage,$perplexity,$coherence,$np_perplexity,$np_coherence,$sigma,$train_seconds,$eval_seconds,$seconds,$status" >> "$csv"
  echo "   $status: V = ${vocab_size:-?}, coverage ${coverage:-?}, perplexity ${perplexity:-?}" \
       "(non-private on this vocabulary ${np_perplexity:--}), coherence ${coherence:-?}" \
       "(${np_coherence:--}), $seconds s" >&2
}

# ---------------------------------------------------------------- report

# write_report: DIR/study.md (and the plots' data) from runs.csv.
write_report() {
  local md="$out/study.md" plots_dir="$out/plot-data"
  rm -rf "$plots_dir"
  mkdir -p "$plots_dir"
  local version commit c split_note=""
  version="$("$pplda" --version 2>/dev/null | head -n 1 || echo unknown)"
  commit="$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  for c in $corpora; do split_note="$split_note${split_note:+, }$c --split $(corpus_split "$c")"; done
  awk -F, -v corpora="$corpora" -v epsilons="$epsilons" -v pipelines="$pipelines" \
      -v sizes="$sizes" -v size_eps="$size_epsilon" -v target_eps="$target_epsilon" \
      -v target="$target_percent" -v topics="$topics" -v delta="$delta" \
      -v iterations="$iterations" -v noisy="$effective_noisy" -v share="$vocab_share" \
      -v sampler="$sampler" -v sweeps="$eval_sweeps" -v repeats="$repeats" \
      -v holdout="$holdout_every" -v command="$(command_line "$out")" -v version="$version" \
      -v commit="$commit" -v plots="$plots_dir" -v dp_l="${dp_max_tokens:-20}" \
      -v dp_c="${dp_max_term_count:-1}" -v dp_n="${dp_vocab_max_terms:-5}" \
      -v splits="$split_note" -v window="$window_words" -v sample_rate="$dp_sample_rate" '
    function abs(x) { return x < 0 ? -x : x }
    function key(c, p, e, s) { return c SUBSEP p SUBSEP e SUBSEP s }
    function add(k, name, x) { if (x == "") return; S[k, name] += x; Q[k, name] += x * x; C[k, name]++ }
    function has(k, name) { return ((k, name) in C) && C[k, name] > 0 }
    function mean(k, name) { return has(k, name) ? S[k, name] / C[k, name] : "" }
    function sd(k, name,   n, m, v) {
      n = C[k, name]; if (n < 2) return ""
      m = S[k, name] / n; v = (Q[k, name] - n * m * m) / (n - 1)
      return v > 0 ? sqrt(v) : 0
    }
    function nok(k) { return (k in ok) ? ok[k] : 0 }
    function nbad(k) { return (k in bad) ? bad[k] : 0 }
    function fmt(k, name, f,   s) {
      if (!has(k, name)) return "-"
      s = sprintf(f, mean(k, name))
      if (C[k, name] > 1) s = s " ± " sprintf(f, sd(k, name))
      return s
    }
    function pctfmt(k, name) {
      if (!has(k, name)) return "-"
      return sprintf("%.1f%%", 100 * mean(k, name)) (C[k, name] > 1 ? sprintf(" ± %.1f", 100 * sd(k, name)) : "")
    }
    # Relative change of the mean of k against the mean of b, in percent.
    function rel(k, b, name) {
      if (!has(k, name) || !has(b, name) || mean(b, name) == 0) return ""
      return 100 * (mean(k, name) - mean(b, name)) / abs(mean(b, name))
    }
    # The same at the same vocabulary: for a DP vocabulary against the
    # non-private model restricted to it (scored on the same tokens); the
    # other pipelines have the non-private vocabulary already.
    function relsame(k, b, p, name,   m) {
      if (p != "whole" && p != "vocab") return rel(k, b, name)
      m = "np" name
      if (!has(k, name) || !has(k, m) || mean(k, m) == 0) return ""
      return 100 * (mean(k, name) - mean(k, m)) / abs(mean(k, m))
    }
    function relfmt(r) { return r == "" ? "-" : sprintf("%+.1f%%", r) }
    function pname(p) {
      return p == "whole" ? "whole pipeline" : p == "counts" ? "counts only" : \
             p == "vocab" ? "vocabulary only" : "non-private"
    }
    function runs(k) { return nok(k) (nbad(k) ? sprintf(" (+%d failed)", nbad(k)) : "") }
    # The three gaps of the target, in percent, positive = worse: perplexity
    # and coherence at the same vocabulary, and held-out coverage. Sets G[].
    function gaps(k, b, p,   r) {
      r = relsame(k, b, p, "ppl"); G["ppl"] = r
      r = relsame(k, b, p, "coh"); G["coh"] = (r == "" ? "" : -r)
      r = rel(k, b, "cov"); G["cov"] = (r == "" ? "" : -r)
    }
    function meets(k, b, p) {
      gaps(k, b, p)
      return G["ppl"] != "" && G["coh"] != "" && G["cov"] != "" && \
             G["ppl"] <= target && G["coh"] <= target && G["cov"] <= target
    }
    NR == 1 { next }
    {
      k = key($2, $3, $4, $7)
      if ($25 !~ /^ok/) { bad[k]++; if (!(k in firsterr)) firsterr[k] = $25; next }
      ok[k]++
      if ($25 != "ok") notes[$1] = substr($25, 5)
      add(k, "files", $8); add(k, "docs", $10); add(k, "tokens", $11); add(k, "V", $12)
      add(k, "hdocs", $13); add(k, "htokens", $14); add(k, "cov", $16); add(k, "ppl", $17)
      add(k, "coh", $18); add(k, "npppl", $19); add(k, "npcoh", $20); add(k, "sec", $24)
    }
    END {
      nc = split(corpora, CO, " "); ne = split(epsilons, EP, " ")
      np = split(pipelines, PI, " "); ns = split(sizes, SZ, " ")
      SZ[++ns] = 100  # sizes ascending, 100 included, once each
      for (i = 1; i <= ns; i++) for (j = i + 1; j <= ns; j++) if (SZ[j] + 0 < SZ[i] + 0) { t = SZ[i]; SZ[i] = SZ[j]; SZ[j] = t }
      m = 0; for (i = 1; i <= ns; i++) if (i == 1 || SZ[i] != SZ[i - 1]) U[++m] = SZ[i]; ns = m

      print "# DP utility study"
      print ""
      printf "K = %d, delta = %s, %d Gibbs iterations (%s sampler, every run), ", topics, delta, iterations, sampler
      printf "%s noisy iterations (`--dp-noisy-iterations`), DP caps L = %s, c = %s, ", (noisy == 0 ? "all" : noisy), dp_l, dp_c
      if (sample_rate != 1) printf "each noisy release on a Poisson sample of the documents at rate q = %s (`--dp-sample-rate`), ", sample_rate
      printf "DP vocabulary N = %s terms per document. The whole pipeline gives the vocabulary %s of epsilon (and delta / 2), debited first, and the counts the rest; ", dp_n, share
      printf "each part alone spends the whole epsilon (counts only: on the non-private vocabulary, `--min-df 2 --max-df 0.5`). "
      printf "Documents: %s (windows of whole sentences of at most %s words). ", splits, window
      printf "Every %dth source file (address or sample, in path order) is held out and never trained on; ", holdout
      printf "each model is scored by `pplda evaluate` on the held-out raw documents mapped onto its vocabulary: document-completion perplexity (%d sweeps) and UMass coherence (top 10) with the held-out documents as reference. ", sweeps
      printf "Means over %s run(s) per configuration (± sd when more than one); the DP noise and the DP Gibbs seeds are unseeded.\n", repeats
      print ""
      print "Perplexity is over the held-out tokens the model'"'"'s vocabulary covers (coverage column), so a smaller vocabulary lowers it trivially. A vocabulary-independent figure is not available from the CLI: `pplda evaluate` drops held-out tokens outside the model'"'"'s vocabulary and scores the rest. \"change\" is (DP - non-private) / |non-private| against the non-private model of the same corpus and size (positive: worse perplexity, better coherence; UMass is negative and higher is better). \"same vocabulary\" compares on equal terms: for a DP vocabulary, against the non-private model restricted to that vocabulary (its topic-term counts on those terms; 0 for a term it does not have), scored on exactly the same held-out tokens."
      print ""
      printf "Target: within %s%% of the non-private model means perplexity at the same vocabulary at most %s%% higher, coherence at the same vocabulary at most %s%% lower, and held-out coverage at most %s%% lower (relative), all three.\n", target, target, target, target
      print ""
      printf "Command (pplda %s, commit %s):\n\n```sh\n%s\n```\n", version, commit, command
      largest = ""; largest_tokens = -1
      for (ci = 1; ci <= nc; ci++) {
        base = key(CO[ci], "none", "inf", 100)
        if (has(base, "tokens") && mean(base, "tokens") > largest_tokens) { largest = CO[ci]; largest_tokens = mean(base, "tokens") }
      }
      for (ci = 1; ci <= nc; ci++) {
        c = CO[ci]
        base = key(c, "none", "inf", 100)
        print ""
        printf "## %s\n\n", c
        if (has(base, "docs")) {
          printf "Non-private model on all %d training files: %d documents, %d tokens, %d terms; held out: %d documents, %d tokens after preprocessing.\n\n", \
            mean(base, "files"), mean(base, "docs"), mean(base, "tokens"), mean(base, "V"), mean(base, "hdocs"), mean(base, "htokens")
        }
        printf "### Against epsilon (all training files)\n\n"
        print "| pipeline | epsilon | runs | vocabulary | held-out coverage | perplexity | change | change, same vocabulary | UMass coherence | change | change, same vocabulary | seconds |"
        print "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
        printf "| non-private | ∞ | %s | %s | %s | %s | | | %s | | | %s |\n", runs(base), fmt(base, "V", "%.0f"), \
          pctfmt(base, "cov"), fmt(base, "ppl", "%.1f"), fmt(base, "coh", "%.2f"), fmt(base, "sec", "%.1f")
        if (has(base, "ppl")) printf "%s %s\n", mean(base, "ppl"), mean(base, "coh") > (plots "/" c "-baseline.dat")
        for (pi = 1; pi <= np; pi++) for (ei = 1; ei <= ne; ei++) {
          p = PI[pi]; e = EP[ei]; if (e == "inf") continue
          k = key(c, p, e, 100)
          if (!nok(k) && !nbad(k)) continue
          printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", pname(p), e, runs(k), fmt(k, "V", "%.0f"), \
            pctfmt(k, "cov"), fmt(k, "ppl", "%.1f"), relfmt(rel(k, base, "ppl")), relfmt(relsame(k, base, p, "ppl")), \
            fmt(k, "coh", "%.2f"), relfmt(rel(k, base, "coh")), relfmt(relsame(k, base, p, "coh")), fmt(k, "sec", "%.1f")
          # epsilon, perplexity, coherence [, the non-private model on this vocabulary: both]
          if (has(k, "ppl")) printf "%s %s %s%s\n", e, mean(k, "ppl"), mean(k, "coh"), \
            has(k, "npppl") ? sprintf(" %s %s", mean(k, "npppl"), mean(k, "npcoh")) : "" >> (plots "/" c "-epsilon-" p ".dat")
        }
        printf "\n### Against corpus size (whole pipeline at epsilon %s)\n\n", size_eps
        print "| training files | documents | DP vocabulary | held-out coverage, DP / non-private | non-private perplexity | DP perplexity | change | change, same vocabulary | non-private coherence | DP coherence | change | change, same vocabulary |"
        print "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
        npts = 0; reached = ""
        for (si = 1; si <= ns; si++) {
          s = U[si]; b = key(c, "none", "inf", s); k = key(c, "whole", size_eps, s)
          if (!nok(b) && !nok(k) && !nbad(b) && !nbad(k)) continue
          files = has(b, "files") ? mean(b, "files") : mean(k, "files")
          printf "| %d (%s%%) | %s | %s | %s / %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", files, s, fmt(b, "docs", "%.0f"), \
            fmt(k, "V", "%.0f"), pctfmt(k, "cov"), pctfmt(b, "cov"), fmt(b, "ppl", "%.1f"), fmt(k, "ppl", "%.1f"), \
            relfmt(rel(k, b, "ppl")), relfmt(relsame(k, b, "whole", "ppl")), fmt(b, "coh", "%.2f"), fmt(k, "coh", "%.2f"), \
            relfmt(rel(k, b, "coh")), relfmt(relsame(k, b, "whole", "coh"))
          if (has(k, "ppl") && has(b, "ppl")) {
            # documents, perplexity non-private and DP, coherence non-private and DP [, both of
            # the non-private model on the DP vocabulary]
            printf "%s %s %s %s %s%s\n", mean(b, "docs"), mean(b, "ppl"), mean(k, "ppl"), mean(b, "coh"), mean(k, "coh"), \
              has(k, "npppl") ? sprintf(" %s %s", mean(k, "npppl"), mean(k, "npcoh")) : "" >> (plots "/" c "-size.dat")
            gaps(k, b, "whole")
            if (G["ppl"] != "" && G["coh"] != "" && G["cov"] != "") {
              npts++; PX[npts] = mean(b, "docs"); PS[npts] = s
              GP[npts] = G["ppl"]; GC[npts] = G["coh"]; GV[npts] = G["cov"]
              if (reached == "" && meets(k, b, "whole")) reached = npts
            }
          }
        }
        printf "\n### Target\n\n"
        k = key(c, "whole", target_eps, 100)
        tag = (c == largest && nc > 1) ? " (the larger corpus: the most training tokens)" : ""
        if (has(k, "ppl") && has(base, "ppl")) {
          ismet = meets(k, base, "whole")
          printf "- epsilon %s, whole pipeline, all training files%s: perplexity %s at the same vocabulary (%s against the non-private model as it is), coherence %s (%s), held-out coverage %s against %s (%s relative), vocabulary %.0f against %.0f terms: the %s%% target is **%s** (measured).\n", \
            target_eps, tag, relfmt(relsame(k, base, "whole", "ppl")), relfmt(rel(k, base, "ppl")), \
            relfmt(relsame(k, base, "whole", "coh")), relfmt(rel(k, base, "coh")), pctfmt(k, "cov"), pctfmt(base, "cov"), \
            relfmt(rel(k, base, "cov")), mean(k, "V"), mean(base, "V"), target, ismet ? "met" : "not met"
        } else {
          printf "- epsilon %s, whole pipeline%s: not measured (no successful run at this epsilon with all training files%s).\n", target_eps, tag, \
            nbad(k) ? "; failed: " firsterr[k] : ""
        }
        if (reached != "") {
          printf "- epsilon %s meets the %s%% target from %s%% of the training files (%.0f documents) on: **measured**.\n", \
            size_eps, target, PS[reached], PX[reached]
        } else if (npts >= 2) {
          # Read off the curve: each failing gap linear in log(documents)
          # through the two largest sizes, solved for the target.
          need = 0; why = ""
          x1 = log(PX[npts - 1]); x2 = log(PX[npts])
          if (x2 <= x1) why = "the two largest sizes have the same number of documents"
          split("ppl coh cov", names, " "); split("perplexity coherence coverage", labels, " ")
          GG["ppl", 1] = GP[npts - 1]; GG["ppl", 2] = GP[npts]; GG["coh", 1] = GC[npts - 1]; GG["coh", 2] = GC[npts]
          GG["cov", 1] = GV[npts - 1]; GG["cov", 2] = GV[npts]
          for (ni = 1; ni <= 3 && why == ""; ni++) {
            g1 = GG[names[ni], 1]; g2 = GG[names[ni], 2]
            if (g2 <= target) continue
            slope = (g2 - g1) / (x2 - x1)
            if (slope >= 0) why = "the " labels[ni] " gap does not shrink between the two largest sizes"
            else { t = x2 + (target - g2) / slope; if (t > need) need = t }
          }
          if (why != "") {
            printf "- epsilon %s does not meet the %s%% target at any measured size (up to %.0f documents), and no size can be read off the curve: %s.\n", size_eps, target, PX[npts], why
          } else {
            printf "- epsilon %s does not meet the %s%% target at any measured size (up to %.0f documents); **read off the size curve, not measured** (each gap extrapolated linearly in log(documents) through the two largest sizes): about %.0f documents, %.1f times the largest measured.\n", \
              size_eps, target, PX[npts], exp(need), exp(need) / PX[npts]
          }
        } else {
          printf "- epsilon %s: the target is not met at the measured size(s), and fewer than two sizes were measured: no size can be read off.\n", size_eps
        }
      }
      print ""
      print "## Failed runs and notes"
      print ""
      nf = 0
      for (k in bad) { split(k, P, SUBSEP); printf "- %s, %s, epsilon %s, %s%%: %d failed (%s)\n", P[1], pname(P[2]), P[3], P[4], bad[k], firsterr[k]; nf++ }
      for (r in notes) { printf "- %s: %s\n", r, notes[r]; nf++ }
      if (!nf) print "None."
      print ""
      print "## Columns of runs.csv"
      print ""
      print "run (corpus-pipeline-eEPSILON-sSIZE-rREPEAT: the name of its logs and model), corpus, pipeline (none = non-private; whole; counts = counts only; vocab = vocabulary only), epsilon (the run'"'"'s total; inf = no DP flag), vocab_epsilon (`--dp-vocab-epsilon`), counts_epsilon (`--dp-epsilon`: the run'"'"'s budget, which includes the vocabulary'"'"'s share), size_pct and train_files (the prefix of the fixed training order), repeat, train_documents and train_tokens (what training used, after the DP vocabulary and the DP caps; from pplda'"'"'s log), vocab_size (terms in the model), heldout_documents (held-out documents with a covered token), heldout_tokens (held-out tokens after preprocessing, before mapping onto the vocabulary: the same for every model of a corpus), heldout_tokens_covered, coverage (covered / held-out tokens), perplexity (held-out, over the covered tokens), coherence (UMass, top 10, held-out documents as reference), np_perplexity_same_vocab and np_coherence_same_vocab (the non-private model of the same corpus, size and repeat restricted to this run'"'"'s DP vocabulary, scored on the same tokens; whole and vocab only), sigma (discrete Gaussian sigma on every count; DP training only), train_seconds, eval_seconds, seconds (wall time), status (ok, ok; a note, or what failed)."
    }' "$csv" > "$md.tmp"
  mv "$md.tmp" "$md"
  make_plots
}

# make_plots: SVGs with gnuplot's svg terminal, when gnuplot is on PATH.
make_plots() {
  local plots_dir="$out/plot-data"
  if ! command -v gnuplot > /dev/null 2>&1; then
    echo "utility_study: gnuplot is not on PATH: plots skipped (the tables are in $out/study.md;" \
         "the plotted data is in $plots_dir)" >&2
    return 0
  fi
  local c p f made="" base_ppl base_coh
  for c in $corpora; do
    local -a ppl_lines=() coh_lines=()
    local series=0
    for p in $pipelines; do
      f="$plots_dir/$c-epsilon-$p.dat"
      [ -s "$f" ] || continue
      local title
      case "$p" in whole) title="whole pipeline" ;; counts) title="counts only" ;; vocab) title="vocabulary only" ;; esac
      series=$(( series + 1 ))
      ppl_lines+=("'$f' using 1:2 with linespoints title '$title'")
      coh_lines+=("'$f' using 1:3 with linespoints title '$title'")
      if [ "$p" = whole ] && [ "$(awk 'NF < 5' "$f" | wc -l)" -eq 0 ]; then
        ppl_lines+=("'$f' using 1:4 with linespoints dashtype 3 title \"non-private, on the whole pipeline's vocabulary\"")
        coh_lines+=("'$f' using 1:5 with linespoints dashtype 3 title \"non-private, on the whole pipeline's vocabulary\"")
      fi
    done
    if [ -s "$plots_dir/$c-baseline.dat" ]; then
      read -r base_ppl base_coh < "$plots_dir/$c-baseline.dat"
      ppl_lines+=("$base_ppl with lines dashtype 2 title 'non-private (epsilon = infinity)'")
      coh_lines+=("$base_coh with lines dashtype 2 title 'non-private (epsilon = infinity)'")
    fi
    if [ "$series" -gt 0 ]; then  # (the baseline alone has no x range)
      local joined_ppl joined_coh
      joined_ppl="$(printf '%s, ' "${ppl_lines[@]}")"; joined_coh="$(printf '%s, ' "${coh_lines[@]}")"
      if gnuplot <<EOF
set terminal svg size 720,440 font "sans,12"
set logscale x 2
set xlabel "epsilon (delta $delta)"
set key outside right
set grid
set output "$out/$c-perplexity-vs-epsilon.svg"
set title "$c: held-out perplexity against epsilon, K = $topics"
set ylabel "held-out perplexity (covered tokens)"
plot ${joined_ppl%, }
set output "$out/$c-coherence-vs-epsilon.svg"
set title "$c: UMass coherence (held-out documents) against epsilon, K = $topics"
set ylabel "UMass coherence, top 10"
plot ${joined_coh%, }
EOF
      then made="$made $c-perplexity-vs-epsilon.svg $c-coherence-vs-epsilon.svg"
      else echo "utility_study: gnuplot failed on the $c epsilon plots" >&2
      fi
    fi
    f="$plots_dir/$c-size.dat"
    if [ -s "$f" ]; then
      local same_ppl="" same_coh=""
      if [ "$(awk 'NF < 7' "$f" | wc -l)" -eq 0 ]; then
        same_ppl=", '$f' using 1:6 with linespoints dashtype 3 title 'non-private, on the DP vocabulary'"
        same_coh=", '$f' using 1:7 with linespoints dashtype 3 title 'non-private, on the DP vocabulary'"
      fi
      if gnuplot <<EOF
set terminal svg size 720,440 font "sans,12"
set logscale x 2
set xlabel "training documents"
set key outside right
set grid
set output "$out/$c-perplexity-vs-size.svg"
set title "$c: held-out perplexity against corpus size, K = $topics"
set ylabel "held-out perplexity (covered tokens)"
plot '$f' using 1:2 with linespoints title 'non-private', '$f' using 1:3 with linespoints title 'DP, epsilon $size_epsilon (whole)'$same_ppl
set output "$out/$c-coherence-vs-size.svg"
set title "$c: UMass coherence against corpus size, K = $topics"
set ylabel "UMass coherence, top 10"
plot '$f' using 1:4 with linespoints title 'non-private', '$f' using 1:5 with linespoints title 'DP, epsilon $size_epsilon (whole)'$same_coh
EOF
      then made="$made $c-perplexity-vs-size.svg $c-coherence-vs-size.svg"
      else echo "utility_study: gnuplot failed on the $c size plots" >&2
      fi
    fi
  done
  if [ -n "$made" ]; then
    { echo ""; echo "## Plots"; echo ""
      for f in $made; do echo "![${f%.svg}]($f)"; echo ""; done; } >> "$out/study.md"
    echo "utility_study: plots:$made" >&2
  fi
}

# ---------------------------------------------------------------- the study

[ -x "$pplda" ] || die "$pplda not found; build the pplda target first (or set PPLDA)"
command -v jq > /dev/null || die "jq is needed to read pplda's JSON"
if [ "$report_only" = 1 ]; then
  write_report
  echo "utility_study: report in $out/study.md" >&2
  exit 0
fi

start="$(now)"
for corpus in $corpora; do prepare_split "$corpus"; done
for corpus in $corpora; do
  for rep in $(seq 1 "$repeats"); do
    # Against epsilon, all training files; the non-private model first (the
    # reference of every change, whether or not EPSILONS lists inf).
    run_one "$corpus" none inf 100 "$rep"
    for eps in $epsilons; do
      [ "$eps" = inf ] && continue
      for p in $pipelines; do run_one "$corpus" "$p" "$eps" 100 "$rep"; done
    done
    # Against size at SIZE_EPSILON (whole pipeline) and the non-private model
    # at each size (the runs at 100% are shared with the above).
    for s in $sizes; do
      run_one "$corpus" none inf "$s" "$rep"
      run_one "$corpus" whole "$size_epsilon" "$s" "$rep"
    done
  done
done
write_report
echo "utility_study: done in $(elapsed "$start" "$(now)") s; runs in $csv, tables in $out/study.md" >&2
cat "$out/study.md"
