/// Read access to a JSON value, shared by the value tree (``JSON``) and a tape's values (``JSONTape/Value``), so
/// that a reader written once reads either.
public protocol JSONReadable {
    /// The members of an object, in document order.
    associatedtype Members: Sequence<(key: String, value: Self)>
    /// A member's key as its bytes: a tape's key where it lies in the document, a tree's key as its string.
    associatedtype MemberKey: JSONKeyView
    /// The members of an object with their keys as ``MemberKey`` views, in document order.
    associatedtype KeyedMembers: Sequence<(key: MemberKey, value: Self)>
    /// The elements of an array.
    associatedtype Elements: Sequence<Self>

    /// The JSON kind as a word for error messages: "object", "array", "string", "number", "boolean", "null".
    var kindName: String { get }
    /// True for `null`.
    var isNull: Bool { get }
    /// True for an object.
    var isObject: Bool { get }
    /// True for a string.
    var isString: Bool { get }
    /// True for a number (checked without converting it).
    var isNumber: Bool { get }
    /// The string, or `nil` for any other kind.
    var stringValue: String? { get }
    /// True for a string whose text is exactly `text`, told from its bytes without building a string. A tape's
    /// string written with escapes answers false (``stringValue`` decodes it): a reader that accepts any spelling
    /// compares ``stringValue`` when this is false.
    func isString(_ text: StaticString) -> Bool
    /// True for the empty string, told without building it.
    var isEmptyString: Bool { get }
    /// The integer (a double with no fraction counts), or `nil`.
    var intValue: Int? { get }
    /// The number as a double, or `nil` for any other kind.
    var numberValue: Double? { get }
    /// The Boolean, or `nil` for any other kind.
    var boolValue: Bool? { get }
    /// The value under `key` when this is an object, else `nil`.
    subscript(key: String) -> Self? { get }
    /// The members of an object; none for any other kind.
    var members: Members { get }
    /// The members of an object with their keys left as bytes, for readers that look keys up rather than keep them;
    /// none for any other kind.
    var keyedMembers: KeyedMembers { get }
    /// The elements of an array, or `nil` for any other kind.
    var elements: Elements? { get }
    /// The value as a tree.
    var json: JSON { get }
}

extension JSON: JSONReadable {
    /// A key of an object, as its string.
    public typealias MemberKey = JSONObject.MemberKey

    /// The number as a double, or `nil` for any other kind.
    public var numberValue: Double? {
        switch self {
        case .int(let int): return Double(int)
        case .double(let double): return double
        default: return nil
        }
    }

    /// True for an object.
    public var isObject: Bool {
        if case .object = self { return true }
        return false
    }

    /// True for a number.
    public var isNumber: Bool {
        switch self {
        case .int, .double: return true
        default: return false
        }
    }

    /// True for a string.
    public var isString: Bool {
        if case .string = self { return true }
        return false
    }

    /// True for a string whose text is exactly `text` (its UTF-8 bytes compared).
    public func isString(_ text: StaticString) -> Bool {
        guard case .string(let string) = self else { return false }
        return UTF8Bytes.with(string) { utf8 in
            guard utf8.count == text.utf8CodeUnitCount else { return false }
            guard let base = utf8.baseAddress else { return true }
            return UTF8Bytes.equal(base, text.utf8Start, count: utf8.count)
        }
    }

    /// True for the empty string.
    public var isEmptyString: Bool {
        if case .string(let string) = self { return string.isEmpty }
        return false
    }

    /// The members of an object, in order; none for any other kind.
    public var members: LazyMapSequence<[JSONObject.Member], (key: String, value: JSON)> {
        let members: [JSONObject.Member]
        if case .object(let object) = self { members = object.members } else { members = [] }
        return members.lazy.map { (key: $0.key, value: $0.value) }
    }

    /// The members of an object, in order, each key as a ``JSONObject/MemberKey``; none for any other kind.
    @inlinable
    public var keyedMembers: KeyedMembers {
        if case .object(let object) = self { return KeyedMembers(members: object.members) }
        return KeyedMembers(members: [])
    }

    /// The members of an object, each key as a ``JSONObject/MemberKey``.
    public struct KeyedMembers: Sequence, IteratorProtocol {
        /// The object's members.
        @usableFromInline let members: [JSONObject.Member]
        /// The next member's index.
        @usableFromInline var index = 0

        /// The members `members`, from the first.
        @inlinable
        init(members: [JSONObject.Member]) {
            self.members = members
        }

        /// The next member, or `nil` after the last.
        @inlinable
        public mutating func next() -> (key: JSONObject.MemberKey, value: JSON)? {
            guard index < members.count else { return nil }
            let member = members[index]
            index &+= 1
            return (JSONObject.MemberKey(member.key), member.value)
        }
    }

    /// The elements of an array, or `nil` for any other kind.
    public var elements: [JSON]? { arrayValue }

    /// The value itself.
    public var json: JSON { self }
}

extension JSONTape.Value: JSONReadable {
    /// A key of an object, as its bytes in the document.
    public typealias MemberKey = JSONTape.MemberKey
}
