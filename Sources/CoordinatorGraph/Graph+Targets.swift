import DeepLink

/// The page a request leads to, before the walk: which page (none for `opened` and `silent`), how it was reached,
/// where it came from, what to warn about, and (with explain) why.
public struct RoutingTarget: Sendable {
    /// The typed page; `nil` when the outcome is `opened` or `silent`.
    public let page: Page?
    /// `.routed` when a candidate matched, `.fallback` when `app.fallback` was used, `.opened` or `.silent` when
    /// there is no page.
    public let outcome: Decision.Outcome
    /// The payload field and link that produced the page (a fallback keeps the first candidate's; `opened` and
    /// `silent` name the field that decided).
    public let source: DecisionSource?
    /// Candidates tried and why each was refused (only with explain).
    public let trace: [String]
    /// What the decision's `warnings` say: the payload's warnings, then each refused candidate and why.
    public let warnings: [String]

    /// A target from its parts.
    public init(
        page: Page?, outcome: Decision.Outcome, source: DecisionSource?, trace: [String] = [], warnings: [String] = []
    ) {
        self.page = page
        self.outcome = outcome
        self.source = source
        self.trace = trace
        self.warnings = warnings
    }
}

/// Why no page could be chosen: every candidate was refused and the app has no fallback page.
public struct TargetError: Error, Sendable, CustomStringConvertible {
    /// The first link (or candidate text) that was tried.
    public let link: String
    /// Why each candidate was refused, in order: the lines `NoRoute.reasons` carries and explain prints.
    public let reasons: [String]
    /// With explain: every candidate tried and why it was rejected, as a decision's trace would say it.
    public var trace: [String] = []

    public var description: String {
        "no route for '\(link)'" + (reasons.isEmpty ? "" : ": " + reasons.joined(separator: "; "))
    }
}

extension Graph {
    /// The page (or its absence) for a payload's reading (rules 1 to 3 of the routing contract, docs/payloads.md):
    ///
    /// - a push that never navigates (a Live Activity event, a non-alert push type, an ntfy control event) is
    ///   `silent`, its candidates unread;
    /// - otherwise the candidates are tried in order (``target(for:explain:)``): the first that routes wins; when
    ///   each was refused, the app's fallback page with the refusals as warnings, else ``TargetError``;
    /// - without candidates, a visible notification is `opened` (the app's fallback page with `links.unlinked:
    ///   fallback`), anything else `silent`.
    ///
    /// The target's warnings start with the payload's, and its trace (with explain) with the payload's warnings and
    /// notes.
    public func target(for reading: PayloadReading, explain: Bool = false) -> Result<RoutingTarget, TargetError> {
        let payloadWarnings = reading.warnings.isEmpty ? [] : reading.warnings.map(\.description)
        var trace: [String] = []
        if explain {
            trace = payloadWarnings.map { "warning: " + $0 } + reading.notes
        }
        func source(_ field: String) -> DecisionSource {
            DecisionSource(format: reading.format.rawValue, field: field, link: nil, topic: reading.topic)
        }
        if case .nonNavigating(let field, let reason) = reading.presentation {
            if explain {
                trace.append(reason + ": silent")
                for candidate in reading.candidates { trace.append("\(candidate.field): not followed") }
            }
            return .success(
                RoutingTarget(
                    page: nil, outcome: .silent, source: source(field), trace: trace, warnings: payloadWarnings))
        }
        guard reading.candidates.isEmpty else {
            let result = target(for: reading.candidates, explain: explain)
            // Most payloads have no warnings, no trace and no topic: the target as it is.
            if trace.isEmpty, payloadWarnings.isEmpty, reading.topic == nil { return result }
            switch result {
            case .success(var found):
                if reading.topic != nil { found = found.sourced(topic: reading.topic) }
                if trace.isEmpty, payloadWarnings.isEmpty { return .success(found) }
                return .success(
                    RoutingTarget(
                        page: found.page, outcome: found.outcome, source: found.source, trace: trace + found.trace,
                        warnings: payloadWarnings + found.warnings))
            case .failure(let error):
                return .failure(error)
            }
        }
        switch reading.presentation {
        case .shown(let field):
            if unlinked == .fallback, let expression = app.fallback, case .success(let page) = page(for: expression) {
                if explain { trace.append("\(reading.presentation) with no link: fallback \(page) (links.unlinked)") }
                return .success(
                    RoutingTarget(
                        page: page, outcome: .fallback, source: source(field), trace: trace, warnings: payloadWarnings))
            }
            if explain { trace.append("\(reading.presentation) with no link: opened, the app comes forward") }
            return .success(
                RoutingTarget(
                    page: nil, outcome: .opened, source: source(field), trace: trace, warnings: payloadWarnings))
        case .hidden(let field), .nonNavigating(let field, _):
            if explain { trace.append("\(reading.presentation) and no link: silent") }
            return .success(
                RoutingTarget(
                    page: nil, outcome: .silent, source: source(field), trace: trace, warnings: payloadWarnings))
        }
    }

    /// Chooses the page for candidates, tried in order: the first that routes wins. A candidate is refused when its
    /// link is not allowed (scheme, host), malformed (an escape, a control character, not a link at all), matches
    /// no pattern, or names a category page whose arguments do not fit; each refusal is one reason. When every
    /// candidate was refused: `app.fallback` (outcome `.fallback`, the reasons as its warnings; its source is the
    /// first candidate the app owns but has no page for, else the first candidate), else an error with the reasons.
    public func target(for candidates: [LinkCandidate], explain: Bool = false) -> Result<RoutingTarget, TargetError> {
        var trace: [String] = []
        var reasons: [String] = []
        // The first candidate the app owns but does not know: the source of a fallback decision when there is one.
        var ownedButUnknown: LinkCandidate?
        for candidate in candidates {
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
                    let source = DecisionSource(format: candidate.format.rawValue, field: candidate.field, link: link)
                    return .success(RoutingTarget(page: page, outcome: .routed, source: source, trace: trace))
                case .failure(let error):
                    if error.code == .noMatch, ownedButUnknown == nil { ownedButUnknown = candidate }
                    let reason = candidate.field + ": " + error.refusal(of: link)
                    reasons.append(reason)
                    if explain { trace.append(reason) }
                }
            case .page(let id, let arguments, let category):
                switch page(id, argumentTexts: arguments) {
                case .success(let page):
                    if explain { trace.append("\(candidate.field): category \(category) → \(page)") }
                    let source = DecisionSource(format: candidate.format.rawValue, field: candidate.field, link: nil)
                    return .success(RoutingTarget(page: page, outcome: .routed, source: source, trace: trace))
                case .failure(let error):
                    if ownedButUnknown == nil { ownedButUnknown = candidate }
                    let reason = "\(candidate.field): category \(category): " + error.reasons.joined(separator: "; ")
                    reasons.append(reason)
                    if explain { trace.append(reason) }
                }
            }
        }
        let firstLink = candidates.first.map { $0.link ?? $0.target.description } ?? ""
        guard let first = ownedButUnknown ?? candidates.first, let fallback = app.fallback,
            case .success(let page) = page(for: fallback)
        else {
            return .failure(TargetError(link: firstLink, reasons: reasons, trace: trace))
        }
        if explain { trace.append("no candidate routed: fallback \(page)") }
        let source = DecisionSource(format: first.format.rawValue, field: first.field, link: first.link)
        return .success(
            RoutingTarget(page: page, outcome: .fallback, source: source, trace: trace, warnings: reasons))
    }
}

extension RoutingTarget {
    /// The target with its source's topic set.
    func sourced(topic: String?) -> RoutingTarget {
        var source = self.source
        source?.topic = topic
        return RoutingTarget(page: page, outcome: outcome, source: source, trace: trace, warnings: warnings)
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
}
