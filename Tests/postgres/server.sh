#!/usr/bin/env bash
# A private PostgreSQL for the tests and for trying replicas by hand: a cluster of its own in a temporary directory,
# owned by the unprivileged `postgres` user (initdb and postgres refuse to run as root), listening on a Unix socket
# inside that directory only (no TCP port, so it neither needs nor disturbs a system cluster).
#
#   Tests/postgres/server.sh start DIR   creates the cluster in DIR if it is new, starts it, waits until it accepts,
#                                        and prints the libpq connection string of its `notifyd` database
#   Tests/postgres/server.sh stop DIR    stops it (fast shutdown) and leaves DIR
#   Tests/postgres/server.sh restart DIR stops it and starts it again on the same data (for fault tests)
#   Tests/postgres/server.sh kill DIR    stops it at once (immediate shutdown: crash recovery on the next start)
#
# The postgres user must be able to reach DIR: create it under /tmp or /var/tmp, not under /root.
set -euo pipefail
command=${1:-}
dir=${2:-}
[ -n "$command" ] && [ -n "$dir" ] || { echo "usage: $0 start|stop|restart|kill DIR" >&2; exit 2; }
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$bin/initdb" ] || { echo "PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }
as_postgres() { runuser -u postgres -- "$@"; }
data=$dir/data
socket_dir=$dir/socket
log=$dir/server.log

start() {
    mkdir -p "$dir"
    chown postgres: "$dir"
    chmod 700 "$dir"
    if [ ! -s "$data/PG_VERSION" ]; then
        as_postgres "$bin/initdb" --pgdata="$data" --username=postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 \
            >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
        as_postgres mkdir -p "$socket_dir"
        cat >>"$data/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$socket_dir'
max_connections = 100
fsync = on
CONF
    fi
    as_postgres "$bin/pg_ctl" --pgdata="$data" --log="$log" --wait --timeout=60 start >/dev/null \
        || { cat "$log" >&2; exit 1; }
    if ! as_postgres "$bin/psql" -h "$socket_dir" -d postgres -tAc "select 1 from pg_database where datname='notifyd'" \
        | grep -q 1; then
        as_postgres "$bin/createdb" -h "$socket_dir" notifyd
    fi
    # Tests run as root: the database's owner is postgres, and the connection names that user.
    echo "host=$socket_dir dbname=notifyd user=postgres"
}

stop() {
    [ -s "$data/postmaster.pid" ] || return 0
    as_postgres "$bin/pg_ctl" --pgdata="$data" --mode="${1:-fast}" --wait --timeout=60 stop >/dev/null
}

case "$command" in
start) start ;;
stop) stop fast ;;
kill) stop immediate ;;
restart) stop fast; start >/dev/null ;;
*) echo "usage: $0 start|stop|restart|kill DIR" >&2; exit 2 ;;
esac
