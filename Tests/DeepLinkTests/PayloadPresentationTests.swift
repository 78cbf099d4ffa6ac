import DeepLink
import JSON
import Testing

/// Rule 1 of the routing contract: what a notification shows decides the outcome when no link routes — a visible
/// one is opened, one with nothing to tap is silent, and a push that never navigates is silent whatever it carries.
@Suite struct PayloadPresentationTests {
    @Test(arguments: [
        (#"{"aps": {"alert": "Hi"}}"#, "aps.alert"),
        (#"{"aps": {"alert": {"title": "Hi"}}}"#, "aps.alert"),
        (#"{"aps": {"alert": {"loc-key": "GAME_PLAY_REQUEST_FORMAT", "loc-args": ["Jenna"]}}}"#, "aps.alert"),
        (#"{"message": {"notification": {"title": "Hi"}}}"#, "message.notification"),
        (#"{"token": "t", "android": {"notification": {"bodyLocKey": "K"}}}"#, "android.notification"),
        (#"{"token": "t", "apns": {"payload": {"aps": {"alert": "Hi"}}}}"#, "apns.payload.aps.alert"),
        (#"{"to": "t", "notification": {"body": "Hi"}}"#, "notification"),
        (#"{"topic": "t", "message": "Disk full"}"#, "message"),
        (#"{"topic": "t"}"#, "topic"),
        (#"{"message": "Hello", "title": "Hi"}"#, "message"),
        (#"{"notification": {"title": "Hi", "data": {}}}"#, "notification"),
        (#"{"title": "Hi", "body": "There"}"#, "title"),
        (#"{"to": "ExponentPushToken[x]", "body": "Hi"}"#, "body"),
    ])
    func aVisibleNotificationIsShownByTheFieldThatShowsIt(text: String, field: String) throws {
        let reading = try payloadReading(text)
        #expect(reading.presentation == .shown(field: field))
        #expect(reading.candidates.isEmpty)
    }

    @Test(arguments: [
        (#"{"aps": {"content-available": 1}, "acme1": "bar"}"#, "aps.content-available"),
        (#"{"aps": {"badge": 3}}"#, "aps.badge"),
        (#"{"aps": {"sound": "default"}}"#, "aps.sound"),
        (#"{"aps": {"alert": ""}}"#, "aps"),
        (#"{"aps": {"alert": {}}}"#, "aps"),
        (#"{"message": {"token": "t", "data": {"score": "850"}}}"#, "message.data"),
        (#"{"topic": "news", "data": {"score": "850"}}"#, "data"),
        (#"{"to": "t", "content_available": true}"#, "content_available"),
        (#"{"data": {"score": "850"}}"#, "data"),
        (#"{"to": "ExponentPushToken[x]", "_contentAvailable": true, "data": {}}"#, "_contentAvailable"),
        (#"{"notification": {"data": {"n": 1}}}"#, "$"),
    ])
    func nothingToTapIsHidden(text: String, field: String) throws {
        #expect(try payloadReading(text).presentation == .hidden(field: field))
    }

    @Test(arguments: [
        (#"{"aps": {"event": "update", "alert": {"title": "Hi"}, "content-state": {}, "timestamp": 1}}"#, "aps.event"),
        (#"{"aps": {"content-changed": true}}"#, "aps.content-changed"),
        (#"{"id": "x", "time": 1, "event": "keepalive", "topic": "t"}"#, "event"),
        (#"{"topic": "t", "event": "poll_request", "message": "New message"}"#, "event"),
    ])
    func aPushThatNeverNavigatesSaysSoWhateverItCarries(text: String, field: String) throws {
        guard case .nonNavigating(let found, let reason) = try payloadReading(text).presentation else {
            Issue.record("\(text) navigates")
            return
        }
        #expect(found == field)
        #expect(reason.contains(field))
    }

    @Test func aLiveActivityEventKeepsItsLinksButNeverFollowsThem() throws {
        let reading = try payloadReading(
            #"{"aps": {"event": "end", "content-state": {}, "timestamp": 1}, "deeplink": "shop://cart"}"#)
        #expect(reading.candidates.map(\.field) == ["deeplink"])
        #expect(reading.presentation.field == "aps.event")
    }

    @Test func aLinkOrACategoryStillRoutesADataOnlyMessage() throws {
        let reading = try payloadReading(#"{"message": {"data": {"deeplink": "shop://cart"}}}"#)
        #expect(reading.candidates.map(\.field) == ["message.data.deeplink"])
        #expect(reading.presentation == .hidden(field: "message.data"))
    }

    @Test func unlinkedErrorRefusesOnlyAVisibleNotificationWithoutALink() throws {
        let error = try #require(payloadError(#"{"aps": {"alert": "Hi"}}"#, unlinkedIsAnError))
        #expect(error.code == .noLink)
        // Nothing to tap is not a tap: silent stays silent.
        #expect(try payloadReading(#"{"aps": {"content-available": 1}}"#, unlinkedIsAnError).candidates.isEmpty)
        // A link is read as always.
        #expect(
            try payloadReading(#"{"aps": {"alert": "Hi"}, "url": "shop://x"}"#, unlinkedIsAnError).candidates.count == 1
        )
    }

    @Test func explainNotesTheFieldsLookedAtWhenThereIsNoLink() throws {
        let reader = PayloadReader()
        let quiet = try reader.read(bytes: Array(#"{"aps": {"alert": "Hi"}}"#.utf8))
        #expect(quiet.notes.isEmpty)
        let explained = try reader.read(bytes: Array(#"{"aps": {"alert": "Hi"}}"#.utf8), explain: true)
        #expect(
            explained.notes == ["no link: looked at deeplink, url, link, aps.category, aps.target-content-id"])
    }
}
