"""Answers a user can act on, against the real daemon: errors that lead with what was wrong, --json errors as
objects, explain of a refused link, files that are neither payload nor link, the coordinator a `finish` meant, a
dropped pending page, notifyd's own command line, stats with units and for Prometheus, and one history rule."""
import json
import os
import socket
import stat
import subprocess
import time
import urllib.request

import pytest

from conftest import NOTIFYCTL, NOTIFYD, ROOT, SHOP, shop_without_fallback, wait_for_socket

ROUTER = "io.notifyd.Router"


def ctl(daemon, *args, input=None):
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFYD_SOCKET", "NO_COLOR")}
    return subprocess.run([NOTIFYCTL, "--socket", daemon.socket, *args], input=input, capture_output=True,
                          text=True, timeout=60, env=env)


def failed(daemon, *args, status=1):
    """stderr of a run that must fail with `status` and print nothing on stdout."""
    result = ctl(daemon, *args)
    assert (result.returncode, result.stdout) == (status, ""), result
    return result.stderr


def json_error(daemon, *args, status=1):
    """The error object a --json run prints on stdout, stderr staying empty."""
    result = ctl(daemon, "--json", *args)
    assert (result.returncode, result.stderr) == (status, ""), result
    error = json.loads(result.stdout)
    assert list(error)[:3] == ["error", "parameters", "message"], error
    return error


def test_explain_of_a_refused_link_prints_what_the_daemon_says_why(make_daemon, workdir):
    # Without a fallback page a refused link is NoRoute (with one, it falls back with the reason as a warning).
    config = shop_without_fallback(workdir)
    daemon = make_daemon(config=config).start()
    link = "http://shop.example.com/cart"
    raw = daemon.call(f"{ROUTER}.Resolve", {"link": link, "dryRun": True, "explain": True})
    assert raw["error"] == f"{ROUTER}.NoRoute"
    text = failed(daemon, "explain", "--dry-run", link)
    assert text.startswith(f"notifyctl: error: no page for '{link}' [{ROUTER}.NoRoute]\n")
    error = json_error(daemon, "explain", "--dry-run", link)
    assert error["error"] == f"{ROUTER}.NoRoute" and error["parameters"] == raw["parameters"]
    # The reasons NoRoute carries are explain's trace, online as offline.
    reasons = raw["parameters"]["reasons"]
    assert reasons == ["link: 'http://shop.example.com/cart' is refused: 'http:' links are not accepted; "
                       "universal links use 'https:'"]
    assert "notifyctl: trace:\n" in text and all(f"  {r}\n" in text for r in reasons)
    assert error["trace"] == reasons
    offline = subprocess.run([NOTIFYCTL, "explain", "--offline", config, link], capture_output=True, text=True)
    assert offline.returncode == 1
    assert offline.stderr.startswith(f"notifyctl: error: no page for '{link}' [{ROUTER}.NoRoute]\nnotifyctl: trace:\n")
    assert all(f"  {r}\n" in offline.stderr for r in reasons), offline.stderr


def test_a_file_that_is_neither_json_nor_a_link_is_not_sent(daemon, workdir):
    path = os.path.join(workdir, "bad.json")
    with open(path, "w") as f:
        f.write("not json at all {\n")
    before = daemon.call(f"{ROUTER}.GetStats")["parameters"]["stats"]["requests"]
    text = failed(daemon, "send", path)
    assert text.startswith(f"notifyctl: error: {path}:1:1: invalid JSON: ")
    assert "a file is sent as a link only when its text is one line" in text
    error = json_error(daemon, "send", path)
    assert error["error"] == "notifyctl.InvalidInput"
    assert (error["parameters"]["line"], error["parameters"]["column"]) == (1, 1)
    # Neither run reached the daemon (the GetStats call itself is the one request more).
    assert daemon.call(f"{ROUTER}.GetStats")["parameters"]["stats"]["requests"] == before + 1
    with open(path, "w") as f:
        f.write("shop://offers/SUMMER\n")
    assert ctl(daemon, "send", "--dry-run", path).stdout.startswith('routed  cart.offer(id: "SUMMER")\n')


def test_finish_names_the_coordinator_meant_and_what_is_presented(daemon):
    gated = json.loads(ctl(daemon, "--json", "resolve", "--device", "fin", "shop://cart/checkout").stdout)
    assert gated["outcome"] == "gated" and gated["pending"]["gate"] == "login"
    assert failed(daemon, "finish", "fin", "logn") == (
        f"notifyctl: error: no coordinator 'logn' in the graph (did you mean 'login'?) [{ROUTER}.InvalidParameter]\n")
    error = json_error(daemon, "finish", "fin", "logn")
    assert error["parameters"] == {"parameter": "coordinator", "value": "logn",
                                   "reason": "no coordinator 'logn' in the graph", "suggestion": "login"}
    assert failed(daemon, "finish", "fin", "membership") == (
        "notifyctl: error: 'membership' is not presented on this device, so it cannot finish; presented: login "
        f"[{ROUTER}.NotPresented]\n")
    assert json_error(daemon, "finish", "fin", "membership")["parameters"] == {
        "coordinator": "membership", "presented": ["login"]}


def test_a_dropped_pending_page_is_a_warning_of_the_decision_that_dropped_it(daemon):
    def resolve(*args):
        return json.loads(ctl(daemon, "--json", "resolve", "--device", "drop", *args).stdout)

    assert resolve("https://shop.example.com/account/orders/42")["outcome"] == "gated"
    # A newer gated page takes its place.
    replaced = resolve("shop://cart/checkout")
    assert replaced["warnings"] == [
        "pending page account.order(id: 42) dropped: cart.checkout now waits behind login in its place"]
    # A page elsewhere dismisses the gate, and with it the pending page.
    text = ctl(daemon, "resolve", "--device", "drop", "shop://offers/X").stdout
    assert "├─ warnings\n│  pending page cart.checkout dropped: this decision dismissed login, its gate\n" in text
    state = json.loads(ctl(daemon, "--json", "state", "drop").stdout)["state"]
    assert state["pending"] is None
    # Nothing pending, nothing to say.
    assert "warnings" not in resolve("shop://offers/Y")


def test_json_errors_are_objects_on_stdout_for_every_kind_of_failure(daemon, workdir):
    error = json_error(daemon, "decision", "no-such-id")
    assert error == {"error": f"{ROUTER}.DecisionNotFound", "parameters": {"id": "no-such-id"},
                     "message": "no decision 'no-such-id' in the history"}
    usage = json_error(daemon, "history", "--limit", "zero", status=2)
    assert usage["error"] == "notifyctl.UsageError" and usage["parameters"] == {"command": "history"}
    missing = os.path.join(workdir, "nothing.sock")
    result = subprocess.run([NOTIFYCTL, "--json", "--socket", missing, "stats"], capture_output=True, text=True)
    assert (result.returncode, result.stderr) == (1, "")
    assert json.loads(result.stdout)["error"] == "notifyctl.NotRunning"


def test_a_socket_path_that_is_a_regular_file_says_so(daemon, workdir):
    path = os.path.join(workdir, "regular-file")
    with open(path, "w") as f:
        f.write("x")
    result = subprocess.run([NOTIFYCTL, "--socket", path, "stats"], capture_output=True, text=True)
    assert result.returncode == 1
    assert result.stderr.startswith(
        f"notifyctl: error: {path} is a regular file, not a socket: pass the socket notifyd listens on\n")


def test_history_and_decision_see_the_same_decisions_dry_runs_included(daemon):
    made = json.loads(ctl(daemon, "--json", "resolve", "--device", "hist", "shop://offers/ONE").stdout)
    dry = json.loads(ctl(daemon, "--json", "resolve", "--dry-run", "--device", "hist", "shop://offers/TWO").stdout)
    listed = json.loads(ctl(daemon, "--json", "history", "--device", "hist").stdout)["decisions"]
    assert [d["id"] for d in listed] == [dry["id"], made["id"]]
    assert json.loads(ctl(daemon, "--json", "decision", dry["id"]).stdout) == dry
    assert json.loads(ctl(daemon, "--json", "history", "--device", "hist", "--limit", "1").stdout)["decisions"] == [dry]


def run_notifyd(*args):
    return subprocess.run([NOTIFYD, *args], capture_output=True, text=True, timeout=30)


def test_notifyd_prints_its_version_and_the_option_it_did_not_know():
    version = run_notifyd("--version")
    assert (version.returncode, version.stderr) == (0, "")
    assert version.stdout.startswith("notifyd 0.1.0")
    typo = run_notifyd("--confg", SHOP)
    assert typo.returncode == 2 and typo.stdout == ""
    assert typo.stderr == (
        "notifyd: unknown option '--confg' (did you mean '--config'?); 'notifyd --help' lists the options\n")


def test_a_missing_state_directory_is_made_private(workdir):
    state = os.path.join(workdir, "not", "yet")
    sock = os.path.join(workdir, "made.sock")
    process = subprocess.Popen([NOTIFYD, "--config", SHOP, "--socket", sock, "--state-dir", state,
                                "--log-target", "console"], stderr=subprocess.DEVNULL)
    try:
        wait_for_socket(sock, process)
        for path in (os.path.join(workdir, "not"), state):
            assert stat.S_IMODE(os.stat(path).st_mode) == 0o700, path
        assert os.path.exists(os.path.join(state, "notifyd.sqlite"))
    finally:
        process.terminate()
        process.wait(20)


def test_a_failure_line_says_its_reason_once(workdir):
    path = os.path.join(workdir, "a-file")
    with open(path, "w") as f:
        f.write("x")
    result = run_notifyd("--config", SHOP, "--socket", os.path.join(workdir, "s.sock"), "--state-dir", path,
                         "--log-target", "console")
    assert result.returncode == 1
    failure = [line for line in result.stderr.splitlines() if "notifyd failed:" in line]
    assert len(failure) == 1, result.stderr
    assert f"notifyd failed: cannot open the state store: {path}: the state directory is not a directory;" \
        in failure[0]
    assert "reason=" not in failure[0] and failure[0].count("state directory") == 1, failure[0]


@pytest.fixture
def node_exporter():
    """Prometheus' node exporter, as `make integration-test` unpacks it (or as installed)."""
    for path in (os.path.join(ROOT, ".build", "tools", "usr", "bin", "prometheus-node-exporter"),
                 "/usr/bin/prometheus-node-exporter"):
        if os.access(path, os.X_OK):
            return path
    pytest.skip("no prometheus-node-exporter: `make integration-test` unpacks it under .build/tools")


def scrape(exporter, directory):
    """The node exporter's /metrics with only the textfile collector, reading `directory`."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    process = subprocess.Popen([exporter, "--collector.disable-defaults", "--collector.textfile",
                                f"--collector.textfile.directory={directory}",
                                f"--web.listen-address=127.0.0.1:{port}"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as reply:
                    return reply.read().decode()
            except OSError:
                assert process.poll() is None and time.monotonic() < deadline, "the node exporter did not serve"
                time.sleep(0.05)
    finally:
        process.terminate()
        process.wait(20)


def test_two_daemons_stats_are_read_by_the_node_exporters_textfile_collector(make_daemon, workdir, node_exporter):
    shop, news = make_daemon(), make_daemon(config=os.path.join(ROOT, "examples", "configs", "news.yaml"))
    # Sockets named after their apps, as the template units name them: the `app` label is the socket's name.
    for app, daemon in (("shop", shop), ("news", news)):
        daemon.socket = os.path.join(daemon.workdir, f"{app}.sock")
        daemon.start()
    assert json.loads(ctl(shop, "--json", "resolve", "shop://offers/A").stdout)["outcome"] == "routed"
    directory = os.path.join(workdir, "textfile")
    os.makedirs(directory)
    for app, daemon in (("shop", shop), ("news", news)):
        result = subprocess.run([NOTIFYCTL, "--socket", daemon.socket, "stats", "--format", "prometheus"],
                                capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        assert f'notifyd_requests_total{{app="{app}"}} ' in result.stdout
        with open(os.path.join(directory, f"notifyd-{app}.prom"), "w") as f:
            f.write(result.stdout)
    metrics = scrape(node_exporter, directory)
    assert "\nnode_textfile_scrape_error 0\n" in metrics, metrics
    assert '\nnotifyd_decisions_total{app="shop",outcome="routed"} 1\n' in metrics
    assert '\nnotifyd_decisions_total{app="news",outcome="routed"} 0\n' in metrics
    assert "\n# TYPE notifyd_request_duration_seconds summary\n" in metrics
    assert 'notifyd_request_duration_seconds_count{app="shop"} ' in metrics
    assert 'notifyd_request_duration_seconds{app="news",quantile="0.99"} ' in metrics
