#!/usr/bin/env bash
# The instruction-count guard: the release notifyd's instructions per dry-run request, counted by callgrind, against
# the committed baseline. Instructions, unlike seconds, are the same from run to run for the same binary and inputs,
# so this is the one performance figure a test may hold: it fails when a request costs more than 5% over the
# baseline. Update the baseline only with the reason in the commit message.
#
# Two daemon runs under callgrind, one answering WARMUP requests and one WARMUP + REQUESTS: the difference of their
# totals over REQUESTS is the cost of a request, with start-up, config load and shutdown taken out. One event loop
# and one connection with one request in flight, so that every request is one turn of the loop in both runs.
#
# Usage: Tests/instructions/run.sh [--update]   (BIN_DIR: the release binaries, default .build/release)
# Skipped, with the reason printed, where valgrind cannot run.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BIN_DIR="${BIN_DIR:-$ROOT/.build/release}"
BASELINE="$ROOT/Tests/instructions/baseline"
REQUESTS="${REQUESTS:-20000}"
WARMUP="${WARMUP:-2000}"
MIX="${MIX:-dry-apns}"
TOLERANCE_PERCENT=5

for b in notifyd notifyd-bench; do
    [ -x "$BIN_DIR/$b" ] || { echo "instructions: $BIN_DIR/$b missing (make release)" >&2; exit 1; }
done
if ! command -v valgrind >/dev/null; then
    echo "instructions: SKIPPED: valgrind is not installed (apt-get install valgrind)"
    exit 0
fi
if ! valgrind --tool=callgrind --callgrind-out-file=/dev/null true >/dev/null 2>&1; then
    echo "instructions: SKIPPED: valgrind cannot run here ($(valgrind --tool=callgrind true 2>&1 | tail -n 1))"
    exit 0
fi

WORK="$(mktemp -d /tmp/notifyd-instructions.XXXXXX)"
daemon_pid=""
cleanup() {
    [ -n "$daemon_pid" ] && kill -9 "$daemon_pid" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
# The release build's debug information is DWARF 5, which Debian 12's valgrind cannot read: a stripped copy.
strip --strip-debug -o "$WORK/notifyd" "$BIN_DIR/notifyd"

# `count N`: prints the instructions callgrind counted in a daemon run that answered N requests.
count() {
    local n=$1 socket="$WORK/notifyd-$1.sock" out="$WORK/callgrind-$1.out"
    mkdir -p "$WORK/state-$n"
    valgrind --tool=callgrind --callgrind-out-file="$out" "$WORK/notifyd" --config "$ROOT/config/shop.yaml" \
        --socket "$socket" --state-dir "$WORK/state-$n" --event-loops 1 --log-target console \
        >"$WORK/daemon-$n.log" 2>&1 &
    daemon_pid=$!
    for _ in $(seq 1 600); do
        [ -S "$socket" ] && python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])" \
            "$socket" 2>/dev/null && break
        kill -0 "$daemon_pid" 2>/dev/null || { cat "$WORK/daemon-$n.log" >&2; exit 1; }
        sleep 0.1
    done
    "$BIN_DIR/notifyd-bench" daemon --socket "$socket" --connections 1 --depth 1 --requests "$n" --mix "$MIX" \
        >"$WORK/bench-$n.log" 2>&1 || { cat "$WORK/bench-$n.log" >&2; exit 1; }
    kill -TERM "$daemon_pid"
    wait "$daemon_pid" || true
    daemon_pid=""
    # "summary: N" (or "totals: N") holds the instructions of every thread.
    sed -n -e 's/^summary: *\([0-9]*\).*/\1/p' -e 's/^totals: *\([0-9]*\).*/\1/p' "$out" | head -n 1
}

small=$(count "$WARMUP")
large=$(count $((WARMUP + REQUESTS)))
per_request=$(((large - small) / REQUESTS))
echo "instructions: $per_request per $MIX dry run (callgrind, $REQUESTS requests: $large − $small instructions)"

if [ "${1:-}" = "--update" ]; then
    printf '%s %s\n' "$MIX" "$per_request" >"$BASELINE"
    echo "instructions: baseline written to ${BASELINE#"$ROOT"/}"
    exit 0
fi
baseline=$(awk -v mix="$MIX" '$1 == mix { print $2 }' "$BASELINE")
[ -n "$baseline" ] || { echo "instructions: no baseline for $MIX in $BASELINE" >&2; exit 1; }
limit=$((baseline * (100 + TOLERANCE_PERCENT) / 100))
change=$(python3 -c "print(f'{($per_request - $baseline) * 100 / $baseline:+.1f}%')")
if [ "$per_request" -gt "$limit" ]; then
    echo "instructions: FAIL: $per_request per request is $change over the baseline $baseline (limit $limit," \
        "+$TOLERANCE_PERCENT%)" >&2
    exit 1
fi
echo "instructions: ok: $change against the baseline $baseline (limit $limit, +$TOLERANCE_PERCENT%)"
