#!/bin/sh
# Writes Janus's configuration from the environment (the same settings the embedded Janus of `npm start`
# gets from server/embedded/embeddedJanus.ts), then runs it, starting it again if it crashes.
set -eu
: "${MEDIA_ADMIN_KEY:?set MEDIA_ADMIN_KEY}"
: "${MEDIA_EVENTS_SECRET:?set MEDIA_EVENTS_SECRET}"
: "${MEDIA_EVENTS_URL:?set MEDIA_EVENTS_URL}"
RTP_PORTS="${MEDIA_RTP_PORTS:-20000-20200}"
LIB=$(dirname "$(find /usr/lib -name libjanus_videoroom.so | head -1)")/..
# The folders and port are the image's; `npm run verify:production` runs this script without Docker.
CONF="${JANUS_CONF_DIR:-/etc/notarization-janus}"
RECORDINGS="${JANUS_RECORDINGS_DIR:-/recordings}"
HTTP_PORT="${JANUS_HTTP_PORT:-8088}"
mkdir -p "$CONF" "$RECORDINGS"
# The worker (another user) makes each room's folder here, and Janus writes into it.
chmod 1777 "$RECORDINGS"
NAT=""
# The private address stays a candidate beside the public one: coturn, on the same network, relays to Janus
# there, and Janus's answers come from that address, which the relay's permission is for.
[ -n "${MEDIA_PUBLIC_IP:-}" ] && NAT="nat_1_1_mapping = \"$MEDIA_PUBLIC_IP\" keep_private_host = true"
cat > "$CONF/janus.jcfg" <<JCFG
general: {
  configs_folder = "$CONF"
  plugins_folder = "$LIB/plugins"
  transports_folder = "$LIB/transports"
  events_folder = "$LIB/events"
  recordings_tmp_ext = "tmp"
  debug_level = 4
  admin_secret = "$(head -c 24 /dev/urandom | base64 | tr -d '/+=')"
  session_timeout = 60
  server_name = "notarization-media"
  protected_folders = ["/bin", "/boot", "/dev", "/etc", "/proc", "/sys", "/usr"]
}
media: { rtp_port_range = "$RTP_PORTS" no_media_timer = 2 }
nat: { nice_debug = false $NAT }
plugins: { disable = "libjanus_audiobridge.so,libjanus_echotest.so,libjanus_nosip.so,libjanus_recordplay.so,libjanus_sip.so,libjanus_streaming.so,libjanus_textroom.so,libjanus_videocall.so,libjanus_voicemail.so,libjanus_duktape.so,libjanus_lua.so" }
loggers: { disable = "libjanus_jsonlog.so" }
transports: { disable = "libjanus_websockets.so,libjanus_pfunix.so,libjanus_mqtt.so,libjanus_rabbitmq.so,libjanus_nanomsg.so" }
events: { broadcast = true stats_period = 0 disable = "libjanus_wsevh.so,libjanus_rabbitmqevh.so,libjanus_mqttevh.so,libjanus_nanomsgevh.so,libjanus_gelfevh.so" }
JCFG
cat > "$CONF/janus.plugin.videoroom.jcfg" <<JCFG
general: { admin_key = "$MEDIA_ADMIN_KEY" lock_rtp_forward = true string_ids = true events = true }
JCFG
# The HTTP API only on the compose network: browsers reach it through the API's signaling proxy.
cat > "$CONF/janus.transport.http.jcfg" <<JCFG
general: { json = "compact" base_path = "/janus" http = true port = $HTTP_PORT https = false }
admin: { admin_http = false }
JCFG
cat > "$CONF/janus.eventhandler.sampleevh.jcfg" <<JCFG
general: {
  enabled = true
  events = "plugins,core,media"
  grouping = true
  json = "compact"
  backend = "$MEDIA_EVENTS_URL"
  backend_user = "janus"
  backend_pwd = "$MEDIA_EVENTS_SECRET"
  max_retransmissions = 5
  retransmissions_backoff = 200
}
JCFG
# A Janus that crashes is started again here at once: Docker's own restart would publish the whole media
# port range again, which is slow, while the participants wait. Stopping the container stops Janus (SIGTERM,
# so it closes its recordings); five crashes within seconds of starting hand the restarts back to Docker.
janus=""
stop() {
  if [ -n "$janus" ]; then
    kill -TERM "$janus" 2>/dev/null || true
    wait "$janus" || true
  fi
  exit 0
}
trap stop TERM INT
quick=0
while :; do
  started=$(date +%s)
  janus --configs-folder "$CONF" --config "$CONF/janus.jcfg" --disable-colors --event-handlers &
  janus=$!
  status=0
  wait "$janus" || status=$?
  if [ $(($(date +%s) - started)) -lt 10 ]; then quick=$((quick + 1)); else quick=0; fi
  [ "$quick" -ge 5 ] && { echo "janus exited $status five times within seconds of starting" >&2; exit 1; }
  echo "janus exited $status; starting it again" >&2
  sleep 1
done
