#!/usr/bin/env bash
# Checks of deploy/'s container and service files:
#  1. docker-compose.yml: `docker-compose config` (Debian's docker-compose
#     validates the file against the compose schema without a daemon), no
#     published port, one volume per participant.
#  2. Dockerfile, a static check (no Dockerfile linter is packaged in
#     bookworm): a build stage and a slim runtime stage on Debian bookworm,
#     a non-root USER last, every COPY source present in the repository,
#     every binary it copies a CMake target, no remote ADD; and
#     deploy/runtime-packages.sh resolves the built binaries' libraries to
#     Debian packages (the runtime stage's package list).
#  3. systemd units: the hardening options, a non-root user, the right
#     binary and config; `systemd-analyze verify` where systemd is installed.
#  4. The compose demo's init (deploy/compose-init.sh, run on this host with a
#     1024-bit key): each participant's volume holds only its own secrets,
#     owner-only; and where network namespaces can be made, the four daemons
#     run from those volumes with the compose service names resolving
#     (ip netns exec's /etc/netns/NAME/hosts) to a published model.
#  5. Certificate requests (deploy/request-cert.sh, make-certs.sh --requests):
#     no key is written for a participant that sent a request, the certificates
#     verify, box keys are pinned, a CSR for another name or a missing box key
#     is refused with a clear error.
#  6. Where docker or podman runs here, the image is built and the compose
#     demo run to a published model; otherwise the reason is printed.
#   deploy_files_test.sh REPO_ROOT PPLDA PARTY COORDINATOR
set -euo pipefail
repo=$1 pplda=$2 party_bin=$3 coordinator_bin=$4
fail() { echo "FAILED: $*" >&2; exit 1; }
note() { echo "note: $*"; }
work=$(mktemp -d /tmp/pplda-deploy-test.XXXXXX)
ns=""
cleanup() {
  set +e
  for pid in $(jobs -p); do kill -TERM "$pid" 2> /dev/null; done
  wait 2> /dev/null
  if [ -n "$ns" ]; then ip netns del "$ns" 2> /dev/null; rm -rf "/etc/netns/$ns"; fi
  rm -rf "$work"
}
trap cleanup EXIT
cd "$repo"

echo "== 1. deploy/docker-compose.yml"
compose=deploy/docker-compose.yml
if command -v docker-compose > /dev/null; then
  docker-compose -f "$compose" config -q || fail "docker-compose config refuses $compose"
  echo "docker-compose config: valid"
else
  note "docker-compose is not installed (deploy/install-deps.sh installs it): schema check skipped"
fi
! grep -qE '^\s*ports:' "$compose" || fail "$compose publishes a port; the demo needs none"
for name in coordinator early middle modern; do
  grep -qE "^\s*volumes: \[$name:/pplda\]" "$compose" || fail "$compose: $name has no own volume"
done

echo "== 2. deploy/Dockerfile (static check)"
dockerfile=deploy/Dockerfile
[ "$(grep -c '^FROM ' "$dockerfile")" -eq 2 ] || fail "$dockerfile: expected a build and a runtime stage"
grep -qE '^FROM debian:bookworm AS build$' "$dockerfile" || fail "$dockerfile: build stage not debian:bookworm"
grep -qE '^FROM debian:bookworm-slim AS runtime$' "$dockerfile" || fail "$dockerfile: runtime stage not bookworm-slim"
last_user=$(awk '/^USER / { u = $2 } END { print u }' "$dockerfile")
[ -n "$last_user" ] && [ "$last_user" != root ] && [ "$last_user" != 0 ] ||
  fail "$dockerfile: the runtime stage must end as a non-root USER (got \"$last_user\")"
! grep -qE '^ADD +https?://' "$dockerfile" || fail "$dockerfile: remote ADD"
grep -E '^COPY ' "$dockerfile" | grep -v -- '--from=' | while read -r _ line; do
  read -ra words <<< "$line"
  for src in "${words[@]:0:${#words[@]}-1}"; do
    [ "$src" = . ] || [ -e "$src" ] || fail "$dockerfile: COPY source $src does not exist"
  done
done
for target in pplda pplda-party pplda-coordinator; do
  grep -q -- "--target $target\b\|--target pplda pplda-party pplda-coordinator" "$dockerfile" ||
    fail "$dockerfile does not build $target"
  grep -rqE "(add_executable\(|pplda_daemon\([a-z_]+ )$target\b" --include=CMakeLists.txt . ||
    fail "$target is no CMake target"
done
packages=$(deploy/runtime-packages.sh "$pplda" "$party_bin" "$coordinator_bin") ||
  fail "deploy/runtime-packages.sh could not resolve the binaries' libraries"
for p in libgmp10 libsodium23 libgrpc++1.51; do
  grep -qx "$p" <<< "$packages" || fail "runtime packages lack $p: $(echo $packages)"
done
echo "runtime packages: $(echo $packages)"

echo "== 3. deploy/systemd"
for unit in pplda-party pplda-coordinator; do
  file=deploy/systemd/$unit.service
  grep -qx "ExecStart=/usr/local/bin/$unit --config /etc/pplda/${unit#pplda-}.toml" "$file" ||
    fail "$file: unexpected ExecStart"
  grep -qx "User=pplda" "$file" || fail "$file: must run as the pplda user"
  for option in NoNewPrivileges=yes ProtectSystem=strict PrivateTmp=yes PrivateDevices=yes \
      CapabilityBoundingSet= RestrictAddressFamilies="AF_INET AF_INET6 AF_UNIX" \
      ProtectKernelTunables=yes ProtectKernelModules=yes ProtectControlGroups=yes \
      RestrictNamespaces=yes MemoryDenyWriteExecute=yes SystemCallFilter=@system-service \
      UMask=0077 StateDirectory=pplda; do
    grep -qx "$option" "$file" || fail "$file lacks $option"
  done
  if command -v systemd-analyze > /dev/null; then
    systemd-analyze verify "$file" 2>&1 | grep -v "not found\|Command /usr/local" || true
  fi
done
command -v systemd-analyze > /dev/null || note "systemd is not installed here: systemd-analyze verify skipped"

echo "== 4. the compose demo's init, on this host"
mkdir -p "$work/share/deploy"
cp -r deploy/make-certs.sh deploy/compose-init.sh deploy/lib "$work/share/deploy/"
mkdir -p "$work/share/data" && ln -s "$repo/data/sotu" "$work/share/data/sotu"
PPLDA_SHARE=$work/share PPLDA_VOLUMES=$work/volumes PPLDA_BIN=$pplda PPLDA_COMPOSE_BITS=1024 \
  bash deploy/compose-init.sh > "$work/init.log" 2>&1 || { cat "$work/init.log"; fail "compose-init failed"; }
PPLDA_SHARE=$work/share PPLDA_VOLUMES=$work/volumes PPLDA_BIN=$pplda \
  bash deploy/compose-init.sh | grep -q "already initialised" || fail "a second init is not a no-op"
for name in coordinator early middle modern; do
  v=$work/volumes/$name
  [ -f "$v/$name.toml" ] || fail "$name's volume lacks its config"
  secrets=$(cd "$v" && find . -name '*.key' -o -name '*.box' | sort | tr '\n' ' ')
  if [ "$name" = coordinator ]; then
    expected="./certs/coordinator.key ./keys/public.key "
  else
    expected="./certs/$name.box ./certs/$name.key ./keys/$name.key "
  fi
  [ "$secrets" = "$expected" ] || fail "$name's volume holds \"$secrets\", expected \"$expected\""
  loose=$(find "$v" -perm /077 | head -1)
  [ -z "$loose" ] || fail "$loose is readable by others"
done
echo "volumes: each holds only its own secrets, owner-only"
# ip netns exec needs a private mount namespace with / as a mount point (not
# in a chroot): probe it first, leaving nothing behind.
if [ "$(id -u)" = 0 ] && command -v ip > /dev/null &&
    unshare --mount --propagation slave true 2> /dev/null && ns=pd$$ &&
    ip netns add "$ns" 2> /dev/null; then
  ip -n "$ns" link set lo up
  mkdir -p "/etc/netns/$ns"
  printf '127.0.0.1 localhost coordinator early middle modern\n' > "/etc/netns/$ns/hosts"
  ip netns exec "$ns" "$coordinator_bin" --config "$work/volumes/coordinator/coordinator.toml" \
    > "$work/coordinator.log" 2>&1 &
  for name in early middle modern; do
    ip netns exec "$ns" "$party_bin" --config "$work/volumes/$name/$name.toml" \
      > "$work/$name.log" 2>&1 &
  done
  for name in coordinator early middle modern; do
    for _ in $(seq 1 300); do grep -q "listening on" "$work/$name.log" && break; sleep 0.1; done
    grep -q "listening on" "$work/$name.log" || { cat "$work/$name.log"; fail "$name did not start"; }
  done
  ip netns exec "$ns" "$pplda" run start --config "$work/volumes/coordinator/coordinator.toml" \
    --topics 3 --iterations 1 --watch > "$work/run.log" 2>&1 ||
    { cat "$work/run.log" "$work"/*.log; fail "the compose demo's configs did not publish"; }
  ip netns exec "$ns" "$pplda" run result --config "$work/volumes/coordinator/coordinator.toml" \
    --out "$work/model.json" > /dev/null
  grep -q '"topic_term_counts"' "$work/model.json" || fail "no model from the compose configs"
  echo "the compose demo's volumes and configs: published a model (daemons on this host)"
else
  ns=""
  note "network namespaces cannot be used here (not root, no iproute2, or no private mount"
  note "namespace, as in a chroot): the compose configs were not run"
fi

echo "== 5. certificate requests: keys stay with their owners"
req=$work/requests
for name in early middle modern; do bash deploy/request-cert.sh --name "$name" --out "$req" > /dev/null; done
bash deploy/request-cert.sh --name coordinator --coordinator --out "$req" > /dev/null
[ "$(stat -c %a "$req/early.key")" = 600 ] && [ "$(stat -c %a "$req/early.box")" = 600 ] ||
  fail "request-cert.sh: private keys must be 0600"
! bash deploy/request-cert.sh --name early --out "$req" 2> /dev/null ||
  fail "request-cert.sh overwrote an existing key"
signed=$work/signed
bash deploy/make-certs.sh --out "$signed" --requests "$req" --coordinator coordinator=c.example:7000 \
  --party early=e.example:7001 --party middle=relay --party modern=m.example:7003 > /dev/null ||
  fail "make-certs.sh --requests failed"
keys=$(cd "$signed" && find . -name '*.key' -o -name '*.box' | sort | tr '\n' ' ')
[ "$keys" = "./ca.key " ] || fail "make-certs.sh --requests wrote keys it must not hold: $keys"
for name in early middle modern coordinator; do
  openssl verify -CAfile "$signed/ca.crt" "$signed/$name.crt" > /dev/null || fail "$name.crt does not verify"
done
grep -q "box_public_key = \"$(cat "$req/middle.box.pub")\"" "$signed/consortium.toml" ||
  fail "middle's box public key is not pinned"
# A request whose CN is another name, and a party request without its box key, are refused.
cp "$req/early.csr" "$req/modern.csr"
! bash deploy/make-certs.sh --out "$work/bad1" --requests "$req" --coordinator coordinator=c:7000 \
  --party early=e:1 --party middle=m:2 --party modern=n:3 2> "$work/bad1.err" ||
  fail "a CSR for another name was signed"
grep -q 'CN is "early", expected "modern"' "$work/bad1.err" || fail "unclear error: $(cat "$work/bad1.err")"
rm "$req/modern.csr" "$req/middle.box.pub"
! bash deploy/make-certs.sh --out "$work/bad2" --requests "$req" --coordinator coordinator=c:7000 \
  --party early=e:1 --party middle=m:2 --party modern=n:3 2> "$work/bad2.err" ||
  fail "a party request without its box key was accepted"
grep -q "middle.box.pub is missing" "$work/bad2.err" || fail "unclear error: $(cat "$work/bad2.err")"
echo "requests signed, no key held by the CA operator, bad requests refused"

echo "== 6. container engine"
# The image build and the compose demo take 15 minutes or more: their own
# test, deploy_compose_demo (label slow; deploy/compose-demo.sh).
note "image build and compose demo: ctest -R deploy_compose_demo (label slow)"
echo "PASSED"
