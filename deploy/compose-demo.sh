#!/usr/bin/env bash
# The compose demo end to end (docs/deploy.md, "The compose demo"):
# builds the pplda image (deploy/Dockerfile), starts the demo consortium of
# deploy/docker-compose.yml (an init service, a coordinator, three parties),
# runs a secure run to a published model, prints its topics, and removes the
# containers and volumes again (unless --keep).
#
# Engine: docker with a running daemon (compose: `docker compose` or
# docker-compose), else podman (compose: podman-compose). --install installs
# podman, podman-compose and runc from Debian when neither runs.
# Base images: when debian:bookworm and debian:bookworm-slim are neither
# present nor pullable (a network that reaches only Debian's mirror), they
# are made here with debootstrap (minbase) from the Debian mirror
# (PPLDA_DEBIAN_MIRROR, default http://deb.debian.org/debian) and imported
# under those names.
# Hosts whose podman cannot start containers with its defaults (crun on a
# cgroup v1/v2 hybrid, a hard RLIMIT_NPROC below podman's default): the
# script retries with runc and the host's own limits (a containers.conf of
# its own, CONTAINERS_CONF), and says so.
#
# Usage: deploy/compose-demo.sh [--install] [--keep] [--bits 1024|2048]
#                               [--topics K] [--iterations N] [--out MODEL.json]
# Exit 77: no container engine can run containers here (the reason printed).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
install=0 keep=0 bits=2048 topics=5 iterations=5 out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --install) install=1 ;;
    --keep) keep=1 ;;
    --bits) bits=$2; shift ;;
    --topics) topics=$2; shift ;;
    --iterations) iterations=$2; shift ;;
    --out) out=$2; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "compose-demo: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
case "$bits" in 1024 | 2048) ;; *) echo "compose-demo: --bits must be 1024 or 2048" >&2; exit 2 ;; esac
say() { echo "compose-demo: $*"; }
skip() { say "SKIPPED: $*"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# --- the engine
engine="" compose=()
pick_engine() {
  if command -v docker > /dev/null && docker info > /dev/null 2>&1; then
    engine=docker
    if docker compose version > /dev/null 2>&1; then compose=(docker compose)
    elif command -v docker-compose > /dev/null; then compose=(docker-compose)
    else return 1; fi
  elif command -v podman > /dev/null && podman info > /dev/null 2>&1; then
    engine=podman
    command -v podman-compose > /dev/null || return 1
    compose=(podman-compose)
  else
    return 1
  fi
}
if ! pick_engine; then
  if [ "$install" = 1 ]; then
    say "installing podman, podman-compose and runc (Debian packages)"
    sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman podman-compose runc \
      debootstrap > /dev/null
  fi
  pick_engine || skip "no docker with a running daemon and no podman with podman-compose here \
(deploy/compose-demo.sh --install installs podman)"
fi
say "engine: $engine, compose: ${compose[*]}"

# --- base images
have_image() { "$engine" image inspect "$1" > /dev/null 2>&1; }
for tag in bookworm bookworm-slim; do
  image=docker.io/library/debian:$tag
  have_image "$image" && continue
  if "$engine" pull -q "$image" > /dev/null 2>&1; then continue; fi
  if ! have_image localhost/pplda-debian-bookworm:minbase; then
    command -v debootstrap > /dev/null || skip "debian:$tag cannot be pulled and debootstrap \
is missing (apt-get install debootstrap, or --install)"
    [ "$(id -u)" = 0 ] || skip "debian:$tag cannot be pulled; making it with debootstrap needs root"
    mirror=${PPLDA_DEBIAN_MIRROR:-http://deb.debian.org/debian}
    say "debian:$tag cannot be pulled: making a bookworm base with debootstrap from $mirror"
    debootstrap --variant=minbase bookworm "$work/rootfs" "$mirror" > "$work/debootstrap.log" 2>&1 ||
      { tail -5 "$work/debootstrap.log" >&2; skip "debootstrap failed (log above)"; }
    rm -rf "$work"/rootfs/var/cache/apt/archives/*.deb "$work"/rootfs/var/lib/apt/lists/*
    tar -C "$work/rootfs" -c . | "$engine" import - localhost/pplda-debian-bookworm:minbase > /dev/null
    rm -rf "$work/rootfs"
  fi
  "$engine" tag localhost/pplda-debian-bookworm:minbase "$image"
done

# --- can it run a container?
probe() { "$engine" run --rm --network none docker.io/library/debian:bookworm true 2> "$work/probe.err"; }
if ! probe; then
  [ "$engine" = podman ] || skip "docker cannot run a container here: $(tail -1 "$work/probe.err")"
  first=$(tail -1 "$work/probe.err")
  # podman's conmon runs with RLIMIT_NPROC 32768 at most: a container
  # cannot get more than its parent's hard limits.
  nofile=$(ulimit -Hn); nproc=$(ulimit -Hu)
  [ "$nofile" = unlimited ] && nofile=1048576
  [ "$nproc" = unlimited ] || [ "$nproc" -gt 32768 ] && nproc=32768
  export CONTAINERS_CONF=$work/containers.conf
  started=0
  for limit in "$nproc" 4096; do
    {
      echo "[containers]"
      echo "default_ulimits = [\"nofile=$nofile:$nofile\", \"nproc=$limit:$limit\"]"
      if command -v runc > /dev/null; then printf '[engine]\nruntime = "runc"\n'; fi
    } > "$CONTAINERS_CONF"
    if probe; then started=1; break; fi
  done
  [ "$started" = 1 ] || skip "podman cannot run a container here: $first; with runc and the \
host's limits: $(tail -1 "$work/probe.err")"
  say "podman's defaults cannot start a container here ($first): using $(grep -q runc \
"$CONTAINERS_CONF" && echo "runc and ")the host's limits (CONTAINERS_CONF)"
fi

# --- the image and the demo
say "building the image (deploy/Dockerfile; a Release build of the three binaries)"
"$engine" build -q -f deploy/Dockerfile -t localhost/pplda:latest . > /dev/null
"$engine" tag localhost/pplda:latest pplda:latest 2> /dev/null || true
file=deploy/docker-compose.yml
project=pplda-demo-$$
dc() { PPLDA_COMPOSE_BITS=$bits "${compose[@]}" -p "$project" -f "$file" "$@"; }
cleanup() {
  if [ "$keep" = 0 ]; then dc down -v > /dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
say "init service: certificates, consortium file, a dealt $bits-bit key (demo only), volumes"
# In the foreground until it exits (one init only: two at once would deal
# two keys).
dc up --no-deps init > "$work/init.log" 2>&1 || { cat "$work/init.log" >&2; exit 1; }
grep -q "compose-init: modern's volume ready\|already initialised" "$work/init.log" ||
  { cat "$work/init.log" >&2; say "FAILED: the init service did not initialise the volumes"; exit 1; }
grep "compose-init" "$work/init.log" | sed 's/^/  /'
say "starting the coordinator and the three parties"
dc up -d --no-deps coordinator early middle modern > "$work/up.log" 2>&1 || { cat "$work/up.log" >&2; exit 1; }
ready=0
for _ in $(seq 1 60); do
  # "no run was started yet" (exit 1) once the coordinator answers.
  answer=$(dc exec -T coordinator pplda run status --config /pplda/coordinator.toml 2>&1 || true)
  if grep -q -e "no run was started" -e "^run " <<< "$answer"; then
    ready=1; break
  fi
  sleep 1
done
[ "$ready" = 1 ] || { dc logs > "$work/logs" 2>&1; tail -40 "$work/logs" >&2; say "FAILED: the coordinator does not answer"; exit 1; }
say "a secure run: $topics topics, $iterations iterations"
dc exec -T coordinator pplda run start --config /pplda/coordinator.toml --topics "$topics" \
  --iterations "$iterations" --watch ||
  { dc logs > "$work/logs" 2>&1; tail -60 "$work/logs" >&2; say "FAILED: the run did not publish"; exit 1; }
dc exec -T coordinator pplda run result --config /pplda/coordinator.toml --out /pplda/model.json
dc exec -T coordinator pplda topics --model /pplda/model.json
if [ -n "$out" ]; then
  dc exec -T coordinator cat /pplda/model.json > "$out"
  say "model copied to $out"
fi
say "PASSED: the compose demo published a model"
