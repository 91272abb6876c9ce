#!/usr/bin/env bash
# Fuzzes every operation of the OpenAPI document with schemathesis, once per kind of credential (the
# account's API key, its vendor key, a team member's, a network notary's and a network witness's
# token), against the whole service on its own embedded PostgreSQL and Temporal. Fails on any 5xx,
# and on any answer the document does not describe (a status, a content type, a header or a body it
# does not list, a schema-violating request accepted).
# `npm test` runs a short pass (10 examples per operation) on a fixed seed, so a commit's CI result is its
# own and not the luck of the draw; run a long, exploring one (a fresh seed each time, printed in its
# report) before a release, and replay a find with its seed:
#   npm run fuzz -- [max examples per operation, default 40] [seed]
set -euo pipefail
cd "$(dirname "$0")/.."
examples="${1:-40}"
seed=(${2:+--seed "$2"})

# schemathesis from PyPI, in a virtualenv of its own outside the checkout (built once per machine).
venv="${XDG_CACHE_HOME:-$HOME/.cache}/notarization-service/schemathesis-4.32.5"
if [ ! -f "$venv/.installed" ]; then
  echo "Installing schemathesis into $venv (once per machine)..."
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check schemathesis==4.32.5
  touch "$venv/.installed"
fi
npm run -s build

work=$(mktemp -d)
# As root the embedded PostgreSQL runs as "postgres", which must be able to enter the data directory.
chmod 755 "$work"
fuzzing=() server=""
# A pass's job is a shell whose child is schemathesis: both are stopped, then the service.
trap 'set +e; for job in "${fuzzing[@]}"; do pkill -P "$job"; kill "$job"; done 2>/dev/null
  kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
export DATA_DIR="$work/data" PORT=3901 EMBEDDED_POSTGRES_PORT=54401 TEMPORAL_DEV_PORT=7301 TEMPORAL_UI_PORT=8301
export NODE_ENV=development LOG_LEVEL=error
base="http://127.0.0.1:$PORT"

node dist/scripts/start.js >"$work/service.log" 2>&1 &
server=$!
# A first run on a machine builds the Temporal CLI first, for minutes.
for waited in $(seq 1 600); do
  curl -fsS "$base/readyz" >/dev/null 2>&1 && break
  kill -0 "$server" 2>/dev/null || { cat "$work/service.log"; exit 1; }
  [ "$waited" -lt 600 ] || { tail -n 20 "$work/service.log"; echo "the service was not ready after 600 s" >&2; exit 1; }
  sleep 1
done

# The admin CLI as just built, on the service's embedded PostgreSQL, as an operator of `npm start` runs it.
admin() { node dist/scripts/admin.js "$@"; }
account=$(admin create-account --name "Fuzz" --auto-onboarding)
# A field of the JSON on stdin; a missing one fails the script rather than fuzzing with "undefined".
json() {
  node -e "const v = JSON.parse(require('fs').readFileSync(0, 'utf8'))$1; if (v === undefined) process.exit(1); process.stdout.write(String(v))"
}
api_key=$(json .api_key <<<"$account")
vendor_key=$(json .vendor_api_key <<<"$account")
post() { curl -fsS -H "authorization: Bearer $1" -H 'content-type: application/json' -d "$3" "$base/api/integrationsv2$2"; }
post "$vendor_key" /team_members/invite \
  '{"email":"fuzz-admin@example.com","business_role":"admin","first_name":"Fuzz","last_name":"Admin"}' >/dev/null
# A login link's token: the link (…/auto/{id}?key=…) exchanged at POST /auth/login_link.
token_of() {
  local link_id key
  link_id=$(basename "${1%%\?*}")
  key=$(node -e "process.stdout.write(new URL(process.argv[1]).searchParams.get('key'))" "$1")
  curl -fsS -H 'content-type: application/json' \
    -d "{\"login_link_id\":\"$link_id\",\"key\":\"$key\"}" "$base/api/integrationsv2/auth/login_link" | json .access_token
}
member_token=$(token_of "$(post "$vendor_key" /login_links '{"email":"fuzz-admin@example.com"}' | json .login_link)")
admin add-network-notary --email fuzz-notary@example.com --first-name Fuzz --last-name Notary --state TX \
  --commission-number 1 --commission-expires-on "$(node -p 'new Date(Date.now() + 365 * 864e5).toISOString().slice(0, 10)')" >/dev/null
admin add-network-witness --email fuzz-witness@example.com --first-name Fuzz --last-name Witness >/dev/null
notary_token=$(token_of "$(admin network-login-link --email fuzz-notary@example.com | json .login_link)")
witness_token=$(token_of "$(admin network-login-link --email fuzz-witness@example.com | json .login_link)")

# Real sessions (and a team member) for half of the generated `{id}`s and `{token}`s: schemathesis cannot
# make a valid create body, so on its own it would send every session route only ids that do not exist.
# Fresh ones for each credential, as a run cancels, starts and deletes what it is given.
toml_strings() { node -e "process.stdout.write(JSON.stringify(JSON.parse(require('fs').readFileSync(0, 'utf8'))$1))"; }
seed_resources() {
  local resources
  resources=$(node_modules/.bin/tsx test/support/fuzzResources.ts "$base" "$api_key" "$vendor_key")
  cat >"$1/schemathesis.toml" <<TOML
[dictionaries]
resources = { values = $(toml_strings .ids <<<"$resources") }
tokens = { values = $(toml_strings .tokens <<<"$resources") }

[parameters]
"path.id" = { dictionary = "resources", probability = 0.5 }
"path.token" = { dictionary = "tokens", probability = 0.5 }

# schemathesis's own list, with 413: a schema-violating body can also be too large (documented).
[checks.negative_data_rejection]
expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429", "5xx"]
TOML
}

# A failed check is a <failure> in the JUnit report; an <error> is schemathesis's own trouble (it has
# crashed inside Hypothesis here), which fails nothing as long as the service is still up and answering.
# Two checks are left out, as the document cannot say what they ask of it:
# - positive_data_acceptance: a schema-valid request can break a rule of the session or of its
#   document (an annotation beyond the document's last page, text PostgreSQL cannot store).
# - allow_header_conformance: /team_members/invite (POST) sits beside /team_members/{id} (GET, DELETE),
#   so the Allow header on /team_members/invite truthfully lists GET and DELETE too.
checks=all
skipped_checks=positive_data_acceptance,allow_header_conformance
# Signing out of the console ends the very credential a run goes on using: its own test covers it.
excluded=(--exclude-operation-id signOutOfConsole)
attribute() { sed -n "s/.*<testsuites[^>]* $2=\"\\([0-9]*\\)\".*/\\1/p" "$work/$1/report.xml" 2>/dev/null | head -1; }
# One credential's pass, in a directory of its own: schemathesis keeps its caches in the working
# directory. Its report goes to a log printed only when it found something.
fuzz_as() {
  local dir="$work/$1"
  mkdir -p "$dir"
  seed_resources "$dir"
  (cd "$dir" && exec "$venv/bin/st" --config-file "$dir/schemathesis.toml" run "$base/api/integrationsv2/openapi.json" --url "$base" \
    -H "Authorization: Bearer $2" \
    --checks "$checks" --exclude-checks "$skipped_checks" "${excluded[@]}" --max-examples "$examples" "${seed[@]}" --workers 2 \
    --generation-allow-x00 true --suppress-health-check all --request-timeout 30 \
    --report junit --report-junit-path "$dir/report.xml") >"$dir/log" 2>&1 || true
}
# Three passes at a time: schemathesis generates its cases on one core (its workers are threads), so
# one pass alone leaves the machine half idle.
credentials=("api:$api_key" "vendor:$vendor_key" "team_member:$member_token"
  "network_notary:$notary_token" "network_witness:$witness_token")
for credential in "${credentials[@]}"; do
  # The service is a job of this shell too.
  while [ "$(jobs -rp | wc -l)" -gt 3 ]; do wait -n || true; done
  echo "== schemathesis with the ${credential%%:*} credential"
  fuzz_as "${credential%%:*}" "${credential#*:}" &
  fuzzing+=($!)
done
wait "${fuzzing[@]}" || true
failed=0 operations_passed=0 operations_failed=0
for credential in "${credentials[@]}"; do
  kind=${credential%%:*}
  count=$(attribute "$kind" failures)
  echo "== $kind: $(attribute "$kind" tests) operation(s), ${count:-no report, so unknown} with a failed check"
  if [ "$count" = 0 ]; then
    operations_passed=$((operations_passed + $(attribute "$kind" tests)))
  else
    cat "$work/$kind/log"
    failed=1 operations_failed=$((operations_failed + ${count:-1}))
  fi
done
curl -fsS "$base/healthz" >/dev/null || { echo "== the service stopped answering"; failed=1 operations_failed=$((operations_failed + 1)); }
node_modules/.bin/tsx -e "require('./test/results/stageResults').recordStage({ stage: 'fuzz', passed: $operations_passed, failed: $operations_failed, skipped: 0 })"
if grep -q '"level":50' "$work/service.log"; then
  echo "== errors the service logged"
  grep '"level":50' "$work/service.log" | head -20
fi
exit "$failed"
