#!/usr/bin/env bash
# The server's PostgreSQL path (DATABASE_URL) is tested against a real PostgreSQL server
# (scripts/test-postgres.sh). Install Debian's postgresql package when its binaries are
# missing (as root through apt-get), then print the version.
set -euo pipefail

find_bin() {
  local dir
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ] && [ -x "$dir/postgres" ]; then
      echo "$dir"
      return 0
    fi
  done
  return 1
}

if ! find_bin >/dev/null; then
  if [ "$(id -u)" != "0" ]; then
    echo "PostgreSQL is missing (no initdb/pg_ctl under /usr/lib/postgresql/*/bin)." \
      "Install Debian's package: sudo apt-get install -y postgresql" >&2
    exit 1
  fi
  echo "Installing Debian's postgresql package…"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq postgresql >/dev/null
  find_bin >/dev/null || {
    echo "postgresql is installed but initdb/pg_ctl are not under /usr/lib/postgresql/*/bin." >&2
    exit 1
  }
fi

# PostgreSQL refuses to run as root: the tests' server runs as the package's postgres user.
if [ "$(id -u)" = "0" ]; then
  id postgres >/dev/null 2>&1 || {
    echo "The postgres user is missing (it comes with Debian's postgresql-common)." >&2
    exit 1
  }
  command -v runuser >/dev/null 2>&1 || {
    echo "runuser is missing (Debian package util-linux)." >&2
    exit 1
  }
fi
"$(find_bin)/postgres" --version
