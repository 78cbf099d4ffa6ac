"""Reloads that keep acknowledged state, what the daemon tells systemd around loads, decisions journaled only
once stored, and a state store that is checked at start and closed cleanly at stop."""
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import time
from contextlib import closing

import pytest

from conftest import (
    NOTIFYCTL, NOTIFYD, SHOP, Raw, call, fill_until_refused, full_state_directory, shop_without_fallback,
    start_with_broken_config)

ROUTER = "io.notifyd.Router"


def resolve(device, link, **extra):
    return call(f"{ROUTER}.Resolve", dict({"device": device, "link": link}, **extra))


def steps(reply):
    return [f"{s['action']} {s.get('coordinator', '')}".strip() for s in reply["parameters"]["decision"]["steps"]]


def keeps_the_offer_in_the_cart(state):
    return "cart" in state["started"] and state["stacks"]["cart"][-1]["arguments"] == {"id": "A"}


def test_a_reload_between_two_requests_of_one_batch_keeps_the_state_the_first_one_wrote(make_daemon):
    d = make_daemon().start()
    with Raw(d.socket) as raw:
        # One write: the three calls arrive together and are answered after one commit.
        raw.send(resolve("race", "shop://offers/A") + call(f"{ROUTER}.Reload") + resolve("race", "shop://products/p-1"))
        first, reloaded, second = raw.recv(), raw.recv(), raw.recv()
    assert first["parameters"]["decision"]["page"]["id"] == "cart.offer"
    assert reloaded["parameters"]["generation"] == 2
    # The second decision starts from the first one's state (acknowledged, not yet committed), not cold.
    assert "start main" not in steps(second), steps(second)
    assert "selectTab main" in steps(second)
    state = d.call(f"{ROUTER}.GetState", {"device": "race"})["parameters"]["state"]
    assert keeps_the_offer_in_the_cart(state), state


def wait_until_stopped(pid):
    """Waits until the process is in the stopped state (T), reading /proc rather than sleeping a fixed time."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with open(f"/proc/{pid}/stat") as f:
            if f.read().rsplit(")", 1)[1].split()[0] == "T":
                return
        time.sleep(0.005)
    raise TimeoutError(f"process {pid} did not stop")


def test_a_sighup_between_two_requests_of_one_batch_keeps_the_state_the_first_one_wrote(make_daemon):
    d = make_daemon().start()
    for trial in range(3):
        device = f"race-{trial}"
        with Raw(d.socket) as first, Raw(d.socket) as second:
            for raw in (first, second):  # both connections accepted and idle
                raw.send(call(f"{ROUTER}.GetStats"))
                assert "parameters" in raw.recv()
            # Stopped, the daemon finds both requests and the signal ready at once: they are handled in one batch,
            # the reload between the two requests (which of the two comes first is up to epoll).
            d.process.send_signal(signal.SIGSTOP)
            wait_until_stopped(d.process.pid)
            first.send(resolve(device, "shop://offers/A"))
            d.process.send_signal(signal.SIGHUP)
            second.send(resolve(device, "shop://products/p-1"))
            d.process.send_signal(signal.SIGCONT)
            decisions = [first.recv()["parameters"], second.recv()["parameters"]]
        assert d.call(f"{ROUTER}.GetStats")["parameters"]["stats"]["configGeneration"] == 2 + trial
        # Decision ids are time-ordered: the later decision starts from the earlier one's state, not cold.
        later = max(decisions, key=lambda p: p["decision"]["id"])
        assert "start main" not in steps({"parameters": later}), steps({"parameters": later})
        state = d.call(f"{ROUTER}.GetState", {"device": device})["parameters"]["state"]
        assert keeps_the_offer_in_the_cart(state), state


class Notifications:
    """The service manager's end of sd_notify: a datagram socket named by NOTIFY_SOCKET."""

    def __init__(self, workdir):
        self.path = os.path.join(workdir, "notify.sock")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.path)
        self.sock.settimeout(30)
        self.seen = []

    def until(self, predicate):
        """Messages received up to and including the first that satisfies `predicate` (waits for it)."""
        start = len(self.seen)
        while True:
            message = self.sock.recv(65536).decode()
            self.seen.append(message)
            if predicate(message):
                return self.seen[start:]

    def close(self):
        self.sock.close()


@pytest.fixture
def notifications(workdir, monkeypatch):
    n = Notifications(workdir)
    monkeypatch.setenv("NOTIFY_SOCKET", n.path)
    yield n
    n.close()


def ready(message):
    return message.startswith("READY=1")


def lifecycle(messages):
    """The messages that are about loading and reloading (the periodic STATUS= updates left out)."""
    return [m for m in messages if not m.startswith("STATUS=")]


def large_config(workdir):
    path = os.path.join(workdir, "large.yaml")
    with open(SHOP) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write(text + "".join(f"# padding line {i:06d} {'x' * 100}\n" for i in range(3000)))
    assert os.path.getsize(path) > 300 * 1024
    return path


def test_the_reload_method_tells_systemd_reloading_then_ready_like_sighup(make_daemon, notifications):
    d = make_daemon().start()
    assert not any("EXTEND_TIMEOUT_USEC" in m for m in notifications.until(ready))
    assert d.call(f"{ROUTER}.Reload")["parameters"]["generation"] == 2
    messages = lifecycle(notifications.until(ready))
    assert re.fullmatch(r"RELOADING=1\nMONOTONIC_USEC=\d+", messages[0]), messages
    assert messages[-1].startswith("READY=1\nSTATUS=serving generation 2"), messages
    assert len(messages) == 2, messages

    d.process.send_signal(signal.SIGHUP)
    messages = lifecycle(notifications.until(ready))
    assert re.fullmatch(r"RELOADING=1\nMONOTONIC_USEC=\d+", messages[0]), messages
    assert messages[-1].startswith("READY=1\nSTATUS=serving generation 3"), messages


def test_a_rejected_reload_keeps_the_generation_in_the_status(make_daemon, notifications):
    d = make_daemon().start()
    notifications.until(ready)
    with open(d.config) as f:
        good = f.read()
    with open(d.config, "w") as f:
        f.write(good.replace("kind: stack", "kind: stackk", 1))
    assert d.call(f"{ROUTER}.Reload")["error"] == f"{ROUTER}.ConfigInvalid"
    messages = lifecycle(notifications.until(ready))
    assert messages[0].startswith("RELOADING=1\n"), messages
    status = messages[-1]
    assert status.startswith("READY=1\nSTATUS=serving generation 1: "), status
    assert status.endswith("; last reload rejected (1 problem)"), status
    with open(d.config, "w") as f:
        f.write(good)
    assert d.call(f"{ROUTER}.Reload")["parameters"]["generation"] == 2
    status = notifications.until(ready)[-1]
    assert "serving generation 2" in status and "reload rejected" not in status, status


def test_a_large_config_asks_systemd_for_more_time_at_start_and_on_reload(workdir, make_daemon, notifications):
    d = make_daemon(config=large_config(workdir)).start()
    messages = notifications.until(ready)
    extend = [m for m in messages if m.startswith("EXTEND_TIMEOUT_USEC=")]
    assert len(extend) == 1, messages
    assert int(extend[0].split("=", 1)[1]) >= 10_000_000
    assert messages.index(extend[0]) < len(messages) - 1  # before READY=1

    assert d.call(f"{ROUTER}.Reload")["parameters"]["generation"] == 2
    messages = lifecycle(notifications.until(ready))
    assert messages[0].startswith("RELOADING=1\nMONOTONIC_USEC="), messages
    assert messages[1].startswith("EXTEND_TIMEOUT_USEC="), messages
    assert messages[2].startswith("READY=1\nSTATUS=serving generation 2"), messages


@pytest.mark.sqlite_only
def test_a_clean_stop_closes_the_database(make_daemon):
    d = make_daemon().start()
    with Raw(d.socket) as raw:
        raw.send(b"".join(resolve(f"dev-{i}", f"shop://offers/W{i}") for i in range(50)))
        for _ in range(50):
            assert "decision" in raw.recv()["parameters"]
    database = os.path.join(d.state_dir, "notifyd.sqlite")
    assert os.path.getsize(database + "-wal") > 0
    assert d.stop() == 0
    # Closed: the write-ahead log was checkpointed into the database and removed.
    assert not os.path.exists(database + "-wal")
    with closing(sqlite3.connect(database)) as db, db:
        assert db.execute("SELECT count(*) FROM decisions").fetchone() == (50,)


@pytest.mark.sqlite_only
def test_the_database_can_be_read_while_the_daemon_runs(make_daemon):
    d = make_daemon().start()
    database = os.path.join(d.state_dir, "notifyd.sqlite")
    with Raw(d.socket) as raw:
        raw.send(b"".join(resolve(f"dev-{i}", f"shop://offers/R{i}") for i in range(30)))
        for _ in range(30):
            assert "decision" in raw.recv()["parameters"]
        # Another process reads what the daemon committed, while it runs and holds the database open.
        with closing(sqlite3.connect(database, timeout=5)) as db:
            assert db.execute("SELECT count(*) FROM decisions").fetchone() == (30,)
            assert db.execute("SELECT count(*) FROM device_states").fetchone() == (30,)
        # The daemon goes on committing afterwards.
        raw.send(b"".join(resolve(f"dev-{i}", f"shop://offers/S{i}") for i in range(30)))
        for _ in range(30):
            assert "decision" in raw.recv()["parameters"]
    checkpoints = d.call(f"{ROUTER}.GetStats")["parameters"]["stats"]["store"]["checkpoints"]
    assert set(checkpoints) == {"logFrames", "onThread", "commitsThatWaited", "onCommittingThread", "failed"}
    assert checkpoints["logFrames"] > 0 and checkpoints["failed"] == 0 and checkpoints["onCommittingThread"] == 0
    assert d.stop() == 0
    with closing(sqlite3.connect(database)) as db:
        assert db.execute("SELECT count(*) FROM decisions").fetchone() == (60,)


@pytest.mark.sqlite_only
def test_a_second_daemon_on_the_same_state_directory_is_refused(make_daemon):
    first = make_daemon().start()
    second = subprocess.run(
        [NOTIFYD, "--config", first.config, "--socket", os.path.join(first.workdir, "second.sock"),
         "--state-dir", first.state_dir, "--log-target", "console"],
        capture_output=True, text=True, timeout=30)
    assert second.returncode != 0
    assert "another notifyd is using this state directory" in second.stderr, second.stderr
    assert first.alive_and_answering()


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to mount a small tmpfs as the state directory")
@pytest.mark.sqlite_only
def test_a_decision_that_could_not_be_stored_is_journaled_as_not_saved_and_not_counted(make_daemon):
    with full_state_directory(make_daemon()) as d:
        acknowledged, refused = fill_until_refused(d, 5)
        acknowledged = [i for i, _ in acknowledged]
        assert acknowledged and len(refused) == 5
        stats = d.call(f"{ROUTER}.GetStats")["parameters"]["stats"]
        assert stats["decisions"] == len(acknowledged)
        assert stats["outcomes"] == {"routed": len(acknowledged)}
        assert d.stop() == 0
        log = d.log()

        def routed(i):
            return rf'routed cart\.offer\(id: "FULL{i}-x+"\) for full-{i} decision_id='

        for i in refused:
            assert not re.search(r"]: " + routed(i), log), i
            assert re.search(r"]: not saved, the client was told StateNotSaved: " + routed(i) + ".* reason=", log), i
        for i in acknowledged[-3:]:
            assert re.search(r"]: " + routed(i), log), i


def fill_state(d, devices):
    with Raw(d.socket) as raw:
        raw.send(b"".join(resolve(f"dev{i:03d}", f"shop://offers/S{i}") for i in range(devices)))
        for _ in range(devices):
            assert "decision" in raw.recv()["parameters"]


@pytest.mark.sqlite_only
def test_a_damaged_device_state_page_refuses_the_start_naming_the_file(make_daemon):
    d = make_daemon().start()
    fill_state(d, 300)
    assert d.stop() == 0
    database = os.path.join(d.state_dir, "notifyd.sqlite")
    with closing(sqlite3.connect(database)) as db, db:
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
        page = db.execute(
            "SELECT pageno FROM dbstat WHERE name = 'device_states' AND pagetype = 'leaf' ORDER BY pageno DESC"
        ).fetchone()[0]
    with open(database, "r+b") as f:
        f.seek((page - 1) * page_size + 8)
        f.write(b"\xa5" * (page_size - 8))
    result = subprocess.run(
        [NOTIFYD, "--config", d.config, "--socket", d.socket, "--state-dir", d.state_dir, "--log-target", "console"],
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 1, result.stderr
    assert database in result.stderr
    assert "damaged" in result.stderr and "move the file" in result.stderr


@pytest.mark.sqlite_only
def test_a_state_that_cannot_be_read_is_an_error_not_an_unknown_device(make_daemon):
    d = make_daemon().start()
    fill_state(d, 3)
    assert d.stop() == 0
    with closing(sqlite3.connect(os.path.join(d.state_dir, "notifyd.sqlite"))) as db, db:
        db.execute("""UPDATE device_states SET state = '{"path": [' WHERE device = 'dev001'""")
    d.start()
    reply = d.call(f"{ROUTER}.GetState", {"device": "dev001"})
    assert reply["error"] == f"{ROUTER}.StateUnreadable", reply
    assert "dev001" in reply["parameters"]["reason"]
    routed = d.call(f"{ROUTER}.Resolve", {"device": "dev001", "link": "shop://products/p-1"})
    assert routed["error"] == f"{ROUTER}.StateUnreadable", routed
    assert d.call(f"{ROUTER}.GetState", {"device": "dev002"})["parameters"]["state"]["path"][0] == "app"


@pytest.mark.sqlite_only
def test_expired_pending_links_are_pruned_at_start(make_daemon):
    d = make_daemon().start()
    gated = d.call(f"{ROUTER}.Resolve", {"device": "gated", "link": "shop://cart/checkout"})
    assert gated["parameters"]["decision"]["outcome"] == "gated"
    assert d.call(f"{ROUTER}.GetStats")["parameters"]["stats"]["store"]["pendingLinks"] == 1
    assert d.stop() == 0
    with closing(sqlite3.connect(os.path.join(d.state_dir, "notifyd.sqlite"))) as db, db:
        state = json.loads(db.execute("SELECT state FROM device_states WHERE device = 'gated'").fetchone()[0])
        state["pending"]["expiresAt"] = "2001-01-01T00:00:00.000Z"
        db.execute("UPDATE device_states SET state = ? WHERE device = 'gated'", (json.dumps(state),))
        db.execute("UPDATE pending_links SET expires_ms = 978307200000 WHERE device = 'gated'")
    d.start()
    assert d.call(f"{ROUTER}.GetStats")["parameters"]["stats"]["store"]["pendingLinks"] == 0
    state = d.call(f"{ROUTER}.GetState", {"device": "gated"})["parameters"]["state"]
    assert state["pending"] is None and "login" in state["path"]


def test_the_journal_says_config_loaded_at_start_and_names_the_device_of_a_rejected_payload(make_daemon, workdir):
    d = make_daemon(config=shop_without_fallback(workdir)).start()
    refused = d.call(f"{ROUTER}.Resolve", {"device": "dev-nr", "link": "https://evil.example.com/x"})
    assert refused["error"] == f"{ROUTER}.NoRoute"
    invalid = d.call(f"{ROUTER}.Route", {"device": "dev-ip", "payload": {"aps": {"badge": "x"}}})
    assert invalid["error"] == f"{ROUTER}.InvalidPayload"
    assert d.stop() == 0
    log = d.log()
    assert re.search(r"]: config \S+ loaded \(generation 1, \d+ coordinators, 0 warnings\) config=", log), log
    assert re.search(r"]: no route for 'https://evil.example.com/x': .* link=https://evil.example.com/x .*device=dev-nr", log), log
    assert re.search(r"]: payload rejected: .*device=dev-ip", log), log


def test_a_config_refused_at_start_is_printed_one_finding_per_line(workdir):
    result = start_with_broken_config(workdir)
    assert result.returncode == 1
    assert "\\n" not in result.stderr, result.stderr
    lines = result.stderr.splitlines()
    assert re.search(r"]: config \S+bad.yaml rejected \(\d+ problems\), notifyd cannot start: config=", lines[0]), lines
    findings = [line for line in lines if re.search(r"]:   \S+bad.yaml:\d+:\d+: error: ", line)]
    assert any("nowhere" in line for line in findings) and any("stackk" in line for line in findings), lines
    assert re.search(r"]: notifyd failed: config \S+bad.yaml is invalid \(\d+ problems\)", lines[-1]), lines


def test_finishing_a_coordinator_that_provides_nothing_says_why(daemon):
    daemon.call(f"{ROUTER}.Resolve", {"device": "d1", "link": "shop://cart"})
    result = subprocess.run(
        [NOTIFYCTL, "--socket", daemon.socket, "finish", "d1", "cart"], capture_output=True, text=True, timeout=30)
    assert result.returncode == 1
    assert "ProvidesNothing" in result.stderr
    assert "'cart' provides no condition; only a flow with 'provides:' can finish a gate" in result.stderr


@pytest.mark.sqlite_only
def test_the_history_keeps_its_newest_decisions_across_its_tables_and_a_restart(make_daemon):
    d = make_daemon("--history-limit", "10").start()
    ids = []
    for round in range(6):
        with Raw(d.socket) as raw:
            raw.send(b"".join(resolve(f"h-{i % 3}", f"shop://offers/H{round}x{i}") for i in range(7)))
            for _ in range(7):
                ids.append(raw.recv()["parameters"]["decision"]["id"])
        listed = [x["id"] for x in d.call(f"{ROUTER}.ListDecisions", {"limit": 100})["parameters"]["decisions"]]
        assert listed == list(reversed(ids[-10:])), f"round {round}"
    assert d.call(f"{ROUTER}.GetStats")["parameters"]["stats"]["store"]["decisions"] == 10
    by_device = d.call(f"{ROUTER}.ListDecisions", {"device": "h-1", "limit": 100})["parameters"]["decisions"]
    assert [x["id"] for x in by_device] == [i for n, i in reversed(list(enumerate(ids))) if n % 7 % 3 == 1 and n >= 32]
    # A decision that left the history is not found, though its table may not have been emptied yet.
    assert "error" in d.call(f"{ROUTER}.GetDecision", {"id": ids[31]})
    assert d.call(f"{ROUTER}.GetDecision", {"id": ids[32]})["parameters"]["decision"]["id"] == ids[32]
    assert d.stop() == 0
    database = os.path.join(d.state_dir, "notifyd.sqlite")
    with closing(sqlite3.connect(database)) as db:
        # The view shows the history alone; five tables of three hold 15 decisions at most.
        assert db.execute("SELECT count(*) FROM decisions").fetchone() == (10,)
        rows = sum(db.execute(f"SELECT count(*) FROM decisions_{k}").fetchone()[0] for k in range(5))
        assert 10 <= rows <= 15
    # Restarted with a larger limit, the history brings back none of the decisions that had left it.
    again = make_daemon("--history-limit", "100")
    again.state_dir = d.state_dir
    again.start()
    listed = [x["id"] for x in again.call(f"{ROUTER}.ListDecisions", {"limit": 100})["parameters"]["decisions"]]
    assert listed == list(reversed(ids[-10:]))
