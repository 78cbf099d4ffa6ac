"""notifyctl against the real daemon: every online command as text and --json, help, exit codes, the socket."""
import json
import os
import select
import signal
import subprocess

import pytest

from conftest import EXAMPLES, NOTIFYCTL

ROUTER = "io.notifyd.Router"
# The keys of the routing decision of the contract (docs/design.md §3) and its time; `trace` only with explain.
DECISION_KEYS = {"id", "device", "outcome", "source", "page", "path", "steps", "pending", "createdAt"}
ONLINE_COMMANDS = ["send", "resolve", "explain", "decision", "history", "state", "finish", "monitor", "stats",
                   "reload", "info"]


def environment(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFYD_SOCKET", "NO_COLOR")}
    env.update(extra)
    return env


def ctl(daemon, *args, input=None, socket=True, env=None):
    """Runs notifyctl (with --socket of `daemon` unless told otherwise); returns the completed process."""
    command = [NOTIFYCTL] + (["--socket", daemon.socket] if socket else []) + list(args)
    return subprocess.run(command, input=input, capture_output=True, text=True, timeout=60,
                          env=env if env is not None else environment())


def ok(daemon, *args, **kwargs):
    """stdout of a notifyctl run that must succeed silently on stderr."""
    result = ctl(daemon, *args, **kwargs)
    assert (result.returncode, result.stderr) == (0, ""), result
    return result.stdout


def json_of(daemon, *args, **kwargs):
    return json.loads(ok(daemon, "--json", *args, **kwargs))


def example(name):
    return os.path.join(EXAMPLES, name)


@pytest.mark.parametrize(
    "name, source, outcome, page",
    [
        ("apns-offer.json", "apns · deeplink · shop://offers/SUMMER", "routed", 'cart.offer(id: "SUMMER")'),
        ("apns-category.json", "apns · aps.category", "gated", "account.order(id: 4711)"),
        ("fcm-v1.json", "fcm · message.data.deeplink · shop://cart/checkout", "gated", "cart.checkout"),
        ("fcm-legacy.json", "fcm-legacy · data.link · shop://products/trail-runner-2", "routed",
         'catalog.product(id: "trail-runner-2")'),
        ("ntfy.json", "ntfy · click · shop://account/orders/4711", "gated", "account.order(id: 4711)"),
        ("gotify.json", 'gotify · extras["client::notification"].click.url · '
         "https://shop.example.com/products/trail-runner-2", "routed", 'catalog.product(id: "trail-runner-2")'),
        ("link.txt", None, "routed", 'cart.offer(id: "SUMMER")'),
    ],
)
def test_send_routes_each_example_payload(daemon, name, source, outcome, page):
    text = ok(daemon, "send", "--dry-run", example(name)).splitlines()
    assert text[0] == f"{outcome}  {page}"
    if source:
        assert text[1] == f"├─ source    {source}"
    assert text[-1].startswith("└─ decision  ") and " · no device · " in text[-1]

    decision = json_of(daemon, "send", "--device", f"dev-{name}", example(name))
    assert set(decision) == DECISION_KEYS
    assert decision["outcome"] == outcome and decision["page"]["description"] == page
    assert decision["device"] == f"dev-{name}"
    if source:
        assert decision["source"]["format"] == source.split(" · ")[0]
    assert decision["steps"][-1]["action"] in ("display", "present")
    assert (decision["pending"] is not None) == (outcome == "gated")


def test_send_reads_the_payload_from_standard_input(daemon):
    with open(example("apns-offer.json")) as f:
        text = ok(daemon, "send", "-", "--dry-run", input=f.read())
    assert text.startswith('routed  cart.offer(id: "SUMMER")\n')


def test_resolve_prints_the_tree_or_the_decision_object(daemon):
    text = ok(daemon, "resolve", "--device", "phone", "shop://offers/SUMMER")
    assert text.splitlines()[:4] == [
        'routed  cart.offer(id: "SUMMER")', "├─ source    link · shop://offers/SUMMER", "├─ path      app › main › cart",
        "├─ steps"]
    assert "· device phone ·" in text.splitlines()[-1]
    # Known now: the steps are the diff from its state, not a cold start.
    again = json_of(daemon, "resolve", "--device", "phone", "shop://offers/WINTER")
    assert set(again) == DECISION_KEYS
    assert again["page"]["arguments"] == {"id": "WINTER"}
    assert "start" not in [step["action"] for step in again["steps"]]


def test_explain_adds_the_trace(daemon):
    text = ok(daemon, "explain", "--dry-run", "shop://products/p-1")
    assert "├─ trace\n" in text
    assert "/products/{id}: matched catalog.product(id: \"p-1\")" in text
    decision = json_of(daemon, "explain", "--dry-run", example("fcm-v1.json"))
    assert set(decision) == DECISION_KEYS | {"trace"}
    assert decision["trace"] and all(isinstance(line, str) for line in decision["trace"])
    assert "trace" not in json_of(daemon, "resolve", "--dry-run", "shop://products/p-1")


def test_decision_shows_one_decision_by_id(daemon):
    made = json_of(daemon, "send", "--device", "ipad-7", example("apns-offer.json"))
    assert json_of(daemon, "decision", made["id"]) == made
    text = ok(daemon, "decision", made["id"]).splitlines()
    assert text[0] == 'routed  cart.offer(id: "SUMMER")'
    assert text[-1].startswith(f"└─ decision  {made['id']} · device ipad-7 · ")


def test_history_lists_a_devices_decisions_newest_first(daemon):
    first = json_of(daemon, "resolve", "--device", "h-1", "shop://offers/ONE")
    second = json_of(daemon, "resolve", "--device", "h-1", "shop://products/p-2")
    json_of(daemon, "resolve", "--device", "h-2", "shop://offers/OTHER")
    rows = ok(daemon, "history", "--device", "h-1").splitlines()
    assert rows[0].split() == ["ID", "CREATED", "DEVICE", "OUTCOME", "PAGE"]
    assert [row.split()[0] for row in rows[1:]] == [second["id"], first["id"]]
    assert 'catalog.product(id: "p-2")' in rows[1]
    assert json_of(daemon, "history", "--device", "h-1", "--limit", "1") == {"decisions": [second]}
    assert ok(daemon, "history", "--device", "h-none") == "no decisions for device 'h-none'\n"


def test_state_shows_a_devices_navigation_state(daemon):
    json_of(daemon, "resolve", "--device", "s-1", "https://shop.example.com/account/orders/42")
    text = ok(daemon, "state", "s-1").splitlines()
    assert text[0] == "device s-1"
    assert "├─ path        app › main › login" in text
    assert text[-1].startswith("└─ pending     account.order(id: 42) behind login (session) until ")
    state = json_of(daemon, "state", "s-1")["state"]
    assert state["path"] == ["app", "main", "login"]
    assert state["pending"]["page"]["description"] == "account.order(id: 42)"
    assert ok(daemon, "state", "s-new").startswith("device 's-new' has no state: notifyd has not seen it")
    assert json_of(daemon, "state", "s-new") == {"state": None}


def test_finish_resumes_the_page_behind_the_gate(daemon):
    gated = json_of(daemon, "resolve", "--device", "f-1", "https://shop.example.com/account/orders/42")
    assert gated["outcome"] == "gated" and gated["pending"]["gate"] == "login"
    text = ok(daemon, "finish", "f-1", "login")
    assert text.startswith("resumed  account.order(id: 42)\n")
    assert "\n\ndevice f-1\n" in text and "├─ conditions  session\n" in text

    json_of(daemon, "resolve", "--device", "f-2", "https://shop.example.com/account/orders/7")
    finished = json_of(daemon, "finish", "f-2", "login")
    assert set(finished) == {"resumed", "state", "dropped"} and finished["dropped"] is None
    resumed = finished["resumed"]
    assert set(resumed) == DECISION_KEYS
    assert resumed["outcome"] == "resumed" and resumed["page"]["description"] == "account.order(id: 7)"
    assert json_of(daemon, "decision", resumed["id"]) == resumed

    # Login shown by itself: finishing it satisfies the condition but resumes nothing; --json prints the whole
    # reply, as the text does.
    json_of(daemon, "resolve", "--device", "f-3", "shop://login")
    reply = json_of(daemon, "finish", "f-3", "login")
    assert reply["resumed"] is None and reply["dropped"] is None
    assert reply["state"]["conditions"] == ["session"]
    # Nothing presented any more: an error reply.
    result = ctl(daemon, "finish", "f-3", "login")
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.startswith("notifyctl: error: 'login' is not presented on this device, so it cannot finish")
    assert result.stderr.rstrip().endswith(f"[{ROUTER}.NotPresented]")


class Lines:
    """The output of a running process, line by line; waits on the pipe (select), never sleeps."""

    def __init__(self, process):
        self.fd = process.stdout.fileno()
        self.buffer = b""

    def next(self, timeout=30):
        while b"\n" not in self.buffer:
            ready, _, _ = select.select([self.fd], [], [], timeout)
            assert ready, "no output from notifyctl monitor"
            chunk = os.read(self.fd, 65536)
            assert chunk, "notifyctl monitor ended"
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode()


def wait_for_monitors(daemon, count):
    for _ in range(1000):
        if json_of(daemon, "stats")["stats"]["monitors"] == count:
            return
    raise AssertionError(f"the daemon never counted {count} monitors")


def test_monitor_receives_the_decisions_routed_by_another_notifyctl(daemon):
    monitors = [
        subprocess.Popen([NOTIFYCTL, "--socket", daemon.socket, *json_flag, "monitor"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=environment())
        for json_flag in (["--json"], [])
    ]
    try:
        as_json, as_text = (Lines(process) for process in monitors)
        wait_for_monitors(daemon, 2)
        made = json_of(daemon, "send", "--device", "m-1", example("apns-offer.json"))
        assert json.loads(as_json.next()) == made
        tree = [as_text.next()]
        while not tree[-1].startswith("└─ decision"):
            tree.append(as_text.next())
        assert tree[0] == 'routed  cart.offer(id: "SUMMER")'
        assert tree[-1].startswith(f"└─ decision  {made['id']} · device m-1 · ")
        # Each decision once, in the order made.
        second = json_of(daemon, "resolve", "--dry-run", "shop://products/p-3")
        assert json.loads(as_json.next()) == second
    finally:
        for process in monitors:
            process.send_signal(signal.SIGTERM)
            process.wait(20)
    wait_for_monitors(daemon, 0)


def test_stats_prints_the_counters(daemon):
    json_of(daemon, "resolve", "--dry-run", "shop://offers/A")
    text = ok(daemon, "stats")
    assert text.startswith("notifyd  pid ") and " · config generation 1 · 1 event loop\n" in text.splitlines()[0] + "\n"
    assert "\n├─ decisions    1: routed 1\n" in text and "\n├─ latency      p50 " in text
    stats = json_of(daemon, "stats")["stats"]
    assert stats["decisions"] >= 1 and stats["configGeneration"] == 1
    assert set(stats["connections"]) == {"open", "accepted", "refused", "dropped"}


def test_reload_reports_the_generation_or_every_problem(daemon):
    assert ok(daemon, "reload") == "reloaded: configuration generation 2\n"
    assert json_of(daemon, "reload") == {"generation": 3, "warnings": []}
    with open(daemon.config) as f:
        good = f.read()
    with open(daemon.config, "w") as f:
        f.write(good.replace("kind: stack", "kind: stackk", 1))
    result = ctl(daemon, "reload")
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.startswith(
        "notifyctl: error: notifyd refused the new configuration (1 problem) and keeps serving the loaded one "
        f"[{ROUTER}.ConfigInvalid]\n")
    assert "stackk" in result.stderr
    assert f"'notifyctl validate {daemon.config}' shows the same findings" in result.stderr
    result = ctl(daemon, "--json", "reload")
    assert (result.returncode, result.stderr) == (1, "")
    error = json.loads(result.stdout)
    assert error["error"] == f"{ROUTER}.ConfigInvalid" and error["parameters"]["config"] == daemon.config
    assert len(error["parameters"]["errors"]) == 1 and "stackk" in error["parameters"]["errors"][0]
    assert json_of(daemon, "stats")["stats"]["configGeneration"] == 3


def test_info_names_the_daemon_and_its_interfaces(daemon):
    text = ok(daemon, "info")
    assert text.startswith("notifyd ")
    assert "├─ interfaces  org.varlink.service, io.notifyd.Router\n" in text
    assert f"├─ socket      {daemon.socket}\n" in text
    # Which store serves: SQLite and its file here (PostgreSQL and its server with `--store postgresql`).
    store = daemon.call(f"{ROUTER}.GetStats")["parameters"]["stats"]["store"]
    place = store.get("path") or store["server"]
    assert text.endswith(f"└─ store       {store['kind']} · {place} · schema {store['schema']} · up\n")
    assert ROUTER in json_of(daemon, "info")["interfaces"]


@pytest.mark.parametrize("command", ONLINE_COMMANDS)
def test_every_command_has_help(daemon, command):
    text = ok(daemon, command, "--help")
    assert text.startswith(f"Usage: notifyctl {command} ")
    assert "--json" in text and "--socket PATH" in text
    assert text.rstrip().endswith("Exit status: 0 success, 1 an error reply or a failure, 2 a usage mistake.")
    assert f"\n  {command} " in ok(daemon, "--help")


@pytest.mark.parametrize(
    "args, message",
    [
        (["decision", "no-such-id"], f"notifyctl: error: no decision 'no-such-id' in the history [{ROUTER}.DecisionNotFound]\n"),
        (["finish", "unknown-device", "login"],
         f"notifyctl: error: notifyd has no state for device 'unknown-device': no decision was made for it yet "
         f"[{ROUTER}.UnknownDevice]\n"),
    ],
)
def test_an_error_reply_exits_1_with_the_message_on_stderr(daemon, args, message):
    result = ctl(daemon, *args)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.startswith(message)


@pytest.mark.parametrize(
    "args, message",
    [
        (["resolve"], "notifyctl: error: 'resolve' needs LINK\n"),
        (["state", "a", "b"], "notifyctl: error: "),
        (["state", "tv", "--bogus"], "notifyctl: error: unknown option '--bogus' for 'state'\n"),
        (["history", "--limit", "zero"], "notifyctl: error: "),
        (["teleport"], "notifyctl: error: unknown command 'teleport'"),
    ],
)
def test_a_usage_mistake_exits_2(daemon, args, message):
    result = ctl(daemon, *args)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith(message)
    assert "Usage: notifyctl" in result.stderr


def test_the_socket_is_the_option_then_the_environment(daemon, workdir):
    missing = os.path.join(workdir, "nothing-here.sock")
    # $NOTIFYD_SOCKET when there is no --socket.
    assert json_of(daemon, "stats", socket=False, env=environment(NOTIFYD_SOCKET=daemon.socket))["stats"]
    # --socket wins over $NOTIFYD_SOCKET, both ways.
    assert json_of(daemon, "stats", env=environment(NOTIFYD_SOCKET=missing))["stats"]
    result = subprocess.run([NOTIFYCTL, "--socket", missing, "stats"], capture_output=True, text=True, timeout=60,
                            env=environment(NOTIFYD_SOCKET=daemon.socket))
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.startswith(f"notifyctl: error: notifyd is not running at {missing}: no such file")
    # Neither: the default path.
    if not os.path.exists("/run/notifyd/notifyd.sock"):
        result = ctl(daemon, "stats", socket=False)
        assert result.returncode == 1
        assert result.stderr.startswith("notifyctl: error: notifyd is not running at /run/notifyd/notifyd.sock")
