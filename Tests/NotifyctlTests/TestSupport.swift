import CoordinatorGraph
import Foundation
import JSON
import NotifyctlCore
import Testing
import Varlink

/// Text written by a command, kept for assertions.
final class CapturedOutput: TextOutput {
    private(set) var text = ""

    func write(_ text: String) {
        self.text += text
    }
}

/// Files from a table; `-` is standard input.
struct FixtureFiles: FileReading {
    var files: [String: [UInt8]]

    func read(_ path: String) throws(NotifyctlError) -> [UInt8] {
        if let bytes = files[path] { return bytes }
        let full = path.hasPrefix("/") ? path : Fixtures.repository.appendingPathComponent(path).path
        if let data = FileManager.default.contents(atPath: full) { return Array(data) }
        throw .cannotRead(path, "no such file")
    }
}

/// A daemon that answers from a table and records the calls it got.
final class FakeRouter: RouterConnection, RouterConnector {
    struct Call: Equatable {
        var method: String
        var parameters: JSONObject
        var streaming: Bool
    }

    /// The reply (or error) for each method, by member name (`Route`) or qualified name.
    var replies: [String: Result<JSONObject, VarlinkClientError>] = [:]
    /// The replies a streamed call gets, in order.
    var streamed: [JSONObject] = []
    /// When set, connecting fails with it.
    var connectError: VarlinkClientError?
    private(set) var calls: [Call] = []
    private(set) var connectedSockets: [String] = []

    func connect(socketPath: String, streaming: Bool) throws(VarlinkClientError) -> any RouterConnection {
        connectedSockets.append(socketPath)
        if let connectError { throw connectError }
        return self
    }

    func call(_ method: String, parameters: JSONObject) throws(VarlinkClientError) -> JSONObject {
        calls.append(Call(method: method, parameters: parameters, streaming: false))
        let member = String(method.split(separator: ".").last ?? "")
        guard let result = replies[method] ?? replies[member] else {
            throw .reply(.methodNotFound(method))
        }
        return try result.get()
    }

    func stream(
        _ method: String, parameters: JSONObject, onReply: (JSONObject) -> Bool
    ) throws(VarlinkClientError) {
        calls.append(Call(method: method, parameters: parameters, streaming: true))
        for reply in streamed where !onReply(reply) { return }
    }
}

/// One run of notifyctl with captured output.
struct Run {
    var status: NotifyctlCore.ExitStatus
    var output: String
    var errors: String
}

enum Fixtures {
    /// The repository's root (for config/shop.yaml and examples/).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// Where the golden files are.
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    /// A fixed instant: 2025-06-01T12:00:00.000Z.
    static let now = Timestamp(millisecondsSince1970: 1_748_779_200_000)

    /// Runs notifyctl with `arguments`, fixture `files`, the fake `router` and a fixed clock and id.
    static func run(
        _ arguments: [String], files: [String: String] = [:], router: FakeRouter = FakeRouter(),
        environment: [String: String] = [:], terminal: Terminal = .plain
    ) -> Run {
        let output = CapturedOutput()
        let errors = CapturedOutput()
        let context = CommandContext(
            environment: environment, output: output, errors: errors, terminal: terminal,
            files: FixtureFiles(files: files.mapValues { Array($0.utf8) }), connector: router, now: { now },
            makeID: { "00000000-0000-4000-8000-000000000001" })
        let status = Notifyctl.run(arguments, context: context)
        return Run(status: status, output: output.text, errors: errors.text)
    }

    /// Compares `text` with the golden file `name`; `NOTIFYCTL_UPDATE_GOLDEN=1` rewrites it instead.
    static func expectGolden(_ text: String, _ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation)
    {
        let url = golden.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["NOTIFYCTL_UPDATE_GOLDEN"] == "1" {
            try? FileManager.default.createDirectory(at: golden, withIntermediateDirectories: true)
            try? Data(text.utf8).write(to: url)
            return
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            Issue.record(
                "missing golden file \(name); run with NOTIFYCTL_UPDATE_GOLDEN=1 to write it",
                sourceLocation: sourceLocation)
            return
        }
        let expected = String(decoding: data, as: UTF8.self)
        #expect(text == expected, "output differs from Golden/\(name)", sourceLocation: sourceLocation)
    }

    /// A decision from JSON text, read as the client reads the daemon's replies.
    static func decision(_ text: String) throws -> Decision {
        try Decision(json: try JSON.parse(text))
    }
}
