"""notifyd with lanes (`--event-loops N`): event loops beside the main one that answer device-less dry runs.

The main loop accepts every connection and hands some to the lanes in turn; a lane's connection moves to the main
loop at its first call the lane does not answer. Each test opens several connections, so that some are the lanes'
whatever turn the first one takes, and checks what a client sees: every reply, in order, and the service's counts,
history, monitors, reload and stop as with one loop."""
import contextlib
import os
import re
import signal
import socket
import time

import varlink

from conftest import Raw, call

ROUTER = "io.notifyd.Router"
APNS = {"aps": {"alert": "Summer sale"}, "deeplink": "shop://offers/SUMMER"}
FCM = {"message": {"token": "t", "data": {"deeplink": "shop://cart/checkout"}}}


def dry_route(payload):
    return call(f"{ROUTER}.Route", {"payload": payload, "dryRun": True})


def dry_resolve(link):
    return call(f"{ROUTER}.Resolve", {"link": link, "dryRun": True})


def page_of(reply):
    assert "error" not in reply, reply
    return reply["parameters"]["decision"]["page"]["id"]


def stats(d):
    return d.call(f"{ROUTER}.GetStats")["parameters"]["stats"]


@contextlib.contextmanager
def connected(d, count):
    """`count` connections to daemon `d`, closed afterwards."""
    connections = [Raw(d.socket) for _ in range(count)]
    try:
        yield connections
    finally:
        for raw in connections:
            raw.sock.close()


def test_lanes_answer_dry_runs_and_the_main_loop_counts_and_keeps_them(make_daemon):
    # Without a state directory, ListDecisions lists the decisions kept in memory, dry runs among them.
    d = make_daemon("--event-loops", "3", state=False).start()
    with connected(d, 6) as connections:
        for raw in connections:
            raw.send((dry_route(APNS) + dry_route(FCM) + dry_resolve("shop://products/42")) * 10)
        ids = []
        for raw in connections:
            replies = [raw.recv() for _ in range(30)]
            assert [page_of(r) for r in replies] == ["cart.offer", "cart.checkout", "catalog.product"] * 10
            ids += [r["parameters"]["decision"]["id"] for r in replies]
    assert len(set(ids)) == 180
    s = stats(d)
    assert s["decisions"] == 180 and s["eventLoops"] == 3
    assert s["laneDecisions"] == 120  # six connections taken in turn by three loops: four on the lanes
    assert s["formats"] == {"apns": 60, "fcm": 60, "link": 60}
    assert s["outcomes"] == {"routed": 120, "gated": 60}
    # Each connection's last decision is in the history, asked for on another connection.
    for n in range(6):
        decision_id = ids[n * 30 + 29]
        assert d.call(f"{ROUTER}.GetDecision", {"id": decision_id})["parameters"]["decision"]["id"] == decision_id
    listed = d.call(f"{ROUTER}.ListDecisions", {"limit": 200})["parameters"]["decisions"]
    assert set(ids) <= {entry["id"] for entry in listed}
    # Every loop's decisions in one list, newest first (ids grow with time).
    listed_ids = [entry["id"] for entry in listed]
    assert listed_ids == sorted(listed_ids, reverse=True)
    assert [e["id"] for e in d.call(f"{ROUTER}.ListDecisions", {"limit": 7})["parameters"]["decisions"]] == \
        listed_ids[:7]
    assert d.logged("routed cart.offer(id: \"SUMMER\") (dry run)")


def test_a_call_a_lane_does_not_answer_moves_its_connection_and_replies_keep_their_order(make_daemon):
    d = make_daemon("--event-loops", "2").start()
    with connected(d, 4) as connections:
        for n, raw in enumerate(connections):
            raw.send(
                dry_route(APNS)
                + call(f"{ROUTER}.Route", {"payload": APNS, "device": f"mover-{n}"})
                + dry_resolve("shop://products/42")
                + call(f"{ROUTER}.GetState", {"device": f"mover-{n}"})
                + dry_route(FCM))
        for n, raw in enumerate(connections):
            replies = [raw.recv() for _ in range(5)]
            assert replies[0]["parameters"]["decision"]["device"] is None
            assert page_of(replies[0]) == "cart.offer"
            assert replies[1]["parameters"]["decision"]["device"] == f"mover-{n}"
            assert page_of(replies[2]) == "catalog.product"
            assert replies[3]["parameters"]["state"]["path"] == ["app", "main", "cart"]
            assert page_of(replies[4]) == "cart.checkout"
            # The connection goes on answering after the move.
            raw.send(dry_route(APNS))
            assert page_of(raw.recv()) == "cart.offer"
    s = stats(d)
    assert s["decisions"] == 20 and s["store"]["devices"] == 4
    assert s["laneDecisions"] == 2  # the first call of each lane's connection, before it moved


def wait_for_monitors(d, count):
    """Waits until daemon `d` has `count` monitors: loops do not wait for each other, so decisions meant for a monitor
    start once it is registered."""
    deadline = time.monotonic() + 10
    while stats(d)["monitors"] != count:
        assert time.monotonic() < deadline
        time.sleep(0.01)


def dry_runs_on(d, frame, each):
    """The ids of `each` dry runs `frame` sent on each of four connections to `d` (both loops' connections)."""
    with connected(d, 4) as connections:
        for raw in connections:
            raw.send(frame * each)
        return {raw.recv()["parameters"]["decision"]["id"] for raw in connections for _ in range(each)}


def streamed(monitor, count):
    """The ids of the next `count` decisions `monitor` is sent."""
    seen = set()
    while len(seen) < count:
        reply = monitor.recv()
        assert reply is not None and reply.get("continues") is True
        seen.add(reply["parameters"]["decision"]["id"])
    return seen


def test_monitors_see_the_decisions_of_every_loop(make_daemon):
    d = make_daemon("--event-loops", "2").start()
    with Raw(d.socket) as monitor:
        monitor.send(call(f"{ROUTER}.Monitor", more=True))
        wait_for_monitors(d, 1)
        made = dry_runs_on(d, dry_route(APNS), 5)
        assert streamed(monitor, len(made)) == made
    # With no monitor left, the lanes keep their decisions to themselves; a new monitor gets every loop's again.
    wait_for_monitors(d, 0)
    unseen = dry_runs_on(d, dry_route(FCM), 3)
    with Raw(d.socket) as monitor:
        monitor.send(call(f"{ROUTER}.Monitor", more=True))
        wait_for_monitors(d, 1)
        made = dry_runs_on(d, dry_route(APNS), 2)
        seen = streamed(monitor, len(made))
        assert seen == made and not seen & unseen


def test_a_reload_reaches_the_lanes(make_daemon):
    d = make_daemon("--event-loops", "2").start()
    with connected(d, 4) as connections:
        for raw in connections:
            raw.send(dry_resolve("shop://deals/SUMMER"))
            assert raw.recv()["parameters"]["decision"]["outcome"] == "fallback"
        with open(d.config) as f:
            text = f.read()
        with open(d.config, "w") as f:
            f.write(text.replace('"offer(id: String)": ["/offers/{id}"', '"offer(id: String)": ["/deals/{id}"', 1))
        assert d.call(f"{ROUTER}.Reload")["parameters"]["generation"] == 2
        for raw in connections:
            raw.send(dry_resolve("shop://deals/SUMMER"))
            assert page_of(raw.recv()) == "cart.offer"


def test_a_stop_answers_every_request_the_lanes_were_sent(make_daemon):
    d = make_daemon("--event-loops", "2").start()
    with connected(d, 4) as connections:
        for raw in connections:
            raw.send(dry_route(FCM) * 300)
        for raw in connections:
            assert page_of(raw.recv()) == "cart.checkout"  # accepted and served: the stop does not refuse it
        d.process.send_signal(signal.SIGTERM)
        for raw in connections:
            assert [page_of(raw.recv()) for _ in range(299)] == ["cart.checkout"] * 299
            assert raw.recv() is None  # then the daemon closes it
    assert d.process.wait(20) == 0


def test_broken_calls_on_lanes_are_refused_counted_and_journaled(make_daemon):
    d = make_daemon("--event-loops", "2", "--max-message", "1024").start()
    for n in range(4):
        with Raw(d.socket) as raw:
            raw.send(b"{" + b" " * 2000 + b"}\0")
            reply = raw.recv()
            assert reply["error"] == f"{ROUTER}.PayloadTooLarge", reply
            assert raw.closed_by_peer()
        with Raw(d.socket) as raw:
            raw.send(b"{not json\0")
            assert raw.closed_by_peer()
    s = stats(d)
    assert s["protocolViolations"] == 8
    assert s["connections"]["dropped"] == 8
    assert d.logged("closing connection of uid")


def test_connections_closed_on_lanes_leave_the_counts(make_daemon):
    d = make_daemon("--event-loops", "3", "--idle-timeout", "1", "--max-connections", "6").start()
    with connected(d, 5) as connections:
        for raw in connections:
            raw.send(dry_route(APNS))
            assert page_of(raw.recv()) == "cart.offer"
        assert stats(d)["connections"]["open"] == 6  # the five, and the one asking
        for raw in connections:
            assert raw.closed_by_peer()  # idle for a second
    deadline = time.monotonic() + 10
    while stats(d)["connections"]["open"] != 1:
        assert time.monotonic() < deadline, stats(d)["connections"]
        time.sleep(0.05)
    # The cap counts what the lanes hold: five at once (and the one asking) are served again.
    with connected(d, 5) as again:
        for raw in again:
            raw.send(dry_resolve("shop://products/42"))
            assert page_of(raw.recv()) == "catalog.product"


def test_the_watchdog_is_petted_while_the_lanes_answer(make_daemon, workdir, monkeypatch):
    # systemd's end of sd_notify, with a watchdog of 200 ms: the main loop pets it every 100 ms once every lane has
    # answered its last check, also while the lanes serve.
    path = os.path.join(workdir, "notify.sock")
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(path)
    notify.settimeout(5)
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", "200000")
    d = make_daemon("--event-loops", "3").start()
    try:
        pets = 0
        deadline = time.monotonic() + 1.5
        with connected(d, 6) as connections:
            while time.monotonic() < deadline:
                for raw in connections:
                    raw.send(dry_route(APNS) * 20)
                for raw in connections:
                    assert [page_of(raw.recv()) for _ in range(20)] == ["cart.offer"] * 20
                try:
                    while True:
                        notify.settimeout(0)
                        pets += notify.recv(4096).decode().count("WATCHDOG=1")
                except BlockingIOError:
                    pass
        notify.settimeout(1)
        pets += notify.recv(4096).decode().count("WATCHDOG=1")
        assert pets >= 8, pets  # 15 are due in 1.5 s
        assert not d.logged("did not answer", timeout=0)
    finally:
        notify.close()


def test_a_lane_decides_as_the_main_loop_does(make_daemon):
    # The same calls on four connections (the loops take them in turn, so both answer some): every reply is the same
    # decision but for its id and time, with warnings, a trace, a forced format, a gate and a fallback among them.
    calls = [
        dry_route(APNS),
        call(f"{ROUTER}.Route", {"payload": {"aps": {"alert": "hi", "thread_id": "x"},
                                             "deeplink": "shop://offers/W"}, "dryRun": True}),
        call(f"{ROUTER}.Route", {"payload": FCM, "dryRun": True, "explain": True}),
        call(f"{ROUTER}.Route", {"payload": APNS, "dryRun": True, "format": "apns", "strict": True}),
        dry_resolve("shop://no/such/page"),
        call(f"{ROUTER}.Resolve", {"link": "https://shop.example.com/products/p-9", "dryRun": True, "explain": True}),
    ]
    d = make_daemon("--event-loops", "2").start()
    replies = []
    with connected(d, 4) as connections:
        for raw in connections:
            raw.send(b"".join(calls) + call(f"{ROUTER}.Route", {"payload": APNS, "dryRun": True}, oneway=True))
        for raw in connections:
            replies.append([raw.recv()["parameters"]["decision"] for _ in calls])
    # What depends on the time of the call: the decision's time, and the pending page's expiry (in the trace too).
    instant = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")
    for decisions in replies:
        for decision in decisions:
            decision.pop("id")
            decision.pop("createdAt")
            if decision.get("pending"):
                decision["pending"].pop("expiresAt")
            if "trace" in decision:
                decision["trace"] = [instant.sub("<time>", line) for line in decision["trace"]]
    assert all(decisions == replies[0] for decisions in replies), replies
    first = replies[0]
    assert [d["outcome"] for d in first] == ["routed", "routed", "gated", "routed", "fallback", "routed"]
    assert any(w.startswith("aps.thread_id: ") for w in first[1]["warnings"])
    assert first[2]["trace"] and first[5]["trace"] and "trace" not in first[0]
    # The oneway calls were answered with nothing, and counted.
    assert stats(d)["decisions"] == 4 * (len(calls) + 1)


def test_lanes_answer_the_varlink_service_calls_clients_make_first(make_daemon):
    # GetInfo and GetInterfaceDescription are answered where they arrive: a client that introspects first keeps its
    # connection on its lane.
    d = make_daemon("--event-loops", "2").start()
    with connected(d, 4) as connections:
        for raw in connections:
            raw.send(call("org.varlink.service.GetInfo")
                     + call("org.varlink.service.GetInterfaceDescription", {"interface": ROUTER})
                     + call("org.varlink.service.GetInterfaceDescription", {"interface": "org.example.None"})
                     + dry_route(APNS) * 5)
        for raw in connections:
            assert raw.recv()["parameters"]["product"] == "notifyd"
            assert "method Route(" in raw.recv()["parameters"]["description"]
            assert raw.recv()["error"] == "org.varlink.service.InterfaceNotFound"
            assert [page_of(raw.recv()) for _ in range(5)] == ["cart.offer"] * 5
    s = stats(d)
    assert s["laneDecisions"] == 10  # four connections taken in turn by two loops: two on the lane
    assert s["errors"]["org.varlink.service.InterfaceNotFound"] == 4
    assert s["requests"] == 4 * 8 + 1


def test_an_independent_varlink_client_is_answered_on_the_lanes(make_daemon):
    d = make_daemon("--event-loops", "2").start()
    for _ in range(4):
        with varlink.Client(address=f"unix:{d.socket}") as client, client.open(ROUTER) as router:
            for _ in range(3):
                decision = router.Route(payload=APNS, dryRun=True)["decision"]
                assert decision["page"]["id"] == "cart.offer"
    assert stats(d)["laneDecisions"] >= 3
