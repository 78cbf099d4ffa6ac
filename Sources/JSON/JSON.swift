/// A JSON value as read from or written to the wire.
///
/// Integers that fit in `Int` stay integers (`.int`); every other number is `.double`.
/// Objects keep their keys in document order (see ``JSONObject``).
public enum JSON: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSON])
    case object(JSONObject)

    /// The value under `key` when this is an object, else `nil`.
    public subscript(key: String) -> JSON? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// The string payload, or `nil` for any other kind.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The integer payload (a `.double` with no fraction counts), or `nil`.
    public var intValue: Int? {
        switch self {
        case .int(let i): return i
        case .double(let d) where d.rounded() == d && abs(d) < 9.0e18: return Int(d)
        default: return nil
        }
    }

    /// The Boolean payload, or `nil` for any other kind.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The object payload, or `nil` for any other kind.
    public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The array payload, or `nil` for any other kind.
    public var arrayValue: [JSON]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// True for `.null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The JSON kind as a word for error messages: "object", "array", "string", "number", "boolean", "null".
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .int, .double: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

/// A JSON object whose keys keep their document order.
///
/// Lookups are linear, which beats hashing for the handful of keys a payload or a
/// varlink message carries. Keys and values live side by side in one array: one allocation per object.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One key and its value.
    public struct Member: Sendable, Hashable {
        /// The key.
        public var key: String
        /// The value.
        public var value: JSON
    }

    /// The members, in order.
    public private(set) var members: [Member]

    /// An empty object.
    public init() {
        members = []
    }

    /// An object from key-value pairs; a repeated key keeps its last value.
    public init(_ pairs: [(String, JSON)]) {
        self.init()
        for (k, v) in pairs { self[k] = v }
    }

    public init(dictionaryLiteral elements: (String, JSON)...) {
        self.init(elements)
    }

    /// The keys, in order.
    public var keys: [String] { members.map(\.key) }

    /// The values, in the order of ``keys``.
    public var values: [JSON] { members.map(\.value) }

    /// The number of keys.
    public var count: Int { members.count }

    /// True when the object has no keys.
    public var isEmpty: Bool { members.isEmpty }

    /// The value for `key`; setting `nil` removes the key.
    public subscript(key: String) -> JSON? {
        @inlinable get {
            index(ofKey: key).map { members[$0].value }
        }
        set {
            if let i = index(ofKey: key) {
                if let newValue {
                    members[i].value = newValue
                } else {
                    members.remove(at: i)
                }
            } else if let newValue {
                members.append(Member(key: key, value: newValue))
            }
        }
    }

    /// True when the object has `key`.
    @inlinable @inline(__always)
    public func containsKey(_ key: String) -> Bool {
        index(ofKey: key) != nil
    }

    /// `a == b`: the standard library compares the two strings' representations first, so equal short keys (as
    /// keys nearly always are) answer without looking at their bytes.
    @inlinable
    public static func keysEqual(_ a: String, _ b: String) -> Bool {
        a == b
    }

    /// Where `key` is among the members: a key of the same UTF-8 length that compares equal. The lengths are
    /// compared first (O(1) for native and short strings), so most members are passed without a string comparison.
    @inlinable @inline(__always)
    func index(ofKey key: String) -> Int? {
        let length = key.utf8.count
        var i = 0
        while i < members.count {
            if members[i].key.utf8.count == length, members[i].key == key { return i }
            i += 1
        }
        return nil
    }

    /// Reserves room for `count` keys, so that the parser fills small objects with one allocation.
    mutating func reserveCapacity(_ count: Int) {
        members.reserveCapacity(count)
    }

    /// Appends without checking for an existing key (the parser checks).
    mutating func appendUnchecked(_ key: String, _ value: JSON) {
        members.append(Member(key: key, value: value))
    }

    @inlinable
    public func makeIterator() -> LazyMapSequence<[Member], (String, JSON)>.Iterator {
        members.lazy.map { ($0.key, $0.value) }.makeIterator()
    }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral,
    ExpressibleByFloatLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSON)...) { self = .object(JSONObject(elements)) }
    public init(nilLiteral: ()) { self = .null }
}
