import JSON

/// A method call as sent by a varlink client.
///
/// On the wire: `{"method": "io.notifyd.Router.Route", "parameters": {...}, "oneway": false,
/// "more": false, "upgrade": false}` followed by a NUL byte. Only `method` is required.
public struct VarlinkCall: Sendable, Hashable {
    /// The fully qualified method, `reverse.domain.Interface.Method`.
    public var method: String
    /// The call's parameters; an absent `parameters` key reads as an empty object.
    public var parameters: JSONObject
    /// The client wants no reply.
    public var oneway: Bool
    /// The client accepts several replies, each but the last with `continues: true`.
    public var more: Bool
    /// The client asks to leave varlink for a custom protocol after the reply.
    public var upgrade: Bool

    /// A call of `method` with `parameters`.
    public init(
        method: String, parameters: JSONObject = [:], oneway: Bool = false, more: Bool = false,
        upgrade: Bool = false
    ) {
        self.method = method
        self.parameters = parameters
        self.oneway = oneway
        self.more = more
        self.upgrade = upgrade
    }

    /// The interface part of ``method``: `io.notifyd.Router` for `io.notifyd.Router.Route`.
    public var interface: Substring {
        guard let dot = lastDot else { return method[...] }
        return method[..<dot]
    }

    /// The member part of ``method``: `Route` for `io.notifyd.Router.Route`.
    public var memberName: Substring {
        guard let dot = lastDot else { return method[...] }
        return method[method.utf8.index(after: dot)...]
    }

    /// Where the last `.` of ``method`` is, found in its contiguous bytes.
    private var lastDot: String.Index? {
        var method = method
        guard let offset = method.withUTF8({ VarlinkNames.lastDot($0) }) else { return nil }
        return self.method.utf8.index(self.method.utf8.startIndex, offsetBy: offset)
    }
}

// MARK: - Decoding

extension VarlinkCall {
    /// Parses and validates a call from one frame (the message without its NUL byte).
    ///
    /// The frame must be a JSON object nested at most `maxDepth` levels, with no keys other than
    /// `method`, `parameters`, `oneway`, `more` and `upgrade`; `method` must be a string of the
    /// form `reverse.domain.Interface.Method`, `parameters` an object, and the flags Booleans.
    ///
    /// - Throws: ``VarlinkProtocolError`` naming the first violation.
    public init(frame: UnsafeRawBufferPointer, maxDepth: Int = JSON.defaultMaxDepth) throws(VarlinkProtocolError) {
        let object = try VarlinkProtocolError.object(in: frame, maxDepth: maxDepth, kind: "call")
        var method: String?
        var parameters = JSONObject()
        var flags = (oneway: false, more: false, upgrade: false)
        for member in object.members {
            let (key, value) = (member.key, member.value)
            if JSONObject.keysEqual(key, "method") {
                guard case .string(let name) = value else {
                    throw VarlinkProtocolError(.invalidMethod, "\"method\" must be a string, not \(value.kindName)")
                }
                method = name
            } else if JSONObject.keysEqual(key, "parameters") {
                guard case .object(let object) = value else {
                    throw VarlinkProtocolError(
                        .invalidParameters, "\"parameters\" must be an object, not \(value.kindName)")
                }
                parameters = object
            } else if JSONObject.keysEqual(key, "oneway") {
                flags.oneway = try Self.flag(key, value)
            } else if JSONObject.keysEqual(key, "more") {
                flags.more = try Self.flag(key, value)
            } else if JSONObject.keysEqual(key, "upgrade") {
                flags.upgrade = try Self.flag(key, value)
            } else {
                throw VarlinkProtocolError(
                    .unknownKey,
                    "unknown key \"\(key)\" in a call; allowed: method, parameters, oneway, more, upgrade")
            }
        }
        guard let method else {
            throw VarlinkProtocolError(.missingMethod, "a varlink call needs a \"method\" key")
        }
        guard VarlinkNames.isQualifiedMethod(method) else {
            throw VarlinkProtocolError(
                .invalidMethod,
                "\"method\" must be reverse.domain.Interface.Method (e.g. io.notifyd.Router.Route), not \"\(method)\""
            )
        }
        self.init(
            method: method, parameters: parameters, oneway: flags.oneway, more: flags.more, upgrade: flags.upgrade)
    }

    /// Parses and validates a call from one frame; see ``init(frame:maxDepth:)-(UnsafeRawBufferPointer,_)``.
    public init(frame: ArraySlice<UInt8>, maxDepth: Int = JSON.defaultMaxDepth) throws(VarlinkProtocolError) {
        let result = frame.withUnsafeBytes { bytes in
            Result { () throws(VarlinkProtocolError) in try VarlinkCall(frame: bytes, maxDepth: maxDepth) }
        }
        self = try result.get()
    }

    /// Parses and validates a call from one frame; see ``init(frame:maxDepth:)-(UnsafeRawBufferPointer,_)``.
    public init(frame: [UInt8], maxDepth: Int = JSON.defaultMaxDepth) throws(VarlinkProtocolError) {
        try self.init(frame: frame[...], maxDepth: maxDepth)
    }

    private static func flag(_ key: String, _ value: JSON) throws(VarlinkProtocolError) -> Bool {
        guard case .bool(let flag) = value else {
            throw VarlinkProtocolError(.invalidFlag, "\"\(key)\" must be true or false, not \(value.kindName)")
        }
        return flag
    }
}

// MARK: - Encoding

extension VarlinkCall {
    /// Appends the call as a JSON object and its terminating NUL byte to `out`.
    ///
    /// Flags are written only when set; `parameters` is always written.
    public func encode(into out: inout [UInt8]) {
        out.append(contentsOf: #"{"method":"#.utf8)
        out.appendWritten { JSON.writeString(method, into: &$0) }
        out.append(contentsOf: #","parameters":"#.utf8)
        out.appendWritten(capacity: 256) { JSON.object(parameters).write(into: &$0) }
        if oneway { out.append(contentsOf: #","oneway":true"#.utf8) }
        if more { out.append(contentsOf: #","more":true"#.utf8) }
        if upgrade { out.append(contentsOf: #","upgrade":true"#.utf8) }
        out.append(UInt8(ascii: "}"))
        out.append(0)
    }
}
