/// How to read config bytes.
public enum ConfigFormat: Sendable, Hashable {
    /// By the file's extension (`.yaml`/`.yml`, `.json`), else JSON when the first non-space byte is `{`.
    case auto
    /// YAML, parsed with libyaml.
    case yaml
    /// JSON of the same structure.
    case json
}

/// A config that loaded: its frozen graph and the warnings found on the way.
public struct LoadedConfig: Sendable {
    /// The validated, frozen graph.
    public let graph: Graph
    /// Findings of severity `warning`, in file order (empty for a clean config).
    public let warnings: [ConfigFinding]
    /// What ``graph`` was frozen from.
    let draft: ConfigDraft

    /// The same config with a graph of its own: frozen again from the same parse, equal to ``graph`` and sharing
    /// none of its objects (for another thread, whose reference counting then never touches this one's).
    public func refrozen() -> LoadedConfig {
        LoadedConfig(graph: draft.freeze(), warnings: warnings, draft: draft)
    }
}

/// Loads a graph config (docs/design.md §2): parse, decode, validate, freeze.
///
/// Pure: the caller reads the file and passes its bytes and name (the name only labels findings).
/// Every problem is reported in one pass; a config with any error yields no graph.
public enum ConfigLoader {
    /// Loads `bytes` as the config named `file`.
    ///
    /// - Returns: the graph and its warnings, or every error and warning found, sorted by position.
    public static func load(
        _ bytes: [UInt8], file: String, format: ConfigFormat = .auto
    ) -> Result<LoadedConfig, ConfigError> {
        let root: ConfigNode?
        var findings: [ConfigFinding]
        switch resolve(format, bytes: bytes, file: file) {
        case .json: (root, findings) = JSONConfigReader(file: file).read(bytes)
        case .yaml, .auto: (root, findings) = YAMLReader(file: file).read(bytes)
        }
        var draft: ConfigDraft?
        if let root {
            findings += root.duplicateKeyFindings()
            var decoder = ConfigDecoder()
            let decoded = decoder.decode(root)
            findings += decoder.findings
            findings += Validator.validate(decoded)
            draft = decoded
        } else if findings.isEmpty {
            findings.append(
                .error(
                    "empty-config", at: SourceLocation(file: file, line: 1, column: 1),
                    "the config is empty; expected a mapping with 'version: 1', 'app' and 'coordinators'"))
        }
        let sorted = sort(findings)
        guard let draft, !sorted.contains(where: { $0.severity == .error }) else {
            return .failure(ConfigError(findings: sorted))
        }
        return .success(LoadedConfig(graph: draft.freeze(), warnings: sorted, draft: draft))
    }

    /// The concrete format for `.auto`: the extension, else the first non-space byte.
    static func resolve(_ format: ConfigFormat, bytes: [UInt8], file: String) -> ConfigFormat {
        guard format == .auto else { return format }
        let lower = file.lowercased()
        if lower.hasSuffix(".json") { return .json }
        if lower.hasSuffix(".yaml") || lower.hasSuffix(".yml") { return .yaml }
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        let first = body.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D })
        return first == UInt8(ascii: "{") ? .json : .yaml
    }

    /// Findings by line and column; findings at the same place keep their discovery order.
    static func sort(_ findings: [ConfigFinding]) -> [ConfigFinding] {
        findings.enumerated().sorted { a, b in
            if a.element.location.line != b.element.location.line {
                return a.element.location.line < b.element.location.line
            }
            if a.element.location.column != b.element.location.column {
                return a.element.location.column < b.element.location.column
            }
            return a.offset < b.offset
        }.map(\.element)
    }
}
