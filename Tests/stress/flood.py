#!/usr/bin/env python3
"""Floods and slow clients against a notifyd on a loopback Unix socket.

    python3 Tests/stress/flood.py [--short] [--scenario NAME ...] [--churn N]

Scenarios: concurrent (1,000 connections at once), silent (connect and send nothing), slow (one byte per second),
noread (send without ever reading replies), churn (connect/request/close N times, 100,000 by default), mixed (valid
and malformed requests at full speed). During each, a probe client checks every reply it gets; the daemon's RSS and
fd count are sampled. Every scenario is bounded in count and time and stops by itself. Exit status 0 when every
scenario passed: probe replies all correct, the daemon alive, fds back to the baseline.
"""
import argparse
import os
import random
import selectors
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import (EXPECTED, ROUTER, Conn, Daemon, Probe, Sampler, check_decision, frame,  # noqa: E402
                     raise_fd_limit, resolve_frame, settle_fds, table)


def connect(path, blocking=True):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    s.setblocking(blocking)
    return s


def read_replies(sockets, wanted, timeout):
    """Reads until each socket has `wanted` NUL-terminated replies or EOF; returns (replies, eofs)."""
    sel = selectors.DefaultSelector()
    buffers = {}
    for s in sockets:
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ)
        buffers[s] = b""
    done = {}
    deadline = time.monotonic() + timeout
    replies = eofs = 0
    while len(done) < len(sockets) and time.monotonic() < deadline:
        for key, _ in sel.select(0.2):
            s = key.fileobj
            try:
                chunk = s.recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                chunk = b""
            if not chunk:
                eofs += 1
                done[s] = True
                sel.unregister(s)
                continue
            buffers[s] += chunk
            if buffers[s].count(b"\0") >= wanted:
                done[s] = True
                sel.unregister(s)
    for s in sockets:
        replies += buffers[s].count(b"\0")
    sel.close()
    return replies, eofs


def concurrent(d, n, **_):
    """n connections open at once, each sends one request, every reply is checked."""
    sockets = []
    for _ in range(n):
        sockets.append(connect(d.socket))
    for i, s in enumerate(sockets):
        s.sendall(resolve_frame(EXPECTED[i % len(EXPECTED)][0]))
    replies, eofs = read_replies(sockets, 1, timeout=120)
    for s in sockets:
        s.close()
    ok = replies == n and eofs == 0
    return ok, f"{n} open, {replies} replies, {eofs} closed early"


def silent(d, n, seconds, **_):
    """n clients connect and send nothing for `seconds`."""
    sockets = [connect(d.socket) for _ in range(n)]
    time.sleep(seconds)
    open_count = 0
    for s in sockets:
        s.setblocking(False)
        try:
            open_count += s.recv(1) == b"" and 0 or 1
        except BlockingIOError:
            open_count += 1
        except OSError:
            pass
        s.close()
    return True, f"{n} silent for {seconds}s, {open_count} still open"


def slow(d, n, seconds, **_):
    """n clients send a valid request one byte per second; replies that arrive in time are checked."""
    data = resolve_frame(EXPECTED[0][0])
    sockets = [connect(d.socket) for _ in range(n)]
    sent = 0
    start = time.monotonic()
    for second in range(seconds):
        for s in sockets:
            try:
                s.send(data[second:second + 1])
                sent += 1
            except OSError:
                pass
        time.sleep(max(0.0, start + second + 1 - time.monotonic()))
    # Finish the requests at full speed: each must then be answered correctly.
    bad = 0
    for s in sockets:
        try:
            s.sendall(data[seconds:])
        except OSError:
            bad += 1
    replies, eofs = read_replies(sockets, 1, timeout=30)
    for s in sockets:
        s.close()
    return replies + eofs == n, f"{n} clients, {sent} single bytes, then {replies} replies, {eofs} closed"


def noread(d, n, seconds, **_):
    """n clients pipeline requests for `seconds` and never read a reply."""
    data = resolve_frame(EXPECTED[1][0]) * 64
    sockets = [connect(d.socket, blocking=False) for _ in range(n)]
    sent = 0
    blocked = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        progress = False
        for s in sockets:
            try:
                sent += s.send(data)
                progress = True
            except BlockingIOError:
                pass
            except OSError:
                pass
        if not progress:
            blocked += 1
            time.sleep(0.01)
    for s in sockets:
        s.close()
    return True, f"{n} clients sent {sent // 1024} KiB unread, stalled {blocked} times"


def churn(d, cycles, seconds_cap, **_):
    """connect, one request, check, close; `cycles` times (or until `seconds_cap`)."""
    deadline = time.monotonic() + seconds_cap
    done = bad = 0
    for i in range(cycles):
        if time.monotonic() > deadline:
            break
        link, page, outcome = EXPECTED[i % len(EXPECTED)]
        try:
            with Conn(d.socket, timeout=30) as c:
                c.send(resolve_frame(link))
                if check_decision(c.recv(), page, outcome):
                    bad += 1
        except OSError:
            bad += 1
        done += 1
    return bad == 0, f"{done} cycles, {bad} bad"


MALFORMED = [
    b"\x00",
    b"not json\x00",
    b"[1,2,3]\x00",
    b'{"method": 42}\x00',
    b'{"method": "io.notifyd.Router.GetStats", "sneaky": true}\x00',
    b'{"method": "io.notifyd.Router.Resolve", "parameters": {"link": 42}}\x00',
    b'{"method": "io.notifyd.Router.Nope"}\x00',
    b'{"method": "io.notifyd.Router.Route", "parameters": {"payload": {"aps": 3}}}\x00',
    b'{"method": "io.notifyd.Router.Resolve", "parameters": {"link": "' + b"\xff\xfe" + b'"}}\x00',
    b'{"method": "io.notifyd.Router.Resolve", "parameters": {"link": "' + b"[" * 300 + b'"}\x00',
    b'{"method": "x", "parameters": ' + b"[" * 2000 + b"]" * 2000 + b"}\x00",
]


def mixed(d, count, seconds_cap, **_):
    """valid and malformed requests at full speed; a valid request gets a correct answer, malformed ones an error
    or a close of their own connection."""
    rng = random.Random(7)
    deadline = time.monotonic() + seconds_cap
    valid = malformed = bad = 0
    conn = Conn(d.socket, timeout=30)
    for i in range(count):
        if time.monotonic() > deadline:
            break
        if rng.random() < 0.6:
            link, page, outcome = EXPECTED[rng.randrange(len(EXPECTED))]
            try:
                conn.send(resolve_frame(link))
                problem = check_decision(conn.recv(), page, outcome)
            except OSError as error:
                problem = str(error)
            if problem:
                bad += 1
                conn.close()
                conn = Conn(d.socket, timeout=30)
            valid += 1
        else:
            data = rng.choice(MALFORMED)
            try:
                conn.send(data)
                reply = conn.recv()
            except OSError:
                reply = None
            if reply is None:  # the daemon closed the connection: take a new one
                conn.close()
                conn = Conn(d.socket, timeout=30)
            elif "error" not in reply:
                bad += 1
            malformed += 1
    conn.close()
    return bad == 0, f"{valid} valid, {malformed} malformed, {bad} wrong"


def scenarios(short, churn_cycles):
    if short:
        return [
            ("concurrent", concurrent, {"n": 200}),
            ("silent", silent, {"n": 50, "seconds": 1}),
            ("slow", slow, {"n": 10, "seconds": 2}),
            ("noread", noread, {"n": 4, "seconds": 1}),
            ("churn", churn, {"cycles": churn_cycles or 300, "seconds_cap": 20}),
            ("mixed", mixed, {"count": 1000, "seconds_cap": 20}),
        ]
    return [
        ("concurrent", concurrent, {"n": 1000}),
        ("silent", silent, {"n": 500, "seconds": 10}),
        ("slow", slow, {"n": 100, "seconds": 20}),
        ("noread", noread, {"n": 20, "seconds": 10}),
        ("churn", churn, {"cycles": churn_cycles or 100_000, "seconds_cap": 1800}),
        ("mixed", mixed, {"count": 100_000, "seconds_cap": 900}),
    ]


def run(short=False, only=None, churn_cycles=None, out=sys.stdout):
    """Runs the scenarios; returns a list of result dicts (one per scenario)."""
    raise_fd_limit(8192)
    d = Daemon(["--max-connections", "2000", "--max-connections-per-uid", "2000", "--idle-timeout", "60"]).start()
    results = []
    try:
        # Warm up so the baseline includes the lazily opened files (database, journal).
        assert d.answers(), "the daemon does not answer"
        for name, function, kwargs in scenarios(short, churn_cycles):
            if only and name not in only:
                continue
            fds_before = settle_fds(d, 0, timeout=0)
            sampler = Sampler(d)
            probe = Probe(d)
            sampler.start()
            probe.start()
            started = time.monotonic()
            try:
                passed, detail = function(d, **kwargs)
            except Exception as error:  # a scenario that breaks is a failure, not a crash of the tool
                passed, detail = False, f"{type(error).__name__}: {error}"
            elapsed = time.monotonic() - started
            probe.stop()
            sampler.stop()
            alive = d.alive() and d.answers()
            fds_after = settle_fds(d, fds_before)
            ok = passed and alive and not probe.errors and probe.ok > 0 and fds_after <= fds_before
            results.append({
                "scenario": name, "ok": ok, "detail": detail, "seconds": round(elapsed, 1),
                "probe_ok": probe.ok, "probe_errors": len(probe.errors), "probe_max_ms": round(probe.max_latency * 1000),
                "peak_rss_kib": sampler.peak_rss, "hwm_kib": sampler.hwm, "peak_fds": sampler.peak_fds,
                "fds_before": fds_before, "fds_after": fds_after, "alive": alive,
                "first_probe_error": probe.errors[0] if probe.errors else "",
            })
            print(f"{name}: {'ok' if ok else 'FAILED'} — {detail}"
                  + (f" — probe: {probe.errors[0]}" if probe.errors else ""), file=out, flush=True)
    finally:
        d.cleanup()
    rows = [[r["scenario"], "ok" if r["ok"] else "FAIL", r["seconds"], r["probe_ok"], r["probe_errors"],
             r["probe_max_ms"], r["peak_rss_kib"] // 1024, r["hwm_kib"] // 1024, r["peak_fds"],
             f"{r['fds_before']}->{r['fds_after']}", r["detail"]] for r in results]
    print(table(rows, ["scenario", "result", "s", "probe ok", "probe err", "probe max ms", "peak RSS MiB",
                       "HWM MiB", "peak fds", "fds", "detail"]), file=out, flush=True)
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--short", action="store_true", help="a few seconds per scenario (what make test runs)")
    parser.add_argument("--scenario", action="append", help="run only this scenario (repeatable)")
    parser.add_argument("--churn", type=int, help="connect/request/close cycles (default 100000, short 300)")
    parser.add_argument("--event-loops", type=int, default=1,
                        help="the daemon's --event-loops (2 and more: lanes answer the device-less dry runs)")
    args = parser.parse_args()
    harness.COMMON_ARGS[:] = ["--event-loops", str(args.event_loops)]
    results = run(args.short, args.scenario, args.churn)
    sys.exit(0 if results and all(r["ok"] for r in results) else 1)


if __name__ == "__main__":
    main()
