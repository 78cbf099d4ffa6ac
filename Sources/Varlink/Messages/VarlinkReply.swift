import JSON

/// A reply to a varlink call: parameters, or an error, and whether more replies follow.
///
/// On the wire: `{"parameters": {...}, "continues": true, "error": "iface.Name"}` followed by a
/// NUL byte; `continues` and `error` are written only when set.
public struct VarlinkReply: Sendable, Hashable {
    /// The reply's parameters; for an error reply, the error's parameters.
    public var parameters: JSONObject
    /// More replies to the same call follow (only for calls with `more`).
    public var continues: Bool
    /// The qualified error name of an error reply; `nil` for a successful reply.
    public var error: String?

    /// A successful reply.
    public init(parameters: JSONObject = [:], continues: Bool = false) {
        self.parameters = parameters
        self.continues = continues
        self.error = nil
    }

    /// An error reply.
    public init(error: VarlinkError) {
        self.parameters = error.parameters
        self.continues = false
        self.error = error.name
    }

    /// The error this reply carries, or `nil` for a successful reply.
    public var varlinkError: VarlinkError? {
        error.map { VarlinkError($0, parameters: parameters) }
    }
}

// MARK: - Encoding

extension VarlinkReply {
    /// Appends the reply as a JSON object and its terminating NUL byte to `out`.
    public func encode(into out: inout [UInt8]) {
        Self.encodeHead(into: &out)
        out.appendWritten(capacity: 256) { JSON.object(parameters).write(into: &$0) }
        Self.encodeTail(continues: continues, error: error, into: &out)
    }

    /// Appends a reply whose parameters object is already serialized JSON, and its NUL byte.
    ///
    /// Lets a server serialize a value once and send it to many connections (a decision streamed
    /// to every monitor). `parametersJSON` must be one complete JSON object.
    @inlinable
    public static func encode(
        parametersJSON: some Collection<UInt8>, continues: Bool = false, into out: inout [UInt8]
    ) {
        encodeHead(into: &out)
        out.append(contentsOf: parametersJSON)
        encodeTail(continues: continues, error: nil, into: &out)
    }

    /// Appends a successful reply whose parameters are one member holding already serialized JSON,
    /// `{"parameters":{"<member>":<valueJSON>}}`, and its NUL byte.
    ///
    /// `member` must not need escaping; `valueJSON` must be one complete JSON value.
    @inlinable
    public static func encode(
        member: StaticString, valueJSON: some Collection<UInt8>, continues: Bool = false, into out: inout [UInt8]
    ) {
        encodeHead(into: &out)
        append(#"{""#, to: &out)
        append(member, to: &out)
        append(#"":"#, to: &out)
        out.append(contentsOf: valueJSON)
        out.append(UInt8(ascii: "}"))
        encodeTail(continues: continues, error: nil, into: &out)
    }

    @inlinable @inline(__always)
    static func encodeHead(into out: inout [UInt8]) {
        append(#"{"parameters":"#, to: &out)
    }

    /// Appends a literal's bytes with one copy (a string's `utf8` view is appended byte by byte).
    @inlinable @inline(__always)
    static func append(_ text: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    @inlinable @inline(__always)
    static func encodeTail(continues: Bool, error: String?, into out: inout [UInt8]) {
        if continues { append(#","continues":true"#, to: &out) }
        if let error {
            append(#","error":"#, to: &out)
            out.appendWritten { JSON.writeString(error, into: &$0) }
        }
        out.append(UInt8(ascii: "}"))
        out.append(0)
    }
}

// MARK: - Decoding

extension VarlinkReply {
    /// Parses a reply from one frame (the message without its NUL byte).
    ///
    /// The frame must be a JSON object; `parameters` must be an object when present, `continues`
    /// a Boolean and `error` a string. Keys the protocol does not define are ignored, so that a
    /// client keeps working with a newer server.
    ///
    /// - Throws: ``VarlinkProtocolError`` naming the first violation.
    public init(frame: UnsafeRawBufferPointer, maxDepth: Int = JSON.defaultMaxDepth) throws(VarlinkProtocolError) {
        let object = try VarlinkProtocolError.object(in: frame, maxDepth: maxDepth, kind: "reply")
        self.init()
        for (key, value) in object {
            switch key {
            case "parameters":
                switch value {
                case .object(let parameters): self.parameters = parameters
                case .null: break
                default:
                    throw VarlinkProtocolError(
                        .invalidParameters, "\"parameters\" must be an object, not \(value.kindName)")
                }
            case "continues":
                switch value {
                case .bool(let flag): continues = flag
                case .null: break
                default:
                    throw VarlinkProtocolError(
                        .invalidFlag, "\"continues\" must be true or false, not \(value.kindName)")
                }
            case "error":
                switch value {
                case .string(let name): error = name
                case .null: break
                default:
                    throw VarlinkProtocolError(.invalidErrorName, "\"error\" must be a string, not \(value.kindName)")
                }
            default:
                continue
            }
        }
    }

    /// Parses a reply from one frame; see ``init(frame:maxDepth:)-(UnsafeRawBufferPointer,_)``.
    public init(frame: ArraySlice<UInt8>, maxDepth: Int = JSON.defaultMaxDepth) throws(VarlinkProtocolError) {
        let result = frame.withUnsafeBytes { bytes in
            Result { () throws(VarlinkProtocolError) in try VarlinkReply(frame: bytes, maxDepth: maxDepth) }
        }
        self = try result.get()
    }

    /// Parses a reply from one frame; see ``init(frame:maxDepth:)-(UnsafeRawBufferPointer,_)``.
    public init(frame: [UInt8], maxDepth: Int = JSON.defaultMaxDepth) throws(VarlinkProtocolError) {
        try self.init(frame: frame[...], maxDepth: maxDepth)
    }
}

// MARK: - Framing helpers

extension JSONObject {
    /// Appends the object as compact JSON followed by the NUL byte that ends a varlink message.
    public func appendVarlinkMessage(into out: inout [UInt8]) {
        out.appendWritten(capacity: 256) { JSON.object(self).write(into: &$0) }
        out.append(0)
    }
}
