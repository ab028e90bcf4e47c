#!/usr/bin/env bash
# Install (Debian packages), start and prepare a local PostgreSQL server for the storage tests.
# Idempotent. Usage: bash .ci/pg-setup.sh ENV_FILE
# On success ENV_FILE holds one line, for `source`:
#   export BOILERPLATE_TEST_POSTGRES_URL=postgresql://newsroom:newsroom@127.0.0.1:PORT/newsroom_test
# Progress goes to stderr. Needs root (or passwordless sudo) for apt-get and the cluster.
#
# Daemons started here (the server, and the one apt-get's post-install may start) get no
# inherited descriptors but /dev/null and a log file: a server holding the caller's pipe
# open would keep `$(...)` or a CI log reader waiting for ever.
set -euo pipefail
env_file=${1:?usage: pg-setup.sh ENV_FILE}
rm -f "$env_file"
exec 1>&2

ROLE=newsroom
PASSWORD=newsroom
DATABASE=newsroom_test
LOG=${TMPDIR:-/tmp}/boilerplate-pg-setup.log

# shellcheck source=.ci/detached.sh
source "$(dirname "$0")/detached.sh"
as_postgres() { as_root su postgres -s /bin/sh -c "$1"; }

: >"$LOG"
if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
    detached as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive detached as_root apt-get install -y -qq postgresql
fi
version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
if ! pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main"' | grep -q .; then
    detached as_root pg_createcluster "$version" main
fi
if ! pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" && $4 == "online"' | grep -q .; then
    detached as_root pg_ctlcluster "$version" main start
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

echo "export BOILERPLATE_TEST_POSTGRES_URL=postgresql://$ROLE:$PASSWORD@127.0.0.1:$port/$DATABASE" >"$env_file"
