import CoordinatorGraph
import DeepLink
import JSON

/// A decision's journal entry, formatted on the journal's thread: `MESSAGE` "routed cart.offer(id: …) for D" (or
/// "opened for D", "silent for D") and the decision fields of docs/design.md §6: without a page, no `NOTIFYD_PAGE` and no
/// `NOTIFYD_PATH`; `NOTIFYD_TOPIC` when the push came with an `apns-topic`.
struct DecisionJournalDetails: JournalDetails {
    let decision: Decision
    /// The link of a decision without a source (a Resolve's); a decision with one is journaled with its
    /// source's link (the same text, not copied here).
    let link: String?
    let dryRun: Bool
    let peerUID: UInt32
    /// Why the decision's commit failed; `nil` for a decision made.
    var notSaved: String?

    /// Its fields are named by ``JournalField`` constants only.
    var fieldNamesAreKnownValid: Bool { true }

    func render(into entry: inout JournalRecord) {
        write(into: &entry)
    }

    /// "routed cart.offer(id: …) for D (dry run)", then the fields, written as bytes (no text built on the way).
    func write<Writer: JournalEntryWriter & ~Copyable>(into entry: inout Writer) {
        // The closures below capture these locals only: one that used a stored property would capture the details
        // whole, and copy them (their references counted) twice for each entry.
        let decision = decision
        let id = decision.decisionID
        let page = decision.page
        let device = decision.device
        let outcome = decision.outcome
        let (dryRun, notSaved, peerUID) = (dryRun, notSaved != nil, peerUID)
        var description = 0..<0
        let plain = entry.writeMessage { out in
            if notSaved { out.append("not saved, the client was told StateNotSaved: ") }
            out.append(utf8: outcome.rawValue)
            if let page {
                out.append(UInt8(ascii: " "))
                let start = out.count
                page.writeDescription(into: &out)
                description = start..<out.count
            }
            if let device {
                out.append(" for ")
                out.append(utf8: device)
            }
            if dryRun { out.append(" (dry run)") }
        }
        // A UUID, an outcome's name and a number are written as they are (nothing in them to escape or quote).
        if id.isUUID {
            entry.plainField(JournalKey.decisionID) { id.write(into: &$0) }
        } else {
            entry.field(JournalKey.decisionID) { id.write(into: &$0) }
        }
        entry.plainField(JournalKey.outcome) { $0.append(utf8: outcome.rawValue) }
        if let page {
            if plain {
                entry.field(JournalKey.page, copyingMessageBytes: description)  // written once
            } else {
                entry.field(JournalKey.page) { page.writeDescription(into: &$0) }
            }
        }
        if page == nil {
            // An opened or silent decision has no path.
        } else if decision.pathIsPlain {
            // The resolver's coordinators, each an ASCII identifier: copied from the bytes it keeps of their names.
            entry.plainField(JournalKey.path) { decision.writePlainPath(separator: UInt8(ascii: "/"), into: &$0) }
        } else {
            entry.field(JournalKey.path) { out in
                var first = true
                decision.forEachPathName { name in
                    if !first { out.append(UInt8(ascii: "/")) }
                    first = false
                    out.append(utf8: name)
                }
            }
        }
        entry.plainField(JournalKey.peerUID) { JSON.writeInt(Int(peerUID), into: &$0) }
        if let device { entry.field(JournalKey.device, device) }
        if let source = decision.source {
            entry.field(JournalKey.source) { out in
                out.append(utf8: source.format)
                out.append(UInt8(ascii: ":"))
                out.append(utf8: source.field)
            }
            if link == nil, let sourceLink = source.link { entry.field(JournalKey.link, sourceLink) }
            if let topic = source.topic { entry.field(JournalKey.topic, topic) }
        }
        if let link { entry.field(JournalKey.link, link) }
        if let reason = self.notSaved { entry.field(JournalKey.reason, reason) }
    }
}
