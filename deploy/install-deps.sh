#!/usr/bin/env bash
# Installs every build and runtime dependency of pplda from Debian bookworm
# packages. Idempotent: does nothing (not even `apt-get update`) when all
# packages are already present. Run as root, or as a user with sudo.
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build pkg-config git ca-certificates
  # libraries (see README "Dependencies")
  libgmp-dev libsodium-dev libabsl-dev libspdlog-dev libfmt-dev
  libprotobuf-dev protobuf-compiler libgrpc++-dev protobuf-compiler-grpc
  libcli11-dev nlohmann-json3-dev libstemmer-dev libcpp-httplib-dev
  libtomlplusplus-dev
  # certificate tooling (deploy/make-certs.sh)
  openssl
  # tests and benchmarks; headless Chromium and its WebDriver for the HTML
  # report's browser tests (tests/report; skipped where Chromium cannot start)
  libgtest-dev libgmock-dev libbenchmark-dev chromium chromium-driver
  # deployment tests (tests/deploy): network namespaces, tc, the compose file check
  iproute2 docker-compose
  # fuzzing (PPLDA_FUZZ, deploy/fuzz.sh): clang and its libFuzzer/sanitizer runtimes
  clang libclang-rt-14-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: run as root (missing: ${missing[*]})" >&2; exit 1; }
  sudo="sudo"
fi
echo "install-deps: installing ${#missing[@]} packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
