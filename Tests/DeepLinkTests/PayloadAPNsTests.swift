import DeepLink
import JSON
import Testing

@Suite struct PayloadAPNsTests {
    @Test func alertWithCustomDeeplinkKeyGivesOneCandidate() throws {
        let reading = try payloadReading(
            """
            {
              "aps": {
                "alert": { "title": "Summer sale", "subtitle": "Today only", "body": "30% off" },
                "badge": 1, "sound": "default", "thread-id": "offers", "mutable-content": 1
              },
              "deeplink": "shop://offers/SUMMER",
              "campaign": "summer-2025"
            }
            """)
        #expect(reading.format == .apns)
        #expect(
            reading.candidates == [
                LinkCandidate(format: .apns, field: "deeplink", target: .link("shop://offers/SUMMER"))
            ])
        #expect(reading.warnings.isEmpty)
    }

    @Test func candidatesFollowLinkKeysThenCategoryThenTargetContentID() throws {
        let reading = try payloadReading(
            """
            {"aps": {"category": "ORDER_SHIPPED", "target-content-id": "shop://account/orders"},
             "link": "shop://c", "url": "shop://b", "deeplink": "shop://a", "orderId": 4711}
            """, try shopPayloadOptions())
        #expect(
            reading.candidates.map(\.field) == ["deeplink", "url", "link", "aps.category", "aps.target-content-id"])
        #expect(reading.candidates.map(\.link) == ["shop://a", "shop://b", "shop://c", nil, "shop://account/orders"])
        #expect(
            reading.candidates[3].target
                == .page(
                    PageID(coordinator: "account", name: "order"), arguments: [("id", "4711")],
                    category: "ORDER_SHIPPED"))
    }

    @Test func configuredLinkKeysReplaceTheDefaultsInTheirOrder() throws {
        let text = #"{"aps": {}, "deeplink": "shop://a", "target": "shop://t", "url": "shop://u"}"#
        let reading = try payloadReading(text, PayloadOptions(linkKeys: ["url", "target"]))
        #expect(reading.candidates.map(\.field) == ["url", "target"])
    }

    @Test func apsIsNeverReadAsALinkKey() throws {
        let reading = try payloadReading(#"{"aps": {}, "url": "shop://u"}"#, PayloadOptions(linkKeys: ["aps", "url"]))
        #expect(reading.candidates.map(\.field) == ["url"])
    }

    @Test(arguments: [
        (#""shipped""#, "shipped"), ("4711", "4711"), ("-3", "-3"), ("12.0", "12"), ("2.5", "2.5"), ("true", "true"),
    ])
    func categoryArgumentsReadCustomKeysAsText(json: String, text: String) throws {
        let reading = try payloadReading(
            #"{"aps": {"category": "ORDER_SHIPPED"}, "orderId": \#(json)}"#, try shopPayloadOptions())
        let candidate = try #require(reading.candidates.first)
        #expect(candidate.field == "aps.category")
        #expect(
            candidate.target
                == .page(
                    PageID(coordinator: "account", name: "order"), arguments: [("id", text)], category: "ORDER_SHIPPED")
        )
    }

    @Test func categoryArgumentsMixLiteralsAndKeys() throws {
        let reading = try payloadReading(
            #"{"aps": {"category": "OFFER"}, "offer": "SUMMER"}"#, try shopPayloadOptions())
        #expect(reading.candidates.first?.description == #"aps.category: cart.offer(id: "SUMMER", source: "push")"#)
    }

    @Test func categoryWithoutArgumentsNeedsNoKeys() throws {
        let reading = try payloadReading(#"{"aps": {"category": "CART_REMINDER"}}"#, try shopPayloadOptions())
        #expect(reading.candidates.map(\.description) == ["aps.category: cart.checkout"])
    }

    @Test func categoryWithMissingKeyIsSkippedWithAWarningNamingTheKey() throws {
        let reading = try payloadReading(
            #"{"aps": {"category": "ORDER_SHIPPED"}, "deeplink": "shop://account/orders"}"#, try shopPayloadOptions())
        #expect(reading.candidates.map(\.field) == ["deeplink"])
        let warning = try #require(reading.warnings.first)
        #expect(warning.path == "aps.category")
        #expect(warning.message.contains("$orderId"))
        #expect(warning.message.contains("no top-level key 'orderId'"))
        #expect(warning.message.contains("ORDER_SHIPPED"))
    }

    @Test func categoryWithAnObjectForItsKeyIsSkippedWithAWarning() throws {
        let reading = try payloadReading(
            #"{"aps": {"category": "ORDER_SHIPPED"}, "orderId": {"n": 1}, "url": "shop://x"}"#, try shopPayloadOptions()
        )
        #expect(reading.warnings.map(\.path) == ["aps.category"])
        #expect(reading.warnings.first?.message.contains("its value at orderId is an object") == true)
    }

    @Test func skippedCategoryIsExplainedWhenNothingElseGivesALink() throws {
        let error = try #require(
            payloadError(
                #"{"aps": {"alert": "Shipped", "category": "ORDER_SHIPPED"}}"#, try shopPayloadOptions(unlinked: .error)
            ))
        #expect(error.code == .noLink)
        #expect(error.path == "$")
        #expect(error.reason.contains("looked at deeplink, url, link, aps.category, aps.target-content-id"))
        #expect(error.reason.contains("'orderId'"))
    }

    @Test func unmappedCategoryIsNamedInTheNoLinkError() throws {
        let error = try #require(
            payloadError(#"{"aps": {"category": "CHAT_MESSAGE", "alert": "Hi"}}"#, unlinkedIsAnError))
        #expect(error.code == .noLink)
        #expect(error.reason.contains("aps.category ('CHAT_MESSAGE' is not in the category map)"))
    }

    @Test func unmappedCategoryAloneIsNotACandidate() throws {
        let reading = try payloadReading(#"{"aps": {"category": "CHAT_MESSAGE"}, "url": "shop://chat"}"#)
        #expect(reading.candidates.map(\.field) == ["url"])
        #expect(reading.warnings.isEmpty)
    }

    @Test func targetContentIDIsTheLastResort() throws {
        let reading = try payloadReading(#"{"aps": {"target-content-id": "shop://account/orders/7"}}"#)
        #expect(
            reading.candidates == [
                LinkCandidate(format: .apns, field: "aps.target-content-id", target: .link("shop://account/orders/7"))
            ])
    }

    @Test func nullLinkKeysCountAsAbsentAndEmptyOnesWarn() throws {
        let reading = try payloadReading(#"{"aps": {}, "deeplink": null, "url": "", "link": "shop://l"}"#)
        #expect(reading.candidates.map(\.field) == ["link"])
        #expect(reading.warnings == [PayloadWarning(path: "url", message: "the link is empty; ignored")])
    }

    @Test func everyDocumentedApsMemberIsAcceptedWithoutWarnings() throws {
        let reading = try payloadReading(
            """
            {
              "aps": {
                "alert": {
                  "title": "t", "subtitle": "s", "body": "b", "launch-image": "l.png",
                  "title-loc-key": "T", "title-loc-args": ["a"], "subtitle-loc-key": "S", "subtitle-loc-args": [],
                  "loc-key": "B", "loc-args": ["1", "2"], "action-loc-key": null, "action": "View"
                },
                "badge": 0,
                "sound": { "critical": 1, "name": "alarm.caf", "volume": 1.0 },
                "thread-id": "th", "category": "C", "content-available": 1, "mutable-content": 1,
                "target-content-id": "shop://cart", "interruption-level": "critical", "relevance-score": 0.5,
                "filter-criteria": "work", "stale-date": 1735689600, "content-state": { "eta": 12 },
                "timestamp": 1735686000, "event": "update", "dismissal-date": 1735693200,
                "attributes-type": "DeliveryAttributes", "attributes": { "orderId": "4711" },
                "summary-arg": "Anna", "summary-arg-count": 2, "input-push-token": 1, "input-push-channel": "ch",
                "url-args": ["offers", "SUMMER"]
              }
            }
            """)
        #expect(reading.warnings == [])
        #expect(reading.candidates.map(\.field) == ["aps.target-content-id"])
    }

    /// Written plainly, a level is told from its bytes; written with escapes, it is decoded and accepted too.
    @Test(arguments: ["passive", "active", "time-sensitive", "critical", #"time\u002dsensitive"#, #"\u0061ctive"#])
    func interruptionLevelsAreAccepted(level: String) throws {
        #expect(throws: Never.self) {
            try payloadReading(#"{"aps": {"interruption-level": "\#(level)"}, "url": "shop://x"}"#)
        }
    }

    @Test(arguments: [
        (#"{"aps": 3}"#, "aps", "expected an object, found number"),
        (#"{"aps": {"badge": "3"}}"#, "aps.badge", "expected an integer, found string"),
        (#"{"aps": {"badge": 1.5}}"#, "aps.badge", "expected an integer, found number"),
        (#"{"aps": {"alert": 5}}"#, "aps.alert", "expected a string or an object, found number"),
        (
            #"{"aps": {"alert": {"title": ["x"]}}}"#, "aps.alert.title",
            "expected a string or a {loc-key, loc-args} object, found array"
        ),
        (#"{"aps": {"alert": {"loc-args": ["a", 2]}}}"#, "aps.alert.loc-args[1]", "expected a string, found number"),
        (
            #"{"aps": {"alert": {"title-loc-args": "a"}}}"#, "aps.alert.title-loc-args",
            "expected an array of strings, found string"
        ),
        (#"{"aps": {"sound": true}}"#, "aps.sound", "expected a string or an object, found boolean"),
        (#"{"aps": {"sound": {"name": 1}}}"#, "aps.sound.name", "expected a string, found number"),
        (#"{"aps": {"sound": {"volume": "loud"}}}"#, "aps.sound.volume", "expected a number, found string"),
        (#"{"aps": {"category": 7}}"#, "aps.category", "expected a string, found number"),
        (#"{"aps": {"thread-id": null}}"#, "aps.thread-id", "expected a string, found null"),
        (#"{"aps": {"content-available": true}}"#, "aps.content-available", "expected an integer, found boolean"),
        (#"{"aps": {"mutable-content": "1"}}"#, "aps.mutable-content", "expected an integer, found string"),
        (#"{"aps": {"target-content-id": {}}}"#, "aps.target-content-id", "expected a string, found object"),
        (#"{"aps": {"interruption-level": 2}}"#, "aps.interruption-level", "expected a string, found number"),
        (#"{"aps": {"relevance-score": "high"}}"#, "aps.relevance-score", "expected a number, found string"),
        (#"{"aps": {"stale-date": "2025-01-01"}}"#, "aps.stale-date", "expected a number, found string"),
        (#"{"aps": {"content-state": []}}"#, "aps.content-state", "expected an object, found array"),
        (#"{"aps": {"timestamp": null}}"#, "aps.timestamp", "expected a number, found null"),
        (#"{"aps": {"event": 1}}"#, "aps.event", "expected a string, found number"),
        (#"{"aps": {"attributes": "x"}}"#, "aps.attributes", "expected an object, found string"),
        (#"{"aps": {"url-args": [1]}}"#, "aps.url-args[0]", "expected a string, found number"),
        (#"{"aps": {}, "deeplink": 42}"#, "deeplink", "expected a link string, found number"),
        (#"{"aps": {}, "url": ["shop://x"]}"#, "url", "expected a link string, found array"),
    ])
    func wrongTypesAreErrorsNamingThePath(text: String, path: String, reason: String) throws {
        let error = try #require(payloadError(text))
        #expect(error.code == .wrongType)
        #expect(error.path == path)
        #expect(error.reason == reason)
    }

    @Test(arguments: [
        (
            #"{"aps": {"interruption-level": "urgent"}}"#, "aps.interruption-level",
            "passive, active, time-sensitive or critical"
        ),
        (#"{"aps": {"sound": {"critical": 2}}}"#, "aps.sound.critical", "expected 0 or 1, found 2"),
        (#"{"aps": {"sound": {"volume": 1.5}}}"#, "aps.sound.volume", "from 0 to 1"),
        (#"{"aps": {"sound": {"volume": -0.1}}}"#, "aps.sound.volume", "from 0 to 1"),
    ])
    func unacceptableValuesAreInvalidValueErrors(text: String, path: String, reason: String) throws {
        let error = try #require(payloadError(text))
        #expect(error.code == .invalidValue)
        #expect(error.path == path)
        #expect(error.reason.contains(reason))
    }

    @Test func unknownApsKeysAreWarningsNotErrors() throws {
        let reading = try payloadReading(
            """
            {"aps": {"alert": {"titel": "Hi", "body": "x"}, "thread_id": "t", "Badge": 1, "priority": 10,
                     "sound": {"name": "a.caf", "loudness": 3}},
             "url": "shop://cart"}
            """)
        #expect(reading.candidates.count == 1)
        #expect(
            reading.warnings.map(\.path) == [
                "aps.alert.titel", "aps.thread_id", "aps.Badge", "aps.priority", "aps.sound.loudness",
            ])
        #expect(reading.warnings[0].message == "unknown key in aps.alert; APNs ignores it")
        #expect(reading.warnings[1].message == "unknown key in aps; APNs ignores it (did you mean 'thread-id'?)")
        #expect(reading.warnings[2].message.hasSuffix("(did you mean 'badge'?)"))
        #expect(reading.warnings[3].message == "unknown key in aps; APNs ignores it")
    }

    @Test func camelCaseApsKeysGetAHint() throws {
        let reading = try payloadReading(#"{"aps": {"contentAvailable": 1}, "url": "shop://x"}"#)
        #expect(reading.warnings.first?.message.hasSuffix("(did you mean 'content-available'?)") == true)
    }

    @Test func escapedApsKeysAreReadAsTheKeysTheySpell() throws {
        // The tape leaves escaped keys to the tree, which decodes them: `thread\u002did` is `thread-id`.
        let reading = try payloadReading(
            #"{"aps": {"thread\u002did": "t", "al\u0065rt": {"t\u0069tle": "Hi"}, "thread\u005fid": "u"}, "url": "shop://x"}"#
        )
        #expect(reading.warnings.map(\.path) == ["aps.thread_id"])
        #expect(reading.warnings.first?.message.hasSuffix("(did you mean 'thread-id'?)") == true)
        let error = try #require(payloadError(#"{"aps": {"b\u0061dge": "one"}, "url": "shop://x"}"#))
        #expect([error.path, error.reason] == ["aps.badge", "expected an integer, found string"])
    }

    @Test func unknownSoundKeysGetAHint() throws {
        let reading = try payloadReading(
            #"{"aps": {"sound": {"Volume": 0.5, "critical": 1, "name": "a.caf", "crit": 1}}, "url": "shop://x"}"#)
        #expect(reading.warnings.map(\.path) == ["aps.sound.Volume", "aps.sound.crit"])
        #expect(reading.warnings.first?.message == "unknown key in aps.sound; APNs ignores it (did you mean 'volume'?)")
        #expect(reading.warnings.last?.message == "unknown key in aps.sound; APNs ignores it")
    }

    @Test func longAndUnusualApsKeysAreWarnedAboutByName() throws {
        let reading = try payloadReading(
            #"{"aps": {"interruption-levels": "active", "interruption-leve": "active", "clé": 1, "😀": 2, "": 3}, "url": "shop://x"}"#
        )
        #expect(
            reading.warnings.map(\.path) == [
                "aps.interruption-levels", "aps.interruption-leve", #"aps["clé"]"#, #"aps["😀"]"#, #"aps[""]"#,
            ])
    }

    @Test func oddApsKeysArePathQuoted() throws {
        let reading = try payloadReading(#"{"aps": {"a.b": 1, "x y": 2}, "url": "shop://x"}"#)
        #expect(reading.warnings.map(\.path) == [#"aps["a.b"]"#, #"aps["x y"]"#])
    }

    @Test func payloadWithOnlyAnAlertHasNoLink() throws {
        let error = try #require(payloadError(#"{"aps": {"alert": "Hello"}}"#, unlinkedIsAnError))
        #expect(error.code == .noLink)
        #expect(error.description.hasPrefix("$: no link in the APNs payload; looked at deeplink, url, link"))
    }

    @Test func liveActivityUpdateIsValid() throws {
        let reading = try payloadReading(
            """
            {"aps": {"timestamp": 1735686000, "event": "update", "content-state": {"status": "out for delivery"},
                     "alert": {"title": "Out for delivery", "body": "Arriving today", "sound": "chime.caf"},
                     "stale-date": 1735700000, "relevance-score": 100},
             "deeplink": "shop://account/orders/4711"}
            """)
        #expect(reading.warnings.isEmpty)
        #expect(reading.candidates.first?.link == "shop://account/orders/4711")
    }
}
