/// An open file descriptor, as the daemon's signatures carry it (after swift-system's type of the same name, which
/// the daemon does not depend on): a socket, an eventfd, a locked directory. The raw number is taken out only where
/// a C call is made, so that a descriptor is not mistaken for another `Int32` (a pid, a count, a C return code).
public struct FileDescriptor: RawRepresentable, Hashable, Sendable {
    /// The descriptor's number, as the C calls take it.
    public let rawValue: Int32

    /// The descriptor numbered `rawValue`.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The process's standard error.
    public static let standardError = FileDescriptor(rawValue: 2)
}
