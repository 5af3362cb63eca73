#!/usr/bin/env bash
# Run by each organisation of a real consortium (docs/deploy.md): makes its
# own TLS key and certificate request, and for a compute party its X25519
# box key pair, so that no private key ever leaves the organisation.
#
#   deploy/request-cert.sh --name NAME --out DIR [--coordinator]
#
# Writes into DIR: NAME.key (0600, keep), NAME.csr (send to the CA
# operator), and unless --coordinator: NAME.box (0600, the box secret key,
# keep) and NAME.box.pub (send). The CA operator signs with
# `deploy/make-certs.sh --requests REQ_DIR ...` and sends back NAME.crt,
# ca.crt and consortium.toml. Refuses to overwrite existing files.
set -euo pipefail
die() { echo "request-cert: $*" >&2; exit 1; }
name="" out="" coordinator=0
while [ $# -gt 0 ]; do
  case "$1" in
    --name) [ $# -ge 2 ] || die "--name needs a value"; name=$2; shift 2 ;;
    --out) [ $# -ge 2 ] || die "--out needs a value"; out=$2; shift 2 ;;
    --coordinator) coordinator=1; shift ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument $1 (see --help)" ;;
  esac
done
[[ "$name" =~ ^[a-z0-9-]+$ ]] || die "--name must match [a-z0-9-]+ (got \"$name\")"
[ -n "$out" ] || die "--out DIR is required"
command -v openssl > /dev/null || die "openssl not found (deploy/install-deps.sh installs it)"
for f in "$name.key" "$name.csr" "$name.box" "$name.box.pub"; do
  [ ! -e "$out/$f" ] || die "$out/$f already exists; not overwriting a key"
done
mkdir -p "$out"
umask 077
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$out/$name.key" 2> /dev/null
openssl req -new -key "$out/$name.key" -subj "/CN=$name" -out "$out/$name.csr"
chmod 644 "$out/$name.csr"
echo "request-cert: keep $out/$name.key; send $out/$name.csr"
if [ "$coordinator" -eq 0 ]; then
  tmp=$(mktemp)
  trap 'rm -f "$tmp"' EXIT
  raw_hex() { tail -c 32 | od -An -tx1 -v | tr -d ' \n'; }
  openssl genpkey -algorithm X25519 -out "$tmp" 2> /dev/null
  openssl pkey -in "$tmp" -outform DER | raw_hex > "$out/$name.box"
  openssl pkey -in "$tmp" -pubout -outform DER | raw_hex > "$out/$name.box.pub"
  chmod 644 "$out/$name.box.pub"
  echo "request-cert: keep $out/$name.box; send $out/$name.box.pub"
fi
