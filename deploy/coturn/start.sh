#!/bin/sh
# coturn from the environment: the shared secret the API signs credentials with, the address browsers reach,
# the relay ports; TURN over TLS on 443 when a certificate is mounted at /tls (fullchain.pem, privkey.pem).
set -eu
: "${TURN_SECRET:?set TURN_SECRET (the same as the API's)}"
: "${TURN_EXTERNAL_IP:?set TURN_EXTERNAL_IP to the address browsers reach this host at}"
RELAY="${TURN_RELAY_PORTS:-40000-40100}"
set -- -n --use-auth-secret --static-auth-secret="$TURN_SECRET" --realm="${TURN_REALM:-notarization}" \
  --listening-port=3478 --external-ip="$TURN_EXTERNAL_IP" \
  --min-port="${RELAY%-*}" --max-port="${RELAY#*-}" \
  --fingerprint --no-cli --no-multicast-peers --log-file=stdout --simple-log --pidfile=/tmp/turnserver.pid \
  --denied-peer-ip=0.0.0.0-0.255.255.255 --denied-peer-ip=169.254.0.0-169.254.255.255
if [ -f /tls/fullchain.pem ] && [ -f /tls/privkey.pem ]; then
  set -- "$@" --tls-listening-port=443 --cert=/tls/fullchain.pem --pkey=/tls/privkey.pem
else
  set -- "$@" --no-tls --no-dtls
fi
exec turnserver "$@"
