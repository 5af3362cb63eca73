#!/usr/bin/env bash
# include_rules.sh must refuse each kind of breach docs/architecture.md names
# and pass the allowed includes beside them: a tree of synthetic files, one
# breach each, checked for exit status 1 and one line per breaching file.
set -euo pipefail
rules="$(cd "$(dirname "$0")" && pwd)/include_rules.sh"
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
put() {  # put FILE INCLUDE
  mkdir -p "$tree/$(dirname "$1")"
  printf '#include "%s"\n' "$2" >>"$tree/$1"
}
# Breaches, one per file.
put crypto/mpc/breach_up.h protocol/secure_draw.h            # crypto above itself
put crypto/arith/breach_room.h crypto/paillier/packing.h      # a lower room a higher one
put lda/breach_crypto.h crypto/arith/big_int.h                # lda and crypto know nothing of each other
put crypto/mpc/breach_lda.cc lda/corpus.h
put coordinator/breach_party.cc party/lda_party.h             # the roles side by side
put party/breach_coordinator.cc coordinator/run_driver.h
put party/breach_grpc.cc grpcpp/grpcpp.h                      # a protocol role including gRPC
put protocol/breach_grpc.cc proto/party_link.grpc.pb.h
put net/breach_cli.cc cli/command.h                           # anything including cli/
put coordinator/daemon/breach_party.cc party/party_session.h
# Allowed, beside them.
put party/daemon/allowed.cc grpcpp/grpcpp.h
put party/daemon/allowed.cc party/party_session.h
put coordinator/allowed.cc protocol/secure_lda_plan.h
put crypto/keygen/allowed.cc crypto/mpc/mpc_engine.h
put crypto/paillier/allowed.cc proto/paillier.pb.h
put tests/cli/allowed.cc cli/number_flags.h
put simulation/allowed.cc absl/status/status.h
set +e
out=$("$rules" "$tree" 2>&1)
status=$?
set -e
fail() { echo "include_rules_self_test: $1"; echo "$out"; exit 1; }
[[ $status -eq 1 ]] || fail "expected exit status 1, got $status"
for f in crypto/mpc/breach_up.h crypto/arith/breach_room.h lda/breach_crypto.h \
         crypto/mpc/breach_lda.cc coordinator/breach_party.cc party/breach_coordinator.cc \
         party/breach_grpc.cc protocol/breach_grpc.cc net/breach_cli.cc \
         coordinator/daemon/breach_party.cc; do
  [[ $(grep -c "^$f:1: " <<<"$out") -eq 1 ]] || fail "no breach reported for $f"
done
if grep -q "allowed\.cc" <<<"$out"; then fail "an allowed include was reported"; fi
[[ $(grep -c ':1: ' <<<"$out") -eq 10 ]] || fail "expected exactly 10 breaches"
echo "include_rules_self_test: 10 breaches refused, 7 allowed includes passed"
