"""Without app.fallback, a payload whose every candidate is refused is NoRoute, its reasons on the wire and in
notifyctl's output, the same both ways (through the real daemon and offline)."""
import json
import subprocess

from conftest import NOTIFYCTL, shop_without_fallback

ROUTER = "io.notifyd.Router"


def test_owned_link_without_a_pattern_or_fallback_is_no_route(make_daemon, workdir):
    daemon = make_daemon(config=shop_without_fallback(workdir)).start()
    reply = daemon.call(f"{ROUTER}.Resolve", {"link": "shop://nowhere/at/all", "dryRun": True})
    assert reply["error"] == f"{ROUTER}.NoRoute"
    assert reply["parameters"] == {
        "link": "shop://nowhere/at/all", "reasons": ["link: no pattern matches 'shop://nowhere/at/all'"]}
    # A link that does match still routes.
    routed = daemon.call(f"{ROUTER}.Resolve", {"link": "shop://offers/SUMMER", "dryRun": True})
    assert routed["parameters"]["decision"]["outcome"] == "routed"


def test_every_refused_candidate_is_a_reason_and_notifyctl_prints_them_as_explain_does(make_daemon, workdir):
    config = shop_without_fallback(workdir)
    daemon = make_daemon(config=config).start()
    payload = {"aps": {"alert": "Sale"}, "deeplink": "http://shop.example.com/offers/A",
               "url": "https://evil.com/offers/A", "link": "shop://offers/%zz"}
    reasons = [
        "deeplink: 'http://shop.example.com/offers/A' is refused: 'http:' links are not accepted; universal links "
        "use 'https:'",
        "url: 'https://evil.com/offers/A' is refused: host 'evil.com' is not allowed; allowed: shop.example.com, "
        "*.shop.example.com",
        "link: 'shop://offers/%zz' is refused: invalid percent escape in path segment '%zz' at byte 14; write '%' "
        "as %25",
    ]
    reply = daemon.call(f"{ROUTER}.Route", {"payload": payload, "dryRun": True})
    assert reply == {"error": f"{ROUTER}.NoRoute",
                     "parameters": {"link": "http://shop.example.com/offers/A", "reasons": reasons}}
    path = f"{workdir}/refused.json"
    with open(path, "w") as f:
        json.dump(payload, f)
    online = subprocess.run([NOTIFYCTL, "--socket", daemon.socket, "send", path], capture_output=True, text=True)
    offline = subprocess.run([NOTIFYCTL, "send", "--offline", config, path], capture_output=True, text=True)
    expected = (f"notifyctl: error: no page for 'http://shop.example.com/offers/A' [{ROUTER}.NoRoute]\n"
                + "".join(f"  {reason}\n" for reason in reasons))
    assert (online.returncode, online.stdout) == (1, "")
    assert online.stderr.startswith(expected), online.stderr
    assert offline.stderr == online.stderr
    # explain prints the same lines in its trace when a fallback exists; here it fails with them too.
    explained = subprocess.run([NOTIFYCTL, "explain", "--offline", config, path], capture_output=True, text=True)
    assert explained.returncode == 1
    assert explained.stderr.startswith(f"notifyctl: error: no page for 'http://shop.example.com/offers/A' "
                                       f"[{ROUTER}.NoRoute]\nnotifyctl: trace:\n")
    assert all(f"  {reason}\n" in explained.stderr for reason in reasons), explained.stderr
