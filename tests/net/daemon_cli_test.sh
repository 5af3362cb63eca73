#!/usr/bin/env bash
# The daemons' command line: a usage error exits 2 naming the argument, a
# missing --config exits 2, an unreadable config exits 1 naming the file, a
# bad value exits 1 naming the key; a valid insecure_deterministic_rng_seed
# exits 1 naming the key in a build without PPLDA_INSECURE_TEST_RANDOMNESS
# and passes the config check in one with it.
# Usage: daemon_cli_test.sh PPLDA_PARTY PPLDA_COORDINATOR INSECURE_TEST_RANDOMNESS(1|0)
set -u
fail=0
check() {  # expected_rc pattern command...
  local rc_want=$1 pattern=$2
  shift 2
  local out rc
  out=$("$@" 2>&1); rc=$?
  if [ "$rc" != "$rc_want" ] || ! grep -q -- "$pattern" <<<"$out"; then
    echo "FAIL: $* -> rc $rc (want $rc_want), output: $out (want /$pattern/)"
    fail=1
  fi
}
for bin in "$1" "$2"; do
  name=$(basename "$bin")
  check 2 "unknown argument '--bogus'" "$bin" --bogus
  check 2 "--config .* is required" "$bin"
  check 1 "$name: error: /nonexistent/x.toml: cannot open config file" "$bin" --config /nonexistent/x.toml
  check 0 "usage: $name --config" "$bin" --help
done
# A config key that is present but bad is named (INSECURE test-only seed).
config=$(mktemp)
trap 'rm -f "$config"' EXIT
write_party_config() {  # insecure_deterministic_rng_seed value
  cat >"$config" <<EOF
[party]
name = "alpha"
consortium = "consortium.toml"
vocabulary = "vocabulary.txt"
key_share = "alpha.key"
state_dir = "state"
listen = "127.0.0.1:1"
insecure_deterministic_rng_seed = $1
[tls]
ca = "ca.crt"
cert = "alpha.crt"
key = "alpha.key"
EOF
}
write_party_config -5
check 1 "party.insecure_deterministic_rng_seed: -5 is outside \[0, 9223372036854775807\]" "$1" --config "$config"
write_party_config '"seven"'
check 1 "party.insecure_deterministic_rng_seed: must be an integer" "$1" --config "$config"
write_party_config 42
refused="party.insecure_deterministic_rng_seed: this build does not allow insecure test randomness"
if [ "$3" = 1 ]; then
  # Past the config check: the next error is the (missing) consortium file.
  check 1 "consortium.toml: cannot open" "$1" --config "$config"
  if "$1" --config "$config" 2>&1 | grep -q "$refused"; then
    echo "FAIL: a build with PPLDA_INSECURE_TEST_RANDOMNESS refused the seed"
    fail=1
  fi
else
  check 1 "pplda-party: error: $config: $refused" "$1" --config "$config"
fi
exit $fail
