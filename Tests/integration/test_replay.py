"""`notifyctl replay` against a real daemon that routed a few hundred mixed payloads and links for twenty devices.

What replay must find is computed without it: before each request, the device's state is read from the daemon
(GetState); afterwards a second daemon, serving the candidate config, is put in that state (SetState, or
ForgetDevice when the device had none or its state does not fit the candidate) and asked the same request as a dry
run. A decision changes when that answer's outcome, page, path or gate differs from the one the first daemon gave.
The payloads are the repository's examples (from the vendors' documentation), each carrying one link, so that the
link a decision came from is the only candidate either daemon can read.
"""
import copy
import json
import os
import random
import subprocess

from conftest import EXAMPLES, NOTIFYCTL, SHOP

ROUTER = "io.notifyd.Router."

# The candidate: a page renamed, a pattern moved, a gate added, a host and the fallback changed.
EDITS = [
    ('"article(path: String)": /info/{path...}', '"guide(path: String)": /info/{path...}'),
    ('"offer(id: String)": ["/offers/{id}", "/promo/{id}"]', '"offer(id: String)": /offers/{id}'),
    ('"product(id: String)": /products/{id}', '"product(id: String)": [/products/{id}, "/promo/{id}"]'),
    ("      cart: /cart\n", "      cart: { path: /cart, requires: [session] }\n"),
    ('hosts: [shop.example.com, "*.shop.example.com"]', "hosts: [shop.example.com]"),
    ("fallback: catalog.home", 'fallback: "catalog.category(slug: \\"all\\")"'),
]

LINKS = [
    "shop://offers/SUMMER", "https://shop.example.com/offers/A", "https://m.shop.example.com/offers/B",
    "shop://promo/X", "https://shop.example.com/promo/Y", "shop://cart", "https://m.shop.example.com/cart",
    "shop://products/p-1", "shop://catalog/shoes?sort=rating", "shop://account/orders/42", "shop://nowhere",
    "https://shop.example.com/info/shipping/returns", "shop://deals/E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
    "shop://pay/7", "shop://cart/checkout", "https://m.shop.example.com/account", "shop://login",
]


def candidate_config():
    with open(SHOP) as f:
        text = f.read()
    for old, new in EDITS:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def example(name):
    with open(os.path.join(EXAMPLES, name)) as f:
        return json.load(f)


def payload(fmt, link):
    """An example payload of `fmt` carrying `link` where that format carries it, and no other link."""
    if fmt == "apns":
        p = example("apns-offer.json")
        p["deeplink"] = link
    elif fmt == "fcm":
        p = example("fcm-v1.json")
        message = p["message"]
        message["data"]["deeplink"] = link
        for key in ("webpush", "apns", "android"):
            del message[key]
    elif fmt == "fcm-legacy":
        p = example("fcm-legacy.json")
        p["data"]["link"] = link
        del p["notification"]["click_action"]
    elif fmt == "ntfy":
        p = example("ntfy.json")
        p["click"] = link
        del p["actions"]
    else:
        p = example("gotify.json")
        p["extras"]["client::notification"]["click"]["url"] = link
    return p


def destination(reply):
    """Where a reply leads: (outcome, page, path, gate), or ("refused",) for an error."""
    if "error" in reply:
        return ("refused",)
    decision = reply["parameters"]["decision"]
    pending = decision.get("pending") or {}
    return (decision["outcome"], decision["page"]["description"], tuple(decision["path"]),
            (pending.get("gate"), pending.get("condition")))


def test_replay_finds_exactly_the_decisions_whose_destination_the_candidate_changes(make_daemon, workdir):
    served = make_daemon()
    served.start()
    candidate_path = os.path.join(workdir, "candidate.yaml")
    with open(candidate_path, "w") as f:
        f.write(candidate_config())
    candidate = make_daemon(config=candidate_path, state=False)
    candidate.start()

    rng = random.Random(49)
    devices = [f"d{i}" for i in range(20)]
    sent = []  # (decision id, request, device, state before, destination)
    finished = 0
    for _ in range(300):
        device = rng.choice(devices + [None])
        link = rng.choice(LINKS)
        fmt = rng.choice(["link", "link", "apns", "fcm", "fcm-legacy", "ntfy", "gotify"])
        request = (("Resolve", {"link": link}) if fmt == "link"
                   else ("Route", {"payload": payload(fmt, link)}))
        before = served.call(ROUTER + "GetState", {"device": device})["parameters"]["state"] if device else None
        parameters = dict(request[1], **({"device": device} if device else {}))
        reply = served.call(ROUTER + request[0], parameters)
        if "error" in reply:
            continue  # refused: nothing stored
        sent.append((reply["parameters"]["decision"]["id"], request, device, before, destination(reply)))
        if device and reply["parameters"]["decision"]["outcome"] == "gated" and rng.random() < 0.5:
            reply = served.call(ROUTER + "FlowFinished", {"device": device, "coordinator": "login"})
            if reply.get("parameters", {}).get("resumed"):
                finished += 1

    expected = set()
    for decision_id, (method, parameters), device, before, was in sent:
        parameters = copy.deepcopy(parameters)
        if device:
            if before is None or "error" in candidate.call(ROUTER + "SetState", {"device": device, "state": before}):
                candidate.call(ROUTER + "ForgetDevice", {"device": device})
            parameters["device"] = device
        parameters["dryRun"] = True
        if destination(candidate.call(ROUTER + method, parameters)) != was:
            expected.add(decision_id)

    run = subprocess.run([NOTIFYCTL, "--socket", served.socket, "replay", "--config", candidate_path, "--json"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 1, run.stderr
    changes = json.loads(run.stdout)
    found = {change["decision"] for change in changes}
    assert 0 < len(expected) < len(sent), "the candidate changes some decisions, not all"
    assert found == expected, (sorted(found - expected), sorted(expected - found))
    kinds = {change["kind"] for change in changes}
    assert {"page-renamed", "pattern-moved", "gate-added", "host-removed", "fallback-changed"} <= kinds, kinds
    assert {change["replayedFrom"] for change in changes} >= {"state", "coldStart"}

    text = subprocess.run([NOTIFYCTL, "--socket", served.socket, "replay", "--config", candidate_path],
                          capture_output=True, text=True, timeout=120)
    assert text.returncode == 1, text.stderr
    summary = text.stdout.splitlines()
    assert f"{len(expected)} of {len(sent)} decisions replayed would change with {candidate_path}: " in "\n".join(
        summary), summary[-3:]
    assert finished > 0
    assert f"not replayed: {finished} made when a flow finished" in text.stdout


def test_replay_of_the_served_config_changes_nothing(make_daemon):
    served = make_daemon()
    served.start()
    for link in LINKS:
        served.call(ROUTER + "Resolve", {"link": link, "device": "ipad"})
    run = subprocess.run([NOTIFYCTL, "--socket", served.socket, "replay", "--config", SHOP],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.startswith("no change: the ")
