#!/usr/bin/env python3
"""Crash faults: kill -9 under load, SIGSTOP/SIGCONT, and a read-only state directory.

    python3 Tests/stress/crash.py [--short] [--rounds N] [--seed S]

kill -9: clients route links for their own devices (non-dry-run) while the daemon is killed at a random moment;
the daemon is restarted on the same --state-dir and every decision whose reply a client received must be in the
history (GetDecision), and every device's state must be what its last acknowledged decision produced (its page on top
of its owner's stack, or its gate on top and its page pending). A decision committed whose reply was lost in the kill is allowed: it
is then the newest decision of its device, and the state must match it instead.

SIGSTOP/SIGCONT: requests sent to a stopped daemon are answered, correctly, after SIGCONT.

Read-only state directory (a read-only bind mount in a private mount namespace, so it holds for root too):
notifyd refuses to start, exit status 1, with a message naming the directory and how to fix it. It does not fall
back to answering dry runs only: an acknowledged decision must be durable, and a daemon that silently drops every
recorded request would break that. (A filesystem cannot be remounted read-only under a running daemon: the database
is open for writing, so the remount fails with EBUSY; that case does not arise.)
"""
import argparse
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import EXPECTED, NOTIFYD, ROUTER, SHOP, Conn, Daemon, check_decision, resolve_frame, table  # noqa: E402


class Worker(threading.Thread):
    """Routes links for its devices until the connection fails; remembers what was acknowledged."""

    def __init__(self, socket_path, devices, rng_seed):
        super().__init__(daemon=True)
        self.path = socket_path
        self.devices = devices
        self.rng = random.Random(rng_seed)
        self.acked = {}  # device -> last acknowledged decision
        self.acked_ids = []  # (id, page id) of every acknowledged decision
        self.inflight = {}  # device -> link sent without a reply yet
        self.wrong = []
        self.stopping = threading.Event()

    def run(self):
        try:
            conn = Conn(self.path, timeout=30)
        except OSError:
            return
        try:
            while not self.stopping.is_set():
                device = self.rng.choice(self.devices)
                link, page, outcome = EXPECTED[self.rng.randrange(len(EXPECTED))]
                self.inflight[device] = link
                conn.send(resolve_frame(link, device=device, dry_run=False))
                reply = conn.recv()
                if reply is None:
                    return
                if "error" in reply:
                    self.wrong.append(f"error reply: {json.dumps(reply)[:200]}")
                    continue
                problem = check_decision(reply, page, outcome)
                if problem:
                    self.wrong.append(problem)
                    continue
                decision = reply["parameters"]["decision"]
                self.inflight.pop(device, None)
                self.acked[device] = decision
                self.acked_ids.append((decision["id"], decision["page"]["id"]))
        except OSError:
            return
        finally:
            conn.close()


def state_matches(state, decision):
    """The state is what the decision produced: a gated decision leaves its gate on top and its page pending; any
    other leaves its page on top of the stack of the last coordinator of its path."""
    if state is None:
        return False
    if decision["outcome"] == "gated":
        pending = state.get("pending") or {}
        return (state["path"][-1] == decision["pending"]["gate"]
                and pending.get("page", {}).get("description") == decision["pending"]["page"]["description"])
    owner = decision["path"][-1]
    stack = state.get("stacks", {}).get(owner, [])
    return (state["path"][-1] == owner and bool(stack)
            and stack[-1]["description"] == decision["page"]["description"])


def verify(d, workers):
    """(checked decisions, lost decisions, checked devices, wrong states, unacknowledged commits) after a restart."""
    lost = []
    wrong_states = []
    unacked_commits = 0
    checked = 0
    with Conn(d.socket) as c:
        for w in workers:
            for decision_id, page in w.acked_ids:
                checked += 1
                reply = c.call(f"{ROUTER}.GetDecision", {"id": decision_id})
                got = reply.get("parameters", {}).get("decision")
                if not got or got["page"]["id"] != page:
                    lost.append(decision_id)
        devices = 0
        for w in workers:
            for device, decision in w.acked.items():
                devices += 1
                state = c.call(f"{ROUTER}.GetState", {"device": device})["parameters"]["state"]
                if state_matches(state, decision):
                    continue
                newest = c.call(f"{ROUTER}.ListDecisions", {"device": device, "limit": 1})["parameters"]["decisions"]
                if (device in w.inflight and newest and newest[0]["id"] != decision["id"]
                        and state_matches(state, newest[0])):
                    unacked_commits += 1  # committed, but the reply was lost in the kill
                    continue
                wrong_states.append(f"{device}: state {json.dumps(state)[:300]} vs decision {decision['id']}")
    return checked, lost, devices, wrong_states, unacked_commits


def kill_rounds(rounds, clients=4, devices_per_client=5, seed=1, min_s=0.2, max_s=1.5, out=sys.stdout):
    rng = random.Random(seed)
    d = Daemon()
    results = []
    try:
        d.start()
        for n in range(rounds):
            workers = [Worker(d.socket, [f"r{n}-c{i}-d{j}" for j in range(devices_per_client)], rng.random())
                       for i in range(clients)]
            for w in workers:
                w.start()
            time.sleep(rng.uniform(min_s, max_s))
            d.kill9()
            for w in workers:
                w.stopping.set()
                w.join(30)
            d.start()
            checked, lost, devices, wrong_states, unacked = verify(d, workers)
            wrong_replies = sum(len(w.wrong) for w in workers)
            results.append({"round": n + 1, "acked": checked, "lost": len(lost), "devices": devices,
                            "wrong_states": len(wrong_states), "unacked_commits": unacked,
                            "wrong_replies": wrong_replies, "first_problem": (lost + wrong_states)[:1]})
            for problem in (lost + wrong_states)[:3]:
                print(f"round {n + 1}: {problem}", file=out)
        alive = d.answers()
    finally:
        d.cleanup()
    return results, alive


def stop_cont(clients=8, stopped_s=2.0):
    """Requests to a SIGSTOPped daemon wait and are answered correctly after SIGCONT."""
    d = Daemon().start()
    try:
        conns = [Conn(d.socket, timeout=60) for _ in range(clients)]
        os.kill(d.pid, signal.SIGSTOP)
        try:
            for i, c in enumerate(conns):
                c.send(resolve_frame(EXPECTED[i % len(EXPECTED)][0]))
            # None may be answered while stopped: a short poll on each must find nothing.
            early = 0
            for c in conns:
                c.sock.settimeout(stopped_s / clients)
                try:
                    if c.sock.recv(1, __import__("socket").MSG_PEEK):
                        early += 1
                except OSError:
                    pass
        finally:
            os.kill(d.pid, signal.SIGCONT)
        ok = 0
        for i, c in enumerate(conns):
            c.sock.settimeout(60)
            _, page, outcome = EXPECTED[i % len(EXPECTED)]
            if check_decision(c.recv(), page, outcome) is None:
                ok += 1
            c.close()
        return {"clients": clients, "answered_while_stopped": early, "answered_after_cont": ok,
                "alive": d.answers()}
    finally:
        d.cleanup()


def readonly_at_start():
    """notifyd on a read-only state directory: exit status and message."""
    d = Daemon()
    os.makedirs(d.state_dir, exist_ok=True)
    script = ('mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"')
    args = [NOTIFYD, "--config", SHOP, "--socket", d.socket, "--state-dir", d.state_dir, "--log-target", "console"]
    try:
        run = subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", d.state_dir] + args,
                             capture_output=True, text=True, timeout=60)
        return {"status": run.returncode, "message": run.stderr.strip().splitlines()[-1] if run.stderr else ""}
    finally:
        d.cleanup()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--short", action="store_true", help="3 rounds (what make test runs)")
    parser.add_argument("--rounds", type=int, default=None, help="kill -9 rounds (default 20, short 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--event-loops", type=int, default=1,
                        help="the daemon's --event-loops (2 and more: lanes answer the device-less dry runs)")
    args = parser.parse_args()
    harness.COMMON_ARGS[:] = ["--event-loops", str(args.event_loops)]
    rounds = args.rounds or (3 if args.short else 20)
    ok = True

    results, alive = kill_rounds(rounds, seed=args.seed)
    rows = [[r["round"], r["acked"], r["lost"], r["devices"], r["wrong_states"], r["unacked_commits"],
             r["wrong_replies"]] for r in results]
    print(table(rows, ["round", "acked decisions", "lost", "devices", "wrong states", "committed unacked",
                       "wrong replies"]))
    total_lost = sum(r["lost"] + r["wrong_states"] + r["wrong_replies"] for r in results)
    print(f"kill -9: {rounds} rounds, {sum(r['acked'] for r in results)} acknowledged decisions, "
          f"{total_lost} lost or wrong, daemon answering after the last restart: {alive}")
    ok &= total_lost == 0 and alive

    sc = stop_cont()
    print(f"SIGSTOP/SIGCONT: {sc}")
    ok &= sc["answered_while_stopped"] == 0 and sc["answered_after_cont"] == sc["clients"] and sc["alive"]

    ro = readonly_at_start()
    print(f"read-only state dir at start: {ro}")
    ok &= ro["status"] == 1 and "not writable" in ro["message"]

    print("crash: ok" if ok else "crash: FAILED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
