import CoordinatorGraph
import JSON

/// Prints the findings of `validate` like a compiler, `file:line:column: severity: message [code]`, with a
/// summary line; or as JSON for scripts.
public struct FindingPrinter: Sendable {
    /// Colours, or none.
    public let style: Style

    /// A printer with `style`.
    public init(style: Style) {
        self.style = style
    }

    /// Every finding on its own line, then `FILE: N errors, M warnings` (or the graph's size when it loaded).
    public func render(_ findings: [ConfigFinding], file: String, graph: Graph?) -> String {
        var out = ""
        for finding in findings {
            let severity =
                finding.severity == .error
                ? style.error("error:") : style.warning("warning:")
            out += style.bold(SafeText.clean(finding.location.description) + ":") + " " + severity + " "
            out += SafeText.clean(finding.message) + " " + style.dim("[" + finding.code + "]") + "\n"
        }
        out += summary(findings, file: file, graph: graph) + "\n"
        return out
    }

    /// The result as JSON, always with the same keys in the same order: `file`, `valid`, `errors` and `warnings`
    /// (counts), `coordinators` and `pages` (the graph's size, null when the config is rejected), and `findings`,
    /// each with `file`, `line`, `column`, `severity` (`error` or `warning`), `code` and `message`.
    public static func json(_ findings: [ConfigFinding], file: String, graph: Graph?) -> JSON {
        let entries: [JSON] = findings.map { finding in
            [
                "file": .string(finding.location.file), "line": .int(finding.location.line),
                "column": .int(finding.location.column), "severity": .string(finding.severity.rawValue),
                "code": .string(finding.code), "message": .string(finding.message),
            ]
        }
        return report(
            file: file, errors: findings.count { $0.severity == .error },
            warnings: findings.count { $0.severity == .warning }, graph: graph, findings: entries)
    }

    /// The JSON of a file that could not be read: one error finding, `unreadable-file`, about the whole file, so
    /// its `line` and `column` are null.
    public static func unreadableJSON(file: String, message: String) -> JSON {
        let finding: JSON = [
            "file": .string(file), "line": nil, "column": nil, "severity": "error", "code": "unreadable-file",
            "message": .string(message),
        ]
        return report(file: file, errors: 1, warnings: 0, graph: nil, findings: [finding])
    }

    static func report(file: String, errors: Int, warnings: Int, graph: Graph?, findings: [JSON]) -> JSON {
        [
            "file": .string(file),
            "valid": .bool(graph != nil),
            "errors": .int(errors),
            "warnings": .int(warnings),
            "coordinators": graph.map { .int($0.coordinators.count) } ?? nil,
            "pages": graph.map { graph in .int(graph.coordinators.reduce(0) { $0 + $1.pages.count }) } ?? nil,
            "findings": .array(findings),
        ]
    }

    func summary(_ findings: [ConfigFinding], file: String, graph: Graph?) -> String {
        let errors = findings.count { $0.severity == .error }
        let warnings = findings.count { $0.severity == .warning }
        let name = SafeText.clean(file) + ": "
        guard let graph else {
            return name + style.error(Self.count(errors, "error")) + ", " + Self.count(warnings, "warning")
        }
        let pages = graph.coordinators.reduce(0) { $0 + $1.pages.count }
        return name + style.good("valid") + ": " + Self.count(graph.coordinators.count, "coordinator") + ", "
            + Self.count(pages, "page") + ", " + Self.count(warnings, "warning")
    }

    static func count(_ n: Int, _ noun: String) -> String {
        "\(n) \(noun)" + (n == 1 ? "" : "s")
    }
}
