import DeepLink
import JSON
import Testing

/// Rule 4 of the routing contract: transport headers, names in any case, checked as the services check them.
@Suite struct PushHeadersTests {
    func read(_ text: String, _ headers: [(String, String)]) throws -> PayloadReading {
        try PayloadReader().read(bytes: Array(text.utf8), headers: try PushHeaders(headers.map { ($0.0, $0.1) }))
    }

    @Test(arguments: PushHeaders.PushType.allCases)
    func everyPushTypeButAlertNeverNavigates(type: PushHeaders.PushType) throws {
        let reading = try read(
            #"{"aps": {"alert": "Hi"}, "deeplink": "shop://cart"}"#, [("apns-push-type", type.rawValue)])
        if type == .alert {
            #expect(reading.presentation == .shown(field: "aps.alert"))
        } else {
            #expect(reading.presentation.field == "headers.apns-push-type")
            #expect(!reading.presentation.isHidden)
            #expect(reading.presentation != .shown(field: "aps.alert"))
        }
    }

    @Test func namesAreCaseInsensitiveAndTheTopicIsRecorded() throws {
        let reading = try read(
            #"{"aps": {"alert": "Hi"}}"#,
            [("APNS-Push-Type", "alert"), ("Apns-Topic", "com.example.app"), ("Apns-Priority", "10")])
        #expect(reading.topic == "com.example.app")
        #expect(reading.warnings.isEmpty)
    }

    @Test(arguments: [
        ("com.example.app.push-type.liveactivity", PushHeaders.PushType.liveactivity),
        ("com.example.app.voip", .voip), ("com.example.app.complication", .complication),
        ("com.example.app.pushkit.fileprovider", .fileprovider), ("com.example.app.voip-ptt", .pushtotalk),
        ("com.example.app.push-type.widgets", .widgets), ("com.example.app.location-query", .location),
    ])
    func aTopicSuffixTellsThePushTypeWhenTheHeaderIsAbsent(topic: String, type: PushHeaders.PushType) throws {
        let headers = try PushHeaders([("apns-topic", topic)])
        #expect(headers.effectivePushType?.type == type)
        #expect(headers.effectivePushType?.field == "headers.apns-topic")
        #expect(try PushHeaders([("apns-topic", "com.example.app")]).effectivePushType == nil)
    }

    @Test(arguments: [
        ("apns-push-type", "backgroud", "headers.apns-push-type", "expected one of alert, background"),
        ("apns-priority", "7", "headers.apns-priority", "expected 10, 5 or 1, found \"7\""),
        ("apns-topic", "com example", "headers.apns-topic", "a bundle id"),
        ("apns-collapse-id", String(repeating: "x", count: 65), "headers.apns-collapse-id", "1 to 64 bytes"),
        ("Urgency", "urgent", "headers.Urgency", "very-low, low, normal or high"),
        ("Topic", "not a topic!", "headers.Topic", "URL-safe base64"),
    ])
    func aValueTheServiceWouldRefuseIsAnErrorNamingTheHeader(
        name: String, value: String, path: String, reason: String
    ) {
        #expect(throws: PayloadError.self) { try PushHeaders([(name, value)]) }
        do {
            _ = try PushHeaders([(name, value)])
        } catch {
            #expect(error.code == .invalidValue)
            #expect(error.path == path)
            #expect(error.reason.contains(reason), "\(error.reason)")
        }
    }

    @Test func theSameHeaderTwiceInAnyCaseIsAnError() {
        do {
            _ = try PushHeaders([("Urgency", "high"), ("urgency", "low")])
            Issue.record("accepted")
        } catch {
            #expect(error.path == "headers.urgency")
            #expect(error.reason.contains("given twice"))
        }
    }

    @Test func unknownHeadersAreWarningsAndDeliveryHeadersAreTakenAsTheyAre() throws {
        let reading = try read(
            #"{"aps": {"alert": "Hi"}}"#, [("apns-expiration", "0"), ("TTL", "60"), ("x-custom", "1")])
        #expect(reading.warnings.map(\.path) == ["headers.x-custom"])
    }

    @Test func apnsHeadersOnAPayloadThatIsNotAPNsOrFCMAreIgnoredWithAWarning() throws {
        let reading = try read(#"{"topic": "t", "message": "Hi"}"#, [("apns-push-type", "background")])
        #expect(reading.presentation == .shown(field: "message"))
        #expect(reading.warnings.map(\.path) == ["headers"])
    }

    @Test func headersAreReadFromAJSONObjectOfStrings() throws {
        let headers = try PushHeaders(json: try JSON.parse(#"{"apns-topic": "com.example.app"}"#))
        #expect(headers.topic == "com.example.app")
        #expect(throws: PayloadError.self) { try PushHeaders(json: try JSON.parse(#"{"apns-priority": 10}"#)) }
    }
}
