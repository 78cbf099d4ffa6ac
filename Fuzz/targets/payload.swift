// Fuzz target: the payload reader, every format.
//
// The input is read as a payload with format detection, then once per named format, in lenient and strict modes.
// Bad input must come back as a PayloadError, never a trap.
import DeepLink
import JSON

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPayload(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let categories: [String: PageExpression] = [:]
    var formats: [PayloadFormat?] = [nil]
    formats += PayloadFormat.allCases.map { $0 }
    for format in formats {
        for strict in [false, true] {
            let options = PayloadOptions(
                linkKeys: ["deeplink", "url", "link"], categories: categories, strict: strict, format: format)
            if let reading = try? PayloadReader(options: options).read(bytes: bytes) {
                for candidate in reading.candidates { _ = candidate.description }
                for warning in reading.warnings { _ = warning.description }
            }
        }
    }
    return 0
}
