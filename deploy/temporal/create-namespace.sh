#!/bin/sh
# Creates the namespace the API and worker use, once the server answers; the apps start after this exits 0.
set -eu
namespace=${TEMPORAL_NAMESPACE:-default}
address=${TEMPORAL_ADDRESS:-temporal:7233}
attempt=0
until temporal operator cluster health --address "$address" >/dev/null 2>&1; do
  attempt=$((attempt + 1))
  [ "$attempt" -lt 60 ] || { echo "Temporal at $address did not become healthy"; exit 1; }
  sleep 2
done
if temporal operator namespace describe --namespace "$namespace" --address "$address" >/dev/null 2>&1; then
  echo "namespace $namespace exists"
else
  temporal operator namespace create --namespace "$namespace" --retention 72h --address "$address"
fi
# The frontend serves a new namespace once its cache has it.
until temporal operator namespace describe --namespace "$namespace" --address "$address" >/dev/null 2>&1; do sleep 1; done
