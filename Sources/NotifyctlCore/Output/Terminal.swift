#if canImport(Glibc)
import Glibc
#endif

/// What notifyctl's output goes to: whether stdout and stderr are terminals, and whether to colour them.
///
/// Colour is used only on a terminal, when `NO_COLOR` is not set (any value, even empty, turns it off) and
/// `TERM` is not `dumb`.
public struct Terminal: Sendable, Hashable {
    /// True when standard output is a terminal.
    public var outputIsTerminal: Bool
    /// True when standard error is a terminal.
    public var errorIsTerminal: Bool
    /// True when the environment allows colour (`NO_COLOR` unset, `TERM` not `dumb`).
    public var colourAllowed: Bool

    /// A terminal description from its parts.
    public init(outputIsTerminal: Bool, errorIsTerminal: Bool, colourAllowed: Bool) {
        self.outputIsTerminal = outputIsTerminal
        self.errorIsTerminal = errorIsTerminal
        self.colourAllowed = colourAllowed
    }

    /// Neither stream is a terminal: plain text (pipes, files, tests).
    public static let plain = Terminal(outputIsTerminal: false, errorIsTerminal: false, colourAllowed: false)

    /// The process's terminal, from `isatty` on file descriptors 1 and 2 and the environment.
    public static func detect(environment: [String: String]) -> Terminal {
        Terminal(
            outputIsTerminal: isatty(STDOUT_FILENO) == 1, errorIsTerminal: isatty(STDERR_FILENO) == 1,
            colourAllowed: colourAllowed(environment: environment))
    }

    /// False when `NO_COLOR` is set or `TERM` is `dumb`.
    public static func colourAllowed(environment: [String: String]) -> Bool {
        environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
    }

    /// The style for standard output.
    public var outputStyle: Style { Style(enabled: outputIsTerminal && colourAllowed) }
    /// The style for standard error.
    public var errorStyle: Style { Style(enabled: errorIsTerminal && colourAllowed) }
}

/// ANSI styling that does nothing when disabled, so printers write one code path for both.
public struct Style: Sendable, Hashable {
    /// True when escape sequences are written.
    public let enabled: Bool

    /// A style that colours when `enabled`.
    public init(enabled: Bool) {
        self.enabled = enabled
    }

    /// No colour at all.
    public static let plain = Style(enabled: false)

    func apply(_ code: String, _ text: String) -> String {
        enabled && !text.isEmpty ? "\u{1B}[\(code)m" + text + "\u{1B}[0m" : text
    }

    /// Bold.
    public func bold(_ text: String) -> String { apply("1", text) }
    /// Faint, for tree lines and secondary text.
    public func dim(_ text: String) -> String { apply("2", text) }
    /// Red and bold, for errors.
    public func error(_ text: String) -> String { apply("1;31", text) }
    /// Magenta and bold, for warnings.
    public func warning(_ text: String) -> String { apply("1;35", text) }
    /// Green, for success.
    public func good(_ text: String) -> String { apply("32", text) }
    /// Yellow, for what needs attention (gates, fallbacks).
    public func caution(_ text: String) -> String { apply("33", text) }
    /// Cyan, for names (coordinators, fields).
    public func name(_ text: String) -> String { apply("36", text) }
}

/// Text made safe for a terminal: control characters (C0, DEL, C1) become `\u{…}` escapes, so a link or a
/// payload field can never move the cursor or change the terminal's state.
enum SafeText {
    static func clean(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
