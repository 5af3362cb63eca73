#!/usr/bin/env bash
# pplda's plaintext samplers side by side with WarpLDA (Chen et al., VLDB
# 2016; github.com/thu-ml/warplda), the fastest public CPU sampler, on real
# corpora. Not part of the default test run.
#
# WarpLDA is built from its source in a scratch folder (out/warplda-compare/,
# never committed), against Debian's gflags and libnuma. The source comes from
# WARPLDA_SRC (a checkout, or a bare git directory such as a fetched mirror),
# or else is cloned from GitHub (needs network access to github.com). Pinned
# to WARPLDA_COMMIT.
#
# Both systems get the same prepared corpus (pplda's defaults, every 10th
# document held out), K topics, alpha = 0.1 per topic (WarpLDA's --alpha is
# the sum, 0.1 K), beta = 0.01, ITERATIONS iterations, THREADS threads (OpenMP
# for WarpLDA). The time is the whole training process: pplda `train
# --no-evaluate` (reads the prepared folder, trains, writes the model JSON),
# WarpLDA `warplda` (reads its binary corpus, trains, writes its model; its
# optional topic-assignment and top-word dumps are switched off). Each model
# is scored by pplda's own evaluator (held-out perplexity by document
# completion with seed 1, UMass coherence over the top 10 words). REPEATS
# runs of each (pplda with seeds 1..REPEATS), interleaved (each repeat runs
# WarpLDA and then every pplda sampler); the table gives the median time and
# the mean perplexity and coherence over the runs. One run's perplexity
# varies by 0.3-0.9% with the seed, so a 1% line needs more seeds than a
# timing does: QUALITY_SEEDS (default REPEATS) pplda seeds are scored, the
# ones beyond REPEATS trained untimed after the timed runs; perplexity is
# given as mean +- standard error over them, and against the standard
# sampler's mean when "standard" is among the samplers. WarpLDA is scored
# on its REPEATS timed runs.
#
# Samplers are pplda sampler names, with ":STEPS" for the Metropolis-Hastings
# steps of mh and warp (--mh-steps), e.g. "standard warp:2 warp:8".
#
# Usage: tests/compare/warplda_compare.sh [--corpus brown|sotu|both] [--topics "20 200"]
#        [--samplers "sparse standard warp:2"] [--iterations 200] [--threads 2]
#        [--repeats 3] [--quality-seeds N]
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
corpora="brown sotu"
topics="20 200"
samplers="sparse standard warp:2"
iterations=200
threads=2
repeats=3
quality_seeds=""
while [ $# -gt 0 ]; do
  case "$1" in
    --corpus) corpora=$2; [ "$corpora" = both ] && corpora="brown sotu"; shift 2 ;;
    --topics) topics=$2; shift 2 ;;
    --samplers) samplers=$2; shift 2 ;;
    --iterations) iterations=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --repeats) repeats=$2; shift 2 ;;
    --quality-seeds) quality_seeds=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
    *) echo "warplda_compare: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
quality_seeds=${quality_seeds:-$repeats}
for value in "$iterations" "$threads" "$repeats" "$quality_seeds"; do
  if ! [[ $value =~ ^[1-9][0-9]*$ ]]; then
    echo "warplda_compare: '$value' is not a positive whole number (--iterations, --threads, --repeats, --quality-seeds)" >&2
    exit 2
  fi
done
if [ "$quality_seeds" -lt "$repeats" ]; then
  echo "warplda_compare: --quality-seeds ($quality_seeds) must be at least --repeats ($repeats)" >&2
  exit 2
fi
data=${PPLDA_DATA:-$root/../shared/data}
scratch=$root/out/warplda-compare
commit=${WARPLDA_COMMIT:-c97265d}

./deploy/build.sh >/dev/null
pplda=$root/build/cli/pplda

need=()
for p in libgflags-dev libnuma-dev cmake g++ git python3; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi

# --- WarpLDA, built once in the scratch folder -------------------------------
warp_src=$scratch/warplda-src
warp=$scratch/warplda-build/src
if [ ! -x "$warp/warplda" ]; then
  rm -rf "$warp_src" "$scratch/warplda-build" && mkdir -p "$warp_src"
  src=${WARPLDA_SRC:-}
  if [ -z "$src" ]; then
    git clone -q https://github.com/thu-ml/warplda "$scratch/warplda-clone"
    src=$scratch/warplda-clone
  fi
  if [ -d "$src/.git" ]; then src=$src/.git; fi
  git --git-dir="$src" archive "$commit" | tar -x -C "$warp_src"
  # Debian's gflags instead of the bundled download (get_gflags.sh).
  sed -i 's/^add_subdirectory(gflags)$//' "$warp_src/CMakeLists.txt"
  # Its sources predate GCC 12, which no longer includes <stdexcept> transitively.
  cmake -S "$warp_src" -B "$scratch/warplda-build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS="-include stdexcept" >/dev/null
  cmake --build "$scratch/warplda-build" -j "$threads" --target warplda format >/dev/null
fi

now() { python3 -c 'import time; print(time.time())'; }
median() { python3 -c 'import sys; v=sorted(float(x) for x in sys.argv[1:]); print(v[len(v)//2])' "$@"; }
evaluate() {  # evaluate MODEL PREPARED -> "perplexity umass"
  "$pplda" --quiet evaluate --model "$1" --input "$2" --json --seed 1 | python3 -c \
    "import json,sys; j=json.load(sys.stdin); print('%.1f %.3f' % (j['held_out_perplexity'], j['umass_coherence_top10']))"
}

# evaluate_mean PREPARED MODEL... -> "perplexity_mean perplexity_standard_error umass_mean"
evaluate_mean() {
  local prepared=$1; shift
  for model in "$@"; do evaluate "$model" "$prepared"; done | python3 -c "
import statistics, sys
v = [tuple(map(float, l.split())) for l in sys.stdin]
p = [x for x, _ in v]
se = statistics.stdev(p) / len(p) ** 0.5 if len(p) > 1 else 0.0
print('%.1f %.1f %.3f' % (statistics.fmean(p), se, statistics.fmean(c for _, c in v)))"
}

prepare() {  # prepare NAME -> prepared folder and WarpLDA's binary corpus
  local name=$1 dir=$scratch/$1
  if [ ! -f "$dir/prepared/train.txt" ]; then
    rm -rf "$dir" && mkdir -p "$dir"
    case "$name" in
      brown) "$pplda" --quiet prepare --input "$data/brown" --out "$dir/prepared" ;;
      sotu) "$pplda" --quiet prepare --input "$data/sotu" --split sentences --out "$dir/prepared" ;;
      *) echo "warplda_compare: unknown corpus $name" >&2; exit 2 ;;
    esac
    # WarpLDA reads Yahoo! LDA's text format: "id id word word ...". Words are
    # written as t<term id> and mapped back through WarpLDA's vocabulary.
    python3 - "$dir/prepared/train.txt" "$dir/train.yahoo" <<'EOF'
import sys
with open(sys.argv[1], encoding="utf-8") as f, open(sys.argv[2], "w") as out:
    for m, line in enumerate(f):
        _, _, ids = line.rstrip("\n").partition("\t")
        out.write("d%d d%d %s\n" % (m, m, " ".join("t" + t for t in ids.split())))
EOF
    (cd "$dir" && "$warp/format" -input train.yahoo -prefix train >/dev/null)
  fi
}

warp_to_json() {  # warp_to_json WARP_MODEL WARP_VOCAB PREPARED OUT K
  python3 - "$@" <<'EOF'
import json, sys
model_path, vocab_path, prepared, out, k = sys.argv[1:6]
k = int(k)
with open(prepared + "/vocabulary.txt", encoding="utf-8") as f:
    vocab = [line.rstrip("\n") for line in f]
with open(vocab_path) as f:
    warp_terms = [int(line.split()[0][1:]) for line in f if line.strip()]
counts = [[0] * len(vocab) for _ in range(k)]
with open(model_path) as f:
    f.readline()
    for v, line in enumerate(f):
        for entry in line.split("\t", 1)[1].split():
            topic, c = entry.split(":")
            counts[int(topic)][warp_terms[v]] += int(c)
json.dump({"format": "pplda-model", "version": 1, "vocabulary": vocab, "alpha": 0.1,
           "beta": 0.01, "num_topics": k, "topic_term_counts": counts,
           "metadata": {"training": {"mode": "external", "library": "WarpLDA"}}},
          open(out, "w"))
EOF
}

table=$scratch/table.md
printf '| corpus | K | system | wall s (median of %s) | x WarpLDA | held-out perplexity (mean +- s.e.; pplda %s seeds, WarpLDA %s runs) | vs standard | UMass (mean) |\n' \
  "$repeats" "$quality_seeds" "$repeats" | tee "$table"
printf '| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |\n' | tee -a "$table"
for corpus in $corpora; do
  prepare "$corpus"
  dir=$scratch/$corpus
  for k in $topics; do
    alpha_sum=$(python3 -c "print(0.1 * $k)")
    # Runs are interleaved (repeat r runs WarpLDA, then every pplda sampler),
    # so that a slower or faster spell of a shared host weighs on all alike.
    declare -A times=()
    for r in $(seq "$repeats"); do
      start=$(now)
      (cd "$dir" && OMP_NUM_THREADS=$threads "$warp/warplda" --prefix train --k "$k" \
        --alpha "$alpha_sum" --beta 0.01 --niter "$iterations" --dumpz=false --writeinfo=false \
        --model "warp-k$k-r$r.model" >"warp-k$k-r$r.log")
      times[warplda]+="$(python3 -c "print($(now) - $start)") "
      for spec in $samplers; do
        sampler=${spec%%:*}
        steps_args=()
        [ "$spec" != "$sampler" ] && steps_args=(--mh-steps "${spec#*:}")
        start=$(now)
        "$pplda" --quiet train --input "$dir/prepared" --sampler "$sampler" "${steps_args[@]}" \
          --topics "$k" --alpha 0.1 --beta 0.01 --iterations "$iterations" --threads "$threads" \
          --seed "$r" --no-evaluate --out "$dir/pplda-$spec-k$k-r$r.json" >/dev/null
        times[$spec]+="$(python3 -c "print($(now) - $start)") "
      done
    done
    for r in $(seq $((repeats + 1)) "$quality_seeds"); do  # scored, not timed
      for spec in $samplers; do
        sampler=${spec%%:*}
        steps_args=()
        [ "$spec" != "$sampler" ] && steps_args=(--mh-steps "${spec#*:}")
        "$pplda" --quiet train --input "$dir/prepared" --sampler "$sampler" "${steps_args[@]}" \
          --topics "$k" --alpha 0.1 --beta 0.01 --iterations "$iterations" --threads "$threads" \
          --seed "$r" --no-evaluate --out "$dir/pplda-$spec-k$k-r$r.json" >/dev/null
      done
    done
    # shellcheck disable=SC2086
    warp_median=$(median ${times[warplda]})
    models=()
    for r in $(seq "$repeats"); do
      warp_to_json "$dir/warp-k$k-r$r.model" "$dir/train.vocab" "$dir/prepared" \
        "$dir/warp-k$k-r$r.json" "$k"
      models+=("$dir/warp-k$k-r$r.json")
    done
    read -r ppl se coh < <(evaluate_mean "$dir/prepared" "${models[@]}")
    warp_row=$(printf '| %s | %s | WarpLDA (MH 1, %s it., %s threads) | %.2f | 1.00 | %s +- %s |' \
      "$corpus" "$k" "$iterations" "$threads" "$warp_median" "$ppl" "$se")
    declare -A rows=() ppls=()
    for spec in $samplers; do
      sampler=${spec%%:*}
      label=$sampler
      [ "$spec" != "$sampler" ] && label="$sampler, ${spec#*:} steps"
      # shellcheck disable=SC2086
      med=$(median ${times[$spec]})
      models=(); for r in $(seq "$quality_seeds"); do models+=("$dir/pplda-$spec-k$k-r$r.json"); done
      read -r ppl_s se_s coh_s < <(evaluate_mean "$dir/prepared" "${models[@]}")
      ratio=$(python3 -c "print('%.2f' % ($med / $warp_median))")
      ppls[$spec]=$ppl_s
      rows[$spec]=$(printf '| %s | %s | pplda %s (%s it., %s threads) | %.2f | %s | %s +- %s |' \
        "$corpus" "$k" "$label" "$iterations" "$threads" "$med" "$ratio" "$ppl_s" "$se_s")
      rows[$spec]+="@@ $coh_s |"
    done
    versus() {  # versus PERPLEXITY -> "+x.x%" against the standard sampler's mean, or ""
      [ -n "${ppls[standard]:-}" ] || return 0
      python3 -c "print('%+.1f%%' % (100 * ($1 / ${ppls[standard]} - 1)))"
    }
    printf '%s %s | %s |\n' "$warp_row" "$(versus "$ppl")" "$coh" | tee -a "$table"
    for spec in $samplers; do
      row=${rows[$spec]}
      printf '%s\n' "${row/@@/ $(versus "${ppls[$spec]}") |}" | tee -a "$table"
    done
    unset rows ppls
    unset times
  done
done
echo "table: $table"
