#!/usr/bin/env bash
# The tests connect to PostgreSQL as `postgres` over TCP without a password
# (postgres://postgres@127.0.0.1:5432). Debian's new clusters ask loopback connections for one
# (scram-sha-256), so on a fresh machine that connection fails. When it does, this lets the
# `postgres` role in from loopback alone (127.0.0.1 and ::1) and reloads the cluster. Nothing is
# changed where the connection already works.
# Usage: scripts/postgres-test-access.sh [port] (default 5432)
set -euo pipefail
port="${1:-5432}"
connects() { psql -w -h 127.0.0.1 -p "$port" -U postgres -d postgres -Atc 'select 1' >/dev/null 2>&1; }
connects && exit 0
# The cluster listening on this port, from Debian's list: version, name, port, … (`read` fails
# when there is none, which the message below reports rather than `set -e`).
read -r version cluster < <(pg_lsclusters -h | awk -v p="$port" '$3 == p { print $1, $2; exit }') || true
if [ -z "${version:-}" ]; then
  echo "postgres-test-access: no cluster listens on port $port" >&2
  exit 1
fi
hba="/etc/postgresql/$version/$cluster/pg_hba.conf"
rules="host all postgres 127.0.0.1/32 trust
host all postgres ::1/128 trust"
# The first matching line wins: the rules go above the cluster's own.
if ! grep -q '^host all postgres 127.0.0.1/32 trust$' "$hba"; then
  { echo "# For the tests: the postgres role from loopback without a password."; echo "$rules"; cat "$hba"; } > "$hba.new"
  chown --reference="$hba" "$hba.new"
  chmod --reference="$hba" "$hba.new"
  mv "$hba.new" "$hba"
fi
pg_ctlcluster --skip-systemctl-redirect "$version" "$cluster" reload
for _ in $(seq 1 20); do connects && exit 0; sleep 0.5; done
echo "postgres-test-access: postgres still cannot connect on 127.0.0.1:$port without a password" >&2
exit 1
