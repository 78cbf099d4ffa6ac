#!/usr/bin/env bash
# Durable decisions a second on each store, in one run: notifyd on SQLite (a state directory), one replica on
# PostgreSQL, and two replicas sharing that PostgreSQL (each driven by a client of its own, on devices of its own, at
# the same time). Every request is a stored Route (`--mix stateful`): its reply goes out once its batch is
# committed. ROUNDS rounds of the three in turn; prints each one's median decisions/s, the CPU it took per decision
# (notifyd's, and PostgreSQL's: every process of the postgres user, from /proc), and the ratios the issue set as
# targets: one replica on PostgreSQL against SQLite (≥ 40%), two replicas against one (≥ 1.3×).
#
# Usage: Benchmarks/run-replicas-bench.sh
# Environment: ROUNDS (3), SECONDS_PER_RUN (5), CONNECTIONS (4 per client), DEPTH (64), DEVICES (10000 per client),
#              BIN_DIR (release notifyd and notifyd-bench; built in SCRATCH (.build) when unset),
#              CONFIG (config/shop.yaml), PG_SETTINGS (lines added to the server's postgresql.conf). PostgreSQL is
#              a private server (Tests/postgres/server.sh) under the work directory, with fsync on.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
ROUNDS="${ROUNDS:-3}"
RUN_SECONDS="${SECONDS_PER_RUN:-5}"
CONNECTIONS="${CONNECTIONS:-4}"
DEPTH="${DEPTH:-64}"
DEVICES="${DEVICES:-10000}"
SCRATCH="${SCRATCH:-$ROOT/.build}"
CONFIG="${CONFIG:-$ROOT/config/shop.yaml}"
source "$ROOT/Benchmarks/bench-servers.sh"
count ROUNDS "$ROUNDS"
count CONNECTIONS "$CONNECTIONS"
count DEPTH "$DEPTH"
count DEVICES "$DEVICES"
number SECONDS_PER_RUN "$RUN_SECONDS"

source "$ROOT/Benchmarks/release-binaries.sh"
bench_workdir notifyd-replicas
release_binaries notifyd notifyd-bench
BENCH="$BIN_DIR/notifyd-bench"
chmod 755 "$WORK"
PG="$WORK/pg"
STORE=$(bash "$ROOT/Tests/postgres/server.sh" start "$PG")
if [ -n "${PG_SETTINGS:-}" ]; then
    # Settings of the server for this run only, e.g. PG_SETTINGS='fsync = off' to see what the flush costs.
    printf '%s\n' "$PG_SETTINGS" >>"$PG/data/postgresql.conf"
    bash "$ROOT/Tests/postgres/server.sh" restart "$PG"
fi
# The daemons stop first, then the server (its data is in WORK, which bench_cleanup removes).
stop_postgres() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    PIDS=()
    bash "$ROOT/Tests/postgres/server.sh" stop "$PG" || true
    bench_cleanup
}
trap stop_postgres EXIT

start_daemon() {
    local name="$1" started
    shift
    mkdir -p "$WORK/$name"
    started=$(start_server "$WORK/$name/notifyd.sock" "$WORK/$name/notifyd.log" "$BIN_DIR/notifyd" \
        --config "$CONFIG" --socket "$WORK/$name/notifyd.sock" --log-target console "$@") || exit 1
    echo "${started%% *}"
}
mkdir -p "$WORK/sqlite/state"
PID_SQLITE=$(start_daemon sqlite --state-dir "$WORK/sqlite/state")
PIDS+=("$PID_SQLITE")
PID_A=$(start_daemon pg-a --store "$STORE")
PIDS+=("$PID_A")
PID_B=$(start_daemon pg-b --store "$STORE")
PIDS+=("$PID_B")

# CPU seconds of every process of the postgres user so far (utime + stime of /proc/PID/stat).
postgres_cpu() {
    local ticks
    ticks=$(getconf CLK_TCK)
    for pid in $(pgrep -u postgres || true); do
        [ -r "/proc/$pid/stat" ] && sed 's/^.*) //' "/proc/$pid/stat" 2>/dev/null | awk '{print $12 + $13}'
    done | awk -v t="$ticks" '{s += $1} END {printf "%.3f", s / t}'
}

# since SECONDS: PostgreSQL's CPU seconds since `postgres_cpu` said SECONDS.
since() {
    awk -v now="$(postgres_cpu)" -v then="$1" 'BEGIN {printf "%.3f", now - then}'
}

# run NAME SOCKET PID FIRST-DEVICE: one client's run, its JSON figures on stdout.
run() {
    local name="$1" socket="$2" pid="$3" first="$4" line
    if ! line=$("$BENCH" daemon --socket "$socket" --pid "$pid" --json --seconds "$RUN_SECONDS" \
        --connections "$CONNECTIONS" --depth "$DEPTH" --mix stateful --devices "$DEVICES" --first-device "$first"); then
        echo "run $name failed: $line" >&2
        exit 1
    fi
    echo "$line"
}

: >"$WORK/results"
for round in $(seq 1 "$ROUNDS"); do
    sqlite=$(run sqlite "$WORK/sqlite/notifyd.sock" "$PID_SQLITE" 0)
    echo "sqlite $sqlite 0" >>"$WORK/results"
    echo "round $round/$ROUNDS: SQLite $sqlite" >&2
    before=$(postgres_cpu)
    one=$(run pg-one "$WORK/pg-a/notifyd.sock" "$PID_A" 0)
    echo "one $one $(since "$before")" >>"$WORK/results"
    echo "round $round/$ROUNDS: PostgreSQL, one replica $one" >&2
    before=$(postgres_cpu)
    run pg-two-a "$WORK/pg-a/notifyd.sock" "$PID_A" 0 >"$WORK/two-a.json" &
    client_a=$!
    run pg-two-b "$WORK/pg-b/notifyd.sock" "$PID_B" "$DEVICES" >"$WORK/two-b.json" &
    client_b=$!
    wait "$client_a" "$client_b"
    echo "two $(cat "$WORK/two-a.json") $(cat "$WORK/two-b.json") $(since "$before")" \
        >>"$WORK/results"
    echo "round $round/$ROUNDS: PostgreSQL, two replicas $(cat "$WORK/two-a.json") $(cat "$WORK/two-b.json")" >&2
done

python3 - "$WORK/results" "$(nproc)" <<'EOF'
import json, statistics, sys

runs = {"sqlite": [], "one": [], "two": []}
decoder = json.JSONDecoder()
for line in open(sys.argv[1]):
    kind, rest = line.split(" ", 1)
    figures, text = [], rest.strip()
    while text.startswith("{"):
        value, end = decoder.raw_decode(text)
        figures.append(value)
        text = text[end:].strip()
    postgres_cpu = float(text or 0)
    rate = sum(f["requestsPerSecond"] for f in figures)
    replies = sum(f["replies"] for f in figures)
    notifyd_cpu = sum(f.get("serverCPUSeconds") or 0 for f in figures)
    runs[kind].append((rate, notifyd_cpu / replies * 1e6, postgres_cpu / replies * 1e6))

names = {"sqlite": "SQLite, one notifyd", "one": "PostgreSQL, one replica", "two": "PostgreSQL, two replicas"}
medians = {}
print(f"durable decisions/s (stored Route, median of {len(runs['sqlite'])} rounds; {sys.argv[2]} CPUs)")
print(f"  {'':26} {'decisions/s':>12} {'notifyd µs CPU':>15} {'PostgreSQL µs CPU':>18}   (per decision)")
for kind in ("sqlite", "one", "two"):
    rate = statistics.median(r[0] for r in runs[kind])
    medians[kind] = rate
    own = statistics.median(r[1] for r in runs[kind])
    pg = statistics.median(r[2] for r in runs[kind])
    print(f"  {names[kind]:26} {rate:12,.0f} {own:15.1f} {pg if kind != 'sqlite' else 0:18.1f}")
one_share = medians["one"] / medians["sqlite"]
two_ratio = medians["two"] / medians["one"]
print(f"  one replica / SQLite   {one_share:6.1%}  (target ≥ 40%: {'met' if one_share >= 0.4 else 'MISSED'})")
print(f"  two replicas / one     {two_ratio:6.2f}× (target ≥ 1.3×: {'met' if two_ratio >= 1.3 else 'MISSED'})")
EOF
