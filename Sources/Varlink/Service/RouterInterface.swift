/// The `io.notifyd.Router` interface: the varlink contract of notifyd (docs/design.md §4).
///
/// ``idl`` is byte-for-byte the text of `varlink/io.notifyd.Router.varlink` in the repository
/// (a test keeps them identical); `GetInterfaceDescription` serves it verbatim.
public enum RouterInterface {
    /// The interface name, `io.notifyd.Router`.
    public static let name = "io.notifyd.Router"

    /// The interface definition text.
    public static let idl = #"""
        # Routing of push notifications to the screens of an app.
        #
        # notifyd turns a notification payload or a deep link into a typed Page, walks
        # the app's coordinator graph from "app" to the coordinator that owns the page,
        # and answers with a Decision: the ordered steps that get there from where the
        # device is now, login gates with a pending link, and a trace when asked. It
        # keeps each device's navigation state and the history of its decisions.
        interface io.notifyd.Router

        # A typed destination: one case of a coordinator's Page enum and its arguments.
        type Page (
          # The page id, "coordinator.case", e.g. "cart.offer".
          id: string,
          # The case's arguments by label, typed as declared: strings, numbers and
          # booleans as JSON values, UUIDs and enum cases as strings, lists as arrays.
          arguments: object,
          # The page written as a Swift case, e.g. cart.offer(id: "SUMMER").
          description: string
        )

        # Where in the payload the link was found.
        type Source (
          # The payload format: apns, fcm, fcm-legacy, ntfy, gotify, webpush, expo or
          # link (Resolve's link, its field "link"); docs/payloads.md says how each is
          # detected.
          format: string,
          # The payload field the link or category was read from, e.g. "deeplink" or
          # "message.data.custom.u"; for opened and silent, the field that decided,
          # e.g. "aps.alert", "aps.content-available", "headers.apns-push-type".
          field: string,
          # The link as found; null when a category mapping chose the page, and for
          # opened and silent.
          link: ?string,
          # The apns-topic header the push came with; absent without one.
          topic: ?string
        )

        # One navigation step; a client applies the steps of a Decision in order.
        type Step (
          # start: create and start a child coordinator; activate: reuse one already
          # started; selectTab: select a tab of a tabs coordinator; present and
          # dismiss: a modal; popTo, push, setRoot and display: a page of a stack.
          action: (start, activate, selectTab, present, dismiss, popTo, push, setRoot, display),
          # The coordinator that performs the step.
          coordinator: string,
          # With selectTab: the tab to select.
          child: ?string,
          # With start and present: the coordinator that starts or presents it.
          parent: ?string,
          # With push, popTo, setRoot and display: the page's description.
          page: ?string,
          # With page: the page's id, as in Page.
          pageId: ?string,
          # With page: the page's arguments, as in Page.
          arguments: ?object
        )

        # A page kept behind a gate until the flow that provides its condition finishes.
        type Pending (
          # The page to resume.
          page: Page,
          # The providing coordinator that was presented.
          gate: string,
          # The condition the gate provides, e.g. "session".
          condition: string,
          # When the pending link is dropped: RFC 3339, UTC, millisecond precision.
          expiresAt: string
        )

        # A routing decision: which page a notification leads to and how to get there.
        type Decision (
          # A UUID that names the decision in the history.
          id: string,
          # The device the decision was made for; null without a device.
          device: ?string,
          # routed: the steps reach the page; gated: a providing flow is presented
          # first and the page is pending; fallback: no candidate routed (none matched,
          # or each was refused, named in warnings) and the app's fallback page is
          # used; resumed: a pending page continued after its gate; opened: a visible
          # notification without a usable link, the app comes forward where it is (no
          # page, no steps); silent: nothing to tap (a background update, a badge, data
          # only) or a push that never navigates (a Live Activity event, a non-alert
          # apns-push-type): no page, no steps, no state change.
          outcome: (routed, gated, fallback, resumed, opened, silent),
          # Where the decision came from; null for the decisions FlowFinished makes.
          source: ?Source,
          # The page the decision leads to; null for opened and silent.
          page: ?Page,
          # The coordinators from "app" to the page's owner.
          path: []string,
          # The steps from the device's current state, or from a cold start.
          steps: []Step,
          # The page kept behind a gate; set when the outcome is gated.
          pending: ?Pending,
          # What the payload carried that was not used, e.g. an unknown key inside
          # aps, each refused candidate of a fallback decision and why, e.g.
          # "deeplink: 'http://shop.example.com/x' is refused: ...", and a pending
          # page this decision dropped (its gate dismissed, or a newer gated page in
          # its place); absent when there is nothing to say.
          warnings: ?[]string,
          # Why: candidates tried, scores and rejections; only when explain was asked.
          trace: ?[]string,
          # When the decision was made: RFC 3339, UTC.
          createdAt: string
        )

        # The navigation state of one device.
        type DeviceState (
          # The visible chain of coordinators from "app" to the top-most, modals
          # included, e.g. ["app", "main", "cart", "payment"].
          path: []string,
          # Every coordinator started and still alive; tabs keep their stacks when
          # not selected.
          started: []string,
          # The selected child of each tabs coordinator.
          tabs: [string]string,
          # The page stack of each stack or flow coordinator, bottom first.
          stacks: [string][]Page,
          # The satisfied conditions, e.g. "session".
          conditions: []string,
          # The page waiting behind a gate, if any.
          pending: ?Pending
        )

        # Routes a notification payload: APNs, FCM (HTTP v1, the Admin SDKs' shape or
        # legacy), ntfy, Gotify, Web Push or Expo; a bare link goes through Resolve.
        # The format is detected unless format names it (apns, fcm, fcm-legacy, ntfy,
        # gotify, webpush, expo). Candidates are tried in order; a refused one is
        # skipped with its reason. A payload without a usable link is opened when it
        # shows a notification (links.unlinked may send it to the fallback page, or
        # refuse it with InvalidPayload), else silent. headers are the transport
        # headers the push came with, names in any case: apns-push-type (any type but
        # alert makes the decision silent), apns-topic (the decision's source.topic),
        # apns-collapse-id, apns-priority, Web Push Topic and Urgency; a value the
        # service would refuse is InvalidPayload. strict rejects APNs, FCM, Web Push
        # and Expo payloads over the 4096 bytes those services accept, with
        # PayloadTooLarge. With a device the steps start from its state and, unless
        # dryRun is set, the state becomes what the steps produce. explain adds the
        # trace.
        method Route(payload: object, device: ?string, dryRun: ?bool, explain: ?bool, format: ?string, strict: ?bool, headers: ?[string]string) -> (decision: Decision)

        # Routes a link (custom scheme or universal link) the same way as Route; a
        # refused link leads to the app's fallback page, else NoRoute.
        method Resolve(link: string, device: ?string, dryRun: ?bool, explain: ?bool) -> (decision: Decision)

        # Tells that a presented flow finished on a device: its condition is satisfied
        # and the pending page, if any, resumes. dropped says why a pending page did
        # not resume, e.g. it expired.
        method FlowFinished(device: string, coordinator: string) -> (resumed: ?Decision, state: DeviceState, dropped: ?string)

        # Returns a device's navigation state; null for a device notifyd has not seen.
        method GetState(device: string) -> (state: ?DeviceState)

        # Replaces a device's navigation state, e.g. after the app restored its screens.
        method SetState(device: string, state: DeviceState) -> ()

        # Forgets a device's state and pending link; existed is false when it had none.
        method ForgetDevice(device: string) -> (existed: bool)

        # Returns one decision from the history.
        method GetDecision(id: string) -> (decision: Decision)

        # Returns the latest decisions, newest first, for one device or all of them.
        method ListDecisions(device: ?string, limit: ?int) -> (decisions: []Decision)

        # One stored decision, with what routing it again needs (notifyctl replay).
        type HistoryEntry (
          # The decision as it was made and stored; its source names the link.
          decision: Decision,
          # How the device stood when the decision was made. state: as state holds;
          # coldStart: it had no state (a device never seen, or none named); unknown:
          # not recorded (decisions an older notifyd stored, and those FlowFinished made).
          startedFrom: (state, coldStart, unknown),
          # With startedFrom state: the device's state the decision started from.
          state: ?DeviceState
        )

        # Pages through the stored history, newest first, with the state each decision
        # started from: what notifyctl replay routes again with a candidate config.
        # Only stored decisions: dry runs are never stored, and without a state
        # directory nothing is. device keeps one device's decisions; since (RFC 3339)
        # leaves out those made before it; before continues a listing from the previous
        # reply's next. At most limit entries (100 unless told, 1000 at most); next is
        # null once nothing older is left.
        method ListHistory(device: ?string, since: ?string, before: ?int, limit: ?int) -> (entries: []HistoryEntry, next: ?int)

        # Streams every new decision as it is made; requires the more flag. A oneway
        # Monitor gets nothing and is not registered. The stream ends only with the
        # connection, so a connection that monitors makes no further call: one that
        # arrives behind an open Monitor is a protocol error and closes the connection.
        method Monitor() -> (decision: Decision)

        # Returns the loaded coordinator graph: coordinators, pages and patterns.
        method GetGraph() -> (graph: object)

        # Returns counters and latency percentiles: latencyMicroseconds holds p50,
        # p90, p99 and max, and the count and sumMicroseconds of the calls timed.
        method GetStats() -> (stats: object)

        # Reloads the configuration; on error the loaded one stays and ConfigInvalid
        # lists every problem. generation counts successful loads.
        method Reload() -> (generation: int, warnings: []string)

        # The payload is not a notification notifyd can read; field says where, e.g.
        # "aps.badge" or "headers.apns-priority". JSON nested deeper than the limit is
        # this error too (reason names the byte), and the connection goes on.
        error InvalidPayload (reason: string, field: string)

        # Every candidate was refused and the app has no fallback page. link is the
        # first candidate; reasons names each candidate and why it was refused, e.g.
        # "deeplink: 'ftp://x' is refused: scheme 'ftp:' is not allowed; ...", as
        # explain prints them.
        error NoRoute (link: string, reasons: []string)

        # The page id is not declared in the graph.
        error UnknownPage (page: string)

        # notifyd holds no state for the device.
        error UnknownDevice (device: string)

        # No decision with this id is in the history.
        error DecisionNotFound (id: string)

        # The message is larger than the daemon accepts; sizes in bytes.
        error PayloadTooLarge (size: int, max: int)

        # The configuration was rejected and the loaded one kept; errors lists every
        # problem as file:line:column and what was expected; config is the file the
        # daemon read, as given to --config.
        error ConfigInvalid (errors: []string, config: string)

        # Too many requests from this peer; retry after the given milliseconds.
        error RateLimited (retryAfterMs: int)

        # The device state does not fit the graph; field says where.
        error InvalidState (reason: string, field: string)

        # FlowFinished named a coordinator that is not presented on the device.
        # presented lists the coordinators that are, and could finish (they provide a
        # condition), in the order they were started.
        error NotPresented (coordinator: string, presented: []string)

        # A parameter names what the graph does not declare, e.g. a coordinator that
        # FlowFinished cannot finish. reason says what is wrong in a sentence, value is
        # the text given, and suggestion the nearest declared name when one is close.
        # (The standard org.varlink.service.InvalidParameter names the parameter only;
        # it stays the answer to a parameter missing, unknown or of the wrong type.)
        error InvalidParameter (parameter: string, value: string, reason: string, suggestion: ?string)

        # FlowFinished named a coordinator that provides no condition: only a flow
        # declared with provides: can finish a gate. reason says so in full.
        error ProvidesNothing (coordinator: string, reason: string)

        # The state change of the request could not be saved; nothing was applied.
        # Retry; GetStats counts store failures and the journal says why.
        error StateNotSaved (reason: string)

        # The state store could not read the device's state or the history (a damaged
        # database); nothing was changed. The journal says why.
        error StateUnreadable (reason: string)

        """#

    /// The parsed interface.
    public static let interface: VarlinkInterface = {
        do {
            return try VarlinkInterface.parse(idl)
        } catch {
            preconditionFailure("the io.notifyd.Router IDL does not parse: \(error)")
        }
    }()

    /// The qualified name of a method of this interface, e.g. `io.notifyd.Router.Route`.
    public static func method(_ member: String) -> String { name + "." + member }
}
