import CoordinatorGraph
import Testing

/// Helpers shared by the config and validation tests.
enum ConfigTest {
    /// Loads YAML text as `test.yaml`.
    static func load(
        _ text: String, file: String = "test.yaml", format: ConfigFormat = .auto
    )
        -> Result<LoadedConfig, ConfigError>
    {
        ConfigLoader.load(Array(text.utf8), file: file, format: format)
    }

    /// Every finding of a load (the warnings of a success, the findings of a failure).
    static func findings(_ text: String, file: String = "test.yaml", format: ConfigFormat = .auto) -> [ConfigFinding] {
        switch load(text, file: file, format: format) {
        case .success(let loaded): return loaded.warnings
        case .failure(let error): return error.findings
        }
    }

    /// Findings as `line:column severity code`, the shape most tests compare.
    static func summary(_ text: String, file: String = "test.yaml", format: ConfigFormat = .auto) -> [String] {
        findings(text, file: file, format: format).map(summary)
    }

    static func summary(_ f: ConfigFinding) -> String {
        "\(f.location.line):\(f.location.column) \(f.severity.rawValue) \(f.code)"
    }

    /// The graph of a config that must load; records an issue with every finding otherwise.
    static func graph(
        _ text: String, file: String = "test.yaml", sourceLocation: Testing.SourceLocation = #_sourceLocation
    )
        -> Graph?
    {
        switch load(text, file: file) {
        case .success(let loaded):
            #expect(loaded.warnings.isEmpty, "\(loaded.warnings)", sourceLocation: sourceLocation)
            return loaded.graph
        case .failure(let error):
            Issue.record("config rejected:\n\(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// A small valid config; tests append coordinators or sections to it. Lines 1–13.
    static let minimal = """
        version: 1
        app:
          name: Test
          schemes: [test]
        coordinators:
          app:
            kind: app
            children: [main]
            root: main
          main:
            kind: stack
            pages:
              home: /home

        """
}
