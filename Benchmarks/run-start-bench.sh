#!/usr/bin/env bash
# notifyd's start: milliseconds from exec to READY=1, and memory, for config/shop.yaml and a large generated graph.
#
# Builds release notifyd and notifyd-bench, writes the generated 1,000-coordinator / 10,000-page config
# (`notifyd-bench config --write`), then starts notifyd RUNS times on each config, alternating, each time on a fresh
# state directory and with NOTIFY_SOCKET naming a datagram socket that this script reads, as systemd's would be.
# The time runs from just before the exec to the READY=1 message; VmRSS and VmHWM (the peak so far) are read from
# /proc/PID/status then, and the daemon is stopped with SIGTERM and must exit 0. Prints medians, with the fastest
# and slowest start. Bounded: a few seconds in all. Unix sockets only.
#
# Usage: Benchmarks/run-start-bench.sh
# Environment: RUNS (5), SCRATCH (.build: the swift build scratch path), BIN_DIR (use these release binaries
#              instead of building), CONFIG (config/shop.yaml).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
RUNS="${RUNS:-5}"
SCRATCH="${SCRATCH:-$ROOT/.build}"
CONFIG="${CONFIG:-$ROOT/config/shop.yaml}"
WORK="$(mktemp -d /tmp/notifyd-start-bench.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT

source "$ROOT/Benchmarks/release-binaries.sh"
release_binaries notifyd notifyd-bench
"$BIN_DIR/notifyd-bench" config --write "$WORK/generated.yaml" >&2

python3 - "$WORK" "$RUNS" "$BIN_DIR/notifyd" \
    "$(basename "$CONFIG")" "$CONFIG" "generated 1,000 × 10,000" "$WORK/generated.yaml" <<'EOF'
import os, signal, socket, statistics, subprocess, sys, time
work, runs, daemon, rest = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
configs = list(zip(rest[0::2], rest[1::2]))  # (label, path)

# The service manager's end of sd_notify: the daemon sends "READY=1\nSTATUS=…" here once it serves.
notify_path = os.path.join(work, "notify.sock")
listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
listener.bind(notify_path)

def memory(pid):
    """VmRSS and VmHWM of a process, in bytes."""
    values = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                values[key] = int(value.split()[0]) * 1024
    return values["VmRSS"], values["VmHWM"]

def start(n, config):
    """Starts the daemon, waits for READY=1, reads its memory, stops it; returns (ms, rss, hwm)."""
    # Messages a stopped daemon sent (STOPPING=1) are dropped before the next one starts.
    listener.setblocking(False)
    try:
        while listener.recv(4096):
            pass
    except BlockingIOError:
        pass
    state = os.path.join(work, f"state-{n}")
    os.mkdir(state)
    log = os.path.join(work, f"notifyd-{n}.log")
    args = [daemon, "--config", config, "--socket", os.path.join(work, f"notifyd-{n}.sock"),
            "--state-dir", state, "--log-target", "console"]
    listener.settimeout(0.05)
    with open(log, "w") as out:
        begin = time.monotonic()
        process = subprocess.Popen(args, stdout=out, stderr=out, env=dict(os.environ, NOTIFY_SOCKET=notify_path))
    while True:
        try:
            message = listener.recv(4096)
        except TimeoutError:
            if process.poll() is not None:
                sys.exit(f"notifyd exited with {process.returncode} before READY=1:\n{open(log).read()}")
            if time.monotonic() - begin > 60:
                process.kill()
                sys.exit(f"notifyd sent no READY=1 within 60 s; see {log}")
            continue
        if b"READY=1" in message.split(b"\n"):
            ready = (time.monotonic() - begin) * 1000
            break
    rss, hwm = memory(process.pid)
    process.send_signal(signal.SIGTERM)
    try:
        code = process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        sys.exit("notifyd did not stop within 10 s of SIGTERM")
    if code != 0:
        sys.exit(f"notifyd exited with {code} on SIGTERM:\n{open(log).read()}")
    return ready, rss, hwm

results = {label: [] for label, _ in configs}
n = 0
for run in range(runs):
    for label, config in configs:
        n += 1
        results[label].append(start(n, config))
        ready, rss, hwm = results[label][-1]
        print(f"  {label}: READY=1 after {ready:.1f} ms, RSS {rss / 1048576:.1f} MiB, peak {hwm / 1048576:.1f} MiB",
              file=sys.stderr)

print(f"\nnotifyd start: exec to READY=1 (sd_notify), fresh state directory; medians of {runs} starts")
print(f"{'config':<26}{'bytes':>9}{'READY ms':>10}{'fastest':>9}{'slowest':>9}{'RSS MiB':>9}{'peak MiB':>10}")
for label, config in configs:
    times = [r[0] for r in results[label]]
    rss = statistics.median(r[1] for r in results[label]) / 1048576
    hwm = statistics.median(r[2] for r in results[label]) / 1048576
    print(f"{label:<26}{os.path.getsize(config):>9}{statistics.median(times):>10.1f}{min(times):>9.1f}"
          f"{max(times):>9.1f}{rss:>9.1f}{hwm:>10.1f}")
print("RSS: VmRSS on READY=1; peak: VmHWM then (the most resident so far, config loading included)")
EOF
