#!/usr/bin/env bash
# Creates a consortium's TLS material and consortium file with the openssl CLI:
# a consortium CA, one certificate per participant (EC P-256 key, SAN
# DNS:<name>, DNS:localhost, IP:127.0.0.1, client and server use), one X25519
# box key pair per participant but the coordinator (seals relayed MPC
# frames: relay mode), and consortium.toml pinning every certificate by its
# SHA-256 fingerprint and every box public key (net/consortium_file.h).
#
#   deploy/make-certs.sh --out DIR [--name CONSORTIUM] [--days N] [--force] \
#       [--requests REQ_DIR] \
#       --coordinator NAME=HOST:PORT --both NAME=HOST:PORT --both ... \
#       [--compute NAME=HOST:PORT] [--data NAME=HOST:PORT ...]
#
# Roles (net/consortium_file.h): --both a compute party with documents (the
# usual member), --compute a compute party that may hold none (a helper),
# --data a data holder (documents, no key share). --party is --both and
# --helper is --compute (their earlier names).
#
# --requests REQ_DIR: a real consortium's CA operator never holds anyone's
# private keys: each organisation runs deploy/request-cert.sh, keeps its
# keys, and sends REQ_DIR/<name>.csr (and, for a compute party,
# <name>.box.pub); for every participant with a request there, its CSR is
# signed (its key's proof of possession checked, CN = its name) and its box
# public key pinned, and no key file of it is written.
#
# A participant given as NAME=relay (--both early=relay) is in relay mode: it
# has no address, never listens, and dials the coordinator.
# Writes into DIR: ca.crt, ca.key, <name>.crt and <name>.key for every
# participant, <name>.box (the X25519 secret key, 64 hex digits) for every
# participant but the coordinator, consortium.toml. Key files are mode 0600
# (the daemons refuse anything looser); keep ca.key offline after the
# consortium is set up.
# Refuses to touch an existing DIR unless --force (which replaces the files
# it writes). Needs a committee of an odd number (3 or more) of compute
# parties (--both plus --compute), someone with documents (--both or
# --data) and exactly one --coordinator; names match [a-z0-9-]+.
set -euo pipefail

usage() {
  sed -n '2,/^set -euo pipefail/{/^#/p}' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
die() { echo "make-certs: $*" >&2; exit 1; }

out="" name="pplda" days=825 force=0 requests=""
names=() roles=() addresses=()
add_participant() {  # flag spec
  local flag=$1 spec=$2 role
  case "$flag" in
    party) role=both ;;
    helper) role=compute ;;
    *) role=$flag ;;
  esac
  [[ "$spec" == *=* ]] || die "--$flag $spec: expected NAME=HOST:PORT"
  local n=${spec%%=*} a=${spec#*=}
  [[ "$n" =~ ^[a-z0-9-]+$ ]] || die "--$flag $spec: name must match [a-z0-9-]+"
  if [ "$a" = relay ]; then
    [ "$role" != coordinator ] || die "--coordinator $spec: the coordinator cannot be in relay mode"
  else
    [[ "$a" =~ ^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+):[0-9]+$ ]] || die "--$flag $spec: address must be HOST:PORT (or relay)"
  fi
  local existing
  for existing in "${names[@]+"${names[@]}"}"; do
    [ "$existing" != "$n" ] || die "participant name \"$n\" given twice"
  done
  names+=("$n") roles+=("$role") addresses+=("$a")
}

while [ $# -gt 0 ]; do
  case "$1" in
    --out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
    --name) [ $# -ge 2 ] || usage; name=$2; shift 2 ;;
    --days) [ $# -ge 2 ] || usage; days=$2; shift 2 ;;
    --force) force=1; shift ;;
    --requests) [ $# -ge 2 ] || usage; requests=$2; shift 2 ;;
    --coordinator|--both|--compute|--data|--party|--helper)
      [ $# -ge 2 ] || usage; add_participant "${1#--}" "$2"; shift 2 ;;
    -h|--help) usage ;;
    *) echo "make-certs: unknown argument $1" >&2; usage ;;
  esac
done

[ -n "$out" ] || die "--out DIR is required"
command -v openssl >/dev/null || die "openssl not found (deploy/install-deps.sh installs it)"
coordinators=0 committee=() holders=0
for i in "${!roles[@]}"; do
  case "${roles[$i]}" in
    coordinator) coordinators=$((coordinators + 1)) ;;
    compute) committee+=("${names[$i]}") ;;
    both) committee+=("${names[$i]}"); holders=$((holders + 1)) ;;
    data) holders=$((holders + 1)) ;;
  esac
done
[ "$coordinators" -eq 1 ] || die "exactly one --coordinator is needed (got $coordinators)"
n=${#committee[@]}
if [ "$n" -lt 3 ] || [ $((n % 2)) -eq 0 ]; then
  die "a committee of $n compute parties (--both, --compute: ${committee[*]+"${committee[*]}"}); the MPC needs an odd number, 3 or more"
fi
[ "$holders" -ge 1 ] || die "no participant holds documents: give at least one --both or --data"
[[ "$days" =~ ^[0-9]+$ ]] || die "--days must be a number"
[ -z "$requests" ] || [ -d "$requests" ] || die "--requests $requests: no such folder"

if [ -e "$out" ] && [ "$force" -ne 1 ]; then
  die "$out already exists; pass --force to replace its certificates, keys and consortium.toml"
fi
mkdir -p "$out"
umask 077
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fingerprint() {  # cert -> SHA-256 of its DER, lowercase hex
  openssl x509 -in "$1" -outform DER | openssl dgst -sha256 -r | cut -d' ' -f1
}

# The CA.
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$out/ca.key" 2>/dev/null
cat > "$tmp/ca.cnf" <<CNF
[req]
distinguished_name = dn
x509_extensions = ext
prompt = no
[dn]
CN = $name consortium CA
[ext]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
CNF
openssl req -new -x509 -key "$out/ca.key" -sha256 -days "$days" -config "$tmp/ca.cnf" \
  -set_serial "0x$(openssl rand -hex 16)" -out "$out/ca.crt"
chmod 644 "$out/ca.crt"
ca_fp=$(fingerprint "$out/ca.crt")
echo "ca           $ca_fp  $out/ca.crt"

# One certificate per participant.
for i in "${!names[@]}"; do
  n=${names[$i]}
  if [ -n "$requests" ] && [ -f "$requests/$n.csr" ]; then
    openssl req -in "$requests/$n.csr" -noout -verify 2>/dev/null ||
      die "$requests/$n.csr: not a valid certificate request (signature check failed)"
    subject=$(openssl req -in "$requests/$n.csr" -noout -subject -nameopt multiline |
              sed -n 's/^ *commonName *= *//p')
    [ "$subject" = "$n" ] || die "$requests/$n.csr: its CN is \"$subject\", expected \"$n\""
    cp "$requests/$n.csr" "$tmp/$n.csr"
  else
    openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$out/$n.key" 2>/dev/null
    chmod 600 "$out/$n.key"
    openssl req -new -key "$out/$n.key" -subj "/CN=$n" -out "$tmp/$n.csr"
  fi
  cat > "$tmp/$n.ext" <<EXT
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyAgreement
extendedKeyUsage = serverAuth, clientAuth
subjectAltName = DNS:$n, DNS:localhost, IP:127.0.0.1
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
EXT
  openssl x509 -req -in "$tmp/$n.csr" -CA "$out/ca.crt" -CAkey "$out/ca.key" -sha256 \
    -days "$days" -set_serial "0x$(openssl rand -hex 16)" -extfile "$tmp/$n.ext" \
    -out "$out/$n.crt" 2>/dev/null
  chmod 644 "$out/$n.crt"
  printf '%-12s %s  %s\n' "$n" "$(fingerprint "$out/$n.crt")" "$out/$n.crt"
done

# One X25519 box key pair per compute party: the raw 32-byte keys are the
# last 32 bytes of the PKCS#8 / SubjectPublicKeyInfo DER encodings.
raw_hex() { tail -c 32 | od -An -tx1 -v | tr -d ' \n'; }
box_public=()
for i in "${!names[@]}"; do
  n=${names[$i]}
  box_public+=("")
  [ "${roles[$i]}" != coordinator ] || continue
  if [ -n "$requests" ] && [ -f "$requests/$n.csr" ]; then
    [ -f "$requests/$n.box.pub" ] || die "$requests/$n.box.pub is missing (compute party $n sent a CSR)"
    box_public[$i]=$(tr -d ' \n' < "$requests/$n.box.pub")
    [[ "${box_public[$i]}" =~ ^[0-9a-f]{64}$ ]] ||
      die "$requests/$n.box.pub: expected 64 lowercase hex digits (an X25519 public key)"
    continue
  fi
  openssl genpkey -algorithm X25519 -out "$tmp/$n.x25519.pem" 2>/dev/null
  openssl pkey -in "$tmp/$n.x25519.pem" -outform DER | raw_hex > "$out/$n.box"
  chmod 600 "$out/$n.box"
  box_public[$i]=$(openssl pkey -in "$tmp/$n.x25519.pem" -pubout -outform DER | raw_hex)
  [[ "${box_public[$i]}" =~ ^[0-9a-f]{64}$ ]] || die "could not make the box key of $n"
done

# The consortium file.
{
  echo "# Written by deploy/make-certs.sh. Every participant is pinned by the"
  echo "# SHA-256 fingerprint of its certificate's DER encoding; every compute party"
  echo "# by its X25519 box public key (relay mode seals MPC frames with it)."
  echo "[consortium]"
  echo "name = \"$name\""
  echo "ca_fingerprint = \"$ca_fp\""
  for i in "${!names[@]}"; do
    echo
    echo "[[participant]]"
    echo "name = \"${names[$i]}\""
    echo "role = \"${roles[$i]}\""
    if [ "${addresses[$i]}" = relay ]; then
      echo "relay = true"
    else
      echo "address = \"${addresses[$i]}\""
    fi
    echo "cert_fingerprint = \"$(fingerprint "$out/${names[$i]}.crt")\""
    if [ -n "${box_public[$i]}" ]; then
      echo "box_public_key = \"${box_public[$i]}\""
    fi
  done
} > "$out/consortium.toml"
chmod 644 "$out/consortium.toml"
echo "consortium file: $out/consortium.toml"
