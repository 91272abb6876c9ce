#!/bin/sh
# Creates Temporal's two databases on PostgreSQL and brings their schemas to the server image's version.
# Runs in the temporalio/admin-tools image of the same version as the server (its schema files are there).
# Idempotent: `create` of an existing database and a schema already at its version change nothing.
set -eu
: "${POSTGRES_SEEDS:?}" "${POSTGRES_USER:?}" "${SQL_PASSWORD:?}"
sql() { temporal-sql-tool --plugin postgres12 --ep "$POSTGRES_SEEDS" -p "${DB_PORT:-5432}" -u "$POSTGRES_USER" "$@"; }
for db in temporal:temporal temporal_visibility:visibility; do
  name=${db%%:*}
  schema=${db##*:}
  sql --db "$name" create || echo "database $name already exists"
  sql --db "$name" setup-schema -v 0.0 || echo "schema of $name already set up"
  sql --db "$name" update-schema -d "/etc/temporal/schema/postgresql/v12/$schema/versioned"
done
echo 'Temporal schemas are up to date'
