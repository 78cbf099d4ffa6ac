// Fuzz target: the JSON tape's two readers.
//
// The input is read by the tape's C reader alone and by its Swift reader alone. What the C reader takes, the Swift
// reader must take with the same nodes; what either takes, `JSON.parse` must read as the same value.
import JSON

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTape(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let raw = UnsafeRawBufferPointer(start: data, count: size)
    var c = JSONTape()
    var swift = JSONTape()
    let cTook = c.parse(raw, maxDepth: JSON.defaultMaxDepth, readers: .c)
    let swiftTook = swift.parse(raw, maxDepth: JSON.defaultMaxDepth, readers: .swift)
    if cTook {
        guard swiftTook else { fatalError("the C reader took a document the Swift reader declines") }
        guard c.nodes == swift.nodes else { fatalError("the readers wrote different nodes") }
    }
    if swiftTook {
        guard let tree = try? JSON.parse(Array(raw)) else { fatalError("the tape took a document the tree rejects") }
        guard swift.withRoot(raw, { $0.json }) == tree else {
            fatalError("the tape and the tree read different values")
        }
    }
    return 0
}
