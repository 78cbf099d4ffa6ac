import DeepLink

/// The page a request leads to, before the walk: which page, whether it came from a link or the
/// fallback, where it came from, and (with explain) why.
public struct RoutingTarget: Sendable {
    /// The typed page.
    public let page: Page
    /// `.routed` when a candidate matched, `.fallback` when `app.fallback` was used.
    public let outcome: Decision.Outcome
    /// The payload field and link that produced the page (a fallback keeps the first owned candidate's).
    public let source: DecisionSource?
    /// Candidates tried and why each was rejected (only with explain).
    public let trace: [String]

    /// A target from its parts.
    public init(page: Page, outcome: Decision.Outcome, source: DecisionSource?, trace: [String] = []) {
        self.page = page
        self.outcome = outcome
        self.source = source
        self.trace = trace
    }
}

/// Why no page could be chosen.
public struct TargetError: Error, Sendable, CustomStringConvertible {
    /// The first link (or candidate text) that was tried.
    public let link: String
    /// Why each candidate was rejected, in order.
    public let reasons: [String]
    /// With explain: every candidate tried and why it was rejected, as a decision's trace would say it.
    public var trace: [String] = []

    public var description: String {
        "no route for '\(link)'" + (reasons.isEmpty ? "" : ": " + reasons.joined(separator: "; "))
    }
}

extension Graph {
    /// Builds a typed page from argument text (a category's `$key` values, a fallback's literals).
    ///
    /// Every label must be declared; labels not given take their defaults; text must be non-empty and convert to
    /// the parameter's type. The error says which label failed and why.
    public func page(_ id: PageID, argumentTexts: [(label: String, text: String)]) -> Result<Page, TargetError> {
        func failure(_ reason: String) -> Result<Page, TargetError> {
            .failure(TargetError(link: id.description, reasons: [reason]))
        }
        guard let definition = page(id) else { return failure("\(id) is not a declared page") }
        for given in argumentTexts where !definition.declaration.parameters.contains(where: { $0.label == given.label })
        {
            return failure("\(id) has no parameter '\(given.label)'")
        }
        var arguments: [Page.Argument] = []
        arguments.reserveCapacity(definition.declaration.parameters.count)
        for parameter in definition.declaration.parameters {
            if let given = argumentTexts.first(where: { $0.label == parameter.label }) {
                // An empty value is a missing one: no link could carry it, and the app could not show it.
                guard !given.text.isEmpty else {
                    return failure("\(id): the value for '\(parameter.label)' is empty")
                }
                guard let value = parameter.type.convert(Substring(given.text)) else {
                    return failure("\(id): '\(given.text)' is not a valid \(parameter.type) for '\(parameter.label)'")
                }
                arguments.append(Page.Argument(label: parameter.label, value: value))
            } else if let value = parameter.defaultValue {
                arguments.append(Page.Argument(label: parameter.label, value: value))
            } else {
                return failure("\(id): missing argument '\(parameter.label)'")
            }
        }
        return .success(Page(id: id, arguments: arguments))
    }

    /// The page of an expression whose arguments are all literals (the fallback).
    public func page(for expression: PageExpression) -> Result<Page, TargetError> {
        switch expression.substitute({ _ in nil }) {
        case .success(let texts): return page(expression.page, argumentTexts: texts)
        case .failure(let missing):
            return .failure(
                TargetError(link: expression.description, reasons: ["'$\(missing.key)' has no payload to read from"]))
        }
    }

    /// Chooses the page for a payload's candidates: the first that matches a declared page wins;
    /// when none does, `app.fallback` (outcome `.fallback`); without a fallback, an error.
    ///
    /// The fallback is for links the app owns but does not know (an allowed scheme or host, no
    /// pattern) and for category pages whose arguments do not fit. When every candidate was refused
    /// outright (a scheme or host outside the allow-list, a malformed link) there is no fallback: a
    /// link is never "executed", and a foreign one must not open even the home page.
    public func target(for candidates: [LinkCandidate], explain: Bool = false) -> Result<RoutingTarget, TargetError> {
        var trace: [String] = []
        var reasons: [String] = []
        // The first candidate the app owns but does not know: the source of a fallback decision.
        var ownedButUnknown: LinkCandidate?
        for candidate in candidates {
            let source = DecisionSource(format: candidate.format.rawValue, field: candidate.field, link: candidate.link)
            switch candidate.target {
            case .link(let link):
                let match = matcher.match(link, explain: explain)
                if explain {
                    trace.append("\(candidate.field): link '\(link)'")
                    trace.append(contentsOf: match.trace.map { "  " + $0 })
                }
                switch match.result {
                case .success(let page):
                    if explain { trace.append("\(candidate.field): matched \(page)") }
                    return .success(RoutingTarget(page: page, outcome: .routed, source: source, trace: trace))
                case .failure(let error):
                    if error.code == .noMatch, ownedButUnknown == nil { ownedButUnknown = candidate }
                    reasons.append("\(candidate.field): \(error.reason)")
                    if explain { trace.append("\(candidate.field): rejected: \(error.reason)") }
                }
            case .page(let id, let arguments, let category):
                switch page(id, argumentTexts: arguments) {
                case .success(let page):
                    if explain { trace.append("\(candidate.field): category \(category) → \(page)") }
                    return .success(RoutingTarget(page: page, outcome: .routed, source: source, trace: trace))
                case .failure(let error):
                    if ownedButUnknown == nil { ownedButUnknown = candidate }
                    let reason = "category \(category): " + error.reasons.joined(separator: "; ")
                    reasons.append("\(candidate.field): \(reason)")
                    if explain { trace.append("\(candidate.field): rejected: \(reason)") }
                }
            }
        }
        let firstLink = candidates.first.map { $0.link ?? $0.target.description } ?? ""
        guard let owned = ownedButUnknown, let fallback = app.fallback, case .success(let page) = page(for: fallback)
        else {
            return .failure(TargetError(link: firstLink, reasons: reasons, trace: trace))
        }
        if explain { trace.append("no candidate matched: fallback \(page)") }
        let source = DecisionSource(format: owned.format.rawValue, field: owned.field, link: owned.link)
        return .success(RoutingTarget(page: page, outcome: .fallback, source: source, trace: trace))
    }
}
