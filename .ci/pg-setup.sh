#!/usr/bin/env bash
# Install (Debian packages), start and prepare a local PostgreSQL server for the storage tests.
# Idempotent. Prints one line on stdout, for `eval "$(bash .ci/pg-setup.sh)"`:
#   export BOILERPLATE_TEST_POSTGRES_URL=postgresql://newsroom:newsroom@127.0.0.1:PORT/newsroom_test
# Everything else goes to stderr. Needs root (or passwordless sudo) for apt-get and the cluster.
set -euo pipefail
exec 3>&1 1>&2

ROLE=newsroom
PASSWORD=newsroom
DATABASE=newsroom_test

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi; }
as_postgres() { as_root su postgres -s /bin/sh -c "$1"; }

if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq postgresql >/dev/null
fi
version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
if ! pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main"' | grep -q .; then
    as_root pg_createcluster "$version" main
fi
if ! pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" && $4 == "online"' | grep -q .; then
    as_root pg_ctlcluster "$version" main start
fi
port=$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $3}')
for _ in $(seq 1 30); do
    pg_isready -q -h 127.0.0.1 -p "$port" && break
    sleep 1
done
pg_isready -h 127.0.0.1 -p "$port"

psql_admin() { as_postgres "psql -p $port -v ON_ERROR_STOP=1 -tAc \"$1\""; }
if [ "$(psql_admin "SELECT 1 FROM pg_roles WHERE rolname = '$ROLE'")" != 1 ]; then
    psql_admin "CREATE ROLE $ROLE LOGIN PASSWORD '$PASSWORD'"
fi
if [ "$(psql_admin "SELECT 1 FROM pg_database WHERE datname = '$DATABASE'")" != 1 ]; then
    psql_admin "CREATE DATABASE $DATABASE OWNER $ROLE"
fi

echo "export BOILERPLATE_TEST_POSTGRES_URL=postgresql://$ROLE:$PASSWORD@127.0.0.1:$port/$DATABASE" >&3
