/// How a ``PayloadReader`` finds links in payloads; built once from the graph configuration.
public struct PayloadOptions: Sendable {
    /// Paths to custom payload keys that carry a link, in lookup order (`links.keys` in the config), each as
    /// ``LinkKeyPath`` reads it (`deeplink`, `custom.u`, `["a.b"]`); a path that does not parse is one plain key.
    ///
    /// APNs reads them from the top level, FCM, Expo and Web Push from `data`. `aps` is never read as a link key.
    public var linkKeys: [String]
    /// Categories (APNs `aps.category`, FCM `click_action`) that name a page, with `$key` arguments read from the
    /// payload's custom keys (`categories:` in the config).
    public var categories: [String: PageExpression]
    /// When true, APNs and FCM payloads larger than ``maxStrictBytes`` are rejected, as those services would.
    public var strict: Bool
    /// The size limit that strict mode enforces, in bytes of JSON text.
    public var maxStrictBytes: Int
    /// A format to read the payload as instead of detecting it; a payload that doesn't fit it is an error.
    public var format: PayloadFormat?
    /// What a visible notification without a usable link leads to (`links.unlinked`): the reader refuses one with
    /// `noLink` for ``Unlinked/error``; the router answers the other two.
    public var unlinked: Unlinked

    /// What a tap on a visible notification without a usable link leads to (`links.unlinked` in the config).
    public enum Unlinked: String, Sendable, Hashable, CaseIterable {
        /// The app comes forward where it is: the outcome `opened` (the default).
        case open
        /// The app's fallback page: the outcome `fallback`.
        case fallback
        /// An `InvalidPayload` error saying which fields were looked at.
        case error
    }

    /// The default link keys: `deeplink`, `url`, `link`.
    public static let defaultLinkKeys = ["deeplink", "url", "link"]

    /// Options with every setting given or defaulted.
    public init(
        linkKeys: [String] = PayloadOptions.defaultLinkKeys,
        categories: [String: PageExpression] = [:],
        strict: Bool = false,
        maxStrictBytes: Int = 4096,
        format: PayloadFormat? = nil,
        unlinked: Unlinked = .open
    ) {
        self.linkKeys = linkKeys
        self.categories = categories
        self.strict = strict
        self.maxStrictBytes = maxStrictBytes
        self.format = format
        self.unlinked = unlinked
    }
}
