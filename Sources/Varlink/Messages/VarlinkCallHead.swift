import JSON

/// What can be read of a call whose frame nests deeper than the parser accepts: its method, its flags, and which
/// parameter went too deep, so that the call gets a typed error reply instead of a closed connection.
///
/// Found by one pass over the bytes that keeps only the depth, the keys of the call and of its `parameters`, and the
/// method's string: no value is built, so nesting of any depth costs nothing but the pass.
public struct VarlinkCallHead: Sendable, Hashable {
    /// The fully qualified method, e.g. `io.notifyd.Router.Route`.
    public let method: String
    /// The client wants no reply.
    public let oneway: Bool
    /// The parameter whose value nests too deep; `nil` when the nesting is elsewhere.
    public let parameter: String?
    /// The byte of the frame where the nesting went past the limit.
    public let offset: Int

    /// The head of the call in `frame`, which nests deeper than `maxDepth`; `nil` when the frame nests no deeper,
    /// is not a well-bracketed object, or has no `method` string.
    public init?(tooDeep frame: UnsafeRawBufferPointer, maxDepth: Int) {
        let bytes = frame.bindMemory(to: UInt8.self)
        var depth = 0
        var i = 0
        var expectingKey = false
        var topKey: [UInt8] = []
        var inParameters = false
        var parameterKey: [UInt8]? = nil
        var method: String? = nil
        var oneway = false
        var deep: (offset: Int, parameter: [UInt8]?)? = nil
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "\""):
                guard let end = VarlinkCallHead.stringEnd(bytes, from: i) else { return nil }
                let text = Array(bytes[(i + 1)..<end])
                if expectingKey, depth == 1 {
                    topKey = text
                    expectingKey = false
                } else if expectingKey, depth == 2, inParameters {
                    parameterKey = text
                    expectingKey = false
                } else if depth == 1, topKey == Array("method".utf8) {
                    method = VarlinkCallHead.decoded(bytes[i...end])
                }
                i = end + 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                if depth > maxDepth, deep == nil { deep = (i, inParameters ? parameterKey : nil) }
                if b == UInt8(ascii: "{"), depth == 1 || (depth == 2 && topKey == Array("parameters".utf8)) {
                    expectingKey = true
                    if depth == 2 { inParameters = true }
                }
                i += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 2 { inParameters = false }
                depth -= 1
                guard depth >= 0 else { return nil }
                i += 1
            case UInt8(ascii: ","):
                if depth == 1 || (depth == 2 && inParameters) { expectingKey = true }
                i += 1
            case UInt8(ascii: "t"):
                if depth == 1, topKey == Array("oneway".utf8) { oneway = true }
                i += 1
            default:
                i += 1
            }
        }
        guard depth == 0, let deep, let method else { return nil }
        self.method = method
        self.oneway = oneway
        self.parameter = deep.parameter.map { String(decoding: $0, as: UTF8.self) }
        self.offset = deep.offset
    }

    /// The index of the quote that closes the string opening at `start`, skipping escaped characters.
    static func stringEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var i = start + 1
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "\\"): i += 2
            case UInt8(ascii: "\""): return i
            default: i += 1
            }
        }
        return nil
    }

    /// The string a quoted JSON token holds, escapes decoded; `nil` when it is not a valid JSON string.
    static func decoded(_ token: Slice<UnsafeBufferPointer<UInt8>>) -> String? {
        guard case .string(let text) = try? JSON.parse(Array(token)) else { return nil }
        return text
    }
}
