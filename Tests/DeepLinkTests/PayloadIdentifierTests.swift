import DeepLink
import JSON
import Testing

/// Rule 3 of the routing contract: a value without a scheme that looks like an identifier (an intent action, a window
/// id) is not a link candidate; it is looked up in the categories, as `aps.category` is.
@Suite struct PayloadIdentifierTests {
    static func options(_ categories: [String: String]) throws -> PayloadOptions {
        var expressions: [String: PageExpression] = [:]
        for (name, text) in categories { expressions[name] = try PageExpression.parse(text) }
        return PayloadOptions(categories: expressions)
    }

    @Test(arguments: [
        ("FLUTTER_NOTIFICATION_CLICK", true), ("OPEN_ACTIVITY_1", true), ("android.intent.action.VIEW", true),
        ("4F6F3B6B-0C8C-4C1B-9A55-6A3B2F4F9D10", true), ("news_intent", true), ("breakingnews.html", true),
        ("shop://cart", false), ("/cart", false), ("https://shop.example.com", false), ("open order", false),
        ("_private", false), ("", false), ("a/b", false), ("caf\u{E9}", false),
    ])
    func identifiersAreASCIINamesWithoutASchemeOrASlash(text: String, isIdentifier: Bool) {
        #expect(PayloadReader.isIdentifier(text) == isIdentifier)
    }

    @Test func anIntentActionACategoryMapsIsThatPage() throws {
        let options = try Self.options(["FLUTTER_NOTIFICATION_CLICK": "home.notifications"])
        let reading = try payloadReading(
            #"{"to": "t", "notification": {"title": "Hi", "click_action": "FLUTTER_NOTIFICATION_CLICK"}}"#, options)
        #expect(reading.candidates.map(\.description) == ["notification.click_action: home.notifications"])
    }

    @Test func anIntentActionNothingMapsIsNoCandidateAndTheNotificationOpens() throws {
        let reading = try payloadReading(
            #"{"to": "t", "notification": {"title": "Hi"}, "data": {"click_action": "FLUTTER_NOTIFICATION_CLICK"}}"#)
        #expect(reading.candidates.isEmpty)
        #expect(reading.presentation == .shown(field: "notification"))
        #expect(
            reading.notes.first
                == "data.click_action: 'FLUTTER_NOTIFICATION_CLICK' is an identifier, not a link, and no category maps it"
        )
        #expect(reading.warnings.isEmpty)
    }

    @Test func aWindowIDInTargetContentIDIsLookedUpWithItsArgumentsFromTheCustomKeys() throws {
        let options = try Self.options(["order-window": "account.order(id: $orderId)"])
        let reading = try payloadReading(
            #"{"aps": {"alert": "Shipped", "target-content-id": "order-window"}, "orderId": 42}"#, options)
        #expect(reading.candidates.map(\.description) == [#"aps.target-content-id: account.order(id: "42")"#])
    }

    @Test func anIdentifierAtALinkKeyIsLookedUpToo() throws {
        let options = try Self.options(["OPEN_ORDER": "account.orders"])
        let reading = try payloadReading(#"{"aps": {"alert": "Hi"}, "deeplink": "OPEN_ORDER"}"#, options)
        #expect(reading.candidates.map(\.description) == ["deeplink: account.orders"])
    }

    @Test func textThatIsNeitherALinkNorAnIdentifierStaysACandidateToBeRefused() throws {
        let reading = try payloadReading(#"{"aps": {"alert": "Hi"}, "deeplink": "offers/SUMMER"}"#)
        #expect(reading.candidates.map(\.link) == ["offers/SUMMER"])
    }
}
