import JSON

/// A call read from a ``JSONTape``: its method and flags, and its parameters left on the tape.
///
/// The server's fast way in: a handler that knows the method reads the parameters it needs from the tape, and no
/// tree of the call is built. A view exists only for a frame that ``VarlinkCall/init(frame:maxDepth:)-(UnsafeRawBufferPointer,_)``
/// accepts, and ``call`` is what that initializer reads; for any other frame the initializer reports the error.
/// Like every tape value, a view is valid only inside ``JSONTape/withRoot(_:_:)``.
public struct VarlinkCallView {
    /// The method, a string such as `io.notifyd.Router.Route`.
    public let method: JSONTape.Value
    /// The parameters object, or `nil` when the call has none.
    public let parameters: JSONTape.Value?
    /// The client wants no reply.
    public let oneway: Bool
    /// The client accepts several replies.
    public let more: Bool
    /// The client asks to leave varlink after the reply.
    public let upgrade: Bool

    /// The call in a tape's `root`, or `nil` when the root is not a valid call.
    public init?(_ root: JSONTape.Value) {
        guard root.isObject else { return nil }
        var method: JSONTape.Value? = nil
        var parameters: JSONTape.Value? = nil
        var flags = (oneway: false, more: false, upgrade: false)
        for (key, value) in root.rawMembers {
            if key.isString("method") {
                guard let bytes = value.rawStringBytes, value.kind == .string,
                    VarlinkNames.isQualifiedMethod(bytes)
                else { return nil }
                method = value
            } else if key.isString("parameters") {
                guard value.isObject else { return nil }
                parameters = value
            } else if key.isString("oneway") {
                guard let flag = value.boolValue else { return nil }
                flags.oneway = flag
            } else if key.isString("more") {
                guard let flag = value.boolValue else { return nil }
                flags.more = flag
            } else if key.isString("upgrade") {
                guard let flag = value.boolValue else { return nil }
                flags.upgrade = flag
            } else {
                return nil
            }
        }
        guard let method else { return nil }
        self.method = method
        self.parameters = parameters
        (oneway, more, upgrade) = flags
    }

    /// The call as a tree, as ``VarlinkCall/init(frame:maxDepth:)-(UnsafeRawBufferPointer,_)`` reads it.
    public var call: VarlinkCall {
        VarlinkCall(
            method: method.stringValue ?? "", parameters: parameters?.json.objectValue ?? JSONObject(),
            oneway: oneway, more: more, upgrade: upgrade)
    }
}
