/// What a payload says: its format, the links it offers in priority order, whether it shows anything to tap, and
/// warnings.
public struct PayloadReading: Sendable, Hashable {
    /// The format, detected or forced.
    public let format: PayloadFormat
    /// Candidate links, most authoritative first; the router tries them in this order. Empty for a payload with no
    /// link (most alerts, badges and silent updates).
    public let candidates: [LinkCandidate]
    /// What the notification shows, which decides the outcome when no candidate routes.
    public let presentation: Presentation
    /// Things that did not stop the reading but deserve a look: unknown `aps` keys, skipped categories, …
    public let warnings: [PayloadWarning]
    /// Why fields that were present gave no candidate (an identifier no category maps, …), and with explain the
    /// fields looked at: lines for the decision's trace.
    public let notes: [String]
    /// The `apns-topic` the push came with, for the decision's source.
    public let topic: String?

    /// A reading from its parts.
    public init(
        format: PayloadFormat, candidates: [LinkCandidate], presentation: Presentation = .shown(field: "$"),
        warnings: [PayloadWarning] = [], notes: [String] = [], topic: String? = nil
    ) {
        self.format = format
        self.candidates = candidates
        self.presentation = presentation
        self.warnings = warnings
        self.notes = notes
        self.topic = topic
    }

    /// What a notification shows a person, read from its payload and headers.
    public enum Presentation: Sendable, Hashable, CustomStringConvertible {
        /// A visible notification (an alert, a title or a body): tapping it opens the app. `field` is what makes it
        /// visible, e.g. `aps.alert`, `notification`, `message`.
        case shown(field: String)
        /// Nothing to tap (a background update, a badge, a sound, data only): without a link the app has nothing to
        /// open. `field` says why, e.g. `aps.content-available`, `message.data`.
        case hidden(field: String)
        /// A push that never navigates, links or not: a Live Activity event, a non-alert `apns-push-type`, an ntfy
        /// event other than `message`. `field` names it; `reason` says so in a sentence.
        case nonNavigating(field: String, reason: String)

        /// True for ``hidden(field:)``.
        public var isHidden: Bool {
            if case .hidden = self { return true }
            return false
        }

        /// The field that decided.
        public var field: String {
            switch self {
            case .shown(let field), .hidden(let field), .nonNavigating(let field, _): return field
            }
        }

        /// `shown by aps.alert`, `hidden: aps.content-available`, `never navigates: …`.
        public var description: String {
            switch self {
            case .shown(let field): return "a visible notification (\(field))"
            case .hidden(let field): return "nothing to tap (\(field))"
            case .nonNavigating(_, let reason): return reason
            }
        }
    }
}

/// One place in a payload that names where the notification leads.
public struct LinkCandidate: Sendable, Hashable, CustomStringConvertible {
    /// What the field holds.
    public enum Target: Sendable, Hashable, CustomStringConvertible {
        /// A link to match against the app's patterns, e.g. `shop://offers/SUMMER`.
        case link(String)
        /// A page named by a category mapping, with argument text read from the payload (not yet typed).
        /// Boxed: a target is then two words wide (a link's string, or the box's pointer) rather than the page
        /// case's seven, and candidates are copied, moved and destroyed as such (≈ 200 instructions fewer a dry
        /// run, by callgrind).
        indirect case page(PageID, arguments: [(label: String, text: String)], category: String)

        /// Targets are equal when their links, or their pages, arguments and categories, are.
        public static func == (lhs: Target, rhs: Target) -> Bool {
            switch (lhs, rhs) {
            case (.link(let a), .link(let b)):
                return a == b
            case (.page(let a, let x, let c), .page(let b, let y, let d)):
                return a == b && c == d && x.count == y.count && zip(x, y).allSatisfy { $0 == $1 }
            default:
                return false
            }
        }

        /// Hashes what `==` compares.
        public func hash(into hasher: inout Hasher) {
            switch self {
            case .link(let link):
                hasher.combine(0)
                hasher.combine(link)
            case .page(let page, let arguments, let category):
                hasher.combine(1)
                hasher.combine(page)
                hasher.combine(category)
                for argument in arguments {
                    hasher.combine(argument.label)
                    hasher.combine(argument.text)
                }
            }
        }

        /// The link, or the page with its arguments: `account.order(id: "42")`.
        public var description: String {
            switch self {
            case .link(let link):
                return link
            case .page(let page, let arguments, _):
                guard !arguments.isEmpty else { return page.description }
                let list = arguments.map { "\($0.label): \(Value.swiftStringLiteral($0.text))" }
                return page.description + "(" + list.joined(separator: ", ") + ")"
            }
        }
    }

    /// The format of the payload the candidate came from.
    public let format: PayloadFormat
    /// The JSON path of the field it came from: `deeplink`, `message.webpush.fcm_options.link`, `aps.category`;
    /// `$` for a bare link.
    public let field: String
    /// The link or the page.
    public let target: Target

    /// A candidate from its parts.
    public init(format: PayloadFormat, field: String, target: Target) {
        self.format = format
        self.field = field
        self.target = target
    }

    /// The link text when the target is a link, else `nil`.
    public var link: String? {
        if case .link(let link) = target { return link }
        return nil
    }

    /// `field: target`, e.g. `deeplink: shop://offers/SUMMER`.
    public var description: String { "\(field): \(target)" }
}

/// A remark about a payload that did not stop it from being read.
public struct PayloadWarning: Sendable, Hashable, CustomStringConvertible {
    /// The JSON path the remark is about, e.g. `aps.thread_id`.
    public let path: String
    /// What was noticed and what it means.
    public let message: String

    /// A warning from its parts.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`.
    public var description: String { "\(path): \(message)" }
}
