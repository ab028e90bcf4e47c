#!/usr/bin/env bash
# Install (Debian package) a Java runtime for the Spark tests, if there is none. Idempotent.
# Usage: bash .ci/spark-setup.sh ENV_FILE
# On success ENV_FILE holds one line, for `source`:
#   export JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64
# Progress goes to stderr. Needs root (or passwordless sudo) for apt-get. pyspark itself is
# installed by .ci/run (the [spark] extra), into the CI virtualenv.
set -euo pipefail
env_file=${1:?usage: spark-setup.sh ENV_FILE}
rm -f "$env_file"
exec 1>&2

LOG=${TMPDIR:-/tmp}/boilerplate-spark-setup.log

# shellcheck source=.ci/detached.sh
source "$(dirname "$0")/detached.sh"

: >"$LOG"
if ! command -v java >/dev/null && [ -z "${JAVA_HOME:-}" ]; then
    detached as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive detached as_root apt-get install -y -qq openjdk-17-jre-headless
fi
java_home=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}
"$java_home/bin/java" -version

echo "export JAVA_HOME=$java_home" >"$env_file"
