import JSON
import RouterContract
import Varlink

extension RouterService {
    /// A call nested deeper than the limit: a `Route` whose payload is too deep gets `InvalidPayload` (the payload
    /// is journaled as rejected), any other call `InvalidParameter` naming the parameter; the connection goes on.
    /// Nesting outside the parameters stays a protocol violation.
    func answerTooDeep(_ head: VarlinkCallHead, from connection: ClientConnection, outbox: Outbox) -> Bool {
        guard let parameter = head.parameter else { return false }
        stats.requests += 1
        let reason = "nested deeper than \(settings.maxJSONDepth) levels at byte \(head.offset) of the message"
        let error: VarlinkError
        if head.method == RouterInterface.method("Route"), parameter == "payload" {
            stats.rejectedPayloads += 1
            loopJournal.log(
                .payloadRejected, priority: .notice, message: "payload rejected: $: \(reason)",
                fields: [
                    (JournalField.field, "$"), (JournalField.reason, reason),
                    (JournalField.peerUID, String(connection.peer.uid)),
                ])
            error = .invalidPayload(reason: "the payload is " + reason, field: "$")
        } else {
            let call = VarlinkCall(method: head.method)
            if let named = description.interface(named: call.interface) {
                error =
                    named.method(named: call.memberName) == nil
                    ? .methodNotFound(head.method) : .invalidParameter(parameter)
            } else {
                error = .interfaceNotFound(call.interface)
            }
        }
        stats.countError(error.name)
        if !head.oneway { outbox.send(error.reply, to: connection) }
        return true
    }
}
