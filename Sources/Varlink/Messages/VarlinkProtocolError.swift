import JSON

/// A message that breaks the varlink protocol; the connection that sent it cannot go on.
///
/// The server closes a connection on this error. Error replies, in contrast, are ``VarlinkError``
/// values and keep the connection open.
public struct VarlinkProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong, machine-readable.
    public enum Code: String, Sendable, Hashable {
        /// A message grew past the size limit before its terminating NUL byte.
        case messageTooLarge
        /// The message is not valid JSON (or nests deeper than allowed).
        case invalidJSON
        /// The message is valid JSON but not an object.
        case notAnObject
        /// The message has a key the protocol does not define.
        case unknownKey
        /// A call has no `method`.
        case missingMethod
        /// `method` is not a string of the form `reverse.domain.Interface.Method`.
        case invalidMethod
        /// `parameters` is present but not an object.
        case invalidParameters
        /// `oneway`, `more`, `upgrade` or `continues` is present but not a Boolean.
        case invalidFlag
        /// A reply's `error` is present but not a string.
        case invalidErrorName
        /// A call arrived on a connection whose earlier `more` call is still streaming: its reply
        /// could only follow the end of that stream, which ends with the connection.
        case callDuringStream
    }

    /// The kind of violation.
    public let code: Code
    /// A sentence saying what was wrong and what the protocol expects instead.
    public let message: String
    /// The JSON parse error behind an ``Code/invalidJSON`` violation.
    public let cause: JSONError?
    /// For ``Code/messageTooLarge``: the bytes of the message seen so far (all of it when its
    /// NUL arrived), enough to answer `PayloadTooLarge(size, max)` before closing.
    public let size: Int?

    /// A violation with its code and a message that says what the protocol expects.
    public init(_ code: Code, _ message: String, cause: JSONError? = nil, size: Int? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
        self.size = size
    }

    /// The violation as a sentence, with its code and cause.
    public var description: String {
        if let cause { return "varlink protocol violation (\(code.rawValue)): \(message): \(cause)" }
        return "varlink protocol violation (\(code.rawValue)): \(message)"
    }
}

extension VarlinkProtocolError {
    /// A ``Code/messageTooLarge`` violation for a message of `size` bytes, the NUL not counted: the whole
    /// message when `complete`, else the bytes that arrived before the stream ended without its NUL.
    public static func messageTooLarge(size: Int, max: Int, complete: Bool) -> VarlinkProtocolError {
        let message =
            complete
            ? "a message of \(size) bytes exceeds the limit of \(max) bytes"
            : "the stream ended after \(size) bytes of a message without its NUL byte, over the limit of \(max) bytes"
        return VarlinkProtocolError(.messageTooLarge, message, size: size)
    }

    /// The JSON object a frame holds, for decoding a call or a reply (`kind` names which in errors).
    static func object(
        in frame: UnsafeRawBufferPointer, maxDepth: Int, kind: String
    ) throws(VarlinkProtocolError)
        -> JSONObject
    {
        let value: JSON
        do {
            value = try JSON.parse(frame, maxDepth: maxDepth)
        } catch {
            throw VarlinkProtocolError(.invalidJSON, "a varlink message must be one JSON object", cause: error)
        }
        guard case .object(let object) = value else {
            throw VarlinkProtocolError(.notAnObject, "a varlink \(kind) must be a JSON object, not \(value.kindName)")
        }
        return object
    }
}
