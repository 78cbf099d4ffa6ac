/// A reference that does not keep its object alive and costs no reference counting to use: for the closures the
/// daemon hands its event loop and the links between its long-lived objects, whose owner keeps the objects for as
/// long as the loop runs.
///
/// Release builds hold the object `unowned(unsafe)`. A weak or checked `unowned` reference would be safe, but a weak
/// reference moves its object's counts to a side table, where every retain and release of it takes the runtime's
/// slow path (≈ 1.2 k instructions per request on the loop, measured with the server and the service referenced
/// weakly). Debug builds, which every test runs, also keep a weak reference and stop with a message when the object
/// is used after it was freed, instead of reading freed memory.
struct Uncounted<Object: AnyObject> {
    private unowned(unsafe) let object: Object
    #if DEBUG
    private weak var check: Object?
    #endif

    init(_ object: Object) {
        self.object = object
        #if DEBUG
        check = object
        #endif
    }

    /// The object, which must still exist.
    @inline(__always)
    var value: Object {
        #if DEBUG
        precondition(check != nil, "\(Object.self) used after it was freed: its owner must outlive the loop")
        #endif
        return object
    }
}
