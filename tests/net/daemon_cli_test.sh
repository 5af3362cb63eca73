#!/usr/bin/env bash
# The daemons' command line: a usage error exits 2 naming the argument, a
# missing --config exits 2, an unreadable config exits 1 naming the file.
# Usage: daemon_cli_test.sh PPLDA_PARTY PPLDA_COORDINATOR
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
exit $fail
