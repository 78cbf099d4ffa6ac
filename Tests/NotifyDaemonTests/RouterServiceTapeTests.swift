import JSON
import Testing
import Varlink

@testable import NotifyDaemon

/// Route and Resolve calls read from a tape (the server's fast way) answer exactly as the same calls read into a
/// tree; calls the fast way does not take are left, untouched, to the tree.
@Suite struct RouterServiceTapeTests {
    typealias Fixture = RouterServiceTests.Fixture

    /// Offers the frame `text` to the fast way, as the server does; when it declines, reads the frame into a
    /// tree and handles that. Answers whether the fast way took it.
    @discardableResult
    static func handleFrame(_ text: String, in f: Fixture) throws -> Bool {
        let bytes = Array(text.utf8)
        let outbox = Outbox()
        var tape = JSONTape()
        let taken = bytes.withUnsafeBytes { raw in
            guard tape.parse(raw) else { return false }
            return tape.withRoot(raw) { root in
                guard let view = VarlinkCallView(root) else { return false }
                return f.service.handle(view, from: f.connection, outbox: outbox)
            }
        }
        if !taken { f.service.handle(try VarlinkCall(frame: bytes), from: f.connection, outbox: outbox) }
        return taken
    }

    /// The reply without what differs from one run to the next: decision ids and times (also inside trace lines).
    static func comparable(_ value: JSON) -> JSON {
        switch value {
        case .object(let object):
            var kept = JSONObject()
            for (key, member) in object {
                if key == "id", let id = member.stringValue, id.utf8.count == 36 { continue }
                kept[key] = comparable(member)
            }
            return .object(kept)
        case .array(let array): return .array(array.map(comparable))
        case .string(let text): return .string(withoutTimes(text))
        default: return value
        }
    }

    /// `text` with each RFC 3339 time (`2026-12-01T12:46:36.453Z`) replaced by `<time>`.
    static func withoutTimes(_ text: String) -> String {
        let mask = Array("dddd-dd-ddTdd:dd:dd.dddZ".utf8)
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if i + mask.count <= bytes.count,
                mask.indices.allSatisfy({ j in
                    mask[j] == UInt8(ascii: "d") ? (0x30...0x39).contains(bytes[i + j]) : mask[j] == bytes[i + j]
                })
            {
                out += Array("<time>".utf8)
                i += mask.count
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static let apns =
        #"{"aps":{"alert":{"title":"Sale","body":"30% off"},"badge":1,"relevance-score":0.8},"#
        + #""deeplink":"shop://offers/SUMMER"}"#
    static let fcm = #"{"message":{"data":{"deeplink":"shop://cart/checkout"},"android":{"priority":"high"}}}"#

    /// Calls and whether the fast way takes them.
    static let calls: [(frame: String, fast: Bool)] = [
        (#"{"method":"io.notifyd.Router.Route","parameters":{"dryRun":true,"payload":\#(apns)}}"#, true),
        (#"{"method":"io.notifyd.Router.Route","parameters":{"payload":\#(fcm),"dryRun":true,"explain":true}}"#, true),
        (#"{"method":"io.notifyd.Router.Route","parameters":{"device":"d-1","payload":\#(fcm)}}"#, true),
        (#"{"method":"io.notifyd.Router.Route","parameters":{"device":"d-1","payload":\#(apns)}}"#, true),
        (#"{"method":"io.notifyd.Router.Resolve","parameters":{"device":"d-1","link":"shop://cart"}}"#, true),
        (#"{"method":"io.notifyd.Router.Resolve","parameters":{"link":"https://shop.example.com/nowhere"}}"#, true),
        (#"{"method":"io.notifyd.Router.Route","parameters":{"payload":\#(apns),"format":"fcm"}}"#, true),
        (
            #"{"method":"io.notifyd.Router.Route","parameters":{"payload":\#(apns),"format":"apns","strict":true}}"#,
            true
        ),
        (#"{"method":"io.notifyd.Router.Route","parameters":{"payload":{"aps":{"badge":"one"}}}}"#, true),
        (#"{"method":"io.notifyd.Router.Route","parameters":{"payload":\#(apns),"format":"morse"}}"#, true),
        (#"{"method":"io.notifyd.Router.Route","parameters":{"payload":\#(apns),"device":""}}"#, true),
        (#"{"method":"io.notifyd.Router.Route","parameters":{"device":"d-2","payload":{"aps":{"alert":"Hi"}}}}"#, true),
        (
            #"{"method":"io.notifyd.Router.Route","parameters":{"device":"d-1","payload":\#(apns),"#
                + #""headers":{"APNs-Push-Type":"background","apns-topic":"com.example.shop"}}}"#, true
        ),
        (
            #"{"method":"io.notifyd.Router.Route","parameters":{"payload":\#(apns),"headers":{"apns-priority":"7"}}}"#,
            true
        ),
        (
            #"{"method":"io.notifyd.Router.Route","parameters":{"payload":\#(apns),"headers":{"apns-priority":7}}}"#,
            false
        ),
        (#"{"method":"io.notifyd.Router.Route","parameters":{"payload":\#(apns),"headers":["apns-topic"]}}"#, false),
        (#"{"method":"io.notifyd.Router.Route","parameters":{"payload":\#(apns),"oneway":true},"oneway":true}"#, false),
        (#"{"method":"io.notifyd.Router.Route","parameters":{"payload":\#(apns)},"oneway":true}"#, true),
        (#"{"method":"io.notifyd.Router.Route","parameters":{"payload":"shop://offers/A"}}"#, false),
        (#"{"method":"io.notifyd.Router.Route","parameters":{"payload":\#(apns),"device":null}}"#, true),
        (#"{"method":"io.notifyd.Router.Route","parameters":{"payload":\#(apns),"dryRun":1}}"#, false),
        (#"{"method":"io.notifyd.Router.Route","parameters":{"dryRun":true}}"#, false),
        (#"{"method":"io.notifyd.Router.Resolve","parameters":{"link":"shop://cart","format":"apns"}}"#, false),
        (#"{"method":"io.notifyd.Router.Route","parameters":{"payload":\#(apns)},"more":true}"#, false),
        (#"{"method":"io.notifyd.Router.GetState","parameters":{"device":"d-1"}}"#, false),
        (#"{"method":"io.notifyd.Router.Nope","parameters":{}}"#, false),
    ]

    @Test func eachCallIsAnsweredAsTheTreeAnswersIt() throws {
        let fast = try Fixture()
        let tree = try Fixture()
        for call in Self.calls {
            let taken = try Self.handleFrame(call.frame, in: fast)
            #expect(taken == call.fast, "\(call.frame)")
            tree.service.handle(try VarlinkCall(frame: Array(call.frame.utf8)), from: tree.connection, outbox: Outbox())
            for f in [fast, tree] {
                f.service.pipeline.endBatch()
                #expect(f.settle())
            }
            let (a, b) = (try fast.replies(), try tree.replies())
            #expect(a.map(Self.comparable) == b.map(Self.comparable), "\(call.frame)")
        }
        #expect(fast.service.stats.requests == tree.service.stats.requests)
        #expect(fast.service.statsJSON()["errors"] == tree.service.statsJSON()["errors"])
        #expect(
            Self.comparable(try fast.call("GetState", ["device": "d-1"]))
                == Self.comparable(try tree.call("GetState", ["device": "d-1"])))
    }
}
