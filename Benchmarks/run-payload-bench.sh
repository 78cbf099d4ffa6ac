#!/usr/bin/env bash
# notifyd's payload parsing against the floor: simdjson's DOM parser on the same files.
#
# Installs libsimdjson-dev when missing (the benchmark alone needs it, so `make deps` does not), builds release
# notifyd-bench and the floor (c++ -O2), runs `notifyd-bench payload` and the floor on the same payload files
# (one per format, from examples/payloads), and prints one table: µs per payload for notifyd's JSON.parse, its tape
# (as the daemon reads it, and with the tape's Swift reader alone) and PayloadReader, Foundation's JSONSerialization
# and JSONDecoder, and simdjson, with the ratios to simdjson and of the tape to its Swift reader.
# Medians of thread CPU time; bounded: about MEASURE_SECONDS for each payload and parser (≈ 30 s by default).
#
# Usage: Benchmarks/run-payload-bench.sh [FILE...]
# Environment: RUNS (5), MEASURE_SECONDS (1: CPU seconds per payload and parser, shared by the runs),
#              SCRATCH (.build: the swift build scratch path), BIN_DIR (use these release binaries instead of
#              building), CONFIG (config/shop.yaml: the link keys and categories PayloadReader uses).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
RUNS="${RUNS:-5}"
MEASURE_SECONDS="${MEASURE_SECONDS:-1}"
SCRATCH="${SCRATCH:-$ROOT/.build}"
CONFIG="${CONFIG:-$ROOT/config/shop.yaml}"
if [[ $# -gt 0 ]]; then
    FILES=("$@")
else
    FILES=()
    for name in apns-offer.json fcm-v1.json fcm-legacy.json ntfy.json gotify.json link.txt; do
        FILES+=("$ROOT/examples/payloads/$name")
    done
fi
WORK="$(mktemp -d /tmp/notifyd-payload-bench.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT

if ! dpkg-query -W -f='${Status}' libsimdjson-dev 2>/dev/null | grep -q "install ok installed"; then
    echo "installing libsimdjson-dev…" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libsimdjson-dev >/dev/null
fi
source "$ROOT/Benchmarks/release-binaries.sh"
release_binaries notifyd-bench
c++ -O2 -std=c++17 -o "$WORK/simdjson-parse" "$ROOT/Benchmarks/floor/simdjson-parse.cpp" -lsimdjson

echo "notifyd-bench payload…" >&2
"$BIN_DIR/notifyd-bench" payload --runs "$RUNS" --seconds "$MEASURE_SECONDS" --config "$CONFIG" "${FILES[@]}" \
    >"$WORK/notifyd.txt"
echo "simdjson…" >&2
"$WORK/simdjson-parse" --runs "$RUNS" --seconds "$MEASURE_SECONDS" "${FILES[@]}" >"$WORK/simdjson.txt"

python3 - "$WORK/notifyd.txt" "$WORK/simdjson.txt" "${FILES[@]}" <<'EOF'
import os, sys
notifyd_output, simdjson_output, files = sys.argv[1], sys.argv[2], sys.argv[3:]
names = {os.path.basename(f) for f in files}

def number(text):
    return None if text in ("—", "-") else float(text)

# notifyd-bench's rows: file format bytes JSON.parse JSONTape SwiftTape PayloadReader JSONSerialization JSONDecoder
# and two ratios.
notifyd = {}
for line in open(notifyd_output):
    fields = line.split()
    if len(fields) == 11 and fields[0] in names:
        notifyd[fields[0]] = (fields[1], int(fields[2]), *map(number, fields[3:9]))
# simdjson-parse's rows: PATH BYTES NS; '#' lines are comments.
simdjson, comments = {}, []
for line in open(simdjson_output):
    if line.startswith("#"):
        comments.append(line[1:].strip())
        continue
    path, _, ns = line.split()
    simdjson[os.path.basename(path)] = None if ns == "-" else float(ns) / 1000

def cell(value, width):
    return f"{'—' if value is None else f'{value:.2f}':>{width}}"

def ratio(a, b):
    return None if a is None or b is None else a / b

print(f"payload parsing: median µs of thread CPU time per payload; one core; floor: {'; '.join(comments)}")
print("JSON.parse: notifyd's parser into a JSON tree; JSONTape: the same checks onto a reused tape of nodes (what")
print("the daemon reads calls with: its C reader, the Swift one for what that declines); SwiftTape: the tape's Swift")
print("reader alone; PayloadReader: tape + detect the format + find the links;")
print("JSONSerial.: Foundation's JSONSerialization; JSONDecoder: Foundation's, into a generic Decodable value;")
print("simdjson: its DOM parser, reused; — where the parser does not accept the payload (a bare link is not JSON)\n")
print(f"{'file':<18}{'format':<11}{'bytes':>6}{'JSON.parse':>12}{'JSONTape':>10}{'SwiftTape':>11}{'PayloadReader':>15}"
      f"{'JSONSerial.':>13}{'JSONDecoder':>13}{'simdjson':>10}{'tape/simdjson':>15}{'read/simdjson':>15}"
      f"{'tape/JSONSer':>14}{'tape/SwiftTape':>16}")
for f in files:
    name = os.path.basename(f)
    if name not in notifyd:
        sys.exit(f"notifyd-bench printed no row for {name}")
    format, size, parse, tape, swift_tape, read, serialization, decoder = notifyd[name]
    floor = simdjson.get(name)
    print(f"{name:<18}{format:<11}{size:>6}{cell(parse, 12)}{cell(tape, 10)}{cell(swift_tape, 11)}{cell(read, 15)}"
          f"{cell(serialization, 13)}{cell(decoder, 13)}{cell(floor, 10)}{cell(ratio(tape, floor), 15)}"
          f"{cell(ratio(read, floor), 15)}{cell(ratio(tape, serialization), 14)}{cell(ratio(tape, swift_tape), 16)}")
EOF
