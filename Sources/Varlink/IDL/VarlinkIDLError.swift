/// Why a text is not a valid varlink interface definition, and where.
public struct VarlinkIDLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line of the problem.
    public let line: Int
    /// The 1-based column (in UTF-8 bytes) of the problem.
    public let column: Int
    /// A sentence saying what was found and what was expected.
    public let message: String

    /// A problem at `line`:`column`.
    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// The problem as `line:column: message`.
    public var description: String { "\(line):\(column): \(message)" }
}
