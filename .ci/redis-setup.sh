#!/usr/bin/env bash
# Install (Debian package) the redis-server binary for the distributed-crawl tests. Idempotent.
# Usage: bash .ci/redis-setup.sh ENV_FILE
# On success ENV_FILE holds one line, for `source`:
#   export BOILERPLATE_REDIS_SERVER=/usr/bin/redis-server
# Progress goes to stderr. Needs root (or passwordless sudo) for apt-get.
#
# No server is left running by this script: each test starts its own redis-server on a free
# port in a temporary directory. The daemon apt-get's post-install may start (where services
# start at all) gets no inherited descriptor but /dev/null and a log file, like the PostgreSQL
# server of pg-setup.sh: a daemon holding the caller's pipe open would keep `$(...)` or a CI log
# reader waiting for ever.
set -euo pipefail
env_file=${1:?usage: redis-setup.sh ENV_FILE}
rm -f "$env_file"
exec 1>&2

LOG=${TMPDIR:-/tmp}/boilerplate-redis-setup.log

# shellcheck source=.ci/detached.sh
source "$(dirname "$0")/detached.sh"

: >"$LOG"
binary=${BOILERPLATE_REDIS_SERVER:-$(command -v redis-server || true)}
if [ -z "$binary" ]; then
    detached as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive detached as_root apt-get install -y -qq redis-server
    binary=$(command -v redis-server)
fi
"$binary" --version

echo "export BOILERPLATE_REDIS_SERVER=$binary" >"$env_file"
