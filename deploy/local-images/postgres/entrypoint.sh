#!/bin/sh
# First start: a cluster owned by POSTGRES_USER with its password and database; then PostgreSQL in front.
set -eu
: "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}"
user=${POSTGRES_USER:-postgres}
db=${POSTGRES_DB:-$user}
mkdir -p "$PGDATA" /run/postgresql
chown postgres:postgres "$PGDATA" /run/postgresql
chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  chown postgres "$pwfile"
  runuser -u postgres -- initdb -D "$PGDATA" -U "$user" --pwfile="$pwfile" -E UTF8 \
    --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pwfile"
  echo 'host all all all scram-sha-256' >>"$PGDATA/pg_hba.conf"
  runuser -u postgres -- pg_ctl -D "$PGDATA" -w -o "-c listen_addresses=''" start >/dev/null
  [ "$db" = postgres ] || runuser -u postgres -- createdb -U "$user" -O "$user" "$db"
  runuser -u postgres -- pg_ctl -D "$PGDATA" -w -m fast stop >/dev/null
  echo "database cluster created for $user"
fi
exec runuser -u postgres -- postgres -D "$PGDATA" -c listen_addresses='*'
