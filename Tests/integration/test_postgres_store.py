"""notifyd on PostgreSQL (`--store`): replicas sharing one database, against the session's private server."""
import json
import os
import random
import signal
import subprocess
import threading
import time

import pytest

from conftest import NOTIFYCTL, Daemon, Raw, call


@pytest.fixture
def store(postgres):
    """A fresh store (a schema of its own) on the session's server: its connection string and schema."""
    return postgres.new_store()


def replicas(workdir, store, count=2, extra=()):
    started = []
    for i in range(count):
        path = os.path.join(workdir, f"replica{i}")
        os.makedirs(path)
        started.append(Daemon(path, extra, state=False, store=store).start())
    return started


def resolve(d, link, device):
    return d.call("io.notifyd.Router.Resolve", {"link": link, "device": device})


def test_store_flag_puts_decisions_in_postgres(workdir, postgres, store):
    conninfo, schema = store
    (a,) = replicas(workdir, conninfo, count=1)
    try:
        reply = resolve(a, "shop://offers/SUMMER", "ipad-1")
        decision_id = reply["parameters"]["decision"]["id"]
        # The decision and the state are in PostgreSQL, where psql reads them, not in some file.
        rows = postgres.psql(f"SELECT id, device, outcome FROM decisions WHERE id = '{decision_id}'", schema)
        assert rows == [f"{decision_id}|ipad-1|routed"]
        states = postgres.psql("SELECT device, version, state FROM device_states", schema)
        assert len(states) == 1 and states[0].startswith("ipad-1|1|")
        assert json.loads(states[0].split("|", 2)[2])["tabs"] == {"main": "cart"}
        assert postgres.psql("SELECT max(version) FROM notifyd_schema", schema) == ["2"]
        # GetStats and notifyctl info say which store serves.
        stats = a.call("io.notifyd.Router.GetStats")["parameters"]["stats"]["store"]
        assert stats["kind"] == "postgresql" and stats["status"] == "up" and stats["health"] == "ok"
        assert stats["schema"] == 2 and stats["decisions"] == 1 and stats["devices"] == 1
        assert "dbname=notifyd" in stats["server"]
        info = subprocess.run([NOTIFYCTL, "--socket", a.socket, "info"], capture_output=True, text=True)
        assert "store       postgresql · " in info.stdout and "· schema 2 · up" in info.stdout
    finally:
        a.stop()


def test_store_from_environment(workdir, postgres, store):
    conninfo, schema = store
    d = Daemon(os.path.join(workdir), state=False)
    env_before = os.environ.get("NOTIFYD_STORE")
    os.environ["NOTIFYD_STORE"] = conninfo
    try:
        d.start()
        resolve(d, "shop://offers/ENV", "env-1")
        assert postgres.psql("SELECT device FROM device_states", schema) == ["env-1"]
    finally:
        d.stop()
        if env_before is None:
            del os.environ["NOTIFYD_STORE"]
        else:
            os.environ["NOTIFYD_STORE"] = env_before


def test_newer_schema_is_refused(workdir, postgres, store):
    conninfo, schema = store
    (a,) = replicas(workdir, conninfo, count=1)
    a.stop()
    postgres.psql("INSERT INTO notifyd_schema (version) VALUES (99)", schema)
    run = subprocess.run(
        [a.process.args[0], "--config", a.config, "--socket", a.socket + "2", "--store", conninfo, "--log-target",
         "console"], capture_output=True, text=True, timeout=30)
    assert run.returncode != 0
    assert "schema is version 99, newer than this notifyd knows (2)" in run.stderr
    assert "run that version" in run.stderr


def test_gated_on_one_replica_resumes_on_the_other(workdir, store):
    a, b = replicas(workdir, store[0])
    try:
        gated = resolve(a, "https://shop.example.com/account/orders/42", "phone-1")["parameters"]["decision"]
        assert gated["outcome"] == "gated"
        finished = b.call("io.notifyd.Router.FlowFinished", {"device": "phone-1", "coordinator": "login"})
        resumed = finished["parameters"]["resumed"]
        assert resumed["outcome"] == "resumed" and resumed["page"]["id"] == "account.order"
        assert finished["parameters"]["state"]["pending"] is None
        # Replica A hears of B's change (NOTIFY) and reads the state anew.
        deadline = time.monotonic() + 10
        while True:
            state = a.call("io.notifyd.Router.GetState", {"device": "phone-1"})["parameters"]["state"]
            if state["pending"] is None or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert state["pending"] is None and "session" in state["conditions"]
    finally:
        for d in (a, b):
            d.stop()


def hammer(daemons, devices, seconds, clients_per_daemon=4, per_client=100_000):
    """Clients resolving a new offer each time for random devices; returns {device: [acknowledged offer ids]} and
    how many were refused with StateNotSaved."""
    acknowledged = {}
    refused = [0]
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def client(d, k):
        rng = random.Random(k)
        with Raw(d.socket, timeout=30) as raw:
            for n in range(per_client):
                if time.monotonic() > deadline:
                    break
                device = f"h-{rng.randrange(devices)}"
                offer = f"O{k}x{n}"
                try:
                    raw.send(call("io.notifyd.Router.Resolve", {"link": f"shop://offers/{offer}", "device": device}))
                    reply = raw.recv()
                except OSError:
                    reply = None  # the replica was killed
                if reply is None:
                    break
                with lock:
                    if "error" in reply:
                        # Refused: nothing stored (StateUnreadable: the state could not be read while the
                        # server restarted).
                        assert reply["error"] in ("io.notifyd.Router.StateNotSaved",
                                                  "io.notifyd.Router.StateUnreadable"), reply
                        refused[0] += 1
                    else:
                        acknowledged.setdefault(device, []).append(offer)

    threads = [threading.Thread(target=client, args=(d, i * 100 + j))
               for i, d in enumerate(daemons) for j in range(clients_per_daemon)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return acknowledged, refused[0]


def offers_in(state_text):
    state = json.loads(state_text)
    return [page["arguments"]["id"] for page in state["stacks"].get("cart", []) if page["id"] == "cart.offer"]


def assert_no_acknowledged_change_lost(postgres, schema, acknowledged):
    """Each decision pushes an offer of its own on the device's cart stack: every acknowledged decision's offer is on
    its device's stored stack (a lost state change would have dropped it), and the top one was stored."""
    rows = postgres.psql("SELECT device || chr(9) || state FROM device_states WHERE state IS NOT NULL", schema)
    stored = dict(row.split("\t", 1) for row in rows)
    for device, offers in acknowledged.items():
        on_stack = offers_in(stored[device])
        missing = set(offers) - set(on_stack)
        assert not missing, f"{device}: acknowledged decisions whose state change was lost: {sorted(missing)[:5]}"


def test_two_replicas_hammering_the_same_devices_lose_no_state_change(workdir, postgres, store):
    conninfo, schema = store
    daemons = replicas(workdir, conninfo)
    try:
        acknowledged, refused = hammer(daemons, devices=100, seconds=20)
    finally:
        for d in daemons:
            d.stop()
    total = sum(len(v) for v in acknowledged.values())
    print(f"{total} decisions acknowledged, {refused} refused (StateNotSaved: another replica came first)")
    assert total > 500, (total, refused)
    assert_no_acknowledged_change_lost(postgres, schema, acknowledged)
    # Every acknowledged decision is in the history.
    assert int(postgres.psql("SELECT count(*) FROM decisions", schema)[0]) >= total


def test_replica_killed_loses_nothing_acknowledged(workdir, postgres, store):
    conninfo, schema = store
    a, b = replicas(workdir, conninfo)
    result = {}
    t = threading.Thread(target=lambda: result.update(zip(("ack", "refused"), hammer([a, b], 100, 4, 2))))
    t.start()
    time.sleep(2)
    a.stop(signal.SIGKILL)
    t.join()
    b.stop()
    assert_no_acknowledged_change_lost(postgres, schema, result["ack"])


def test_postgres_restart_under_load(workdir, postgres, store):
    conninfo, schema = store
    a, b = replicas(workdir, conninfo)
    try:
        result = {}
        t = threading.Thread(target=lambda: result.update(zip(("ack", "refused"), hammer([a, b], 100, 8, 2))))
        t.start()
        time.sleep(2)
        postgres.restart()
        # Dry runs are answered meanwhile, the store being down or not.
        assert a.alive_and_answering()
        t.join()
        assert_no_acknowledged_change_lost(postgres, schema, result["ack"])
        # The daemons reconnected by themselves and go on storing.
        for d in (a, b):
            reply = resolve(d, "shop://offers/AFTER", "after-restart")
            assert "error" not in reply, reply
            stats = d.call("io.notifyd.Router.GetStats")["parameters"]["stats"]["store"]
            assert stats["status"] == "up" and stats["reconnects"] >= 1
    finally:
        for d in (a, b):
            d.stop()


def test_monitor_on_one_replica_streams_the_decisions_of_both(workdir, store):
    a, b = replicas(workdir, store[0])
    try:
        with Raw(b.socket) as monitor:
            monitor.send(call("io.notifyd.Router.Monitor", more=True))
            deadline = time.monotonic() + 10
            while b.call("io.notifyd.Router.GetStats")["parameters"]["stats"]["monitors"] < 1:
                assert time.monotonic() < deadline
                time.sleep(0.01)
            made = {resolve(d, f"shop://offers/M{i}", f"mon-{i}")["parameters"]["decision"]["id"]
                    for i, d in enumerate((a, b, a))}
            seen = set()
            while seen != made:
                reply = monitor.recv()
                assert reply is not None and reply.get("continues") is True
                seen.add(reply["parameters"]["decision"]["id"])
            assert seen == made
    finally:
        for d in (a, b):
            d.stop()


def test_the_history_is_pruned_to_its_limit_behind_the_commits(workdir, postgres, store):
    conninfo, schema = store
    a, b = replicas(workdir, conninfo, extra=("--history-limit", "20"))
    try:
        ids = []
        for i in range(120):
            d, name = ((a, "pa"), (b, "pb"))[i % 2]
            reply = resolve(d, f"shop://offers/P{i}", f"{name}-{i % 5}")
            ids.append(reply["parameters"]["decision"]["id"])
        # Each replica prunes on a connection of its own, after its commits: wait until that caught up.
        deadline = time.monotonic() + 10
        while (kept := postgres.psql("SELECT id FROM decisions ORDER BY seq", schema)) != ids[-20:]:
            assert time.monotonic() < deadline, f"{len(kept)} decisions kept, the newest 20 expected"
            time.sleep(0.05)
        listed = [x["id"] for x in a.call("io.notifyd.Router.ListDecisions", {"limit": 100})["parameters"]["decisions"]]
        assert listed == list(reversed(ids[-20:]))
        for d in (a, b):
            assert d.call("io.notifyd.Router.GetStats")["parameters"]["stats"]["store"]["health"] == "ok"
    finally:
        for d in (a, b):
            d.stop()
