import Varlink

extension VarlinkReply {
    /// Appends `{"parameters":{"decision":<valueJSON>}}` and its NUL byte: the reply to a routing call, in three
    /// copies (each append to an array checks its uniqueness and capacity).
    @inlinable
    public static func encodeDecision(valueJSON: some Collection<UInt8>, into out: inout [UInt8]) {
        appendLiteral(#"{"parameters":{"decision":"#, to: &out)
        out.append(contentsOf: valueJSON)
        appendLiteral("}}\u{0}", to: &out)
    }

    /// Appends a literal's bytes with one copy (a string's `utf8` view is appended byte by byte).
    @inlinable @inline(__always)
    static func appendLiteral(_ text: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}
