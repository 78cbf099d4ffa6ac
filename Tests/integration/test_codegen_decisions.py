"""The generated Swift follows the running daemon's decisions step for step.

`notifyctl codegen swift` writes the app's `NotifydDecision`, `NotifydStep` and navigator protocol. Compiled with
decision_driver.swift, it reads each decision the real daemon sends (`notifyctl --json`), applies it to a navigator
that records every call, and prints each call as the step's `description`. Those lines must be the step lines
`notifyctl decision ID` prints for the same decision, one for one: for every decision of README.md's shop tour (and
a few more, so that every action is seen), and for the generated large graph of the codegen agreement tests
(Tests/NotifyctlTests/Golden/large-graph.json). A daemon running a config newer than the app's code makes decisions
the app refuses, naming the page; and examples/shop-app, built as docs/codegen.md says, follows the tour through
`notifyctl --json monitor`.
"""
import json
import os
import re
import shutil
import subprocess
import time
import urllib.parse

import pytest

from conftest import EXAMPLES, NOTIFYCTL, ROOT, SHOP, Daemon

DRIVER = os.path.join(ROOT, "Tests", "integration", "decision_driver.swift")
LARGE = os.path.join(ROOT, "Tests", "NotifyctlTests", "Golden", "large-graph.json")
SWIFTC = os.environ.get("SWIFTC") or shutil.which("swiftc")
ACTIONS = {"start", "activate", "selectTab", "present", "dismiss", "popTo", "push", "setRoot", "display"}

pytestmark = pytest.mark.skipif(SWIFTC is None, reason="needs swiftc (set SWIFTC or put it on PATH)")

# README.md's tour, in its order, then what the tour leaves out: a modal over a modal's gate, a dismissal, a push,
# the fallback, a flow, typed and escaped arguments, a catch-all. (command, arguments...) for `notifyctl --json`.
TOUR = [
    ("send", "--device", "ipad-7", os.path.join(EXAMPLES, "apns-offer.json")),
    ("send", "--device", "ipad-7", os.path.join(EXAMPLES, "apns-offer.json")),
    ("resolve", "--dry-run", "shop://offers/SUMMER"),
    ("resolve", "--device", "ipad-7", "https://shop.example.com/account/orders/42"),
    ("finish", "ipad-7", "login"),
    ("explain", "--dry-run", "shop://products/p-1"),
    ("resolve", "--device", "ipad-7", "shop://deals/E621E1F8-C36C-495A-93FC-0C247A3E6E5F"),
    ("finish", "ipad-7", "membership"),
    ("resolve", "--device", "ipad-7", "shop://membership"),
    ("resolve", "--device", "ipad-7", "shop://cart"),
    ("resolve", "--device", "ipad-7", "shop://cart/checkout/payment"),
    ("resolve", "--device", "ipad-7", "shop://nowhere"),
    ("resolve", "--device", "ipad-7", "https://M.Shop.Example.com./catalog/running%20shoes?sort=rating&page=2"),
    ("resolve", "--device", "ipad-7", "shop://info/shipping/returns"),
    ("resolve", "--device", "ipad-7", "shop://welcome"),
    ("resolve", "--device", "ipad-8", "shop://pay/7"),
] + [("send", "--device", f"payload-{name}", os.path.join(EXAMPLES, name))
     for name in sorted(os.listdir(EXAMPLES)) if name.endswith(".json")]


def notifyctl(*args, check=True):
    run = subprocess.run([NOTIFYCTL, *args], capture_output=True, text=True, timeout=60)
    if check:
        assert run.returncode == 0, f"notifyctl {' '.join(args)}: {run.stderr}"
    return run


def build_driver(config, directory):
    """The generated Swift for `config` compiled with the driver; returns the executable."""
    os.makedirs(directory, exist_ok=True)
    notifyctl("codegen", "swift", config, "-o", directory)
    shutil.copy(DRIVER, os.path.join(directory, "main.swift"))
    executable = os.path.join(directory, "driver")
    run = subprocess.run([SWIFTC, "-Onone", "-swift-version", "6", "-o", executable, "AppLink.swift", "main.swift"],
                         cwd=directory, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, f"swiftc failed:\n{run.stderr[:4000]}"
    return executable


def drive(executable, decisions, directory):
    """The driver's output for `decisions` (JSON objects): per decision, its fields and the steps it applied."""
    path = os.path.join(directory, "decisions.jsonl")
    with open(path, "w") as f:
        f.write("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in decisions))
    run = subprocess.run([executable, path], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    results = []
    for line in run.stdout.splitlines():
        kind, _, rest = line.partition("\t")
        if kind == "step":
            results[-1]["steps"].append(rest)
        elif kind == "differs":
            results[-1]["differs"] = rest
        else:
            results.append({"kind": kind, "fields": rest.split("\t"), "steps": []})
    assert len(results) == len(decisions), run.stdout
    return results


def printed_steps(socket, decision_id):
    """The step lines `notifyctl decision ID` prints, without their numbers."""
    text = notifyctl("--socket", socket, "decision", decision_id).stdout
    steps = [m.group(1) for m in re.finditer(r"^│ +\d+\. (.*)$", text, re.M)]
    assert steps or "├─ steps     none" in text, text
    return steps


def expect_agreement(executable, socket, decisions, directory):
    """Every decision decodes; the navigator gets its steps one for one, printed as notifyctl prints them."""
    results = drive(executable, decisions, directory)
    for decision, result in zip(decisions, results):
        assert result["kind"] == "decision", f"{decision['id']}: {result}"
        assert "differs" not in result, f"{decision['id']}: the navigator got other steps: {result['differs']}"
        outcome, page, path, pending = result["fields"]
        assert outcome == decision["outcome"]
        assert page == decision["page"]["description"]
        assert path.split() == decision["path"]
        if decision["pending"]:
            assert pending.startswith(decision["pending"]["page"]["description"] + " " + decision["pending"]["gate"])
        else:
            assert pending == "-"
        assert result["steps"] == printed_steps(socket, decision["id"]), decision["id"]
        assert len(result["steps"]) == len(decision["steps"])


@pytest.fixture(scope="module")
def shop_driver(tmp_path_factory):
    directory = str(tmp_path_factory.mktemp("shop-driver"))
    return build_driver(SHOP, directory), directory


@pytest.fixture
def shop_daemon(workdir):
    d = Daemon(workdir).start()
    yield d
    d.stop()


def tour(socket, device="ipad-7"):
    """The tour's decisions, as notifyctl --json prints them; `device` for ipad-7."""
    commands = [[device if word == "ipad-7" else word for word in command] for command in TOUR]
    replies = [json.loads(notifyctl("--socket", socket, "--json", *command).stdout) for command in commands]
    # `finish --json` prints FlowFinished's whole reply: the decision is its `resumed`.
    return [reply["resumed"] if command[0] == "finish" else reply for command, reply in zip(commands, replies)]


def test_the_app_applies_the_steps_notifyctl_prints_for_every_decision_of_the_shop_tour(shop_driver, shop_daemon):
    executable, directory = shop_driver
    decisions = tour(shop_daemon.socket)
    assert [d["outcome"] for d in decisions[:6]] == ["routed", "routed", "routed", "gated", "resumed", "routed"]
    assert {"fallback"} <= {d["outcome"] for d in decisions}
    assert {s["action"] for d in decisions for s in d["steps"]} == ACTIONS, "the tour no longer shows every action"
    expect_agreement(executable, shop_daemon.socket, decisions, directory)


def test_a_config_newer_than_the_app_makes_decisions_it_refuses_naming_the_page(shop_driver, workdir):
    """The daemon runs shop.yaml with a page more than the app's code was generated from."""
    executable, directory = shop_driver
    with open(SHOP) as f:
        text = f.read()
    offer = '      "offer(id: String)": ["/offers/{id}", "/promo/{id}"]\n'
    assert text.count(offer) == 1, "config/shop.yaml changed: update where the test adds a page"
    newer = os.path.join(workdir, "newer.yaml")
    with open(newer, "w") as f:
        f.write(text.replace(offer, offer + '      "gift(code: String)": /gifts/{code}\n'))
    d = Daemon(os.path.join(workdir), config=newer).start()
    try:
        gift = json.loads(notifyctl("--socket", d.socket, "--json", "resolve", "--dry-run", "shop://gifts/XMAS").stdout)
        known = json.loads(notifyctl("--socket", d.socket, "--json", "resolve", "--dry-run", "shop://cart").stdout)
    finally:
        d.stop()
    assert gift["page"]["id"] == "cart.gift"
    results = drive(executable, [gift, known], directory)
    assert results[0]["kind"] == "error"
    assert results[0]["fields"][0].startswith("$.page.id: unknown page 'cart.gift'; "), results[0]
    assert results[1]["kind"] == "decision", "a decision of pages the app knows still decodes"


def sample(type_name, types):
    """A value of `type_name` as a link writes it."""
    return {"Int": "7", "Bool": "true", "UUID": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "String": "a b"}.get(
        type_name, (types.get(type_name) or ["x"])[0])


def page_links(graph):
    """A link to each page of `graph` (the daemon's GetGraph), from its first pattern and a value of each type."""
    links = []
    for coordinator in graph["coordinators"]:
        for page in coordinator.get("pages", []):
            if not page["patterns"]:
                continue
            parameters = dict(re.findall(r"(\w+): (\w+)", page["case"]))
            def value(match):
                name = match.group(1)
                return urllib.parse.quote(sample(parameters[name], graph["types"]), safe="")
            pattern = page["patterns"][0]
            pattern = re.sub(r"\{(\w+)\.\.\.\}", lambda m: value(m) + "/rest", pattern)
            links.append("big:" + re.sub(r"\{(\w+)\}", value, pattern))
    return links


def test_the_app_applies_the_steps_notifyctl_prints_for_the_large_generated_graph(tmp_path_factory, workdir):
    directory = str(tmp_path_factory.mktemp("large-driver"))
    executable = build_driver(LARGE, directory)
    d = Daemon(workdir, config=LARGE)
    d.config = os.path.join(workdir, "large-graph.json")
    shutil.copy(LARGE, d.config)
    d.start()
    try:
        graph = d.call("io.notifyd.Router.GetGraph")["parameters"]["graph"]
        links = page_links(graph)
        assert len(links) >= 300
        decisions = []
        for i, link in enumerate(links):
            # One device walks every page in turn (the minimal diffs); every fourth link is also a cold start.
            commands = [("--device", "walker")] + ([("--dry-run",)] if i % 4 == 0 else [])
            for flags in commands:
                run = notifyctl("--socket", d.socket, "--json", "resolve", *flags, link, check=False)
                if run.returncode == 0:
                    decisions.append(json.loads(run.stdout))
        assert len(decisions) >= 300
        # Its pages have no back pages, so nothing is pushed beneath a page: the shop tour has push.
        assert {s["action"] for x in decisions for s in x["steps"]} >= {"activate", "start", "setRoot", "display",
                                                                        "popTo"}
        expect_agreement(executable, d.socket, decisions, directory)
    finally:
        d.stop()


def wait_for_monitor(d):
    deadline = time.monotonic() + 20
    while d.call("io.notifyd.Router.GetStats")["parameters"]["stats"]["monitors"] != 1:
        assert time.monotonic() < deadline, "the monitor did not register"
        time.sleep(0.01)


def documented_run():
    """docs/codegen.md's commands for the example app (the `notifyctl` lines) and the output it shows for them."""
    with open(os.path.join(ROOT, "docs", "codegen.md")) as f:
        text = f.read()
    section = text[text.index("### An app that follows the daemon"):]
    blocks = re.findall(r"```(\w*)\n(.*?)```", section, re.S)
    commands = next(body for language, body in blocks if language == "sh" and body.startswith("notifyctl "))
    shown = section[section.index("<!-- checked by Tests/integration/test_codegen_decisions.py -->"):]
    output = re.search(r"```\n(.*?)```", shown, re.S).group(1)
    return [line.split()[1:] for line in commands.splitlines()], output.splitlines()


def test_the_example_app_follows_the_daemon_through_notifyctl_monitor_as_documented(shop_daemon, tmp_path_factory):
    directory = str(tmp_path_factory.mktemp("shop-app"))
    build = subprocess.run(["bash", os.path.join(ROOT, "examples", "shop-app", "build.sh"), directory],
                           capture_output=True, text=True, timeout=900,
                           env=dict(os.environ, NOTIFYCTL=NOTIFYCTL, SWIFTC=SWIFTC))
    assert build.returncode == 0, build.stderr
    commands, shown = documented_run()
    output = os.path.join(directory, "app.out")
    with open(output, "w") as out:
        monitor = subprocess.Popen([NOTIFYCTL, "--socket", shop_daemon.socket, "--json", "monitor"],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        follower = subprocess.Popen([os.path.join(directory, "shop-app")], stdin=monitor.stdout, stdout=out,
                                    stderr=subprocess.STDOUT, cwd=ROOT)
        monitor.stdout.close()
        try:
            wait_for_monitor(shop_daemon)
            for command in commands:
                notifyctl("--socket", shop_daemon.socket, *command)
            rest = tour(shop_daemon.socket, device="ipad-9")
            # A decision's reply and its monitor message leave together: wait until the app printed a header for
            # each (it writes every line at once) before ending the monitor, or the last may still be on its way.
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                with open(output) as f:
                    printed = [line for line in f.read().splitlines() if not line.startswith("  ")]
                if len(printed) >= len(commands) + len(rest):
                    break
                time.sleep(0.05)
        finally:
            monitor.terminate()
            monitor.wait(20)
            follower.wait(20)
    with open(output) as f:
        lines = f.read().splitlines()
    assert lines[:len(shown)] == shown, "docs/codegen.md no longer shows what the example app prints"
    # The rest of the tour: one header per decision, then what the coordinators did.
    starts = [i for i, line in enumerate(lines) if not line.startswith("  ")]
    assert [lines[i] for i in starts][len(commands):] == [
        f"{d['outcome']} {d['page']['description']}" + (f" on {d['device']}" if d["device"] else "") for d in rest]
    assert "  cart: pushes the checkout" in lines
    assert "  membership: is dismissed" in lines
