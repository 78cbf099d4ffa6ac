"""The daemon driven through the independent `varlink` Python implementation: introspection and every method."""
import json
import os
import subprocess
import sys
import threading

import varlink

from conftest import EXAMPLES

ROUTER = "io.notifyd.Router"


def cli(*args):
    """python3 -m varlink.cli …: the independent client's own command line."""
    return subprocess.run([sys.executable, "-m", "varlink.cli", *args], capture_output=True, text=True, timeout=30)


def test_independent_client_introspects_the_daemon(daemon):
    info = cli("info", f"unix:{daemon.socket}")
    assert info.returncode == 0, info.stderr
    assert "io.notifyd.Router" in info.stdout and "org.varlink.service" in info.stdout
    described = cli("help", f"unix:{daemon.socket}/{ROUTER}")
    assert described.returncode == 0, described.stderr
    # The IDL served is the file in the repository, verbatim.
    idl = open(os.path.join(os.path.dirname(__file__), "..", "..", "varlink", "io.notifyd.Router.varlink")).read()
    with varlink.Client(address=f"unix:{daemon.socket}") as client:
        served = client.get_interface(ROUTER)
        assert served.name == ROUTER
        assert set(served.members) >= {
            "Route", "Resolve", "FlowFinished", "GetState", "SetState", "ForgetDevice", "GetDecision",
            "ListDecisions", "Monitor", "GetGraph", "GetStats", "Reload",
        }
    raw = daemon.call("org.varlink.service.GetInterfaceDescription", {"interface": ROUTER})
    assert raw["parameters"]["description"] == idl


def test_cli_call_resolves_a_link(daemon):
    result = cli("call", f"unix:{daemon.socket}/{ROUTER}.Resolve", json.dumps({"link": "shop://offers/SUMMER"}))
    assert result.returncode == 0, result.stderr
    decision = json.loads(result.stdout)["decision"]
    assert decision["page"]["description"] == 'cart.offer(id: "SUMMER")'
    assert decision["path"] == ["app", "main", "cart"]


def cli_call(daemon, method, parameters=None, *flags):
    result = cli("call", *flags, f"unix:{daemon.socket}/{ROUTER}.{method}", json.dumps(parameters or {}))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_cli_call_drives_state_history_and_stats(daemon):
    routed = cli_call(daemon, "Resolve", {"link": "https://shop.example.com/account/orders/7", "device": "tv-1"})
    assert routed["decision"]["outcome"] == "gated"
    state = cli_call(daemon, "GetState", {"device": "tv-1"})["state"]
    assert state["pending"]["page"]["description"] == "account.order(id: 7)"
    finished = cli_call(daemon, "FlowFinished", {"device": "tv-1", "coordinator": "login"})
    assert finished["resumed"]["outcome"] == "resumed"
    fetched = cli_call(daemon, "GetDecision", {"id": routed["decision"]["id"]})
    assert fetched["decision"] == routed["decision"]
    history = cli_call(daemon, "ListDecisions", {"device": "tv-1"})["decisions"]
    assert [d["outcome"] for d in history] == ["resumed", "gated"]
    stats = cli_call(daemon, "GetStats")["stats"]
    assert stats["decisions"] == 2 and stats["configGeneration"] == 1 and stats["eventLoops"] == 1
    assert stats["connections"]["accepted"] >= 5
    graph = cli_call(daemon, "GetGraph")["graph"]
    assert "login" in [c["name"] for c in graph["coordinators"]]


def test_every_method_through_the_python_client(daemon):
    payload = json.load(open(os.path.join(EXAMPLES, "apns-offer.json")))
    with varlink.Client(address=f"unix:{daemon.socket}") as client, client.open(ROUTER, namespaced=True) as router:
        routed = router.Route(payload=payload, device="ipad-7").decision
        assert routed.outcome == "routed"
        assert routed.source.format == "apns"
        assert routed.steps[-1].action == "display"

        resolved = router.Resolve(link="https://shop.example.com/account/orders/42", device="ipad-7").decision
        assert resolved.outcome == "gated"
        assert resolved.pending.gate == "login"
        assert resolved.pending.page.id == "account.order"

        state = router.GetState(device="ipad-7").state
        assert state.pending.page.description == "account.order(id: 42)"
        assert "login" in state.path

        finished = router.FlowFinished(device="ipad-7", coordinator="login")
        assert finished.resumed.outcome == "resumed"
        assert finished.resumed.page.description == "account.order(id: 42)"
        assert "session" in finished.state.conditions

        fetched = router.GetDecision(id=routed.id).decision
        assert fetched.id == routed.id and fetched.page.id == routed.page.id

        history = router.ListDecisions(device="ipad-7", limit=10).decisions
        assert [d.id for d in history][0] == finished.resumed.id
        assert len(history) == 3

        graph = router.GetGraph().graph
        assert "cart" in [c["name"] for c in graph["coordinators"]]

        stats = router.GetStats().stats
        assert stats["decisions"] >= 3 and stats["configGeneration"] == 1

        # SetState takes what GetState gave, through the client's own types both ways.
        saved = router.GetState(device="ipad-7").state
        router.SetState(device="ipad-8", state=saved)
        copied = router.GetState(device="ipad-8").state
        assert copied.conditions == ["session"]
        assert copied.path == saved.path
        with varlink.Client(address=f"unix:{daemon.socket}") as plain, plain.open(ROUTER) as untyped:
            assert untyped.GetState(device="ipad-8")["state"] == untyped.GetState(device="ipad-7")["state"]

        assert router.ForgetDevice(device="ipad-8").existed is True
        assert router.ForgetDevice(device="ipad-8").existed is False
        assert getattr(router.GetState(device="ipad-8"), "state", None) is None

        reloaded = router.Reload()
        assert reloaded.generation == 2


def test_errors_are_typed_varlink_errors(daemon):
    with varlink.Client(address=f"unix:{daemon.socket}") as client, client.open(ROUTER, namespaced=True) as router:
        try:
            router.GetDecision(id="no-such-decision")
            raise AssertionError("expected DecisionNotFound")
        except varlink.VarlinkError as error:
            assert error.error() == f"{ROUTER}.DecisionNotFound"
        try:
            router.Route(payload={"aps": {"badge": "three"}, "deeplink": "shop://offers/X"})
            raise AssertionError("expected InvalidPayload")
        except varlink.VarlinkError as error:
            assert error.error() == f"{ROUTER}.InvalidPayload"
            assert error.parameters()["field"] == "aps.badge"


def test_monitor_streams_every_new_decision(daemon):
    received = []
    ready = threading.Event()

    def watch():
        with varlink.Client(address=f"unix:{daemon.socket}") as client, client.open(ROUTER, namespaced=True) as router:
            stream = router.Monitor(_more=True)
            ready.set()
            for reply in stream:
                received.append(vars(reply.decision))
                if len(received) == 3:
                    return

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    ready.wait(10)
    # The monitor is registered once its call is read; a GetStats round trip on its own connection
    # cannot prove that, so wait until the daemon counts it.
    for _ in range(500):
        if daemon.call(f"{ROUTER}.GetStats")["parameters"]["stats"]["monitors"] == 1:
            break
    links = ["shop://offers/A", "shop://products/p-1", "https://shop.example.com/catalog"]
    for link in links:
        daemon.call(f"{ROUTER}.Resolve", {"link": link, "dryRun": True})
    watcher.join(10)
    # A Resolve decision names its link as its source (format and field "link").
    assert [(d["source"].format, d["source"].field, d["source"].link) for d in received] == [
        ("link", "link", link) for link in links]
    assert [d["page"].id for d in received] == ["cart.offer", "catalog.product", "catalog.home"]
