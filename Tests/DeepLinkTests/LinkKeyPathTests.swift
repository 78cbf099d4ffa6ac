import DeepLink
import JSON
import Testing

/// Rule 6 of the routing contract: `links.keys` entries are paths into the payload's custom data, a key holding a
/// dot (or starting with a bracket) written `["a.b"]`.
@Suite struct LinkKeyPathTests {
    @Test(arguments: [
        ("deeplink", ["deeplink"]), ("custom.u", ["custom", "u"]),
        ("itbl.defaultAction.data", ["itbl", "defaultAction", "data"]), (#"["gcm.link"]"#, ["gcm.link"]),
        (#"custom["a.b"].c"#, ["custom", "a.b", "c"]), (#"["[x"]"#, ["[x"]), (#"["a\"b"]"#, [#"a"b"#]),
        ("^d", ["^d"]), ("com.urbanairship.metadata", ["com", "urbanairship", "metadata"]),
    ])
    func pathsAreReadKeyByKey(text: String, keys: [String]) throws {
        let path = try LinkKeyPath(parsing: text)
        #expect(path.keys == keys)
        #expect(try LinkKeyPath(parsing: path.description) == path, "\(path)")
    }

    @Test(arguments: [
        ("", 0, "empty"), ("a.", 1, "ends with '.'"), (".a", 0, "missing before '.'"), ("a..b", 2, "missing"),
        (#"["a"#, 0, "no closing"), (#"[a]"#, 1, "a JSON string"), (#"["a"]b"#, 5, "expected '.' or '['"),
        (#"[""]"#, 0, "empty"), (#"["a\q"]"#, 1, "not a valid JSON string"),
    ])
    func aMalformedPathNamesTheByte(text: String, offset: Int, reason: String) {
        do {
            _ = try LinkKeyPath(parsing: text)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.offset == offset, "\(error)")
            #expect(error.reason.contains(reason), "\(error)")
        }
    }

    @Test func aPathReadsALinkNestedInAVendorEnvelope() throws {
        let options = PayloadOptions(linkKeys: ["itbl.defaultAction.data", "custom.u"])
        let iterable = try payloadReading(
            #"{"aps": {"alert": "Hi"}, "itbl": {"defaultAction": {"type": "openUrl", "data": "shop://cart"}}}"#,
            options)
        #expect(iterable.candidates.map(\.description) == ["itbl.defaultAction.data: shop://cart"])
        let onesignal = try payloadReading(
            #"{"aps": {"alert": "Hi"}, "custom": {"i": "b2f7f966", "u": "https://shop.example.com/cart"}}"#, options)
        #expect(onesignal.candidates.map(\.description) == ["custom.u: https://shop.example.com/cart"])
    }

    @Test func aPathFollowsJSONTextAsFCMCarriesNestedData() throws {
        let options = PayloadOptions(linkKeys: ["custom.u"])
        let reading = try payloadReading(
            #"{"message": {"data": {"alert": "Hi", "custom": "{\"i\":\"b2f7f966\",\"u\":\"shop://cart\"}"}}}"#, options)
        #expect(reading.candidates.map(\.description) == ["message.data.custom.u: shop://cart"])
    }

    @Test func aPathThatEndsOnSomethingElseIsNoCandidateWithANote() throws {
        let options = PayloadOptions(linkKeys: ["custom.u"])
        let reading = try payloadReading(#"{"aps": {"alert": "Hi"}, "custom": 7}"#, options)
        #expect(reading.candidates.isEmpty)
        #expect(reading.notes == ["custom.u not read: 'custom' holds number, not an object"])
    }

    @Test func aBracketedKeyIsReadWithItsDot() throws {
        let options = PayloadOptions(linkKeys: [#"["gcm.link"]"#])
        let reading = try payloadReading(#"{"aps": {"alert": "Hi"}, "gcm.link": "shop://cart"}"#, options)
        #expect(reading.candidates.map(\.description) == [#"["gcm.link"]: shop://cart"#])
    }
}
