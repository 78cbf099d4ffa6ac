// The payload benchmark: what reading one notification payload costs, by notifyd's own JSON parser, by its
// PayloadReader (parse, detect the format, find the link candidates), and by Foundation's two JSON readers on the
// same bytes. Prints medians in thread CPU time (the machine is shared).

import CoordinatorGraph
import DeepLink
import Foundation
import JSON

/// `notifyd-bench payload [--runs N] [--seconds S] [--config PATH] [FILE...]`: microseconds of thread CPU time per
/// payload (median of N runs that share S seconds for each payload and reader) for `JSON.parse`, `JSONTape.parse`
/// (a tape reused from one payload to the next, as the daemon's: its C reader, the Swift one for what that declines),
/// the tape's Swift reader alone, `PayloadReader.read(bytes:)`,
/// `JSONSerialization.jsonObject(with:)` and `JSONDecoder` into a generic value, with the ratios of `JSON.parse` and
/// the reader to `JSONSerialization`. The reader uses the link keys and categories of PATH
/// (default config/shop.yaml). FILEs default to one example payload per format, from examples/payloads.
///
/// `--profile ROUNDS` does a fixed amount of work for `valgrind --tool=callgrind` instead: each JSON payload is
/// parsed once onto a tape and once into a tree, then read ROUNDS times from each (``profileTapeReads`` and
/// ``profileTreeReads``, whose inclusive cost divided by ROUNDS is the reader's cost per payload).
func runPayloadBenchmark(_ arguments: [String]) {
    var runs = 5
    var seconds = 1.0
    var configPath = "config/shop.yaml"
    var profileRounds: Int? = nil
    var files: [String] = []
    var i = 0
    while i < arguments.count {
        let value = i + 1 < arguments.count ? arguments[i + 1] : ""
        switch arguments[i] {
        case "--runs": runs = max(1, Int(value) ?? runs)
        case "--seconds": seconds = max(0.01, Double(value) ?? seconds)
        case "--config": configPath = value
        case "--profile": profileRounds = max(1, Int(value) ?? 10_000)
        case let file where !file.hasPrefix("-"):
            files.append(file)
            i += 1
            continue
        default:
            print("usage: notifyd-bench payload [--runs N] [--seconds S] [--config PATH] [--profile ROUNDS] [FILE...]")
            exit(2)
        }
        i += 2
    }
    if files.isEmpty {
        files = ["apns-offer.json", "fcm-v1.json", "fcm-legacy.json", "ntfy.json", "gotify.json", "link.txt"].map {
            "examples/payloads/" + $0
        }
    }

    let reader = PayloadReader(options: payloadOptions(configPath))
    if let rounds = profileRounds {
        for file in files { profilePayload(file, reader: reader, rounds: rounds) }
        return
    }
    var samples: [PayloadSample] = []
    for file in files {
        guard let data = FileManager.default.contents(atPath: file) else {
            print("\(file) not found (run from the package root or pass the payload files)")
            exit(1)
        }
        do {
            samples.append(try PayloadSample(file: file, bytes: [UInt8](data), reader: reader))
        } catch {
            print("\(file): PayloadReader rejects it: \(error)")
            exit(1)
        }
    }

    let perRun = String(format: "%.2f", seconds / Double(runs))
    print("payload: \(runs) runs of ≈\(perRun) s of thread CPU time per payload and reader; one core")
    print("median µs per payload; — where the reader does not accept the payload (a bare link is not JSON)")
    print(
        "file                 format        bytes   JSON.parse   JSONTape   SwiftTape  PayloadReader  JSONSerialization"
            + "  JSONDecoder   parse/JSONSer  read/JSONSer")
    // Runs alternate between payloads and readers so that load from other processes falls on all of them alike.
    var times = samples.map { $0.readers.map { _ in [Double]() } }
    for _ in 0..<runs {
        for (s, sample) in samples.enumerated() {
            for (r, read) in sample.readers.enumerated() {
                if let read { times[s][r].append(measureMicroseconds(seconds: seconds / Double(runs), read)) }
            }
        }
    }
    for (s, sample) in samples.enumerated() {
        let medians = times[s].map { $0.isEmpty ? nil : $0.sorted()[$0.count / 2] }
        /// Right-aligned in `width` columns with two decimals; — for no figure.
        func cell(_ value: Double?, _ width: Int) -> String {
            let text = value.map { String(format: "%.2f", $0) } ?? "—"
            return String(repeating: " ", count: max(0, width - text.count)) + text
        }
        func ratio(_ r: Int) -> Double? {
            guard let a = medians[r], let b = medians[PayloadSample.serializationIndex] else { return nil }
            return a / b
        }
        print(
            (sample.file as NSString).lastPathComponent.padding(toLength: 20, withPad: " ", startingAt: 0) + " "
                + sample.format.padding(toLength: 10, withPad: " ", startingAt: 0)
                + String(format: "%8d", sample.bytes.count) + cell(medians[0], 13) + cell(medians[1], 11)
                + cell(medians[2], 12) + cell(medians[3], 15) + cell(medians[4], 19) + cell(medians[5], 13)
                + cell(ratio(0), 16) + cell(ratio(3), 14))
    }
}

/// Reads the payload in `file` `rounds` times from a tape and `rounds` times from a tree, for a profiler; files
/// that are not JSON are skipped.
private func profilePayload(_ file: String, reader: PayloadReader, rounds: Int) {
    guard let data = FileManager.default.contents(atPath: file) else {
        print("\(file) not found (run from the package root or pass the payload files)")
        exit(1)
    }
    let bytes = [UInt8](data)
    guard let tree = try? JSON.parse(bytes) else {
        print("\(file): not JSON; skipped")
        return
    }
    var tape = JSONTape()
    guard bytes.withUnsafeBytes({ tape.parse($0) }) else {
        print("\(file): the tape leaves it to the tree parser; skipped")
        return
    }
    let fromTape = bytes.withUnsafeBytes { raw in
        tape.withRoot(raw) { root in profileTapeReads(reader, root, byteCount: raw.count, rounds: rounds) }
    }
    let fromTree = profileTreeReads(reader, tree, byteCount: bytes.count, rounds: rounds)
    print("\(file): \(rounds) reads from a tape (\(fromTape) candidates), \(rounds) from a tree (\(fromTree))")
}

/// Reads a payload from its tape `rounds` times; returns the candidates counted.
@inline(never)
private func profileTapeReads(_ reader: PayloadReader, _ root: JSONTape.Value, byteCount: Int, rounds: Int) -> Int {
    var count = 0
    for _ in 0..<rounds { count &+= (try? reader.read(root, byteCount: byteCount))?.candidates.count ?? 0 }
    return count
}

/// Reads a payload from its tree `rounds` times; returns the candidates counted.
@inline(never)
private func profileTreeReads(_ reader: PayloadReader, _ tree: JSON, byteCount: Int, rounds: Int) -> Int {
    var count = 0
    for _ in 0..<rounds { count &+= (try? reader.read(tree, byteCount: byteCount))?.candidates.count ?? 0 }
    return count
}

/// The reader options of the daemon for the config at `path`: its link keys and categories; the defaults when the
/// config is missing or invalid.
private func payloadOptions(_ path: String) -> PayloadOptions {
    guard let data = FileManager.default.contents(atPath: path) else {
        print("\(path) not found: default link keys, no categories")
        return PayloadOptions()
    }
    switch ConfigLoader.load([UInt8](data), file: path) {
    case .success(let loaded):
        return PayloadOptions(linkKeys: loaded.graph.linkKeys, categories: loaded.graph.categories)
    case .failure(let error):
        print("\(path) did not load, default link keys and no categories:\n\(error)")
        return PayloadOptions()
    }
}

/// One payload file and the six ways of reading it, in table order; a reader that rejects the payload is `nil`.
///
/// Each reader returns a small number taken from its result so that the work cannot be optimized away.
private struct PayloadSample {
    static let serializationIndex = 4

    let file: String
    let bytes: [UInt8]
    /// The format `PayloadReader` detects.
    let format: String
    let readers: [(() throws -> Int)?]

    init(file: String, bytes: [UInt8], reader: PayloadReader) throws {
        self.file = file
        self.bytes = bytes
        format = try reader.read(bytes: bytes).format.rawValue
        let data = Data(bytes)
        let decoder = JSONDecoder()
        var tape = JSONTape()
        var swiftTape = JSONTape()
        let readers: [() throws -> Int] = [
            { try JSON.parse(bytes).objectValue?.count ?? 0 },
            {
                guard bytes.withUnsafeBytes({ tape.parse($0) }) else { throw JSONTapeDeclined() }
                return tape.nodeCount
            },
            {
                let read = bytes.withUnsafeBytes {
                    swiftTape.parse($0, maxDepth: JSON.defaultMaxDepth, readers: .swift)
                }
                guard read else { throw JSONTapeDeclined() }
                return swiftTape.nodeCount
            },
            { try reader.read(bytes: bytes).candidates.count },
            { (try JSONSerialization.jsonObject(with: data) as? [String: Any])?.count ?? 0 },
            { try decoder.decode(AnyJSON.self, from: data).count },
        ]
        // Checked once before timing: a bare link is not JSON, and only PayloadReader accepts it.
        self.readers = readers.map { read in (try? read()) == nil ? nil : read }
    }
}

/// The tape left a payload to the tree parser (it is not JSON, or not a document the tape takes).
private struct JSONTapeDeclined: Error {}

/// Calls `read` in batches for about `seconds` of this thread's CPU time; returns microseconds per call.
private func measureMicroseconds(seconds: Double, _ read: () throws -> Int) -> Double {
    var calls = 0
    var checksum = 0
    let start = threadCPUTime()
    var elapsed = 0.0
    while elapsed < seconds {
        for _ in 0..<64 { checksum &+= (try? read()) ?? 0 }
        calls += 64
        elapsed = threadCPUTime() - start
    }
    if checksum == .min { print("unreachable") }
    return elapsed * 1e6 / Double(calls)
}

/// Any JSON value through `Decodable`: what decoding a payload of unknown shape with `JSONDecoder` takes.
///
/// A single-value container offers no way to ask for the kind of value, so each kind is tried in turn (the
/// commonest leaf first); a failed try throws, which is part of the cost.
private enum AnyJSON: Decodable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([AnyJSON])
    case object([String: AnyJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let int = try? container.decode(Int.self) {
            self = .int(int)
        } else if let double = try? container.decode(Double.self) {
            self = .double(double)
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let object = try? container.decode([String: AnyJSON].self) {
            self = .object(object)
        } else {
            self = .array(try container.decode([AnyJSON].self))
        }
    }

    /// The number of members of an object or elements of an array; 0 for a scalar.
    var count: Int {
        switch self {
        case .object(let object): return object.count
        case .array(let array): return array.count
        default: return 0
        }
    }
}
