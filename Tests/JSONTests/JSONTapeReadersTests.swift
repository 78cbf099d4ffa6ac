import CJSONTape
import Foundation
import Testing

@testable import JSON

/// The tape's two readers, the C one tried first and the Swift one for what it declines, write the same nodes.
@Suite struct JSONTapeReadersTests {
    /// Reads `bytes` with each reader alone. When the C reader takes the document, the Swift reader takes it too,
    /// with the same nodes field for field; the C reader declines only what the Swift reader declines, numbers it
    /// leaves to the Swift reader (integers of more than 18 digits, exponents), and nesting deeper than it follows.
    /// Answers whether the C reader took it.
    @discardableResult
    static func compare(
        _ bytes: [UInt8], maxDepth: Int = JSON.defaultMaxDepth, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        var c = JSONTape()
        var swift = JSONTape()
        return bytes.withUnsafeBytes { raw in
            let cTook = c.parse(raw, maxDepth: maxDepth, readers: .c)
            let swiftTook = swift.parse(raw, maxDepth: maxDepth, readers: .swift)
            let shown = String(decoding: bytes.prefix(80), as: UTF8.self).debugDescription
            if cTook {
                #expect(
                    swiftTook, "the C reader took what the Swift reader declines: \(shown)",
                    sourceLocation: sourceLocation)
                guard swiftTook else { return true }
                let cNodes = c.nodes
                let swiftNodes = swift.nodes
                #expect(cNodes.count == swiftNodes.count, "\(shown)", sourceLocation: sourceLocation)
                for (i, (a, b)) in zip(cNodes, swiftNodes).enumerated() where a != b {
                    Issue.record("node \(i) differs: C \(a), Swift \(b), in \(shown)", sourceLocation: sourceLocation)
                    break
                }
            } else if swiftTook {
                let reason =
                    Self.numberLeftToSwift(swift.nodes, bytes)
                    || Self.depth(of: swift, raw) > Int(NOTIFYD_TAPE_MAX_DEPTH)
                #expect(reason, "the C reader declined without a reason: \(shown)", sourceLocation: sourceLocation)
            }
            return cTook
        }
    }

    /// True when a number node is one the C reader leaves to the Swift reader: more than 18 digits, or an
    /// exponent (a double whose value the Swift reader worked out as it read).
    static func numberLeftToSwift(_ nodes: [JSONTape.Node], _ bytes: [UInt8]) -> Bool {
        nodes.contains { node in
            switch node.kind {
            case .double: return node.flag
            case .int:
                return bytes[Int(node.start)..<Int(node.start + node.length)].filter { $0 != UInt8(ascii: "-") }.count
                    > 18
            default: return false
            }
        }
    }

    static func depth(of tape: JSONTape, _ raw: UnsafeRawBufferPointer) -> Int {
        func depth(_ value: JSONTape.Value) -> Int {
            if let elements = value.elements { return 1 + elements.map(depth).reduce(0, max) }
            if value.isObject { return 1 + value.rawMembers.map { depth($0.value) }.reduce(0, max) }
            return 0
        }
        return tape.withRoot(raw, depth)
    }

    @Test func theNodesAreLaidOutTheSameInCAndSwift() {
        typealias Node = JSONTape.Node
        typealias CNode = notifyd_tape_node
        #expect(MemoryLayout<Node>.size == MemoryLayout<CNode>.size)
        #expect(MemoryLayout<Node>.stride == MemoryLayout<CNode>.stride)
        #expect(MemoryLayout<Node>.offset(of: \.kind) == MemoryLayout<CNode>.offset(of: \.kind))
        #expect(MemoryLayout<Node>.offset(of: \.flag) == MemoryLayout<CNode>.offset(of: \.flag))
        #expect(MemoryLayout<Node>.offset(of: \.start) == MemoryLayout<CNode>.offset(of: \.start))
        #expect(MemoryLayout<Node>.offset(of: \.length) == MemoryLayout<CNode>.offset(of: \.length))
        #expect(MemoryLayout<Node>.offset(of: \.next) == MemoryLayout<CNode>.offset(of: \.next))
        #expect(MemoryLayout<Node>.offset(of: \.count) == MemoryLayout<CNode>.offset(of: \.count))
        #expect(MemoryLayout<Node>.offset(of: \.bits) == MemoryLayout<CNode>.offset(of: \.bits))
        let kinds: [(Node.Kind, Int)] = [
            (.null, NOTIFYD_TAPE_NULL), (.bool, NOTIFYD_TAPE_BOOL), (.int, NOTIFYD_TAPE_INT),
            (.double, NOTIFYD_TAPE_DOUBLE), (.string, NOTIFYD_TAPE_STRING),
            (.escapedString, NOTIFYD_TAPE_ESCAPED_STRING), (.array, NOTIFYD_TAPE_ARRAY),
            (.object, NOTIFYD_TAPE_OBJECT),
        ]
        for (kind, value) in kinds { #expect(Int(kind.rawValue) == value, "\(kind)") }
    }

    /// The payloads a daemon is sent take the C reader: the examples and the benchmark's calls.
    @Test func everyExamplePayloadIsReadInC() throws {
        let directory = Self.packageRoot.appendingPathComponent("examples/payloads")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
        #expect(names.count >= 5)
        for name in names {
            let bytes = Array(try Data(contentsOf: directory.appendingPathComponent(name)))
            #expect(Self.compare(bytes), "\(name)")
            let call =
                Array(#"{"method":"io.notifyd.Router.Route","parameters":{"dryRun":true,"payload":"#.utf8)
                + bytes + Array("}}".utf8)
            #expect(Self.compare(call), "\(name) in a call")
        }
    }

    @Test(arguments: JSONTapeTests.documents)
    func theReadersAgreeOnEachDocument(_ text: String) {
        Self.compare(Array(text.utf8))
    }

    @Test func theCReaderTakesWhatItShould() {
        let taken = [
            #"{"b": 1, "a": [true, false, null], "c": {"d": "e"}}"#, " \t\r\n{ \"a\" :\n[ 1 , 2 ] } \n", "[ ]", "{ }",
            "0", "-0", "-1", "1.5", "-0.25", "123456789012345678", "-123456789012345678", #""""#,
            #""h\u00e9llo \ud83d\ude00 \"q\" \\ \/ \n""#, "\"héllo ✓ 😀\"", #"{"é":"ü","key":"\t"}"#,
            #"[[[[]]],{},{"":""},[1,[2,[3]]]]"#,
        ]
        for text in taken { #expect(Self.compare(Array(text.utf8)), "\(text)") }
        let declined = ["1E10", "-2.25e-3", "1234567890123456789", #"{"k\u0061y": 1}"#, #"{"a":1,"a":2}"#, "[1,]", ""]
        for text in declined { #expect(!Self.compare(Array(text.utf8)), "\(text)") }
        // At the bounds: 32 keys in an object and not 33, the nesting allowed, and the deepest nesting the C reader
        // follows (128 containers).
        let keys = { (n: Int) in "{" + (0..<n).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}" }
        let nested = { (n: Int) in String(repeating: "[", count: n) + String(repeating: "]", count: n) }
        let bounds: [(text: String, maxDepth: Int, taken: Bool)] = [
            (keys(32), 64, true), (keys(33), 64, false), ("[[1]]", 2, true), ("[[[1]]]", 2, false),
            (nested(128), 200, true), (nested(129), 200, false),
        ]
        for bound in bounds {
            #expect(Self.compare(Array(bound.text.utf8), maxDepth: bound.maxDepth) == bound.taken, "\(bound.text)")
        }
    }

    /// Strings and keys with escapes, non-ASCII bytes (valid or not) and control characters at every offset of
    /// their first 40 bytes: the readers agree.
    @Test func stringsAndKeysAgreeWithASpecialByteAtEachOffset() {
        let specials: [[UInt8]] = [
            [0x00], [0x1F], [0x20], [0x5C, 0x22], [0x5C, 0x5C], [0x5C, 0x6E], [0x5C, 0x78], [0x22], [0x5C], [0x7F],
            [0xC3, 0xA9], [0xC3], [0xFF], [0xE2, 0x9C, 0x93], [0xED, 0xA0, 0x80], [0xF0, 0x9F, 0x98, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0xC0, 0x80], Array(#"\u00e9"#.utf8), Array(#"\ud83d\ude00"#.utf8),
            Array(#"\ud83d"#.utf8), Array(#"\udc00"#.utf8), Array(#"\udfff"#.utf8), Array(#"\ud83d\u0041"#.utf8),
            Array(#"\ud83d\ue000"#.utf8), Array(#"\u12G4"#.utf8), Array(#"\u12"#.utf8),
        ]
        for special in specials {
            for offset in 0...40 {
                let text = Array(repeating: UInt8(ascii: "a"), count: offset) + special + Array("bcd".utf8)
                let quoted = [UInt8(ascii: "\"")] + text + [UInt8(ascii: "\"")]
                let padding = Array(#","padding":"0123456789abcdef0123456789"}"#.utf8)
                Self.compare(Array(#"{"key":"#.utf8) + quoted + padding)
                Self.compare([UInt8(ascii: "{")] + quoted + [UInt8(ascii: ":")] + Array("1".utf8) + padding)
                Self.compare([UInt8(ascii: "[")] + quoted + [UInt8(ascii: "]")])
                Self.compare(quoted)
            }
        }
    }

    /// Documents changed a byte or three at a time, from the documents of the tape's tests and the example
    /// payloads: the readers agree on every one.
    @Test(arguments: 0..<8)
    func mutatedDocumentsAgree(seed: Int) throws {
        let payloads = try ["apns-offer.json", "fcm-v1.json", "ntfy.json"].map {
            Array(try Data(contentsOf: Self.packageRoot.appendingPathComponent("examples/payloads/\($0)")))
        }
        let samples = JSONTapeTests.documents.map { Array($0.utf8) } + payloads + (try Self.fuzzCorpusFrames())
        for bytes in JSONTapeTests.mutated(samples, seed: seed, count: 1_500) { Self.compare(bytes) }
    }

    /// The package's root directory, from this file's place in it (Tests/JSONTests).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The frames of the varlink fuzz corpus (`Fuzz/corpus/varlink`), NUL-separated in its files.
    static func fuzzCorpusFrames() throws -> [[UInt8]] {
        let directory = packageRoot.appendingPathComponent("Fuzz/corpus/varlink")
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().flatMap { name in
            Array(try Data(contentsOf: directory.appendingPathComponent(name))).split(separator: 0).map(Array.init)
        }
    }

    /// Each frame of the varlink fuzz corpus is read in C (one has an exponent, left to the Swift reader).
    @Test func theFuzzCorpusFramesAreReadInC() throws {
        let frames = try Self.fuzzCorpusFrames()
        #expect(frames.count >= 6)
        let taken = frames.filter { Self.compare($0) }
        #expect(taken.count == frames.count - 1)
    }

    /// A document whose nodes do not fit is read again after the buffer grows, on a fresh tape and a reused one.
    @Test func theCReaderGrowsTheBufferAndReadsAgain() throws {
        var reused = JSONTape(capacity: 1)
        for n in [1, 15, 16, 17, 63, 64, 65, 1_000, 5_000] {
            let text = "[" + (0..<n).map { #"{"k":"v\#($0)"}"# }.joined(separator: ",") + "]"
            let bytes = Array(text.utf8)
            #expect(Self.compare(bytes), "\(n)")
            try bytes.withUnsafeBytes { raw in
                let read = reused.parse(raw, maxDepth: JSON.defaultMaxDepth, readers: .c)
                try #require(read)
                #expect(reused.nodeCount == 1 + 3 * n)
                #expect(reused.withRoot(raw) { $0.json } == (try JSON.parse(bytes)))
            }
        }
    }
}
