#!/usr/bin/env bash
# The include rules of docs/architecture.md, checked against the code: every
# project include of every source file under ROOT must point at a folder its
# own folder may include. Prints each breach as FILE:LINE and exits 1 when
# there is any, 0 otherwise.
# Usage: tests/architecture/include_rules.sh [ROOT]   (default: the checkout)
#
# A file's folder is the longest prefix in RULES that its path starts with;
# an include "a/b/c.h" is allowed when it starts with one of the folder's
# allowed prefixes. Third-party headers (absl/, spdlog/, <...>) are not the
# rules' business, except gRPC's: "grpcpp/..." and "*.grpc.pb.h" are allowed
# only where GRPC_ALLOWED says.
set -euo pipefail
root=${1:-"$(cd "$(dirname "$0")/../.." && pwd)"}
cd "$root"

# folder: the project folders its files may include (itself always).
RULES=(
  "base: "
  "lda: base"
  # crypto's rooms, lowest first: each includes only the rooms below it.
  "crypto/random: base proto"
  "crypto/arith: base proto crypto/random"
  "crypto/ifma: base proto crypto/arith"
  "crypto/modexp: base proto crypto/arith crypto/ifma"
  "crypto/paillier: base proto crypto/random crypto/arith crypto/ifma crypto/modexp"
  "crypto/mpc: base proto crypto/random crypto/arith"
  "crypto/conversion: base proto crypto/random crypto/arith crypto/paillier crypto/mpc"
  "crypto/keygen: base proto crypto/random crypto/arith crypto/paillier crypto/mpc"
  "crypto: base proto"
  "privacy: base lda crypto"
  "protocol: base proto lda crypto privacy"
  "report: base lda privacy"
  "net: base proto crypto"
  "party/daemon: base proto lda crypto privacy protocol net party"
  "party: base proto lda crypto privacy protocol"
  "coordinator/daemon: base proto lda crypto privacy protocol net coordinator"
  "coordinator: base proto lda crypto privacy protocol"
  "simulation: base proto lda crypto privacy protocol party coordinator"
  "cli: base proto lda crypto privacy protocol report net party coordinator simulation"
  "fuzz: base proto lda crypto privacy protocol report net party coordinator simulation"
  "tests/cli: base proto lda crypto privacy protocol report net party coordinator simulation cli tests"
  "tests: base proto lda crypto privacy protocol report net party coordinator simulation tests"
)
# The only places that include gRPC: the shared gRPC folder, the daemons'
# adapters and mains, and the tests that drive them.
GRPC_ALLOWED="net party/daemon coordinator/daemon tests fuzz"
PROJECT_FOLDERS="base lda crypto privacy protocol report net party coordinator simulation cli proto fuzz tests"

folder_of() {
  local path=$1 best="" key
  for rule in "${RULES[@]}"; do
    key=${rule%%:*}
    if [[ $path == "$key"/* && ${#key} -gt ${#best} ]]; then best=$key; fi
  done
  printf '%s' "$best"
}

allowed_for() {
  local folder=$1
  for rule in "${RULES[@]}"; do
    if [[ ${rule%%:*} == "$folder" ]]; then printf '%s %s' "$folder" "${rule#*:}"; return; fi
  done
}

starts_with_any() {
  local path=$1 prefix
  shift
  for prefix in "$@"; do
    if [[ $path == "$prefix"/* ]]; then return 0; fi
  done
  return 1
}

breaches=0
report() {
  printf '%s\n' "$1" >&2
  breaches=$((breaches + 1))
}

checked=0
while IFS= read -r file; do
  folder=$(folder_of "$file")
  [[ -n $folder ]] || continue
  checked=$((checked + 1))
  read -r -a allowed <<<"$(allowed_for "$folder")"
  while IFS=: read -r line include; do
    include=${include#*\"}
    include=${include%%\"*}
    if [[ $include == grpcpp/* || $include == grpc/* || $include == *.grpc.pb.h ]]; then
      read -r -a grpc_ok <<<"$GRPC_ALLOWED"
      if ! starts_with_any "$file" "${grpc_ok[@]}"; then
        report "$file:$line: $folder/ may not include gRPC (\"$include\"): only ${GRPC_ALLOWED// /, } do"
      fi
      continue
    fi
    top=${include%%/*}
    [[ " $PROJECT_FOLDERS " == *" $top "* && $include == */* ]] || continue
    if ! starts_with_any "$include" "${allowed[@]}"; then
      report "$file:$line: $folder/ may not include \"$include\" (it may include: ${allowed[*]/%//})"
    fi
  done < <(grep -n -E '^[[:space:]]*#[[:space:]]*include[[:space:]]+"' "$file" || true)
done < <(find base lda crypto privacy protocol report net party coordinator simulation cli fuzz tests \
              -type f \( -name '*.h' -o -name '*.cc' -o -name '*.cc.in' \) 2>/dev/null | sort)

if [[ $checked -eq 0 ]]; then
  echo "include rules: no source files under $root" >&2
  exit 2
fi
if [[ $breaches -gt 0 ]]; then
  echo "include rules: $breaches include(s) break docs/architecture.md's rules ($checked files)" >&2
  exit 1
fi
echo "include rules: $checked files, every include allowed"
