"""Bad input and limits: each gets a typed error or closes only its own connection, and the daemon goes on."""
import json
import os
import signal
import socket
import subprocess
import threading

import pytest

from conftest import NOTIFYD, SHOP, Raw, call

ROUTER = "io.notifyd.Router"
NOBODY = 65534  # a uid without privilege


def resolve(link, **extra):
    return call(f"{ROUTER}.Resolve", {"link": link, "dryRun": True, **extra})


@pytest.mark.parametrize(
    "name, data",
    [
        ("garbage bytes", b"\x00\x01\x02 not json at all\x00"),
        ("invalid UTF-8", b'{"method": "io.notifyd.Router.GetStats", "parameters": {"x": "\xff\xfe"}}\x00'),
        ("not an object", b"[1, 2, 3]\x00"),
        ("unknown header key", b'{"method": "io.notifyd.Router.GetStats", "sneaky": true}\x00'),
        ("non-boolean flag", b'{"method": "io.notifyd.Router.GetStats", "more": "yes"}\x00'),
        ("method not a string", b'{"method": 42}\x00'),
        # Nested past the limit outside the parameters: no parameter to name in a typed error.
        ("10,000-deep JSON", b'{"method": "io.notifyd.Router.GetStats", "sneaky": ' + b"[" * 10000 + b"]" * 10000 + b"}\x00"),
    ],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_a_malformed_frame_closes_only_its_connection(daemon, name, data):
    with Raw(daemon.socket) as bystander, Raw(daemon.socket) as raw:
        raw.send(data)
        assert raw.closed_by_peer(), name
        bystander.send(resolve("shop://offers/A"))
        assert bystander.recv()["parameters"]["decision"]["page"]["id"] == "cart.offer"
    assert daemon.alive_and_answering()


def deep(depth):
    return b"[" * depth + b"]" * depth


def test_a_payload_nested_past_the_limit_gets_invalid_payload_and_the_connection_goes_on(daemon):
    head = b'{"method": "io.notifyd.Router.Route", "parameters": {"dryRun": true, "payload": {"aps": '
    with Raw(daemon.socket) as raw:
        raw.send(head + deep(10000) + b"}}}\0")
        reply = raw.recv()
        assert reply["error"] == f"{ROUTER}.InvalidPayload", reply
        assert reply["parameters"]["field"] == "$"
        # The head holds three levels; the 62nd '[' after it is the 65th level.
        assert f"nested deeper than 64 levels at byte {len(head) + 61} of the message" in reply["parameters"]["reason"]
        # The same connection goes on.
        raw.send(resolve("shop://offers/A"))
        assert raw.recv()["parameters"]["decision"]["page"]["id"] == "cart.offer"
    assert daemon.logged("payload rejected: $: nested deeper than 64 levels")


def test_another_parameter_nested_past_the_limit_gets_invalid_parameter_naming_it(daemon):
    with Raw(daemon.socket) as raw:
        raw.send(b'{"method": "io.notifyd.Router.GetStats", "parameters": {"a": ' + deep(100) + b"}}\0")
        reply = raw.recv()
        assert reply == {"error": "org.varlink.service.InvalidParameter", "parameters": {"parameter": "a"}}
        # A oneway call gets nothing; the next call's reply comes next, in order.
        raw.send(b'{"method": "io.notifyd.Router.GetStats", "oneway": true, "parameters": {"a": ' + deep(100)
                 + b"}}\0" + resolve("shop://offers/B"))
        assert raw.recv()["parameters"]["decision"]["page"]["id"] == "cart.offer"
        raw.send(b'{"method": "io.notifyd.Router.Nope", "parameters": {"a": ' + deep(100) + b"}}\0")
        assert raw.recv()["error"] == "org.varlink.service.MethodNotFound"
    assert daemon.alive_and_answering()


def test_a_frame_without_nul_then_close_is_dropped(daemon):
    with Raw(daemon.socket) as raw:
        raw.send(b'{"method": "io.notifyd.Router.GetStats"')
    assert daemon.alive_and_answering()


def oversized(size):
    """A Resolve call of exactly `size` bytes before its NUL."""
    head, tail = b'{"method": "io.notifyd.Router.Resolve", "parameters": {"link": "', b'"}}'
    return head + b"a" * (size - len(head) - len(tail)) + tail


@pytest.mark.parametrize("size", [65536 + 1, 1 << 20])
def test_an_oversized_message_gets_payload_too_large_with_its_size_then_a_close(daemon, size):
    with Raw(daemon.socket) as raw:
        # The daemon reads the whole message (dropping it) to its NUL, so the send completes and the reply
        # reports the message's real size; then the connection ends cleanly.
        raw.send(oversized(size) + b"\0")
        reply = raw.recv()
        assert reply == {"error": f"{ROUTER}.PayloadTooLarge", "parameters": {"size": size, "max": 65536}}
        assert raw.recv() is None
    assert daemon.alive_and_answering()


def test_a_message_at_the_limit_is_accepted(daemon):
    with Raw(daemon.socket) as raw:
        raw.send(oversized(65536) + b"\0")
        reply = raw.recv()
    # Served (the link is refused for its length, so the fallback page), not refused for its size.
    decision = reply["parameters"]["decision"]
    assert decision["outcome"] == "fallback"
    assert "bytes long; the limit is 4096" in decision["warnings"][0]


def test_an_oversized_message_cut_off_by_the_client_reports_the_bytes_sent(daemon):
    with Raw(daemon.socket) as raw:
        raw.send(oversized(200000))  # no NUL: the message never ends
        raw.sock.shutdown(socket.SHUT_WR)
        reply = raw.recv()
        assert reply == {"error": f"{ROUTER}.PayloadTooLarge", "parameters": {"size": 200000, "max": 65536}}
        assert raw.recv() is None
    assert daemon.alive_and_answering()


@pytest.mark.parametrize(
    "parameters, bad",
    [
        ({"link": 42}, "link"),
        ({"link": "shop://offers/A", "device": 7}, "device"),
        ({"link": "shop://offers/A", "dryRun": "yes"}, "dryRun"),
        ({}, "link"),
        ({"link": "shop://offers/A", "surprise": 1}, "surprise"),
    ],
)
def test_wrong_parameter_types_get_invalid_parameter(daemon, parameters, bad):
    reply = daemon.call(f"{ROUTER}.Resolve", parameters)
    assert reply["error"] == "org.varlink.service.InvalidParameter"
    assert reply["parameters"]["parameter"] == bad
    assert daemon.alive_and_answering()


@pytest.mark.parametrize(
    "method, parameters",
    [
        ("Resolve", {"link": "shop://offers/A"}),
        ("Resolve", {"link": "shop://offers/A", "dryRun": True}),
        ("Route", {"payload": {"aps": {"alert": "Hi"}, "deeplink": "shop://offers/A"}}),
        ("FlowFinished", {"coordinator": "login"}),
        ("GetState", {}),
        ("SetState", {"state": {"path": ["app"], "started": ["app"], "tabs": {}, "stacks": {}, "conditions": []}}),
        ("ForgetDevice", {}),
        ("ListDecisions", {}),
        ("ListHistory", {}),
    ],
)
def test_a_device_id_with_nul_gets_invalid_parameter_and_other_decisions_are_stored(daemon, method, parameters):
    # PostgreSQL's text cannot hold U+0000: stored, such an id would fail its whole batch on every retry.
    reply = daemon.call(f"{ROUTER}.{method}", {**parameters, "device": "tab\u0000let"})
    assert reply["error"] == f"{ROUTER}.InvalidParameter", reply
    assert reply["parameters"]["parameter"] == "device"
    assert reply["parameters"]["value"] == "tab\u0000let"
    assert "U+0000" in reply["parameters"]["reason"]
    stored = daemon.call(f"{ROUTER}.Resolve", {"link": "shop://offers/SUMMER", "device": "tablet-ok"})
    assert stored["parameters"]["decision"]["device"] == "tablet-ok", stored
    state = daemon.call(f"{ROUTER}.GetState", {"device": "tablet-ok"})
    assert state["parameters"]["state"]["tabs"]["main"] == "cart"


def test_unknown_methods_and_interfaces(daemon):
    assert daemon.call(f"{ROUTER}.Teleport")["error"] == "org.varlink.service.MethodNotFound"
    assert daemon.call("com.example.Nope.Hello")["error"] == "org.varlink.service.InterfaceNotFound"
    assert daemon.call(f"{ROUTER}.Monitor")["error"] == "org.varlink.service.ExpectedMore"
    assert daemon.alive_and_answering()


def test_bad_links_and_payloads_get_typed_errors(daemon):
    # A link outside the allow-list is refused and goes to the fallback page, the refusal named in its warnings.
    refused = daemon.call(f"{ROUTER}.Resolve", {"link": "ftp://evil.example.com/x", "dryRun": True})
    decision = refused["parameters"]["decision"]
    assert (decision["outcome"], decision["page"]["id"]) == ("fallback", "catalog.home")
    assert decision["warnings"] == [
        "link: 'ftp://evil.example.com/x' is refused: scheme 'ftp:' is not allowed; expected 'shop:', 'https:'"]
    # An allowed link that matches no pattern goes to the fallback page.
    fallback = daemon.call(f"{ROUTER}.Resolve", {"link": "shop://nowhere/at/all", "dryRun": True})
    assert fallback["parameters"]["decision"]["outcome"] == "fallback"
    assert fallback["parameters"]["decision"]["page"]["id"] == "catalog.home"
    bad = daemon.call(f"{ROUTER}.Route", {"payload": {"message": {"data": {"deeplink": 5}}}})
    assert bad["error"] == f"{ROUTER}.InvalidPayload"
    assert bad["parameters"]["field"].startswith("message.data")
    assert daemon.alive_and_answering()


def test_pipelined_requests_are_answered_in_order(daemon):
    links = [f"shop://offers/CODE{i}" for i in range(200)]
    with Raw(daemon.socket) as raw:
        raw.send(b"".join(resolve(link) for link in links))
        ids = [raw.recv()["parameters"]["decision"]["page"]["arguments"]["id"] for _ in links]
    assert ids == [f"CODE{i}" for i in range(200)]


def test_oneway_calls_get_no_reply(daemon):
    with Raw(daemon.socket) as raw:
        raw.send(call(f"{ROUTER}.Resolve", {"link": "shop://offers/ONEWAY", "device": "d1"}, oneway=True))
        raw.send(call(f"{ROUTER}.GetState", {"device": "d1"}))
        reply = raw.recv()
    # The first reply on the wire is GetState's: the oneway call was done but not answered.
    assert reply["parameters"]["state"]["stacks"]["cart"][-1]["arguments"] == {"id": "ONEWAY"}


def test_a_oneway_monitor_is_not_registered_and_gets_no_reply(daemon):
    with Raw(daemon.socket) as raw:
        raw.send(call(f"{ROUTER}.Monitor", oneway=True, more=True))
        # A decision made on another connection after the Monitor was read: a registered monitor would
        # have it queued before the GetStats reply below.
        stats = daemon.call(f"{ROUTER}.GetStats")["parameters"]["stats"]
        assert stats["monitors"] == 0
        daemon.call(f"{ROUTER}.Resolve", {"link": "shop://offers/M", "dryRun": True})
        raw.send(call(f"{ROUTER}.GetStats"))
        reply = raw.recv()
    assert "continues" not in reply
    assert reply["parameters"]["stats"]["monitors"] == 0


@pytest.mark.parametrize("second", [f"{ROUTER}.GetStats", f"{ROUTER}.Monitor"])
def test_a_call_behind_an_open_monitor_closes_the_connection(daemon, second):
    with Raw(daemon.socket) as monitor:
        flags = {"more": True} if second.endswith("Monitor") else {}
        monitor.send(call(f"{ROUTER}.Monitor", more=True))
        # A decision made while the stream is open arrives on it, marked as continuing.
        for _ in range(500):
            if daemon.call(f"{ROUTER}.GetStats")["parameters"]["stats"]["monitors"] == 1:
                break
        daemon.call(f"{ROUTER}.Resolve", {"link": "shop://offers/M1", "dryRun": True})
        streamed = monitor.recv()
        assert streamed["continues"] is True
        assert streamed["parameters"]["decision"]["page"]["arguments"] == {"id": "M1"}
        # The second call could only be answered after the stream, which never ends: the connection is
        # closed instead, with nothing that a client could take for the stream's last reply.
        monitor.send(call(second, **flags))
        rest = []
        while True:
            reply = monitor.recv()
            if reply is None:
                break
            rest.append(reply)
        assert all(r.get("continues") is True for r in rest), rest
    assert daemon.logged("a monitoring connection accepts no further calls")
    assert daemon.call(f"{ROUTER}.GetStats")["parameters"]["stats"]["monitors"] == 0
    assert daemon.alive_and_answering()


def test_a_client_that_never_reads_is_not_read_from_until_it_does(make_daemon):
    d = make_daemon().start()
    with Raw(d.socket, timeout=60) as raw:
        raw.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        # Far more replies than the daemon queues for one connection (1 MiB) plus what the kernel buffers:
        # the daemon must stop reading this client, so the sender blocks until the client reads.
        count = 12000
        data = b"".join(resolve(f"shop://offers/N{i}") for i in range(count))
        sent = threading.Event()
        failure = []

        def send():
            try:
                raw.send(data)
            except OSError as error:
                failure.append(error)
            sent.set()

        sender = threading.Thread(target=send, daemon=True)
        sender.start()
        assert d.alive_and_answering()  # another client is served meanwhile
        assert not sent.wait(1.0), "the daemon kept reading a client whose replies were not being read"
        got = [raw.recv()["parameters"]["decision"]["page"]["arguments"]["id"] for _ in range(count)]
        sender.join(30)
    assert not failure
    assert got == [f"N{i}" for i in range(count)]


def test_connection_caps_per_uid(make_daemon):
    d = make_daemon("--max-connections-per-uid", "4").start()
    held = hold_connections(d.socket, 4)
    try:
        with Raw(d.socket) as extra:
            assert extra.closed_by_peer()
    finally:
        for r in held:
            r.sock.close()
    assert d.alive_and_answering()


def hold_connections(path, count):
    """`count` connections that each had a reply (so the daemon admitted them); retries while earlier
    connections (the start-up probe) are not yet reaped."""
    for _ in range(100):
        held = [Raw(path) for _ in range(count)]
        try:
            for r in held:
                r.send(resolve("shop://offers/A"))
                assert r.recv() is not None
            return held
        except (BrokenPipeError, ConnectionResetError, AssertionError):
            for r in held:
                r.sock.close()
    raise AssertionError(f"could not hold {count} connections")


def test_connection_cap_in_total_counts_every_uid(make_daemon):
    if os.geteuid() != 0:
        pytest.skip("needs root to connect as a second uid (65534)")
    d = make_daemon("--max-connections", "3", "--max-connections-per-uid", "2").start()
    os.chown(d.socket, 0, NOBODY)
    held = hold_connections(d.socket, 2)  # root, at its per-uid cap
    try:
        # nobody is under its per-uid cap with one connection, but that one makes 3 in all: a second is refused.
        assert as_nobody(lambda: nobody_connects_twice(d.socket)) == {"first": "ok", "second": "closed"}
    finally:
        for r in held:
            r.sock.close()
    assert d.alive_and_answering()
    assert d.call(f"{ROUTER}.GetStats")["parameters"]["stats"]["connections"]["refused"] >= 1


def nobody_connects_twice(path):
    results = {}
    first = Raw(path)
    first.send(resolve("shop://offers/A"))
    results["first"] = "ok" if first.recv() is not None else "closed"
    with Raw(path) as second:
        try:
            second.send(resolve("shop://offers/A"))
            results["second"] = "ok" if second.recv() is not None else "closed"
        except (BrokenPipeError, ConnectionResetError):
            results["second"] = "closed"
    first.sock.close()
    return results


def test_the_rate_limit_answers_rate_limited(make_daemon):
    d = make_daemon("--rate-limit", "1").start()
    with Raw(d.socket) as raw:
        # One request a second, bursts of one: of ten sent at once, the first is served and the next ones
        # (unless a second passed meanwhile) are refused with the wait.
        raw.send(b"".join(resolve(f"shop://offers/R{i}") for i in range(10)))
        replies = [raw.recv() for _ in range(10)]
        assert replies[0]["parameters"]["decision"]["page"]["arguments"] == {"id": "R0"}
        limited = [r for r in replies if "error" in r]
        assert limited
        for r in limited:
            assert r["error"] == f"{ROUTER}.RateLimited"
            assert 1 <= r["parameters"]["retryAfterMs"] <= 1000
        # Only Route and Resolve are limited.
        raw.send(call(f"{ROUTER}.GetStats"))
        assert "error" not in raw.recv()


def test_idle_connections_are_closed(make_daemon):
    d = make_daemon("--idle-timeout", "1").start()
    with Raw(d.socket, timeout=10) as raw:
        assert raw.closed_by_peer()
    assert d.alive_and_answering()


def as_nobody(work):
    """Runs `work()` in a child process as uid/gid 65534 and returns its JSON-able result."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            os.write(write, json.dumps(work()).encode())
        except BaseException as error:  # reported to the parent, which fails with it
            os.write(write, json.dumps({"child failed": repr(error)}).encode())
        finally:
            os._exit(0)
    os.close(write)
    data = b""
    while chunk := os.read(read, 65536):
        data += chunk
    os.close(read)
    os.waitpid(pid, 0)
    return json.loads(data)


def test_mutating_methods_need_privilege(make_daemon):
    if os.geteuid() != 0:
        pytest.skip("needs root to connect as another uid (65534)")
    # The default socket mode (0660), with the socket's group the client's, as the socket unit sets it up.
    d = make_daemon().start()
    os.chown(d.socket, 0, NOBODY)
    d.call(f"{ROUTER}.Resolve", {"link": "shop://offers/A", "device": "x"})
    state = d.call(f"{ROUTER}.GetState", {"device": "x"})["parameters"]["state"]

    def calls():
        results = {}
        for method, parameters in [
            ("Resolve", {"link": "shop://offers/A", "dryRun": True}),
            ("GetState", {"device": "x"}),
            ("SetState", {"device": "y", "state": state}),
            ("ForgetDevice", {"device": "x"}),
            ("Reload", {}),
        ]:
            reply = d.call(f"{ROUTER}.{method}", parameters)
            results[method] = reply.get("error", "ok")
        return results

    assert as_nobody(calls) == {
        "Resolve": "ok",
        "GetState": "ok",
        "SetState": "org.varlink.service.PermissionDenied",
        "ForgetDevice": "org.varlink.service.PermissionDenied",
        "Reload": "org.varlink.service.PermissionDenied",
    }
    # Nothing was changed, and the daemon goes on serving.
    assert d.call(f"{ROUTER}.GetState", {"device": "y"})["parameters"].get("state") is None
    assert d.call(f"{ROUTER}.GetState", {"device": "x"})["parameters"]["state"] == state
    assert d.call(f"{ROUTER}.GetStats")["parameters"]["stats"]["configGeneration"] == 1
    assert d.alive_and_answering()


def test_socket_file_is_not_world_writable(daemon):
    mode = os.stat(daemon.socket).st_mode & 0o777
    assert mode == 0o660


@pytest.mark.sqlite_only
def test_started_with_an_open_file_mode_mask_its_files_are_private(make_daemon):
    # Started with nothing masked, the daemon masks group and others itself before it makes any file: its state
    # files are its user's alone, and the socket gets exactly its mode (it is made owner-only, then chmod-ed).
    d = make_daemon("--socket-mode", "0620")
    d.start(umask=0)
    assert d.alive_and_answering()
    assert os.stat(d.socket).st_mode & 0o777 == 0o620
    made = os.listdir(d.state_dir)
    assert made
    for name in made:
        assert os.stat(os.path.join(d.state_dir, name)).st_mode & 0o077 == 0, name


def test_a_live_socket_is_not_stolen_and_a_stale_one_is_replaced(make_daemon, daemon):
    thief = subprocess.run(
        [NOTIFYD, "--config", SHOP, "--socket", daemon.socket, "--log-target", "console"],
        capture_output=True, text=True, timeout=30)
    assert thief.returncode == 1
    assert "refusing to steal" in thief.stderr
    assert daemon.alive_and_answering()
    # A stale socket file (nobody listening) is replaced.
    stale = make_daemon()
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(stale.socket)
    s.close()
    stale.start()
    assert stale.alive_and_answering()


def test_a_socket_that_cannot_be_probed_is_not_replaced(make_daemon):
    if os.geteuid() != 0:
        pytest.skip("needs root to start a second daemon as another uid (65534)")
    # A live daemon's socket (0600) in a directory anyone may write: another uid cannot connect (EACCES),
    # which must not be taken for a stale socket.
    d = make_daemon("--socket-mode", "0600")
    os.chmod(d.workdir, 0o777)
    d.start()
    thief = subprocess.run(
        ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", NOTIFYD, "--config", d.config,
         "--socket", d.socket, "--log-target", "console"],
        capture_output=True, text=True, timeout=30)
    assert thief.returncode == 1, thief.stderr
    assert f"cannot tell whether another process is serving on '{d.socket}'" in thief.stderr
    assert "Permission denied" in thief.stderr
    assert os.stat(d.socket).st_uid == 0
    assert d.alive_and_answering()


def test_sigterm_finishes_in_flight_replies_and_exits_zero(daemon):
    # More replies than the daemon queues for one connection (1 MiB): when the signal comes, part of the
    # requests still waits, read or in the socket, behind a paused reader. All of them are answered.
    count = 3000
    with Raw(daemon.socket, timeout=60) as raw:
        sent = threading.Event()
        sender = threading.Thread(
            target=lambda: (raw.send(b"".join(resolve(f"shop://offers/T{i}") for i in range(count))), sent.set()),
            daemon=True)
        sender.start()
        first = raw.recv()
        assert first is not None
        while not sent.wait(0.01):  # keep reading, or the daemon stops reading the sender
            raw.buffer += raw.sock.recv(65536)
        daemon.process.send_signal(signal.SIGTERM)
        rest = []
        while True:
            reply = raw.recv()  # a reset instead of the end of the stream raises here
            if reply is None:
                break
            rest.append(reply)
    ids = [r["parameters"]["decision"]["page"]["arguments"]["id"] for r in [first] + rest]
    assert ids == [f"T{i}" for i in range(count)]
    assert daemon.process.wait(20) == 0
    assert not os.path.exists(daemon.socket)


def test_sigterm_closes_idle_connections_and_monitors_at_once(daemon):
    with Raw(daemon.socket) as idle, Raw(daemon.socket) as monitor:
        monitor.send(call(f"{ROUTER}.Monitor", more=True))
        idle.send(call(f"{ROUTER}.GetStats"))
        assert idle.recv() is not None
        for _ in range(500):
            if daemon.call(f"{ROUTER}.GetStats")["parameters"]["stats"]["monitors"] == 1:
                break
        daemon.process.send_signal(signal.SIGTERM)
        # Nothing is in flight on either: both end at once, without waiting for the grace period to run out.
        assert idle.recv() is None
        assert monitor.recv() is None
    assert daemon.process.wait(20) == 0
    assert "connections that still had requests" not in daemon.log()
