"""`notifyctl … --offline CONFIG` decides as the real daemon does for a device it has never seen.

Each link and payload goes both ways: offline from config/shop.yaml, and through notifyctl to a running notifyd on
the same config with a fresh device. The decisions must be equal apart from what names the moment or the request
(the id, the device, createdAt and the pending page's expiry, also where a trace line quotes them).
"""
import json
import os
import re
import subprocess

import pytest

from conftest import EXAMPLES, NOTIFYCTL, SHOP

LINKS = [
    "shop://offers/SUMMER",  # routed, with a synthesized back stack
    "shop://promo/WINTER",  # the second pattern of the same page
    "https://shop.example.com/cart",  # a universal link
    "https://M.Shop.Example.com./catalog/running%20shoes?sort=rating&page=2",  # host rules, escapes, query
    "/catalog/shoes",  # a bare path, defaults
    "shop://account/orders/42",  # gated behind login
    "https://shop.example.com/cart/checkout",  # gated, with a back page
    "shop://membership",  # two conditions in order
    "shop://deals/E621E1F8-C36C-495A-93FC-0C247A3E6E5F",  # a UUID parameter
    "shop://info/shipping/returns",  # a catch-all
    "shop://account/orders/x",  # a value that does not convert: the fallback page
    "shop://nowhere",  # no pattern: the fallback page
    "shop://welcome",  # a flow
    "/login",  # the modal that provides the condition itself
]

# Links both sides refuse: a foreign scheme or host, a malformed escape (the fallback page, with the reason).
REFUSED = ["ftp://offers/SUMMER", "https://evil.example.com/cart", "shop://products/%zz"]

PAYLOADS = sorted(name for name in os.listdir(EXAMPLES) if name.endswith((".json", ".txt")))

TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z")


def notifyctl(*args):
    return subprocess.run([NOTIFYCTL, *args], capture_output=True, text=True, timeout=30)


def decision_of(run):
    """The decision notifyctl printed with --json (the decision object, or a reply that wraps it)."""
    assert run.returncode == 0, run.stderr
    printed = json.loads(run.stdout)
    if "outcome" not in printed and isinstance(printed.get("decision"), dict):
        printed = printed["decision"]
    return printed


def comparable(decision, device=None):
    """The decision without what differs between two requests made at different moments for different devices."""
    decision = json.loads(json.dumps(decision))
    for key in ("id", "device", "createdAt"):
        assert key in decision, f"the decision has no '{key}'"
        decision.pop(key)
    if decision.get("pending"):
        assert TIMESTAMP.fullmatch(decision["pending"].pop("expiresAt"))
    if "trace" in decision:
        lines = [TIMESTAMP.sub("<time>", line) for line in decision["trace"]]
        if device:
            lines = [line.replace(f"'{device}'", "<device>").replace(f" {device} ", " <device> ") for line in lines]
        decision["trace"] = lines
    return decision


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One daemon for the module: every request uses a device of its own, so none sees another's state."""
    from conftest import Daemon

    workdir = tmp_path_factory.mktemp("offline-agrees")
    os.chmod(workdir, 0o755)
    d = Daemon(str(workdir)).start()
    yield d
    d.stop()


def fresh_device(name, _counter=[0]):
    _counter[0] += 1
    return f"fresh-{_counter[0]}-{re.sub(r'[^a-z0-9]+', '-', name.lower())[:40]}"


@pytest.mark.parametrize("command", ["resolve", "explain"])
@pytest.mark.parametrize("link", LINKS)
def test_a_link_offline_gets_the_daemons_decision_for_a_new_device(served, command, link):
    if command == "explain" and link.startswith("/"):
        link = "shop://" + link[1:]  # explain reads an argument without a scheme as a payload file
    offline = decision_of(notifyctl(command, "--offline", SHOP, "--json", link))
    device = fresh_device(link)
    online = decision_of(notifyctl("--socket", served.socket, command, "--device", device, "--json", link))
    assert online["device"] == device and offline["device"] is None
    assert ("trace" in offline) == (command == "explain") == ("trace" in online)
    assert comparable(offline) == comparable(online, device)


@pytest.mark.parametrize("command", ["send", "explain"])
@pytest.mark.parametrize("payload", PAYLOADS)
def test_a_payload_offline_gets_the_daemons_decision_for_a_new_device(served, command, payload):
    path = os.path.join(EXAMPLES, payload)
    offline = decision_of(notifyctl(command, "--offline", SHOP, "--json", path))
    device = fresh_device(payload)
    online = decision_of(notifyctl("--socket", served.socket, command, "--device", device, "--json", path))
    assert offline["source"] == online["source"]
    # A file holding only a link is resolved: its source is the link of Resolve.
    assert (offline["source"]["format"] == "link") == payload.endswith(".txt")
    assert comparable(offline) == comparable(online, device)


@pytest.mark.parametrize("link", REFUSED)
def test_a_link_both_refuse_falls_back_with_the_same_reason_both_ways(served, link):
    offline = decision_of(notifyctl("resolve", "--offline", SHOP, "--json", link))
    device = fresh_device(link)
    online = decision_of(notifyctl("--socket", served.socket, "resolve", "--device", device, "--json", link))
    assert offline["outcome"] == online["outcome"] == "fallback"
    assert len(offline["warnings"]) == 1 and offline["warnings"][0].startswith(f"link: '{link}' is refused: ")
    assert comparable(offline) == comparable(online, device)
