"""Without app.fallback, a link the app owns that matches no pattern is NoRoute, through the real daemon."""
import os
import re

from conftest import SHOP

ROUTER = "io.notifyd.Router"


def test_owned_link_without_a_pattern_or_fallback_is_no_route(make_daemon, workdir):
    text = open(SHOP).read()
    without = re.sub(r"(?m)^  fallback: .*\n", "", text)
    assert without != text
    path = os.path.join(workdir, "nofallback.yaml")
    with open(path, "w") as f:
        f.write(without)
    daemon = make_daemon(config=path).start()
    reply = daemon.call(f"{ROUTER}.Resolve", {"link": "shop://nowhere/at/all", "dryRun": True})
    assert reply["error"] == f"{ROUTER}.NoRoute"
    assert reply["parameters"]["link"] == "shop://nowhere/at/all"
    # A link that does match still routes.
    routed = daemon.call(f"{ROUTER}.Resolve", {"link": "shop://offers/SUMMER", "dryRun": True})
    assert routed["parameters"]["decision"]["outcome"] == "routed"
