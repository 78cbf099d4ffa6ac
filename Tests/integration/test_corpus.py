"""Real push traffic: every payload of the corpus (Tests/Corpus/manifest.json), copied from the push vendors'
documentation and from open-source projects' fixtures, gets the decision its manifest entry records, through the
running daemon (the independent `varlink` client, with the entry's transport headers) and through
`notifyctl send --offline`, and the two agree.
"""
import json
import os
import re
import subprocess

import pytest
import varlink

from conftest import NOTIFYCTL, ROOT, Daemon

CORPUS = os.path.join(ROOT, "Tests", "Corpus")
MANIFEST = json.load(open(os.path.join(CORPUS, "manifest.json")))
CONFIG = os.path.join(CORPUS, MANIFEST["config"])
ENTRIES = MANIFEST["payloads"]
ROUTER = "io.notifyd.Router"
TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z")


def test_the_corpus_holds_at_least_80_payloads_each_with_its_source_and_decision():
    assert len(ENTRIES) >= 80
    files = [entry["file"] for entry in ENTRIES]
    assert len(set(files)) == len(files)
    on_disk = sorted(
        os.path.relpath(os.path.join(directory, name), CORPUS)
        for directory, _, names in os.walk(os.path.join(CORPUS, "payloads")) for name in names)
    assert on_disk == sorted(files), "every payload file is in the manifest, and every entry has its file"
    vendors = {entry["file"].split("/")[1] for entry in ENTRIES}
    assert {"apple", "firebase", "ntfy", "gotify", "webpush", "expo", "flutter", "iterable", "onesignal",
            "braze", "airship"} <= vendors
    outcomes = {entry["expect"]["outcome"] for entry in ENTRIES}
    assert outcomes == {"routed", "fallback", "opened", "silent"}
    for entry in ENTRIES:
        assert entry["source"].startswith("https://"), entry
        assert set(entry["expect"]) == {"outcome", "format", "field", "page"}, entry


@pytest.fixture(scope="module", params=[1, 2], ids=["one-loop", "two-loops"])
def served(request, tmp_path_factory):
    """The daemon on the corpus config; with two event loops the device-less dry runs are a lane's."""
    workdir = tmp_path_factory.mktemp("corpus")
    os.chmod(workdir, 0o755)
    d = Daemon(str(workdir), ["--event-loops", str(request.param)], config=CONFIG).start()
    yield d
    d.stop()


def device_for(entry):
    return "corpus-" + re.sub(r"[^a-z0-9]+", "-", entry["file"].lower())[:60]


def online(served, entry, explain):
    parameters = {"payload": json.load(open(os.path.join(CORPUS, entry["file"])))}
    if entry.get("headers"):
        parameters["headers"] = entry["headers"]
    if entry.get("format"):
        parameters["format"] = entry["format"]
    if explain:  # a dry run for no device: answered on a lane when the daemon runs more than one loop
        parameters["explain"] = True
        parameters["dryRun"] = True
    else:
        parameters["device"] = device_for(entry)
    with varlink.Client(address=f"unix:{served.socket}") as client, client.open(ROUTER) as router:
        return router.Route(**parameters)["decision"]


def offline(entry, explain):
    args = [NOTIFYCTL, "explain" if explain else "send", "--offline", CONFIG, "--json"]
    for name, value in (entry.get("headers") or {}).items():
        args += ["--header", f"{name}: {value}"]
    if entry.get("format"):
        args += ["--format", entry["format"]]
    run = subprocess.run(args + [os.path.join(CORPUS, entry["file"])], capture_output=True, text=True, timeout=30)
    assert run.returncode == 0, run.stderr
    printed = json.loads(run.stdout)
    return printed.get("decision", printed)


def pruned(value):
    """The value without its null members (the `varlink` client leaves them out of the replies it returns)."""
    if isinstance(value, dict):
        return {key: pruned(item) for key, item in value.items() if item is not None}
    if isinstance(value, list):
        return [pruned(item) for item in value]
    return value


def comparable(decision):
    decision = pruned(decision)
    for key in ("id", "device", "createdAt"):
        decision.pop(key, None)
    if decision.get("pending"):
        decision["pending"].pop("expiresAt")
    if "trace" in decision:
        decision["trace"] = [TIMESTAMP.sub("<time>", line) for line in decision["trace"]
                             if not line.startswith("device not seen")]
    return decision


def expected(decision):
    return {
        "outcome": decision["outcome"], "format": decision["source"]["format"], "field": decision["source"]["field"],
        "page": decision["page"]["description"] if decision.get("page") else None,
    }


@pytest.mark.parametrize("entry", ENTRIES, ids=[entry["file"][len("payloads/"):] for entry in ENTRIES])
def test_a_vendor_payload_gets_its_recorded_decision_from_the_daemon_and_offline(served, entry):
    daemon = online(served, entry, explain=False)
    local = offline(entry, explain=False)
    assert expected(daemon) == entry["expect"], daemon.get("warnings")
    assert comparable(daemon) == comparable(local)
    if daemon["outcome"] == "fallback":
        assert daemon["warnings"], "a fallback names each refused candidate and why"
    if daemon["outcome"] in ("opened", "silent"):
        assert (daemon.get("page"), daemon["path"], daemon["steps"]) == (None, [], [])
        state = served.call(f"{ROUTER}.GetState", {"device": device_for(entry)})["parameters"]["state"]
        assert state is None, "an opened or silent decision changes no device state"
    topic = (entry.get("headers") or {}).get("apns-topic")
    assert daemon["source"].get("topic") == topic
    # With explain, both ways give the same trace: the same reasons, notes and fields looked at.
    assert comparable(online(served, entry, explain=True)) == comparable(offline(entry, explain=True))


def test_the_journal_names_the_topic_of_a_push_that_came_with_one(served):
    with_topic = next(entry for entry in ENTRIES if (entry.get("headers") or {}).get("apns-topic"))
    online(served, with_topic, explain=False)
    topic = with_topic["headers"]["apns-topic"]
    assert served.logged(f"topic={topic}"), served.log()[-2000:]
