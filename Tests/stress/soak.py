#!/usr/bin/env python3
"""A long mixed load against one notifyd: valid, gated, fallback and malformed requests.

    python3 Tests/stress/soak.py [--requests 1000000] [--clients 4] [--seconds-cap 7200] [--event-loops N]

Clients share the requests; 30% of the valid ones are recorded for a device (not dry runs) and their decision ids
kept. At the end: the daemon is the same process (zero crashes), every acknowledged decision is in the history
(GetDecision; a random sample of --verify of them) and every device's state is what its last acknowledged decision produced, the RSS after warm-up stays
within bounds (the last sample against the one at 10% of the run), and the fd count is back to the baseline. A
summary table is printed; exit status 0 when all hold.
"""
import argparse
import os
import random
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from crash import state_matches  # noqa: E402
from flood import MALFORMED  # noqa: E402
import harness  # noqa: E402
from harness import (EXPECTED, ROUTER, Conn, Daemon, Sampler, check_decision, raise_fd_limit,  # noqa: E402
                     resolve_frame, settle_fds, table)


class Client(threading.Thread):
    def __init__(self, d, index, count, deadline):
        super().__init__(daemon=True)
        self.d = d
        self.index = index
        self.count = count
        self.deadline = deadline
        self.rng = random.Random(index)
        self.counts = {"routed": 0, "gated": 0, "fallback": 0, "malformed": 0}
        self.wrong = []
        self.acked = {}
        self.acked_ids = []
        self.done = 0

    def run(self):
        conn = Conn(self.d.socket, timeout=60)
        devices = [f"soak-{self.index}-{n}" for n in range(50)]
        try:
            for i in range(self.count):
                if i % 256 == 0 and time.monotonic() > self.deadline:
                    break
                self.done += 1
                if self.rng.random() < 0.1:
                    try:
                        conn.send(self.rng.choice(MALFORMED))
                        reply = conn.recv()
                    except OSError:
                        reply = None
                    if reply is None:
                        conn.close()
                        conn = Conn(self.d.socket, timeout=60)
                    elif "error" not in reply:
                        self.wrong.append("a malformed request was answered without an error")
                    self.counts["malformed"] += 1
                    continue
                link, page, outcome = EXPECTED[self.rng.randrange(len(EXPECTED))]
                device = self.rng.choice(devices) if self.rng.random() < 0.3 else None
                try:
                    conn.send(resolve_frame(link, device=device, dry_run=device is None))
                    reply = conn.recv()
                except OSError as error:
                    reply = None
                    self.wrong.append(f"{type(error).__name__}: {error}")
                problem = check_decision(reply, page, outcome)
                if problem:
                    self.wrong.append(problem)
                    conn.close()
                    conn = Conn(self.d.socket, timeout=60)
                    continue
                self.counts[outcome] += 1
                if device is not None:
                    decision = reply["parameters"]["decision"]
                    self.acked[device] = decision
                    self.acked_ids.append((decision["id"], page))
        finally:
            conn.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=1_000_000)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seconds-cap", type=float, default=7200, help="stop early after this long")
    parser.add_argument("--event-loops", type=int, default=1,
                        help="the daemon's --event-loops (2 and more: lanes answer the device-less dry runs)")
    parser.add_argument("--verify", type=int, default=20000,
                        help="acknowledged decisions looked up at the end, a random sample (0 = all)")
    args = parser.parse_args()
    raise_fd_limit(4096)
    # The history keeps every decision of the run (the default keeps the newest 100,000 and prunes the rest), so each
    # acknowledged one can be looked up at the end.
    harness.COMMON_ARGS[:] = ["--event-loops", str(args.event_loops)]
    d = Daemon(["--history-limit", str(max(100_000, args.requests))]).start()
    try:
        assert d.answers()
        pid = d.pid
        fds_before = d.fd_count()
        sampler = Sampler(d, interval=1.0)
        sampler.start()
        started = time.monotonic()
        deadline = started + args.seconds_cap
        per = args.requests // args.clients
        clients = [Client(d, n, per, deadline) for n in range(args.clients)]
        for c in clients:
            c.start()
        series = []
        while any(c.is_alive() for c in clients):
            time.sleep(5)
            done = sum(c.done for c in clients)
            rss, _ = d.memory_kib() if d.alive() else (0, 0)
            series.append((done, rss))
            print(f"  {done} requests, {time.monotonic() - started:.0f}s, RSS {rss // 1024} MiB, "
                  f"fds {d.fd_count() if d.alive() else '-'}", flush=True)
        elapsed = time.monotonic() - started
        sampler.stop()
        same_process = d.alive() and d.pid == pid
        fds_after = settle_fds(d, fds_before)
        lost = wrong_states = checked = 0
        with Conn(d.socket) as conn:
            acked = [entry for c in clients for entry in c.acked_ids]
            if args.verify and len(acked) > args.verify:
                acked = random.Random(0).sample(acked, args.verify)
            for decision_id, page in acked:
                checked += 1
                got = conn.call(f"{ROUTER}.GetDecision", {"id": decision_id}).get("parameters", {})
                if got.get("decision", {}).get("page", {}).get("id") != page:
                    lost += 1
            for c in clients:
                for device, decision in c.acked.items():
                    state = conn.call(f"{ROUTER}.GetState", {"device": device})["parameters"]["state"]
                    if not state_matches(state, decision):
                        wrong_states += 1
        done = sum(c.done for c in clients)
        wrong = sum(len(c.wrong) for c in clients)
        early = next((rss for n, rss in series if n >= done // 10), series[0][1] if series else 0)
        late = series[-1][1] if series else 0
        rss_stable = late <= max(early * 1.5, early + 32 * 1024)
        counts = {k: sum(c.counts[k] for c in clients) for k in clients[0].counts}
        rows = [
            ["requests", done], ["seconds", round(elapsed)], ["requests/s", round(done / elapsed)],
            ["routed", counts["routed"]], ["gated", counts["gated"]], ["fallback", counts["fallback"]],
            ["malformed", counts["malformed"]], ["wrong replies", wrong], ["crashes", 0 if same_process else 1],
            ["acknowledged decisions", sum(len(c.acked_ids) for c in clients)],
            ["of them looked up", checked], ["lost", lost], ["wrong device states", wrong_states],
            ["RSS at 10% (MiB)", early // 1024], ["RSS at end (MiB)", late // 1024],
            ["peak RSS (MiB)", sampler.peak_rss // 1024], ["VmHWM (MiB)", sampler.hwm // 1024],
            ["fds before/after/peak", f"{fds_before}/{fds_after}/{sampler.peak_fds}"],
        ]
        print(table(rows, ["soak", "value"]))
        if wrong:
            print("first wrong reply:", next(c.wrong[0] for c in clients if c.wrong))
        ok = same_process and wrong == 0 and lost == 0 and wrong_states == 0 and rss_stable and fds_after <= fds_before
        print("soak: ok" if ok else "soak: FAILED")
        sys.exit(0 if ok else 1)
    finally:
        d.cleanup()


if __name__ == "__main__":
    main()
