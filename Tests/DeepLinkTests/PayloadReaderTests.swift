import DeepLink
import JSON
import Testing

/// Reads `text` as payload bytes with `options`, and checks that reading its parsed tree gives the same reading
/// (the bytes are read from a tape whenever the tape takes them: the two ways must agree).
func payloadReading(
    _ text: String, _ options: PayloadOptions = PayloadOptions(), sourceLocation: SourceLocation = #_sourceLocation
) throws -> PayloadReading {
    let bytes = Array(text.utf8)
    let reader = PayloadReader(options: options)
    let reading = try reader.read(bytes: bytes)
    if let tree = try? JSON.parse(bytes) {
        #expect(try reader.read(tree, byteCount: bytes.count) == reading, sourceLocation: sourceLocation)
    }
    return reading
}

/// Reads `text` as payload bytes, expecting an error, and returns it (`nil`, with an issue recorded, if none);
/// reading its parsed tree must fail with the same error.
func payloadError(
    _ text: String, _ options: PayloadOptions = PayloadOptions(), sourceLocation: SourceLocation = #_sourceLocation
) -> PayloadError? {
    let bytes = Array(text.utf8)
    let reader = PayloadReader(options: options)
    do throws(PayloadError) {
        let reading = try reader.read(bytes: bytes)
        Issue.record("expected an error, read \(reading.candidates)", sourceLocation: sourceLocation)
        return nil
    } catch {
        if let tree = try? JSON.parse(bytes) {
            do throws(PayloadError) {
                let reading = try reader.read(tree, byteCount: bytes.count)
                Issue.record("the tree read \(reading.candidates)", sourceLocation: sourceLocation)
            } catch let treeError {
                #expect(
                    [treeError.code.rawValue, treeError.path, treeError.reason]
                        == [error.code.rawValue, error.path, error.reason], sourceLocation: sourceLocation)
            }
        }
        return error
    }
}

/// The options the shop example uses: ORDER_SHIPPED and CART_REMINDER are categories.
func shopPayloadOptions(
    strict: Bool = false, format: PayloadFormat? = nil, unlinked: PayloadOptions.Unlinked = .open
) throws -> PayloadOptions {
    PayloadOptions(
        categories: [
            "ORDER_SHIPPED": try PageExpression.parse("account.order(id: $orderId)"),
            "CART_REMINDER": try PageExpression.parse("cart.checkout"),
            "OFFER": try PageExpression.parse(#"cart.offer(id: $offer, source: "push")"#),
        ],
        strict: strict, format: format, unlinked: unlinked)
}

/// Options that refuse a visible payload without a link (`links.unlinked: error`), to read the no-link message.
let unlinkedIsAnError = PayloadOptions(unlinked: .error)

@Suite struct PayloadReaderTests {
    @Test(arguments: [
        (#"{"aps": {"alert": "Hi"}, "deeplink": "shop://cart"}"#, PayloadFormat.apns),
        (#"{"aps": {}, "message": {"data": {}}, "url": "shop://cart"}"#, .apns),
        (#"{"message": {"token": "t", "data": {"deeplink": "shop://cart"}}}"#, .fcm),
        (#"{"validate_only": true, "message": {"topic": "news", "data": {"url": "shop://cart"}}}"#, .fcm),
        (#"{"to": "tok", "data": {"deeplink": "shop://cart"}}"#, .fcmLegacy),
        (#"{"registration_ids": ["a", "b"], "notification": {"click_action": "shop://cart"}}"#, .fcmLegacy),
        (#"{"condition": "'news' in topics", "data": {"link": "shop://cart"}}"#, .fcm),
        (#"{"topic": "orders", "message": "Shipped", "click": "shop://cart"}"#, .ntfy),
        (#"{"message": "Price drop", "extras": {"client::notification": {"click": {"url": "shop://cart"}}}}"#, .gotify),
        (
            #"{"title": "t", "message": "m", "#
                + #""extras": {"android::action": {"onReceive": {"intentUrl": "shop://cart"}}}}"#,
            .gotify
        ),
        (#""shop://cart""#, .link),
        ("shop://cart\n", .link),
    ])
    func formatIsDetectedFromTheShape(text: String, format: PayloadFormat) throws {
        let reading = try payloadReading(text)
        #expect(reading.format == format)
        #expect(reading.candidates.first?.link == "shop://cart")
        #expect(reading.candidates.first?.format == format)
    }

    @Test func detectFormatAnswersNilForUnknownShapes() {
        #expect(PayloadReader.detectFormat(["headline": "x"]) == nil)
        #expect(PayloadReader.detectFormat(["title": "x"]) == .webpush)
        #expect(PayloadReader.detectFormat(["aps": nil]) == .apns)
        #expect(PayloadReader.detectFormat(["message": "text only"]) == .gotify)
        #expect(PayloadReader.detectFormat(["message": ["data": [:]]]) == .fcm)
    }

    @Test func unknownShapeIsAnErrorThatListsTheMarkers() throws {
        let error = try #require(payloadError(#"{"deeplink": "shop://cart", "headline": "Hi"}"#))
        #expect(error.code == .unknownFormat)
        #expect(error.path == "$")
        #expect(error.reason.contains("'aps' (APNs)"))
        #expect(error.reason.contains("'topic', 'click' or 'actions' (ntfy)"))
    }

    @Test(arguments: PayloadFormat.allCases)
    func formatsRoundTripThroughTheirWireNames(format: PayloadFormat) {
        #expect(PayloadFormat(rawValue: format.rawValue) == format)
        #expect(format.description == format.rawValue)
    }

    @Test func fcmLegacyIsSpelledWithAHyphen() {
        #expect(PayloadFormat.fcmLegacy.rawValue == "fcm-legacy")
        #expect(PayloadFormat(rawValue: "fcm-legacy") == .fcmLegacy)
    }

    @Test func forcedFormatThatFitsIsUsedEvenWhenDetectionDiffers() throws {
        // Detected as APNs (it has `aps`), but it is also a valid FCM v1 request when forced.
        let text = #"{"aps": {}, "message": {"data": {"deeplink": "shop://cart"}}}"#
        let reading = try payloadReading(text, PayloadOptions(format: .fcm))
        #expect(reading.format == .fcm)
        #expect(reading.candidates.map(\.field) == ["message.data.deeplink"])
    }

    @Test(arguments: [
        (#"{"message": {"data": {}}}"#, PayloadFormat.apns, "no 'aps' dictionary"),
        (#"{"aps": {}}"#, .fcm, "no 'message' object"),
        (#"{"message": "hello"}"#, .fcm, "no 'message' object"),
        (#"{"aps": {}}"#, .fcmLegacy, "none of 'to'"),
        (#"{"aps": {}}"#, .ntfy, "no 'topic', 'message', 'click' or 'actions'"),
        (#"{"aps": {}}"#, .gotify, "no 'message' string"),
        (#"{"aps": {}}"#, .link, "an object, not a link"),
        (#""shop://cart""#, .apns, "a string (a bare link)"),
        ("shop://cart", .fcm, "a string (a bare link)"),
    ])
    func forcedFormatThatDoesNotFitIsAMismatchSayingWhy(text: String, format: PayloadFormat, why: String) throws {
        let error = try #require(payloadError(text, PayloadOptions(format: format)))
        #expect(error.code == .formatMismatch)
        #expect(error.path == "$")
        #expect(error.reason.contains(why))
        #expect(error.reason.contains(format.displayName))
    }

    @Test func mismatchSaysWhatThePayloadLooksLike() throws {
        let error = try #require(payloadError(#"{"aps": {}, "url": "shop://cart"}"#, PayloadOptions(format: .ntfy)))
        #expect(error.reason.hasSuffix("it looks like APNs (apns)"))
    }

    @Test func forcingTheDetectedFormatChangesNothing() throws {
        let text = #"{"topic": "t", "click": "shop://cart"}"#
        #expect(try payloadReading(text, PayloadOptions(format: .ntfy)) == (try payloadReading(text)))
    }

    @Test func bareLinkInJSONStringIsACandidateAtTheRoot() throws {
        let reading = try payloadReading(#""https://shop.example.com/offers/SUMMER""#)
        #expect(
            reading.candidates == [
                LinkCandidate(format: .link, field: "$", target: .link("https://shop.example.com/offers/SUMMER"))
            ])
        #expect(reading.warnings.isEmpty)
    }

    @Test(arguments: [
        ("shop://offers/SUMMER", "shop://offers/SUMMER"),
        ("  shop://offers/SUMMER \r\n", "shop://offers/SUMMER"),
        ("https://shop.example.com/search?q=red shoes", "https://shop.example.com/search?q=red shoes"),
        ("nope", "nope"),
        ("shop://offers/été", "shop://offers/été"),
    ])
    func oneLineOfPlainTextIsABareLink(text: String, link: String) throws {
        let reading = try payloadReading(text)
        #expect(reading.format == .link)
        #expect(reading.candidates.map(\.link) == [link])
    }

    @Test(arguments: [
        (#"{"aps": "#, 8, JSONError.Code.unexpectedEnd),
        (#"{"aps": {}} x"#, 12, .trailingData),
        (#"["shop://cart""#, 14, .unexpectedEnd),
        (#""shop://cart"#, 12, .unexpectedEnd),
        ("shop://a\nshop://b", 0, .unexpectedCharacter),
        ("", 0, .unexpectedEnd),
        ("  \n ", 4, .unexpectedEnd),
    ])
    func textThatIsNeitherJSONNorOneLineIsInvalidJSONWithTheOffset(
        text: String, offset: Int, code: JSONError.Code
    ) throws {
        let error = try #require(payloadError(text))
        #expect(error.code == .invalidJSON)
        #expect(error.path == "$")
        #expect(error.cause?.offset == offset)
        #expect(error.cause?.code == code)
        #expect(error.reason.contains("byte \(offset)"))
    }

    @Test func invalidUTF8TextIsNotABareLink() throws {
        let error = try #require(
            { () -> PayloadError? in
                do throws(PayloadError) {
                    _ = try PayloadReader().read(bytes: [0x73, 0x68, 0x6F, 0x70, 0x3A, 0xFF])
                    return nil
                } catch {
                    return error
                }
            }())
        #expect(error.code == .invalidJSON)
    }

    @Test(arguments: ["[1, 2]", "42", "true", "null", "1.5"])
    func documentsThatAreNeitherObjectsNorStringsAreNotAnObject(text: String) throws {
        let error = try #require(payloadError(text))
        #expect(error.code == .notAnObject)
        #expect(error.path == "$")
        #expect(error.reason.hasPrefix("expected an object (a notification payload) or a string (a link), found "))
    }

    @Test func emptyBareLinkIsAnInvalidValue() throws {
        let error = try #require(payloadError(#""""#))
        #expect(error.code == .invalidValue)
        #expect(error.description == "$: the link is empty")
    }

    @Test func readingAParsedValueMatchesReadingItsBytes() throws {
        let text = #"{"aps": {"badge": 2}, "deeplink": "shop://cart"}"#
        #expect(try PayloadReader().read(JSON.parse(text)) == (try payloadReading(text)))
    }

    @Test func strictModeRejectsAPNsPayloadsOver4096Bytes() throws {
        let filler = String(repeating: "x", count: 4096)
        let text = #"{"aps": {"alert": "\#(filler)"}, "deeplink": "shop://cart"}"#
        let error = try #require(payloadError(text, PayloadOptions(strict: true)))
        #expect(error.code == .tooLarge)
        #expect(error.path == "$")
        #expect(error.size == text.utf8.count)
        #expect(error.maxSize == 4096)
        #expect(error.reason == "the payload is \(text.utf8.count) bytes; APNs accepts at most 4096")
        #expect(try payloadReading(text).candidates.count == 1)  // only strict mode cares
    }

    @Test func strictModeMeasuresParsedValuesBySerializingThem() throws {
        let payload: JSON = ["message": ["data": ["deeplink": .string(String(repeating: "a", count: 5000))]]]
        let reader = PayloadReader(options: PayloadOptions(strict: true))
        #expect(throws: PayloadError.self) { try reader.read(payload) }
        #expect(throws: Never.self) { try reader.read(payload, byteCount: 100) }
    }

    @Test func strictModeAcceptsAPayloadOfExactlyTheLimit() throws {
        func payload(padding: Int) -> String {
            #"{"aps":{},"deeplink":"shop://cart/"# + String(repeating: "a", count: padding) + #""}"#
        }
        let exact = payload(padding: 4096 - payload(padding: 0).utf8.count)
        #expect(exact.utf8.count == 4096)
        #expect(throws: Never.self) { try payloadReading(exact, PayloadOptions(strict: true)) }
        let bigger = payload(padding: 4097 - payload(padding: 0).utf8.count)
        #expect(payloadError(bigger, PayloadOptions(strict: true))?.code == .tooLarge)
    }

    @Test func strictLimitCanBeConfigured() throws {
        let text = #"{"to": "t", "data": {"link": "shop://cart"}}"#
        #expect(payloadError(text, PayloadOptions(strict: true, maxStrictBytes: 20))?.code == .tooLarge)
    }

    @Test(arguments: [
        #"{"topic": "t", "click": "shop://cart", "message": "\#(String(repeating: "x", count: 5000))"}"#,
        #"{"message": "\#(String(repeating: "x", count: 5000))", "#
            + #""extras": {"client::notification": {"click": {"url": "shop://cart"}}}}"#,
    ])
    func strictModeDoesNotLimitFormatsWithoutAServiceLimit(text: String) throws {
        #expect(throws: Never.self) { try payloadReading(text, PayloadOptions(strict: true)) }
    }

    @Test func errorDescriptionIsPathThenReason() {
        let error = PayloadError(.wrongType, path: "aps.badge", reason: "expected an integer, found string")
        #expect(error.description == "aps.badge: expected an integer, found string")
        #expect(PayloadError(.noLink, path: "", reason: "r").path == "$")
    }

    @Test func candidateDescriptionsShowFieldAndTarget() throws {
        let link = LinkCandidate(format: .apns, field: "deeplink", target: .link("shop://cart"))
        #expect(link.description == "deeplink: shop://cart")
        let page = LinkCandidate(
            format: .apns, field: "aps.category",
            target: .page(PageID(coordinator: "account", name: "order"), arguments: [("id", "42")], category: "X"))
        #expect(page.description == #"aps.category: account.order(id: "42")"#)
        #expect(page.link == nil)
        #expect(PayloadWarning(path: "aps.x", message: "m").description == "aps.x: m")
    }
}
