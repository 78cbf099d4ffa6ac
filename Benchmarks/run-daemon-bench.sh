#!/usr/bin/env bash
# notifyd against the floor: a minimal C server with the same transport and framing.
#
# Builds release notifyd and notifyd-bench and the floor (cc -O2), starts the floor and notifyd (shop.yaml,
# state on a temporary directory), runs the same client against each, alternating, ROUNDS times, and prints
# the medians and the ratios notifyd / floor. A target's verdict comes from each round's own ratio (its notifyd run
# over the floor's run just before it): their median, and with 6 rounds or more the interval around it, which says
# "met" or "MISSED" only when it lies on one side of the target. Bounded: about 15 s a round. Loopback Unix sockets
# only.
#
# Usage: Benchmarks/run-daemon-bench.sh
# Environment: ROUNDS (3), SECONDS_PER_RUN (3), SCRATCH (.build: the swift build scratch path),
#              BIN_DIR (use these release binaries instead of building), CONFIG (config/shop.yaml),
#              EVENT_LOOPS (notifyd's --event-loops: 2, as the shipped unit runs it, on a machine of two CPUs or more,
#              else 1; 2 adds a lane that answers device-less dry runs),
#              LOG_TARGET (console: notifyd's journal entries as console lines; journal: to a running journald,
#              as in production, whose work then shares the cores),
#              RTT_CPUS (unset: the scheduler places the round-trip runs; "split": each server on the first CPU
#              and the client on the second for those runs, so that every wake-up crosses CPUs; "same": all on
#              the first CPU). On a VM a wake-up on an idle CPU costs several µs, and where the scheduler puts
#              the client and notifyd's event loop moves the round trip's p50 by half.
#              MAX_STEAL (unset: keep every run; a percentage: run again, up to STEAL_ATTEMPTS (5) times in all,
#              a run that lost more of the CPUs' time to the hypervisor, so that the medians compare runs of a
#              quiet host; a VM's steal moves throughput by half from one minute to the next).
# The journal entries notifyd dropped in its runs (its journal queue full) are counted from GetStats, and the
# share of the CPUs' time the hypervisor took in each run (steal, from /proc/stat) is printed beside its figures.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
ROUNDS="${ROUNDS:-3}"
RUN_SECONDS="${SECONDS_PER_RUN:-3}"
SCRATCH="${SCRATCH:-$ROOT/.build}"
CONFIG="${CONFIG:-$ROOT/config/shop.yaml}"
LOG_TARGET="${LOG_TARGET:-console}"
if [ "$(nproc)" -ge 2 ]; then EVENT_LOOPS="${EVENT_LOOPS:-2}"; else EVENT_LOOPS="${EVENT_LOOPS:-1}"; fi
RTT_CPUS="${RTT_CPUS:-}"
MAX_STEAL="${MAX_STEAL:-}"
STEAL_ATTEMPTS="${STEAL_ATTEMPTS:-5}"
if [ -n "$MAX_STEAL" ] && ! [[ "$MAX_STEAL" =~ ^[0-9]+([.][0-9]+)?$ ]]; then
    echo "MAX_STEAL is a percentage (e.g. 10), not '$MAX_STEAL'" >&2
    exit 2
fi
if ! [[ "$STEAL_ATTEMPTS" =~ ^[1-9][0-9]*$ ]]; then
    echo "STEAL_ATTEMPTS is a count of runs (1 or more), not '$STEAL_ATTEMPTS'" >&2
    exit 2
fi
case "$RTT_CPUS" in
"" | split | same) ;;
*)
    echo "RTT_CPUS is split or same, not '$RTT_CPUS'" >&2
    exit 2
    ;;
esac
if [ -n "$RTT_CPUS" ] && [ "$(nproc)" -lt 2 ]; then
    echo "RTT_CPUS needs two CPUs" >&2
    exit 2
fi
case "$LOG_TARGET" in
console) ;;
journal)
    if [ ! -S /run/systemd/journal/socket ]; then
        echo "LOG_TARGET=journal: no journald listens on /run/systemd/journal/socket (start one first, e.g." \
            "/lib/systemd/systemd-journald as root)" >&2
        exit 2
    fi
    ;;
*)
    echo "LOG_TARGET is console or journal, not '$LOG_TARGET'" >&2
    exit 2
    ;;
esac

source "$ROOT/Benchmarks/release-binaries.sh"
source "$ROOT/Benchmarks/bench-servers.sh"
count EVENT_LOOPS "$EVENT_LOOPS"
bench_workdir notifyd-bench
release_binaries notifyd notifyd-bench
cc -O2 -o "$WORK/echo-server" "$ROOT/Benchmarks/floor/echo-server.c"
BENCH="$BIN_DIR/notifyd-bench"

read -r FLOOR_PID FLOOR_READY < <(start_server "$WORK/floor.sock" "$WORK/floor.log" "$WORK/echo-server" "$WORK/floor.sock")
PIDS+=("$FLOOR_PID")
mkdir -p "$WORK/state"
read -r DAEMON_PID DAEMON_READY < <(start_server "$WORK/notifyd.sock" "$WORK/notifyd.log" \
    "$BIN_DIR/notifyd" --config "$CONFIG" --socket "$WORK/notifyd.sock" --state-dir "$WORK/state" \
    --log-target "$LOG_TARGET" --event-loops "$EVENT_LOOPS")
PIDS+=("$DAEMON_PID")
DAEMON_RSS_READY=$(awk '/^VmRSS:/ { print $2 * 1024 }' "/proc/$DAEMON_PID/status")

# One run: NAME SOCKET PID ARGUMENTS…; appends its JSON figures to results. With MAX_STEAL, a run that lost more
# of the CPUs' time to the hypervisor is run again (up to STEAL_ATTEMPTS times in all; the last one is kept).
run() {
    local name="$1" socket="$2" pid="$3"
    shift 3
    local line attempt=1
    while true; do
        if ! line=$("${CLIENT_CPU[@]}" "$BENCH" daemon --socket "$socket" --pid "$pid" --json "$@"); then
            echo "run $name failed: $line" >&2
            exit 1
        fi
        [ -n "$MAX_STEAL" ] && [ "$attempt" -lt "$STEAL_ATTEMPTS" ] || break
        steal_over "$line" "$MAX_STEAL" || break
        echo "  $name: run again, more than $MAX_STEAL% of the CPUs' time stolen: $line" >&2
        echo "$name" >>"$WORK/rerun"
        attempt=$((attempt + 1))
    done
    echo "$name $line" >>"$WORK/results"
    echo "  $name: $line" >&2
}

# With RTT_CPUS, the round-trip runs pin every thread of the servers and the client; the other runs do not.
CLIENT_CPU=()
pin_round_trips() {
    case "$RTT_CPUS" in
    split) CLIENT_CPU=(taskset -c 1) ;;
    same) CLIENT_CPU=(taskset -c 0) ;;
    *) return ;;
    esac
    taskset -a -p -c 0 "$FLOOR_PID" >/dev/null
    taskset -a -p -c 0 "$DAEMON_PID" >/dev/null
}
unpin() {
    [ -n "$RTT_CPUS" ] || return 0
    CLIENT_CPU=()
    taskset -a -p -c "0-$(($(nproc) - 1))" "$FLOOR_PID" >/dev/null
    taskset -a -p -c "0-$(($(nproc) - 1))" "$DAEMON_PID" >/dev/null
}

for round in $(seq 1 "$ROUNDS"); do
    echo "round $round/$ROUNDS" >&2
    pin_round_trips
    run floor-rtt "$WORK/floor.sock" "$FLOOR_PID" --connections 1 --depth 1 --seconds 1 --check frame
    run notifyd-rtt "$WORK/notifyd.sock" "$DAEMON_PID" --connections 1 --depth 1 --seconds 1 --mix dry-apns
    unpin
    run floor-pipelined "$WORK/floor.sock" "$FLOOR_PID" --connections 4 --depth 64 --seconds "$RUN_SECONDS" \
        --check frame
    run notifyd-dry "$WORK/notifyd.sock" "$DAEMON_PID" --connections 4 --depth 64 --seconds "$RUN_SECONDS" \
        --mix dry-apns,dry-fcm
    run notifyd-stateful "$WORK/notifyd.sock" "$DAEMON_PID" --connections 4 --depth 64 \
        --seconds "$RUN_SECONDS" --mix stateful --devices 10000
    run notifyd-mixed "$WORK/notifyd.sock" "$DAEMON_PID" --connections 4 --depth 64 --seconds "$RUN_SECONDS" \
        --mix dry-apns,dry-fcm,stateful,resolve
done
DAEMON_PEAK=$(awk '/^VmHWM:/ { print $2 * 1024 }' "/proc/$DAEMON_PID/status")
FLOOR_PEAK=$(awk '/^VmHWM:/ { print $2 * 1024 }' "/proc/$FLOOR_PID/status")

touch "$WORK/rerun"
python3 - "$WORK/results" "$FLOOR_READY" "$DAEMON_READY" "$DAEMON_RSS_READY" "$DAEMON_PEAK" "$FLOOR_PEAK" \
    "$LOG_TARGET" "$RTT_CPUS" "$MAX_STEAL" "$WORK/rerun" "$EVENT_LOOPS" "$ROOT/Benchmarks" <<'EOF'
import json, statistics, sys
(results, floor_ready, daemon_ready, rss_ready, daemon_peak, floor_peak, log_target, rtt_cpus, max_steal,
 rerun, event_loops, here) = sys.argv[1:]
sys.path.insert(0, here)
from median_interval import judged
runs = {}
for line in open(results):
    name, text = line.split(" ", 1)
    runs.setdefault(name, []).append(json.loads(text))
def med(name, key):
    values = [r[key] for r in runs[name] if r.get(key) is not None]
    return statistics.median(values) if values else float("nan")
def cpu_per_request(name, key="serverCPUSeconds"):
    return statistics.median(r[key] * 1e6 / max(1, r["replies"]) for r in runs[name])
placement = {"": "placed by the scheduler", "split": "servers on CPU 0, client on CPU 1",
             "same": "servers and client on CPU 0"}[rtt_cpus]
loops = "one event loop" if event_loops == "1" else f"{event_loops} event loops"
print(f"\nmedians of {len(runs['floor-rtt'])} rounds (client and servers share this machine's cores); notifyd with "
      f"{loops}, its journal entries to the {log_target}; round trips {placement}\n")
print(f"{'run':<18}{'req/s':>10}{'p50 µs':>9}{'p90 µs':>9}{'p99 µs':>9}{'max µs':>10}{'srv µs cpu/req':>16}"
      f"{'cli µs cpu/req':>16}{'errors':>8}{'journal dropped':>17}{'steal %':>9}")
for name in runs:
    errors = sum(r["errors"] for r in runs[name])
    # Summed over the rounds: entries notifyd's journal queue had no room for (GetStats before and after each run).
    counted = [r["journalDropped"] for r in runs[name] if r.get("journalDropped") is not None]
    dropped = f"{sum(counted)} of {sum(r['replies'] for r in runs[name])}" if counted else "-"
    print(f"{name:<18}{med(name, 'requestsPerSecond'):>10.0f}{med(name, 'p50'):>9.1f}{med(name, 'p90'):>9.1f}"
          f"{med(name, 'p99'):>9.1f}{med(name, 'max'):>10.1f}{cpu_per_request(name):>16.1f}"
          f"{cpu_per_request(name, 'clientCPUSeconds'):>16.1f}{errors:>8}{dropped:>17}{med(name, 'hostStealPercent'):>9.0f}")
# The hypervisor's share of the CPUs' time in each run: a run with much of it stolen measured the host's other guests.
stolen = [(name, r["hostStealPercent"]) for name in runs for r in runs[name] if (r.get("hostStealPercent") or 0) > 10]
reruns = len(open(rerun).read().split())
if max_steal:
    print(f"\nruns with more than {max_steal}% of the CPUs' time stolen were run again: {reruns} times")
if stolen:
    print(f"\n{len(stolen)} of {sum(len(v) for v in runs.values())} runs lost more than 10% of the CPUs' time to the "
          f"hypervisor (steal, up to {max(s for _, s in stolen):.0f}%): their figures are the host's as much as "
          "notifyd's; compare runs of similar steal")
stateful = med("notifyd-stateful", "requestsPerSecond")
def verdict(ok):
    return "met" if ok else "MISSED"
# Each round's own ratio, its notifyd run over the floor's run just before it: the host's speed drifts from one
# minute to the next, and a ratio of two medians would pair runs of different minutes. The verdict comes from the
# median of the rounds' ratios and the interval around it; the ratio of the medians is printed beside it.
def paired(notifyd, floor, key):
    return [n[key] / f[key] for f, n in zip(runs[floor], runs[notifyd]) if f.get(key) and n.get(key) is not None]
def summary(label, ratios, of_medians, target, target_text, higher_is_better, show):
    median, interval, word = judged(ratios, target, higher_is_better)
    print(f"{label:<40}notifyd / floor = {show(median):>6}   ({target_text})  {word}")
    spread = (f"{interval[2]:.0%} interval of the median {show(interval[0])}–{show(interval[1])}" if interval
              else "an interval needs 6 rounds or more")
    print(f"  per round: {', '.join(show(r) for r in ratios)}; {spread}; the ratio of the medians {show(of_medians)}")
print()
summary("round trip p50, 1 connection, depth 1:", paired("notifyd-rtt", "floor-rtt", "p50"),
        med("notifyd-rtt", "p50") / med("floor-rtt", "p50"), 1.3, "target ≤ 1.3×", False, lambda r: f"{r:.2f}×")
summary("dry-run throughput, 4 × 64 in flight:", paired("notifyd-dry", "floor-pipelined", "requestsPerSecond"),
        med("notifyd-dry", "requestsPerSecond") / med("floor-pipelined", "requestsPerSecond"), 0.10,
        "target ≥ 10%, aim 20%", True, lambda r: f"{r * 100:.1f}%")
print(f"stateful durable decisions/s, 4 × 64:   {stateful:8.0f}/s           (target ≥ 50,000/s)  {verdict(stateful >= 50000)}")
print(f"time to READY (socket accepting):       notifyd {float(daemon_ready):.1f} ms, floor {float(floor_ready):.1f} ms")
print(f"notifyd RSS with {'shop.yaml'}:            {int(rss_ready) / 1048576:.1f} MiB at READY, "
      f"{int(daemon_peak) / 1048576:.1f} MiB peak; floor peak {int(floor_peak) / 1048576:.1f} MiB")
EOF
