"""Route's payload options through the real daemon: strict size limits, warnings in the decision, link hygiene."""
import json

ROUTE = "io.notifyd.Router.Route"
RESOLVE = "io.notifyd.Router.Resolve"


def route(daemon, payload, **parameters):
    return daemon.call(ROUTE, {"payload": payload, "dryRun": True, **parameters})


def test_strict_mode_refuses_a_large_apns_payload_with_its_size(daemon):
    payload = {"aps": {"alert": "x" * 4200}, "deeplink": "shop://offers/SUMMER"}
    size = len(json.dumps(payload, separators=(",", ":")).encode())
    lax = route(daemon, payload)
    assert lax["parameters"]["decision"]["page"]["id"] == "cart.offer"
    strict = route(daemon, payload, strict=True)
    assert strict["error"] == "io.notifyd.Router.PayloadTooLarge", strict
    assert strict["parameters"] == {"size": size, "max": 4096}
    # Within the limit, strict mode routes as usual; ntfy has no such limit.
    small = route(daemon, {"aps": {"alert": "hi"}, "deeplink": "shop://offers/SUMMER"}, strict=True)
    assert small["parameters"]["decision"]["page"]["id"] == "cart.offer"
    ntfy = route(daemon, {"topic": "t", "message": "x" * 4200, "click": "shop://cart"}, strict=True)
    assert ntfy["parameters"]["decision"]["page"]["id"] == "cart.cart", ntfy


def test_unknown_aps_keys_are_reported_in_the_decision_not_dropped(daemon):
    payload = {"aps": {"alert": "hi", "thread_id": "t1"}, "deeplink": "shop://offers/SUMMER"}
    decision = route(daemon, payload)["parameters"]["decision"]
    assert any(w.startswith("aps.thread_id: ") for w in decision["warnings"]), decision
    clean = route(daemon, {"aps": {"alert": "hi"}, "deeplink": "shop://offers/SUMMER"})["parameters"]["decision"]
    assert "warnings" not in clean
    # The history keeps the warnings with the decision.
    kept = daemon.call("io.notifyd.Router.GetDecision", {"id": decision["id"]})["parameters"]["decision"]
    assert kept["warnings"] == decision["warnings"]


def test_a_fallback_names_the_owned_link_not_a_refused_foreign_one(daemon):
    payload = {"aps": {"alert": "hi"}, "deeplink": "https://evil.com/x", "url": "shop://nothing/here"}
    decision = route(daemon, payload)["parameters"]["decision"]
    assert decision["outcome"] == "fallback"
    assert decision["source"] == {"format": "apns", "field": "url", "link": "shop://nothing/here"}


def test_links_are_read_as_a_browser_reads_them(daemon):
    def page(link):
        decision = daemon.call(RESOLVE, {"link": link, "dryRun": True})["parameters"]["decision"]
        if decision["outcome"] == "fallback":
            return "refused: " + decision["warnings"][0]
        return decision["page"]["description"]

    assert page("https://evil.com\\.shop.example.com/offers/X").endswith("host 'evil.com' is not allowed; allowed: "
                                                                        "shop.example.com, *.shop.example.com")
    assert page("https://shop.example.com\\offers\\X") == 'cart.offer(id: "X")'
    assert page("shop://offers/../cart") == "cart.cart"
    assert page("  shop://offers/SUMMER\n") == 'cart.offer(id: "SUMMER")'
    assert "invalid port '99999'" in page("https://shop.example.com:99999/cart")


def test_a_bare_link_is_not_a_route_format(daemon):
    reply = route(daemon, {"aps": {"alert": "hi"}, "deeplink": "shop://cart"}, format="link")
    assert reply["error"] == "org.varlink.service.InvalidParameter"
    assert reply["parameters"] == {"parameter": "format"}
