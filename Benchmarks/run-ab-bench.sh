#!/usr/bin/env bash
# Two builds of notifyd side by side: both daemons run at once (shop.yaml, state on temporary directories) and the
# same client drives them in turn, ROUNDS pairs of runs (A then B, then B then A, and so on); prints each build's
# medians and how many of the pairs B won. On a shared machine this is the fair comparison: a change of a few percent hides in the minutes
# between two separate runs of run-daemon-bench.sh, not in the seconds between the two runs of a pair.
#
# Usage: Benchmarks/run-ab-bench.sh DIR_A DIR_B
#   DIR_A, DIR_B: directories holding a notifyd binary each (e.g. a worktree's .build/release).
# Environment: MIX (dry-apns,dry-fcm; any of notifyd-bench's mixes), ROUNDS (7), SECONDS_PER_RUN (2),
#              CONNECTIONS (4), DEPTH (64), DEVICES (10000, for the stateful mix), PREFILL (0: seconds of
#              stateful load on each daemon before counting, so that the device states are cached and stored),
#              BENCH (DIR_B's notifyd-bench: the client for both), CONFIG (config/shop.yaml),
#              EVENT_LOOPS (1: both daemons' --event-loops),
#              MAX_STEAL (unset; a percentage: a pair in which either run lost more of the CPUs' time to the
#              hypervisor is run again, up to STEAL_ATTEMPTS (5) times in all; the last one is kept).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
if [ $# -ne 2 ]; then
    echo "usage: $0 DIR_A DIR_B (directories holding the notifyd binaries to compare)" >&2
    exit 2
fi
DIR_A="$(cd "$1" && pwd)"
DIR_B="$(cd "$2" && pwd)"
for dir in "$DIR_A" "$DIR_B"; do
    if [ ! -x "$dir/notifyd" ]; then
        echo "no notifyd binary in $dir" >&2
        exit 2
    fi
done
MIX="${MIX:-dry-apns,dry-fcm}"
ROUNDS="${ROUNDS:-7}"
RUN_SECONDS="${SECONDS_PER_RUN:-2}"
CONNECTIONS="${CONNECTIONS:-4}"
DEPTH="${DEPTH:-64}"
DEVICES="${DEVICES:-10000}"
PREFILL="${PREFILL:-0}"
BENCH="${BENCH:-$DIR_B/notifyd-bench}"
CONFIG="${CONFIG:-$ROOT/config/shop.yaml}"
EVENT_LOOPS="${EVENT_LOOPS:-1}"
MAX_STEAL="${MAX_STEAL:-}"
STEAL_ATTEMPTS="${STEAL_ATTEMPTS:-5}"
source "$ROOT/Benchmarks/bench-servers.sh"
count ROUNDS "$ROUNDS"
count CONNECTIONS "$CONNECTIONS"
count DEPTH "$DEPTH"
count DEVICES "$DEVICES"
count STEAL_ATTEMPTS "$STEAL_ATTEMPTS"
count EVENT_LOOPS "$EVENT_LOOPS"
number SECONDS_PER_RUN "$RUN_SECONDS"
number PREFILL "$PREFILL"
[ -z "$MAX_STEAL" ] || number MAX_STEAL "$MAX_STEAL"
if [ ! -x "$BENCH" ]; then
    echo "no notifyd-bench at $BENCH (set BENCH)" >&2
    exit 2
fi

bench_workdir notifyd-ab

# Starts build NAME's daemon from DIR and waits until its socket accepts; prints its pid.
start_daemon() {
    local name="$1" dir="$2" started
    mkdir -p "$WORK/$name/state"
    started=$(start_server "$WORK/$name/notifyd.sock" "$WORK/$name/notifyd.log" "$dir/notifyd" --config "$CONFIG" \
        --socket "$WORK/$name/notifyd.sock" --state-dir "$WORK/$name/state" --log-target console \
        --event-loops "$EVENT_LOOPS") || exit 1
    echo "${started%% *}"
}

PID_A=$(start_daemon A "$DIR_A")
PIDS+=("$PID_A")
PID_B=$(start_daemon B "$DIR_B")
PIDS+=("$PID_B")

load=(--connections "$CONNECTIONS" --depth "$DEPTH" --mix "$MIX" --devices "$DEVICES")
if [ "$PREFILL" != 0 ]; then
    for name in A B; do
        echo "prefill $name: ${PREFILL} s of stateful load" >&2
        "$BENCH" daemon --socket "$WORK/$name/notifyd.sock" --connections "$CONNECTIONS" --depth "$DEPTH" \
            --mix stateful --devices "$DEVICES" --seconds "$PREFILL" >/dev/null
    done
fi

# One run against build NAME (of round `round`); prints its JSON figures, and reports them on stderr as it ends.
run() {
    local name="$1" pid="$2" line
    if ! line=$("$BENCH" daemon --socket "$WORK/$name/notifyd.sock" --pid "$pid" --json --seconds "$RUN_SECONDS" \
        "${load[@]}"); then
        echo "run of build $name failed: $line" >&2
        exit 1
    fi
    echo "round $round/$ROUNDS: $name $line" >&2
    echo "$line"
}
: >"$WORK/results"
for round in $(seq 1 "$ROUNDS"); do
    attempt=1
    while true; do
        # The order alternates from one round to the next, so that neither build always runs on the other's heels.
        if [ $((round % 2)) -eq 1 ]; then
            a=$(run A "$PID_A")
            b=$(run B "$PID_B")
        else
            b=$(run B "$PID_B")
            a=$(run A "$PID_A")
        fi
        [ -n "$MAX_STEAL" ] && [ "$attempt" -lt "$STEAL_ATTEMPTS" ] || break
        steal_over "$a" "$MAX_STEAL" || steal_over "$b" "$MAX_STEAL" || break
        echo "round $round/$ROUNDS: run again, more than $MAX_STEAL% of the CPUs' time stolen" >&2
        attempt=$((attempt + 1))
    done
    echo "A $a" >>"$WORK/results"
    echo "B $b" >>"$WORK/results"
done

python3 - "$WORK/results" "$DIR_A" "$DIR_B" "$MIX" "$CONNECTIONS" "$DEPTH" "$ROOT/Benchmarks" <<'EOF'
import json, statistics, sys
results, dir_a, dir_b, mix, connections, depth, here = sys.argv[1:]
sys.path.insert(0, here)
from median_interval import median_interval, side_of
runs = {"A": [], "B": []}
for line in open(results):
    name, text = line.split(" ", 1)
    runs[name].append(json.loads(text))
def med(name, f):
    values = [v for v in (f(r) for r in runs[name]) if v is not None]
    return statistics.median(values) if values else float("nan")
def cpu(r):
    return None if r["serverCPUSeconds"] is None else r["serverCPUSeconds"] * 1e6 / max(1, r["replies"])
print(f"\nA: {dir_a}\nB: {dir_b}\nmix {mix}, {connections} connections × depth {depth}, "
      f"{len(runs['A'])} pairs of runs (A first in odd pairs, B first in even ones), medians\n")
print(f"{'build':<7}{'req/s':>10}{'p50 µs':>10}{'p90 µs':>10}{'srv µs cpu/req':>16}{'steal %':>9}{'errors':>8}")
for name in "AB":
    errors = sum(r["errors"] for r in runs[name])
    print(f"{name:<7}{med(name, lambda r: r['requestsPerSecond']):>10.0f}{med(name, lambda r: r['p50']):>10.1f}"
          f"{med(name, lambda r: r['p90']):>10.1f}{med(name, cpu):>16.1f}"
          f"{med(name, lambda r: r.get('hostStealPercent')):>9.0f}{errors:>8}")
wins = sum(b["requestsPerSecond"] > a["requestsPerSecond"] for a, b in zip(runs["A"], runs["B"]))
ratio = med("B", lambda r: r["requestsPerSecond"]) / med("A", lambda r: r["requestsPerSecond"])
print(f"\nB / A throughput: {ratio:.3f}×; B ahead in {wins} of {len(runs['A'])} pairs")
# Each pair's own ratio, and how far their median can be trusted: two runs of one build (A = B) differ by a tenth
# from one 12-pair run to the next on a shared host, so a difference inside the interval is not one.
ratios = [b["requestsPerSecond"] / a["requestsPerSecond"] for a, b in zip(runs["A"], runs["B"])]
interval = median_interval(ratios)
if interval:
    low, high, coverage = interval
    told = {"above": "B faster", "below": "A faster", "holds": "not told apart"}[side_of(interval, 1)]
    print(f"pairs' B / A: median {statistics.median(ratios):.3f}×, {coverage:.0%} interval {low:.3f}–{high:.3f}×: {told}")
else:
    print(f"pairs' B / A: median {statistics.median(ratios):.3f}×; an interval needs 6 pairs or more")
if any(r["errors"] for name in runs for r in runs[name]):
    sys.exit(1)
EOF
