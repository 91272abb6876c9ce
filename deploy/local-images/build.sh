#!/usr/bin/env bash
# The images docker-compose.yml names that no registry here serves, built at the versions it names: from
# Debian's packages on a base deploy/base-images.sh makes (PostgreSQL), and from each project's own Go module
# (the Temporal server, its admin tools and UI; versitygw for the `s3` profile). Prints the override file that
# swaps in their names; it changes image names only, never the wiring.
# Needs root's Docker engine, Go and local/debian:bookworm; the Temporal server, its SQL tool and its module's
# source as production/temporalServer.ts builds them, and the temporal CLI (npm run verify:compose passes all).
# Usage: TEMPORAL_SERVER_BIN=… TEMPORAL_SQL_BIN=… TEMPORAL_SERVER_SRC=… TEMPORAL_CLI=… build.sh OVERRIDE_FILE
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
compose="$here/../../docker-compose.yml"
override=${1:?usage: build.sh OVERRIDE_FILE}
base=${DEBIAN_IMAGE:-local/debian:bookworm}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/notarization-service/compose-images
export CGO_ENABLED=0

version_of() { grep -oE "image: $1:[^ ]+" "$compose" | head -1 | sed 's/.*://; s/^v//'; }
temporal=$(version_of temporalio/server)
ui=$(version_of temporalio/ui)
vgw=$(version_of versity/versitygw)
[ -n "$temporal" ] && [ -n "$ui" ] && [ -n "$vgw" ] || { echo "image versions not found in $compose" >&2; exit 1; }

# A Go module's binary, built once per version into the cache; prints its path.
binary() {
  local bin="$cache/bin/$1-$3"
  [ -n "$(ls -A "$bin" 2>/dev/null)" ] || GOBIN="$bin" go install "$2@v$3" >&2
  find "$bin" -maxdepth 1 -type f | head -1
}
# Where the Go proxy's copy of a module's source is (its schema files, entrypoints, config templates).
source_of() {
  local dir
  dir=$(go mod download -json "$1@v$2" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p' || true)
  [ -n "$dir" ] || { echo "go mod download $1@v$2 found no source" >&2; return 1; }
  echo "$dir"
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build() {
  local tag=$1 dir=$2
  docker build --quiet --build-arg DEBIAN_IMAGE="$base" -t "$tag" "$dir" >/dev/null
  echo "built $tag ($(docker image inspect -f '{{.Size}}' "$tag" | awk '{printf "%.0f MB", $1 / 1e6}'))" >&2
}

server_src=${TEMPORAL_SERVER_SRC:?set TEMPORAL_SERVER_SRC}
mkdir -p "$work/server" "$work/admin" "$work/ui" "$work/s3"
cp "$here"/temporal-server/Dockerfile "$work/server/"
cp "${TEMPORAL_SERVER_BIN:?set TEMPORAL_SERVER_BIN}" "$work/server/temporal-server"
cp "$server_src/docker/scripts/sh/entrypoint.sh" "$work/server/"
build "local/temporal-server:$temporal" "$work/server"

cp "$here"/temporal-admin-tools/Dockerfile "$work/admin/"
cp "${TEMPORAL_SQL_BIN:?set TEMPORAL_SQL_BIN}" "$work/admin/temporal-sql-tool"
cp "${TEMPORAL_CLI:?set TEMPORAL_CLI to the temporal CLI (npm run setup:temporal builds one)}" "$work/admin/temporal"
cp -r "$server_src/schema" "$work/admin/schema"
chmod -R u+w "$work/admin/schema"
build "local/temporal-admin-tools:$temporal" "$work/admin"

ui_src=$(source_of github.com/temporalio/ui-server/v2 "$ui")
cp "$here"/temporal-ui/Dockerfile "$work/ui/"
cp "$(binary temporal-ui github.com/temporalio/ui-server/v2/cmd/server "$ui")" "$work/ui/ui-server"
mkdir -p "$work/ui/config" && cp "$ui_src/config/docker.yaml" "$work/ui/config/"
build "local/temporal-ui:$ui" "$work/ui"

vgw_src=$(source_of github.com/versity/versitygw "$vgw")
cp "$here"/s3/Dockerfile "$work/s3/"
cp "$(binary versitygw github.com/versity/versitygw/cmd/versitygw "$vgw")" "$work/s3/versitygw"
cp "$vgw_src/docker-entrypoint.sh" "$work/s3/"
build "local/versitygw:v$vgw" "$work/s3"

build local/postgres:15 "$here/postgres"

cat >"$override" <<YAML
# Written by deploy/local-images/build.sh: locally built images in place of the official ones. Names only.
services:
  postgresql: { image: 'local/postgres:15' }
  temporal-schema: { image: 'local/temporal-admin-tools:$temporal' }
  temporal: { image: 'local/temporal-server:$temporal' }
  temporal-namespace: { image: 'local/temporal-admin-tools:$temporal' }
  temporal-ui: { image: 'local/temporal-ui:$ui' }
  s3: { image: 'local/versitygw:v$vgw' }
YAML
echo "$override" >&2
