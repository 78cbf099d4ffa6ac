import CoordinatorGraph
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Where a command writes text: standard output, standard error, or a buffer in tests.
public protocol TextOutput: AnyObject {
    /// Writes `text` as it is (the caller adds newlines).
    func write(_ text: String)
}

/// Everything a command touches outside itself: the environment, output streams, files, the daemon, the clock.
///
/// ``standard()`` is the real process; tests build one with captured output, fixture files, a fake router and a
/// fixed clock.
public struct CommandContext {
    /// The environment variables (`NOTIFYD_SOCKET`, `NO_COLOR`, …).
    public var environment: [String: String]
    /// Standard output.
    public var output: any TextOutput
    /// Standard error.
    public var errors: any TextOutput
    /// Whether the streams are terminals and may be coloured.
    public var terminal: Terminal
    /// Reads a file, or standard input for `-`.
    public var files: any FileReading
    /// Opens connections to the daemon.
    public var connector: any RouterConnector
    /// The current time, for offline decisions.
    public var now: () -> Timestamp
    /// A fresh decision id, for offline decisions.
    public var makeID: () -> String

    /// A context from its parts.
    public init(
        environment: [String: String], output: any TextOutput, errors: any TextOutput, terminal: Terminal,
        files: any FileReading, connector: any RouterConnector, now: @escaping () -> Timestamp,
        makeID: @escaping () -> String
    ) {
        self.environment = environment
        self.output = output
        self.errors = errors
        self.terminal = terminal
        self.files = files
        self.connector = connector
        self.now = now
        self.makeID = makeID
    }

    /// The real process: its environment, file descriptors 1 and 2, the file system, Unix sockets, the wall clock.
    public static func standard() -> CommandContext {
        let environment = ProcessInfo.processInfo.environment
        let now = { Timestamp(millisecondsSince1970: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))) }
        return CommandContext(
            environment: environment, output: FileDescriptorOutput(STDOUT_FILENO),
            errors: FileDescriptorOutput(STDERR_FILENO), terminal: .detect(environment: environment),
            files: LocalFiles(), connector: SocketConnector(), now: now,
            makeID: { timeOrderedID(milliseconds: now().millisecondsSince1970) })
    }

    /// A version-7 UUID (RFC 9562) made at `milliseconds` since 1970, lower-case, like the daemon's decision ids:
    /// the milliseconds in its first 48 bits, then random bits from `random`.
    public static func timeOrderedID(milliseconds: Int64, random: UUID = UUID()) -> String {
        var uuid = random.uuid
        withUnsafeMutableBytes(of: &uuid) { bytes in
            let ms = UInt64(max(0, milliseconds)) & 0xFFFF_FFFF_FFFF
            for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: ms >> (8 * (5 - UInt64(index)))) }
            bytes[6] = 0x70 | (bytes[6] & 0x0F)
            bytes[8] = 0x80 | (bytes[8] & 0x3F)
        }
        return UUID(uuid: uuid).uuidString.lowercased()
    }

    /// The style for standard output.
    public var style: Style { terminal.outputStyle }

    /// Writes `text` to standard output.
    public func print(_ text: String) {
        output.write(text)
    }

    /// Writes `notifyctl: warning: message` to standard error.
    public func warn(_ message: String) {
        let style = terminal.errorStyle
        errors.write("notifyctl: " + style.warning("warning:") + " " + SafeText.clean(message) + "\n")
    }
}

/// Reads input files.
public protocol FileReading {
    /// The bytes of the file at `path`; `-` reads standard input to its end.
    func read(_ path: String) throws(NotifyctlError) -> [UInt8]
}

/// The local file system and standard input.
public struct LocalFiles: FileReading {
    /// Local files.
    public init() {}

    public func read(_ path: String) throws(NotifyctlError) -> [UInt8] {
        if path == "-" { return Array(FileHandle.standardInput.readDataToEndOfFile()) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .cannotRead(path, "no such file")
        }
        guard !isDirectory.boolValue else { throw .cannotRead(path, "it is a directory") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .cannotRead(path, "permission denied or unreadable")
        }
        return Array(data)
    }
}

/// Writes to a file descriptor without buffering, so each decision of `monitor` shows as it arrives.
final class FileDescriptorOutput: TextOutput {
    let descriptor: Int32

    init(_ descriptor: Int32) {
        self.descriptor = descriptor
    }

    func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
            }
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return  // a closed pipe: nothing more can be shown
            }
        }
    }
}

extension NotifyctlError {
    /// `cannot read 'PATH': REASON`, for a file that cannot be read.
    public static func cannotRead(_ path: String, _ reason: String) -> NotifyctlError {
        .failure(
            LocalName.cannotRead, "cannot read '\(SafeText.clean(path))': \(reason)",
            parameters: ["path": .string(path), "reason": .string(reason)])
    }
}
