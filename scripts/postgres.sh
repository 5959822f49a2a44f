#!/usr/bin/env bash
#! A throwaway PostgreSQL for the tests, on 127.0.0.1 only. Idempotent: installs the Debian
#! package only if no PostgreSQL is installed, creates the cluster only once, starts it only if
#! it is not running.
#!
#!   scripts/postgres.sh          start (if needed); last stdout line: DATABASE_URL_POSTGRES=...
#!   scripts/postgres.sh stop     stop it
#!   scripts/postgres.sh status   say whether it runs
#!
#! Use: eval "$(scripts/postgres.sh)" && export TEST_DATABASE_URL_POSTGRES="$DATABASE_URL_POSTGRES"
#! Settings: PG_TEST_DIR (default target/pg, or /tmp/checkout-test-pg when the postgres user
#! cannot reach target/), PG_TEST_PORT (default 54329; the next free port is used if taken).
#!
#! The cluster runs with synchronous_commit=off: a commit survives a crash of PostgreSQL itself
#! but not a power loss (the last few hundred milliseconds may go). That is the same promise
#! the SQLite store makes (WAL, synchronous=NORMAL), so benchmarks compare like with like; a
#! production cluster keeps the default (on) and pays one WAL flush per commit.
set -euo pipefail
cd "$(dirname "$0")/.."

ROLE=checkout_test
DATABASE=checkout_test
PASSWORD=checkout_test

say() { printf 'postgres.sh: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

# The newest installed server's bin directory, installing the Debian package if there is none.
find_bin() {
    local dir
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    if [[ -z "$dir" || ! -x "$dir/initdb" ]]; then
        [[ $EUID -eq 0 ]] || die "PostgreSQL is not installed and installing it needs root"
        say "installing PostgreSQL (apt-get install postgresql)"
        if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2; then
            apt-get update -q >&2
            DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2
        fi
        dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
        [[ -n "$dir" && -x "$dir/initdb" ]] || die "no initdb after installing postgresql"
    fi
    printf '%s\n' "$dir"
}

# Runs a command as the cluster's owner: `postgres` when we are root (initdb refuses root).
as_owner() {
    if [[ $EUID -eq 0 ]]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

pick_dir() {
    if [[ -n "${PG_TEST_DIR:-}" ]]; then
        printf '%s\n' "$PG_TEST_DIR"
        return
    fi
    mkdir -p target
    if [[ $EUID -ne 0 ]] || runuser -u postgres -- test -x "$PWD/target"; then
        printf '%s\n' "$PWD/target/pg"
    else
        printf '%s\n' "${TMPDIR:-/tmp}/checkout-test-pg"
    fi
}

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

DIR=$(pick_dir)
DATA="$DIR/data"
PORT_FILE="$DIR/port"

running() {
    [[ -f "$DATA/postmaster.pid" ]] && as_owner "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1
}

start() {
    if [[ ! -f "$DATA/PG_VERSION" ]]; then
        say "creating a cluster in $DATA"
        mkdir -p "$DATA"
        [[ $EUID -eq 0 ]] && chown -R postgres: "$DIR"
        chmod 700 "$DATA"
        as_owner "$BIN/initdb" -D "$DATA" --auth-local=trust --auth-host=scram-sha-256 \
            --encoding=UTF8 --locale=C.UTF-8 >"$DIR/initdb.log" 2>&1 \
            || { cat "$DIR/initdb.log" >&2; die "initdb failed"; }
    fi
    if running; then
        PORT=$(cat "$PORT_FILE")
    else
        PORT=${PG_TEST_PORT:-54329}
        local last=$((PORT + 20))
        while port_in_use "$PORT"; do
            PORT=$((PORT + 1))
            [[ $PORT -le $last ]] || die "no free port near ${PG_TEST_PORT:-54329}"
        done
        say "starting on 127.0.0.1:$PORT"
        as_owner "$BIN/pg_ctl" -D "$DATA" -l "$DIR/server.log" -w -t 60 start \
            -o "-c listen_addresses=127.0.0.1 -p $PORT -k $DIR -c synchronous_commit=off" >&2 \
            || { tail -n 20 "$DIR/server.log" >&2; die "pg_ctl start failed"; }
        as_owner sh -c "printf '%s\n' $PORT > '$PORT_FILE'"
    fi
    local psql=(as_owner "$BIN/psql" -h "$DIR" -p "$PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 -qtA)
    if [[ -z "$("${psql[@]}" -c "SELECT 1 FROM pg_roles WHERE rolname = '$ROLE'")" ]]; then
        "${psql[@]}" -c "CREATE ROLE $ROLE LOGIN PASSWORD '$PASSWORD'"
    fi
    if [[ -z "$("${psql[@]}" -c "SELECT 1 FROM pg_database WHERE datname = '$DATABASE'")" ]]; then
        "${psql[@]}" -c "CREATE DATABASE $DATABASE OWNER $ROLE"
    fi
    printf 'DATABASE_URL_POSTGRES=postgres://%s:%s@127.0.0.1:%s/%s\n' \
        "$ROLE" "$PASSWORD" "$PORT" "$DATABASE"
}

stop() {
    if running; then
        as_owner "$BIN/pg_ctl" -D "$DATA" -m fast -w stop >&2
        say "stopped"
    else
        say "not running"
    fi
}

BIN=$(find_bin)
case "${1:-start}" in
    start) start ;;
    stop) stop ;;
    status) if running; then say "running on port $(cat "$PORT_FILE")"; else say "not running"; exit 3; fi ;;
    *) die "usage: $0 [start|stop|status]" ;;
esac
