import DeepLink

/// Checks a decoded ``ConfigDraft`` as a whole, before anything is served: references, reachability,
/// cycles, gates, patterns, back stacks and expressions. Every finding names the place in the file.
///
/// It works on partial drafts too (parts that failed to decode are already reported and are skipped here),
/// so one load reports every problem at once.
struct Validator {
    let draft: ConfigDraft
    private(set) var findings: [ConfigFinding] = []
    /// Coordinator index by name (the first declaration of a name).
    let coordinatorIndex: [String: Int]

    init(draft: ConfigDraft) {
        self.draft = draft
        var index: [String: Int] = [:]
        for (i, c) in draft.coordinators.enumerated() where index[c.name.value] == nil { index[c.name.value] = i }
        self.coordinatorIndex = index
    }

    /// Every finding about `draft`, in discovery order.
    static func validate(_ draft: ConfigDraft) -> [ConfigFinding] {
        var validator = Validator(draft: draft)
        validator.checkApp()
        validator.checkStructure()
        validator.checkHierarchy()
        validator.checkConditions()
        validator.checkPages()
        validator.checkPatterns()
        validator.checkExpressions()
        validator.checkReachablePages()
        return validator.findings
    }

    // MARK: Lookup

    func coordinator(_ name: String) -> CoordinatorDraft? {
        coordinatorIndex[name].map { draft.coordinators[$0] }
    }

    /// The first page named `name` in `coordinator`.
    func page(_ name: String, in coordinator: CoordinatorDraft) -> PageDraft? {
        coordinator.pages.first(where: { $0.name == name })
    }

    var coordinatorNames: [String] { draft.coordinators.map(\.name.value) }

    // MARK: Reporting

    mutating func error(_ code: String, at location: SourceLocation, _ message: String) {
        findings.append(.error(code, at: location, message))
    }

    mutating func warning(_ code: String, at location: SourceLocation, _ message: String) {
        findings.append(.warning(code, at: location, message))
    }

    /// `unknown coordinator 'x' in 'main.children'`, with the closest declared name when one is close.
    mutating func unknownCoordinator(_ name: Located<String>, in what: String) {
        var message = "unknown coordinator '\(name.value)' in \(what)"
        if let guess = ConfigDecoder.closest(to: name.value, in: coordinatorNames) {
            message += "; did you mean '\(guess)'?"
        } else {
            message += "; declare it under 'coordinators:'"
        }
        error("unknown-coordinator", at: name.location, message)
    }

    /// `x` at `L:C`, for messages that point at an earlier declaration.
    static func place(_ location: SourceLocation) -> String { "\(location.line):\(location.column)" }

    /// `a, b and c`.
    static func list(_ names: [String]) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }
}
