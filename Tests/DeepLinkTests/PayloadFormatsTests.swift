import DeepLink
import JSON
import Testing

/// Rule 5 of the routing contract: the Admin SDKs' FCM messages, Web Push, Expo, topic-less ntfy, and every key Apple
/// documents in `aps` and `aps.alert`; detection stays automatic and `--format` forces.
@Suite struct PayloadFormatsTests {
    @Test(arguments: [
        (#"{"token": "t", "notification": {"title": "Hi"}}"#, PayloadFormat.fcm),
        (#"{"topic": "news", "data": {"score": "850"}}"#, .fcm),
        (#"{"condition": "'a' in topics", "notification": {"title": "Hi"}}"#, .fcm),
        (#"{"condition": "'a' in topics", "priority": "high", "notification": {"title": "Hi"}}"#, .fcmLegacy),
        (#"{"tokens": ["a", "b"], "data": {"score": "850"}}"#, .fcm),
        (#"{"to": "t", "data": {"score": "850"}}"#, .fcmLegacy),
        (#"{"to": "ExponentPushToken[x]", "data": {"a": "b"}}"#, .expo),
        (#"{"to": "t", "title": "Hi", "body": "There"}"#, .expo),
        (#"{"notification": {"title": "Hi", "data": {"url": "/x"}}}"#, .webpush),
        (#"{"notification": {"title": "Hi", "actions": []}}"#, .webpush),
        (#"{"web_push": 8030, "notification": {"title": "Hi", "navigate": "https://x.example/"}}"#, .webpush),
        (#"{"title": "Hi", "body": "There", "url": "/x"}"#, .webpush),
        (#"{"message": "Hi", "click": "https://x.example/"}"#, .ntfy),
        (#"{"actions": [{"action": "view", "label": "Open", "url": "https://x.example/"}]}"#, .ntfy),
        (#"{"id": "x", "time": 1, "event": "message", "message": "Hi"}"#, .ntfy),
        (#"{"notification": {"title": "Hi", "click_action": "X"}}"#, .fcmLegacy),
        (#"{"message": "Hi", "title": "There", "priority": 5}"#, .gotify),
    ])
    func theShapeTellsTheFormat(text: String, format: PayloadFormat) throws {
        #expect(try payloadReading(text).format == format)
    }

    @Test func theAdminSDKShapeReadsTheRESTNamesAndTheCamelCaseOnes() throws {
        let reading = try payloadReading(
            """
            {"token": "t", "notification": {"title": "Hi"},
             "data": {"deeplink": "shop://a"},
             "webpush": {"fcmOptions": {"link": "https://shop.example.com/b"}, "notification": {"click_action": "shop://c"}},
             "android": {"notification": {"clickAction": "shop://d", "click_action": "shop://e"}},
             "apns": {"payload": {"aps": {"alert": {"locKey": "K", "locArgs": ["x"]}, "contentAvailable": true,
                                          "mutableContent": true, "threadId": "t"}, "url": "shop://f"}}}
            """)
        #expect(reading.format == .fcm)
        #expect(
            reading.candidates.map(\.field) == [
                "data.deeplink", "webpush.fcmOptions.link", "webpush.notification.click_action",
                "android.notification.click_action", "android.notification.clickAction", "apns.payload.url",
            ])
        #expect(reading.warnings.isEmpty, "\(reading.warnings)")
    }

    @Test func camelCaseApsNamesAreUnknownOutsideTheAdminSDKShape() throws {
        let reading = try payloadReading(#"{"aps": {"alert": "Hi", "threadId": "t"}}"#)
        #expect(
            reading.warnings.map(\.description) == [
                "aps.threadId: unknown key in aps; APNs ignores it (did you mean 'thread-id'?)"
            ])
    }

    @Test func aWebPushPayloadOffersItsLinksInOrder() throws {
        let reading = try payloadReading(
            """
            {"notification": {"title": "Hi", "navigate": "https://a.example/", "url": "https://b.example/",
              "data": {"onActionClick": {"default": {"operation": "navigateLastFocusedOrOpen", "url": "/c"}},
                       "url": "/d"}},
             "default_action_url": "https://e.example/", "data": {"url": "/f"}, "url": "/g"}
            """)
        #expect(
            reading.candidates.map(\.field) == [
                "notification.navigate", "notification.url", "default_action_url",
                "notification.data.onActionClick.default.url", "notification.data.url", "data.url", "url",
            ])
    }

    @Test func angularsSendRequestOperationOpensNothing() throws {
        let reading = try payloadReading(
            #"{"notification": {"title": "Hi", "data": {"onActionClick": {"default": {"operation": "sendRequest", "url": "/x"}}}}}"#
        )
        #expect(reading.candidates.isEmpty)
        #expect(reading.notes.first?.contains("sends a request") == true)
    }

    @Test func expoReadsItsDataLinksThenItsCategory() throws {
        let options = PayloadOptions(categories: ["ORDER": try PageExpression.parse("account.orders")])
        let reading = try payloadReading(
            #"{"to": "ExponentPushToken[x]", "title": "Hi", "data": {"url": "/settings"}, "categoryId": "ORDER"}"#,
            options)
        #expect(reading.candidates.map(\.description) == ["data.url: /settings", "categoryId: account.orders"])
    }

    @Test func ntfyWithoutATopicCanBeForced() throws {
        let reading = try payloadReading(#"{"message": "Hi", "title": "x"}"#, PayloadOptions(format: .ntfy))
        #expect(reading.format == .ntfy)
        #expect(reading.presentation == .shown(field: "message"))
    }

    @Test func aLiveActivityAlertMayLocalizeItsTitleAndBody() throws {
        let reading = try payloadReading(
            """
            {"aps": {"timestamp": 1685952000, "event": "update", "content-state": {"level": 0.9},
              "alert": {"title": {"loc-key": "%@ is on an adventure!", "loc-args": ["Power Panda"]},
                        "body": {"loc-key": "%@ found a sword!", "loc-args": ["Power Panda"]}, "sound": "chime.aiff"}}}
            """)
        #expect(reading.warnings.isEmpty)
        let error = try #require(payloadError(#"{"aps": {"alert": {"title": {"loc-args": ["x"]}}}}"#))
        #expect(error.path == "aps.alert.title")
        #expect(error.reason.contains("'loc-key'"))
    }

    @Test func everyKeyAppleDocumentsIsReadWithoutAWarning() throws {
        let reading = try payloadReading(
            """
            {"aps": {"alert": {"title": "t", "subtitle": "s", "body": "b", "launch-image": "l", "title-loc-key": "k",
                               "title-loc-args": [], "subtitle-loc-key": "k", "subtitle-loc-args": [], "loc-key": "k",
                               "loc-args": [], "action": "a", "action-loc-key": null, "summary-arg": "x",
                               "summary-arg-count": 2},
                     "badge": 1, "sound": {"critical": 1, "name": "n", "volume": 0.5}, "thread-id": "t",
                     "category": "C", "content-available": 1, "mutable-content": 1, "target-content-id": "w",
                     "interruption-level": "passive", "relevance-score": 0.5, "filter-criteria": "f",
                     "stale-date": 1, "content-state": {}, "timestamp": 1, "event": "update", "dismissal-date": 1,
                     "attributes-type": "A", "attributes": {}, "input-push-token": 1, "input-push-channel": "c",
                     "url-args": [], "content-changed": true}}
            """)
        #expect(reading.warnings.isEmpty, "\(reading.warnings)")
    }
}
