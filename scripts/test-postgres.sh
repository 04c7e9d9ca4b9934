#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests of the server's PostgreSQL path.
#
#   test-postgres.sh start DIR   initdb into the empty directory DIR, start the server and
#                                print its connection URL (TEST_DATABASE_URL) on stdout
#   test-postgres.sh stop DIR    stop it and delete DIR
#   test-postgres.sh pause DIR   stop the server of DIR, keeping its data (a database outage)
#   test-postgres.sh resume DIR  start it again
#
# It never touches a system cluster: its own data directory, trust authentication, no TCP
# (a Unix socket in DIR/socket, so no port can clash) and fsync off. As root it runs as the
# postgres user of Debian's package (PostgreSQL refuses to run as root). Needs
# scripts/ensure-postgres.sh first.
set -euo pipefail

usage() {
  echo "usage: $0 start|stop|pause|resume DIR" >&2
  exit 2
}
[ $# -eq 2 ] || usage
action="$1"
dir="$2"
case "$dir" in /*) ;; *) dir="$PWD/$dir" ;; esac
marker="$dir/.ct-test-postgres"
database=ct_test

bin=""
for candidate in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
  if [ -x "$candidate/initdb" ] && [ -x "$candidate/pg_ctl" ]; then
    bin="$candidate"
    break
  fi
done

# Runs a PostgreSQL binary as the unprivileged owner of the data directory.
as_owner() {
  if [ "$(id -u)" = "0" ]; then
    (cd / && runuser -u postgres -- "$@")
  else
    (cd / && "$@")
  fi
}

fail() {
  echo "test-postgres: $1" >&2
  for log in "$dir/initdb.log" "$dir/server.log"; do
    if [ -s "$log" ]; then
      echo "--- $log" >&2
      tail -n 20 "$log" >&2
    fi
  done
  exit 1
}

case "$action" in
  start)
    [ -n "$bin" ] || fail "PostgreSQL is not installed (run scripts/ensure-postgres.sh)."
    mkdir -p "$dir"
    [ -z "$(ls -A "$dir")" ] || fail "$dir is not empty."
    touch "$marker"
    mkdir -m 700 "$dir/data" "$dir/socket"
    if [ "$(id -u)" = "0" ]; then
      chown -R postgres: "$dir"
      runuser -u postgres -- test -w "$dir/socket" ||
        fail "the postgres user cannot reach $dir (set TMPDIR to a directory it can enter)."
    fi
    as_owner "$bin/initdb" --pgdata="$dir/data" --username=postgres --auth=trust \
      --encoding=UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1 ||
      fail "initdb failed."
    cat >>"$dir/data/postgresql.conf" <<EOF

# throwaway test server (scripts/test-postgres.sh)
listen_addresses = ''
unix_socket_directories = '$dir/socket'
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
    as_owner "$bin/pg_ctl" --pgdata="$dir/data" --log="$dir/server.log" --wait --timeout=30 \
      start >/dev/null || fail "the server did not start."
    as_owner "$bin/createdb" --host="$dir/socket" --username=postgres "$database" ||
      fail "createdb failed."
    echo "postgresql://postgres@/$database?host=$dir/socket"
    ;;
  stop)
    [ -d "$dir" ] || exit 0
    # never delete a directory this script did not make
    [ -f "$marker" ] || fail "$dir was not made by $0; not touching it."
    if [ -n "$bin" ] && [ -f "$dir/data/postmaster.pid" ]; then
      as_owner "$bin/pg_ctl" --pgdata="$dir/data" --mode=immediate --wait stop >/dev/null ||
        echo "test-postgres: pg_ctl stop failed" >&2
    fi
    rm -rf "$dir"
    ;;
  pause)
    [ -f "$marker" ] || fail "$dir was not made by $0; not touching it."
    as_owner "$bin/pg_ctl" --pgdata="$dir/data" --mode=fast --wait stop >/dev/null ||
      fail "the server did not stop."
    ;;
  resume)
    [ -f "$marker" ] || fail "$dir was not made by $0; not touching it."
    as_owner "$bin/pg_ctl" --pgdata="$dir/data" --log="$dir/server.log" --wait --timeout=30 \
      start >/dev/null || fail "the server did not start."
    ;;
  *) usage ;;
esac
