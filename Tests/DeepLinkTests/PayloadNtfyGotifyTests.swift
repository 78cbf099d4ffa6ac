import DeepLink
import JSON
import Testing

@Suite struct PayloadNtfyGotifyTests {
    @Test func ntfyClickComesBeforeViewActionsInOrder() throws {
        let reading = try payloadReading(
            """
            {
              "topic": "shop-orders", "title": "Order 4711 shipped", "message": "On its way.", "tags": ["package"],
              "priority": 4, "click": "shop://account/orders/4711",
              "actions": [
                { "action": "http", "label": "Received", "url": "https://api.shop.example.com/orders/4711/received" },
                { "action": "view", "label": "Track", "url": "https://shop.example.com/account/orders/4711" },
                { "action": "broadcast", "label": "Share", "extras": { "cmd": "share" } },
                { "action": "view", "label": "Help", "url": "shop://help" }
              ]
            }
            """)
        #expect(reading.format == .ntfy)
        #expect(reading.candidates.map(\.field) == ["click", "actions[1].url", "actions[3].url"])
        #expect(
            reading.candidates.map(\.link) == [
                "shop://account/orders/4711", "https://shop.example.com/account/orders/4711", "shop://help",
            ])
    }

    @Test func ntfyActionsOfAnUnknownTypeAreReportedNotSilentlySkipped() throws {
        let reading = try payloadReading(
            """
            {"topic": "t", "actions": [
              {"action": "VIEW", "label": "Open", "url": "shop://cart"},
              {"action": "http", "label": "Ack", "url": "https://api.example.com/ack"},
              {"action": "view", "label": "Open", "url": "shop://help"}
            ]}
            """)
        #expect(reading.candidates.map(\.field) == ["actions[2].url"])
        #expect(reading.warnings.map(\.path) == ["actions[0].action"])
        #expect(reading.warnings.first?.message.contains("unknown action type 'VIEW'") == true)
    }

    @Test func ntfyViewActionAloneIsEnough() throws {
        let reading = try payloadReading(
            #"{"topic": "t", "message": "m", "actions": [{"action": "view", "label": "Open", "url": "shop://cart"}]}"#)
        #expect(
            reading.candidates == [LinkCandidate(format: .ntfy, field: "actions[0].url", target: .link("shop://cart"))])
    }

    @Test(arguments: [
        (#"{"topic": "t", "click": 5}"#, "click", PayloadError.Code.wrongType, "expected a link string, found number"),
        (
            #"{"topic": "t", "actions": "view, Open, shop://x"}"#, "actions", .wrongType,
            "expected an array of action objects, found string"
        ),
        (#"{"topic": "t", "actions": ["view"]}"#, "actions[0]", .wrongType, "expected an object, found string"),
        (
            #"{"topic": "t", "actions": [{"label": "x"}]}"#, "actions[0]", .invalidValue,
            "an action needs an 'action' type: view, http or broadcast"
        ),
        (
            #"{"topic": "t", "actions": [{"action": 1}]}"#, "actions[0].action", .wrongType,
            "expected a string, found number"
        ),
        (
            #"{"topic": "t", "actions": [{"action": "view", "label": "x"}]}"#, "actions[0]", .invalidValue,
            "a view action needs a 'url'"
        ),
        (
            #"{"topic": "t", "actions": [{"action": "http", "url": "https://a"}, {"action": "view", "url": []}]}"#,
            "actions[1].url", .wrongType, "expected a link string, found array"
        ),
    ])
    func ntfyErrorsNameThePath(text: String, path: String, code: PayloadError.Code, reason: String) throws {
        let error = try #require(payloadError(text))
        #expect(error.code == code)
        #expect(error.path == path)
        #expect(error.reason == reason)
    }

    @Test func ntfyWithoutALinkSaysWhereItLooked() throws {
        let error = try #require(
            payloadError(
                #"{"topic": "t", "message": "m", "actions": [{"action": "http", "url": "https://a"}]}"#,
                unlinkedIsAnError))
        #expect(error.code == .noLink)
        #expect(error.reason == "no link in the ntfy payload; looked at click, actions[].url (view actions)")
    }

    @Test func gotifyClickURLThenIntentURL() throws {
        let reading = try payloadReading(
            """
            {
              "title": "Price drop", "message": "Trail Runner 2 is now 20% cheaper.", "priority": 5,
              "extras": {
                "client::display": { "contentType": "text/markdown" },
                "client::notification": { "click": { "url": "https://shop.example.com/products/tr-2" } },
                "android::action": { "onReceive": { "intentUrl": "shop://products/tr-2" } }
              }
            }
            """)
        #expect(reading.format == .gotify)
        #expect(
            reading.candidates.map(\.field) == [
                #"extras["client::notification"].click.url"#, #"extras["android::action"].onReceive.intentUrl"#,
            ])
        #expect(reading.candidates.map(\.link) == ["https://shop.example.com/products/tr-2", "shop://products/tr-2"])
    }

    @Test(arguments: [
        (#"{"message": 3, "extras": {}}"#, "message", "expected a string, found number"),
        (#"{"message": "m", "extras": []}"#, "extras", "expected an object, found array"),
        (
            #"{"message": "m", "extras": {"client::notification": "x"}}"#, #"extras["client::notification"]"#,
            "expected an object, found string"
        ),
        (
            #"{"message": "m", "extras": {"client::notification": {"click": 1}}}"#,
            #"extras["client::notification"].click"#, "expected an object, found number"
        ),
        (
            #"{"message": "m", "extras": {"client::notification": {"click": {"url": 1}}}}"#,
            #"extras["client::notification"].click.url"#, "expected a link string, found number"
        ),
        (
            #"{"message": "m", "extras": {"android::action": {"onReceive": {"intentUrl": true}}}}"#,
            #"extras["android::action"].onReceive.intentUrl"#, "expected a link string, found boolean"
        ),
    ])
    func gotifyWrongTypesNameThePath(text: String, path: String, reason: String) throws {
        let error = try #require(payloadError(text))
        #expect(error.code == .wrongType)
        #expect(error.path == path)
        #expect(error.reason == reason)
    }

    @Test func gotifyWithoutExtrasHasNoLink() throws {
        let error = try #require(
            payloadError(#"{"title": "Hi", "message": "Hello", "priority": 2}"#, unlinkedIsAnError))
        #expect(error.code == .noLink)
        #expect(error.reason.contains(#"extras["client::notification"].click.url"#))
    }
}
