#!/usr/bin/env bash
# notifyctl diff and replay at scale: seconds and rates for a corpus of LINKS links and a history of DECISIONS stored
# decisions, with the release binaries, as a user runs them (output to /dev/null).
#
#   diff, a links file: LINKS distinct links (offers, promotions, products, categories with query bindings, orders, a
#     removed host) routed with config/shop.yaml and a candidate (a pattern moved, a gate added, a host removed);
#   diff, the synthesized corpus: the generated config (1,000 coordinators, 10,000 pages) against itself (its
#     corpus's size printed);
#   replay: a notifyd on shop.yaml stores DECISIONS stateful decisions for 10,000 devices (notifyd-bench daemon, mix
#     stateful), then `notifyctl replay` routes every one again with the candidate, where each of them changes (the
#     most it prints). ListHistory's share is measured alone too (its pages read, nothing replayed).
# Each timing is the median of RUNS runs. Bounded: about a minute. Unix sockets only.
#
# Usage: Benchmarks/run-review-bench.sh
# Environment: LINKS (100000), DECISIONS (100000), RUNS (3), COORDINATORS and PAGES (1000 and 10000: the generated
#              config), SCRATCH (.build: the swift build scratch path), BIN_DIR (use these release binaries instead
#              of building).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
LINKS="${LINKS:-100000}"
DECISIONS="${DECISIONS:-100000}"
RUNS="${RUNS:-3}"
COORDINATORS="${COORDINATORS:-1000}"
PAGES="${PAGES:-10000}"
SCRATCH="${SCRATCH:-$ROOT/.build}"
WORK="$(mktemp -d /tmp/notifyd-review-bench.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT

source "$ROOT/Benchmarks/release-binaries.sh"
release_binaries notifyd notifyd-bench notifyctl
"$BIN_DIR/notifyd-bench" config --coordinators "$COORDINATORS" --pages "$PAGES" --write "$WORK/generated.yaml" >&2

python3 - "$ROOT" "$WORK" "$BIN_DIR" "$LINKS" "$DECISIONS" "$RUNS" "$PAGES" <<'EOF'
import json, os, random, socket, statistics, subprocess, sys, time
root, work, bin_dir, links, decisions, runs, pages = sys.argv[1:4] + [int(v) for v in sys.argv[4:8]]
notifyctl = os.path.join(bin_dir, "notifyctl")
shop = os.path.join(root, "config", "shop.yaml")

# The candidate: /promo/{id} moved to catalog.product, the offer page behind login, the wildcard host removed.
with open(shop) as f:
    text = f.read()
for old, new in [
    ('"offer(id: String)": ["/offers/{id}", "/promo/{id}"]',
     '"offer(id: String)": { path: "/offers/{id}", requires: [session] }'),
    ('"product(id: String)": /products/{id}', '"product(id: String)": [/products/{id}, "/promo/{id}"]'),
    ('hosts: [shop.example.com, "*.shop.example.com"]', "hosts: [shop.example.com]"),
]:
    assert text.count(old) == 1, old
    text = text.replace(old, new)
candidate = os.path.join(work, "candidate.yaml")
with open(candidate, "w") as f:
    f.write(text)

rng = random.Random(49)
templates = ["shop://offers/S{}", "shop://promo/P{}", "https://shop.example.com/products/p-{}",
             "shop://catalog/c{}?sort=rating&page=2", "shop://account/orders/{}", "https://m.shop.example.com/cart?n={}",
             "https://shop.example.com/info/guides/{}"]
links_file = os.path.join(work, "links.txt")
with open(links_file, "w") as f:
    for n in range(links):
        f.write(rng.choice(templates).format(n) + "\n")

def timed(args, expect):
    """Median seconds of RUNS runs of notifyctl `args`, its output to a file; the last run's output."""
    seconds = []
    out = os.path.join(work, "out.txt")
    for _ in range(runs):
        with open(out, "w") as o:
            start = time.monotonic()
            code = subprocess.run([notifyctl] + args, stdout=o, stderr=subprocess.PIPE).returncode
            seconds.append(time.monotonic() - start)
        if code != expect:
            sys.exit(f"notifyctl {' '.join(args)} ended with {code}, not {expect}")
    with open(out) as o:
        return statistics.median(seconds), o.read()

print(f"notifyctl diff and replay, release build; medians of {runs} runs, output to a file")
s, out = timed(["diff", shop, candidate, "--links", links_file], 1)
print(f"diff, links file:    {links:>7,} links in {s:6.2f} s: {links / s:>9,.0f} links/s "
      f"({out.splitlines()[-1].split(':')[0]})")
s, _ = timed(["--json", "diff", shop, candidate, "--links", links_file], 1)
print(f"diff --json:         {links:>7,} links in {s:6.2f} s: {links / s:>9,.0f} links/s")
generated = os.path.join(work, "generated.yaml")
s, out = timed(["diff", generated, generated], 0)
corpus = int(out.split("the ")[1].split(" ")[0])
print(f"diff, synthesized:   {corpus:>7,} links and categories of the {pages:,}-page config in {s:6.2f} s: "
      f"{corpus / s:>9,.0f}/s")

# A daemon that stores DECISIONS stateful decisions.
sock = os.path.join(work, "notifyd.sock")
state = os.path.join(work, "state")
os.mkdir(state)
log = open(os.path.join(work, "notifyd.log"), "w")
daemon = subprocess.Popen([os.path.join(bin_dir, "notifyd"), "--config", shop, "--socket", sock, "--state-dir",
                           state, "--log-target", "console"], stderr=log)
deadline = time.monotonic() + 30
while True:
    try:
        s = socket.socket(socket.AF_UNIX)
        s.connect(sock)
        s.close()
        break
    except OSError:
        if daemon.poll() is not None or time.monotonic() > deadline:
            sys.exit("notifyd did not start")
        time.sleep(0.05)
try:
    load = subprocess.run([os.path.join(bin_dir, "notifyd-bench"), "daemon", "--socket", sock, "--mix", "stateful",
                           "--devices", "10000", "--requests", str(decisions), "--connections", "4", "--depth", "64"],
                          capture_output=True, text=True)
    if load.returncode != 0:
        sys.exit(f"the load failed:\n{load.stdout}{load.stderr}")
    s, out = timed(["--socket", sock, "replay", "--config", candidate], 1)
    summary = [line for line in out.splitlines() if "decisions replayed" in line][0]
    replayed = int(summary.split(" of ")[1].split(" ")[0])
    print(f"replay:              {replayed:>7,} decisions in {s:6.2f} s: {replayed / s:>9,.0f} decisions/s "
          f"({summary.split(' with ')[0]})")
    s, _ = timed(["--socket", sock, "--json", "replay", "--config", candidate], 1)
    print(f"replay --json:       {replayed:>7,} decisions in {s:6.2f} s: {replayed / s:>9,.0f} decisions/s")
    # ListHistory alone: the daemon's pages, read and parsed by a client that does nothing with them.
    seconds = []
    for _ in range(runs):
        start = time.monotonic()
        pages = read = largest = 0
        before = None
        conn = socket.socket(socket.AF_UNIX)
        conn.connect(sock)
        buffer = b""
        while True:
            parameters = {"limit": 1000} if before is None else {"limit": 1000, "before": before}
            call = {"method": "io.notifyd.Router.ListHistory", "parameters": parameters}
            conn.sendall(json.dumps(call).encode() + b"\0")
            while b"\0" not in buffer:
                buffer += conn.recv(1 << 20)
            frame, buffer = buffer.split(b"\0", 1)
            pages += 1
            largest = max(largest, len(frame))
            reply = json.loads(frame)["parameters"]
            read += len(reply["entries"])
            before = reply["next"]
            if before is None:
                break
        conn.close()
        seconds.append(time.monotonic() - start)
    s = statistics.median(seconds)
    print(f"ListHistory alone:   {read:>7,} entries in {pages} pages in {s:6.2f} s "
          f"(read by python's json; a page of 1,000 is {largest / 1e6:.2f} MB)")
    size = sum(os.path.getsize(os.path.join(state, f)) for f in os.listdir(state))
    print(f"state directory:     {size / 1048576:.1f} MiB for {replayed:,} decisions and 10,000 devices")
finally:
    daemon.terminate()
    daemon.wait(10)
EOF
