"""The daemon load generator: a short run against the test daemon answers every request correctly (no speed asserted)."""
import json
import os
import socket
import subprocess
import sys
import threading

from conftest import BIN, ROOT

BENCH = os.path.join(BIN, "notifyd-bench")
ROUTER = "io.notifyd.Router"


def run_script(name, *args, timeout, **env):
    """Runs `Benchmarks/NAME ARGS…` with the environment plus `env`."""
    return subprocess.run(["bash", os.path.join(ROOT, "Benchmarks", name), *args], capture_output=True, text=True,
                          timeout=timeout, env=dict(os.environ, **env))


def run_bench(daemon, *extra):
    result = subprocess.run(
        [BENCH, "daemon", "--socket", daemon.socket, "--requests", "2000", "--connections", "2", "--depth", "8",
         *extra],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def test_bench_gets_a_correct_reply_for_every_request(daemon):
    before = daemon.call(f"{ROUTER}.GetStats")["parameters"]["stats"]["requests"]
    result = run_bench(daemon, "--mix", "dry-apns,dry-linkless,dry-fcm,stateful,resolve", "--devices", "50", "--json")
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    assert figures["errors"] == 0
    assert figures["sent"] == 2000
    assert figures["replies"] == 2000
    assert figures["serverPeakRSS"] > 0
    assert figures["clientCPUSeconds"] > 0
    # GetStats before and after the run: the daemon made one decision per request, all of them journaled.
    assert figures["daemonDecisions"] == 2000
    assert figures["journalDropped"] == 0
    assert figures["storeFailures"] == 0
    # The machine's CPU time over the run, from /proc/stat, in percent (null only when no clock tick passed).
    steal, idle = figures["hostStealPercent"], figures["hostIdlePercent"]
    if figures["seconds"] >= 0.05:
        assert 0 <= steal <= 100 and 0 <= idle <= 100 and steal + idle <= 100.5
        assert idle < 100  # the client and the daemon ran
    stats = daemon.call(f"{ROUTER}.GetStats")["parameters"]["stats"]
    # The process the bench measured: under socket activation the socket's peer would be systemd.
    assert stats["pid"] == daemon.process.pid
    # The daemon saw every request (plus this GetStats call and the first one).
    assert stats["requests"] - before >= 2000
    assert daemon.call(f"{ROUTER}.GetState", {"device": "bench-0"})["parameters"]["state"] is not None


def test_bench_prints_a_summary_table(daemon):
    result = run_bench(daemon)
    assert "req/s" in result.stdout
    row = result.stdout.splitlines()[2].split()
    assert row[0] == "2000" and row[1] == "0"
    assert any(line.startswith("client: ") and "µs CPU per request" in line for line in result.stdout.splitlines())
    assert "notifyd: 2000 decisions, 0 journal entries dropped (the journal queue was full), 0 failed state commits" \
        in result.stdout.splitlines()
    assert any(line.startswith("host: ") and "% of the CPUs' time stolen by the hypervisor, " in line
               for line in result.stdout.splitlines())


def serve_replies(path, reply, chunk):
    """A server on `path` that answers every NUL-terminated frame with `reply` (NUL added), written `chunk` bytes
    at a time so that replies reach the client split across reads."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(4)

    def serve(connection):
        with connection:
            while True:
                data = connection.recv(65536)
                if not data:
                    return
                out = (reply + b"\0") * data.count(0)
                for i in range(0, len(out), chunk):
                    connection.sendall(out[i:i + chunk])

    def accept():
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=serve, args=(connection,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    return listener


def test_bench_counts_wrong_replies_as_errors(workdir):
    # A server that answers every frame with a varlink error: each reply is counted as an error and the run fails.
    path = os.path.join(workdir, "wrong.sock")
    listener = serve_replies(path, b'{"error":"io.notifyd.Router.NoRoute","parameters":{"link":"x"}}', 1 << 16)
    try:
        result = subprocess.run([BENCH, "daemon", "--socket", path, "--requests", "100", "--connections", "1",
                                 "--depth", "4", "--json"], capture_output=True, text=True, timeout=60)
    finally:
        listener.close()
    assert result.returncode == 1
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    assert figures["replies"] == 100
    assert figures["errors"] == 100
    # Its error reply to GetStats gives no counters.
    assert figures["daemonDecisions"] is None and figures["journalDropped"] is None


def test_bench_checks_the_page_of_each_reply_across_split_reads(workdir):
    # Replies of the expected page pass however they are split; a page whose id differs by one letter fails.
    padding = '"trace":[' + ",".join(['"x"'] * 40) + "]"
    right = ('{"parameters":{"decision":{"id":"d",' + padding + ',"page":{"id":"cart.offer","arguments":{}}}}}').encode()
    wrong = right.replace(b'"cart.offer"', b'"cart.offex"')
    for name, reply, chunk, errors in [("right-whole", right, 1 << 16, 0), ("right-split", right, 7, 0),
                                       ("wrong-split", wrong, 5, 60), ("wrong-whole", wrong, 1 << 16, 60)]:
        path = os.path.join(workdir, name + ".sock")
        listener = serve_replies(path, reply, chunk)
        try:
            result = subprocess.run([BENCH, "daemon", "--socket", path, "--requests", "60", "--connections", "2",
                                     "--depth", "8", "--mix", "dry-apns", "--json"],
                                    capture_output=True, text=True, timeout=60)
        finally:
            listener.close()
        figures = json.loads(result.stdout.strip().splitlines()[-1])
        assert figures["replies"] == 60, (name, figures)
        assert figures["errors"] == errors, (name, figures)
        assert result.returncode == (1 if errors else 0), (name, result.stdout)


def test_payload_bench_reads_every_example_format():
    # The in-process payload benchmark, briefly: one row per example payload with a figure for each reader that
    # accepts it (the bare link is not JSON, so neither the tree parser nor the tape, with both its readers or with
    # its Swift one alone, has one, only the payload reader).
    result = subprocess.run([BENCH, "payload", "--runs", "1", "--seconds", "0.05"], capture_output=True, text=True,
                            timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    rows = {line.split()[0]: line.split() for line in result.stdout.splitlines()
            if line.split() and line.split()[0].endswith((".json", ".txt"))}
    assert set(rows) == {"apns-offer.json", "fcm-v1.json", "fcm-legacy.json", "ntfy.json", "gotify.json", "link.txt"}
    assert [rows[f][1] for f in ("apns-offer.json", "fcm-v1.json", "fcm-legacy.json", "ntfy.json", "gotify.json",
                                 "link.txt")] == ["apns", "fcm", "fcm-legacy", "ntfy", "gotify", "link"]
    for name, row in rows.items():
        figures = row[3:]
        if name == "link.txt":
            assert figures[:3] == ["—", "—", "—"] and float(figures[3]) > 0
        else:
            assert all(float(value) > 0 for value in figures), row


def test_resolver_bench_resolves_every_sample_page():
    # The in-process resolver benchmark, briefly: three scenarios on config/shop.yaml and on the generated graph,
    # every resolution succeeds (failures are counted apart and fail the run).
    result = subprocess.run([BENCH, "resolver", "--rounds", "1", "--decisions", "300"], capture_output=True,
                            text=True, timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[1].split()[-1] == "failed"
    rows = [line.split() for line in lines[2:] if line.split() and line.split()[0] in ("shop.yaml", "generated")]
    scenarios = ("cold start", "with state", "roaming")
    assert [(row[0], " ".join(row[3:-5])) for row in rows] == [
        (graph, scenario) for graph in ("shop.yaml", "generated") for scenario in scenarios
    ]
    for row in rows:
        assert int(row[-1]) == 0, row
        assert int(row[-5]) > 0 and float(row[-2]) > 0, row
    assert int(rows[3][1]) == 1_000 and int(rows[3][2]) == 10_000


def test_matcher_bench_matches_the_links_it_should():
    # The in-process matcher benchmark, briefly: both link sets at two table sizes; every short link opens a page,
    # and of the mixed set all but the links whose Int segment is not a number (one in six).
    result = subprocess.run([BENCH, "matcher", "--runs", "1", "--seconds", "0.02", "--sizes", "10,100"],
                            capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    rows = [line.split() for line in result.stdout.splitlines() if line.split()[:1] in (["mixed"], ["short"])]
    assert [(row[0], int(row[1])) for row in rows] == [("mixed", 10), ("mixed", 100), ("short", 10), ("short", 100)]
    for row in rows:
        links, matched, rate = int(row[2]), int(row[3]), int(row[4])
        assert links == 1024 and rate > 0, row
        assert matched == (1024 if row[0] == "short" else 1024 - 1024 // 6), row


def test_eventloop_bench_runs_both_loops():
    # The epoll loop and Dispatch read sources each echo every request (the benchmark checks the echoes).
    result = subprocess.run([BENCH, "eventloop", "--connections", "2", "--depth", "2", "--requests", "2000",
                             "--runs", "1"], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    rows = {line.split()[0]: line.split() for line in result.stdout.splitlines()
            if line.split()[:1] in (["epoll"], ["dispatch"])}
    assert set(rows) == {"epoll", "dispatch"}
    for row in rows.values():
        assert float(row[1]) > 0 and float(row[2]) > 0, row


def test_ab_bench_compares_two_builds_side_by_side():
    # The same build as A and B: both daemons start, every run is answered, and the summary names both and the pairs.
    result = run_script("run-ab-bench.sh", BIN, BIN, timeout=120, ROUNDS="2", SECONDS_PER_RUN="0.3", CONNECTIONS="1",
                        DEPTH="4")
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert "mix dry-apns,dry-fcm, 1 connections × depth 4, 2 pairs of runs (A first in odd pairs, B first in even ones), medians" in lines
    rows = {line.split()[0]: line.split() for line in lines if line.startswith(("A ", "B ")) and "/" not in line}
    assert set(rows) == {"A", "B"}
    assert all(float(rows[name][1]) > 0 and rows[name][-1] == "0" for name in rows)  # req/s, errors
    assert any(line.startswith("B / A throughput: ") and line.endswith(" of 2 pairs") for line in lines)
    assert any(line.startswith("pairs' B / A: median ") and line.endswith("; an interval needs 6 pairs or more")
               for line in lines)
    # Each run is reported as it ends, in the order of its pair.
    runs = [line for line in result.stderr.splitlines() if line.startswith("round ")]
    assert [line.split()[2] for line in runs] == ["A", "B", "B", "A"]


def test_loops_bench_runs_one_loop_then_two_then_two_daemons_then_the_floor():
    # Two short rounds: every run is answered, and the summary has the four rows and the ratios to one loop.
    result = run_script("run-loops-bench.sh", timeout=180, ROUNDS="2", SECONDS_PER_RUN="0.3", CONNECTIONS="2",
                        DEPTH="4", BIN_DIR=BIN)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert ("mix dry-apns,dry-fcm, 2 rounds: one daemon with a client of 2 × 4, then one with two event loops, then "
            "two daemons with a client of 1 × 4 each at once, then the C floor; medians") in lines
    rows = {line[:32].strip(): line[32:].split() for line in lines
            if line.startswith(("one daemon", "two daemons (", "C floor"))}
    assert set(rows) == {"one daemon (one event loop)", "one daemon, --event-loops 2", "two daemons (two loops)",
                         "C floor, 2 × 4"}
    assert all(float(row[0]) > 0 for row in rows.values())  # req/s
    assert rows["C floor, 2 × 4"][1] == "100.0%"
    assert any(line.startswith("two event loops / one: ") and "two daemons / one: " in line for line in lines)
    assert "errors: 0" in lines
    rounds = [line for line in result.stderr.splitlines() if line.startswith("round ")]
    assert [line.split(": ", 1)[1].split(" {")[0] for line in rounds] == [
        "one daemon", "one daemon, two loops", "two daemons", "C floor"] * 2


def test_loops_bench_refuses_an_odd_number_of_connections():
    result = run_script("run-loops-bench.sh", timeout=30, CONNECTIONS="3", BIN_DIR=BIN)
    assert result.returncode == 2
    assert "CONNECTIONS is even (each of the two daemons gets half), not 3" in result.stderr


def test_ab_bench_refuses_a_directory_without_notifyd(workdir):
    result = run_script("run-ab-bench.sh", workdir, BIN, timeout=30)
    assert result.returncode == 2
    assert f"no notifyd binary in {workdir}" in result.stderr


def test_daemon_bench_runs_notifyd_with_lanes_against_the_floor():
    # One short round with EVENT_LOOPS=2: every run answered, the header says how many loops, the verdicts printed.
    result = run_script("run-daemon-bench.sh", timeout=180, EVENT_LOOPS="2", ROUNDS="1", SECONDS_PER_RUN="0.3",
                        BIN_DIR=BIN)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert any("notifyd with 2 event loops, its journal entries to the console" in line for line in lines)
    rows = {line.split()[0]: line.split() for line in lines if line.startswith(("floor-", "notifyd-"))}
    assert set(rows) == {"floor-rtt", "notifyd-rtt", "floor-pipelined", "notifyd-dry", "notifyd-stateful",
                         "notifyd-mixed"}
    assert all(float(row[1]) > 0 and row[8] == "0" for row in rows.values())  # req/s, errors
    assert any(line.startswith("dry-run throughput, 4 × 64 in flight:") for line in lines)
    # One round: the verdicts come from the median of the rounds' ratios alone, each followed by its rounds.
    for label in ("round trip p50, 1 connection, depth 1:", "dry-run throughput, 4 × 64 in flight:"):
        line = next(i for i, line in enumerate(lines) if line.startswith(label))
        assert lines[line].endswith(("  met", "  MISSED")), lines[line]
        assert lines[line + 1].startswith("  per round: "), lines
        assert "; an interval needs 6 rounds or more; the ratio of the medians " in lines[line + 1], lines[line + 1]


def test_median_interval_is_the_sign_tests():
    # The k-th lowest and k-th highest of n values, k the largest with P(Bin(n, 1/2) <= k - 1) <= 2.5%.
    sys.path.insert(0, os.path.join(ROOT, "Benchmarks"))
    from median_interval import median_interval
    assert median_interval([5, 1, 4, 2, 3]) is None  # 2 × (1/2)^5 > 5%: five values bound nothing at 95%
    assert median_interval([6, 1, 5, 2, 4, 3]) == (1, 6, 1 - 2 / 64)
    low, high, coverage = median_interval(list(range(12, 0, -1)))
    assert (low, high) == (3, 10) and abs(coverage - (1 - 2 * 79 / 4096)) < 1e-12
    low, high, coverage = median_interval(range(1, 25), confidence=0.99)
    assert (low, high) == (6, 19) and coverage >= 0.99


def test_an_interval_tells_a_side_only_when_it_leaves_out_the_reference():
    sys.path.insert(0, os.path.join(ROOT, "Benchmarks"))
    from median_interval import median_interval, side_of
    rounds = [0.089, 0.092, 0.095, 0.096, 0.097, 0.099, 0.102, 0.104, 0.108]  # 96%: the 2nd lowest to 2nd highest
    assert median_interval(rounds)[:2] == (0.092, 0.104)
    assert side_of(median_interval(rounds), 0.10) == "holds"
    assert side_of(median_interval([r + 0.02 for r in rounds]), 0.10) == "above"
    assert side_of(median_interval([r - 0.02 for r in rounds]), 0.10) == "below"
    assert side_of((0.10, 0.12, 0.96), 0.10) == "holds"  # an end at the reference does not leave it out


def test_a_verdict_comes_from_the_rounds_own_ratios():
    sys.path.insert(0, os.path.join(ROOT, "Benchmarks"))
    from median_interval import judged
    rounds = [0.089, 0.092, 0.095, 0.096, 0.097, 0.099, 0.102, 0.104, 0.108]
    assert judged(rounds, 0.10) == (0.097, (0.092, 0.104, 1 - 2 * 10 / 512), "not told apart from the target")
    assert judged([r + 0.02 for r in rounds], 0.10)[2] == "met"
    assert judged([r - 0.02 for r in rounds], 0.10)[2] == "MISSED"
    # Lower is better (a round trip against the floor's): an interval below the target meets it.
    assert judged([r * 10 for r in rounds], 1.3, higher_is_better=False)[2] == "met"
    assert judged([r * 20 for r in rounds], 1.3, higher_is_better=False)[2] == "MISSED"
    # Too few rounds for an interval: the median alone decides.
    assert judged([0.09, 0.11, 0.12], 0.10) == (0.11, None, "met")
    assert judged([0.09, 0.11, 0.08], 0.10) == (0.09, None, "MISSED")
    assert judged([1.2], 1.3, higher_is_better=False) == (1.2, None, "met")


def test_review_bench_times_diff_and_replay_and_checks_what_they_print():
    result = run_script("run-review-bench.sh", timeout=300, LINKS="500", DECISIONS="300", RUNS="1", COORDINATORS="50",
                        PAGES="200", BIN_DIR=BIN)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert any(line.startswith("diff, links file:") and "500 links in" in line for line in lines), lines
    assert any(line.startswith("replay:") and "300 decisions in" in line
               and "(300 of 300 decisions replayed would change)" in line for line in lines), lines
    assert any(line.startswith("ListHistory alone:") and "300 entries in 1 pages" in line for line in lines), lines


def test_daemon_bench_refuses_zero_event_loops():
    result = run_script("run-daemon-bench.sh", timeout=30, EVENT_LOOPS="0", BIN_DIR=BIN)
    assert result.returncode == 2
    assert "EVENT_LOOPS is a count (1 or more), not '0'" in result.stderr
