import JSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension VarlinkInterface {
    /// A method's input compiled for calls read on a tape: the same declaration ``validate(parameters:for:)`` checks
    /// a tree against, with each name as bytes, so that a call is checked where it lies, without building values.
    ///
    /// It answers only whether the parameters conform. A call that does not (or that it cannot judge on the tape:
    /// an escaped key or enum value, a number with a fraction for an `int`) is for the tree's validation, which says
    /// what is wrong: `false` never lets a call through that the tree's check would refuse.
    public struct TapeCheck: Sendable {
        /// A type as the check walks it; named types are indices into ``definitions``, so recursive ones stay finite.
        indirect enum Shape: Sendable {
            case bool, int, float, string, object
            case optional(Shape)
            case array(Shape)
            case map(Shape)
            case enumeration([[UInt8]])
            case structure([Field])
            case named(Int)
        }

        /// A field: its name's bytes, its shape, and whether it may be absent (an optional type).
        struct Field: Sendable {
            let name: [UInt8]
            let shape: Shape
            let optional: Bool
        }

        /// The method's input fields.
        let fields: [Field]
        /// The interface's named types, by the index a ``Shape/named(_:)`` holds.
        let definitions: [Shape]

        /// The check of `method`'s input, a method of `interface`.
        public init(_ interface: VarlinkInterface, method: Method) {
            let names = interface.types.map(\.name)
            func index(_ name: String) -> Int {
                guard let i = names.firstIndex(of: name) else {
                    preconditionFailure("type \(name) was checked to be defined when the interface was parsed")
                }
                return i
            }
            func shape(_ type: VarlinkType) -> Shape {
                switch type {
                case .bool: return .bool
                case .int: return .int
                case .float: return .float
                case .string: return .string
                case .object: return .object
                case .named(let name): return .named(index(name))
                case .optional(let wrapped): return .optional(shape(wrapped))
                case .array(let element): return .array(shape(element))
                case .map(let value): return .map(shape(value))
                case .enumeration(let cases): return .enumeration(cases.map { Array($0.utf8) })
                case .structure(let fields): return .structure(fields.map(field))
                }
            }
            func field(_ declared: VarlinkField) -> Field {
                Field(name: Array(declared.name.utf8), shape: shape(declared.type), optional: declared.type.isOptional)
            }
            fields = method.input.map(field)
            definitions = interface.types.map { shape($0.type) }
        }

        /// True when `parameters` (the call's `parameters` object; `nil` when the call has none) conform to the
        /// method's input: every non-optional field present, no unknown or repeated field, every value of its
        /// declared type.
        public func conforms(_ parameters: JSONTape.Value?) -> Bool {
            guard let parameters else { return fields.allSatisfy(\.optional) }
            return conforms(parameters, to: fields)
        }

        private func conforms(_ object: JSONTape.Value, to fields: [Field]) -> Bool {
            guard object.isObject, fields.count <= 64 else { return false }
            var seen: UInt64 = 0
            for (key, value) in object.rawMembers {
                guard key.kind == .string, let name = key.rawStringBytes else { return false }
                guard let i = fields.firstIndex(where: { Self.equal($0.name, name) }) else { return false }
                let bit: UInt64 = 1 << UInt64(i)
                guard seen & bit == 0 else { return false }
                seen |= bit
                guard conforms(value, to: fields[i].shape) else { return false }
            }
            for (i, field) in fields.enumerated() where !field.optional && seen & (1 << UInt64(i)) == 0 {
                return false
            }
            return true
        }

        private func conforms(_ value: JSONTape.Value, to shape: Shape) -> Bool {
            switch shape {
            case .optional(let wrapped): return value.isNull || conforms(value, to: wrapped)
            case .bool: return value.kind == .bool
            case .int: return value.kind == .int
            case .float: return value.isNumber
            case .string: return value.isString
            case .object: return value.isObject
            case .enumeration(let cases):
                guard value.kind == .string, let text = value.rawStringBytes else { return false }
                return cases.contains { Self.equal($0, text) }
            case .array(let element):
                guard let elements = value.elements else { return false }
                for item in elements where !conforms(item, to: element) { return false }
                return true
            case .map(let valueShape):
                guard value.isObject else { return false }
                for (key, item) in value.rawMembers {
                    guard key.kind == .string, conforms(item, to: valueShape) else { return false }
                }
                return true
            case .structure(let fields): return conforms(value, to: fields)
            case .named(let index): return conforms(value, to: definitions[index])
            }
        }

        private static func equal(_ name: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            guard name.count == bytes.count else { return false }
            return name.withUnsafeBufferPointer { own in
                guard let a = own.baseAddress, let b = bytes.baseAddress else { return true }
                return memcmp(a, b, own.count) == 0
            }
        }
    }
}
