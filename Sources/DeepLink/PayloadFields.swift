import JSON

/// The JSON paths of the fields a reader looks at, computed from the options once.
///
/// Classes, so that handing them to the format readers costs a reference count, not a copy of every string.
final class PayloadFields: Sendable {
    /// The fields of an APNs payload at one place: the root, or `message.apns.payload` inside FCM.
    let apns: APNsFields
    /// The APNs payload inside an FCM HTTP v1 message.
    let fcmAPNs: APNsFields
    /// `message.data.<key>` for each link key.
    let fcmData: [(key: String, field: String)]
    /// `data.<key>` for each link key (FCM legacy).
    let legacyData: [(key: String, field: String)]
    /// ``PayloadOptions/categories``, looked up by the words of a short name rather than by hashing it.
    let categories: NameTable<PageExpression>

    init(linkKeys: [String], categories: [String: PageExpression]) {
        self.categories = NameTable(categories)
        apns = APNsFields(parent: "", linkKeys: linkKeys)
        fcmAPNs = APNsFields(parent: "message.apns.payload", linkKeys: linkKeys)
        fcmData = linkKeys.map { ($0, PayloadPath.child("message.data", $0)) }
        legacyData = linkKeys.map { ($0, PayloadPath.child("data", $0)) }
    }
}

/// The field paths of an APNs payload found at `parent`.
final class APNsFields: Sendable {
    /// The path of the payload itself; empty for the root.
    let parent: String
    /// `aps`
    let aps: String
    /// `aps.category`
    let category: String
    /// `aps.target-content-id`
    let targetContentID: String
    /// Each link key (except `aps`) with its path.
    let links: [(key: String, field: String)]

    init(parent: String, linkKeys: [String]) {
        self.parent = parent
        aps = PayloadPath.child(parent, "aps")
        category = PayloadPath.child(aps, "category")
        targetContentID = PayloadPath.child(aps, "target-content-id")
        links = linkKeys.filter { $0 != "aps" }.map { ($0, PayloadPath.child(parent, $0)) }
    }
}

/// What the format readers gather while they walk a payload.
struct PayloadCollector {
    var candidates: [LinkCandidate] = []
    var warnings: [PayloadWarning] = []
    /// Why fields that were present gave no candidate; only filled on unusual paths, used by the no-link error.
    var notes: [String] = []
}
