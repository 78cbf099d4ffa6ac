import JSON

/// The JSON paths of the fields a reader looks at, computed from the options once.
///
/// Classes, so that handing them to the format readers costs a reference count, not a copy of every string.
final class PayloadFields: Sendable {
    /// The fields of an APNs payload at one place: the root, or `message.apns.payload` inside FCM.
    let apns: APNsFields
    /// The APNs payload inside an FCM HTTP v1 request.
    let fcmAPNs: APNsFields
    /// The APNs payload inside an FCM message as the Admin SDKs take it (their camel-case `aps` names too).
    let adminAPNs: APNsFields
    /// The fields of an FCM HTTP v1 request (`message.…`).
    let fcm: FCMFields
    /// The fields of an FCM message as the Admin SDKs take it (no `message` wrapper).
    let admin: FCMFields
    /// Each link key under `data` (FCM legacy, Expo, Web Push).
    let data: [LinkField]
    /// Each link key at the top level (Web Push).
    let root: [LinkField]
    /// Each link key under `notification.data` (a service worker's notification options under `notification`).
    let notificationData: [LinkField]
    /// ``PayloadOptions/categories``, looked up by the words of a short name rather than by hashing it.
    let categories: NameTable<PageExpression>

    init(linkKeys: [String], categories: [String: PageExpression]) {
        self.categories = NameTable(categories)
        let paths = linkKeys.map { key in (try? LinkKeyPath(parsing: key)) ?? LinkKeyPath(key: key) }
        apns = APNsFields(parent: "", linkKeys: paths, camelCase: false)
        fcmAPNs = APNsFields(parent: "message.apns.payload", linkKeys: paths, camelCase: false)
        adminAPNs = APNsFields(parent: "apns.payload", linkKeys: paths, camelCase: true)
        fcm = FCMFields(parent: "message", linkKeys: paths)
        admin = FCMFields(parent: "", linkKeys: paths)
        data = LinkField.all(paths, under: "data")
        root = LinkField.all(paths, under: "")
        notificationData = LinkField.all(paths, under: "notification.data")
    }
}

/// A link key's path and the JSON path it names in one kind of payload, e.g. `custom.u` and `message.data.custom.u`.
///
/// A class, as the other field tables are: a reader walks these for every payload, and a struct would be copied,
/// each of its strings retained, at every step.
final class LinkField: Sendable {
    /// The keys from the custom data down.
    let path: LinkKeyPath
    /// The path from the payload's root, as decisions and messages show it.
    let field: String
    /// The key when the path is one key (most are): looked up without going through the path's keys.
    let key: String?

    init(path: LinkKeyPath, field: String) {
        self.path = path
        self.field = field
        self.key = path.keys.count == 1 ? path.keys[0] : nil
    }

    /// The link keys as found under `parent` (empty for the root).
    static func all(_ paths: [LinkKeyPath], under parent: String) -> [LinkField] {
        paths.map { path in LinkField(path: path, field: path.keys.reduce(parent) { PayloadPath.child($0, $1) }) }
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
    /// `aps.alert`, `aps.event`, `aps.content-changed`, `aps.content-available`, `aps.badge`, `aps.sound`: what
    /// decides whether the notification shows.
    let alert: String, event: String, contentChanged: String, contentAvailable: String, badge: String, sound: String
    /// Each link key (except `aps`) with its path.
    let links: [LinkField]
    /// True inside an FCM message as the Admin SDKs take it, whose `aps` may use camel-case names
    /// (`contentAvailable`, `threadId`, `locKey`, …).
    let camelCase: Bool

    init(parent: String, linkKeys: [LinkKeyPath], camelCase: Bool) {
        self.parent = parent
        self.camelCase = camelCase
        aps = PayloadPath.child(parent, "aps")
        category = PayloadPath.child(aps, "category")
        targetContentID = PayloadPath.child(aps, "target-content-id")
        alert = PayloadPath.child(aps, "alert")
        event = PayloadPath.child(aps, "event")
        contentChanged = PayloadPath.child(aps, "content-changed")
        contentAvailable = PayloadPath.child(aps, camelCase ? "contentAvailable" : "content-available")
        badge = PayloadPath.child(aps, "badge")
        sound = PayloadPath.child(aps, "sound")
        links = LinkField.all(linkKeys.filter { $0.keys != ["aps"] }, under: parent)
    }
}

/// The field paths of an FCM message found at `parent` (`message`, or the root for the Admin SDK shape).
final class FCMFields: Sendable {
    let parent: String
    /// `data`, `notification`, `android.notification`, `webpush.notification`.
    let data: String, notification: String, androidNotification: String, webpushNotification: String
    /// The link fields, spelt as the REST API writes them and as the Admin SDKs do.
    let fcmOptionsLink: String, fcmOptionsLinkCamel: String
    let webpushClickAction: String, androidClickAction: String, androidClickActionCamel: String
    let dataClickAction: String
    /// Each link key under `data`.
    let links: [LinkField]

    init(parent: String, linkKeys: [LinkKeyPath]) {
        self.parent = parent
        data = PayloadPath.child(parent, "data")
        notification = PayloadPath.child(parent, "notification")
        androidNotification = PayloadPath.child(PayloadPath.child(parent, "android"), "notification")
        webpushNotification = PayloadPath.child(PayloadPath.child(parent, "webpush"), "notification")
        let webpush = PayloadPath.child(parent, "webpush")
        fcmOptionsLink = PayloadPath.child(PayloadPath.child(webpush, "fcm_options"), "link")
        fcmOptionsLinkCamel = PayloadPath.child(PayloadPath.child(webpush, "fcmOptions"), "link")
        webpushClickAction = PayloadPath.child(webpushNotification, "click_action")
        androidClickAction = PayloadPath.child(androidNotification, "click_action")
        androidClickActionCamel = PayloadPath.child(androidNotification, "clickAction")
        dataClickAction = PayloadPath.child(data, "click_action")
        links = LinkField.all(linkKeys, under: data)
    }
}

/// What the format readers gather while they walk a payload.
struct PayloadCollector {
    var candidates: [LinkCandidate] = []
    var warnings: [PayloadWarning] = []
    /// Why fields that were present gave no candidate; only filled on unusual paths, used by the no-link error and
    /// the trace.
    var notes: [String] = []
}
