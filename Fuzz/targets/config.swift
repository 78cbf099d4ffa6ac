// Fuzz target: the config loader, YAML and JSON.
//
// The input is loaded as YAML and as JSON. Bad input must come back as findings, never a trap; a config that loads
// must have a graph whose matcher answers.
import CoordinatorGraph
import DeepLink
import JSON

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for format in [ConfigFormat.yaml, .json] {
        switch ConfigLoader.load(bytes, file: "fuzz.yaml", format: format) {
        case .success(let loaded):
            _ = loaded.graph.matcher.match("/")
            for finding in loaded.warnings { _ = "\(finding)" }
        case .failure(let error):
            _ = "\(error)"
        }
    }
    return 0
}
