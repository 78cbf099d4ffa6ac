# Sourced by the benchmark scripts that start servers on Unix sockets (run-daemon-bench.sh, run-ab-bench.sh,
# run-loops-bench.sh).

# `count NAME VALUE` and `number NAME VALUE`: exit 2, naming the setting, unless VALUE is a count (1 or more) or a
# number (digits, with a fraction or not).
count() { [[ "$2" =~ ^[1-9][0-9]*$ ]] || {
    echo "$1 is a count (1 or more), not '$2'" >&2
    exit 2
}; }
number() { [[ "$2" =~ ^[0-9]+([.][0-9]+)?$ ]] || {
    echo "$1 is a number, not '$2'" >&2
    exit 2
}; }

# `bench_workdir PREFIX`: a temporary directory in WORK, removed on exit with every server whose pid is in PIDS
# (killed and waited for first).
bench_workdir() {
    WORK="$(mktemp -d "/tmp/$1.XXXXXX")"
    PIDS=()
    trap bench_cleanup EXIT
}
bench_cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}

# `start_server SOCKET LOG COMMAND…`: starts COMMAND (its output to LOG, in a session of its own) and waits until
# SOCKET accepts; prints "PID MILLISECONDS-TO-READY". Fails when the server exits first or does not accept within
# 60 s.
start_server() {
    local socket="$1" log="$2"
    shift 2
    python3 - "$socket" "$log" "$@" <<'EOF'
import socket, subprocess, sys, time
path, log, args = sys.argv[1], sys.argv[2], sys.argv[3:]
start = time.monotonic()
with open(log, "a") as out:
    process = subprocess.Popen(args, stdout=out, stderr=out, start_new_session=True)
while True:
    if process.poll() is not None:
        sys.exit(f"{args[0]} exited with {process.returncode}; see {log}")
    if time.monotonic() - start > 60:
        sys.exit(f"{args[0]} did not accept on {path} within 60 s; see {log}")
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(path)
        break
    except OSError:
        time.sleep(0.0005)
    finally:
        s.close()
print(process.pid, round((time.monotonic() - start) * 1000, 1))
EOF
}

# `steal_over JSON MAX`: true when notifyd-bench's JSON figures say the run lost more than MAX percent of the CPUs'
# time to the hypervisor (a run without the figure counts as quiet).
steal_over() {
    python3 -c 'import json, sys
s = json.loads(sys.argv[1]).get("hostStealPercent")
sys.exit(0 if s is not None and s > float(sys.argv[2]) else 1)' "$1" "$2"
}
