/// How a ``PayloadReader`` finds links in payloads; built once from the graph configuration.
public struct PayloadOptions: Sendable {
    /// Custom payload keys that carry a link, in lookup order (`links.keys` in the config).
    ///
    /// APNs reads them as top-level keys, FCM as `data` keys. `aps` is never read as a link key.
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

    /// The default link keys: `deeplink`, `url`, `link`.
    public static let defaultLinkKeys = ["deeplink", "url", "link"]

    /// Options with every setting given or defaulted.
    public init(
        linkKeys: [String] = PayloadOptions.defaultLinkKeys,
        categories: [String: PageExpression] = [:],
        strict: Bool = false,
        maxStrictBytes: Int = 4096,
        format: PayloadFormat? = nil
    ) {
        self.linkKeys = linkKeys
        self.categories = categories
        self.strict = strict
        self.maxStrictBytes = maxStrictBytes
        self.format = format
    }
}
