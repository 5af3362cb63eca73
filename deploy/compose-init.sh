#!/usr/bin/env bash
# The compose demo's init service (deploy/docker-compose.yml), run once as
# root in the pplda image before the daemons start: agrees on a public
# vocabulary (terms in at least 30 sentence windows of the bundled State of
# the Union corpus), makes the consortium CA, certificates and consortium
# file (deploy/make-certs.sh), deals a 2048-bit threshold Paillier key
# (`pplda keys deal`: TRUSTED DEALER, demo only), and writes into each
# participant's own volume (/volumes/NAME) only what that participant needs:
# its config (NAME.toml), the CA certificate, the consortium file, its own
# certificate, TLS key and sealing key, its own key share (the coordinator:
# the public key), the vocabulary, and for a party its era of the corpus in
# documents/. Owned by the image's user pplda (uid 10001), 0700.
# Idempotent: does nothing when the volumes are already initialised.
set -euo pipefail
# PPLDA_SHARE, PPLDA_VOLUMES and PPLDA_BIN move it out of the image (the
# deployment test runs it on the host).
share=${PPLDA_SHARE:-/usr/local/share/pplda}
volumes=${PPLDA_VOLUMES:-/volumes}
names=(coordinator early middle modern)
eras=("" 1790-1860 1861-1945 1946-2021)
if [ -f "$volumes/coordinator/coordinator.toml" ]; then
  echo "compose-init: already initialised (remove the volumes to start over)"
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pplda=${PPLDA_BIN:-/usr/local/bin/pplda}
repo_root=$share
consortium_hosts=(coordinator early middle modern)
consortium_listen_host=0.0.0.0
# shellcheck source=deploy/lib/local-consortium.sh
source "$share/deploy/lib/local-consortium.sh"
echo "compose-init: public vocabulary from the bundled corpus"
"$pplda" --quiet prepare --input "$share/data/sotu" --split sentences --min-df 30 \
  --out "$work/vocabulary-source"
echo "compose-init: certificates, consortium file, dealt key (TRUSTED DEALER: demo only)"
consortium_setup "$work/setup" "${PPLDA_COMPOSE_BITS:-2048}" 7000 \
  "$work/vocabulary-source/vocabulary.txt" sentences 400 5 \
  documents documents documents  # relative to each config: /pplda/documents
for i in 0 1 2 3; do
  name=${names[$i]} to=$volumes/${names[$i]}
  mkdir -p "$to/certs" "$to/keys" "$to/state"
  cp "$work/setup/$name.toml" "$work/setup/vocabulary.txt" "$to/"
  cp "$work/setup/certs/ca.crt" "$work/setup/certs/consortium.toml" \
     "$work/setup/certs/$name.crt" "$work/setup/certs/$name.key" "$to/certs/"
  if [ "$name" = coordinator ]; then
    cp "$work/setup/keys/public.key" "$to/keys/"
  else
    cp "$work/setup/certs/$name.box" "$to/certs/"
    cp "$work/setup/keys/$name.key" "$to/keys/"
    mkdir -p "$to/documents"
    cp "$share/data/sotu/${eras[$i]}"/*.txt "$to/documents/"
  fi
  [ "$(id -u)" != 0 ] || chown -R 10001:10001 "$to"
  chmod -R go-rwx "$to"
  echo "compose-init: $name's volume ready"
done
