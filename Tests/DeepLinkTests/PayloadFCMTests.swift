import DeepLink
import JSON
import Testing

@Suite struct PayloadFCMTests {
    static let fullMessage = """
        {
          "message": {
            "token": "bk3RNwTe3H0:CI2k_HHwgIpoDKCIZvvDMExUdFQ3P1",
            "notification": { "title": "Your cart is waiting", "body": "Finish checking out." },
            "data": { "deeplink": "shop://cart/checkout", "cartId": "c-20931" },
            "android": { "priority": "high", "notification": { "channel_id": "cart", "click_action": "shop://cart" } },
            "webpush": { "fcm_options": { "link": "https://shop.example.com/cart/checkout" } },
            "apns": {
              "headers": { "apns-priority": "10" },
              "payload": { "aps": { "category": "CART_REMINDER" }, "deeplink": "shop://cart/checkout?from=apns" }
            }
          }
        }
        """

    @Test func v1CandidatesComeInPriorityOrder() throws {
        let reading = try payloadReading(PayloadFCMTests.fullMessage, try shopPayloadOptions())
        #expect(reading.format == .fcm)
        #expect(
            reading.candidates.map(\.field) == [
                "message.data.deeplink",
                "message.webpush.fcm_options.link",
                "message.android.notification.click_action",
                "message.apns.payload.deeplink",
                "message.apns.payload.aps.category",
            ])
        #expect(reading.candidates.allSatisfy { $0.format == .fcm })
        #expect(reading.candidates[1].link == "https://shop.example.com/cart/checkout")
        #expect(reading.candidates[2].link == "shop://cart")
        #expect(reading.candidates[4].description == "message.apns.payload.aps.category: cart.checkout")
        #expect(reading.warnings.isEmpty)
    }

    @Test func webpushLinkAloneIsEnough() throws {
        let reading = try payloadReading(
            #"{"message": {"topic": "deals", "webpush": {"fcm_options": {"#
                + #""link": "https://shop.example.com/offers/SUMMER", "analytics_label": "summer"}}}}"#
        )
        #expect(
            reading.candidates == [
                LinkCandidate(
                    format: .fcm, field: "message.webpush.fcm_options.link",
                    target: .link("https://shop.example.com/offers/SUMMER"))
            ])
    }

    @Test func clickActionNamingAMappedCategoryIsAPage() throws {
        let reading = try payloadReading(
            #"{"message": {"data": {"orderId": "4711"}, "#
                + #""android": {"notification": {"click_action": "ORDER_SHIPPED"}}}}"#,
            try shopPayloadOptions())
        let candidate = try #require(reading.candidates.first)
        #expect(candidate.field == "message.android.notification.click_action")
        #expect(
            candidate.target
                == .page(
                    PageID(coordinator: "account", name: "order"), arguments: [("id", "4711")],
                    category: "ORDER_SHIPPED"))
    }

    @Test func clickActionThatIsAnIntentNoCategoryMapsIsNoLink() throws {
        let reading = try payloadReading(
            #"{"message": {"android": {"notification": {"click_action": "FLUTTER_NOTIFICATION_CLICK"}}}}"#,
            try shopPayloadOptions())
        #expect(reading.candidates.isEmpty)
        #expect(
            reading.notes == [
                "message.android.notification.click_action: 'FLUTTER_NOTIFICATION_CLICK' is an identifier, not a "
                    + "link, and no category maps it"
            ])
    }

    @Test func clickActionThatIsAURLIsALink() throws {
        let reading = try payloadReading(
            #"{"message": {"android": {"notification": {"click_action": "https://shop.example.com/cart"}}}}"#)
        #expect(reading.candidates.map(\.link) == ["https://shop.example.com/cart"])
    }

    @Test func categoryKeysAreReadFromData() throws {
        let reading = try payloadReading(
            #"{"message": {"android": {"notification": {"click_action": "ORDER_SHIPPED"}}, "#
                + #""data": {"deeplink": "shop://x"}}}"#,
            try shopPayloadOptions())
        #expect(reading.candidates.map(\.field) == ["message.data.deeplink"])
        #expect(reading.warnings.map(\.path) == ["message.android.notification.click_action"])
        #expect(reading.warnings.first?.message.contains("no key 'orderId' (at message.data.orderId)") == true)
    }

    @Test func apnsPayloadInsideIsReadWithTheAPNsRulesAndPrefixedPaths() throws {
        let reading = try payloadReading(
            #"{"message": {"apns": {"payload": {"aps": {"categry": "X", "target-content-id": "shop://t"}}}}}"#)
        #expect(reading.candidates.map(\.field) == ["message.apns.payload.aps.target-content-id"])
        #expect(reading.warnings.map(\.path) == ["message.apns.payload.aps.categry"])
        #expect(reading.warnings.first?.message.hasSuffix("(did you mean 'category'?)") == false)
    }

    @Test func apnsPayloadCategoryReadsItsOwnCustomKeys() throws {
        let reading = try payloadReading(
            #"{"message": {"data": {"orderId": "1"}, "#
                + #""apns": {"payload": {"aps": {"category": "ORDER_SHIPPED"}, "orderId": 2}}}}"#,
            try shopPayloadOptions())
        #expect(reading.candidates.first?.description == #"message.apns.payload.aps.category: account.order(id: "2")"#)
    }

    @Test(arguments: [
        (#"{"message": {"data": {"orderId": 4711}}}"#, "message.data.orderId", "found number"),
        (#"{"message": {"data": {"deeplink": "shop://x", "flag": true}}}"#, "message.data.flag", "found boolean"),
        (#"{"message": {"data": {"n": null}}}"#, "message.data.n", "found null"),
        (#"{"message": {"data": {"nested": {"a": "b"}}}}"#, "message.data.nested", "found object"),
        (#"{"message": {"data": {"a:b": 1}}}"#, #"message.data["a:b"]"#, "found number"),
    ])
    func nonStringDataValuesAreErrorsNamingThePath(text: String, path: String, found: String) throws {
        let error = try #require(payloadError(text))
        #expect(error.code == .wrongType)
        #expect(error.path == path)
        #expect(error.reason == "FCM data values must be strings; \(found)")
    }

    @Test(arguments: [
        (#"{"message": {"data": []}}"#, "message.data", "expected an object, found array"),
        (#"{"message": {"webpush": "x"}}"#, "message.webpush", "expected an object, found string"),
        (
            #"{"message": {"webpush": {"fcm_options": 1}}}"#, "message.webpush.fcm_options",
            "expected an object, found number"
        ),
        (
            #"{"message": {"webpush": {"fcm_options": {"link": 1}}}}"#, "message.webpush.fcm_options.link",
            "expected a link string, found number"
        ),
        (#"{"message": {"android": []}}"#, "message.android", "expected an object, found array"),
        (
            #"{"message": {"android": {"notification": true}}}"#, "message.android.notification",
            "expected an object, found boolean"
        ),
        (
            #"{"message": {"android": {"notification": {"click_action": 3}}}}"#,
            "message.android.notification.click_action", "expected a link string, found number"
        ),
        (#"{"message": {"apns": 1}}"#, "message.apns", "expected an object, found number"),
        (#"{"message": {"apns": {"payload": "x"}}}"#, "message.apns.payload", "expected an object, found string"),
        (
            #"{"message": {"apns": {"payload": {"aps": {"badge": "1"}}}}}"#, "message.apns.payload.aps.badge",
            "expected an integer, found string"
        ),
        (
            #"{"message": {"apns": {"payload": {"url": false}}}}"#, "message.apns.payload.url",
            "expected a link string, found boolean"
        ),
    ])
    func v1WrongTypesNameTheFullPath(text: String, path: String, reason: String) throws {
        let error = try #require(payloadError(text))
        #expect(error.code == .wrongType)
        #expect(error.path == path)
        #expect(error.reason == reason)
    }

    @Test func v1WithoutALinkListsEveryFieldLookedAt() throws {
        let error = try #require(
            payloadError(
                #"{"message": {"notification": {"title": "Hi"}, "apns": {"payload": {"aps": {"alert": "Hi"}}}}}"#,
                unlinkedIsAnError))
        #expect(error.code == .noLink)
        #expect(
            error.reason
                == "no link in the FCM payload; looked at message.data.deeplink, message.data.url, "
                + "message.data.link, message.webpush.fcm_options.link, message.webpush.notification.click_action, "
                + "message.android.notification.click_action, message.data.click_action, "
                + "message.apns.payload.deeplink, message.apns.payload.url, message.apns.payload.link, "
                + "message.apns.payload.aps.category, message.apns.payload.aps.target-content-id")
    }

    @Test func legacyCandidatesAreDataKeysThenClickAction() throws {
        let reading = try payloadReading(
            """
            {
              "to": "eCsd9fH2Qnm:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx",
              "priority": "high",
              "notification": { "title": "Back in stock", "click_action": "https://shop.example.com/products/tr-2" },
              "data": { "productId": "tr-2", "link": "shop://products/tr-2", "url": "shop://products/tr-2?v=2" }
            }
            """)
        #expect(reading.format == .fcmLegacy)
        #expect(reading.candidates.map(\.field) == ["data.url", "data.link", "notification.click_action"])
        #expect(reading.candidates.allSatisfy { $0.format == .fcmLegacy })
    }

    @Test func legacyClickActionCategoryReadsNumericDataAsText() throws {
        let reading = try payloadReading(
            #"{"registration_ids": ["a"], "notification": {"click_action": "ORDER_SHIPPED"}, "#
                + #""data": {"orderId": 4711}}"#,
            try shopPayloadOptions())
        #expect(reading.candidates.map(\.description) == [#"notification.click_action: account.order(id: "4711")"#])
    }

    @Test(arguments: [
        (#"{"to": "t", "data": "x"}"#, "data", "expected an object, found string"),
        (#"{"to": "t", "notification": []}"#, "notification", "expected an object, found array"),
        (
            #"{"to": "t", "notification": {"click_action": {}}}"#, "notification.click_action",
            "expected a link string, found object"
        ),
        (#"{"to": "t", "data": {"deeplink": 1}}"#, "data.deeplink", "expected a link string, found number"),
    ])
    func legacyWrongTypesNameThePath(text: String, path: String, reason: String) throws {
        let error = try #require(payloadError(text))
        #expect(error.code == .wrongType)
        #expect(error.path == path)
        #expect(error.reason == reason)
    }

    @Test func legacyWithoutALinkListsTheFields() throws {
        let error = try #require(
            payloadError(#"{"to": "t", "notification": {"title": "Hi"}, "data": {"chatId": "9"}}"#, unlinkedIsAnError))
        #expect(error.code == .noLink)
        #expect(
            error.reason.hasSuffix(
                "looked at data.deeplink, data.url, data.link, notification.click_action, data.click_action"))
    }

    @Test func emptyLinksAreNamedWhenNothingElseGivesALink() throws {
        let error = try #require(
            payloadError(#"{"to": "t", "notification": {"body": "Hi", "click_action": ""}}"#, unlinkedIsAnError))
        #expect(error.code == .noLink)
        #expect(error.reason.hasSuffix("data.click_action; notification.click_action is empty"))
    }

    @Test func legacyEmptyClickActionIsIgnoredWithAWarning() throws {
        let reading = try payloadReading(
            #"{"to": "t", "notification": {"click_action": ""}, "data": {"link": "shop://x"}}"#)
        #expect(reading.candidates.map(\.field) == ["data.link"])
        #expect(reading.warnings.map(\.path) == ["notification.click_action"])
    }
}
