// Fuzz target: the link parser and matcher, against config/shop.yaml's graph.
//
// The graph is loaded once from FUZZ_CONFIG (default config/shop.yaml, relative to the working directory). Each
// input is parsed as a link and matched with and without a trace; a matched page's canonical link must match the
// same page again.
import CoordinatorGraph
import DeepLink
import JSON

#if canImport(Glibc)
import Glibc
#endif

let fuzzGraph: Graph = {
    let path = getenv("FUZZ_CONFIG").map { String(cString: $0) } ?? "config/shop.yaml"
    guard let file = fopen(path, "rb") else { fatalError("cannot open \(path); set FUZZ_CONFIG") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&buffer, 1, buffer.count, file)
        if n <= 0 { break }
        bytes += buffer[0..<n]
    }
    switch ConfigLoader.load(bytes, file: path) {
    case .success(let loaded): return loaded.graph
    case .failure(let error): fatalError("\(path) does not load: \(error)")
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLink(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let matcher = fuzzGraph.matcher
    _ = try? Link.parse(text, policy: LinkPolicy(schemes: fuzzGraph.app.schemes, hosts: fuzzGraph.app.hosts))
    let plain = matcher.match(text)
    let explained = matcher.match(text, explain: true)
    guard plain.page == explained.page else {
        let pages = "\(String(describing: plain.page)) vs \(String(describing: explained.page))"
        fatalError("explain must not change the match of \(text): \(pages)")
    }
    if let page = plain.page, let canonical = matcher.link(for: page) {
        let again = matcher.match(canonical)
        guard again.page == page else {
            let other = String(describing: again.page)
            fatalError("canonical link \(canonical) of \(page) (from \(text)) matches \(other)")
        }
    }
    return 0
}
