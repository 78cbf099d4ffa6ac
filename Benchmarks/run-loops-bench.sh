#!/usr/bin/env bash
# What a second event loop brings: one daemon with one event loop, and one daemon with a lane beside its main loop
# (`--event-loops 2`), each driven by one client of CONNECTIONS × DEPTH, against two daemons side by side (two loops
# that share nothing: the ceiling of a loop per core) driven by two clients of CONNECTIONS/2 × DEPTH each at the same
# time, and the C floor driven by one client of CONNECTIONS × DEPTH: ROUNDS rounds of the four in turn. Prints the
# medians, the ratios to one loop, and each as a share of the floor's median.
#
# Usage: Benchmarks/run-loops-bench.sh
# Environment: ROUNDS (5), SECONDS_PER_RUN (3), CONNECTIONS (4; even), DEPTH (64), MIX (dry-apns,dry-fcm),
#              BIN_DIR (release notifyd and notifyd-bench; built in SCRATCH (.build) when unset),
#              CONFIG (config/shop.yaml).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
ROUNDS="${ROUNDS:-5}"
RUN_SECONDS="${SECONDS_PER_RUN:-3}"
CONNECTIONS="${CONNECTIONS:-4}"
DEPTH="${DEPTH:-64}"
MIX="${MIX:-dry-apns,dry-fcm}"
SCRATCH="${SCRATCH:-$ROOT/.build}"
CONFIG="${CONFIG:-$ROOT/config/shop.yaml}"
source "$ROOT/Benchmarks/bench-servers.sh"
count ROUNDS "$ROUNDS"
count CONNECTIONS "$CONNECTIONS"
count DEPTH "$DEPTH"
if [ $((CONNECTIONS % 2)) -ne 0 ]; then
    echo "CONNECTIONS is even (each of the two daemons gets half), not $CONNECTIONS" >&2
    exit 2
fi
number SECONDS_PER_RUN "$RUN_SECONDS"

source "$ROOT/Benchmarks/release-binaries.sh"
bench_workdir notifyd-loops
release_binaries notifyd notifyd-bench
BENCH="$BIN_DIR/notifyd-bench"
cc -O2 -o "$WORK/echo-server" "$ROOT/Benchmarks/floor/echo-server.c"

start_daemon() {
    local name="$1" started
    shift
    mkdir -p "$WORK/$name/state"
    started=$(start_server "$WORK/$name/notifyd.sock" "$WORK/$name/notifyd.log" "$BIN_DIR/notifyd" \
        --config "$CONFIG" --socket "$WORK/$name/notifyd.sock" --state-dir "$WORK/$name/state" \
        --log-target console "$@") || exit 1
    echo "${started%% *}"
}
PID_1=$(start_daemon one)
PIDS+=("$PID_1")
PID_LANES=$(start_daemon lanes --event-loops 2)
PIDS+=("$PID_LANES")
PID_2=$(start_daemon two)
PIDS+=("$PID_2")
read -r FLOOR_PID _ < <(start_server "$WORK/floor.sock" "$WORK/floor.log" "$WORK/echo-server" "$WORK/floor.sock")
PIDS+=("$FLOOR_PID")

# run NAME SOCKET PID CONNECTIONS [OUT]: one client's run; its JSON figures to OUT (or stdout).
run() {
    local name="$1" socket="$2" pid="$3" connections="$4" line
    if ! line=$("$BENCH" daemon --socket "$socket" --pid "$pid" --json --seconds "$RUN_SECONDS" \
        --connections "$connections" --depth "$DEPTH" --mix "$MIX"); then
        echo "run $name failed: $line" >&2
        exit 1
    fi
    echo "$line"
}

half=$((CONNECTIONS / 2))
: >"$WORK/results"
for round in $(seq 1 "$ROUNDS"); do
    one=$(run one "$WORK/one/notifyd.sock" "$PID_1" "$CONNECTIONS")
    echo "round $round/$ROUNDS: one daemon $one" >&2
    echo "one $one" >>"$WORK/results"
    lanes=$(run lanes "$WORK/lanes/notifyd.sock" "$PID_LANES" "$CONNECTIONS")
    echo "round $round/$ROUNDS: one daemon, two loops $lanes" >&2
    echo "lanes $lanes" >>"$WORK/results"
    # The two clients start together; each writes its figures to a file of its own.
    run two-a "$WORK/one/notifyd.sock" "$PID_1" "$half" >"$WORK/two-a.json" &
    client_a=$!
    run two-b "$WORK/two/notifyd.sock" "$PID_2" "$half" >"$WORK/two-b.json" &
    client_b=$!
    wait "$client_a"
    wait "$client_b"
    echo "round $round/$ROUNDS: two daemons $(cat "$WORK/two-a.json") $(cat "$WORK/two-b.json")" >&2
    echo "two-a $(cat "$WORK/two-a.json")" >>"$WORK/results"
    echo "two-b $(cat "$WORK/two-b.json")" >>"$WORK/results"
    floor=$("$BENCH" daemon --socket "$WORK/floor.sock" --pid "$FLOOR_PID" --json --seconds "$RUN_SECONDS" \
        --connections "$CONNECTIONS" --depth "$DEPTH" --check frame) || {
        echo "floor run failed: $floor" >&2
        exit 1
    }
    echo "round $round/$ROUNDS: C floor $floor" >&2
    echo "floor $floor" >>"$WORK/results"
done

python3 - "$WORK/results" "$MIX" "$CONNECTIONS" "$DEPTH" "$ROUNDS" <<'EOF'
import json, statistics, sys
results, mix, connections, depth, rounds = sys.argv[1:]
runs = {"one": [], "lanes": [], "two-a": [], "two-b": [], "floor": []}
for line in open(results):
    name, text = line.split(" ", 1)
    runs[name].append(json.loads(text))
one = [r["requestsPerSecond"] for r in runs["one"]]
lanes = [r["requestsPerSecond"] for r in runs["lanes"]]
two = [a["requestsPerSecond"] + b["requestsPerSecond"] for a, b in zip(runs["two-a"], runs["two-b"])]
floors = [r["requestsPerSecond"] for r in runs["floor"]]
floor = statistics.median(floors)
def idle(rs):
    values = [r.get("hostIdlePercent") for r in rs if r.get("hostIdlePercent") is not None]
    return f"{statistics.median(values):.0f}" if values else "-"
def steal(rs):
    values = [r.get("hostStealPercent") for r in rs if r.get("hostStealPercent") is not None]
    return f"{statistics.median(values):.1f}" if values else "-"
half = int(connections) // 2
print(f"\nmix {mix}, {rounds} rounds: one daemon with a client of {connections} × {depth}, then one with two event "
      f"loops, then two daemons with a client of {half} × {depth} each at once, then the C floor; medians\n")
print(f"{'run':<32}{'req/s':>10}{'of the floor':>14}{'CPUs idle %':>13}{'steal %':>9}")
print(f"{'one daemon (one event loop)':<32}{statistics.median(one):>10.0f}{statistics.median(one) / floor:>14.1%}"
      f"{idle(runs['one']):>13}{steal(runs['one']):>9}")
print(f"{'one daemon, --event-loops 2':<32}{statistics.median(lanes):>10.0f}"
      f"{statistics.median(lanes) / floor:>14.1%}{idle(runs['lanes']):>13}{steal(runs['lanes']):>9}")
print(f"{'two daemons (two loops)':<32}{statistics.median(two):>10.0f}{statistics.median(two) / floor:>14.1%}"
      f"{idle(runs['two-a']):>13}{steal(runs['two-a']):>9}")
print(f"{'C floor, ' + connections + ' × ' + depth:<32}{floor:>10.0f}{1:>14.1%}"
      f"{idle(runs['floor']):>13}{steal(runs['floor']):>9}")
print(f"\ntwo event loops / one: {statistics.median(lanes) / statistics.median(one):.2f}×; "
      f"two daemons / one: {statistics.median(two) / statistics.median(one):.2f}×")
print(f"rounds: one {', '.join(f'{v / 1000:.1f} k' for v in one)}; two loops "
      f"{', '.join(f'{v / 1000:.1f} k' for v in lanes)}; two daemons {', '.join(f'{v / 1000:.1f} k' for v in two)}; "
      f"floor {', '.join(f'{v / 1e6:.2f} M' for v in floors)}")
errors = sum(r["errors"] for rs in runs.values() for r in rs)
print(f"errors: {errors}")
sys.exit(1 if errors else 0)
EOF
